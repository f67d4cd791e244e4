"""What the store hands out and takes in: typed records, never raw items.

Key attributes (pk, sk, gsi1*, wait_q) are the store's business: a record carries the
domain's fields only, and the store adds or strips the keys. Internal fields (a user's
Cognito sub) are marked as such; services must not show them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Self, TypeVar

from tavla.frozen import Frozen
from tavla.rules.model import SYSTEM as SYSTEM
from tavla.rules.model import Actor as Actor
from tavla.rules.model import AuditRecord as AuditRecord
from tavla.rules.model import FieldRecord as FieldRecord
from tavla.rules.model import FixtureRecord as FixtureRecord
from tavla.rules.model import TablesRecord as TablesRecord
from tavla.rules.play_settings import PlaySettings
from tavla.rules.tournament_settings import (
    LifecycleSettings,
    MoneySettings,
    PageSettings,
    PrizeSettings,
    RegistrationSettings,
)
from tavla.store.dynamo import Item

T = TypeVar("T")

KEY_ATTRIBUTES = frozenset({"pk", "sk", "gsi1pk", "gsi1sk", "wait_q", "waited_q"})


def record_of(cls: type[T], item: Item) -> T:
    """A flat dataclass from an item whose attributes are its fields (others left out)."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    return cls(**{k: v for k, v in item.items() if k in names})


def item_of(record: Any) -> Item:
    """A flat dataclass as item attributes (None left out)."""
    return {f.name: getattr(record, f.name) for f in fields(record) if getattr(record, f.name) is not None}


class _Record(Frozen):
    """from_item / to_item for a flat dataclass whose fields are item attributes.

    Records here are `@dataclass(frozen=True, eq=False, repr=False)`: equality, hashing and
    the repr are `Frozen`'s, written once over the fields, the same as the dataclass's own.
    """

    @classmethod
    def from_item(cls, item: Item) -> Self:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in item.items() if k in names})

    def to_item(self) -> Item:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False, repr=False)
