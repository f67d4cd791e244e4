"""Appeals (R9): one item per appeal under its tournament, written with the match it freezes.

An appeal is lodged and decided inside `progress.settle`'s transaction (see `lodged` and
`decided`): the match's `appeal` field and the appeal item change together, or neither does.
"""

from __future__ import annotations

from collections.abc import Callable

from tavla.store import keys
from tavla.store.dynamo import Item, client, deserialize, table_name
from tavla.store.records import AppealRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Transaction

Write = Callable[[Transaction], None]


def _from_item(item: Item) -> AppealRecord:
    data = {k: v for k, v in item.items() if k not in ("pk", "sk")}
    data["members"] = tuple(data.get("members") or ())
    data["votes"] = tuple(bool(v) for v in data.get("votes") or ())
    return AppealRecord.from_item(data)


def _item(record: AppealRecord) -> Item:
    item = record.to_item()
    item["members"], item["votes"] = list(record.members), list(record.votes)
    return {**keys.plain(keys.appeal(record.tournament_id, record.id)), **item}


def get(tournament_id: str, appeal_id: str) -> AppealRecord | None:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.appeal(tournament_id, appeal_id), ConsistentRead=True
    )
    return _from_item(deserialize(response["Item"])) if "Item" in response else None


def lodged(record: AppealRecord) -> Write:
    """Write a new appeal in the transaction that freezes its match (its id is new)."""

    def write(tx: Transaction) -> None:
        tx.put("appeal", MAIN, _item(record), condition="attribute_not_exists(pk)")

    return write


def decided(record: AppealRecord) -> Write:
    """Write the decision in the transaction that unfreezes (and may change) the match: once."""

    def write(tx: Transaction) -> None:
        tx.put(
            "appeal",
            MAIN,
            _item(record),
            condition="#status = :open",
            names={"#status": "status"},
            values={"open": "open"},
        )

    return write
