"""The names of a field's players, kept while a function stays warm: what a match's answer shows.

A field's entrants are only ever appended (late entries, `store.late_entries`), and an
entrant's name and club are fixed with his entry, so what was read of a field once stays right
for the tournament: a player not known yet reads the field again. So a confirmation, which
shows the two players' names, does not read the whole field (41 KB at 512 players) each time.
What grows during the day (withdrawn, disqualified) is not kept here: a change reads it with
the day (`store.matches.part`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from tavla.store import keys
from tavla.store.dynamo import batch_get
from tavla.store.schema import MAIN

KEPT = 32  # tournaments kept per warm function: a few venues' days at once

_entrants: OrderedDict[str, dict[str, Mapping[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def entrants(tournament_id: str, players: Iterable[str | None]) -> dict[str, Mapping[str, Any]]:
    """The entries of `players` in the tournament's field ({player_id, name, club, ...}); a
    player not in the field is left out. Reads the field (one BatchGetItem) only when one of
    them is not known yet."""
    wanted = {p for p in players if p}
    with _lock:
        known = _entrants.get(tournament_id)
    if known is None or not wanted <= known.keys():
        found = batch_get(MAIN, [keys.field(tournament_id)], consistent=True)
        known = {str(e["player_id"]): e for e in (found[0].get("entrants") or ())} if found else {}
    with _lock:  # a local stack's threads share the module; a Lambda runs one request at a time
        _entrants[tournament_id] = known
        _entrants.move_to_end(tournament_id)
        while len(_entrants) > KEPT:
            _entrants.popitem(last=False)
    return {p: known[p] for p in wanted if p in known}


def forget() -> None:
    """Forget every field read (a new execution environment, or a test's fresh tables)."""
    with _lock:
        _entrants.clear()
