"""Tournament pages and settings (R2.1, R2.2), validated even where later features use them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Literal, Self

from pydantic import ConfigDict, Field, model_validator

from tavla.models.commitment import DrawCommitment
from tavla.models.common import (
    ApiModel,
    Instant,
    LongText,
    MatchLengths,
    Money,
    Name,
    OpaqueId,
    Profile,
    ShortText,
    StrictModel,
    TavlaId,
    TimeZone,
)
from tavla.rules.tournament_settings import DEFAULT_TIME_ZONE

Format = Literal["single_elimination", "double_elimination", "swiss", "round_robin", "lives"]
Level = Literal["local", "regional", "national", "major"]
SeedingMode = Literal["rating", "random"]


class RefundPolicy(StrictModel):
    """What a player who withdraws before registration closes gets back (R3.5)."""

    kind: Literal["full", "percentage", "fixed_deduction", "none"] = "full"
    percentage: int | None = Field(default=None, ge=0, le=100)
    deduction: Money | None = None

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.kind == "percentage" and self.percentage is None:
            raise ValueError("a percentage refund policy needs `percentage`")
        if self.kind == "fixed_deduction" and self.deduction is None:
            raise ValueError("a fixed-deduction refund policy needs `deduction`")
        return self


class ClockSettings(StrictModel):
    """R7.4: total time per player plus a delay per move."""

    kind: Literal["bronstein", "simple_delay", "increment"] = "bronstein"
    minutes_per_point: int = Field(default=2, ge=0, le=30)
    delay_seconds: int = Field(default=12, ge=0, le=120)


class Prize(StrictModel):
    """A place prize (R11.1): money (fixed or percentage of the pool) or a thing."""

    places: tuple[int, int] = Field(description="first and last place it is for, e.g. [3, 4]")
    kind: Literal["money", "cup", "medal", "item", "free_entry"] = "money"
    amount: Money | None = None
    pool_percentage: int | None = Field(default=None, ge=0, le=100)
    description: ShortText | None = None


class CategoryPrize(StrictModel):
    """R11.4: e.g. best woman, youth, veteran, awarded with enough participants, on top of any
    place prize. Several entries of one category give its places [1, 1], [2, 2] ...

    Who is eligible: the player's private profile (gender, birth year) unless the organiser
    set the entry's categories (PUT /tournaments/{id}/prizes/eligibility/{tavla_id})."""

    category: Literal["women", "youth", "veteran"]
    minimum_participants: int = Field(
        default=4, ge=1, le=1000, description="eligible finishers needed for the category to be awarded"
    )
    age_limit: int | None = Field(
        default=None,
        ge=5,
        le=120,
        description="youth: under this age, veteran: this age or older, reached in the tournament's "
        "year (defaults 18 and 60); not for women",
    )
    prize: Prize

    @model_validator(mode="after")
    def _age_for_ages(self) -> Self:
        if self.category == "women" and self.age_limit is not None:
            raise ValueError("an age limit is for youth and veteran prizes")
        return self


MAX_PLACE = 4096  # the largest field (capacity)


def _pool_shares(scoped: Sequence[tuple[str, Prize]]) -> int:
    """The pool percentage the prizes take (first money prize of each place, as awarded)."""
    money: dict[tuple[str, int], int | None] = {}
    for scope, prize in scoped:
        first, last = prize.places
        if first < 1 or last < first or last > MAX_PLACE:
            raise ValueError(
                f"prize places {list(prize.places)}: from the first to the last, 1 to {MAX_PLACE}"
            )
        if prize.kind != "money" or (prize.amount is None and prize.pool_percentage is None):
            continue
        for place in range(first, last + 1):
            money.setdefault((scope, place), prize.pool_percentage if prize.amount is None else None)
    return sum(p or 0 for p in money.values())


