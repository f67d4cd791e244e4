"""The board, the standings, the finish and the federation report as the API shows them.

Public models (board, standings) hold nothing private (R12.1): players appear as PlayerRef
(Tavla ID, name, club). The report is for the tournament's staff.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tavla.models.audit import AuditEntry
from tavla.models.common import ApiModel
from tavla.models.day import MatchView, PlayerRef, RoundSummary
from tavla.models.money_figures import MoneyFigures

EventName = Literal["main", "consolation", "last_chance"]
BOARD_ROWS = 32  # standings rows per event on the board: a venue screen shows no more


class StandingRow(ApiModel):
    """One place of an event; players sharing it have the same `place..place_to` (R10.1).

    Swiss and league rows carry the figures of the tie-break chain (R10.2): points, then
    head-to-head (points, then game-point difference, among the players level on points when
    every two of them met), then the overall point difference, then Buchholz.
    """

    place: int = Field(ge=1)
    place_to: int = Field(ge=1)
    label: str = Field(description="the place as shown: '2' or '5-8'")
    player: PlayerRef
    points: int | None = None
    head_to_head: int | None = None
    head_to_head_difference: int | None = None
    point_difference: int | None = None
    buchholz: int | None = None
    late_from_round: int | None = Field(
        default=None, description="entered late (Swiss, lives): the first round they played; null otherwise"
    )
    late_points: float | None = Field(
        default=None, description="Swiss: the points a late entrant started with, counted in the ranking"
    )


class EventStandings(ApiModel):
    """An event's standings: knockout places (elimination, lives) or the Swiss / league table."""

    division: str | None = Field(
        default=None, description="its division's id (R3.7); null when the tournament has one"
    )
    event: EventName
    system: Literal["knockout", "table"]
    rows: list[StandingRow] = Field(description="the places in order; on the board, the top rows only")
    total: int = Field(ge=0, description="rows of the whole table (GET .../standings has them all)")


class Standings(ApiModel):
    """Every event's standings; `final` once the tournament is finished, provisional before."""

    tournament_id: str
    final: bool
    events: list[EventStandings]


class TableView(ApiModel):
    """A table of the venue and the match on it, if any."""

    table: int = Field(ge=1)
    match: MatchView | None = None


class BracketRound(ApiModel):
    label: str = Field(description="R2, W3, L4, GF1, S3, RR5, V2")
    round: int
    matches: list[MatchView]


class Bracket(ApiModel):
    """An event's published matches, round by round."""

    division: str | None = Field(
        default=None, description="its division's id (R3.7); null when the tournament has one"
    )
    event: EventName
    rounds: list[BracketRound]


class Board(ApiModel):
    """What a venue screen and a phone show: the draw in play, the tables and their queue,
    the matches of the draws in play and of each event's latest draw (who plays whom, called /
    present / late, live score, state, result), and the top of the standings so far. Earlier
    rounds: GET .../rounds/{number}; the whole standings: GET .../standings. Public: no phone,
    no e-mail (R12.1)."""

    tournament_id: str
    name: str
    status: str
    finished_at: datetime | None = None
    current: list[RoundSummary] = Field(description="the draws with matches still to decide (else the last)")
    tables: list[TableView]
    queue: list[MatchView] = Field(description="matches waiting for a free table, in call order")
    brackets: list[Bracket] = Field(
        description="the matches of the draws in play and of each event's latest draw, round by round"
    )
    standings: list[EventStandings] = Field(description=f"each event's top {BOARD_ROWS} rows and its total")
    late: list[str] = Field(
        default_factory=list,
        description="Tavla IDs of the players entered late (Swiss, lives), marked on the pairings",
    )
    seq: int = Field(
        default=0,
        ge=0,
        description="the last delta of the tournament's live channel this board holds (0: none "
        "yet): a screen applies delta seq+1 next and reads the board again on a gap",
    )


class FinalStandings(ApiModel):
    """A finished tournament's final standings (R10.1, R10.2; disqualified players have no place, R8.3)."""

    tournament_id: str
    finished_at: datetime
    events: list[EventStandings]


class ReportResult(ApiModel):
    """One decided match, as the federation reads it."""

    code: str
    division: str | None = Field(
        default=None, description="its division's id (R3.7); null when the tournament has one"
    )
    event: str
    round: int
    label: str
    home: PlayerRef
    away: PlayerRef | None = None
    winner: str
    home_points: int
    away_points: int
    forfeit: bool
    how: str
    official_at: datetime | None = None


class RefusedEntry(ApiModel):
    """A registration the organiser refused (R3.7): kept for the federation (R2.3)."""

    player: PlayerRef
    division: str
    registered_at: datetime


class Report(ApiModel):
    """The federation report (R2.3): results, refused entries, who withdrew or was
    disqualified, the standings, and every recorded action (penalties, withdrawals,
    disqualifications, expulsions, appeals with their decisions and reasons, ...) grouped by
    action, oldest first."""

    tournament_id: str
    name: str
    status: str
    starts_at: datetime
    finished_at: datetime | None = None
    results: list[ReportResult]
    refused: list[RefusedEntry]
    withdrawn: list[PlayerRef]
    disqualified: list[PlayerRef]
    standings: list[EventStandings]
    money: MoneyFigures = Field(description="the tournament's money, in the words of every money response")
    actions: dict[str, list[AuditEntry]] = Field(
        description="the audit trail grouped by action: penalty, withdrawal, disqualification, "
        "appeal_lodged, appeal_decided, refused, checked_in, ..."
    )
