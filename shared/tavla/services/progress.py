"""The day moves on: a change to one match, and everything that follows from it, written at once.

Every change that can decide a match (a confirmed result, a forfeit at the no-show deadline,
an appeal decision, a withdrawal) goes through `settle`: it applies the change to the match,
lets the rules play the draws forward (`rules.day.flow`: next matches filled, BYEs walked
over, the reset final dropped), forfeits the matches of players who withdrew or were
disqualified as soon as they are due (R8.2, R8.3), frees the tables of matches that are over
and seats what can be played next (R6), and writes all of it in one transaction, each match
on the version it was read at. A concurrent change makes it read again and retry.
The events go in the same transaction (`store.outbox`): `ResultConfirmed` for every result
that became official, `MatchesCalled` for every match put on a table.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from tavla import events, observability
from tavla.errors import Busy, MatchNotFound, ResultLocked, StaleMatch, TournamentNotFound, TournamentOver
from tavla.rules import day as rules_day
from tavla.rules.tables import TablePlan, release, seat
from tavla.services import day
from tavla.store import draws as draw_store
from tavla.store import matches as match_store
from tavla.store import outbox
from tavla.store.records import (
    FINISHED,
    AuditRecord,
    FieldRecord,
    FixtureRecord,
    TablesRecord,
    TournamentRecord,
)

if TYPE_CHECKING:
    from tavla.store.transactions import Transaction

ATTEMPTS = 10  # a busy venue: several results a second contend for the table plan
# a match whose players have started it: what depends on it may not change any more (R9.4)
STARTED = frozenset({"playing", "finished", "disputed", "official"})
# a match that no longer needs its table
OFF_TABLE = frozenset({"finished", "disputed", "official", "bye", "void", "not_needed"})

Change = Callable[[FixtureRecord, "DayView"], FixtureRecord]


@dataclass(frozen=True)
class DayView:
    """The day as read for a change: the tournament, its field, tables and every match."""

    tournament: TournamentRecord
    field: FieldRecord | None
    tables: TablesRecord | None
    records: dict[str, FixtureRecord]


@dataclass(frozen=True)
class Settled:
    match: FixtureRecord
    confirmed: tuple[FixtureRecord, ...]
    called: tuple[FixtureRecord, ...]


def read_day(tournament_id: str) -> tuple[DayView, list[rules_day.Draw]]:
    current = draw_store.day(tournament_id)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    records = draw_store.fixtures(tournament_id, current.tournament.draws)
    view = DayView(current.tournament, current.field, current.tables, {r.code: r for r in records})
    return view, day.draws_of(current.rounds, records)


def depends_on(record: FixtureRecord, target: FixtureRecord) -> bool:
    """`record` depends on `target`'s result: a match fed by it (its winner or loser), or a
    later draw's match of one of its players (the next Swiss or lives round was paired from it)."""
    if record.code == target.code:
        return False
    players = {target.home, target.away} - {None}
    fed = target.code in (record.home_source.get("match"), record.away_source.get("match"))
    later = record.draw > target.draw and bool(players & {record.home, record.away})
    return fed or later


def locked(target: FixtureRecord, records: Iterable[FixtureRecord]) -> bool:
    """R9.4: a result no longer changes once a match that depends on it has started."""
    return any(r.state in STARTED and r.state != "bye" and depends_on(r, target) for r in records)


def held(records: Mapping[str, FixtureRecord]) -> set[str]:
    """R9.2: the matches that wait for an open appeal's decision (they depend on an appealed match)."""
    appealed = [r for r in records.values() if r.appeal]
    if not appealed:
        return set()
    return {c for c, r in records.items() if any(depends_on(r, a) for a in appealed)}


def forfeit_result(match: FixtureRecord, loser: str, how: str = "forfeit") -> dict[str, object]:
    """A forfeit: match length to nil for the opponent (R8.1)."""
    winner = match.away if loser == match.home else match.home
    assert winner is not None
    home_points = match.length if winner == match.home else 0
    return {
        "winner": winner,
        "home_points": home_points,
        "away_points": match.length - home_points,
        "forfeit": True,
        "how": how,
    }


