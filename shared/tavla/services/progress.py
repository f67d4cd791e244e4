"""The day moves on: a change to one match, and everything that follows from it, written at once.

Every change that can decide a match (a confirmed result, a forfeit at the no-show deadline,
an appeal decision, a withdrawal) goes through `apply`: it loads the day, has the day aggregate
run the use case's operation on the match (`rules.model.Day.apply`, `rules.operations`) and
move the day on from it, and saves the one `DayChange` in one transaction, each match on the
version it was read at, its events with it (`store.outbox`: `ResultConfirmed` for every result that became
official, `MatchesCalled` for every match put on a table). A concurrent change makes it read
again and retry.

A match that ends (confirmed, reported alike, forfeited, decided) reads only what it changes
(`read_part`): itself, the matches its result feeds and their other feeders, by key, and the
table plan, which it updates table by table (`store.matches.save_part`), so what it costs does
not grow with the day and changes freeing different tables do not refuse each other. The whole
day is read when the change needs it: a result changed after it was official (R9.4 looks at
every later match), an open appeal (R9.2 holds what depends on it), a player put out, a match
or plan stored before the matches carried what they feed (decision
`0023-confirm-reads-what-it-changes`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from tavla import observability
from tavla.errors import (
    Busy,
    MatchNotFound,
    StaleMatch,
    TournamentCancelled,
    TournamentNotFound,
    TournamentOver,
)
from tavla.frozen import Frozen
from tavla.rules import model
from tavla.rules.model import depends_on as depends_on
from tavla.rules.model import forfeit_result as forfeit_result
from tavla.rules.model import held as held
from tavla.rules.model import locked as locked
from tavla.rules.model import result_event as result_event
from tavla.rules.operations import Operation
from tavla.rules.operations import require_unlocked as require_unlocked
from tavla.rules.states import State
from tavla.services import day
from tavla.store import draws as draw_store
from tavla.store import hall as hall_store
from tavla.store import matches as match_store
from tavla.store import outbox
from tavla.store.records import FINISHED, AuditRecord, FieldRecord, FixtureRecord, TournamentRecord
from tavla.store.tournaments import CANCELLED

if TYPE_CHECKING:
    from tavla.store.transactions import Transaction

ATTEMPTS = 10  # a busy venue: several results a second contend for the table plan

Change = Callable[[FixtureRecord, "DayView"], FixtureRecord]


@dataclass(frozen=True, eq=False, repr=False)
class DayView(Frozen):
    """The day as read for a change: the tournament and the day aggregate."""

    tournament: TournamentRecord
    day: model.Day

    @property
    def field(self) -> FieldRecord | None:
        return self.day.field

    @property
    def records(self) -> dict[str, FixtureRecord]:
        return dict(self.day.matches)


@dataclass(frozen=True, eq=False, repr=False)
class Settled(Frozen):
    match: FixtureRecord
    confirmed: tuple[FixtureRecord, ...]
    called: tuple[FixtureRecord, ...]
    tournament: TournamentRecord
    field: FieldRecord | None


def read_day(tournament_id: str) -> DayView:
    """The tournament, its field, tables and matches; the fixtures come from the matches
    themselves, so the rounds (and their large public inputs) are not read."""
    current = draw_store.day(tournament_id, with_rounds=False)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    records = draw_store.fixtures(current.tournament)
    players = len(current.field.entrants) if current.field else 2
    aggregate = model.Day(
        tournament_id=tournament_id,
        table_count=day.table_count(current.tournament, players),
        field=current.field,
        tables=current.tables,
        matches={r.code: r for r in records},
        fixtures=[day.fixture_of(r) for r in sorted(records, key=lambda r: (r.draw, r.position))],
        elsewhere=hall_store.elsewhere(current.tables),
    )
    return DayView(current.tournament, aggregate)


def read_first(tournament_id: str, code: str) -> match_store.Part:
    """Match `code`, the tournament and the table plan: one BatchGetItem, what a change of one
    match reads first (the field only when the change reaches matches it feeds: `_grown`)."""
    first = match_store.part(tournament_id, [code], with_day=True, with_field=False)
    if first.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return first


def read_part(tournament_id: str, code: str, first: match_store.Part | None = None) -> DayView | None:
    """The part of the day a change of match `code` touches, if reading it is enough (see the
    module): the match, the tournament and the table plan in one BatchGetItem (`first`, when read
    already), then (when the match feeds others) those and their other feeders. None: read the
    whole day."""
    first = first or read_first(tournament_id, code)
    assert first.tournament is not None
    before = first.matches.get(code)
    tables = first.tables
    if (
        before is None
        or before.draw > first.tournament.draws
        or before.feeds is None
        or before.state == State.OFFICIAL
        or before.appeal is not None
        or tables is None
        or tables.appeals != ()
        or tables.demands is None
    ):
        return None
    aggregate = model.Day(
        tournament_id=tournament_id,
        table_count=tables.count,
        field=first.field,
        tables=tables,
        matches=first.matches,
        partial=True,
        elsewhere=hall_store.elsewhere(tables),
    )
    # the match at the head of the queue takes the table this one frees: read with the rest
    head = {tables.queue[0]} if tables.queue and before.table is not None else set()
    return _grown(DayView(first.tournament, aggregate), set(before.feeds), head)


def _grown(view: DayView, fed: set[str], also: Collection[str] = ()) -> DayView | None:
    """The partial day with the matches `fed` played forward too: they, their feeders not read
    yet and the field (a player out of play forfeits what he is drawn into, R8.2) read by key,
    and the matches `also` (queued ones it calls). None: one of them was stored before the
    matches carried what they feed."""
    current = view.day
    loaded = dict(current.matches)
    wanted = sorted((fed | set(also)) - set(loaded))
    field = current.field
    if wanted or (fed and field is None):
        with_field = bool(fed) and field is None
        found = match_store.part(current.tournament_id, wanted, with_day=False, with_field=with_field)
        loaded.update(found.matches)
        field = field or found.field
    if any(c not in loaded or loaded[c].feeds is None for c in fed) or any(c not in loaded for c in also):
        return None
    feeders = sorted({s for c in fed for s in model.sources_of(loaded[c])} - set(loaded))
    if feeders:
        found = match_store.part(current.tournament_id, feeders, with_day=False, with_field=False)
        loaded.update(found.matches)
        if any(c not in loaded for c in feeders):
            return None
    played = {f.code for f in current.fixtures} | fed
    records = [loaded[c] for c in played]
    aggregate = replace(
        current,
        field=field,
        matches=loaded,
        fixtures=[day.fixture_of(r) for r in sorted(records, key=lambda r: (r.draw, r.position))],
    )
    return DayView(view.tournament, aggregate)


def _moved(
    view: DayView, code: str, operation: Operation, now: datetime
) -> tuple[DayView, model.DayChange] | None:
    """The day moved on from the change of match `code`; a partial day grows until the change
    reaches no match it did not read (a walkover or a forfeit moves on further). None: the
    whole day is needed after all."""
    grown: DayView | None = view
    while grown is not None:
        played = {f.code for f in grown.day.fixtures}
        try:
            moved = grown.day.apply(code, operation, now)
        except model.Unread as unread:  # it calls queued matches not read yet
            grown = _grown(grown, played, unread.codes)
            continue
        further = grown.day.unreached(moved)
        if not further:
            return grown, moved
        grown = _grown(grown, played | further)
    return None


def settle(
    tournament_id: str,
    code: str,
    change: Change,
    audit: Callable[[FixtureRecord, FixtureRecord], Iterable[AuditRecord]],
    now: datetime,
    rng: random.Random | None = None,
    extra: Callable[[Transaction], None] | None = None,
    prepare: Callable[[DayView], DayView] | None = None,
    whole_day: bool = False,
) -> Settled:
    """`apply` with the match's change given as a function of the match and the day as read."""

    def operation(tournament: TournamentRecord) -> Operation:
        return _Callbacks(change, audit, tournament)

    return _apply(tournament_id, code, operation, now, rng, extra, prepare, whole_day, None)


