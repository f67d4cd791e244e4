"""Tournaments: the META item holds settings, state, counters and per-tournament staff."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from tavla.errors import Conflict, InvalidCursor, TournamentNotFound
from tavla.store import audit, keys, outbox
from tavla.store.dynamo import batch_get, client, deserialize, table_name
from tavla.store.records import AuditRecord, RegistrationRecord, StaffMember, TournamentRecord
from tavla.store.registrations import to_item as registration_item
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


def _item(tournament: TournamentRecord) -> dict[str, Any]:
    return {
        **keys.plain(keys.tournament(tournament.id)),
        **tournament.to_item(),
        "gsi1pk": keys.CALENDAR,
        "gsi1sk": keys.by_start(tournament.starts_at, tournament.id),
    }


def create(tournament: TournamentRecord, change: AuditRecord) -> None:
    tx = Transaction()
    tx.put("tournament", MAIN, _item(tournament), condition="attribute_not_exists(pk)")
    audit.record(tx, tournament.id, change)
    tx.run()


def create_entered(
    tournament: TournamentRecord,
    change: AuditRecord,
    entries: Sequence[RegistrationRecord],
    also: Callable[[Transaction], None],
) -> None:
    """A tournament created with its players already on the main list (a season's Super Final)
    and whatever else `also` adds, in one transaction (Cancelled as DynamoDB says)."""
    tx = Transaction()
    tx.put("tournament", MAIN, _item(tournament), condition="attribute_not_exists(pk)")
    audit.record(tx, tournament.id, change)
    for n, entry in enumerate(entries):
        tx.put(f"entry {n}", MAIN, registration_item(entry), condition="attribute_not_exists(pk)")
        code = {
            **keys.plain(keys.checkin_code(entry.checkin_code)),
            "tournament_id": entry.tournament_id,
            "tavla_id": entry.tavla_id,
        }
        tx.put(f"code {n}", MAIN, code, condition="attribute_not_exists(pk)")
    also(tx)
    tx.run()


def get(tournament_id: str) -> TournamentRecord:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.tournament(tournament_id))
    if "Item" not in response:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return TournamentRecord.from_item(deserialize(response["Item"]))


_SORT_KEY = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00#[0-9a-f]{16}$")
_STALE = "This page cursor is out of date or not from this query: start again from the first page."


def _cursor(query: str, sort_key: str) -> str:
    """An opaque page cursor: the query it belongs to and the last sort key seen."""
    payload = json.dumps({"q": query, "k": sort_key}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def _start_key(cursor: str, query: str, starting_from: str | None) -> dict[str, Any]:
    """The ExclusiveStartKey a cursor stands for; InvalidCursor unless this query handed it out
    and it still lies inside the query's range (DynamoDB refuses one outside it)."""
    try:
        payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        sort_key = payload["k"] if payload["q"] == query else None
    except (ValueError, TypeError, KeyError) as error:
        raise InvalidCursor(_STALE) from error
    if not isinstance(sort_key, str) or not _SORT_KEY.match(sort_key):
        raise InvalidCursor(_STALE)
    if starting_from is not None and sort_key < starting_from:
        raise InvalidCursor(_STALE)
    return {
        "gsi1pk": {"S": keys.CALENDAR},
        "gsi1sk": {"S": sort_key},
        **keys.tournament(sort_key.rsplit("#", 1)[-1]),
    }


def calendar(
    limit: int, after: str | None, starting_from: datetime | None
) -> tuple[list[TournamentRecord], str | None]:
    """Tournaments by start time (the public calendar), a page at a time.

    `after` is the opaque cursor the previous page returned; InvalidCursor when it is stale,
    from the other query (upcoming or not), or forged.
    """
    which = "all" if starting_from is None else "upcoming"
    start = None if starting_from is None else starting_from.astimezone(UTC).isoformat()
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "IndexName": MAIN.index("gsi1").name,
        "KeyConditionExpression": "gsi1pk = :cal",
        "ExpressionAttributeValues": {":cal": {"S": keys.CALENDAR}},
        "Limit": limit,
    }
    if start is not None:
        query["KeyConditionExpression"] += " AND gsi1sk >= :start"
        query["ExpressionAttributeValues"][":start"] = {"S": start}
    if after:
        query["ExclusiveStartKey"] = _start_key(after, which, start)
    response = client().query(**query)
    found = [TournamentRecord.from_item(deserialize(i)) for i in response.get("Items", [])]
    last = response.get("LastEvaluatedKey")
    return found, (_cursor(which, last["gsi1sk"]["S"]) if last else None)


def of_season(season_id: str, start: datetime, end: datetime) -> list[TournamentRecord]:
    """The tournaments declaring `season_id` that start in [start, end), by start time: the
    calendar index read over the season's span only (a season's tournaments start within it)."""
    found: list[TournamentRecord] = []
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "IndexName": MAIN.index("gsi1").name,
        "KeyConditionExpression": "gsi1pk = :cal AND gsi1sk BETWEEN :start AND :end",
        "FilterExpression": "season_id = :season",
        "ExpressionAttributeValues": {
            ":cal": {"S": keys.CALENDAR},
            ":start": {"S": start.astimezone(UTC).isoformat()},
            ":end": {"S": end.astimezone(UTC).isoformat()},
            ":season": {"S": season_id},
        },
    }
    while True:
        response = client().query(**query)
        found.extend(TournamentRecord.from_item(deserialize(i)) for i in response.get("Items", []))
        if "LastEvaluatedKey" not in response:
            return found
        query["ExclusiveStartKey"] = response["LastEvaluatedKey"]


