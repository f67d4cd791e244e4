"""Draws (R5): the field, published rounds, their matches and the tables, as one tournament's day.

A draw is published atomically as seen from outside, however many matches it holds:
1. `reserve` fixes the draw's number and seed on the tournament with one condition (the
   first draw also closes check-in and fixes the field, R4.2, R4.3);
2. `write_fixtures` writes its matches under deterministic keys (BatchWriteItem, 25 a call);
   nobody sees them yet, because readers show only published draws' matches;
3. `publish` makes it visible with one transaction: the round item, the tournament's draw
   count, and the table plan.
A retried draw finds its reservation and writes the same matches again; of two draws made at
once, one publishes and the other's publish condition fails.
"""

from __future__ import annotations

import base64
import json
import time
import zlib
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from botocore.exceptions import ClientError

from tavla.errors import Busy, DrawInProgress
from tavla.frozen import Frozen
from tavla.rules import score_entries
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.store import audit, keys, outbox
from tavla.store.dynamo import (
    Item,
    batch_get,
    client,
    error_code,
    query_prefix,
    serialize,
    table_name,
)
from tavla.store.records import (
    AuditRecord,
    FieldRecord,
    FixtureRecord,
    RoundRecord,
    TablesRecord,
    TournamentRecord,
    item_of,
    record_of,
)
from tavla.store.schema import MAIN
from tavla.store.transactions import MAX_ITEMS, Cancelled, Transaction

BATCH_WRITE = 25  # DynamoDB's limit per BatchWriteItem
PARALLEL_WRITES = 4  # batches in flight at once (the client is thread-safe)


@dataclass(frozen=True, eq=False, repr=False)
class Day(Frozen):
    """What a draw needs to know about a tournament, read in one or two calls."""

    tournament: TournamentRecord | None
    field: FieldRecord | None
    tables: TablesRecord | None
    rounds: tuple[RoundRecord, ...] = ()
    seq: int = 0  # the live channel's last delta, when read (`with_seq`)


def _key_free(item: Item) -> Item:
    return {k: v for k, v in item.items() if k not in ("pk", "sk")}


def _pack(value: Any) -> str:
    """Large JSON (a draw's inputs) compressed: a 512-player Swiss keeps far below 400 KB."""
    return base64.b64encode(zlib.compress(json.dumps(value, separators=(",", ":")).encode())).decode()


def _unpack(text: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(text)))


def round_from_item(item: Item) -> RoundRecord:
    data = _key_free(item)
    data["inputs"] = _unpack(data.pop("inputs_packed"))
    data["codes"] = tuple(data.get("codes") or ())
    data["seed_list"] = tuple(data.get("seed_list") or ())
    data["earlier"] = tuple(data.get("earlier") or ())
    return RoundRecord.from_item(data)


def _round_item(record: RoundRecord) -> Item:
    item = record.to_item()
    item["inputs_packed"] = _pack(item.pop("inputs"))
    return {**keys.plain(keys.round_(record.tournament_id, record.number)), **item}


def fixture_from_item(item: Item) -> FixtureRecord:
    data = _key_free(item)
    for name in ("flags", "score", "feeds", "breaks"):
        if name in data:
            data[name] = tuple(data[name])
    data["games"] = tuple(score_entries.parse(e) for e in data.get("games") or ())
    if data.get("legs"):
        data["legs"] = tuple((int(home), int(away)) for home, away in data["legs"])
    data["state"] = State(data["state"])
    if data.get("result") is not None:
        data["result"] = Result.from_json(data["result"])
    return record_of(FixtureRecord, data)


def fixture_item(record: FixtureRecord) -> Item:
    item = item_of(record)
    item["state"] = str(record.state)
    item["games"] = [e.as_json() for e in record.games]
    if record.result is not None:
        item["result"] = record.result.as_json()
    return {**keys.plain(keys.match(record.tournament_id, record.code, record.attempt)), **item}


