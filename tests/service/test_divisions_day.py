"""A tournament of several divisions plays a day per division (R3.7, R5, R10.1, R10.4, R11).

Each division is drawn apart (the organiser names it), pairs only its own players under its
own codes, shows its own brackets and standings, and the tournament finishes once every
division is played out; season points and the announced prizes are the highest division's.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavla import events
from tests.service.board_helpers import play_out
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, bus_taking, create_player, create_tournament
from tools.verify_draw import check_rounds

DIVISIONS = [{"id": "open", "name": "Open"}, {"id": "novice", "name": "Novice"}]
ROUNDS = "/tournaments/{tournament_id}/rounds"


def _divided_field(api: Api, entries: dict[str, int], **settings: Any) -> tuple[str, dict[str, set[str]]]:
    """A tournament of two divisions whose entrants are all registered and checked in."""
    tournament_id = create_tournament(api, capacity=16, divisions=DIVISIONS, **settings)
    params = {"tournament_id": tournament_id}
    players: dict[str, set[str]] = {}
    for division, count in entries.items():
        for i in range(count):
            user = f"{division}-{i}"
            tavla_id = create_player(api, user, name=f"{division.title()} {i}")
            for path, body, who, status in (
                ("/tournaments/{tournament_id}/registrations", {"division": division}, user, 201),
                ("/tournaments/{tournament_id}/checkins", {"tavla_id": tavla_id}, ORGANISER, 200),
            ):
                reply = api.call("POST", path, params=params, body=body, user=who)
                assert reply.status == status, reply.body
            players.setdefault(division, set()).add(tavla_id)
    return tournament_id, players


def _draw(api: Api, tournament_id: str, division: str | None) -> Any:
    query = {"division": division} if division else None
    return api.call("POST", ROUNDS, params={"tournament_id": tournament_id}, query=query, user=ORGANISER)


def _in(match: dict[str, Any]) -> set[str]:
    return {side["tavla_id"] for side in (match.get("home"), match.get("away")) if side}


def test_a_draw_names_its_division_and_nothing_changes_without_one(api: Api) -> None:
    """R3.7: with several divisions, a draw without a division, or of one the tournament does
    not have, is refused (422) and changes nothing: no round, check-in still open."""
    tournament_id, _ = _divided_field(api, {"open": 2, "novice": 2})
    params = {"tournament_id": tournament_id}
    before = api.call("GET", "/tournaments/{tournament_id}", params=params).body
    for division in (None, "masters"):
        reply = _draw(api, tournament_id, division)
        assert (reply.status, reply.error) == (422, "validation_error"), reply.body
        assert "division" in reply.body["error"]["message"]
    assert api.call("GET", ROUNDS, params=params).body["rounds"] == []
    assert api.call("GET", "/tournaments/{tournament_id}", params=params).body == before


def test_each_division_is_drawn_apart_and_pairs_only_its_own_players(api: Api) -> None:
    """R3.7, R5.3: the Open and the Novice are drawn one after the other; an Open player never
    meets a Novice; codes carry the division; the shared tables seat both; the board and the
    standings show each division's events apart."""
    tournament_id, players = _divided_field(api, {"open": 4, "novice": 3})
    params = {"tournament_id": tournament_id}
    opened = _draw(api, tournament_id, "open")
    assert opened.status == 201, opened.body
    assert (opened.body["number"], opened.body["division"]) == (1, "open")
    assert {m["division"] for m in opened.body["pairings"]} == {"open"}
    assert all(m["code"].startswith("open.main.R") for m in opened.body["pairings"])
    first = [m for m in opened.body["pairings"] if m["round"] == 1]
    assert set().union(*(_in(m) for m in first)) == players["open"]
    assert opened.body["pairings"][-1]["home_from"].startswith("winner of open.main.R1.")

    again = _draw(api, tournament_id, "open")
    assert (again.status, again.error) == (409, "nothing_to_draw")  # the Open's bracket is whole
    novice = _draw(api, tournament_id, "novice")
    assert novice.status == 201, novice.body
    assert (novice.body["number"], novice.body["division"]) == (2, "novice")
    round_one = [m for m in novice.body["pairings"] if m["round"] == 1]
    assert set().union(*(_in(m) for m in round_one)) == players["novice"]  # one of them has a BYE
    tables = [m["table"] for m in opened.body["pairings"] + novice.body["pairings"] if m["table"]]
    assert len(tables) == len(set(tables)) == 3  # two Open matches and one Novice match, one table each

    board = api.call("GET", "/tournaments/{tournament_id}/board", params=params).body
    assert [(b["division"], b["event"]) for b in board["brackets"]] == [("open", "main"), ("novice", "main")]
    for bracket in board["brackets"]:
        met = set().union(*(_in(m) for r in bracket["rounds"] for m in r["matches"]))
        assert met <= players[bracket["division"]]
    rounds = api.call("GET", ROUNDS, params=params).body["rounds"]
    assert [(r["number"], r["division"]) for r in rounds] == [(1, "open"), (2, "novice")]
    published = [
        api.call("GET", ROUNDS + "/{number}", params={**params, "number": str(r["number"])}).body
        for r in rounds
    ]
    assert check_rounds(published) == {1: [], 2: []}  # R5.1: anyone recomputes each division's draw


