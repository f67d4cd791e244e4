"""Matches (R6-R9): one match read with what authorizes it, written by optimistic version.

A match is written whole, on condition that its version is the one read: of two players
recording the same game at once, one write lands and the other gets `StaleMatch` (409).
A change that moves the bracket on (`settle`) writes every match it touches, the table plan
and the audit records in one transaction, each on its own version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tavla import clock
from tavla.errors import StaleMatch, TournamentOver
from tavla.frozen import Frozen
from tavla.rules.event_names import MATCH_CHANGED
from tavla.rules.model import DayChange
from tavla.store import audit, keys, outbox
from tavla.store.draws import (
    current_matches,
    field_from_item,
    fixture_item,
    put_tables,
    require_free_beside,
    seated,
    tables_from_item,
)
from tavla.store.dynamo import batch_get
from tavla.store.records import (
    FINISHED,
    AuditRecord,
    FieldRecord,
    FixtureRecord,
    TablesRecord,
    TournamentRecord,
)
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


@dataclass(frozen=True, eq=False, repr=False)
class MatchSnapshot(Frozen):
    """A match, its tournament, and the caller's Tavla ID (by sub): one BatchGetItem."""

    tournament: TournamentRecord | None
    match: FixtureRecord | None
    tavla_id: str | None = None
    field: FieldRecord | None = None  # read only when asked for (names for the public view)


def snapshot(
    tournament_id: str, code: str, sub: str | None = None, *, with_field: bool = False
) -> MatchSnapshot:
    wanted = [keys.tournament(tournament_id), keys.match(tournament_id, code)]
    if sub is not None:
        wanted.append(keys.identity(sub))
    if with_field:
        wanted.append(keys.field(tournament_id))
    found = batch_get(MAIN, wanted, consistent=True)
    by_sk = {i["sk"]: i for i in found}
    meta, identity = by_sk.get("META"), by_sk.get("IDENTITY")
    tournament = TournamentRecord.from_item(meta) if meta else None
    # a draw not published yet, a redraw being staged or replaced: nobody sees it
    match = current_matches(tournament, [code], by_sk).get(code)
    fixed = by_sk.get(keys.field(tournament_id)["sk"]["S"])
    return MatchSnapshot(
        tournament,
        match,
        str(identity["tavla_id"]) if identity else None,
        field_from_item(fixed) if fixed else None,
    )


def changed_event(record: FixtureRecord, version: int) -> outbox.Event:
    """The match was written at `version`: the live channel's screens refetch it (one event per
    version, so a retried write names the same one)."""
    detail = {
        "tournament_id": record.tournament_id,
        "code": record.code,
        "version": version,
        "state": str(record.state),
    }
    return outbox.Event(MATCH_CHANGED, detail, key=f"{record.tournament_id}.{record.code}.{version}")


def _put(tx: Transaction, name: str, record: FixtureRecord, seen: int | None) -> None:
    version = 1 if seen is None else seen + 1
    outbox.add(tx, [changed_event(record, version)])
    if seen is None:  # a new match
        tx.put(name, MAIN, fixture_item(replace(record, version=1)), condition="attribute_not_exists(pk)")
        return
    tx.put(
        name,
        MAIN,
        fixture_item(replace(record, version=seen + 1)),
        condition="version = :seen",
        values={"seen": seen},
    )


def on_shown_attempt(records: Sequence[FixtureRecord]) -> tuple[str, dict[str, str], dict[str, object]]:
    """A condition on the tournament that each match's draw still shows the match's attempt
    and is not being redrawn (decision 0047): a write read before a redraw's switch is refused
    after it (the replaced match lives on under its own key, nobody would see the write), and
    one made while the redraw is staged is refused until the switch or the fence's expiry."""
    if not records:
        return "", {}, {}
    conditions: list[str] = []
    names = {"#redrawing": "redrawing", "#fence_draw": "number", "#fence_until": "until"}
    values: dict[str, object] = {"fence_now": int(clock.now().timestamp())}
    for draw, attempt in sorted({(r.draw, r.attempt) for r in records}):
        names["#attempts"], names[f"#draw{draw}"] = "attempts", str(draw)
        path = f"#attempts.#draw{draw}"
        if attempt == 1:
            conditions.append(f"attribute_not_exists({path})")
        else:
            conditions.append(f"{path} = :attempt{draw}")
            values[f"attempt{draw}"] = attempt
        conditions.append(
            f"(attribute_not_exists(#redrawing) OR #redrawing.#fence_draw <> :fenced{draw}"
            " OR #redrawing.#fence_until < :fence_now)"
        )
        values[f"fenced{draw}"] = draw
    return " AND ".join(conditions), names, values


