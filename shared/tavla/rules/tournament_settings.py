"""What the use cases besides the day read of a tournament's stored settings, typed and parsed
in one place (the day's part is `play_settings`).

The stored settings are the page as the organiser set it (TournamentSettings in JSON mode):
money as `{"amount": cents, "currency": ...}`, instants as ISO strings, prizes and divisions
as lists of objects. Each value here is parsed from that once per tournament read, with the
defaults the services always used, so a default (a free entry, a full refund, 18 and 60 for
youth and veterans) is decided in one place and the stored format never changes.

A stored value of the wrong shape is a `StoredSettingsError` naming the field, not a
KeyError deep inside a use case; a money value that is not an amount counts as unset, as
it always did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, get_args

from pydantic import ValidationError

from tavla.frozen import Frozen
from tavla.rules.refunds import RefundKind

if TYPE_CHECKING:
    from tavla.rules.prizes import PlacePrize, PrizeAnnouncement

# The prize rules (a dozen pydantic models, and the standings they rank by) are imported where
# the prizes are read, not here: every function reads a tournament, few read its prizes, and
# `TournamentRecord.prizes` is parsed on first use (cold start, docs/performance.md).

DEFAULT_TIME_ZONE = "Europe/Athens"
DEFAULT_CURRENCY = "EUR"
DEFAULT_NAME = "Your tournament"
MAIN_DIVISION = "main"


class StoredSettingsError(ValueError):
    """A stored setting of a shape the page never writes (hand-edited or older data)."""

    def __init__(self, name: str, value: Any) -> None:
        super().__init__(f"stored tournament setting `{name}` is malformed: {value!r}")
        self.name = name


def _amount(value: Any) -> int | None:
    """Cents of a stored Money; anything else is unset (as the services always read it)."""
    return int(value["amount"]) if isinstance(value, Mapping) and value.get("amount") is not None else None


def _instant(s: Mapping[str, Any], name: str) -> datetime | None:
    value = s.get(name)
    if not value:
        return None
    try:
        return datetime.fromisoformat(str(value))
    except ValueError as error:
        raise StoredSettingsError(name, value) from error


def _int(value: Any, name: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as error:
        raise StoredSettingsError(name, value) from error


def _objects(s: Mapping[str, Any], name: str) -> Sequence[Mapping[str, Any]]:
    """A stored list of objects (unset: none)."""
    value = s.get(name) or ()
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or not all(isinstance(v, Mapping) for v in value)
    ):
        raise StoredSettingsError(name, value)
    return value


@dataclass(frozen=True, eq=False, repr=False)
class Fees(Frozen):
    """A division's own fees in cents (R3.3, R3.4); unset: the tournament's apply."""

    entry: int | None = None
    early_bird: int | None = None


@dataclass(frozen=True, eq=False, repr=False)
class SideEventFee(Frozen):
    """A side event's fee (R3.6), maybe free for Main players."""

    kind: str
    name: str
    fee: int = 0
    free_for_main_players: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class RefundTerms(Frozen):
    """The organiser's refund policy (R3.5): what a withdrawal before the close gets back."""

    kind: RefundKind = "full"
    percentage: int | None = None
    deduction: int | None = None  # cents

    @classmethod
    def parse(cls, value: Any) -> RefundTerms:
        policy: Mapping[str, Any] = value if isinstance(value, Mapping) else {}
        kind = policy.get("kind", "full")
        if kind not in get_args(RefundKind):
            raise StoredSettingsError("refund_policy.kind", kind)
        percentage = policy.get("percentage")
        return cls(
            kind=kind,
            percentage=None if percentage is None else _int(percentage, "refund_policy.percentage"),
            deduction=_amount(policy.get("deduction")),
        )


