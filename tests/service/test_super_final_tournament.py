"""The Super Final as a tournament (R10.4, R5.7): a lives event of the players who accepted,
each starting with the lives of their season place; its winner the season's champion."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tavla import clock
from tests.service.conftest import Api
from tests.service.day_helpers import draw
from tests.service.season_helpers import Published, bus, deliver, play_out
from tests.service.test_super_final_invitations import ADMIN, SEASON, answer, closed_season, user_of

__all__ = ["bus"]

ORG = {"user": "season-org"}
LIVES = {"tiers": [{"up_to_place": 1, "lives": 3}, {"up_to_place": 2, "lives": 2}], "other_lives": 1}


def create(api: Api, **who: Any) -> Any:
    body = {"venue": "Athens Hall", "starts_at": (clock.now() + timedelta(days=20)).isoformat()}
    return api.call(
        "POST", "/seasons/{season_id}/super-final", params={"season_id": SEASON}, body=body, **who
    )


def test_the_final_is_a_lives_tournament_of_those_who_accepted_with_lives_by_place(
    api: Api, bus: Published
) -> None:
    """R10.4, R5.7: not while an invited player is still to answer; then the organiser's request
    makes one lives tournament (asked again: the same one) with the accepted players entered,
    lives 3/2/1 by season place; round 1 gives the BYE to the player with the fewest lives;
    played out and finished, its winner is the season's champion on the standings."""
    order = closed_season(api, bus, final_lives=LIVES)
    for n in (0, 1):
        assert answer(api, user_of(api, order[n]), "accept").status == 200
    early = create(api, **ORG)
    assert (early.status, early.error) == (409, "invitations_pending")
    assert answer(api, user_of(api, order[2]), "decline").status == 200
    assert answer(api, user_of(api, order[3]), "accept").status == 200
    assert create(api, user=user_of(api, order[0])).status == 403
    made = create(api, **ORG)
    assert made.status == 201, made.body
    assert made.body["lives_by_player"] == {order[0]: 3, order[1]: 2, order[3]: 1}
    again = create(api, **ADMIN)
    assert (again.status, again.body["tournament_id"]) == (200, made.body["tournament_id"])
    tid = made.body["tournament_id"]
    page = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    assert (page["format"], page["registered"], page["lives_by_player"]) == (
        "lives",
        3,
        made.body["lives_by_player"],
    )
    for tavla_id in order[:2] + order[3:4]:
        checked = api.call(
            "POST",
            "/tournaments/{tournament_id}/checkins",
            params={"tournament_id": tid},
            body={"tavla_id": tavla_id},
            **ORG,
        )
        assert checked.status == 200, checked.body
    first = draw(api, tid, user="season-org")
    assert first.status == 201, first.body
    [bye] = [p for p in first.body["pairings"] if not p.get("away")]
    assert bye["home"]["tavla_id"] == order[3]
    rounds = 1
    while True:
        play_out(tid, lambda m: m.home == order[0] or m.away != order[0])
        if draw(api, tid, user="season-org").status != 201:
            break
        rounds += 1
    done = api.call("POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tid}, **ORG)
    assert done.status == 200, done.body
    deliver(bus)
    standings = api.call("GET", "/seasons/{season_id}/standings", params={"season_id": SEASON}).body
    assert standings["champion"]["tavla_id"] == order[0] and standings["champion"]["place"] == 1
    season = api.call("GET", "/seasons/{season_id}", params={"season_id": SEASON}).body
    assert (season["champion"], season["super_final_id"]) == (order[0], tid)
    assert rounds >= 3  # three lives to take from the leader's rivals' one and two
