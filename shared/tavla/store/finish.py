"""Finishing a tournament (R10.1, R10.2): the status and the final standings, written at once.

`finish` is one transaction: the tournament turns `finished` only if it is still running on
the draws the standings were computed from (no draw published or being made since), and its
final standings are stored beside it (their own item, so reading the tournament page stays
one small read however large the field). Finishing twice finds the stored standings.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavla.store import audit, keys, outbox
from tavla.store.dynamo import Item, client, deserialize, table_name
from tavla.store.records import FINISHED, AuditRecord, FinalRecord, PrizeEligibilityRecord, TournamentRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


class NotRunning(Exception):
    """The tournament is no longer as read: finished meanwhile, or a draw came in between."""


def _from_item(item: Item) -> FinalRecord:
    data = {k: v for k, v in item.items() if k not in ("pk", "sk")}
    data["events"] = tuple(data.get("events") or ())
    return FinalRecord.from_item(data)


def finish(
    tournament: TournamentRecord,
    record: FinalRecord,
    change: AuditRecord,
    eligibility: PrizeEligibilityRecord | None = None,
    events: Sequence[outbox.Event] = (),
) -> None:
    """Mark the tournament finished and store its final standings (and, with category prizes,
    who is eligible for them, frozen) with the finish's events, or raise NotRunning."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        "SET #status = :finished, finished_at = :at",
        condition="#status = :running AND draws = :draws AND attribute_not_exists(drawing)",
        names={"#status": "status"},
        values={
            "finished": FINISHED,
            "running": "running",
            "at": record.finished_at,
            "draws": tournament.draws,
        },
    )
    item = {**keys.plain(keys.standings(tournament.id)), **record.to_item(), "events": list(record.events)}
    tx.put("standings", MAIN, item, condition="attribute_not_exists(pk)")
    if eligibility is not None:  # R11.4
        frozen = {k: list(v) for k, v in eligibility.categories.items()}
        tx.put(
            "eligibility",
            MAIN,
            {
                **keys.plain(keys.prize_eligibility(tournament.id)),
                "tournament_id": tournament.id,
                "categories": frozen,
            },
        )
    audit.record(tx, tournament.id, change)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise NotRunning(tournament.id) from cancelled


def final(tournament_id: str) -> FinalRecord | None:
    """The stored final standings, if the tournament has finished."""
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.standings(tournament_id), ConsistentRead=True
    )
    item = response.get("Item")
    return _from_item(deserialize(item)) if item else None


def announce(tournament_id: str, events: Sequence[outbox.Event]) -> None:
    """The events of a finish stored without them (before they were written with the change),
    marked announced in the same transaction: a later finish does not announce it again."""
    tx = Transaction()
    tx.update(
        "standings",
        MAIN,
        keys.standings(tournament_id),
        "SET announced = :yes",
        condition="attribute_exists(pk) AND (attribute_not_exists(announced) OR announced = :no)",
        values={"yes": True, "no": False},
    )
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if not cancelled.failed("standings"):
            raise
        # announced meanwhile by another finish: nothing to do


def prize_eligibility(tournament_id: str) -> PrizeEligibilityRecord | None:
    """R11.4: the category-prize eligibility frozen by the finish, if any."""
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.prize_eligibility(tournament_id), ConsistentRead=True
    )
    item = response.get("Item")
    if not item:
        return None
    data = deserialize(item)
    categories = {str(k): tuple(str(t) for t in v) for k, v in (data.get("categories") or {}).items()}
    return PrizeEligibilityRecord(tournament_id=tournament_id, categories=categories)