class StaffMember(Frozen):
    role: str  # "referee" | "organiser"
    tavla_id: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class TournamentRecord(Frozen):
    """A tournament: its state and counters (typed) and its settings as stored (JSON values)."""

    id: str
    status: str
    checkin_open: bool
    registered: int
    waiting: int
    wait_seq: int
    version: int
    created_at: str
    created_by: str  # internal: the creator's user sub
    staff: Mapping[str, StaffMember]  # by user sub (internal)
    settings: Mapping[str, Any]  # TournamentSettings in JSON mode, plus `rules` and `closes_epoch`
    # the organiser's placements (R3.7): Tavla ID -> the lowest division the player may enter
    placements: Mapping[str, str] = field(default_factory=dict)
    draws: int = 0  # draws published so far (R5)
    # internal: the draw being made, {number, seed}, from its reservation until it is published
    drawing: Mapping[str, Any] | None = None
    finished_at: str | None = None
    # the seed's commitment, public from the moment it is made: {hash, committed_at} (R5.1)
    draw_commitment: Mapping[str, Any] | None = None
    # internal until the first draw reveals it: the committed secret the draws' seeds come from
    draw_secret: str | None = None
    # Swiss and lives: late entry while open, {open, points, lives} (R5.5, R5.7)
    late_entry: Mapping[str, Any] | None = None
    # draw number (str) -> the attempt readers see, for the draws redrawn (R5.1): the one switch
    # a redraw flips once its matches are staged (decision 0047); absent: attempt 1
    attempts: Mapping[str, int] | None = None
    # internal: the redraw being staged, {number, attempt, until}: the round's writes wait (R5.1)
    redrawing: Mapping[str, Any] | None = None

    STATE = (
        "id",
        "status",
        "checkin_open",
        "registered",
        "waiting",
        "wait_seq",
        "version",
        "created_at",
        "created_by",
    )

    @cached_property
    def play(self) -> PlaySettings:
        """What the day reads of the settings, typed (parsed once per record read)."""
        return PlaySettings.parse(self.settings)

    @cached_property
    def money(self) -> MoneySettings:
        """Fees, early bird, refunds, payment deadline, typed (parsed once per record read)."""
        return MoneySettings.parse(self.settings)

    @cached_property
    def registration(self) -> RegistrationSettings:
        """Divisions, approval and the close, typed (parsed once per record read)."""
        return RegistrationSettings.parse(self.settings)

    @cached_property
    def prizes(self) -> PrizeSettings:
        """The announced prizes as the rules read them (parsed once per record read)."""
        return PrizeSettings.parse(self.settings)

    @cached_property
    def page(self) -> PageSettings:
        """Name, level and season, typed (parsed once per record read)."""
        return PageSettings.parse(self.settings)

    @cached_property
    def lifecycle(self) -> LifecycleSettings:
        """Cancelled, unrated, postponed: when, typed (parsed once per record read)."""
        return LifecycleSettings.parse(self.settings)

    def division_as_stored(self, division: str) -> Mapping[str, Any] | None:
        """The division's settings exactly as stored: a registration's write finds them
        unchanged, or the organiser edited the divisions meanwhile (R3.7)."""
        listed = self.settings.get("divisions") or ()
        return next((d for d in listed if d.get("id") == division), None)

    def stored_values(self, names: Iterable[str]) -> dict[str, Any]:
        """These settings as stored (None: absent), to put back exactly."""
        return {k: self.settings.get(k) for k in names}

    @property
    def name(self) -> str:
        return str(self.settings["name"])

    @property
    def capacity(self) -> int:
        return int(self.settings["capacity"])

    @property
    def starts_at(self) -> str:
        return str(self.settings["starts_at"])

    @property
    def closes_epoch(self) -> int:
        return int(self.settings["closes_epoch"])

    @property
    def is_open(self) -> bool:
        return self.status == "open"

    DAY = (
        "draws",
        "drawing",
        "finished_at",
        "draw_commitment",
        "draw_secret",
        "late_entry",
        "attempts",
        "redrawing",
    )

    def attempt_of(self, draw: int) -> int:
        """The attempt of draw `draw` readers see (1 unless it was redrawn)."""
        return int((self.attempts or {}).get(str(draw), 1))

    def public(self) -> Item:
        """Settings and state together, the staff and internal fields left out."""
        state = {k: getattr(self, k) for k in self.STATE if k != "created_by"}
        return {
            **self.settings,
            **state,
            "draws": self.draws,
            "finished_at": self.finished_at,
            "draw_commitment": self.draw_commitment,
            "late_entry_open": bool(self.late_entry and self.late_entry.get("open")),
        }

    @classmethod
    def from_item(cls, item: Item) -> TournamentRecord:
        staff = {sub: StaffMember(**member) for sub, member in (item.get("staff") or {}).items()}
        state = {k: item[k] for k in cls.STATE}
        day = {k: item[k] for k in cls.DAY if k in item}
        apart = (*cls.STATE, *cls.DAY, "staff", "placements")
        settings = {k: v for k, v in item.items() if k not in apart and k not in KEY_ATTRIBUTES}
        return cls(
            **state, **day, staff=staff, settings=settings, placements=dict(item.get("placements") or {})
        )

    def to_item(self) -> Item:
        staff = {sub: {k: v for k, v in vars(m).items() if v is not None} for sub, m in self.staff.items()}
        return {
            **self.settings,
            **{k: getattr(self, k) for k in self.STATE},
            **{k: getattr(self, k) for k in self.DAY if getattr(self, k) is not None},
            "staff": staff,
            "placements": dict(self.placements),
        }


@dataclass(frozen=True, eq=False, repr=False)
class RegistrationRecord(_Record):
    """One entry: on the main list (`registered`) or the waiting list (`waitlisted`)."""

    tournament_id: str
    tavla_id: str
    division: str
    status: str
    checkin_code: str
    registered_at: str
    listed_at: str
    starts_at: str  # the tournament's start: orders a player's tournaments
    wait_seq: int | None = None  # arrival order on the waiting list (waiting only)
    waited_seq: int | None = None  # where a promoted player stood (orders players promoted together)
    promoted_at: str | None = None
    checked_in_at: str | None = None
    checked_in_by: str | None = None  # the referee's Tavla ID, when they have one
    # the player's rating and club when they checked in: what the draw seeds by (R5.1, R5.2)
    rating: float | None = None
    club: str | None = None
    club_id: str | None = None  # the club record, when the player chose one: what protection compares
    player_name: str | None = None
    # R11.4: the categories the organiser set for this entry (private); unset: the
    # player's profile decides
    categories: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False, repr=False)
class ProfileRecord(_Record):
    """A player's public profile."""

    tavla_id: str
    name: str
    created_at: str
    rating: float
    rated_matches: int
    club: str | None = None  # the club's name as shown (free text until mapped to a record)
    city: str | None = None
    user_sub: str | None = None  # internal: whose sign-in this profile is
    club_id: str | None = None  # the federation's club record the player chose
    merged_into: str | None = None
    merged_at: str | None = None
    erased_at: str | None = None  # erased (R12): `name` is the pseudonym its results keep
    # bumped by every ratings write: the full rebuild writes a player only if it is unchanged
    rating_seq: int = 0