@dataclass(frozen=True, eq=False, repr=False)
class MoneySettings(Frozen):
    """What a registration costs and gives back (R3.2 to R3.6), in cents."""

    entry_fee: int = 0
    early_bird_fee: int | None = None
    early_bird_deadline: datetime | None = None
    time_zone: str = DEFAULT_TIME_ZONE  # the early bird ends at midnight here
    currency: str = DEFAULT_CURRENCY
    # kept as stored: the deadline's schedules carry it, and find it unchanged or skip
    payment_deadline: str | None = None
    refund: RefundTerms = RefundTerms()
    divisions: Mapping[str, Fees] = field(default_factory=dict)
    side_events: tuple[SideEventFee, ...] = ()

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> MoneySettings:
        entry_fee = s.get("entry_fee")
        deadline = s.get("payment_deadline")
        return cls(
            entry_fee=_amount(entry_fee) or 0,
            early_bird_fee=_amount(s.get("early_bird_fee")),
            early_bird_deadline=_instant(s, "early_bird_deadline"),
            time_zone=str(s.get("time_zone") or DEFAULT_TIME_ZONE),
            currency=str(entry_fee.get("currency") or DEFAULT_CURRENCY)
            if isinstance(entry_fee, Mapping)
            else DEFAULT_CURRENCY,
            payment_deadline=str(deadline) if deadline else None,
            refund=RefundTerms.parse(s.get("refund_policy")),
            divisions={
                str(d.get("id")): Fees(
                    entry=_amount(d.get("entry_fee")), early_bird=_amount(d.get("early_bird_fee"))
                )
                for d in _objects(s, "divisions")
            },
            side_events=tuple(
                SideEventFee(
                    kind=str(e.get("kind")),
                    name=str(e.get("name")),
                    fee=_amount(e.get("fee")) or 0,
                    free_for_main_players=bool(e.get("free_for_main_players")),
                )
                for e in _objects(s, "side_events")
            ),
        )

    def fees(self, division: str | None) -> tuple[int, int | None]:
        """The entry fee and early-bird fee of this division: its own first (a division's own
        fee, even 0 for a free division), then the tournament's (R3.4, R3.7)."""
        own = self.divisions.get(division or "", Fees())
        full = own.entry if own.entry is not None else self.entry_fee
        early = own.early_bird if own.early_bird is not None else self.early_bird_fee
        return full, early


@dataclass(frozen=True, eq=False, repr=False)
class RegistrationSettings(Frozen):
    """How players enter (R3): the divisions highest first, approval, the close."""

    divisions: tuple[str, ...] = (MAIN_DIVISION,)
    requires_approval: bool = False
    closes_at: datetime | None = None

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> RegistrationSettings:
        return cls(
            divisions=tuple(str(d.get("id")) for d in _objects(s, "divisions")) or (MAIN_DIVISION,),
            requires_approval=bool(s.get("requires_approval")),
            closes_at=_instant(s, "registration_closes_at"),
        )

    @property
    def closes(self) -> datetime:
        """When registration closes: every stored tournament has it (the page requires it)."""
        if self.closes_at is None:
            raise StoredSettingsError("registration_closes_at", None)
        return self.closes_at


@dataclass(frozen=True, eq=False, repr=False)
class PageSettings(Frozen):
    """What the page says of the tournament itself: its name, level, season and city (R10.4)."""

    name: str = DEFAULT_NAME
    level: str | None = None
    season_id: str | None = None
    city: str | None = None

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> PageSettings:
        return cls(
            name=str(s.get("name") or DEFAULT_NAME),
            level=str(s["level"]) if s.get("level") else None,
            season_id=str(s["season_id"]) if s.get("season_id") else None,
            city=str(s["city"]) if s.get("city") else None,
        )


@dataclass(frozen=True, eq=False, repr=False)
class LifecycleSettings(Frozen):
    """What the organiser or an admin did to the tournament's dates after creating it (R2,
    R3.5): cancelled, its results taken out of the ratings, postponed. The store writes these
    beside the page's settings; unset, it never happened."""

    cancelled_at: datetime | None = None
    unrated_at: datetime | None = None
    postponed_at: datetime | None = None
    # kept as stored: a later postponement writes it back unchanged
    postponed_from: str | None = None

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> LifecycleSettings:
        return cls(
            cancelled_at=_instant(s, "cancelled_at"),
            unrated_at=_instant(s, "unrated_at"),
            postponed_at=_instant(s, "postponed_at"),
            postponed_from=str(s["postponed_from"]) if s.get("postponed_from") else None,
        )

    @property
    def cancelled(self) -> datetime:
        """When it was cancelled: a cancelled tournament has it (the store writes it with the status)."""
        if self.cancelled_at is None:
            raise StoredSettingsError("cancelled_at", None)
        return self.cancelled_at


