"""Live score and result through the API (R7.2-R7.6, R8.4, R9.4): record, declare, confirm."""

from __future__ import annotations

from typing import Any

import pytest

from tavla import events
from tavla.store import audit as audit_store
from tests.service.conftest import Api, Reply
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, bus_taking, create_player

LENGTHS = {"default": 3, "semi_final": 3, "final": 3}


class Day:
    """A 4-player single elimination drawn: two semi-finals on their tables, the final waiting."""

    def __init__(self, api: Api, **settings: Any) -> None:
        self.api = api
        self.tid, ids = checked_in_field(api, 4, match_lengths=LENGTHS, **settings)
        self.user = {tavla_id: f"player-{i}" for i, tavla_id in enumerate(ids)}
        reply = draw(api, self.tid)
        assert reply.status == 201, reply.body
        self.matches = {m["code"]: m for m in reply.body["pairings"]}

    def id(self, code: str) -> str:
        return f"{self.tid}.{code}"

    def get(self, code: str) -> dict[str, Any]:
        reply = self.api.call("GET", "/matches/{match_id}", params={"match_id": self.id(code)})
        assert reply.status == 200, reply.body
        return dict(reply.body)

    def players(self, code: str) -> tuple[str, str]:
        m = self.get(code)
        return m["home"]["tavla_id"], m["away"]["tavla_id"]

    def score(
        self, code: str, user: str, version: int | None = None, groups: tuple[str, ...] = (), **entry: Any
    ) -> Reply:
        if version is None:
            version = self.get(code)["version"]
        return self.api.call(
            "PUT",
            "/matches/{match_id}/score",
            params={"match_id": self.id(code)},
            body={"version": version, **entry},
            user=user,
            groups=groups,
        )

    def game(self, code: str, winner: str, by: str | None = None, **game: Any) -> Reply:
        return self.score(code, by or self.user[winner], game={"winner": winner, **game})

    def report(self, code: str, player: str, home: int, away: int) -> Reply:
        return self.api.call(
            "POST",
            "/matches/{match_id}/report",
            params={"match_id": self.id(code)},
            body={"home_points": home, "away_points": away},
            user=self.user[player],
        )

    def confirm(self, code: str, body: Any = None, user: str = ORGANISER) -> Reply:
        return self.api.call(
            "POST", "/matches/{match_id}/confirm", params={"match_id": self.id(code)}, body=body, user=user
        )

    def win(self, code: str, home_wins: bool = True) -> None:
        """Play `code` 3-0 for one side, both players report it, staff confirm it."""
        home, away = self.players(code)
        winner = home if home_wins else away
        assert self.game(code, winner, result="backgammon").status == 200
        score = (3, 0) if home_wins else (0, 3)
        assert self.report(code, home, *score).status == 200
        assert self.report(code, away, *score).status == 200
        assert self.confirm(code).status == 200


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    sent: list[tuple[str, dict[str, Any]]] = []
    monkeypatch.setattr(events, "put_on_bus", bus_taking(lambda kind, detail: sent.append((kind, detail))))
    return sent


def test_games_make_the_live_score_and_the_last_one_finishes_the_match(api: Api) -> None:
    """R7.2, R7.5: called -> playing -> finished; the public match shows every game and the score."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.get("main.R1.1")["state"] == "called"
    first = day.game("main.R1.1", home)
    assert first.status == 200, first.body
    assert (first.body["state"], first.body["score"], first.body["version"]) == ("playing", [1, 0], 1)
    resigned = day.score("main.R1.1", day.user[home], resignation={"player": home, "result": "backgammon"})
    assert resigned.status == 200, resigned.body
    assert resigned.body["state"] == "finished" and resigned.body["score"] == [1, 3]
    public = day.get("main.R1.1")
    assert [(e["winner"], e["result"], e["points"], e["resigned"]) for e in public["history"]] == [
        (home, "single", 1, False),
        (away, "backgammon", 3, True),
    ]
    assert public["history"][-1]["score"] == [1, 3] and public["result"] is None
    assert "phone" not in str(public) and "email" not in str(public)
    # nothing more can be scored
    assert day.game("main.R1.1", home).status == 409


def test_the_crawford_game_voids_a_turned_cube_and_a_dead_cube_is_refused(api: Api) -> None:
    """R7.2 (cnb 4.4.4): in the Crawford game a reported cube is void; R7.8: an impossible cube is 409."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.game("main.R1.1", home, result="gammon").status == 200  # 2-0 in a 3-point match
    assert day.get("main.R1.1")["crawford"] is True
    crawford = day.game("main.R1.1", away, cube=2)
    assert crawford.status == 200, crawford.body
    assert crawford.body["score"] == [2, 1]
    assert (
        crawford.body["history"][-1] | {"crawford": True, "cube_voided": True} == crawford.body["history"][-1]
    )
    assert crawford.body["crawford"] is False  # post-Crawford: the cube is live again
    before = day.get("main.R1.1")
    dead = day.game("main.R1.1", away, cube=4)  # a 2-cube is already dead at 2-1 to 3
    assert (dead.status, dead.error) == (409, "rule_violation")
    assert day.get("main.R1.1") == before


