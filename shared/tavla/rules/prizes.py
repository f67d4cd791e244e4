"""Prizes: as announced, finalised from the fees collected, split among shared places (R11, R8.3).

Money is integer minor units (cents) throughout.

* Announcement (R11.1): per place a money prize and/or non-money prizes (cup, medal, item,
  free entry to the next tournament); category prizes (best woman, youth, veteran, ...) with
  their own places and a minimum number of eligible finishers (R11.4).
* Money (R11.2): a fixed amount in cents, or a share of the pool in basis points
  (1/100 of a percent: 2500 = 25 %). The pool is `pool_rate_bp` of the entry fees actually
  collected, rounded down to the cent. The shares are finalised by the largest-remainder
  method: each gets its share rounded down, then the cents left over (fewer than the number
  of shares) go one each to the largest remainders, ties to the prize announced first (main
  places before categories, better place first). So the shares paid total
  floor(pool x total share), which is exactly the pool when the shares add up to 100 %.
* Shared places (R11.3): players sharing places k..m split the combined money of places k..m
  equally; leftover cents go one each to the sharers in tie order (`tie_order`, e.g. the
  draw's seed order, best seed first; players not in it after, by player id). Non-money
  prizes are not split: the sharers, in the same tie order, take the non-money prizes of
  places k, k+1, ..., m one each (so a tie for 3-4 gives the 3rd-place cup to the first in
  tie order and the 4th-place medal to the second). Nothing is duplicated or lost.
* Category prizes (R11.4) are awarded only when at least `min_participants` eligible players
  finished; the category's places come from the event standings restricted to its eligible
  players (ties shared as above). They are combined with place prizes: one player may win both.
  Who is eligible (`categories_of`): women by gender; youth and veteran by the age reached in
  the tournament's calendar year (under 18, and 60 or older, unless the organiser says
  otherwise), from the player's private profile or as the organiser set it for the entry.
* Disqualified players (R8.3) are removed from the standings first: they win nothing and
  the places close up.
* A prize whose place nobody holds (a small field) is not paid and is reported as unawarded.

* Event pools (R3.6): a side event or a lower division may announce its own prizes. By
  default they are paid from its own fees: its own pool is `pool_rate_bp` of the fees it
  collected. The organiser may pool it: its fees then go into the main pool and its pool
  shares are shares of the main pool, finalised with the main prizes (so all shares of the
  main pool, the main places, the categories and the pooled events', stay within 100 %). An
  event that announces no money prize of its own pays its fees into the main pool.

Guarantee: the money paid never exceeds the announced fixed amounts plus the pool, and
with every place filled and shares of 100 % it equals them exactly, to the cent. Each pool
pays at most itself in shares (fixed amounts are the organiser's promise, paid whatever
the fees), and the pools together are at most the fees collected: no fee counts twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence, Set
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.errors import RuleViolation
from tavla.rules.standings import Standing, remove_players
from tavla.rules.value import RuleModel

__all__ = [
    "BASIS_POINTS",
    "CategoryPrize",
    "EventPrizes",
    "FinalisedMoney",
    "Money",
    "NonMoneyPrize",
    "PlacePrize",
    "PlayerAward",
    "Pools",
    "PrizeAnnouncement",
    "PrizeError",
    "PrizeResult",
    "UnawardedPrize",
    "award_event",
    "award_prizes",
    "categories_of",
    "finalise_money",
    "finalise_pools",
    "split_cents",
]

BASIS_POINTS = 10_000
"""100 % in basis points."""

MAIN = "main"
"""The scope of the main place prizes (categories use their own name)."""

WOMEN, YOUTH, VETERAN = "women", "youth", "veteran"
YOUTH_UNDER = 18
"""Youth: under this age in the tournament's calendar year (unless the organiser sets another)."""
VETERAN_FROM = 60
"""Veteran: this age or older in the tournament's calendar year (unless the organiser sets another)."""


