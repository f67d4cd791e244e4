"""The hall as staff see it: tables with constraints, why matches wait, holds; a player's need.

Staff only (a need is private: never on a public route)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tavla.models.common import ApiModel, StrictModel

WaitReason = Literal[
    "held",
    "no_accessible_table",
    "accessible_table_busy",
    "no_streamed_table",
    "streamed_table_busy",
    "tables_busy",
]
Code = str


class TableAttributesBody(StrictModel):
    """What the organiser sets on one table; all off: a plain table."""

    accessible: bool = Field(default=False, description="step-free, wide")
    streamed: bool = Field(
        default=False, description="streamed or recorded: takes only matches marked for it"
    )
    reserved_for: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="an event or division id",
    )
    out_of_service: bool = False


class HallBody(StrictModel):
    """The matches to stream, the Main's top board, the tournaments sharing the hall."""

    streamed: list[str] = Field(default_factory=list, max_length=64)
    top_board: bool = False
    beside: list[str] = Field(default_factory=list, max_length=8)


class NeedBody(StrictModel):
    """A player's need at the tables (private)."""

    accessible: bool


class MyTableNeed(ApiModel):
    """My need at the tables of one tournament I am entered in (private)."""

    tournament_id: str
    name: str
    starts_at: str
    accessible: bool


class MyTableNeeds(ApiModel):
    needs: list[MyTableNeed] = Field(description="the tournaments I am entered in that are not over")


class HallTable(ApiModel):
    table: int
    match: Code | None = None
    accessible: bool = False
    streamed: bool = False
    reserved_for: str | None = None
    out_of_service: bool = False


class HallWait(ApiModel):
    """A queued match and why it is not on a table."""

    match: Code
    reason: WaitReason


class HallHold(ApiModel):
    """Who holds whom: the queued match, its player still playing, and where."""

    match: Code
    tavla_id: str
    name: str | None = None
    by_match: Code
    by_tournament: str | None = Field(default=None, description="null: this tournament")


class HallView(ApiModel):
    tables: list[HallTable]
    queue: list[HallWait]
    holds: list[HallHold]
    needs: list[str] = Field(description="Tavla IDs of the players who need an accessible table")
    streamed: list[Code]
    top_board: bool
    beside: list[str]
