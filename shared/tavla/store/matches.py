"""Matches (R6-R9): one match read with what authorizes it, written by optimistic version.

A match is written whole, on condition that its version is the one read: of two players
recording the same game at once, one write lands and the other gets `StaleMatch` (409).
A change that moves the bracket on (`settle`) writes every match it touches, the table plan
and the audit records in one transaction, each on its own version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tavla.errors import StaleMatch, TournamentOver
from tavla.rules.event_names import MATCH_CHANGED
from tavla.rules.model import DayChange
from tavla.store import audit, keys, outbox
from tavla.store.draws import field_from_item, fixture_from_item, fixture_item, put_tables
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


@dataclass(frozen=True)
class MatchSnapshot:
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
    item = by_sk.get(keys.match(tournament_id, code)["sk"]["S"])
    tournament = TournamentRecord.from_item(meta) if meta else None
    match = fixture_from_item(item) if item else None
    if match is not None and tournament is not None and match.draw > tournament.draws:
        match = None  # written by a draw not published yet: nobody sees it
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
    for change in changes:
        audit.record(tx, record.tournament_id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("match"):
            raise StaleMatch("The match changed meanwhile: reload it and try again.") from cancelled
        raise
    return replace(record, version=seen + 1)


def save_change(
    tournament_id: str, change: DayChange, extra: Callable[[Transaction], None] | None = None
) -> None:
    """Write a day's change at once (`rules.model.DayChange`): see `settle`."""
    events = [outbox.Event(e.detail_type, dict(e.detail)) for e in change.events]
    settle(tournament_id, change.matches, change.tables, change.audit, extra, events)


def settle(
    tournament_id: str,
    changed: Sequence[tuple[FixtureRecord, int | None]],
    tables: tuple[TablesRecord, int | None] | None,
    changes: Sequence[AuditRecord],
    extra: Callable[[Transaction], None] | None = None,
    events: Sequence[outbox.Event] = (),
) -> None:
    """Write matches (each on the version it was read at), the table plan, audit records and the
    events (results confirmed, matches called) at once,
    while the tournament is not finished (its final standings are the record: TournamentOver).

    `extra` adds the items that change with them (an appeal lodged or decided, `store.appeals`).
    """
    tx = Transaction()
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "#status <> :finished",
        names={"#status": "status"},
        values={"finished": FINISHED},
    )
    if extra is not None:
        extra(tx)
    for i, (record, seen) in enumerate(changed):
        _put(tx, f"match {i}", record, seen)
    if tables is not None:
        put_tables(tx, tables[0], tables[1])
    for change in changes:
        audit.record(tx, tournament_id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise TournamentOver("The tournament is finished: its results are final.") from cancelled
        if cancelled.any_failed:
            raise StaleMatch("The day changed meanwhile: reload and try again.") from cancelled
        raise


@dataclass(frozen=True)
class CalledMatches:
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
    published = tournament.draws if tournament else 0
    matches = [
        fixture_from_item(found[sk])
        for code in dict.fromkeys(codes)
        if (sk := keys.match(tournament_id, code)["sk"]["S"]) in found
    ]
    return CalledMatches(
        tournament,
        field_from_item(field) if field else None,
        tuple(m for m in matches if m.draw <= published),
    )