def shown(tournament: TournamentRecord | None, record: FixtureRecord, published: int | None = None) -> bool:
    """Readers see a match of a published draw (1..`published`, the tournament's draws unless
    given), of the attempt its tournament names: a draw being made, a redraw being staged, and
    the draws a redraw replaced stay unseen."""
    return (
        tournament is not None
        and record.draw <= (tournament.draws if published is None else published)
        and record.attempt == tournament.attempt_of(record.draw)
    )


def current_matches(
    tournament: TournamentRecord | None, codes: Sequence[str], found: Mapping[str, Item]
) -> dict[str, FixtureRecord]:
    """The matches `codes` as readers see them, from the items `found` (by sort key) at their
    first attempt's keys. A match of a redrawn draw is read again at its current attempt's key
    (one more BatchGetItem, only for those): its first-attempt item, if any, names its draw;
    a code the redraw added has none, and is looked for at each attempt the tournament shows."""
    if tournament is None:
        return {}
    by_code: dict[str, FixtureRecord] = {}
    again: list[dict[str, Any]] = []
    redrawn = sorted(set((tournament.attempts or {}).values()))
    for code in dict.fromkeys(codes):
        item = found.get(keys.match(tournament.id, code)["sk"]["S"])
        record = fixture_from_item(item) if item is not None else None
        if record is not None and shown(tournament, record):
            by_code[code] = record
        elif record is not None and tournament.attempt_of(record.draw) > 1:
            again.append(keys.match(tournament.id, code, tournament.attempt_of(record.draw)))
        elif record is None:
            again += [keys.match(tournament.id, code, int(a)) for a in redrawn]
    for item in batch_get(MAIN, again, consistent=True) if again else ():
        record = fixture_from_item(item)
        if shown(tournament, record):
            by_code[record.code] = record
    return {c: by_code[c] for c in dict.fromkeys(codes) if c in by_code}


def _query_prefix(tournament_id: str, prefix: str) -> list[Item]:
    return query_prefix(MAIN, keys.tournament_pk(tournament_id), prefix, ConsistentRead=True)


def day(tournament_id: str, *, with_rounds: bool = True, with_seq: bool = False) -> Day:
    """The tournament, its field and tables (one BatchGetItem) and its published rounds (a Query).

    `with_seq`: the live channel's counter too, in the same BatchGetItem. A delta is counted
    after its change is written, so what is read with (and after) it holds every change up to
    `seq`."""
    wanted = [keys.tournament(tournament_id), keys.field(tournament_id), keys.tables(tournament_id)]
    found = batch_get(MAIN, wanted + ([keys.live_gate(tournament_id)] if with_seq else []), consistent=True)
    by_sk = {i["sk"]: i for i in found}
    meta, field, tables = by_sk.get("META"), by_sk.get("FIELD"), by_sk.get("TABLES")
    tournament = TournamentRecord.from_item(meta) if meta else None
    rounds: tuple[RoundRecord, ...] = ()
    if with_rounds and tournament is not None and tournament.draws:
        published = [round_from_item(i) for i in _query_prefix(tournament_id, keys.ROUND_PREFIX)]
        rounds = tuple(r for r in published if r.number <= tournament.draws)
    return Day(
        tournament=tournament,
        field=field_from_item(field) if field else None,
        tables=tables_from_item(tables) if tables else None,
        rounds=rounds,
        seq=int(by_sk["GATE"].get("seq", 0)) if "GATE" in by_sk else 0,
    )


def field_from_item(item: Item) -> FieldRecord:
    data = _key_free(item)
    for name in ("entrants", "withdrawn", "disqualified"):
        data[name] = tuple(data.get(name) or ())
    return record_of(FieldRecord, data)


