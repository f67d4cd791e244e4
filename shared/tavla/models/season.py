"""Ratings and the season as the API shows them (R10.3-R10.5): public fields only (R12.1)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field, model_validator

from tavla.models.common import (
    ApiModel,
    Instant,
    LongText,
    MatchLengths,
    Name,
    Profile,
    ShortText,
    StrictModel,
    TavlaId,
    TimeZone,
)
from tavla.models.players import PublicProfile
from tavla.rules.season import SeasonSettings
from tavla.rules.tournament_settings import DEFAULT_TIME_ZONE


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
    club_id: str | None = None
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
    organiser: TavlaId | None = Field(
        default=None, description="the Super Final's organiser: sees who comes and creates the final"
    )

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
    super_final_id: str | None = Field(default=None, description="the Super Final's tournament, once created")
    champion: str | None = Field(default=None, description="the Super Final's winner (Tavla ID)")


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
    champion: SeasonStandingRow | None = Field(
        default=None, description="the Super Final's winner, with their row of the season"
    )


class SeasonTournament(ApiModel):
    """A tournament of the season's calendar: when, at which level, and whether its points are in."""

    id: str
    name: str
    city: str | None = None
    starts_at: datetime
    status: str
    level: str
    counted: bool = Field(description="its season points are in the standings")


class SeasonCalendar(ApiModel):
    """The tournaments that declared the season, by start time (R10.4)."""

    season_id: str
    tournaments: list[SeasonTournament]


class SuperFinal(ApiModel):
    """The players invited to the Super Final in season order, and their starting lives (R5.7)."""

    season_id: str
    invited: list[SeasonStandingRow]
    lives: dict[str, int]
    tied_at_cut: list[str] = Field(default_factory=list)


InvitationStatus = Literal["pending", "accepted", "declined", "expired"]


class Invitation(ApiModel):
    """A player's invitation to a season's Super Final (R10.4): accept or decline by `reply_by`;
    a decline or a missed deadline passes the seat to the next on the frozen list."""

    season_id: str
    season_name: str | None = None
    tavla_id: str
    name: str | None = None
    place: int = Field(description="the season place, as frozen at the season's close")
    lives: int = Field(description="the starting lives in the final that place gives (R5.7)")
    status: InvitationStatus
    invited_at: str
    reply_by: str = Field(description="UTC; after it the seat passes down the list")
    answered_at: str | None = None
    reserve: bool = Field(
        default=False, description="invited from the reserve list, a seat having passed down"
    )


class InvitationList(ApiModel):
    invitations: list[Invitation]


class FinalPlayer(ApiModel):
    """A player of the frozen list: season place and points at the close, lives by place."""

    tavla_id: str
    name: str | None = None
    club: str | None = None
    place: int
    points: int
    lives: int
    reserve: bool = Field(default=False, description="from the reserve list (below the seats at the close)")


class SuperFinalAttendance(ApiModel):
    """Who comes to the Super Final: the players who accepted, in season order (public)."""

    season_id: str
    seats: int
    accepted: list[FinalPlayer]
    tournament_id: str | None = Field(default=None, description="the final, once created")
    champion: FinalPlayer | None = Field(default=None, description="the final's winner")
    frozen: bool = Field(
        default=True, description="false until the season closes and its Super Final list is frozen"
    )


class SuperFinalReplies(SuperFinalAttendance):
    """Every invitation and its answer, and the reserves not invited yet (the final's
    organiser and admins)."""

    declined: list[Invitation]
    expired: list[Invitation]
    pending: list[Invitation]
    reserves: list[FinalPlayer] = Field(description="the rest of the frozen list, next first")


class SuperFinalBody(StrictModel):
    """Where and when the Super Final is played; the rest comes from the season (R10.4, R5.7):
    a lives event, its players those who accepted, their starting lives by season place."""

    name: Name | None = None
    venue: ShortText
    city: ShortText | None = None
    time_zone: TimeZone = DEFAULT_TIME_ZONE
    description: LongText | None = None
    starts_at: Instant
    match_lengths: MatchLengths = Field(default_factory=MatchLengths)
    rule_profile: Profile = "platform"
    tables: int | None = Field(default=None, ge=1, le=2048)


class SuperFinalTournament(ApiModel):
    """The Super Final's tournament (`GET /tournaments/{id}` for its page): its players and
    their starting lives by season place (R5.7)."""

    season_id: str
    tournament_id: str
    name: str
    starts_at: str
    lives_by_player: dict[str, int]
