"""Ratings and the season as the API shows them (R10.3-R10.5): public fields only (R12.1)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field, model_validator

from tavla.models.common import ApiModel, Name, StrictModel
from tavla.models.players import PublicProfile
from tavla.rules.season import SeasonSettings


class RatingLine(ApiModel):
    """One official match of a player: the result, and the rating before and after it."""

    match_id: str
    tournament_id: str
    opponent: str
    won: bool
    forfeit: bool
    rated: bool = Field(description="false for a forfeit: it is a result, not rated (R10.3)")
    points_for: int
    points_against: int
    before: float
    after: float
    boost: float = Field(description="K, the experience boost of this match (0 when not rated)")
    rated_matches: int = Field(description="rated matches after this one")
    official_at: str


class PlayerPage(PublicProfile):
    """A player's public page (R12.1): profile, rating, provisional or not, history and results."""

    provisional: bool = Field(description="fewer than 30 rated matches: the rating moves faster")
    history: list[RatingLine] = Field(description="the latest official matches, newest first")
    history_next: str | None = Field(
        default=None, description="opaque cursor of the older matches (`?before=`); null: no more"
    )


class RatingRow(ApiModel):
    tavla_id: str
    name: str
    club: str | None = None
    city: str | None = None
    rating: float
    rated_matches: int
    provisional: bool


class RatingPage(ApiModel):
    """A page of the rating list, highest first; `next` is the opaque cursor of the next page."""

    which: Literal["national", "club", "city"] = Field(description="the list shown")
    players: list[RatingRow]
    next: str | None = None


class SeasonBody(StrictModel):
    """A season as the federation sets it (R10.4); leave `settings` out for the defaults."""

    name: Name
    starts_on: date
    ends_on: date
    federation: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        pattern=r"^[a-z0-9-]+$",
        description="the federation whose season it is (`GET /seasons?federation=`)",
    )
    settings: SeasonSettings = Field(default_factory=SeasonSettings)

    @model_validator(mode="after")
    def _dates(self) -> SeasonBody:
        if self.ends_on < self.starts_on:
            raise ValueError("a season ends after it starts")
        return self


class Season(SeasonBody):
    """A season and where it is in its life: `open` (not started), `running`, `closed` (by
    schedule at its end date: standings frozen, `to_invite` recorded)."""

    id: str
    status: Literal["open", "running", "closed"]
    closed_at: str | None = None
    to_invite: list[str] = Field(
        default_factory=list, description="the Super Final's invited, as frozen when the season closed"
    )


class SeasonList(ApiModel):
    """Seasons, the latest first (filtered by year and federation); `total` before paging."""

    seasons: list[Season]
    total: int


class SeasonStandingRow(ApiModel):
    tavla_id: str
    name: str | None = None
    club: str | None = None
    place: int
    place_to: int
    points: int
    tournaments: int
    head_to_head: int = Field(description="wins against the players level on points (R10.5)")
    point_difference: int
    opponents_points: int = Field(description="the sum of the opponents' season points")
    drawn: bool = Field(default=False, description="placed by the recorded draw, the last tie-break")
    by_tournament: dict[str, int] = Field(
        default_factory=dict, description="tournament id -> the season points it gave this player"
    )


class SeasonStandingsPage(ApiModel):
    season_id: str
    rows: list[SeasonStandingRow]
    total: int
    draw_seed: int = Field(description="the seed of the recorded draw that settles the last ties")


class SuperFinal(ApiModel):
    """The players invited to the Super Final in season order, and their starting lives (R5.7)."""

    season_id: str
    invited: list[SeasonStandingRow]
    lives: dict[str, int]
    tied_at_cut: list[str] = Field(default_factory=list)
