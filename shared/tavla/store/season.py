"""Seasons (R10.4, R10.5): the season's settings, each player's season entry, counted tournaments.

A player's entry (SEASON#<id> / PLAYER#<tavla_id>) holds one attribute per counted
tournament, `award#<tournament id>` (its points and the player's matches there), written with
`attribute_not_exists`, and the running total `points` (ADD in the same update): a
tournament is added to a player's season at most once, however often the event comes.

The standings snapshot (SEASON#<id> / STANDINGS and its pages) is the ranked table as the
season function last wrote it: GET /seasons/{id}/standings reads a page of it, never ranks.
A new version's pages are written first, then the head that points at them (conditional on
the version it replaces), then the old pages go: a reader sees one version or the other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from botocore.exceptions import ClientError

from tavla import events
from tavla.rules.season_table import Award, SeasonRow
from tavla.store import invitations, keys, outbox
from tavla.store.dynamo import (
    batch_get,
    batch_write,
    client,
    deserialize,
    error_code,
    query_prefix,
    serialize,
    table_name,
)
from tavla.store.records import SeasonRecord, SeasonStandingsRecord, SuperFinalRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

AWARD_PREFIX = "award#"


def get(season_id: str) -> SeasonRecord | None:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.season(season_id), ConsistentRead=True)
    return _season(deserialize(response["Item"])) if "Item" in response else None


def _season(item: Mapping[str, Any]) -> SeasonRecord:
    return SeasonRecord.from_item({**item, "to_invite": tuple(item.get("to_invite") or ())})


def put(season: SeasonRecord, announce: Sequence[outbox.Event] = ()) -> None:
    """The season as set, its id in the list of seasons and its events, at once, unless it
    closed meanwhile (SeasonClosed: its record is frozen)."""
    tx = Transaction()
    tx.put(
        "season",
        MAIN,
        {**keys.plain(keys.season(season.id)), **season.to_item(), "to_invite": list(season.to_invite)},
        condition="attribute_not_exists(closed_at)",
    )
    tx.update("list", MAIN, keys.seasons(), "ADD ids :s", values={"s": {season.id}})
    outbox.add(tx, announce)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("season"):
            raise SeasonClosed(season.id) from cancelled
        raise


class SeasonClosed(Exception):
    """The season closed: its settings, dates and invitations no longer change."""


def close(season_id: str, at: str, to_invite: Sequence[str], final: SuperFinalRecord) -> bool:
    """Close the season once (the schedule at its end date) with its Super Final's frozen list:
    False when it was already closed."""
    tx = Transaction()
    tx.update(
        "season",
        MAIN,
        keys.season(season_id),
        "SET closed_at = :at, to_invite = :i",
        condition="attribute_exists(pk) AND attribute_not_exists(closed_at)",
        values={"at": at, "i": list(to_invite)},
    )
    invitations.freeze(tx, final)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("season") or cancelled.failed("final"):
            return False
        raise
    return True


def get_many(season_ids: Sequence[str]) -> list[SeasonRecord]:
    """The seasons set among `season_ids` (BatchGetItem)."""
    return [_season(i) for i in batch_get(MAIN, [keys.season(s) for s in season_ids])]


def add_award(season_id: str, tavla_id: str, award: Award) -> bool:
    """Add one tournament's award to a player's season; False when it was already counted."""
    try:
        client().update_item(
            TableName=table_name(MAIN),
            Key=keys.season_entry(season_id, tavla_id),
            UpdateExpression="SET #a = :a, season_id = :s, tavla_id = :p ADD points :n",
            ConditionExpression="attribute_not_exists(#a)",
            ExpressionAttributeNames={"#a": f"{AWARD_PREFIX}{award.tournament_id}"},
            ExpressionAttributeValues={
                ":a": {"S": award.model_dump_json()},
                ":s": {"S": season_id},
                ":p": {"S": tavla_id},
                ":n": {"N": str(award.points)},
            },
        )
    except ClientError as error:
        if error_code(error) == "ConditionalCheckFailedException":
            return False
        raise
    return True


def remove_awards(season_id: str, tavla_id: str, awards: Sequence[Award]) -> None:
    """Take awards off a player's season (a merge moves them; the rebuild repairs)."""
    if not awards:
        return
    names = {f"#a{i}": f"{AWARD_PREFIX}{a.tournament_id}" for i, a in enumerate(awards)}
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.season_entry(season_id, tavla_id),
        UpdateExpression="REMOVE " + ", ".join(names) + " ADD points :n",
        ExpressionAttributeNames=names,
        ExpressionAttributeValues={":n": {"N": str(-sum(a.points for a in awards))}},
    )


