"""Ratings (R10.3): the ledger of official results, each player's history, the rating lists.

- the ledger: LEDGER#<yyyy-mm> / <ledger key>, one item per official result, in the order
  results became official (a month per partition: a season writes ~10,000 a month);
- a rated match: RATED#<match id>, what was applied (its key and fingerprint), written last
  with a condition, so a redelivered event is refused by DynamoDB even if two ran at once;
- a player's history: PLAYER#<id> / RATING#<ledger key> (match, before, after, K ...);
- the profile carries rating, rated_matches and the rating lists' keys (GSIs `ratings`,
  `ratings_club`, `ratings_city`, highest rating first).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tavla.errors import InvalidCursor
from tavla.frozen import Frozen
from tavla.rules.rating import RatingState
from tavla.rules.rating_ledger import LedgerEntry, RatingStep
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.store import keys
from tavla.store.dynamo import Item, batch_write, client, deserialize, query_all, query_prefix, table_name
from tavla.store.records import FixtureRecord, ProfileRecord, RatedMatchRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import MAX_ITEMS, Cancelled, Transaction

NATIONAL = keys.NATIONAL
LIST_INDEX = {
    "national": "ratings",
    "club": "ratings_club",
    "club_id": "ratings_club_id",
    "city": "ratings_city",
}
# the attribute each list is partitioned by (a free-text club, or the club record's id)
LIST_PARTITION = {"national": "rating_list", "club": "club", "club_id": "club_id", "city": "city"}
_STALE = "This page cursor is out of date or not from this list: start again from the first page."


class AlreadyApplied(Exception):
    """Another invocation applied the same result first (the marker's condition was false)."""


def _months(first: str, last: str) -> list[str]:
    """Every yyyy-mm from `first` to `last` inclusive."""
    y, m = int(first[:4]), int(first[5:7])
    out = []
    while f"{y:04d}-{m:02d}" <= last:
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def _entry(item: Item) -> LedgerEntry:
    return LedgerEntry.model_validate({k: v for k, v in item.items() if k not in ("pk", "sk")})


def ledger_from(key: str, now: datetime) -> list[LedgerEntry]:
    """The ledger from `key` (inclusive) to now, in key order (one Query per month)."""
    out: list[LedgerEntry] = []
    last_month = max(now.isoformat()[:7], key[:7])
    for month in _months(key[:7], last_month):
        items = query_all(
            TableName=table_name(MAIN),
            KeyConditionExpression="pk = :pk AND sk >= :from",
            ExpressionAttributeValues={":pk": {"S": f"LEDGER#{month}"}, ":from": {"S": key}},
            ConsistentRead=True,
        )
        out.extend(_entry(i) for i in items)
    return out


def ledger_months(first: str, last: str) -> list[LedgerEntry]:
    """The whole ledger of the months `first`..`last` (yyyy-mm), in key order (the rebuild)."""
    return ledger_from(f"{first}-01", datetime.fromisoformat(f"{last}-01T00:00:00+00:00"))


def marker(match_id: str) -> RatedMatchRecord | None:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.rated_match(match_id), ConsistentRead=True
    )
    return RatedMatchRecord.from_item(deserialize(response["Item"])) if "Item" in response else None


def _lines_upto(tavla_id: str, upper: str, limit: int) -> list[Item]:
    """A player's history lines up to ledger key `upper` (inclusive), newest first."""
    response = client().query(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
        ExpressionAttributeValues={
            ":pk": {"S": keys.player_pk(tavla_id)},
            ":lo": {"S": keys.RATING_PREFIX},
            ":hi": {"S": f"{keys.RATING_PREFIX}{upper}"},
        },
        ScanIndexForward=False,
        Limit=limit,
        ConsistentRead=True,
    )
    return [deserialize(i) for i in response.get("Items", [])]


def _step(item: Item) -> RatingStep:
    return RatingStep.model_validate({k: v for k, v in item.items() if k not in ("pk", "sk")})


def state_before(tavla_id: str, key: str) -> RatingState:
    """A player's rating state just before ledger key `key` (their last history line before it)."""
    for step in _lines_upto(tavla_id, key, 2):
        if step["key"] < key:
            return RatingState(rating=float(step["after"]), rated_matches=int(step["rated_matches"]))
    return RatingState()