def tables_from_item(item: Item) -> TablesRecord:
    data = _key_free(item)
    data["queue"] = tuple(data.get("queue") or ())
    if data.get("appeals") is not None:
        data["appeals"] = tuple(data["appeals"])
    for name in ("streamed", "released", "beside"):
        data[name] = tuple(data.get(name) or ())
    data["needs"] = {p: tuple(n) for p, n in (data.get("needs") or {}).items()}
    if data.get("seated") is not None:
        data["seated"] = dict(data["seated"])
    if data.get("demands") is not None:
        data["demands"] = {
            c: {**d, "players": tuple(d.get("players") or ())} for c, d in data["demands"].items()
        }
    return record_of(TablesRecord, data)


def fixtures(tournament: TournamentRecord | None, published: int | None = None) -> list[FixtureRecord]:
    """Every match of the published draws (1..`published`, the tournament's draws unless given),
    of the attempt each shows (`shown`), in draw and code order."""
    if tournament is None:
        return []
    found = [fixture_from_item(i) for i in _query_prefix(tournament.id, keys.MATCH_PREFIX)]
    return [f for f in found if shown(tournament, f, published)]


def one_round(tournament_id: str, number: int) -> tuple[Day, RoundRecord | None]:
    """The tournament, its field and draw `number` if published (one BatchGetItem): what a
    round's page needs, whatever the number of rounds before it."""
    found = batch_get(
        MAIN,
        [keys.tournament(tournament_id), keys.field(tournament_id), keys.round_(tournament_id, number)],
        consistent=True,
    )
    by_sk = {i["sk"]: i for i in found}
    meta, field = by_sk.get("META"), by_sk.get("FIELD")
    tournament = TournamentRecord.from_item(meta) if meta else None
    item = by_sk.get(keys.round_(tournament_id, number)["sk"]["S"])
    published = item is not None and tournament is not None and number <= tournament.draws
    return (
        Day(tournament=tournament, field=field_from_item(field) if field else None, tables=None),
        round_from_item(item) if item is not None and published else None,
    )


def fixtures_by_code(tournament: TournamentRecord, codes: Sequence[str]) -> list[FixtureRecord]:
    """The matches of `codes` as readers see them (BatchGetItem, 100 keys a call, the calls at
    once; `current_matches`)."""
    wanted = [keys.match(tournament.id, c) for c in codes]
    chunks = [wanted[start : start + 100] for start in range(0, len(wanted), 100)]
    if len(chunks) <= 1:
        items = [batch_get(MAIN, chunk, consistent=True) for chunk in chunks]
    else:
        with ThreadPoolExecutor(max_workers=min(PARALLEL_WRITES, len(chunks))) as pool:
            items = list(pool.map(lambda chunk: batch_get(MAIN, chunk, consistent=True), chunks))
    found = {i["sk"]: i for chunk in items for i in chunk}
    return list(current_matches(tournament, codes, found).values())