def test_a_divided_tournament_finishes_when_every_division_is_played_out(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.7, R10.1, R10.4: one division played out is not the end; once both are, each has its
    own places, and season points come from the highest division's Main only."""
    seen: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(events, "put_on_bus", bus_taking(lambda kind, detail: seen.append((kind, detail))))
    tournament_id, players = _divided_field(api, {"open": 4, "novice": 2})
    params = {"tournament_id": tournament_id}
    assert _draw(api, tournament_id, "open").status == 201
    play_out(tournament_id)
    finish = api.call("POST", "/tournaments/{tournament_id}/finish", params=params, user=ORGANISER)
    assert (finish.status, finish.error) == (409, "not_finished")  # the Novice is not drawn yet
    assert _draw(api, tournament_id, "novice").status == 201
    play_out(tournament_id)
    finish = api.call("POST", "/tournaments/{tournament_id}/finish", params=params, user=ORGANISER)
    assert finish.status == 200, finish.body
    places = {
        e["division"]: {r["player"]["tavla_id"]: r["place"] for r in e["rows"]} for e in finish.body["events"]
    }
    assert {d: set(p) for d, p in places.items()} == players
    assert sorted(places["open"].values()) == [1, 2, 3, 3] and sorted(places["novice"].values()) == [1, 2]
    [announced] = [d for kind, d in seen if kind == events.TOURNAMENT_FINISHED]
    assert announced["season_event"] == "open.main"
    assert announced["season_events"] == ["open.main", "novice.main"]  # highest division first
    assert set(announced["events"]) == {"open.main", "novice.main"}


def test_season_points_come_from_the_highest_division_only() -> None:
    """R10.4, R3.7: a Novice winner earns no season points beside the Open's places."""
    from tavla.rules.season import SeasonSettings
    from tavla.services.season import tournament_awards

    detail = {
        "tournament_id": "T1",
        "level": "local",
        "season_event": "open.main",
        "events": {
            "open.main": [
                {"tavla_id": "O1", "place": 1, "place_to": 1},
                {"tavla_id": "O2", "place": 2, "place_to": 2},
            ],
            "novice.main": [
                {"tavla_id": "N1", "place": 1, "place_to": 1},
                {"tavla_id": "N2", "place": 2, "place_to": 2},
            ],
        },
    }
    awards = tournament_awards(detail, [], SeasonSettings(), {})
    assert set(awards) == {"O1", "O2"} and awards["O1"].points > awards["O2"].points > 0


def test_each_division_earns_at_the_seasons_coefficient_for_it() -> None:
    """R10.4, R3.7: a season that gives the second division half its places' points: the
    Novice winner earns half of what the Open winner does; a third division, past the
    season's list, earns nothing."""
    from tavla.rules.season import SeasonSettings
    from tavla.services.season import tournament_awards

    def places(prefix: str) -> list[dict[str, Any]]:
        return [{"tavla_id": f"{prefix}{n}", "place": n, "place_to": n} for n in (1, 2)]

    detail = {
        "tournament_id": "T1",
        "level": "regional",
        "season_event": "open.main",
        "season_events": ["open.main", "novice.main", "junior.main"],
        "events": {"open.main": places("O"), "novice.main": places("N"), "junior.main": places("J")},
    }
    settings = SeasonSettings.model_validate({"division_coefficients": ["1", "0.5"]})
    awards = {p: a.points for p, a in tournament_awards(detail, [], settings, {}).items()}
    assert awards == {"O1": 200, "O2": 140, "N1": 100, "N2": 70}
    default = {p: a.points for p, a in tournament_awards(detail, [], SeasonSettings(), {}).items()}
    assert default == {"O1": 200, "O2": 140}
    with pytest.raises(ValueError, match="division coefficient"):
        SeasonSettings.model_validate({"division_coefficients": ["-1"]})