def save(
    record: FixtureRecord,
    seen: int,
    changes: Sequence[AuditRecord] = (),
    events: Sequence[outbox.Event] = (),
) -> FixtureRecord:
    """Write the match as changed (and its events), on condition nobody wrote it since version
    `seen` was read."""
    tx = Transaction()
    _put(tx, "match", record, seen)
    shown, names, values = on_shown_attempt([record])
    tx.check(
        "tournament", MAIN, keys.tournament(record.tournament_id), shown, names=names, values=values or None
    )
    for change in changes:
        audit.record(tx, record.tournament_id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("match") or cancelled.failed("tournament"):
            raise StaleMatch("The match changed meanwhile: reload it and try again.") from cancelled
        raise
    return replace(record, version=seen + 1)


def save_change(
    tournament_id: str, change: DayChange, extra: Callable[[Transaction], None] | None = None
) -> None:
    """Write a day's change at once (`rules.model.DayChange`): see `settle`."""
    events = [outbox.Event(e.detail_type, dict(e.detail)) for e in change.events]
    called = [r.code for r in change.called]
    settle(tournament_id, change.matches, change.tables, change.audit, extra, events, called=called)


def save_part(
    tournament_id: str,
    change: DayChange,
    read: TablesRecord,
    extra: Callable[[Transaction], None] | None = None,
) -> None:
    """Write a change made on a part of the day (`rules.model.Day.partial`): its matches each
    on its version, and the table plan by what changed in it, each table on the match it held,
    not on the plan's version (`update_tables`), so changes that free or take different tables
    do not refuse each other."""
    events = [outbox.Event(e.detail_type, dict(e.detail)) for e in change.events]
    plan = change.tables

    def tables(tx: Transaction) -> None:
        if plan is not None:
            update_tables(tx, read, plan[0])
            require_free_beside(tx, plan[0], [r.code for r in change.called])

    settle(tournament_id, change.matches, None, change.audit, extra, events, tables)


def update_tables(tx: Transaction, read: TablesRecord, after: TablesRecord) -> None:
    """The plan's change in `tx` as an update of what changed, each part on its own condition.

    A table freed or handed on: on condition it still holds the match read there; a table
    taken: on condition it is free; matches leaving the head of the queue: on condition they
    are still its head; matches joining it: appended. A change that both takes from the queue
    and adds to it writes the queue whole, on the plan's version. Every change holds while no
    appeal is open (a match it calls might be held, R9.2) and moves the version on, so a change
    that rewrites the plan whole (a draw, a change read on the whole day) sees it.
    """
    sets, removes, conditions = ["version = version + :one"], [], ["size(appeals) = :zero"]
    names: dict[str, str] = {}
    values: dict[str, object] = {"one": 1, "zero": 0}
    for number in sorted(set(read.occupied) | set(after.occupied), key=int):
        was, now = read.occupied.get(number), after.occupied.get(number)
        if was == now:
            continue
        names[f"#t{number}"] = number
        path = f"occupied.#t{number}"
        if was is None:
            conditions.append(f"attribute_not_exists({path})")
        else:
            conditions.append(f"{path} = :was{number}")
            values[f"was{number}"] = was
        if now is None:
            removes.append(path)
        else:
            sets.append(f"{path} = :now{number}")
            values[f"now{number}"] = now
    queue, kept = tuple(read.queue), tuple(after.queue)
    shorter = len(kept) <= len(queue)
    taken = len(queue) - len(kept) if shorter and queue[len(queue) - len(kept) :] == kept else None
    if kept == queue:
        pass
    elif taken is not None:  # the head went to tables
        for i in range(taken):
            conditions.append(f"queue[{i}] = :head{i}")
            values[f"head{i}"] = queue[i]
            removes.append(f"queue[{i}]")
    elif kept[: len(queue)] == queue:  # matches joined the end
        sets.append("queue = list_append(queue, :joined)")
        values["joined"] = list(kept[len(queue) :])
    else:
        sets.append("queue = :queue")
        values["queue"] = list(kept)
        conditions.append("version = :seen")
        values["seen"] = read.version
    _demands_changed(read, after, sets, removes, names, values)
    _seated_changed(read, after, sets, removes, names, values, conditions)
    expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
    tx.update(
        "tables",
        MAIN,
        keys.tables(read.tournament_id),
        expression,
        condition=" AND ".join(conditions),
        names=names or None,
        values=values,
    )


def _demands_changed(
    read: TablesRecord,
    after: TablesRecord,
    sets: list[str],
    removes: list[str],
    names: dict[str, str],
    values: dict[str, object],
) -> None:
    """The demands of the matches that joined or left the plan (`rules.venue`), each by its key."""
    was, now = read.demands or {}, after.demands or {}
    for i, code in enumerate(sorted(set(was) | set(now))):
        if was.get(code) == now.get(code):
            continue
        names[f"#d{i}"] = code
        if code in now:
            sets.append(f"demands.#d{i} = :d{i}")
            values[f"d{i}"] = {**now[code], "players": list(now[code].get("players") or ())}
        else:
            removes.append(f"demands.#d{i}")


def _seated_changed(
    read: TablesRecord,
    after: TablesRecord,
    sets: list[str],
    removes: list[str],
    names: dict[str, str],
    values: dict[str, object],
    conditions: list[str],
) -> None:
    """The players who sat down or got up (`store.draws.seated`), each by his key; a plan
    written before it was kept gets it whole, once (a second change of that kind reads again)."""
    was, now = seated(read), seated(after)
    if read.seated is None:
        names["#seated"] = "seated"
        sets.append("#seated = :seated")
        values["seated"] = now
        conditions.append("attribute_not_exists(#seated)")
        return
    for i, player in enumerate(sorted(set(was) | set(now))):
        if was.get(player) == now.get(player):
            continue
        names["#seated"] = "seated"
        names[f"#s{i}"] = player
        if player in now:
            sets.append(f"#seated.#s{i} = :s{i}")
            values[f"s{i}"] = now[player]
        else:
            removes.append(f"#seated.#s{i}")


def settle(
    tournament_id: str,
    changed: Sequence[tuple[FixtureRecord, int | None]],
    tables: tuple[TablesRecord, int | None] | None,
    changes: Sequence[AuditRecord],
    extra: Callable[[Transaction], None] | None = None,
    events: Sequence[outbox.Event] = (),
    write_tables: Callable[[Transaction], None] | None = None,
    called: Sequence[str] = (),
) -> None:
    """Write matches (each on the version it was read at), the table plan, audit records and the
    events (results confirmed, matches called) at once,
    while the tournament is not finished (its final standings are the record: TournamentOver).

    `extra` adds the items that change with them (an appeal lodged or decided, `store.appeals`);
    `called`: the matches put on a table, whose players must be at no table beside.
    """
    tx = Transaction()
    shown, names, values = on_shown_attempt([record for record, _ in changed])
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        " AND ".join(["#status <> :finished", *([shown] if shown else [])]),
        names={"#status": "status", **names},
        values={"finished": FINISHED, **values},
        return_old=True,
    )
    if extra is not None:
        extra(tx)
    for i, (record, seen) in enumerate(changed):
        _put(tx, f"match {i}", record, seen)
    if tables is not None:
        put_tables(tx, tables[0], tables[1], called)
    if write_tables is not None:
        write_tables(tx)
    for change in changes:
        audit.record(tx, tournament_id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament") and (cancelled.old("tournament") or {}).get("status") == FINISHED:
            raise TournamentOver("The tournament is finished: its results are final.") from cancelled
        if cancelled.any_failed:  # a match, the plan, or a redraw of the round meanwhile
            raise StaleMatch("The day changed meanwhile: reload and try again.") from cancelled
        raise


@dataclass(frozen=True, eq=False, repr=False)
class Part(Frozen):
    """Some matches of a tournament read by key, with the tournament, its table plan and its
    field when asked for: what a change of one match reads instead of the whole day."""

    tournament: TournamentRecord | None
    tables: TablesRecord | None
    field: FieldRecord | None
    matches: dict[str, FixtureRecord]


def part(tournament_id: str, codes: Sequence[str], *, with_day: bool, with_field: bool) -> Part:
    """The matches `codes` (and the tournament and its tables when `with_day`, its field when
    `with_field`): one BatchGetItem (a chunk per 100 keys)."""
    wanted = [keys.match(tournament_id, code) for code in dict.fromkeys(codes)]
    wanted.append(keys.tournament(tournament_id))  # which attempt of each draw is shown
    if with_day:
        wanted.append(keys.tables(tournament_id))
    if with_field:
        wanted.append(keys.field(tournament_id))
    found = {i["sk"]: i for i in batch_get(MAIN, wanted, consistent=True)}
    meta, tables, field = found.pop("META", None), found.pop("TABLES", None), found.pop("FIELD", None)
    tournament = TournamentRecord.from_item(meta) if meta else None
    return Part(
        tournament if with_day else None,
        tables_from_item(tables) if tables else None,
        field_from_item(field) if field else None,
        current_matches(tournament, codes, found),
    )


@dataclass(frozen=True, eq=False, repr=False)
class CalledMatches(Frozen):
    """Some matches of a tournament read together with the tournament and its field."""

    tournament: TournamentRecord | None
    field: FieldRecord | None
    matches: tuple[FixtureRecord, ...]


def several(tournament_id: str, codes: Sequence[str]) -> CalledMatches:
    """The tournament, its field and the matches `codes` (published ones only): one BatchGetItem
    (a chunk per 100 keys)."""
    wanted = [keys.tournament(tournament_id), keys.field(tournament_id)]
    wanted += [keys.match(tournament_id, code) for code in dict.fromkeys(codes)]
    found = {i["sk"]: i for i in batch_get(MAIN, wanted, consistent=True)}
    meta, field = found.get("META"), found.get("FIELD")
    tournament = TournamentRecord.from_item(meta) if meta else None
    return CalledMatches(
        tournament,
        field_from_item(field) if field else None,
        tuple(current_matches(tournament, codes, found).values()),
    )