def several(tournament_ids: Sequence[str]) -> list[TournamentRecord]:
    """The tournaments of these ids that exist, in no particular order (batched reads)."""
    wanted = [keys.tournament(t) for t in dict.fromkeys(tournament_ids)]
    return [TournamentRecord.from_item(i) for i in batch_get(MAIN, wanted)] if wanted else []


def update_settings(
    current: TournamentRecord,
    settings: Mapping[str, Any],
    change: AuditRecord,
    events: Sequence[outbox.Event] = (),
) -> None:
    """Write new settings if nobody changed the tournament since `current` was read (so not
    after a draw or a cancellation either), and never below the registered count."""
    diff = {k: v for k, v in settings.items() if current.settings.get(k) != v}
    if not diff:
        return
    if "starts_at" in diff:
        diff["gsi1sk"] = keys.by_start(str(settings["starts_at"]), current.id)
    names = {f"#f{i}": k for i, k in enumerate(diff)}
    assignments = ", ".join(f"#f{i} = :v{i}" for i in range(len(diff)))
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(current.id),
        f"SET {assignments}, version = :next",
        condition="version = :version AND registered <= :capacity AND #status = :open"
        " AND attribute_not_exists(drawing)",
        names={**names, "#status": "status"},
        values={
            "open": "open",
            **{f"v{i}": v for i, v in enumerate(diff.values())},
            "version": current.version,
            "next": current.version + 1,
            "capacity": int(settings["capacity"]),
        },
    )
    audit.record(tx, current.id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise Conflict(
                "The tournament changed meanwhile, or the new capacity is below the registered count."
            ) from cancelled
        raise


CANCELLED = "cancelled"


def cancel(
    tournament_id: str,
    at: str,
    reason: str | None,
    change: AuditRecord,
    events: Sequence[outbox.Event],
    unrated: bool = False,
) -> bool:
    """Mark the tournament cancelled (registration and check-in close with it), before or
    during the day, never while a draw is being made nor once finished: the draw's
    reservation and the finish are conditions on the same item, so one of the two wins.
    False when the tournament was not open or running (the caller reads what it is)."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET #status = :cancelled, checkin_open = :no, cancelled_at = :at, version = version + :one"
        + (", cancel_reason = :reason" if reason else "")
        + (", unrated_at = :at" if unrated else ""),
        condition="#status IN (:open, :running) AND attribute_not_exists(drawing)",
        names={"#status": "status"},
        values={
            "cancelled": CANCELLED,
            "no": False,
            "at": at,
            "one": 1,
            "open": "open",
            "running": "running",
            **({"reason": reason} if reason else {}),
        },
    )
    audit.record(tx, tournament_id, change)
    outbox.add(tx, events)
    return _ran(tx)


def _ran(tx: Transaction) -> bool:
    """Run a change of the tournament item; False when its condition was false."""
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            return False
        raise
    return True


def unrate(tournament_id: str, at: str, change: AuditRecord, events: Sequence[outbox.Event]) -> bool:
    """Mark a cancelled tournament's results unrated (once: False when it already was, or is
    not cancelled)."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET unrated_at = :at, version = version + :one",
        condition="#status = :cancelled AND attribute_not_exists(unrated_at)",
        names={"#status": "status"},
        values={"at": at, "one": 1, "cancelled": CANCELLED},
    )
    audit.record(tx, tournament_id, change)
    outbox.add(tx, events)
    return _ran(tx)


def set_checkin_open(tournament_id: str, is_open: bool, change: AuditRecord) -> None:
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET checkin_open = :open",
        condition="attribute_exists(pk)",
        values={"open": is_open},
    )
    audit.record(tx, tournament_id, change)
    tx.run()


def update_staff(current: TournamentRecord, staff: Mapping[str, StaffMember], change: AuditRecord) -> None:
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(current.id),
        "SET staff = :staff, version = :next",
        condition="version = :version",
        values={
            "staff": {sub: {k: v for k, v in vars(m).items() if v is not None} for sub, m in staff.items()},
            "version": current.version,
            "next": current.version + 1,
        },
    )
    audit.record(tx, current.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise Conflict("The tournament changed meanwhile; read it again and retry.") from cancelled
        raise


def set_placement(
    current: TournamentRecord, tavla_id: str, division: str | None, change: AuditRecord
) -> None:
    """Place a player (R3.7): `division` is the lowest they may enter; None lifts the placement."""
    tx = Transaction()
    if division is None:
        expression, named = "REMOVE placements.#player SET version = :next", {}
    else:
        expression, named = "SET placements.#player = :division, version = :next", {"division": division}
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(current.id),
        expression,
        condition="version = :version",
        names={"#player": tavla_id},
        values={**named, "version": current.version, "next": current.version + 1},
    )
    audit.record(tx, current.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("tournament"):
            raise Conflict("The tournament changed meanwhile; read it again and retry.") from cancelled
        raise