def categories_of(
    gender: str | None,
    birth_year: int | None,
    year: int,
    youth_under: int = YOUTH_UNDER,
    veteran_from: int = VETERAN_FROM,
) -> frozenset[str]:
    """The categories a player is eligible for (R11.4): women by gender; youth and veteran by
    the age reached in the tournament's `year` (a player born in 2008 is 18 in 2026, so not
    youth then). Nothing is assumed of a player who gave neither gender nor birth year."""
    found: set[str] = set()
    if gender == "female":
        found.add(WOMEN)
    if birth_year is not None:
        age = year - birth_year
        if age < youth_under:
            found.add(YOUTH)
        if age >= veteran_from:
            found.add(VETERAN)
    return frozenset(found)


class PrizeError(RuleViolation):
    """A prize request the rules do not allow."""


class Money(RuleModel):
    """A money prize: a fixed amount in cents, or a share of the pool in basis points."""

    model_config = ConfigDict(frozen=True)

    amount_cents: int | None = Field(default=None, ge=0)
    pool_share_bp: int | None = Field(default=None, ge=0, le=BASIS_POINTS)

    @model_validator(mode="after")
    def _exactly_one(self) -> Money:
        if (self.amount_cents is None) == (self.pool_share_bp is None):
            raise ValueError("a money prize is either a fixed amount or a share of the pool, not both")
        return self