def history(tavla_id: str, limit: int | None = None) -> list[RatingStep]:
    """A player's history, newest first (all of it without `limit`)."""
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :r)",
        "ExpressionAttributeValues": {
            ":pk": {"S": keys.player_pk(tavla_id)},
            ":r": {"S": keys.RATING_PREFIX},
        },
        "ScanIndexForward": False,
    }
    if limit is not None:
        query["Limit"] = limit
        response = client().query(**query)
        items = [deserialize(i) for i in response.get("Items", [])]
    else:
        items = query_all(**query)
    return [_step(i) for i in items]


def history_page(tavla_id: str, limit: int, before: str | None) -> tuple[list[RatingStep], str | None]:
    """A page of a player's history, newest first, from just before ledger key `before`, and
    the key to continue from (None: that was the oldest)."""
    # `before` itself (the range is inclusive) and one more: is there a next page
    items = _lines_upto(tavla_id, before or "\uffff", limit + 2)
    steps = [_step(i) for i in items if before is None or i["key"] != before]
    more = len(steps) > limit
    steps = steps[:limit]
    return steps, (steps[-1].key if more and steps else None)


def _step_item(step: RatingStep) -> Item:
    return {**keys.plain(keys.rating_step(step.player, step.key)), **step.model_dump()}


def _ledger_item(entry: LedgerEntry) -> Item:
    return {**keys.plain(keys.ledger(entry.key)), **entry.model_dump()}


_BUMP = "rating_seq = if_not_exists(rating_seq, :z) + :one"


def _profile_update(tx: Transaction, tavla_id: str, state: RatingState, *, seen: int | None = None) -> None:
    """The profile's rating fields, its `rating_seq` bumped; with `seen`, only if the sequence
    is still the one read (the full rebuild)."""
    condition = "attribute_exists(pk) AND attribute_not_exists(merged_into)"
    extra: dict[str, Any] = {}
    if seen is not None:
        condition += " AND " + _seq_is(seen)
        extra = {"s": seen}
    tx.update(
        f"profile {tavla_id}",
        MAIN,
        keys.profile(tavla_id),
        f"SET rating = :r, rated_matches = :m, rating_key = :k, rating_list = :l, {_BUMP}",
        condition=condition,
        values={
            "r": state.rating,
            "m": state.rated_matches,
            "k": keys.rating_sort(state.rating, tavla_id),
            "l": keys.NATIONAL,
            "z": 0,
            "one": 1,
            **extra,
        },
    )


def _seq_is(seen: int) -> str:
    """The profile's `rating_seq` is still `seen` (as `:s`). A profile is created with 0 and
    one written before the sequence was kept has none: both read as 0."""
    return "rating_seq = :s" if seen else "(attribute_not_exists(rating_seq) OR rating_seq = :s)"


def _claim(tavla_ids: Sequence[str]) -> int:
    """Bump the players' `rating_seq` before a write too large for one transaction, so a full
    rebuild that read them before cannot write over the lines that follow. Returns calls."""
    calls = 0
    for start in range(0, len(tavla_ids), MAX_ITEMS):
        tx = Transaction()
        for tavla_id in tavla_ids[start : start + MAX_ITEMS]:
            tx.update(
                f"profile {tavla_id}",
                MAIN,
                keys.profile(tavla_id),
                f"SET {_BUMP}",
                condition="attribute_exists(pk)",
                values={"z": 0, "one": 1},
            )
        tx.run()
        calls += 1
    return calls


def _marker_put(tx: Transaction, applied: RatedMatchRecord, applied_before: RatedMatchRecord | None) -> None:
    condition = "attribute_not_exists(pk)" if applied_before is None else "fingerprint = :before"
    tx.put(
        "marker",
        MAIN,
        {**keys.plain(keys.rated_match(applied.match_id)), **applied.to_item()},
        condition=condition,
        values=None if applied_before is None else {"before": applied_before.fingerprint},
    )