@dataclass(frozen=True, eq=False, repr=False)
class _Callbacks(Operation):
    change: Change
    record: Callable[[FixtureRecord, FixtureRecord], Iterable[AuditRecord]]
    tournament: TournamentRecord

    def after(self, before: FixtureRecord, day: model.Day) -> FixtureRecord:
        return self.change(before, DayView(self.tournament, day))

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> list[AuditRecord]:
        return list(self.record(before, after))


def require_in_play(tournament: TournamentRecord) -> None:
    """A finished tournament's results are final; a cancelled one's matches change no more."""
    if tournament.status == FINISHED:
        raise TournamentOver("The tournament is finished: its results are final.")
    if tournament.status == CANCELLED:
        raise TournamentCancelled("The tournament was cancelled: its matches change no more.")


def apply(
    tournament_id: str,
    code: str,
    operation: Operation,
    now: datetime,
    rng: random.Random | None = None,
    extra: Callable[[Transaction], None] | None = None,
    prepare: Callable[[DayView], DayView] | None = None,
    whole_day: bool = False,
    first: match_store.Part | None = None,
) -> Settled:
    """Apply `operation` to match `code` and move the day on from it, atomically (see the module).

    `extra` writes what changes with the match in the same transaction (an appeal,
    `store.appeals`); `prepare` sees the day as read and returns it as `extra` will leave it
    (a player put out), so the day flows from that (it may also refuse the change, on every
    attempt). `whole_day`: the operation looks at other matches than its own (R9.4), so the
    whole day is read; otherwise only the part it touches may be (see the module). `first`:
    what the caller read already (`read_first`), used by the first attempt instead of reading it
    again.
    """
    return _apply(tournament_id, code, lambda _: operation, now, rng, extra, prepare, whole_day, first)


