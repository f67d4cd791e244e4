"""The hall: tables with constraints, players' needs, streaming, holds (`rules.venue`, `rules.holds`).

The organiser sets each table's attributes and the hall (the matches to stream or the Main's
top board, the tournaments beside this one in the same hall); a player, or staff, set the
player's need (private: only they and staff read it). Each change rewrites the table plan on
the version read and seats the day again in the same transaction (`rules.model.Day.reseat`),
so what can now sit is called at once. Staff release a hold the same way. The desk view says
why each queued match waits and who holds whom.

A match of a tournament `beside` another is held while its player is at a table there: the
plans of the tournaments beside are read with the day (`elsewhere`), and a change that frees
a player seats the tournaments beside again (`free_beside`), so a held match is called when
its player is free. That second write is not in the first one's transaction (two
tournaments, two aggregates): when it fails, the next change of that tournament, or staff
releasing the hold, calls the match.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from tavla.caller import Caller
from tavla.errors import Busy, DomainError, Invalid, NotStaff, StaleMatch
from tavla.models.hall import (
    HallBody,
    HallHold,
    HallTable,
    HallView,
    HallWait,
    MyTableNeed,
    MyTableNeeds,
    NeedBody,
    TableAttributesBody,
)
from tavla.rules import holds
from tavla.rules.model import AuditRecord, DayChange, TablesRecord, audit_entry
from tavla.rules.states import AT_TABLE
from tavla.rules.venue import ACCESSIBLE, TableAttributes
from tavla.services import day as day_service
from tavla.services import progress
from tavla.services.access import player_actor, require_organiser, require_staff, role_in
from tavla.store import audit as audit_store
from tavla.store import hall as hall_store
from tavla.store import late_entries as late_store
from tavla.store import matches as match_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import tournaments as tournament_store
from tavla.store.draws import put_tables
from tavla.store.records import FINISHED, Actor, TournamentRecord
from tavla.store.transactions import Cancelled, Transaction

log = logging.getLogger(__name__)
ATTEMPTS = 5


def _reseat(
    tournament_id: str,
    change_plan: Callable[
        [TournamentRecord, TablesRecord], tuple[TablesRecord, Actor | None, str, dict[str, Any]]
    ],
    now: datetime,
) -> TablesRecord:
    """Read the day, change its plan (`change_plan` authorises and returns the plan, who did it,
    the audit action and its details), seat again and write all at once; again on conflict."""
    for _ in range(ATTEMPTS):
        view = progress.read_day(tournament_id)
        stored = view.day.tables
        players = len(view.day.field.entrants) if view.day.field else 0
        blank = TablesRecord(tournament_id=tournament_id, count=view.tournament.play.tables or 0)
        plan, actor, action, details = change_plan(view.tournament, stored or blank)
        audit = [audit_entry(actor, action, now, **details)] if actor is not None else []
        if stored is None:  # before the first draw: nothing to seat, the plan is written as it is
            tx = Transaction()
            put_tables(tx, replace(plan, version=1), None)
            try:
                _run(tx, tournament_id, audit)
            except StaleMatch:
                continue
            return replace(plan, version=1)
        table_count = day_service.table_count(view.tournament, players)
        aggregate = replace(
            view.day, tables=plan, table_count=table_count, elsewhere=hall_store.elsewhere(plan)
        )
        change = aggregate.reseat(now).with_audit(audit)
        try:
            match_store.save_change(tournament_id, change)
        except StaleMatch:
            continue
        assert change.tables is not None
        return change.tables[0]
    raise Busy("Many changes to this tournament at once: try again.")


def _run(tx: Transaction, tournament_id: str, audit: Iterable[AuditRecord]) -> None:
    for record in audit:
        audit_store.record(tx, tournament_id, record)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise StaleMatch("The plan changed meanwhile.") from cancelled


def set_table(
    caller: Caller, tournament_id: str, table: int, body: TableAttributesBody, now: datetime
) -> HallView:
    """A table's attributes (its organisers): what may sit there from now on."""

    def change(
        tournament: TournamentRecord, plan: TablesRecord
    ) -> tuple[TablesRecord, Actor, str, dict[str, Any]]:
        actor = require_organiser(tournament, caller)
        count = plan.count or tournament.play.tables or 0
        if count and table > count:
            raise Invalid(f"table: the hall has {count} tables.")
        attributes = {k: v for k, v in dict(plan.attributes).items() if k != str(table)}
        value = TableAttributes.model_validate(body.model_dump())
        if value != TableAttributes():
            attributes[str(table)] = value.model_dump(exclude_defaults=True)
        return replace(plan, attributes=attributes), actor, "table_set", {"table": table, **body.model_dump()}

    _reseat(tournament_id, change, now)
    return hall(caller, tournament_id)