def _check_prizes(
    prizes: Sequence[Prize],
    category_prizes: Sequence[CategoryPrize],
    events: Sequence[tuple[str, Sequence[Prize], bool]] = (),
) -> None:
    """The announced prizes make sense together (R11): places in order, one minimum and age
    per category, and the shares of each pool within 100 %: the main pool's (main places,
    categories, pooled events) and each event's own (R3.6)."""
    by_category: dict[str, tuple[int, int | None]] = {}
    for c in category_prizes:
        rule = (c.minimum_participants, c.age_limit)
        if by_category.setdefault(c.category, rule) != rule:
            raise ValueError(f"category_prizes: {c.category} needs one minimum_participants and age_limit")
    scoped = [("main", p) for p in prizes] + [(c.category, c.prize) for c in category_prizes]
    scoped += [(name, p) for name, own, pooled in events if pooled for p in own]
    if _pool_shares(scoped) > 100:
        raise ValueError("the prizes' shares of the main pool add up to more than 100 %")
    for name, own, pooled in events:
        if not pooled and _pool_shares([(name, p) for p in own]) > 100:
            raise ValueError(f"{name}: the prizes' shares of its own pool add up to more than 100 %")


EVENT_PRIZES = (
    "its own prizes (R3.6), paid by default from its own pool: the pool rate of the fees it "
    "collected (a division's entry fees, a side event's fees); with `pooled` they are paid "
    "from the main pool instead, and its fees go into it. Its pool percentages are of the pool "
    "that pays them; an event that announces no money prize pays its fees into the main pool"
)
POOLED = (
    "its fees go into the main pool and its prizes are paid from it (their percentages are of "
    "the main pool, which all its shares then share within 100 %)"
)


class SideEvent(StrictModel):
    """A side event such as Last Chance (R2.1, R3.6): its own fee, possibly free for Main players."""

    name: Name
    kind: Literal["consolation", "last_chance", "other"] = "last_chance"
    fee: Money = Field(default_factory=lambda: Money(amount=0))
    free_for_main_players: bool = False
    prizes: list[Prize] = Field(
        default_factory=list, max_length=16, description=EVENT_PRIZES + "; in each division it is played"
    )
    pooled: bool = Field(default=False, description=POOLED)


class Division(StrictModel):
    """An event of the tournament (R3.7): Open, Intermediate, Novice ...

    A tournament's divisions are listed highest first: an organiser's placement bars a
    player from every division listed after the one they are placed in.
    """

    id: OpaqueId
    name: Name
    # R3.3, R3.4: a division's own fees; unset, the tournament's apply
    entry_fee: Money | None = None
    early_bird_fee: Money | None = None
    prizes: list[Prize] = Field(
        default_factory=list,
        max_length=16,
        description=EVENT_PRIZES + "; for its Main (the highest division's are the tournament's `prizes`)",
    )
    pooled: bool = Field(default=False, description=POOLED)


class MatchPointsSetting(StrictModel):
    """What a match is worth in a league or Swiss table (R5.6, R10.2); unset on the page: a
    league counts 2 / 1 / 0, a Swiss 1 / 0 / 0 (a Swiss BYE counts as a win)."""

    win: int = Field(default=2, ge=0, le=10)
    loss: int = Field(default=1, ge=0, le=10)
    forfeit: int = Field(default=0, ge=0, le=10, description="to the player who forfeited (R8.1)")

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not self.win > self.loss >= self.forfeit:
            raise ValueError(
                f"a win ({self.win}) must be worth more than a loss ({self.loss}), "
                f"and a loss at least a forfeit ({self.forfeit})"
            )
        return self