def write(
    *,
    steps: Sequence[RatingStep],
    stale_steps: Iterable[tuple[str, str]],
    ledger_puts: Sequence[LedgerEntry],
    ledger_deletes: Iterable[str],
    states: Mapping[str, RatingState],
    applied: RatedMatchRecord | None = None,
    applied_before: RatedMatchRecord | None = None,
) -> int:
    """Write a replay: history lines, stale lines removed, ledger changes, the profiles and the
    match's marker. Returns the DynamoDB calls made.

    A result in order (two lines, an entry, two profiles, the marker) is one transaction: all
    or nothing. A larger replay (a late result, a merge) first bumps its players'
    `rating_seq` (a full rebuild that read them before then leaves them alone), writes the
    lines and ledger as plain overwrites of deterministic keys (a run cut short is finished
    by the retry: the marker is not written yet), and last the profiles, the marker and the
    applied entry in one transaction, so the ledger never holds an entry its marker does not
    name. The marker is conditioned on the version seen (`applied_before`): AlreadyApplied
    when another invocation got there first.
    """
    put_keys = {(s.player, s.key) for s in steps}
    line_deletes = [keys.rating_step(p, k) for p, k in sorted(set(stale_steps)) if (p, k) not in put_keys]
    ledger_gone = [keys.ledger(k) for k in sorted(set(ledger_deletes) - {e.key for e in ledger_puts})]
    profiles = sorted(states.items())
    tx = Transaction()
    calls = 0
    size = len(steps) + len(line_deletes) + len(ledger_puts) + len(ledger_gone) + len(profiles)
    if size + (applied is not None) <= MAX_ITEMS:
        for n, s in enumerate(steps):
            tx.put(f"line {n}", MAIN, _step_item(s))
        for n, k in enumerate(line_deletes):
            tx.delete(f"line gone {n}", MAIN, k)
        for n, e in enumerate(ledger_puts):
            tx.put(f"entry {n}", MAIN, _ledger_item(e))
        for n, k in enumerate(ledger_gone):
            tx.delete(f"entry gone {n}", MAIN, k)
        for tavla_id, state in profiles:
            _profile_update(tx, tavla_id, state)
    else:
        calls += _claim([p for p, _ in profiles])
        last = [e for e in ledger_puts if applied is not None and e.key == applied.ledger_key]
        calls += batch_write(
            MAIN,
            [_step_item(s) for s in steps] + [_ledger_item(e) for e in ledger_puts if e not in last],
            line_deletes + ledger_gone,
        )
        for e in last:
            tx.put("entry", MAIN, _ledger_item(e))
        room = MAX_ITEMS - len(tx) - 1
        for tavla_id, state in profiles[room:]:  # a merge or a long cascade: the rest one by one
            single = Transaction()
            _profile_update(single, tavla_id, state)
            single.run()
            calls += 1
        for tavla_id, state in profiles[:room]:
            _profile_update(tx, tavla_id, state)
    if applied is not None:
        _marker_put(tx, applied, applied_before)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("marker"):
            raise AlreadyApplied(applied.match_id if applied else "") from cancelled
        raise
    return calls + (1 if len(tx) else 0)


def leave_lists(tavla_id: str) -> None:
    """A merged-away account leaves the rating lists (its history moved to the one kept)."""
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.profile(tavla_id),
        UpdateExpression="REMOVE rating_list, rating_key",
        ConditionExpression="attribute_exists(pk)",
    )


def put_profiles_state(states: Mapping[str, RatingState]) -> int:
    """Profiles' rating fields only (the rebuild's repair), one transaction per 100 players."""
    calls = 0
    items = sorted(states.items())
    for start in range(0, len(items), 100):
        tx = Transaction()
        for tavla_id, state in items[start : start + 100]:
            _profile_update(tx, tavla_id, state)
        tx.run()
        calls += 1
    return calls


def replace_history(tavla_id: str, steps: Sequence[RatingStep]) -> int:
    """A player's whole history set to `steps` (the rebuild's repair)."""
    stored = history(tavla_id)
    wanted = {s.key for s in steps}
    deletes = [keys.rating_step(tavla_id, s.key) for s in stored if s.key not in wanted]
    return 1 + batch_write(MAIN, [_step_item(s) for s in steps], deletes)


# -- the rating lists ------------------------------------------------------------------------