def _flowed(
    view: DayView, draws: list[rules_day.Draw], records: dict[str, FixtureRecord], now: datetime
) -> dict[str, FixtureRecord]:
    """Every match as the rules say it stands now; forfeits for players out of play (R8.2)."""
    fixtures = [f for d in draws for f in d.fixtures]
    out = day.out_of_play(view.field)
    while True:
        winners, _ = day.results_of(records.values())
        states = rules_day.flow(fixtures, winners)
        changed = False
        for code, slot in states.items():
            record = records[code]
            state = day.state_after_flow(slot, record.state)
            update: dict[str, object] = {}
            if (slot.home, slot.away) != (record.home, record.away):
                update.update(home=slot.home, away=slot.away)
                if record.state in ("called", "playing"):
                    update.update(called_at=now.isoformat(), present={}, late_points={})
            if state != record.state:
                update["state"] = state
                if state == "bye":
                    update["result"] = {
                        "winner": slot.winner,
                        "home_points": 0,
                        "away_points": 0,
                        "how": "bye",
                    }
                elif state in ("waiting", "void", "not_needed"):
                    update.update(result=None, table=None, called_at=None)
            if state == "queued" or state in ("called", "playing"):
                gone = [p for p in (slot.home, slot.away) if p in out]
                if gone and record.result is None:
                    result = forfeit_result(
                        replace(record, home=slot.home, away=slot.away), gone[0], "withdrawal"
                    )
                    update.update(state=day.OFFICIAL, result=result, official_at=now.isoformat())
            if update:
                records[code] = replace(record, **update)  # type: ignore[arg-type]
                changed = True
        if not changed:
            return records


def _plan(view: DayView) -> TablePlan:
    stored = view.tables
    if stored is None:
        return TablePlan(
            count=day.table_count(view.tournament, len(view.field.entrants) if view.field else 2)
        )
    return TablePlan(
        count=stored.count, occupied={int(t): c for t, c in stored.occupied.items()}, queue=stored.queue
    )


def settle(
    tournament_id: str,
    code: str,
    change: Change,
    audit: Callable[[FixtureRecord, FixtureRecord], Iterable[AuditRecord]],
    now: datetime,
    rng: random.Random | None = None,
    extra: Callable[[Transaction], None] | None = None,
    prepare: Callable[[DayView], DayView] | None = None,
) -> Settled:
    """Apply `change` to match `code` and move the day on from it, atomically (see the module).

    A match that depends on a match under appeal is not called while the appeal is open (R9.2):
    it stays queued, or goes back to the queue if it was called but not started; `extra`
    writes what changes with the match in the same transaction (an appeal, `store.appeals`);
    `prepare` sees the day as read and returns it as `extra` will leave it (a player put out),
    so the day flows from that (it may also refuse the change, on every attempt).
    """
    rng = rng or random.Random()
    for attempt in range(ATTEMPTS):
        view, draws = read_day(tournament_id)
        if view.tournament.status == FINISHED:
            raise TournamentOver("The tournament is finished: its results are final.")
        if prepare is not None:
            view = prepare(view)
        before = view.records.get(code)
        if before is None:
            raise MatchNotFound(f"No match {code} in tournament {tournament_id}.")
        after = change(before, view)
        records = dict(view.records)
        records[code] = after
        records = _flowed(view, draws, records, now)
        frozen = held(records)
        for c in frozen:
            if records[c].state == "called":
                records[c] = replace(records[c], state="queued", table=None, called_at=None)
        plan = _plan(view)
        done = [c for c, r in records.items() if r.state in OFF_TABLE or r.state == "waiting" or c in frozen]
        plan, calls_freed = release(plan, done)
        for c in done:  # a match that gave its table up no longer shows one
            if records[c].table is not None:
                records[c] = replace(records[c], table=None)
        playable = [
            r.code
            for r in sorted(records.values(), key=lambda r: (r.draw, r.round, r.board, r.code))
            if r.state == "queued" and r.code not in frozen
        ]
        plan, calls_new = seat(plan, playable)
        calls = {**calls_freed, **calls_new}
        for c, table in calls.items():
            records[c] = replace(records[c], state="called", table=table, called_at=now.isoformat())
        changed = [(r, view.records[c].version) for c, r in records.items() if r != view.records[c]]
        tables = _tables_record(tournament_id, plan, view.tables)
        confirmed = _confirmed(view.records, records)
        announced = _events(tournament_id, confirmed, calls, now)
        try:
            match_store.settle(
                tournament_id, changed, tables, list(audit(before, records[code])), extra, announced
            )
        except StaleMatch:
            if attempt == ATTEMPTS - 1:
                raise Busy("Many changes to this tournament at once: try again.") from None
            observability.count(observability.CONTENTION_RETRIES)
            time.sleep(rng.uniform(0, min(0.5, 0.02 * 2**attempt)))
            continue
        if confirmed:
            observability.count(observability.RESULT_CONFIRMED, len(confirmed))
        return Settled(
            match=records[code], confirmed=tuple(confirmed), called=tuple(records[c] for c in calls)
        )
    raise Busy("Many changes to this tournament at once: try again.")  # pragma: no cover


