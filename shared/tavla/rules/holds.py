"""The table plan's constraints as the day engine reads and writes them (`rules.venue` decides).

A match is held while a player of it is at another table of the hall (this tournament's, or
one of the tournaments `beside` it): it stays queued, nobody is called, so no no-show clock
runs; it is called by the change that frees the player, like any queued match whose table
frees. Staff may release a hold (the match is then called at the next free table it may use).
These functions turn the stored plan (`TablesRecord`) into the seating's values and back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tavla.errors import NotHeld
from tavla.frozen import Frozen
from tavla.rules.states import AT_TABLE, State
from tavla.rules.tables import TablePlan
from tavla.rules.venue import Demand, TableAttributes, demand_of, why_waiting

if TYPE_CHECKING:
    from tavla.rules.model import Day, FixtureRecord, TablesRecord


def attributes_of(tables: TablesRecord) -> dict[int, TableAttributes]:
    return {int(t): TableAttributes.model_validate(dict(a)) for t, a in tables.attributes.items()}


def streamed(record: FixtureRecord, tables: TablesRecord) -> bool:
    """Marked for streaming by the organiser, or the Main's top board when he chose that."""
    top = tables.stream_top and record.event == "main" and record.board == 1
    return record.code in tables.streamed or top


def record_demand(record: FixtureRecord, tables: TablesRecord) -> Demand:
    return demand_of(
        (record.home, record.away),
        record.event,
        record.division,
        tables.needs,
        streamed(record, tables),
        record.code in tables.released,
    )


def plan_of(
    tables: TablesRecord, records: Iterable[FixtureRecord], elsewhere: Mapping[str, str]
) -> TablePlan:
    """The seating's plan: the stored one, each match of `records` with its demand as it stands."""
    demands = {c: Demand.model_validate(dict(d)) for c, d in (tables.demands or {}).items()}
    for record in records:
        if record.state == State.QUEUED or record.state in AT_TABLE:
            demands[record.code] = record_demand(record, tables)
    return TablePlan(
        count=max(tables.count, 1),  # 0: set before the hall's size, nothing seated or queued yet
        occupied={int(t): c for t, c in tables.occupied.items()},
        queue=tables.queue,
        attributes=attributes_of(tables),
        demands=demands,
        elsewhere=dict(elsewhere),
    )


def demands_kept(plan: TablePlan) -> dict[str, dict[str, Any]]:
    """The demands to store: those of the matches seated or queued, as plain values, as the store
    keeps them (no None: DynamoDB drops it), so the plan as read compares equal to them and a
    change writes only the demands that changed (`store.matches.update_tables`). What a demand
    leaves at its default is not stored: every change reads and writes the plan, and most
    matches ask for nothing but their players."""
    live = set(plan.occupied.values()) | set(plan.queue)
    return {c: plan.demands[c].model_dump(exclude_defaults=True) for c in sorted(live) if c in plan.demands}


@dataclass(frozen=True, eq=False, repr=False)
class Wait(Frozen):
    """A queued match and why it is not on a table (`rules.venue` reasons); `by`: where its
    player still plays, for a hold (a match code, or `<tournament>.<code>` beside)."""

    code: str
    reason: str
    by: str | None = None
    player: str | None = None


def waits(plan: TablePlan) -> list[Wait]:
    """Every queued match in order, with why it waits: what the desk shows."""
    found = []
    for code in plan.queue:
        reason, by = why_waiting(
            code, plan.count, plan.occupied, plan.attributes, plan.demands, plan.elsewhere
        )
        player = None
        if by is not None:
            busy = {**plan.elsewhere, **{p: c for c in plan.occupied.values() for p in _players(plan, c)}}
            player = next((p for p in _players(plan, code) if busy.get(p) == by), None)
        found.append(Wait(code, reason, by, player))
    return found


def _players(plan: TablePlan, code: str) -> tuple[str, ...]:
    demand = plan.demands.get(code)
    return demand.players if demand else ()


def playing_elsewhere(day: Day, tavla_id: str | None, code: str) -> str | None:
    """Where a player still plays besides match `code` (another table of this tournament, or
    one beside it): a no-show deadline never forfeits him then (his match was called on a
    released hold, or before he sat down elsewhere)."""
    if tavla_id is None:
        return None
    if tavla_id in day.elsewhere:
        return day.elsewhere[tavla_id]
    tables = day.tables
    demands = (tables.demands or {}) if tables is not None else {}
    for other in tables.occupied.values() if tables is not None else ():
        if other != code and tavla_id in (demands.get(other, {}).get("players") or ()):
            return other
    return None


def release(tables: TablesRecord, code: str, elsewhere: Mapping[str, str]) -> TablesRecord:
    """Staff release the hold on queued match `code`: it is called like any other queued match.
    Refused (409 `not_held`) when the match is not held."""
    plan = plan_of(tables, (), elsewhere)
    held = {w.code for w in waits(plan) if w.by is not None}
    if code not in held:
        raise NotHeld(f"Match {code} is not held.")
    return replace(tables, released=tuple(sorted({*tables.released, code})))