def test_a_stale_version_is_409_and_changes_nothing(api: Api) -> None:
    """R7.5: two players record the same game: the second, on the old version, gets 409."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.score("main.R1.1", day.user[home], version=0, game={"winner": home}).status == 200
    late = day.score("main.R1.1", day.user[away], version=0, game={"winner": home})
    assert (late.status, late.error) == (409, "stale_version")
    now = day.get("main.R1.1")
    assert (now["score"], len(now["history"]), now["version"]) == ([1, 0], 1, 1)


def test_malformed_or_foreign_entries_are_422(api: Api) -> None:
    """A cube that is no cube value, two entries at once, a winner not in the match: 422."""
    day = Day(api)
    home, _ = day.players("main.R1.1")
    other, _ = day.players("main.R1.2")
    assert day.game("main.R1.1", home, cube=3).status == 422
    assert (
        day.score("main.R1.1", day.user[home], game={"winner": home}, time_loss={"player": home}).status
        == 422
    )
    foreign = day.game("main.R1.1", other, by=day.user[home])
    assert (foreign.status, foreign.error) == (422, "not_in_match")


def test_only_the_matchs_players_and_its_staff_act_on_it(api: Api) -> None:
    """R1.3: a player of another match, or a stranger, gets 403; penalties and time are staff's."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    other, _ = day.players("main.R1.2")
    stranger = day.game("main.R1.1", home, by=day.user[other])
    assert (stranger.status, stranger.error) == (403, "not_your_match")
    create_player(api, "outsider")
    assert day.game("main.R1.1", home, by="outsider").status == 403
    penalty = day.score("main.R1.1", day.user[home], penalty={"player": away, "points": 1})
    assert (penalty.status, penalty.error) == (403, "not_staff")
    assert day.report("main.R1.2", other, 3, 0).status == 200
    stranger_report = api.call(
        "POST",
        "/matches/{match_id}/report",
        params={"match_id": day.id("main.R1.1")},
        body={"home_points": 3, "away_points": 0},
        user=day.user[other],
    )
    assert (stranger_report.status, stranger_report.error) == (403, "not_your_match")
    assert day.confirm("main.R1.1", user=day.user[home]).status == 403


def test_the_referee_records_penalty_points_and_a_time_loss(api: Api) -> None:
    """R7.6, R8.4: penalty points go to the opponent; R7.4: out of time loses, keeping the points won."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    points = day.score("main.R1.1", ORGANISER, penalty={"player": home, "points": 1, "reason": "slow play"})
    assert points.status == 200, points.body
    assert points.body["score"] == [0, 1] and points.body["history"][0]["reason"] == "slow play"
    assert day.game("main.R1.1", home).status == 200
    timed = day.score("main.R1.1", ORGANISER, time_loss={"player": away})
    assert timed.status == 200 and timed.body["state"] == "finished"
    official = day.confirm("main.R1.1")
    assert official.status == 200, official.body
    assert official.body["result"] == {
        "winner": home,
        "home_points": 3,
        "away_points": 1,
        "forfeit": False,
        "how": "time",
    }
    actions = [r.action for r in audit_store.records(day.tid, 20)[0]]
    assert {"penalty_points", "time_loss", "game_recorded", "result_confirmed"} <= set(actions)


def test_agreement_waits_for_staff_then_official_fills_and_calls_the_final(
    api: Api, published: list[tuple[str, dict[str, Any]]]
) -> None:
    """R7.5: both report alike -> finished; staff confirm -> official; R5.3: the final filled, called."""
    day = Day(api)
    home, away = day.players("main.R1.1")
    assert day.game("main.R1.1", away, result="backgammon").status == 200
    assert day.report("main.R1.1", home, 0, 3).status == 200
    agreed = day.report("main.R1.1", away, 0, 3)
    assert agreed.status == 200 and agreed.body["state"] == "finished"
    assert agreed.body["reported"] == ["home", "away"]
    declared = [(d["side"], d["home_points"], d["away_points"]) for d in agreed.body["declared"]]
    assert declared == [("home", 0, 3), ("away", 0, 3)]
    official = day.confirm("main.R1.1")
    assert official.status == 200, official.body
    assert official.body["state"] == "official" and official.body["result"]["winner"] == away
    day.win("main.R1.2", home_wins=True)
    final = day.get("main.R2.1")
    assert final["state"] == "called" and final["table"] is not None
    assert final["home"]["tavla_id"] == away
    confirmed = [d["code"] for kind, d in published if kind == events.RESULT_CONFIRMED]
    assert confirmed == ["main.R1.1", "main.R1.2"]
    assert any(kind == events.MATCHES_CALLED and d["codes"] == ["main.R2.1"] for kind, d in published)


def test_confirming_the_same_result_again_changes_nothing(
    api: Api, published: list[tuple[str, dict[str, Any]]]
) -> None:
    """R7.5: a second confirmation (a double tap) is 200 and writes nothing, publishes nothing."""
    day = Day(api)
    day.win("main.R1.1")
    before = day.get("main.R1.1")
    count = len(published)
    again = day.confirm("main.R1.1")
    assert again.status == 200 and again.body == before
    again = day.confirm("main.R1.1", {"home_points": 3, "away_points": 0})
    assert again.status == 200 and again.body == before
    assert len(published) == count


def test_a_result_is_locked_once_a_dependent_match_has_started(api: Api) -> None:
    """R9.4: both semi-finals official, the final started: changing a semi-final's result is 409."""
    day = Day(api)
    day.win("main.R1.1")
    day.win("main.R1.2")
    home, _ = day.players("main.R2.1")
    changed = day.confirm("main.R1.1", {"home_points": 0, "away_points": 3})
    assert changed.status == 200 and changed.body["result"]["home_points"] == 0  # the final has not started
    home, _ = day.players("main.R2.1")
    assert day.game("main.R2.1", home).status == 200
    locked = day.confirm("main.R1.1", {"home_points": 3, "away_points": 0})
    assert (locked.status, locked.error) == (409, "result_locked")
    assert day.get("main.R1.1")["result"]["home_points"] == 0
