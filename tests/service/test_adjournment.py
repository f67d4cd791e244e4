"""Adjourned matches and breaks, wired (R7.7): routes, the deadline and overrun schedules, the
position's photo in the private store. The state machines are unit tests (tests/unit/rules)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import boto3

from tavla import clock, events, statement_files
from tests.service.helpers import ORGANISER
from tests.service.test_noshow import Day, day, schedules

__all__ = ["day"]
MATCH = "main.R1.1"


def _post(d: Day, path: str, body: Any = None, user: str = ORGANISER, code: str = MATCH) -> Any:
    return d.api.call("POST", path, params={"match_id": f"{d.tournament_id}.{code}"}, body=body, user=user)


def _detail(d: Day, code: str = MATCH) -> dict[str, Any]:
    reply = d.api.call("GET", "/matches/{match_id}", params={"match_id": f"{d.tournament_id}.{code}"})
    return dict(reply.body)


def _kinds() -> list[str]:
    return [str(s["Target"]["Input"]) for s in schedules()]


def test_adjourned_with_its_photo_resumed_at_a_free_table_and_overdue_told_to_the_referee(day: Any) -> None:
    d = day(players=4)
    d.pump()
    _, home_user = d.side_of("home")
    form = _post(d, "/matches/{match_id}/adjournment-photo", {"content_type": "image/jpeg"})
    assert form.status == 200, form.body
    assert form.body["key"].startswith(f"adjournments/{d.tournament_id}/{MATCH}/")
    assert ["content-length-range", 1, form.body["max_bytes"]] in _policy_conditions(form.body["fields"])
    boto3.client("s3").put_object(Bucket=statement_files._bucket(), Key=form.body["key"], Body=b"jpeg")
    resume_by = clock.now() + timedelta(hours=2)
    body = {
        "reason": "Hall closes",
        "resume_by": resume_by.isoformat(),
        "cube_value": 2,
        "cube_owner": "home",
    }
    refused = _post(d, "/matches/{match_id}/adjourn", {**body, "photo": "adjournments/elsewhere.jpg"})
    assert refused.status == 422 and "photo_not_of_match" in str(refused.body), refused.body
    past = _post(d, "/matches/{match_id}/adjourn", {**body, "resume_by": clock.now().isoformat()})
    assert past.status == 422 and "resume_by_past" in str(past.body), past.body
    assert d.match().state == "called"
    adjourned = _post(d, "/matches/{match_id}/adjourn", {**body, "photo": form.body["key"]})
    assert adjourned.status == 200, adjourned.body
    assert (adjourned.body["state"], adjourned.body["table"]) == ("adjourned", None)
    shown = _detail(d)["adjournment"]
    assert (shown["cube_value"], shown["cube_owner"], shown["table"], shown["photo"]) == (2, "home", 1, True)
    assert any('"kind": "adjournment"' in k for k in _kinds())
    link = d.api.call(
        "GET",
        "/matches/{match_id}/adjournment-photo",
        params={"match_id": f"{d.tournament_id}.{MATCH}"},
        user=home_user,
    )
    assert link.status == 200 and form.body["key"] in link.body["url"]
    stranger = d.api.call(
        "GET",
        "/matches/{match_id}/adjournment-photo",
        params={"match_id": f"{d.tournament_id}.{MATCH}"},
        user=d.side_of("home", "main.R1.2")[1],
    )
    assert stranger.status == 403
    d.fire(resume_by + timedelta(seconds=1))
    assert "adjournment_overdue" in _detail(d)["flags"]
    ruled = [x for k, x in d.published if k == events.NOSHOW_RULED and x["code"] == MATCH]
    assert [r["outcome"] for r in ruled] == ["adjournment_overdue"]
    resumed = _post(d, "/matches/{match_id}/resume")
    assert resumed.status == 200, resumed.body
    assert (resumed.body["state"], resumed.body["table"], resumed.body["present"]) == (
        "called",
        1,
        ["home", "away"],
    )
    assert "adjournment_overdue" not in _detail(d)["flags"]
    again = _post(d, "/matches/{match_id}/resume")
    assert again.status == 409 and "match_not_in_play" in str(again.body)


def _policy_conditions(fields: dict[str, str]) -> list[Any]:
    import base64
    import json

    return list(json.loads(base64.b64decode(fields["policy"]))["conditions"])


def test_a_cnb_break_shows_what_is_left_and_its_overrun_costs_a_point(day: Any) -> None:
    lengths = {"default": 9, "semi_final": 9, "final": 9}
    d = day(profile="cnb", match_lengths=lengths)
    home, home_user = d.side_of("home")
    params = {"match_id": f"{d.tournament_id}.{MATCH}"}
    refused = _post(d, "/matches/{match_id}/breaks", {}, user=home_user)
    assert refused.status == 409 and "break_refused" in str(refused.body)  # no game over yet
    game = {"version": d.match().version, "game": {"winner": home}}
    assert (
        d.api.call("PUT", "/matches/{match_id}/score", params=params, body=game, user=ORGANISER).status == 200
    )
    started = _post(d, "/matches/{match_id}/breaks", {}, user=home_user)
    assert started.status == 200, started.body
    breaks = _detail(d)["breaks"]
    ends = datetime.fromisoformat(breaks["ends_at"])
    assert (breaks["left"], breaks["running"]) == ({"home": 0, "away": 1}, ["home"])
    d.fire(ends + timedelta(minutes=5))
    shown = _detail(d)
    assert (shown["score"], shown["breaks"]["overrun_points"]) == ([1, 1], {"home": 1})
    clock.advance(ends + timedelta(minutes=6) - clock.now())
    assert _post(d, "/matches/{match_id}/breaks/back", {}, user=home_user).status == 200
    shown = _detail(d)
    assert (shown["score"], shown["breaks"]["running"]) == ([1, 1], [])
    assert not any('"kind": "break"' in k for k in _kinds())  # the steps ahead are gone