def _cursor(list_name: str, value: str, last: Mapping[str, Any]) -> str:
    payload = json.dumps({"l": list_name, "v": value, "k": last["rating_key"]["S"]}, separators=(",", ":"))
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def _start(cursor: str, list_name: str, value: str) -> dict[str, Any]:
    try:
        payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        ok = payload["l"] == list_name and payload["v"] == value
        sort_key = payload["k"]
    except (ValueError, TypeError, KeyError) as error:
        raise InvalidCursor(_STALE) from error
    if not ok or not isinstance(sort_key, str) or "#" not in sort_key or not sort_key[:14].isdigit():
        raise InvalidCursor(_STALE)
    tavla_id = sort_key.split("#", 1)[1]
    partition = LIST_PARTITION[list_name]
    return {partition: {"S": value}, "rating_key": {"S": sort_key}, **keys.profile(tavla_id)}


def rating_list(
    list_name: str, value: str, limit: int, after: str | None
) -> tuple[list[ProfileRecord], str | None]:
    """A page of a rating list, highest rating first: national, or one club's (by its record's
    id, or as typed before clubs were records), or one city's."""
    partition = LIST_PARTITION[list_name]
    query: dict[str, Any] = {
        "TableName": table_name(MAIN),
        "IndexName": LIST_INDEX[list_name],
        "KeyConditionExpression": "#p = :v",
        "ExpressionAttributeNames": {"#p": partition},
        "ExpressionAttributeValues": {":v": {"S": value}},
        "ScanIndexForward": False,
        "Limit": limit,
    }
    if after:
        query["ExclusiveStartKey"] = _start(after, list_name, value)
    response = client().query(**query)
    found = [ProfileRecord.from_item(deserialize(i)) for i in response.get("Items", [])]
    # the club and city lists hold only rated profiles (rating_key is set by the first match)
    last = response.get("LastEvaluatedKey")
    return found, (_cursor(list_name, value, last) if last else None)


def every_profile_in_list() -> list[ProfileRecord]:
    """The whole national list (the rebuild compares it)."""
    items = query_all(
        TableName=table_name(MAIN),
        IndexName=LIST_INDEX["national"],
        KeyConditionExpression="rating_list = :v",
        ExpressionAttributeValues={":v": {"S": keys.NATIONAL}},
    )
    return [ProfileRecord.from_item(i) for i in items]


def put_markers(markers: Sequence[RatedMatchRecord]) -> int:
    """Rated matches' markers as the rebuild found them (repair), 25 per BatchWriteItem."""
    items = [{**keys.plain(keys.rated_match(m.match_id)), **m.to_item()} for m in markers]
    return batch_write(MAIN, items, [])


def drop_markers(match_ids: Sequence[str]) -> int:
    """Rated matches' markers deleted (their results left the ledger), 25 per BatchWriteItem."""
    return batch_write(MAIN, [], [keys.rated_match(m) for m in match_ids])


def unrated(tournament_id: str) -> bool:
    """Did an admin take the tournament's results out of the ratings? (One attribute read.)"""
    return "unrated_at" in _tournament_attribute(tournament_id, "unrated_at")


def _tournament_attribute(tournament_id: str, name: str) -> Item:
    """One attribute of the tournament's item ({} when it has none), read alone."""
    item = (
        client()
        .get_item(
            TableName=table_name(MAIN),
            Key=keys.tournament(tournament_id),
            ConsistentRead=True,
            ProjectionExpression=name,
        )
        .get("Item")
    )
    return deserialize(item) if item else {}


# -- the rebuild's read of the record ----------------------------------------------------------

_RESULT_FIELDS = (
    "code",
    "event",
    "home",
    "away",
    "length",
    "result",
    "official_at",
    "state",
    "version",
    "draw",
    "attempt",
)


def _shown_attempts(tournament_id: str) -> dict[str, int]:
    """Draw number -> the attempt its readers see, for the redrawn draws (decision 0047): a
    replaced attempt's matches stay in the table, and one staged by a redraw that never
    finished too; their versions are not the match's."""
    found = _tournament_attribute(tournament_id, "attempts").get("attempts") or {}
    return {str(k): int(v) for k, v in found.items()}


