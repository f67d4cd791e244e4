"""The table plans of the tournaments sharing a hall (`rules.holds`): who plays where beside."""

from __future__ import annotations

from collections.abc import Iterable

from tavla.rules.model import TablesRecord, match_id
from tavla.store import keys
from tavla.store.draws import tables_from_item
from tavla.store.dynamo import batch_get
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