@dataclass(frozen=True, eq=False, repr=False)
class ContactsRecord(_Record):
    """A player's private data (R12): only the player, and phone/e-mail to staff."""

    tavla_id: str
    phone: str | None = None
    email: str | None = None
    gender: str | None = None
    birth_year: int | None = None
    notify_by_email: bool | None = None  # table calls and other notices by e-mail too
    language: str | None = None  # el, en or it; None: the tournament's federation's
    sms_opt_in: bool | None = None  # notices by SMS (only then), recorded with its time
    sms_opt_in_at: str | None = None
    notify_by_email_at: str | None = None  # when e-mail notices were chosen or refused
    push_subs: frozenset[str] | None = None  # ids of the browsers' push subscriptions (store.push)


FINISHED = "finished"  # a tournament's status once its final standings are stored


@dataclass(frozen=True, eq=False, repr=False)
class NotificationRecord(_Record):
    id: str
    kind: str
    message: str
    created_at: str
    data: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, eq=False, repr=False)
class RoundRecord(_Record):
    """A published draw (R5.1): its number, what it holds, its seed and the inputs' digest.

    `inputs` are the rules' DrawInputs in JSON mode; anyone can recompute the draw from them.
    """

    tournament_id: str
    number: int
    event: str
    round: int
    seed: int
    digest: str
    inputs: Mapping[str, Any]
    codes: tuple[str, ...]
    published_at: str
    published_by: Mapping[str, Any] = field(default_factory=dict)
    seed_list: tuple[str, ...] = ()  # the field in seed order, seed 1 first (R5.1, R5.2)
    secret: str | None = None  # the committed secret the seed follows from, revealed by the draw
    attempt: int = 1  # 2.. once redrawn: the seed of that attempt
    # the draws this one replaced, oldest first: {attempt, seed, digest, published_at,
    # pairings: [[code, home, away]], reason, redrawn_at} (public: a redraw hides nothing)
    earlier: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, eq=False, repr=False)
class PrizeEligibilityRecord(_Record):
    """R11.4: category -> the Tavla IDs eligible for its prizes, frozen when the
    tournament finished (private: read only to award the prizes)."""

    tournament_id: str
    categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, eq=False, repr=False)
class FinalRecord(_Record):
    """A finished tournament's final standings (R10.1, R10.2), stored once by the finish.

    `events` are the standings of each event as the API shows them (JSON values);
    `announced`: `TournamentFinished` is written (in the outbox, with the standings themselves
    since events are written with their change); a finish stored before that announces it on
    the next finish, once.
    """

    tournament_id: str
    finished_at: str
    events: tuple[Mapping[str, Any], ...]
    finished_by: Mapping[str, Any] = field(default_factory=dict)
    announced: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class AppealRecord(_Record):
    """An appeal on a match's score, pairing or referee decision (R9), and how it was decided.

    `status` is open until the decision; `members` and `votes` are the committee's (hbf, cnb:
    R9.5), empty when the referee decided (platform).
    """

    id: str
    tournament_id: str
    code: str  # the match's code in its tournament
    kind: str  # score | pairing | decision
    statement: str
    appellant: str
    opponent: str | None
    lodged_at: str
    status: str = "open"  # open | decided
    result_before: Mapping[str, Any] | None = None
    outcome: str | None = None  # upheld | dismissed
    reasoning: str | None = None
    route: str | None = None  # referee | committee
    members: tuple[str, ...] = ()
    votes: tuple[bool, ...] = ()
    new_result: Mapping[str, Any] | None = None
    decided_at: str | None = None
    decided_by: str | None = None  # the staff member's Tavla ID (or role) who recorded it


@dataclass(frozen=True, eq=False, repr=False)
class LedgerEntryRecord(_Record):
    """One money movement of a registration (R3.3-R3.5, R11.5): cents, EUR.

    kind: payment (in) | refund (out) | payout (a prize, out). `recorded_by` names who
    recorded it (a Tavla ID, a role, or `provider`); `status` is `due` for a bank refund the
    organiser has still to pay; `flags` are for the organiser (amount_mismatch ...).
    """

    id: str
    tournament_id: str
    tavla_id: str
    kind: str
    method: str
    amount: int
    value_date: str
    recorded_by: str
    recorded_at: str
    currency: str = "EUR"
    reference: str | None = None
    receipt: str | None = None
    status: str = "done"
    flags: tuple[str, ...] = ()
    expected_amount: int | None = None
    provider_ref: str | None = None
    statement_line: str | None = None  # a bank payment: the checksum of the line that paid it


