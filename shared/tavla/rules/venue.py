"""Tables with constraints and players held elsewhere: who may sit where, and who waits, why.

A table may be accessible (step-free, wide), streamed (recorded: it takes only the matches
marked for streaming), reserved for an event or a division, or out of service. A match's
`Demand` is what its seating must honour: its players' needs (an accessible table), whether it
is streamed, the event and division it belongs to, and its players, so a match is not called
while one of them plays at another table of the hall (a hold) unless staff released it.

`fill` is the seating: first queued, first seated, each on the first free table it may use
(one without features it does not need, when there is one, so an accessible or reserved table
stays free for whoever needs it). A match that cannot sit waits and `waiting` says why. No
match waits while a table it may use is free (the property test says so over random days).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from pydantic import ConfigDict

from tavla.rules.value import RuleModel

ACCESSIBLE = "accessible"
NEEDS = frozenset({ACCESSIBLE})

# why a queued match waits (the desk's words are in web/src/i18n)
HELD = "held"  # a player is still playing at another table of the hall
NO_ACCESSIBLE_TABLE = "no_accessible_table"  # no accessible table in service
ACCESSIBLE_TABLE_BUSY = "accessible_table_busy"
NO_STREAMED_TABLE = "no_streamed_table"
STREAMED_TABLE_BUSY = "streamed_table_busy"
TABLES_BUSY = "tables_busy"  # its turn has not come: every table it may use is taken


class TableAttributes(RuleModel):
    """What the organiser set on one table (all off: a plain table)."""

    model_config = ConfigDict(frozen=True)

    accessible: bool = False
    streamed: bool = False
    reserved_for: str | None = None  # an event (main, last_chance ...) or a division id
    out_of_service: bool = False


@cache
def plain() -> TableAttributes:
    """A table without attributes (made on first use: no validator built at import)."""
    return TableAttributes()


class Demand(RuleModel):
    """What seating a match must honour (see the module)."""

    model_config = ConfigDict(frozen=True)

    players: tuple[str, ...] = ()
    event: str = "main"
    division: str | None = None
    accessible: bool = False
    streamed: bool = False
    released: bool = False  # staff released its hold: called even if a player is busy elsewhere


@cache
def any_match() -> Demand:
    """A match that asks for nothing (its demand not recorded)."""
    return Demand()


def may_use(table: TableAttributes, demand: Demand) -> bool:
    """Whether a match with `demand` may sit at `table`."""
    if table.out_of_service:
        return False
    if demand.accessible and not table.accessible:
        return False
    if table.streamed != demand.streamed:  # the streamed table waits for its match
        return False
    return table.reserved_for is None or table.reserved_for in (demand.event, demand.division)


def _spare(table: TableAttributes) -> int:
    """How much a table is worth keeping free for others: used last when a plainer one fits."""
    return int(table.accessible) + int(table.reserved_for is not None)


def holder(demand: Demand, busy: Mapping[str, str]) -> str | None:
    """Where a player of the match still plays (None: nowhere, or staff released the hold)."""
    if demand.released:
        return None
    return next((busy[p] for p in demand.players if p in busy), None)


def busy_players(occupied: Iterable[str], demands: Mapping[str, Demand]) -> dict[str, str]:
    """Every player at a table of this tournament -> the match he plays there."""
    return {p: code for code in occupied for p in demands.get(code, any_match()).players}


def fill(
    count: int,
    occupied: Mapping[int, str],
    queue: Iterable[str],
    attributes: Mapping[int, TableAttributes],
    demands: Mapping[str, Demand],
    elsewhere: Mapping[str, str],
) -> tuple[dict[int, str], tuple[str, ...], dict[str, int]]:
    """Seat the queue in order on the free tables (see the module): the tables as they become,
    the matches still waiting, and the calls made (match code -> table)."""
    taken = dict(occupied)
    busy = {**elsewhere, **busy_players(taken.values(), demands)}
    waiting: list[str] = []
    calls: dict[str, int] = {}
    # the free tables in the order a match takes them (plainest first, then by number): the
    # first it may use is its table, so a draw seating hundreds of matches does not look at
    # every table for each of them
    free = sorted(
        (t for t in range(1, count + 1) if t not in taken),
        key=lambda t: (_spare(attributes.get(t, plain())), t),
    )
    for code in queue:
        demand = demands.get(code, any_match())
        if holder(demand, busy) is not None:
            waiting.append(code)
            continue
        table = next((t for t in free if may_use(attributes.get(t, plain()), demand)), None)
        if table is None:
            waiting.append(code)
            continue
        free.remove(table)
        taken[table] = code
        calls[code] = table
        busy.update({p: code for p in demand.players})
    return taken, tuple(waiting), calls


def why_waiting(
    code: str,
    count: int,
    occupied: Mapping[int, str],
    attributes: Mapping[int, TableAttributes],
    demands: Mapping[str, Demand],
    elsewhere: Mapping[str, str],
) -> tuple[str, str | None]:
    """Why a queued match is not on a table: the reason and, for a hold, where its player plays."""
    demand = demands.get(code, any_match())
    busy = {**elsewhere, **busy_players(occupied.values(), demands)}
    where = holder(demand, busy)
    if where is not None:
        return HELD, where
    usable = [t for t in range(1, count + 1) if may_use(attributes.get(t, plain()), demand)]
    if demand.streamed:
        return (STREAMED_TABLE_BUSY if usable else NO_STREAMED_TABLE), None
    if demand.accessible:
        return (ACCESSIBLE_TABLE_BUSY if usable else NO_ACCESSIBLE_TABLE), None
    return TABLES_BUSY, None


def demand_of(
    players: Iterable[str | None],
    event: str,
    division: str | None,
    needs: Mapping[str, Iterable[str]],
    streamed: bool,
    released: bool,
) -> Demand:
    """A match's demand from its players, where it belongs and what the organiser and players set."""
    known = tuple(p for p in players if p)
    return Demand(
        players=known,
        event=event,
        division=division,
        accessible=any(ACCESSIBLE in needs.get(p, ()) for p in known),
        streamed=streamed,
        released=released,
    )