class NonMoneyPrize(RuleModel):
    """A cup, medal, item or free entry to the next tournament (R11.1)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["cup", "medal", "item", "free_entry"]
    description: str = ""


class PlacePrize(RuleModel):
    """What one place wins."""

    model_config = ConfigDict(frozen=True)

    place: int = Field(ge=1)
    money: Money | None = None
    items: tuple[NonMoneyPrize, ...] = ()


def _unique_places(prizes: Sequence[PlacePrize], scope: str) -> None:
    dupes = sorted(p for p, n in Counter(x.place for x in prizes).items() if n > 1)
    if dupes:
        raise ValueError(f"{scope}: place(s) announced twice: {', '.join(map(str, dupes))}")


class CategoryPrize(RuleModel):
    """Prizes for the best finishers of a category (e.g. best woman), awarded only when at
    least `min_participants` eligible players finished (R11.4)."""

    model_config = ConfigDict(frozen=True)

    category: str = Field(min_length=1)
    min_participants: int = Field(default=1, ge=1)
    places: tuple[PlacePrize, ...]

    @model_validator(mode="after")
    def _places_unique(self) -> CategoryPrize:
        _unique_places(self.places, self.category)
        return self


class PrizeAnnouncement(RuleModel):
    """The prizes as announced on the tournament page (R11.1).

    `pool_rate_bp` is the part of the collected entry fees that forms the prize pool
    (10000 = all of it; 8000 if the organiser keeps 20 %).
    """

    model_config = ConfigDict(frozen=True)

    places: tuple[PlacePrize, ...] = ()
    categories: tuple[CategoryPrize, ...] = ()
    pool_rate_bp: int = Field(default=BASIS_POINTS, ge=0, le=BASIS_POINTS)

    @model_validator(mode="after")
    def _sane(self) -> PrizeAnnouncement:
        _unique_places(self.places, MAIN)
        names = [c.category for c in self.categories]
        if len(set(names)) != len(names) or MAIN in names:
            raise ValueError("each category prize needs its own name (and not 'main')")
        if sum(bp for _, _, bp in _shares(self)) > BASIS_POINTS:
            raise ValueError("the pool shares of the money prizes add up to more than 100 %")
        return self


def _scoped(a: PrizeAnnouncement) -> list[tuple[str, PlacePrize]]:
    """Every place prize with its scope, in announcement order: main places, then categories."""
    out = [(MAIN, p) for p in sorted(a.places, key=lambda p: p.place)]
    for c in a.categories:
        out += [(c.category, p) for p in sorted(c.places, key=lambda p: p.place)]
    return out


def _shares(a: PrizeAnnouncement) -> list[tuple[str, int, int]]:
    return [
        (scope, p.place, p.money.pool_share_bp)
        for scope, p in _scoped(a)
        if p.money is not None and p.money.pool_share_bp is not None
    ]


class FinalisedMoney(RuleModel):
    """Every money prize in cents, once the pool is known (R11.2)."""

    model_config = ConfigDict(frozen=True)

    pool_cents: int
    amounts: dict[str, dict[int, int]]
    """scope ("main" or a category) -> place -> cents."""

    @property
    def total_cents(self) -> int:
        return sum(sum(v.values()) for v in self.amounts.values())

    def amount(self, scope: str, place: int) -> int:
        return self.amounts.get(scope, {}).get(place, 0)


def finalise_money(announcement: PrizeAnnouncement, collected_fees_cents: int) -> FinalisedMoney:
    """Turn the announced money prizes into cents from the entry fees actually collected (R11.2).

    pool = floor(collected x pool_rate); the pool shares total floor(pool x sum of shares)
    exactly (largest remainder, ties to the prize announced first); fixed amounts stay as
    announced.
    """
    if collected_fees_cents < 0:
        raise PrizeError("the entry fees collected cannot be negative")
    pool = collected_fees_cents * announcement.pool_rate_bp // BASIS_POINTS
    amounts: dict[str, dict[int, int]] = {}
    for scope, p in _scoped(announcement):
        if p.money is not None and p.money.amount_cents is not None:
            amounts.setdefault(scope, {})[p.place] = p.money.amount_cents
    shares = _shares(announcement)
    total_bp = sum(bp for _, _, bp in shares)
    floors = [(pool * bp // BASIS_POINTS, pool * bp % BASIS_POINTS) for _, _, bp in shares]
    leftover = pool * total_bp // BASIS_POINTS - sum(f for f, _ in floors)
    by_remainder = sorted(range(len(shares)), key=lambda i: (-floors[i][1], i))
    bonus = set(by_remainder[:leftover])
    for i, (scope, place, _) in enumerate(shares):
        amounts.setdefault(scope, {})[place] = floors[i][0] + (1 if i in bonus else 0)
    return FinalisedMoney(pool_cents=pool, amounts=amounts)


class EventPrizes(RuleModel):
    """A side event's or a lower division's own prizes and the fees it collected (R3.6)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1)
    """The event as the results name it: `consolation`, `novice.main`, `novice.consolation`."""
    places: tuple[PlacePrize, ...] = ()
    collected_cents: int = Field(default=0, ge=0)
    pooled: bool = False
    """Its fees go into the main pool, and its pool shares are shares of the main pool."""

    @model_validator(mode="after")
    def _sane(self) -> EventPrizes:
        if self.id == MAIN:
            raise ValueError("'main' is the tournament's own prizes")
        _unique_places(self.places, self.id)
        if sum(p.money.pool_share_bp or 0 for p in self.places if p.money) > BASIS_POINTS:
            raise ValueError(f"{self.id}: the pool shares add up to more than 100 %")
        return self

    @property
    def own_pool(self) -> bool:
        """Paid from its own fees: not pooled, and some money prize announced."""
        return not self.pooled and any(p.money is not None for p in self.places)


class Pools(RuleModel):
    """Every money prize in cents, each from the pool that pays it."""

    model_config = ConfigDict(frozen=True)

    main: FinalisedMoney
    """The main pool: the tournament's places and categories, and each pooled event (by its id)."""
    own: dict[str, FinalisedMoney]
    """Each event paid from its own fees: its pool, its places under `main`."""
    collected: dict[str, int]
    """The fees each pool is made of: `main`, and each event with its own pool."""

    def money_of(self, event: str) -> tuple[FinalisedMoney, str]:
        """The money an event's prizes are read from, and the scope they are under there."""
        if event == MAIN:
            return self.main, MAIN
        if event in self.own:
            return self.own[event], MAIN
        return self.main, event

    @property
    def pool_cents(self) -> int:
        return self.main.pool_cents + sum(m.pool_cents for m in self.own.values())