@dataclass(frozen=True, eq=False, repr=False)
class CheckoutRecord(_Record):
    """A card checkout the platform started (R3.3): the only sessions whose payments count,
    for this player and tournament, in this currency, whatever the webhook's metadata says."""

    provider: str
    session_id: str
    tournament_id: str
    tavla_id: str
    amount: int
    currency: str
    started_at: str


@dataclass(frozen=True, eq=False, repr=False)
class BankLineRecord(_Record):
    """One line of an imported bank statement (R3.3): what happened to it, and, while it is
    unmatched only, the payer's name and the reference text a person needs to match it (R12)."""

    tournament_id: str
    checksum: str
    value_date: str
    amount: int
    currency: str
    status: str  # matched | unmatched | underpaid | overpaid (duplicates are not stored twice)
    imported_at: str
    tavla_id: str | None = None
    code: str | None = None
    text: str | None = None
    payer: str | None = None
    bank_ref: str | None = None  # the bank's own id of the transaction, where the format has one
    statement: str | None = None  # the import that stored it (a resumed import knows its own lines)


@dataclass(frozen=True, eq=False, repr=False)
class StatementRecord(_Record):
    """One statement's import: queued (large ones, stored in the statement store until the
    job reads them), running with `done` of `total` credit lines, then done or failed."""

    tournament_id: str
    id: str
    format: str
    state: str  # queued | running | done | failed
    total: int
    done: int
    counts: dict[str, int]
    created_at: str
    by_role: str
    by_tavla_id: str | None = None
    by_sub: str | None = None
    finished_at: str | None = None
    error: str | None = None


# -- ratings and the season --------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class RatedMatchRecord(_Record):
    """A match applied to the ratings: where it sits in the ledger and what was applied.

    `fingerprint` is the result as applied (players, winner, score, length, key): the same
    event again changes nothing; a different one (an appeal) replaces it. `version` is the
    match's version the applied result was announced with (None: applied before results
    carried one): a result announced with a lower version is older and changes nothing.
    """

    match_id: str
    ledger_key: str
    fingerprint: str
    players: tuple[str, ...] = ()
    version: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class SeasonRecord(_Record):
    """A season as the federation sets it (R10.4): dates and `SeasonSettings` in JSON mode."""

    id: str
    name: str
    starts_on: str
    ends_on: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    draw_seed: int = 0  # the recorded seed of the season's last tie-break (R10.5)
    federation: str | None = None
    closed_at: str | None = None  # set once, by the schedule at its end date
    to_invite: tuple[str, ...] = ()  # the Super Final's invited, frozen when it closed
    organiser: str | None = None  # the Tavla ID of the Super Final's organiser


@dataclass(frozen=True, eq=False, repr=False)
class SuperFinalRecord(_Record):
    """The Super Final of a closed season (R10.4): the list frozen at the close (`rows`, in
    season order: the invited first, then the reserves) and the counters the invitations'
    conditions read. `open`: seats with neither a pending nor an accepted invitation;
    `next`: the index in `rows` of the next player to invite."""

    season_id: str
    seats: int
    rows: tuple[Mapping[str, Any], ...]  # {tavla_id, place, points, lives}
    reply_days: int
    next: int = 0
    open: int = 0
    accepted: int = 0
    tournament_id: str | None = None  # the final, once created
    champion: str | None = None  # its winner, once it finished


@dataclass(frozen=True, eq=False, repr=False)
class InvitationRecord(_Record):
    """One player's invitation to a season's Super Final, answered once by its deadline."""

    season_id: str
    tavla_id: str
    order: int  # the index in the frozen list
    place: int  # the season place
    lives: int  # the starting lives that place gives (R5.7)
    status: str  # pending | accepted | declined | expired
    invited_at: str
    reply_by: str  # UTC ISO time
    answered_at: str | None = None


@dataclass(frozen=True, eq=False, repr=False)
class SeasonStandingsRecord(_Record):
    """The head of a season's standings snapshot (R10.5): its pages are version `version`."""

    season_id: str
    version: int
    total: int  # rows in all
    pages: int
    page_rows: int
    draw_seed: int
    counted: tuple[str, ...] = ()  # the tournaments whose points it includes


@dataclass(frozen=True, eq=False, repr=False)
class SeasonEntryRecord(_Record):
    """One player's season: per counted tournament the points and what the tie-breaks need.

    `awards` maps a tournament id to {points, diff, won: [opponents beaten], lost: [...]}.
    """

    season_id: str
    tavla_id: str
    points: int = 0
    awards: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