def official_matches(tournament_id: str) -> list[FixtureRecord]:
    """A tournament's matches with only what ratings and season points read (the rebuild):
    a projection, so a season's 100,000 matches are parsed in a fraction of the time."""
    names = {f"#f{i}": f for i, f in enumerate(_RESULT_FIELDS)}
    attempts = _shown_attempts(tournament_id)
    items = query_prefix(
        MAIN,
        keys.tournament_pk(tournament_id),
        keys.MATCH_PREFIX,
        ProjectionExpression=", ".join(names),
        ExpressionAttributeNames=names,
    )
    return [
        FixtureRecord(
            tournament_id=tournament_id,
            code=str(i["code"]),
            draw=0,
            event=str(i.get("event", "")),
            round=0,
            label="",
            board=0,
            stage="",
            length=int(i.get("length") or 1),
            home_source={},
            away_source={},
            state=State(i["state"]),
            home=i.get("home"),
            away=i.get("away"),
            result=Result.from_json(i["result"]) if i.get("result") else None,
            official_at=i.get("official_at"),
            version=int(i.get("version") or 0),
        )
        for i in items
        if int(i.get("attempt") or 1) == attempts.get(str(i.get("draw")), 1)
    ]


# -- the partitioned full rebuild (services.full_rebuild) ----------------------------


def markers(match_ids: Sequence[str]) -> dict[str, RatedMatchRecord]:
    """The rated-match markers of `match_ids` that exist (BatchGetItem, 100 keys a call)."""
    from tavla.store.dynamo import batch_get

    found = batch_get(MAIN, [keys.rated_match(m) for m in match_ids], consistent=True)
    return {str(i["match_id"]): RatedMatchRecord.from_item(i) for i in found}


def ledger_entries(ledger_keys: Sequence[str]) -> dict[str, LedgerEntry]:
    """The stored ledger entries of `ledger_keys` that exist (BatchGetItem, 100 keys a call)."""
    from tavla.store.dynamo import batch_get

    found = batch_get(MAIN, [keys.ledger(k) for k in ledger_keys], consistent=True)
    return {e.key: e for e in (_entry(i) for i in found)}


def repair_ledger(
    puts: Sequence[LedgerEntry],
    marks: Sequence[RatedMatchRecord],
    deletes: Iterable[str],
    stale_markers: Iterable[str] = (),
) -> int:
    """Ledger entries and their markers as the record says: `puts` and `marks` written,
    `deletes` (ledger keys) and `stale_markers` (match ids) removed. Returns the calls made."""
    items = [_ledger_item(e) for e in puts] + [
        {**keys.plain(keys.rated_match(m.match_id)), **m.to_item()} for m in marks
    ]
    gone = [keys.ledger(k) for k in set(deletes) - {e.key for e in puts}]
    gone += [keys.rated_match(m) for m in set(stale_markers) - {m.match_id for m in marks}]
    return batch_write(MAIN, items, gone)


def write_histories(puts: Sequence[RatingStep], deletes: Iterable[tuple[str, str]]) -> int:
    """History lines written and removed ((player, ledger key)), 25 a call. Returns the calls."""
    return batch_write(MAIN, [_step_item(s) for s in puts], [keys.rating_step(p, k) for p, k in deletes])


# -- the full rebuild's writes, conditional on what it read (the `ratings` function may run) --


def profiles_read(tavla_ids: Sequence[str]) -> dict[str, ProfileRecord]:
    """The players' profiles, strongly consistent: their `rating_seq` is what the full
    rebuild's writes are conditioned on, so it is read before the ledger."""
    from tavla.store.dynamo import batch_get

    found = batch_get(MAIN, [keys.profile(p) for p in tavla_ids], consistent=True)
    return {str(i["tavla_id"]): ProfileRecord.from_item(i) for i in found}