def finalise_pools(
    announcement: PrizeAnnouncement, collected_fees_cents: int, events: Sequence[EventPrizes] = ()
) -> Pools:
    """Every pool from the fees collected (R11.2, R3.6). `collected_fees_cents` is all the fees
    the tournament keeps; each event paid from its own pool takes the fees it collected out
    of it (never more than there is), and the rest makes the main pool. A pooled event's
    places are finalised with the main prizes, as shares of the main pool."""
    if collected_fees_cents < 0:
        raise PrizeError("the entry fees collected cannot be negative")
    ids = [e.id for e in events]
    if len(set(ids)) != len(ids) or set(ids) & {c.category for c in announcement.categories}:
        raise PrizeError("each event's prizes need their own name")
    left = collected_fees_cents
    collected: dict[str, int] = {}
    own: dict[str, FinalisedMoney] = {}
    for e in events:
        if e.own_pool:
            collected[e.id] = min(left, e.collected_cents)
            left -= collected[e.id]
            alone = PrizeAnnouncement(places=e.places, pool_rate_bp=announcement.pool_rate_bp)
            own[e.id] = finalise_money(alone, collected[e.id])
    pooled = tuple(
        CategoryPrize(category=e.id, places=e.places) for e in events if not e.own_pool and e.places
    )
    try:
        together = announcement.model_copy(update={"categories": announcement.categories + pooled})
        together = PrizeAnnouncement.model_validate(together.model_dump())
    except ValueError as error:
        raise PrizeError("the main pool's shares add up to more than 100 %") from error
    collected[MAIN] = left
    return Pools(main=finalise_money(together, left), own=own, collected=collected)


def split_cents(total_cents: int, players: Sequence[str]) -> dict[str, int]:
    """Split an amount equally; the leftover cents go one each to the first players listed."""
    if not players:
        raise PrizeError("cannot split a prize among nobody")
    if total_cents < 0:
        raise PrizeError("a prize cannot be negative")
    each, left = divmod(total_cents, len(players))
    return {p: each + (1 if i < left else 0) for i, p in enumerate(players)}


class PlayerAward(RuleModel):
    """What one player wins from one scope (the main places or one category)."""

    model_config = ConfigDict(frozen=True)

    player_id: str
    scope: str
    place: str
    """The place as shown, e.g. "3-4"."""
    money_cents: int = Field(ge=0)
    items: tuple[NonMoneyPrize, ...] = ()


class UnawardedPrize(RuleModel):
    """An announced prize that nobody wins, and why."""

    model_config = ConfigDict(frozen=True)

    scope: str
    place: int
    money_cents: int
    items: tuple[NonMoneyPrize, ...] = ()
    reason: str
    too_few: bool = False
    """A category with too few eligible finishers (else: a place nobody reached)."""


class PrizeResult(RuleModel):
    """The prize list of a finished event."""

    model_config = ConfigDict(frozen=True)

    pool_cents: int
    awards: tuple[PlayerAward, ...]
    unawarded: tuple[UnawardedPrize, ...]

    @property
    def paid_cents(self) -> int:
        return sum(a.money_cents for a in self.awards)

    def money_by_player(self) -> dict[str, int]:
        """Each winner's total money over place and category prizes."""
        out: dict[str, int] = {}
        for a in self.awards:
            out[a.player_id] = out.get(a.player_id, 0) + a.money_cents
        return out