def reserve(
    tournament: TournamentRecord,
    number: int,
    seed: int,
    division: str | None,
    field: FieldRecord | None,
    change: AuditRecord,
) -> None:
    """Fix draw `number`'s seed (and division, R3.7) before its matches are written; the first
    draw also closes check-in and fixes the field. Raises DrawInProgress when another draw
    holds the reservation."""
    tx = Transaction()
    closing = ", checkin_open = :closed, #status = :running" if field is not None else ""
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        f"SET drawing = :drawing{closing}",
        condition="(attribute_not_exists(draws) OR draws = :before) AND attribute_not_exists(drawing)"
        " AND #status IN (:open, :running)",
        names={"#status": "status"},
        values={
            "drawing": {"number": number, "seed": seed, **({"division": division} if division else {})},
            "open": "open",
            "running": "running",
            "before": tournament.draws,
            **({"closed": False} if field is not None else {}),
        },
    )
    if field is not None:
        tx.put(
            "field",
            MAIN,
            {**keys.plain(keys.field(tournament.id)), **item_of(field)},
            condition="attribute_not_exists(pk)",
        )
    audit.record(tx, tournament.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise DrawInProgress("Another draw of this tournament is being made.") from cancelled


def write_fixtures(records: Sequence[FixtureRecord]) -> None:
    """Write a draw's matches (not yet visible): 25 to a call, a few calls at once; items left
    unprocessed are sent again."""
    chunks = [records[start : start + BATCH_WRITE] for start in range(0, len(records), BATCH_WRITE)]
    if len(chunks) <= 1:
        for chunk in chunks:
            _write_chunk(chunk)
        return
    with ThreadPoolExecutor(max_workers=min(PARALLEL_WRITES, len(chunks))) as pool:
        list(pool.map(_write_chunk, chunks))


def _write_chunk(chunk: Sequence[FixtureRecord]) -> None:
    name = table_name(MAIN)
    request: dict[str, Any] = {name: [{"PutRequest": {"Item": serialize(fixture_item(r))}} for r in chunk]}
    attempt = 0
    while request:
        response = client().batch_write_item(RequestItems=request)
        request = response.get("UnprocessedItems") or {}
        if request:
            attempt += 1
            time.sleep(min(0.05 * 2**attempt, 1.0))


def publish(
    tournament: TournamentRecord,
    round_record: RoundRecord,
    tables: TablesRecord,
    previous_tables_version: int | None,
    change: AuditRecord,
    events: Sequence[outbox.Event] = (),
    called: Iterable[str] = (),
) -> None:
    """Make the reserved draw visible: the round, the draw count, the table plan and the
    round's events (the matches `called`) at once. 503 `busy` when a player it calls was
    called beside meanwhile (drawn again, the draw holds his match)."""
    tx = Transaction()
    tx.put("round", MAIN, _round_item(round_record), condition="attribute_not_exists(pk)")
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        "SET draws = :number, #status = :running REMOVE drawing",
        condition="drawing.#number = :number",
        names={"#status": "status", "#number": "number"},
        values={"number": round_record.number, "running": "running"},
    )
    put_tables(tx, tables, previous_tables_version, called)
    audit.record(tx, tournament.id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if any(cancelled.failed(f"beside {other}") for other in tables.beside):
            raise Busy("A player of this draw was just called to a table beside: draw again.") from cancelled
        raise DrawInProgress(f"Draw {round_record.number} has already been published.") from cancelled


def put_tables(
    tx: Transaction, tables: TablesRecord, previous_version: int | None, called: Iterable[str] = ()
) -> None:
    """Write the table plan in `tx`, on condition nobody changed it since it was read, and the
    players of the matches `called` are at no table beside (`require_free_beside`)."""
    require_free_beside(tx, tables, called)
    item = {
        **keys.plain(keys.tables(tables.tournament_id)),
        **item_of(tables),
        "seated": seated(tables),
        "queue": list(tables.queue),
        **{name: list(getattr(tables, name)) for name in ("streamed", "released", "beside")},
        "needs": {p: list(n) for p, n in tables.needs.items()},
    }
    if tables.demands is not None:
        item["demands"] = {
            c: {**d, "players": list(d.get("players") or ())} for c, d in tables.demands.items()
        }
    if previous_version is None:
        tx.put("tables", MAIN, item, condition="attribute_not_exists(pk)")
    else:
        tx.put("tables", MAIN, item, condition="version = :seen", values={"seen": previous_version})


def seated(tables: TablesRecord) -> dict[str, str]:
    """Every player at a table of this plan -> his match: what the tournaments beside condition
    their calls on."""
    demands = tables.demands or {}
    return {p: code for code in tables.occupied.values() for p in demands.get(code, {}).get("players") or ()}


def require_free_beside(tx: Transaction, tables: TablesRecord, called: Iterable[str]) -> None:
    """Condition `tx` on the players of the matches `called` being at no table of a tournament
    beside (its plan's `seated`; one check per tournament beside). Each tournament reads the
    others' plans before seating, but two calls of the same player made at the same moment
    would both pass those reads: with the condition, one transaction is refused and its retry
    reads the player busy (a hold). A released hold is called whoever else holds the player."""
    demands = tables.demands or {}
    players = sorted(
        {
            p
            for code in called
            if not demands.get(code, {}).get("released")
            for p in demands.get(code, {}).get("players") or ()
        }
    )
    if not players or not tables.beside:
        return
    names = {"#seated": "seated", **{f"#p{i}": p for i, p in enumerate(players)}}
    condition = " AND ".join(f"attribute_not_exists(#seated.#p{i})" for i in range(len(players)))
    for other in tables.beside:
        tx.check(f"beside {other}", MAIN, keys.tables(other), condition, names=names)


def with_version(tables: TablesRecord, version: int) -> TablesRecord:
    return replace(tables, version=version)


def codes_in_order(records: Iterable[FixtureRecord]) -> list[str]:
    return [r.code for r in sorted(records, key=lambda r: (r.draw, r.round, r.board, r.code))]


def commit_seed(tournament_id: str, commitment: dict[str, str], secret: str, change: AuditRecord) -> bool:
    """Store the seed's commitment (public) and its secret (internal) before the first draw;
    False when the tournament already has one (a retried or simultaneous commit: read it)."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET draw_commitment = :commitment, draw_secret = :secret",
        condition="attribute_exists(pk) AND attribute_not_exists(draw_commitment)"
        " AND (attribute_not_exists(draws) OR draws = :none) AND attribute_not_exists(drawing)",
        values={"commitment": commitment, "secret": secret, "none": 0},
    )
    audit.record(tx, tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            return False
        raise
    return True


@dataclass(frozen=True, eq=False, repr=False)
class Redrawn(Frozen):
    """A redraw's writes: the draw's matches as readers see them (the attempt replaced), the
    new attempt's matches, the round replaced, the table plan."""

    tournament: TournamentRecord
    old: Sequence[FixtureRecord]
    matches: Sequence[FixtureRecord]
    round_record: RoundRecord
    previous_attempt: int
    tables: TablesRecord
    previous_tables_version: int | None
    called: tuple[str, ...] = ()


FENCE_SECONDS = 60  # how long a redraw may hold its round's writes (staging takes a second or so)


def fence(tournament: TournamentRecord, number: int, attempt: int, now: datetime) -> None:
    """Hold the writes of draw `number`'s matches while its redraw to `attempt` is staged: a
    write that lands before this is seen by the redraw's read after it, one after it is
    refused (`matches.on_shown_attempt`) until the switch lifts it. A crash leaves it to expire
    after FENCE_SECONDS; the same redraw retried takes it again. DrawInProgress when another
    draw or redraw holds the tournament or the round."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        "SET #redrawing = :fence",
        condition="draws = :draws AND attribute_not_exists(drawing) AND (attribute_not_exists(#redrawing)"
        " OR #redrawing.#until < :now OR (#redrawing.#number = :number AND #redrawing.#attempt = :attempt))",
        names={"#redrawing": "redrawing", "#until": "until", "#number": "number", "#attempt": "attempt"},
        values={
            "fence": {"number": number, "attempt": attempt, "until": int(now.timestamp()) + FENCE_SECONDS},
            "draws": tournament.draws,
            "now": int(now.timestamp()),
            "number": number,
            "attempt": attempt,
        },
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        raise DrawInProgress(
            "Another draw of this tournament is being made: try again in a minute."
        ) from cancelled


def unfence(tournament_id: str, number: int, attempt: int) -> None:
    """Lift this redraw's fence (a redraw refused after taking it): the round's writes go on."""
    try:
        client().update_item(
            TableName=table_name(MAIN),
            Key=keys.tournament(tournament_id),
            UpdateExpression="REMOVE #redrawing",
            ConditionExpression="#redrawing.#number = :number AND #redrawing.#attempt = :attempt",
            ExpressionAttributeNames={"#redrawing": "redrawing", "#number": "number", "#attempt": "attempt"},
            ExpressionAttributeValues={":number": {"N": str(number)}, ":attempt": {"N": str(attempt)}},
        )
    except ClientError as error:
        if error_code(error) != "ConditionalCheckFailedException":
            raise


def draw_items(tournament_id: str) -> list[FixtureRecord]:
    """Every match item of the tournament, whatever its draw or attempt (what a redraw cleans)."""
    return [fixture_from_item(i) for i in _query_prefix(tournament_id, keys.MATCH_PREFIX)]


def stage(change: Redrawn, leftovers: Sequence[FixtureRecord] = ()) -> None:
    """Write the new attempt's matches under their own keys (`keys.match` with the attempt),
    in as many calls as they take: nobody sees them until `switch` names their attempt. The
    `leftovers` of an earlier try of the same attempt that this one does not hold are deleted
    first, or the switch would show them too; a retried redraw writes the same items again."""
    name = table_name(MAIN)
    gone = [{"DeleteRequest": {"Key": keys.match(r.tournament_id, r.code, r.attempt)}} for r in leftovers]
    for start in range(0, len(gone), BATCH_WRITE):
        request: dict[str, Any] = {name: gone[start : start + BATCH_WRITE]}
        while request:
            request = client().batch_write_item(RequestItems=request).get("UnprocessedItems") or {}
    write_fixtures([replace(r, version=1) for r in change.matches])


def switch(change: Redrawn, audited: AuditRecord, events: Sequence[outbox.Event], now: datetime) -> None:
    """Show the staged attempt in one transaction: the tournament's `attempts` names it (on the
    attempt replaced, the draw count, no draw being made), the round on its attempt, the plan
    on its version (a call meanwhile changes it), the fence (`fence`) still this redraw's and
    lifted, and the replaced matches on the version read when they fit in the transaction. A
    write read before the switch is refused after it (`matches.on_shown_attempt`)."""
    tx = Transaction()
    tournament = change.tournament
    number, attempt = change.round_record.number, change.round_record.attempt
    names = {
        "#attempts": "attempts",
        "#number": str(number),
        "#redrawing": "redrawing",
        "#fence_number": "number",
        "#fence_attempt": "attempt",
        "#until": "until",
    }
    values: dict[str, object] = {
        "draws": tournament.draws,
        "fenced": number,
        "staged": attempt,
        "now": int(now.timestamp()),
    }
    was = "attribute_not_exists(#attempts.#number)"
    if change.previous_attempt > 1:
        was, values["was"] = "#attempts.#number = :was", change.previous_attempt
    if tournament.attempts is None:  # the map is made whole: nobody else made it meanwhile
        update, values["attempts"] = "SET #attempts = :attempts REMOVE #redrawing", {str(number): attempt}
        was = "attribute_not_exists(#attempts)"
        names.pop("#number")
    else:
        update, values["attempt"] = "SET #attempts.#number = :attempt REMOVE #redrawing", attempt
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        update,
        condition=f"draws = :draws AND attribute_not_exists(drawing) AND {was} AND #redrawing.#fence_number"
        " = :fenced AND #redrawing.#fence_attempt = :staged AND #redrawing.#until > :now",
        names=names,
        values=values,
    )
    previous = (
        "attribute_not_exists(attempt) OR attempt = :attempt"
        if change.previous_attempt == 1
        else "attempt = :attempt"
    )
    tx.put(
        "round",
        MAIN,
        _round_item(change.round_record),
        condition=f"attribute_exists(pk) AND ({previous})",
        values={"attempt": change.previous_attempt},
    )
    put_tables(tx, change.tables, change.previous_tables_version, change.called)
    audit.record(tx, tournament.id, audited)
    outbox.add(tx, events)
    # the fence already holds their writes; checked besides when they fit (a small round)
    checked = change.old if len(change.old) <= MAX_ITEMS - len(tx) else ()
    for record in checked:
        tx.check(
            f"match {record.code}",
            MAIN,
            keys.match(tournament.id, record.code, record.attempt),
            "version = :seen",
            values={"seen": record.version},
        )
    try:
        tx.run()
    except Cancelled as cancelled:
        raise DrawInProgress(
            "The round changed while it was being redrawn (a result, a call, another redraw): "
            "reload it and decide again."
        ) from cancelled
