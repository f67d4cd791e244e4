"""What a tournament's public live channel says: deltas of the venue board, built from the board
as `GET /tournaments/{tid}/board` renders it (plain JSON here: this module is pure).

Every delta has `seq`, the tournament's counter (one per delta, no gaps), and a `kind`:

- `result`: an official result: the match as the board shows it (winner included) and, per
  event, the standings rows that moved plus the order of the board's rows (`order`), so a
  screen can place unchanged rows without being sent them;
- `draw`: a new round on the tables: the board's draws in play, tables, queue and brackets
  (`refetch` instead when that would pass AppSync's event limit);
- `call`: matches put on tables: each with its table;
- `refetch`: something the board shows changed that no delta describes (entries, the end of
  the tournament, a draw too big for one event): screens read the board again.

Nothing private or in progress travels here: no declarations, no live scores of unfinished
matches, no check-ins (those are on the match and staff channels, which are authorised).
A screen applies delta n+1 to the board it holds; a gap or a kind it does not know means one
refetch of the board (web/src/live/board-delta.ts). Applying a delta twice changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

# AppSync Events takes an event of at most 240 KB; a delta stays under it with room for the
# publish request's envelope
MAX_EVENT_BYTES = 240 * 1024 - 1024
DRAW_PARTS = ("current", "tables", "queue", "brackets")

Json = dict[str, Any]


def size(delta: Mapping[str, Any]) -> int:
    return len(json.dumps(delta, separators=(",", ":")).encode())


def public_match(view: Mapping[str, Any]) -> Json:
    """A match as the public channel may carry it: no declarations (they stay on its own channel)."""
    return {k: v for k, v in view.items() if k != "declared"}


def standings_key(standings: Mapping[str, Any]) -> str:
    return f"{standings.get('division') or ''}/{standings['event']}"


def digest(row: Mapping[str, Any]) -> str:
    """A standings row's fingerprint: the counter item keeps these, not the rows (no names stored)."""
    return hashlib.sha256(json.dumps(row, sort_keys=True).encode()).hexdigest()[:12]


def rows_by_key(board: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The board's standings rows' fingerprints, per event, by player, in the board's order:
    what the next result is compared with."""
    return {
        standings_key(s): {row["player"]["tavla_id"]: digest(row) for row in s["rows"]}
        for s in board.get("standings", ())
    }


def moved(board: Mapping[str, Any], before: Mapping[str, Mapping[str, str]]) -> list[Json]:
    """Per event: the rows that differ from `before` (new, or with another place or figure),
    the order of the board's rows and the table's total."""
    changes: list[Json] = []
    for standings in board.get("standings", ()):
        key = standings_key(standings)
        known = before.get(key, {})
        rows = [r for r in standings["rows"] if known.get(r["player"]["tavla_id"]) != digest(r)]
        order = [r["player"]["tavla_id"] for r in standings["rows"]]
        if rows or order != list(known):
            changes.append(
                {
                    "division": standings.get("division"),
                    "event": standings["event"],
                    "total": standings["total"],
                    "order": order,
                    "rows": rows,
                }
            )
    return changes


def _find(board: Mapping[str, Any], match_id: str) -> Json | None:
    for bracket in board.get("brackets", ()):
        for round_ in bracket["rounds"]:
            for match in round_["matches"]:
                if match["id"] == match_id:
                    return dict(match)
    return None


def result(
    seq: int, board: Mapping[str, Any], match_id: str, before: Mapping[str, Mapping[str, str]]
) -> Json:
    """An official result: the match and the standings rows it moved (a refetch when the board
    does not show the match, e.g. a draw no longer in play)."""
    match = _find(board, match_id)
    if match is None:
        return refetch(seq, "result")
    return {"seq": seq, "kind": "result", "match": public_match(match), "standings": moved(board, before)}


def draw(seq: int, board: Mapping[str, Any], rounds: Iterable[str]) -> Json:
    """A new round on the tables: the parts of the board a draw changes, or a refetch when the
    event would pass AppSync's limit."""
    parts = {part: board.get(part, []) for part in DRAW_PARTS}
    parts["queue"] = [public_match(m) for m in parts["queue"]]
    parts["tables"] = [
        {**t, "match": public_match(t["match"]) if t.get("match") else None} for t in parts["tables"]
    ]
    parts["brackets"] = [
        {**b, "rounds": [{**r, "matches": [public_match(m) for m in r["matches"]]} for r in b["rounds"]]}
        for b in parts["brackets"]
    ]
    delta = {"seq": seq, "kind": "draw", "rounds": sorted(rounds), **parts}
    return delta if size(delta) <= MAX_EVENT_BYTES else refetch(seq, "draw", rounds=sorted(rounds))


def call(seq: int, board: Mapping[str, Any], codes: Iterable[str]) -> Json:
    """Matches put on tables: each called match with its table (the board's view of it)."""
    wanted = set(codes)
    calls = [
        {"table": t["table"], "match": public_match(t["match"])}
        for t in board.get("tables", ())
        if t.get("match") and t["match"]["code"] in wanted
    ]
    return {"seq": seq, "kind": "call", "calls": calls} if calls else refetch(seq, "call")


def refetch(seq: int, reason: str, **more: Any) -> Json:
    return {"seq": seq, "kind": "refetch", "reason": reason, **more}


def round_key(code: str) -> str:
    """A match code's round (`main.R2.3` -> `main.R2`): a call in a round not yet announced is a draw."""
    return code.rsplit(".", 1)[0]
