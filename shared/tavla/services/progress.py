"""The day moves on: a change to one match, and everything that follows from it, written at once.

Every change that can decide a match (a confirmed result, a forfeit at the no-show deadline,
an appeal decision, a withdrawal) goes through `settle`: it loads the day, lets the use case
say what becomes of the match, has the day aggregate (`rules.model.Day`) move the day on from
it, and saves the one `DayChange` in one transaction, each match on the version it was read
at, its events with it (`store.outbox`: `ResultConfirmed` for every result that became
official, `MatchesCalled` for every match put on a table). A concurrent change makes it read
again and retry.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from tavla import observability
from tavla.errors import Busy, MatchNotFound, ResultLocked, StaleMatch, TournamentNotFound, TournamentOver
from tavla.rules import model
from tavla.rules.model import depends_on as depends_on
from tavla.rules.model import forfeit_result as forfeit_result
from tavla.rules.model import held as held
from tavla.rules.model import locked as locked
from tavla.rules.model import result_event as result_event
from tavla.rules.states import State
from tavla.services import day
from tavla.store import draws as draw_store
from tavla.store import matches as match_store
from tavla.store import outbox
from tavla.store.records import FINISHED, AuditRecord, FieldRecord, FixtureRecord, TournamentRecord

if TYPE_CHECKING:
    from tavla.store.transactions import Transaction

ATTEMPTS = 10  # a busy venue: several results a second contend for the table plan

Change = Callable[[FixtureRecord, "DayView"], FixtureRecord]


@dataclass(frozen=True)
class DayView:
    """The day as read for a change: the tournament and the day aggregate."""

    tournament: TournamentRecord
    day: model.Day

    @property
    def field(self) -> FieldRecord | None:
        return self.day.field

    @property
    def records(self) -> dict[str, FixtureRecord]:
        return dict(self.day.matches)


@dataclass(frozen=True)
class Settled:
    match: FixtureRecord
    confirmed: tuple[FixtureRecord, ...]
    called: tuple[FixtureRecord, ...]


def read_day(tournament_id: str) -> DayView:
    """The tournament, its field, tables and matches; the fixtures come from the matches
    themselves, so the rounds (and their large public inputs) are not read."""
    current = draw_store.day(tournament_id, with_rounds=False)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    records = draw_store.fixtures(tournament_id, current.tournament.draws)
    players = len(current.field.entrants) if current.field else 2
    aggregate = model.Day(
        tournament_id=tournament_id,
        table_count=day.table_count(current.tournament, players),
        field=current.field,
        tables=current.tables,
        matches={r.code: r for r in records},
        fixtures=[day.fixture_of(r) for r in sorted(records, key=lambda r: (r.draw, r.position))],
    )
    return DayView(current.tournament, aggregate)


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

    `extra` writes what changes with the match in the same transaction (an appeal,
    `store.appeals`); `prepare` sees the day as read and returns it as `extra` will leave it
    (a player put out), so the day flows from that (it may also refuse the change, on every
    attempt).
    """
    rng = rng or random.Random()
    for attempt in range(ATTEMPTS):
        view = read_day(tournament_id)
        if view.tournament.status == FINISHED:
            raise TournamentOver("The tournament is finished: its results are final.")
        if prepare is not None:
            view = prepare(view)
        before = view.day.matches.get(code)
        if before is None:
            raise MatchNotFound(f"No match {code} in tournament {tournament_id}.")
        moved = view.day.settle(code, change(before, view), now)
        after = moved.after(code) or before
        moved = moved.with_audit(audit(before, after))
        seen = next((v for r, v in moved.matches if r.code == code), None)
        try:
            match_store.save_change(tournament_id, moved, extra)
        except StaleMatch:
            if attempt == ATTEMPTS - 1:
                raise Busy("Many changes to this tournament at once: try again.") from None
            observability.count(observability.CONTENTION_RETRIES)
            time.sleep(rng.uniform(0, min(0.5, 0.02 * 2**attempt)))
            continue
        if moved.confirmed:
            observability.count(observability.RESULT_CONFIRMED, len(moved.confirmed))
        stored = replace(after, version=seen + 1) if seen is not None else after
        return Settled(match=stored, confirmed=moved.confirmed, called=moved.called)
    raise Busy("Many changes to this tournament at once: try again.")  # pragma: no cover


def called_event(tournament_id: str, codes: list[str], now: datetime) -> outbox.Event:
    """`MatchesCalled`: the players are told their table, the no-show deadlines are set (R6)."""
    return outbox_event(model.called_event(tournament_id, codes, now))


def outbox_event(event: model.DomainEvent) -> outbox.Event:
    return outbox.Event(event.detail_type, dict(event.detail))


def require_unlocked(target: FixtureRecord, records: Iterable[FixtureRecord]) -> None:
    """Refuse to change a result that a started match depends on (R9.4)."""
    if target.state == State.OFFICIAL and locked(target, records):
        raise ResultLocked(
            "A match that depends on this result has started: the result can no longer change (R9.4)."
        )
