"""The tournament channel's deltas, built from the board as its GET renders it: a result with
the standings rows it moved, a draw (or a refetch when it would pass AppSync's limit), a table
call; never a declaration (R-live)."""

from __future__ import annotations

from typing import Any

from tavla import live_delta

TID = "0123456789abcdef"


def _match(code: str, state: str = "called", **more: Any) -> dict[str, Any]:
    return {
        "id": f"{TID}.{code}",
        "code": code,
        "state": state,
        "home": {"tavla_id": "P-anna", "name": "Anna"},
        "away": {"tavla_id": "P-boris", "name": "Boris"},
        "declared": [{"side": "home", "home_points": 7, "away_points": 5}],
        **more,
    }


def _row(player: str, place: int, points: int) -> dict[str, Any]:
    return {
        "place": place,
        "place_to": place,
        "label": str(place),
        "player": {"tavla_id": player},
        "points": points,
    }


def _board(matches: list[dict[str, Any]], rows: list[dict[str, Any]], tables: int = 2) -> dict[str, Any]:
    at_tables = [m for m in matches if m.get("table")]
    return {
        "current": [{"draw": 1}],
        "tables": [
            {"table": n, "match": next((m for m in at_tables if m["table"] == n), None)}
            for n in range(1, tables + 1)
        ],
        "queue": [],
        "brackets": [{"event": "main", "rounds": [{"round": 1, "matches": matches}]}],
        "standings": [
            {"division": None, "event": "main", "system": "table", "rows": rows, "total": len(rows)}
        ],
    }


def test_a_result_carries_the_match_with_its_winner_and_only_the_rows_that_moved() -> None:
    before = _board(
        [_match("main.R1.1", table=1), _match("main.R1.2", table=2)],
        [_row("P-anna", 1, 0), _row("P-boris", 1, 0), _row("P-chris", 1, 0)],
    )
    official = _match(
        "main.R1.1", "official", result={"winner": "P-anna", "home_points": 7, "away_points": 5}
    )
    after = _board(
        [official, _match("main.R1.2", table=2)],
        [_row("P-anna", 1, 1), _row("P-chris", 2, 0), _row("P-boris", 2, 0)],
    )
    delta = live_delta.result(8, after, f"{TID}.main.R1.1", live_delta.rows_by_key(before))
    assert delta["seq"] == 8 and delta["kind"] == "result"
    assert delta["match"]["result"]["winner"] == "P-anna"
    assert "declared" not in delta["match"]  # declarations stay on the match's own channel
    (standings,) = delta["standings"]
    assert [r["player"]["tavla_id"] for r in standings["rows"]] == ["P-anna", "P-chris", "P-boris"]
    assert standings["order"] == ["P-anna", "P-chris", "P-boris"]
    # the same standings again: nothing moved, no standings part
    again = live_delta.result(9, after, f"{TID}.main.R1.1", live_delta.rows_by_key(after))
    assert again["standings"] == []
    unchanged = [_row("P-anna", 1, 1), _row("P-chris", 2, 0), _row("P-boris", 2, 1)]
    only_boris = live_delta.result(
        10, _board([official], unchanged), f"{TID}.main.R1.1", live_delta.rows_by_key(after)
    )
    assert [r["player"]["tavla_id"] for r in only_boris["standings"][0]["rows"]] == ["P-boris"]


def test_a_result_the_board_does_not_show_is_a_refetch() -> None:
    board = _board([_match("main.R2.1", table=1)], [])
    assert live_delta.result(3, board, f"{TID}.main.R1.9", {}) == {
        "seq": 3,
        "kind": "refetch",
        "reason": "result",
    }


def test_a_draw_carries_tables_and_pairings_without_declarations_or_a_refetch_when_too_big() -> None:
    board = _board([_match("main.R2.1", table=1), _match("main.R2.2", table=2)], [_row("P-anna", 1, 1)])
    delta = live_delta.draw(4, board, {"main.R2"})
    assert delta["kind"] == "draw" and delta["rounds"] == ["main.R2"]
    assert [t["match"]["code"] for t in delta["tables"]] == ["main.R2.1", "main.R2.2"]
    assert "standings" not in delta and "declared" not in str(delta)
    assert live_delta.size(delta) < live_delta.MAX_EVENT_BYTES
    many = [_match(f"main.R2.{n}", table=n, note="x" * 1000) for n in range(1, 300)]
    big = live_delta.draw(5, _board(many, [], tables=299), {"main.R2"})
    assert big == {"seq": 5, "kind": "refetch", "reason": "draw", "rounds": ["main.R2"]}


def test_a_table_call_names_the_match_and_its_table() -> None:
    board = _board([_match("main.R1.1", table=1), _match("main.R1.2", table=2)], [])
    delta = live_delta.call(6, board, ["main.R1.2"])
    assert delta["kind"] == "call"
    assert [(c["table"], c["match"]["code"]) for c in delta["calls"]] == [(2, "main.R1.2")]
    assert live_delta.call(7, board, ["main.R1.9"])["kind"] == "refetch"  # not on a table


def test_a_round_is_its_codes_prefix() -> None:
    assert live_delta.round_key("main.R2.13") == "main.R2"
    assert live_delta.round_key("consolation.W3.1") == "consolation.W3"