def _award_scope(
    scope: str,
    prizes: Sequence[PlacePrize],
    rows: Sequence[Standing],
    money: FinalisedMoney,
    rank: Mapping[str, tuple[int, int, str]],
) -> tuple[list[PlayerAward], list[UnawardedPrize]]:
    by_place = {p.place: p for p in prizes}
    awards: list[PlayerAward] = []
    groups: dict[tuple[int, int], list[str]] = {}
    for r in rows:
        groups.setdefault((r.place, r.place_to), []).append(r.player_id)
    for (k, m), members in groups.items():
        places = [p for p in range(k, m + 1) if p in by_place]
        if not places:
            continue
        order = sorted(members, key=lambda pid: rank[pid])
        cents = split_cents(sum(money.amount(scope, p) for p in places), order)
        label = str(k) if k == m else f"{k}-{m}"
        for j, pid in enumerate(order):
            prize = by_place.get(k + j)
            items = prize.items if prize is not None else ()
            if cents[pid] or items:
                awards.append(
                    PlayerAward(player_id=pid, scope=scope, place=label, money_cents=cents[pid], items=items)
                )
    filled = len(rows)
    unawarded = [
        UnawardedPrize(
            scope=scope,
            place=p.place,
            money_cents=money.amount(scope, p.place),
            items=p.items,
            reason=f"only {filled} finisher(s)",
        )
        for p in sorted(prizes, key=lambda p: p.place)
        if p.place > filled
    ]
    return awards, unawarded


def award_event(
    event: EventPrizes,
    standings: Sequence[Standing],
    pools: Pools,
    disqualified: Set[str] = frozenset(),
    tie_order: Sequence[str] = (),
) -> tuple[list[PlayerAward], list[UnawardedPrize]]:
    """An event's own prize list (R11.1-R11.3, R8.3), from the pool that pays it; its awards
    and unawarded prizes carry the event's id as their scope."""
    rows = remove_players(standings, disqualified)
    money, scope = pools.money_of(event.id)
    awards, unawarded = _award_scope(scope, event.places, rows, money, _rank(rows, tie_order))
    return (
        [a.model_copy(update={"scope": event.id}) for a in awards],
        [u.model_copy(update={"scope": event.id}) for u in unawarded],
    )


def _rank(rows: Sequence[Standing], tie_order: Sequence[str]) -> dict[str, tuple[int, int, str]]:
    seen = {pid: i for i, pid in enumerate(dict.fromkeys(tie_order))}
    return {
        r.player_id: (0, seen[r.player_id], "") if r.player_id in seen else (1, 0, r.player_id) for r in rows
    }


def award_prizes(
    announcement: PrizeAnnouncement,
    standings: Sequence[Standing],
    collected_fees_cents: int,
    eligibility: Mapping[str, Set[str]] | None = None,
    disqualified: Set[str] = frozenset(),
    tie_order: Sequence[str] = (),
    money: FinalisedMoney | None = None,
) -> PrizeResult:
    """The prize list of a finished event (R11.1-R11.4, R8.3).

    `standings`: the event's final standings; `eligibility`: category name -> the players
    eligible for it (from their private profile, R1.2); `disqualified`: removed before
    anything is awarded; `tie_order`: who comes first among players sharing a place, for
    leftover cents and non-money prizes (e.g. the draw's seed order; otherwise by player id);
    `money`: the main pool as `finalise_pools` made it (else from `collected_fees_cents`).
    Guarantees: each shared place's combined money is split to within a cent; nobody
    disqualified wins anything; the money paid never exceeds fixed amounts + pool.
    """
    rows = remove_players(standings, disqualified)
    if money is None:
        money = finalise_money(announcement, collected_fees_cents)
    rank = _rank(rows, tie_order)
    awards, unawarded = _award_scope(MAIN, announcement.places, rows, money, rank)
    eligible_sets = eligibility or {}
    for cat in announcement.categories:
        eligible = eligible_sets.get(cat.category, frozenset())
        cat_rows = remove_players(rows, {r.player_id for r in rows if r.player_id not in eligible})
        if len(cat_rows) < cat.min_participants:
            unawarded += [
                UnawardedPrize(
                    scope=cat.category,
                    place=p.place,
                    money_cents=money.amount(cat.category, p.place),
                    items=p.items,
                    reason=f"{len(cat_rows)} eligible finisher(s), {cat.min_participants} needed",
                    too_few=True,
                )
                for p in sorted(cat.places, key=lambda p: p.place)
            ]
            continue
        got, missed = _award_scope(cat.category, cat.places, cat_rows, money, rank)
        awards += got
        unawarded += missed
    return PrizeResult(pool_cents=money.pool_cents, awards=tuple(awards), unawarded=tuple(unawarded))