def set_hall(caller: Caller, tournament_id: str, body: HallBody, now: datetime) -> HallView:
    """The matches to stream, whether the Main's top board is streamed, and the tournaments
    sharing the hall (its organisers)."""

    def change(
        tournament: TournamentRecord, plan: TablesRecord
    ) -> tuple[TablesRecord, Actor, str, dict[str, Any]]:
        actor = require_organiser(tournament, caller)
        beside = tuple(sorted(set(body.beside) - {tournament_id}))
        updated = replace(plan, streamed=tuple(body.streamed), stream_top=body.top_board, beside=beside)
        return updated, actor, "hall_set", body.model_dump()

    _reseat(tournament_id, change, now)
    return hall(caller, tournament_id)


def _require_self_or_staff(tournament: TournamentRecord, caller: Caller, tavla_id: str) -> Actor:
    staff = role_in(tournament, caller) is not None or caller.is_admin
    if not staff and player_store.tavla_id_or_none(caller.sub) == tavla_id:
        return player_actor(caller, tavla_id)
    return require_staff(tournament, caller)


def set_need(caller: Caller, tournament_id: str, tavla_id: str, body: NeedBody, now: datetime) -> NeedBody:
    """A player's need (the player, or staff): the seating honours it from now on. Private."""

    def change(
        tournament: TournamentRecord, plan: TablesRecord
    ) -> tuple[TablesRecord, Actor, str, dict[str, Any]]:
        actor = _require_self_or_staff(tournament, caller, tavla_id)
        needs = {p: n for p, n in plan.needs.items() if p != tavla_id}
        if body.accessible:
            needs[tavla_id] = (ACCESSIBLE,)
        # the audit trail says a need changed, not which one (it is read by more people)
        return replace(plan, needs=needs), actor, "need_set", {"tavla_id": tavla_id}

    if body.accessible:  # the pointer first: an export or erasure never misses a need stored
        hall_store.mark_need(tavla_id, tournament_id, True)
    _reseat(tournament_id, change, now)
    if not body.accessible:
        hall_store.mark_need(tavla_id, tournament_id, False)
    return body


def my_needs(caller: Caller) -> MyTableNeeds:
    """The caller's need in each tournament they are entered in that is not over (their
    profile sets it there; private)."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    # a late entrant has no registration, only the pointer the late entry wrote
    starts = late_store.entered_late(tavla_id)
    starts.update({e.tournament_id: e.starts_at for e in registration_store.of_player(tavla_id)})
    running = [
        (starts_at, t)
        for tournament_id, starts_at in sorted(starts.items(), key=lambda s: (s[1], s[0]))
        if (t := tournament_store.get(tournament_id)).status not in (FINISHED, "cancelled")
    ]
    held = needs_of(tavla_id, [t.id for _, t in running])
    return MyTableNeeds(
        needs=[
            MyTableNeed(
                tournament_id=t.id,
                name=t.name,
                starts_at=starts_at,
                accessible=ACCESSIBLE in held.get(t.id, ()),
            )
            for starts_at, t in running
        ]
    )


def needs_of(tavla_id: str, tournament_ids: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The player's needs held in the plans of these tournaments and of those their pointers
    name (their data export): tournament -> needs."""
    wanted = set(tournament_ids) | set(hall_store.need_tournaments(tavla_id))
    return {
        plan.tournament_id: tuple(plan.needs[tavla_id])
        for plan in hall_store.plans(sorted(wanted))
        if plan.needs.get(tavla_id)
    }


