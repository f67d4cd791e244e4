"""What the store hands out and takes in: typed records, never raw items.

Key attributes (pk, sk, gsi1*, wait_q) are the store's business: a record carries the
domain's fields only, and the store adds or strips the keys. Internal fields (a user's
Cognito sub) are marked as such; services must not show them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Self

from tavla.store.dynamo import Item

KEY_ATTRIBUTES = frozenset({"pk", "sk", "gsi1pk", "gsi1sk", "wait_q", "waited_q"})


class _Record:
    """from_item / to_item for a flat dataclass whose fields are item attributes."""

    @classmethod
    def from_item(cls, item: Item) -> Self:
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in item.items() if k in names})

    def to_item(self) -> Item:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}  # type: ignore[arg-type]


@dataclass(frozen=True)
class StaffMember:
    role: str  # "referee" | "organiser"
    tavla_id: str | None = None


@dataclass(frozen=True)
class TournamentRecord:
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

    def public(self) -> Item:
        """Settings and state together, the staff and internal fields left out."""
        return {**self.settings, **{k: getattr(self, k) for k in self.STATE if k != "created_by"}}

    @classmethod
    def from_item(cls, item: Item) -> TournamentRecord:
        staff = {sub: StaffMember(**member) for sub, member in (item.get("staff") or {}).items()}
        state = {k: item[k] for k in cls.STATE}
        apart = (*cls.STATE, "staff", "placements")
        settings = {k: v for k, v in item.items() if k not in apart and k not in KEY_ATTRIBUTES}
        return cls(**state, staff=staff, settings=settings, placements=dict(item.get("placements") or {}))

    def to_item(self) -> Item:
        staff = {sub: {k: v for k, v in vars(m).items() if v is not None} for sub, m in self.staff.items()}
        return {
            **self.settings,
            **{k: getattr(self, k) for k in self.STATE},
            "staff": staff,
            "placements": dict(self.placements),
        }


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class ProfileRecord(_Record):
    """A player's public profile."""

    tavla_id: str
    name: str
    created_at: str
    rating: float
    rated_matches: int
    club: str | None = None
    city: str | None = None
    user_sub: str | None = None  # internal: whose sign-in this profile is
    merged_into: str | None = None
    merged_at: str | None = None


@dataclass(frozen=True)
class ContactsRecord(_Record):
    """A player's private data (R12): only the player, and phone/e-mail to staff."""

    tavla_id: str
    phone: str | None = None
    email: str | None = None
    gender: str | None = None
    birth_year: int | None = None


@dataclass(frozen=True)
class Actor:
    """Who made a change: the sub stays internal; readers see the Tavla ID and the role."""

    role: str  # "organiser" | "referee" | "admin" | "player" | "system"
    tavla_id: str | None = None
    sub: str | None = None


SYSTEM = Actor(role="system")


@dataclass(frozen=True)
class AuditRecord:
    at: str
    action: str
    actor: Actor
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NotificationRecord(_Record):
    id: str
    kind: str
    message: str
    created_at: str
    data: Mapping[str, str] = field(default_factory=dict)