class TournamentSettings(StrictModel):
    """Everything of R2.1 an organiser may set; the rule profile supplies the rest (R2.2)."""

    name: Name
    venue: ShortText
    city: ShortText | None = None
    time_zone: TimeZone = DEFAULT_TIME_ZONE
    description: LongText | None = None
    starts_at: Instant
    registration_closes_at: Instant
    capacity: int = Field(ge=2, le=4096)
    entry_fee: Money = Field(default_factory=lambda: Money(amount=0))
    early_bird_fee: Money | None = None
    early_bird_deadline: Instant | None = None
    refund_policy: RefundPolicy = Field(default_factory=RefundPolicy)
    payment_deadline: Instant | None = Field(
        default=None,
        description="unpaid places are released to the waiting list then (set by PUT .../payments/deadline)",
    )
    format: Format = "single_elimination"
    match_lengths: MatchLengths = Field(default_factory=MatchLengths)
    series: bool = Field(
        default=False,
        description="every match a best-of-three series of 7-point matches (cnb 2.2.2; the cnb "
        "profile only): its result the matches won (2-0, 2-1), breaks only between its matches",
    )
    cube_used: bool | None = None
    clock: ClockSettings | None = None
    lives: int | None = Field(default=None, ge=1, le=10)
    lives_by_player: dict[TavlaId, Annotated[int, Field(ge=1, le=10)]] | None = Field(
        default=None,
        max_length=4096,
        description="a lives event's starting lives per player (a season final by season place, "
        "R5.7); a player not listed starts with `lives`",
    )
    swiss_rounds: int | None = Field(default=None, ge=1, le=20)
    match_points: MatchPointsSetting | None = Field(
        default=None, description="league / Swiss table points (R5.6); unset: the format's defaults"
    )
    tables: int | None = Field(
        default=None, ge=1, le=2048, description="the venue's tables; unset: one for every two players"
    )
    seeding: SeedingMode = "rating"
    club_protection: bool = True
    level: Level = "local"
    rule_profile: Profile = "platform"
    season_id: OpaqueId | None = None
    prizes: list[Prize] = Field(default_factory=list, max_length=64)
    category_prizes: list[CategoryPrize] = Field(default_factory=list, max_length=16)
    side_events: list[SideEvent] = Field(default_factory=list, max_length=8)
    divisions: list[Division] = Field(
        default_factory=lambda: [Division(id="main", name="Main")], max_length=8
    )
    requires_approval: bool = False
    results_official_without_referee: bool = Field(
        default=False,
        description="a final score both players report alike is official at once, without staff (R7.5)",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.registration_closes_at >= self.starts_at:
            raise ValueError("registration must close before the tournament starts")
        if (self.early_bird_fee is None) != (self.early_bird_deadline is None):
            raise ValueError("an early-bird fee needs its deadline, and a deadline needs its fee")
        if self.early_bird_deadline and self.early_bird_deadline > self.registration_closes_at:
            raise ValueError("the early-bird deadline must not be after registration closes")
        if self.format == "lives" and self.lives is None:
            raise ValueError("a lives tournament needs `lives`")
        if self.lives_by_player and self.format != "lives":
            raise ValueError("`lives_by_player` is for a lives tournament")
        ids = [d.id for d in self.divisions]
        if not ids or len(ids) != len(set(ids)):
            raise ValueError("divisions: at least one, each with its own id")
        if self.early_bird_deadline is None and any(d.early_bird_fee for d in self.divisions):
            raise ValueError("a division's early-bird fee needs the tournament's early-bird deadline")
        if self.divisions[0].prizes or self.divisions[0].pooled:
            raise ValueError(
                "the highest division's prizes are the tournament's `prizes`, paid from the main pool"
            )
        events = [(d.id, d.prizes, d.pooled) for d in self.divisions[1:]]
        events += [(e.kind, e.prizes, e.pooled) for e in self.side_events]
        _check_prizes(self.prizes, self.category_prizes, events)  # R11.4, R3.6
        return self


class TournamentCreate(TournamentSettings):
    pass


class TournamentUpdate(StrictModel):
    """A partial change of settings; the whole result is validated again."""

    name: Name | None = None
    venue: ShortText | None = None
    city: ShortText | None = None
    time_zone: TimeZone | None = None
    description: LongText | None = None
    starts_at: Instant | None = None
    registration_closes_at: Instant | None = None
    capacity: int | None = Field(default=None, ge=2, le=4096)
    entry_fee: Money | None = None
    early_bird_fee: Money | None = None
    early_bird_deadline: Instant | None = None
    refund_policy: RefundPolicy | None = None
    format: Format | None = None
    match_lengths: MatchLengths | None = None
    series: bool | None = None
    cube_used: bool | None = None
    clock: ClockSettings | None = None
    lives: int | None = Field(default=None, ge=1, le=10)
    lives_by_player: dict[TavlaId, Annotated[int, Field(ge=1, le=10)]] | None = Field(
        default=None, max_length=4096
    )
    swiss_rounds: int | None = Field(default=None, ge=1, le=20)
    match_points: MatchPointsSetting | None = None
    tables: int | None = Field(default=None, ge=1, le=2048)
    seeding: SeedingMode | None = None
    club_protection: bool | None = None
    level: Level | None = None
    rule_profile: Profile | None = None
    season_id: OpaqueId | None = None
    prizes: list[Prize] | None = Field(default=None, max_length=64)
    category_prizes: list[CategoryPrize] | None = Field(default=None, max_length=16)
    side_events: list[SideEvent] | None = Field(default=None, max_length=8)
    divisions: list[Division] | None = Field(
        default=None,
        max_length=8,
        description="highest first (R3.7); a division that has entries cannot be removed",
    )
    requires_approval: bool | None = None
    results_official_without_referee: bool | None = None


StaffRole = Literal["referee", "organiser"]


class StaffMember(StrictModel):
    tavla_id: TavlaId
    role: StaffRole


class StaffUpdate(StrictModel):
    """The tournament's whole staff (R1.3); the caller stays an organiser."""

    staff: list[StaffMember] = Field(max_length=50)


class Staff(ApiModel):
    """A tournament's referees and organisers by Tavla ID (R1.3)."""

    staff: list[StaffMember]


class EffectiveRules(ApiModel):
    """The rules the day is played by: the profile's defaults under the page's settings (R2.2)."""

    profile: Profile
    match_length: int
    semi_final_length: int
    final_length: int
    series: bool = Field(default=False, description="every match a best-of-three series of these lengths")
    cube_used: bool
    crawford: bool
    lives: int
    table_call_minutes: int
    appeal_window_minutes: int
    appeal_above_referee: Literal["none", "committee"]
    appeal_committee_sizes: list[int]
    appeal_overturn_rule: Literal["unanimous", "simple_majority"] | None = None


class Tournament(TournamentSettings):
    """A tournament as the public sees it."""

    model_config = ConfigDict(extra="ignore")

    id: str
    rules: EffectiveRules
    status: Literal["open", "running", "finished", "cancelled"] = "open"
    checkin_open: bool = True
    registered: int = 0
    waiting: int = 0
    created_at: datetime | None = None
    finished_at: datetime | None = Field(default=None, description="when its organiser finished it")
    draws: int = Field(default=0, description="draws published so far")
    draw_commitment: DrawCommitment | None = Field(
        default=None, description="the seed committed to before the first draw (R5.1); null until then"
    )
    late_entry_open: bool = Field(default=False, description="Swiss and lives: late entries accepted now")
    cancelled_at: datetime | None = Field(default=None, description="when it was cancelled")
    cancel_reason: str | None = None
    unrated_at: datetime | None = Field(
        default=None,
        description="when an admin took the results played before the cancellation out of the ratings",
    )
    postponed_at: datetime | None = Field(default=None, description="when its dates were last moved")
    postponed_from: datetime | None = Field(default=None, description="the start first announced")


class CancelBody(StrictModel):
    """Why the tournament is cancelled: every entrant reads it in their notice."""

    reason: ShortText | None = None
    unrate: bool = Field(
        default=False,
        description="admins only, after the draw: the results played are taken out of the ratings "
        "(they stay rated otherwise); may be given again on a cancelled tournament",
    )


class PostponeBody(StrictModel):
    """The new start; the registration close, early-bird and payment deadlines move by as much
    unless a new close is given."""

    starts_at: Instant
    registration_closes_at: Instant | None = None


class Cancellation(ApiModel):
    """A cancelled tournament and what its entrants get back (R3.5)."""

    tournament_id: str
    status: Literal["cancelled"] = "cancelled"
    cancelled_at: datetime
    changed: bool = Field(description="false when it was cancelled already (the refunds are checked again)")
    refunds_written: int = Field(description="players refunded by this call")
    refunds_due: Money = Field(
        description="refunds still to pay, card ones included until the provider confirms"
    )
    unrated_at: datetime | None = Field(
        default=None,
        description="when an admin took its played results out of the ratings; null: they stay rated",
    )


class TournamentSummary(ApiModel):
    id: str
    name: str
    venue: str
    city: str | None = None
    starts_at: datetime
    status: str
    capacity: int
    registered: int
    waiting: int


class Calendar(ApiModel):
    """One page of the calendar by start time."""

    tournaments: list[TournamentSummary]
    next: str | None = Field(default=None, description="pass back as `after` for the following page")


class PlacementRequest(StrictModel):
    """Place a player (R3.7; hbf 1.4, cnb 1.4.2): the lowest division they may enter.

    A division above their usual one is an invitation; every division below it is barred.
    `null` lifts the placement.
    """

    division: OpaqueId | None


class Placement(ApiModel):
    tavla_id: str
    division: str | None = Field(description="the lowest division the player may enter; null: any")
    name: str | None = Field(default=None, description="the player's public name")


class Placements(ApiModel):
    """The organiser's placements (R3.7): who may enter no division below which."""

    placements: list[Placement]