def forget_needs(tavla_id: str, tournament_ids: Iterable[str], now: datetime) -> None:
    """Delete the player's needs from every plan holding one (their erasure); the day is seated
    again without them. Safe to repeat; the pointers go with the player's other items."""

    def drop(
        _tournament: TournamentRecord, plan: TablesRecord
    ) -> tuple[TablesRecord, None, str, dict[str, Any]]:
        return replace(plan, needs={p: n for p, n in plan.needs.items() if p != tavla_id}), None, "", {}

    for tournament_id in needs_of(tavla_id, tournament_ids):
        _reseat(tournament_id, drop, now)


def need(caller: Caller, tournament_id: str, tavla_id: str) -> NeedBody:
    """A player's need, as the player or staff read it."""
    view = progress.read_day(tournament_id)
    _require_self_or_staff(view.tournament, caller, tavla_id)
    tables = view.day.tables
    return NeedBody(accessible=bool(tables and ACCESSIBLE in tables.needs.get(tavla_id, ())))


def release(caller: Caller, tournament_id: str, code: str, now: datetime) -> HallView:
    """Staff release a hold (409 `not_held` when the match is not held): the match is called at
    the next free table it may use, whether or not its player is still playing elsewhere."""

    def change(
        tournament: TournamentRecord, plan: TablesRecord
    ) -> tuple[TablesRecord, Actor, str, dict[str, Any]]:
        actor = require_staff(tournament, caller)
        return holds.release(plan, code, hall_store.elsewhere(plan)), actor, "hold_released", {"match": code}

    _reseat(tournament_id, change, now)
    return hall(caller, tournament_id)


def hall(caller: Caller, tournament_id: str) -> HallView:
    """The desk's view of the hall (its staff): every table with its attributes and match, the
    queue with why each match waits, who holds whom, and the players' needs."""
    view = progress.read_day(tournament_id)
    if role_in(view.tournament, caller) is None and not caller.is_admin:
        raise NotStaff("Only this tournament's referees and organisers may do that.")
    stored = view.day.tables or TablesRecord(
        tournament_id=tournament_id, count=view.tournament.play.tables or 0
    )
    plan = holds.plan_of(stored, (), hall_store.elsewhere(stored))
    names = day_service.names(view.day.field)

    def name(tavla_id: str | None) -> str | None:
        ref = names.get(tavla_id or "")
        return ref.name if ref else None

    waits = holds.waits(plan) if plan.count else []
    here = set(plan.occupied.values())

    def where(by: str) -> tuple[str | None, str]:
        """A hold's match: here, or `<tournament>.<code>` beside."""
        if by in here:
            return None, by
        other, code = by.split(".", 1)
        return other, code

    return HallView(
        tables=[
            HallTable(
                table=n,
                match=plan.occupied.get(n),
                **plan.attributes.get(n, TableAttributes()).model_dump(),
            )
            for n in range(1, stored.count + 1)
        ],
        queue=[HallWait(match=w.code, reason=w.reason) for w in waits],
        holds=[
            HallHold(
                match=w.code,
                tavla_id=w.player or "",
                name=name(w.player),
                by_tournament=where(w.by)[0],
                by_match=where(w.by)[1],
            )
            for w in waits
            if w.by is not None
        ],
        needs=sorted(p for p, n in stored.needs.items() if n),
        streamed=list(stored.streamed),
        top_board=stored.stream_top,
        beside=list(stored.beside),
    )


def free_beside(tournament_id: str, change: DayChange, tables: TablesRecord | None, now: datetime) -> None:
    """After a change that took players off their tables, seat the tournaments beside again
    (see the module); best effort, each on its own."""
    if tables is None or not tables.beside:
        return
    freed = {
        p
        for record, _ in change.matches
        if record.state not in AT_TABLE
        for p in (record.home, record.away)
        if p
    }
    if not freed:
        return
    for plan in hall_store.plans(tables.beside):
        waiting = {p for c in plan.queue for p in (plan.demands or {}).get(c, {}).get("players") or ()}
        if not waiting & freed:
            continue
        other = plan.tournament_id
        try:
            _reseat(other, lambda _t, plan: (plan, None, "", {}), now)
        except DomainError as error:  # the next change there, or staff, call the match instead
            log.warning("seating %s again after %s failed: %s", other, tournament_id, error)