def _apply(
    tournament_id: str,
    code: str,
    operation_for: Callable[[TournamentRecord], Operation],
    now: datetime,
    rng: random.Random | None,
    extra: Callable[[Transaction], None] | None,
    prepare: Callable[[DayView], DayView] | None,
    whole_day: bool,
    first: match_store.Part | None,
) -> Settled:
    rng = rng or random.Random()
    for attempt in range(ATTEMPTS):
        read = first if attempt == 0 else None
        part = None
        if not whole_day and prepare is None:
            part = read_part(tournament_id, code, read or read_first(tournament_id, code))
        if part is not None:
            require_in_play(part.tournament)
        moving = _moved(part, code, operation_for(part.tournament), now) if part is not None else None
        if moving is not None:
            view, moved = moving
            before = view.day.matches[code]
        else:
            view = read_day(tournament_id)
            require_in_play(view.tournament)
            if prepare is not None:
                view = prepare(view)
            found = view.day.matches.get(code)
            if found is None:
                raise MatchNotFound(f"No match {code} in tournament {tournament_id}.")
            before = found
            moved = view.day.apply(code, operation_for(view.tournament), now)
        after = moved.after(code) or before
        seen = next((v for r, v in moved.matches if r.code == code), None)
        try:
            if view.day.partial:
                assert view.day.tables is not None
                match_store.save_part(tournament_id, moved, view.day.tables, extra)
            else:
                match_store.save_change(tournament_id, moved, extra)
        except StaleMatch:
            if attempt == ATTEMPTS - 1:
                raise Busy("Many changes to this tournament at once: try again.") from None
            observability.count(observability.CONTENTION_RETRIES)
            time.sleep(rng.uniform(0, min(0.5, 0.02 * 2**attempt)))
            continue
        if moved.confirmed:
            observability.count(observability.RESULT_CONFIRMED, len(moved.confirmed))
        if view.day.tables is not None and view.day.tables.beside:  # a held player may be free
            from tavla.services import hall

            hall.free_beside(tournament_id, moved, view.day.tables, now)
        stored = replace(after, version=seen + 1) if seen is not None else after
        return Settled(
            match=stored,
            confirmed=moved.confirmed,
            called=moved.called,
            tournament=view.tournament,
            field=view.field,
        )
    raise Busy("Many changes to this tournament at once: try again.")  # pragma: no cover


def called_event(tournament_id: str, codes: list[str], now: datetime) -> outbox.Event:
    """`MatchesCalled`: the players are told their table, the no-show deadlines are set (R6)."""
    return outbox_event(model.called_event(tournament_id, codes, now))


def outbox_event(event: model.DomainEvent) -> outbox.Event:
    return outbox.Event(event.detail_type, dict(event.detail))