def rebuild_player(
    tavla_id: str,
    puts: Sequence[RatingStep],
    deletes: Sequence[str],
    state: RatingState | None,
    seen: int,
) -> int | None:
    """A player's history lines written and removed (ledger keys) and, with `state`, their
    rating, each transaction conditioned on the `rating_seq` read: None when the `ratings`
    function wrote the player since (what was written so far is redone by the caller's retry).
    Returns the calls made."""
    ops: list[tuple[str, Any]] = [("put", s) for s in puts] + [("delete", k) for k in deletes]
    room = MAX_ITEMS - 1
    batches = [ops[i : i + room] for i in range(0, len(ops), room)] or [[]]
    calls = 0
    for n, batch in enumerate(batches):
        tx = Transaction()
        if n == len(batches) - 1 and state is not None:
            _profile_update(tx, tavla_id, state, seen=seen)
        elif batch:
            tx.check(
                f"profile {tavla_id}",
                MAIN,
                keys.profile(tavla_id),
                _seq_is(seen),
                values={"s": seen},
            )
        for i, (kind, what) in enumerate(batch):
            if kind == "put":
                tx.put(f"line {i}", MAIN, _step_item(what))
            else:
                tx.delete(f"line {i}", MAIN, keys.rating_step(tavla_id, what))
        try:
            tx.run()
        except Cancelled as cancelled:
            if cancelled.failed(f"profile {tavla_id}"):
                return None
            raise
        calls += 1 if len(tx) else 0
    return calls


@dataclass(frozen=True, eq=False, repr=False)
class ResultFix(Frozen):
    """One result's ledger entry and marker as the record says (entry and marker None: no
    longer a rated result), to be written only if the marker is still `seen`."""

    match_id: str
    entry: LedgerEntry | None
    marker: RatedMatchRecord | None
    seen: RatedMatchRecord | None


def _add_fix(tx: Transaction, n: int, fix: ResultFix) -> None:
    if fix.seen is None:
        condition, values = "attribute_not_exists(pk)", None
    else:
        condition = "fingerprint = :f AND ledger_key = :k"
        values = {"f": fix.seen.fingerprint, "k": fix.seen.ledger_key}
    key = keys.rated_match(fix.match_id)
    if fix.marker is not None:
        item = {**keys.plain(key), **fix.marker.to_item()}
        tx.put(f"marker {n}", MAIN, item, condition=condition, values=values)
    else:
        tx.delete(f"marker {n}", MAIN, key, condition=condition, values=values)
    if fix.entry is not None:
        tx.put(f"entry {n}", MAIN, _ledger_item(fix.entry))
    if fix.seen is not None and (fix.entry is None or fix.seen.ledger_key != fix.entry.key):
        tx.delete(f"old entry {n}", MAIN, keys.ledger(fix.seen.ledger_key))


def _run_fixes(fixes: Sequence[ResultFix]) -> bool:
    """One transaction; False when a marker was no longer the one read."""
    tx = Transaction()
    for n, fix in enumerate(fixes):
        _add_fix(tx, n, fix)
    try:
        tx.run()
    except Cancelled as cancelled:
        if any(cancelled.failed(f"marker {n}") for n in range(len(fixes))):
            return False
        raise
    return True


def repair_results(fixes: Sequence[ResultFix]) -> tuple[int, list[str]]:
    """Ledger entries and markers as the record says, each only if its marker is still the one
    read: a match whose marker moved meanwhile (the `ratings` function applied a result of it)
    is left as it is, that result being newer than what was read. 33 results per transaction;
    a cancelled one is redone result by result. Returns (calls, matches left)."""
    per = MAX_ITEMS // 3
    calls, left = 0, []
    for start in range(0, len(fixes), per):
        group = fixes[start : start + per]
        calls += 1
        if _run_fixes(group):
            continue
        for fix in group:
            calls += 1
            if not _run_fixes([fix]):
                left.append(fix.match_id)
    return calls, left


def drop_orphan(ledger_key: str, match_id: str) -> bool:
    """A ledger entry no marker names, deleted only if its match's marker still does not name
    it (the `ratings` function writes an entry and its marker together). False: kept."""
    tx = Transaction()
    tx.check(
        "marker",
        MAIN,
        keys.rated_match(match_id),
        "attribute_not_exists(pk) OR ledger_key <> :k",
        values={"k": ledger_key},
    )
    tx.delete("entry", MAIN, keys.ledger(ledger_key))
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("marker"):
            return False
        raise
    return True