def _places(prizes: Sequence[Mapping[str, Any]], name: str) -> tuple[PlacePrize, ...]:
    """Announced prizes ([first, last] places each) as one PlacePrize per place."""
    from tavla.rules.prizes import BASIS_POINTS, NonMoneyPrize, PlacePrize
    from tavla.rules.prizes import Money as PrizeMoney

    places: dict[int, dict[str, Any]] = {}
    for prize in prizes:
        try:
            first, last = prize["places"]
        except (KeyError, TypeError, ValueError) as error:
            raise StoredSettingsError(f"{name}.places", prize.get("places")) from error
        for place in range(_int(first, f"{name}.places"), _int(last, f"{name}.places") + 1):
            slot = places.setdefault(place, {"money": None, "items": []})
            if prize.get("kind", "money") != "money":
                slot["items"].append(
                    NonMoneyPrize(kind=prize["kind"], description=prize.get("description") or "")
                )
            elif slot["money"] is None and _amount(prize.get("amount")) is not None:
                slot["money"] = PrizeMoney(amount_cents=_amount(prize.get("amount")))
            elif slot["money"] is None and prize.get("pool_percentage") is not None:
                share = _int(prize["pool_percentage"], f"{name}.pool_percentage")
                slot["money"] = PrizeMoney(pool_share_bp=share * BASIS_POINTS // 100)
    return tuple(
        PlacePrize(place=p, money=s["money"], items=tuple(s["items"])) for p, s in sorted(places.items())
    )


def _no_prizes() -> PrizeAnnouncement:
    from tavla.rules.prizes import PrizeAnnouncement

    return PrizeAnnouncement()


@dataclass(frozen=True, eq=False, repr=False)
class EventPrizeSettings(Frozen):
    """A lower division's or a side event's own prizes (R3.6), as announced."""

    event: str
    """`main` for a division's Main, else the side event's kind."""
    division: str | None
    """The division whose Main it is; None for a side event (its prizes in each division)."""
    places: tuple[PlacePrize, ...]
    pooled: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class PrizeSettings(Frozen):
    """The announced prizes as the rules read them (R11.1, R11.4), and the category age limits."""

    announcement: PrizeAnnouncement = field(default_factory=_no_prizes)
    age_limits: Mapping[str, int] = field(default_factory=dict)  # youth / veteran, when set
    events: tuple[EventPrizeSettings, ...] = ()

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> PrizeSettings:
        from tavla.rules.prizes import CategoryPrize, PrizeAnnouncement

        by_category: dict[str, list[Mapping[str, Any]]] = {}
        listed = _objects(s, "category_prizes")
        for c in listed:
            by_category.setdefault(str(c.get("category")), []).append(c)
        for category, entries in by_category.items():
            if not all(isinstance(c.get("prize"), Mapping) for c in entries):
                raise StoredSettingsError(
                    f"category_prizes.{category}.prize", [c.get("prize") for c in entries]
                )
        try:
            announcement = PrizeAnnouncement(
                places=_places(_objects(s, "prizes"), "prizes"),
                categories=tuple(
                    CategoryPrize(
                        category=name,
                        min_participants=_int(
                            entries[0].get("minimum_participants") or 1, "minimum_participants"
                        ),
                        places=_places([c["prize"] for c in entries], f"category_prizes.{name}"),
                    )
                    for name, entries in by_category.items()
                ),
            )
        except ValidationError as error:
            raise StoredSettingsError("prizes", error.errors()[0]["msg"]) from error
        lower = [
            EventPrizeSettings(
                event="main",
                division=str(d.get("id")),
                places=_places(_objects(d, "prizes"), f"divisions.{d.get('id')}.prizes"),
                pooled=bool(d.get("pooled")),
            )
            for d in _objects(s, "divisions")[1:]
        ]
        side = [
            EventPrizeSettings(
                event=str(e.get("kind")),
                division=None,
                places=_places(_objects(e, "prizes"), f"side_events.{e.get('kind')}.prizes"),
                pooled=bool(e.get("pooled")),
            )
            for e in _objects(s, "side_events")
        ]
        return cls(
            announcement=announcement,
            events=tuple(e for e in lower + side if e.places),
            age_limits={
                str(c.get("category")): _int(c["age_limit"], "category_prizes.age_limit")
                for c in listed
                if c.get("age_limit") is not None
            },
        )

    @property
    def has_categories(self) -> bool:
        """Whether any category prize is announced (else eligibility is never read)."""
        return bool(self.announcement.categories)

    @property
    def youth_under(self) -> int:
        from tavla.rules.prizes import YOUTH, YOUTH_UNDER

        return self.age_limits.get(YOUTH, YOUTH_UNDER)

    @property
    def veteran_from(self) -> int:
        from tavla.rules.prizes import VETERAN, VETERAN_FROM

        return self.age_limits.get(VETERAN, VETERAN_FROM)
