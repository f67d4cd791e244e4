"""The table plans of the tournaments sharing a hall (`rules.holds`): who plays where beside."""

from __future__ import annotations

from collections.abc import Iterable

from tavla.rules.model import TablesRecord, match_id
from tavla.store import keys
from tavla.store.draws import tables_from_item
from tavla.store.dynamo import batch_get, client, query_prefix, table_name
from tavla.store.schema import MAIN


def plans(tournament_ids: Iterable[str]) -> list[TablesRecord]:
    """The table plans of these tournaments (one BatchGetItem)."""
    wanted = [keys.tables(t) for t in dict.fromkeys(tournament_ids)]
    return [tables_from_item(i) for i in batch_get(MAIN, wanted, consistent=True)] if wanted else []


def elsewhere(tables: TablesRecord | None) -> dict[str, str]:
    """The players at a table of a tournament beside this one -> that match's id."""
    if tables is None or not tables.beside:
        return {}
    found: dict[str, str] = {}
    for plan in plans(tables.beside):
        for code in plan.occupied.values():
            for player in (plan.demands or {}).get(code, {}).get("players") or ():
                found[player] = match_id(plan.tournament_id, code)
    return found


def mark_need(tavla_id: str, tournament_id: str, needed: bool) -> None:
    """Keep (or drop) the player's pointer to a tournament whose plan holds their need, so their
    data export and erasure find every need without reading every tournament."""
    key = keys.need_pointer(tavla_id, tournament_id)
    if needed:
        item = {**key, "tournament_id": {"S": tournament_id}}
        client().put_item(TableName=table_name(MAIN), Item=item)
    else:
        client().delete_item(TableName=table_name(MAIN), Key=key)


def need_tournaments(tavla_id: str) -> list[str]:
    """The tournaments whose plans may hold the player's need (their pointers)."""
    found = query_prefix(
        MAIN, keys.player_pk(tavla_id), keys.NEED_PREFIX, ProjectionExpression="tournament_id"
    )
    return sorted(str(i["tournament_id"]) for i in found)
