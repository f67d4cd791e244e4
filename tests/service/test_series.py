"""A cnb best-of-three series of 7-point matches, wired (cnb 2.2.2): the page's setting, the
legs on the match, breaks only between legs, the overrun's point in the next leg, the result in
matches won. The rules are unit tests (tests/unit/rules/test_series.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tavla import clock
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_tournament, tournament_body
from tests.service.test_adjournment import _detail, _post
from tests.service.test_noshow import Day, day

__all__ = ["day"]
MATCH = "main.R1.1"


def _game(d: Day, winner: str) -> None:
    params = {"match_id": f"{d.tournament_id}.{MATCH}"}
    body = {"version": d.match().version, "game": {"winner": winner}}
    reply = d.api.call("PUT", "/matches/{match_id}/score", params=params, body=body, user=ORGANISER)
    assert reply.status == 200, reply.body


def test_only_a_cnb_page_sets_a_series_and_its_matches_are_seven_points(api: Api) -> None:
    for profile in ("hbf", "platform"):
        body = tournament_body(rule_profile=profile, series=True)
        refused = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",))
        assert refused.status == 422 and "series_not_in_profile" in str(refused.body), refused.body
    body = tournament_body(rule_profile="cnb", series=True, match_lengths={"default": 9})
    refused = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",))
    assert refused.status == 422 and "9" in str(refused.body), refused.body
    tournament_id = create_tournament(api, rule_profile="cnb", series=True)
    page = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tournament_id})
    rules = page.body["rules"]
    assert (rules["series"], rules["match_length"], rules["final_length"]) == (True, 7, 7)


def test_a_cnb_series_breaks_between_legs_only_and_its_result_is_matches_won(day: Any) -> None:
    d = day(profile="cnb", series=True)
    home, home_user = d.side_of("home")
    away, away_user = d.side_of("away")
    _game(d, home)
    refused = _post(d, "/matches/{match_id}/breaks", {}, user=home_user)
    assert refused.status == 409 and "break_not_between_legs" in str(refused.body), refused.body
    assert _detail(d)["breaks"]["allowed_now"] is False
    for _ in range(6):
        _game(d, home)
    shown = _detail(d)
    assert (shown["best_of"], shown["legs"], shown["state"]) == (3, [[7, 0]], "playing")
    assert shown["breaks"]["allowed_now"] is True
    started = _post(d, "/matches/{match_id}/breaks", {}, user=home_user)
    assert started.status == 200, started.body
    ends = datetime.fromisoformat(_detail(d)["breaks"]["ends_at"])
    d.fire(ends + timedelta(minutes=5))  # cnb: a point 5 minutes after the break's end
    shown = _detail(d)
    assert (shown["legs"], shown["score"], shown["breaks"]["overrun_points"]) == (
        [[7, 0]],
        [0, 1],
        {"home": 1},
    )
    clock.advance(ends + timedelta(minutes=6) - clock.now())
    assert _post(d, "/matches/{match_id}/breaks/back", {}, user=home_user).status == 200
    for _ in range(7):
        _game(d, home)
    shown = _detail(d)
    assert (shown["legs"], shown["state"]) == ([[7, 0], [7, 1]], "finished")
    params = {"match_id": f"{d.tournament_id}.{MATCH}"}
    wrong = d.api.call(
        "POST",
        "/matches/{match_id}/report",
        params=params,
        body={"home_points": 7, "away_points": 1},
        user=home_user,
    )
    assert wrong.status == 422 and "impossible_score" in str(wrong.body), wrong.body
    for user in (home_user, away_user):
        body = {"home_points": 2, "away_points": 0}
        reply = d.api.call("POST", "/matches/{match_id}/report", params=params, body=body, user=user)
        assert reply.status == 200, reply.body
    confirmed = d.api.call("POST", "/matches/{match_id}/confirm", params=params, body=None, user=ORGANISER)
    assert confirmed.status == 200, confirmed.body
    result = _detail(d)["result"]
    assert (result["winner"], result["home_points"], result["away_points"]) == (home, 2, 0)
    assert away != home


def test_players_who_kept_no_live_score_report_the_series_with_its_matches(day: Any) -> None:
    d = day(profile="cnb", series=True)
    _, home_user = d.side_of("home")
    _, away_user = d.side_of("away")
    params = {"match_id": f"{d.tournament_id}.{MATCH}"}
    legs = [{"home_points": 3, "away_points": 7}, {"home_points": 7, "away_points": 6}]
    wrong = {"home_points": 0, "away_points": 2, "legs": legs}  # the matches make 1-1
    reply = d.api.call("POST", "/matches/{match_id}/report", params=params, body=wrong, user=home_user)
    assert reply.status == 422 and "impossible_score" in str(reply.body), reply.body
    legs.append({"home_points": 2, "away_points": 7})
    for user in (home_user, away_user):
        body = {"home_points": 1, "away_points": 2, "legs": legs}
        reply = d.api.call("POST", "/matches/{match_id}/report", params=params, body=body, user=user)
        assert reply.status == 200, reply.body
    confirmed = d.api.call("POST", "/matches/{match_id}/confirm", params=params, body=None, user=ORGANISER)
    assert confirmed.status == 200, confirmed.body
    shown = _detail(d)
    assert (shown["result"]["home_points"], shown["result"]["away_points"]) == (1, 2)
    assert shown["legs"] == [[3, 7], [7, 6], [2, 7]]