def mark_counted(season_id: str, tournament_id: str, finished_at: str) -> None:
    client().put_item(
        TableName=table_name(MAIN),
        Item=serialize(
            {**keys.plain(keys.season_counted(season_id, tournament_id)), "finished_at": finished_at}
        ),
    )


def _awards(item: Mapping[str, Any]) -> list[Award]:
    return [
        Award.model_validate(json.loads(v)) for k, v in sorted(item.items()) if k.startswith(AWARD_PREFIX)
    ]


def entries(season_id: str) -> dict[str, list[Award]]:
    """Every player's awards in the season (one Query, page after page)."""
    items = query_prefix(MAIN, keys.season_pk(season_id), keys.SEASON_PLAYER_PREFIX)
    out = {str(i["tavla_id"]): _awards(i) for i in items}
    return {p: a for p, a in out.items() if a}


def entries_of(season_id: str, tavla_ids: Sequence[str]) -> dict[str, list[Award]]:
    """These players' awards in the season (BatchGetItem, 100 a call; the full rebuild's chunks)."""
    found = batch_get(MAIN, [keys.season_entry(season_id, p) for p in tavla_ids], consistent=True)
    return {str(i["tavla_id"]): _awards(i) for i in found}


def entry(season_id: str, tavla_id: str) -> list[Award]:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.season_entry(season_id, tavla_id))
    return _awards(deserialize(response["Item"])) if "Item" in response else []


def remember(season_id: str) -> None:
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.seasons(),
        UpdateExpression="ADD ids :s",
        ExpressionAttributeValues={":s": {"SS": [season_id]}},
    )


def season_ids() -> list[str]:
    response = client().get_item(TableName=table_name(MAIN), Key=keys.seasons())
    return sorted(deserialize(response["Item"]).get("ids", ())) if "Item" in response else []


# -- the standings snapshot ------------------------------------------------------


class SnapshotMoved(Exception):
    """Another writer replaced the snapshot since it was read (the caller ranks again)."""


def snapshot(season_id: str) -> SeasonStandingsRecord | None:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.season_standings(season_id), ConsistentRead=True
    )
    if "Item" not in response:
        return None
    item = deserialize(response["Item"])
    return SeasonStandingsRecord.from_item({**item, "counted": tuple(item.get("counted") or ())})


def snapshot_pages(season_id: str, version: int, pages: Sequence[int]) -> dict[int, list[SeasonRow]]:
    """Pages of snapshot `version` (a page missing: that version was replaced meanwhile)."""
    wanted = [keys.season_standings_page(season_id, version, p) for p in pages]
    found = batch_get(MAIN, wanted, consistent=True)  # a page just written is there (or was replaced)
    return {int(i["page"]): [SeasonRow.model_validate(r) for r in json.loads(str(i["rows"]))] for i in found}


def put_snapshot(
    season_id: str,
    pages: Sequence[Sequence[SeasonRow]],
    head: SeasonStandingsRecord,
    previous: SeasonStandingsRecord | None,
) -> int:
    """The new version's pages, then the head (conditional on the version read: SnapshotMoved
    when another writer got there first), then the old version's pages removed. Returns calls."""
    items = [
        {
            **keys.plain(keys.season_standings_page(season_id, head.version, n)),
            "page": n,
            "rows": json.dumps([r.model_dump() for r in rows], separators=(",", ":")),
        }
        for n, rows in enumerate(pages)
    ]
    calls = batch_write(MAIN, items, [])
    condition = "attribute_not_exists(pk)" if previous is None else "version = :v"
    tx = Transaction()
    tx.put(
        "head",
        MAIN,
        {**keys.plain(keys.season_standings(season_id)), **head.to_item(), "counted": list(head.counted)},
        condition=condition,
        values=None if previous is None else {"v": previous.version},
    )
    # with the head, so that open season pages hear it (the live channel's `season/<id>`)
    outbox.add(
        tx,
        [
            outbox.Event(
                events.SEASON_STANDINGS_CHANGED,
                {"season_id": season_id, "version": head.version},
                key=f"{season_id}/{head.version}",
            )
        ],
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("head") or cancelled.temporary:  # ranked again from a fresh read
            batch_write(
                MAIN, [], [keys.season_standings_page(season_id, head.version, n) for n in range(len(pages))]
            )
            raise SnapshotMoved(season_id) from cancelled
        raise
    calls += 1
    if previous is not None:
        stale = [keys.season_standings_page(season_id, previous.version, n) for n in range(previous.pages)]
        calls += batch_write(MAIN, [], stale)
    return calls