def _tables_record(
    tournament_id: str, plan: TablePlan, stored: TablesRecord | None
) -> tuple[TablesRecord, int | None] | None:
    occupied = {str(t): c for t, c in plan.occupied.items()}
    if stored is not None and dict(stored.occupied) == occupied and tuple(stored.queue) == plan.queue:
        return None
    previous = stored.version if stored else None
    record = TablesRecord(
        tournament_id=tournament_id,
        count=plan.count,
        occupied=occupied,
        queue=plan.queue,
        version=(previous or 0) + 1,
    )
    return record, previous


def _confirmed(
    before: Mapping[str, FixtureRecord], after: Mapping[str, FixtureRecord]
) -> list[FixtureRecord]:
    """The results that become official (or change, an appeal decided) with this change."""
    return [
        r
        for c, r in after.items()
        if r.state == day.OFFICIAL and (before[c].state != day.OFFICIAL or before[c].result != r.result)
    ]


def _events(
    tournament_id: str, confirmed: Iterable[FixtureRecord], calls: Mapping[str, int], now: datetime
) -> list[outbox.Event]:
    """What the change tells the rest of the platform, written with it."""
    out = [outbox.Event(events.RESULT_CONFIRMED, result_event(tournament_id, r)) for r in confirmed]
    if calls:
        out.append(called_event(tournament_id, sorted(calls, key=calls.__getitem__), now))
    return out


def called_event(tournament_id: str, codes: list[str], now: datetime) -> outbox.Event:
    """`MatchesCalled`: the players are told their table, the no-show deadlines are set (R6)."""
    return outbox.Event(
        events.MATCHES_CALLED, {"tournament_id": tournament_id, "at": now.isoformat(), "codes": codes}
    )


def result_event(tournament_id: str, record: FixtureRecord) -> dict[str, object]:
    """What ratings and season points need of an official result (R10.3, R10.4)."""
    result = record.result or {}
    return {
        "tournament_id": tournament_id,
        "match_id": day.match_id(tournament_id, record.code),
        "code": record.code,
        "event": record.event,
        "home": record.home,
        "away": record.away,
        "length": record.length,
        "winner": result.get("winner"),
        "home_points": result.get("home_points"),
        "away_points": result.get("away_points"),
        "forfeit": bool(result.get("forfeit", False)),
        "official_at": record.official_at,
        # the match's version this change was made on: a later change of the match carries a
        # higher one, so a late copy of an overturned result can be told from its correction
        "version": record.version,
    }


def require_unlocked(target: FixtureRecord, records: Iterable[FixtureRecord]) -> None:
    """Refuse to change a result that a started match depends on (R9.4)."""
    if target.state == day.OFFICIAL and locked(target, records):
        raise ResultLocked(
            "A match that depends on this result has started: the result can no longer change (R9.4)."
        )
