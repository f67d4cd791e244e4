"""A late entrant (R5.5, R5.7) is entered as much as a registered player where their own data
is concerned: their erasure waits for the tournament to be over and their profile lists the
tournament for their needs at the tables. A late-entry start the format has no use for is
refused, with nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.store import tournaments as tournament_store
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER, create_player

ORG = {"user": ORGANISER, "groups": ("organisers",)}


def _late_entrant(api: Api, user: str) -> tuple[str, str]:
    """A Swiss of 4 after its first round, with `user` entered late: (tournament, their Tavla ID)."""
    tid, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=3)
    late = create_player(api, user, name="Late Comer", phone="+306900000042")
    params = {"tournament_id": tid}
    policy = {"open": True, "points": "half_per_missed_round"}
    assert (
        api.call("PUT", "/tournaments/{tournament_id}/late-entry", params=params, body=policy, **ORG).status
        == 200
    )
    assert draw(api, tid).status == 201
    for code, match in records(tid).items():
        if match.away:
            official(tid, code)
    entry = {"tavla_id": late}
    reply = api.call("POST", "/tournaments/{tournament_id}/late-entries", params=params, body=entry, **ORG)
    assert reply.status == 201, reply.body
    return tid, late


def test_a_late_entrant_cannot_erase_their_account_while_the_tournament_runs(api: Api) -> None:
    tid, late = _late_entrant(api, "late-comer")
    reply = api.call("POST", "/me/erasure", body={"confirm": late}, user="late-comer")
    assert (reply.status, reply.error) == (409, "entries_open"), reply.body
    assert tid in reply.body["error"]["message"]
    me = api.call("GET", "/me", user="late-comer").body
    assert (me["name"], me["phone"]) == ("Late Comer", "+306900000042")


def test_a_late_entrant_sets_their_need_from_their_profile(api: Api) -> None:
    tid, late = _late_entrant(api, "late-comer")
    [listed] = api.call("GET", "/me/table-needs", user="late-comer").body["needs"]
    assert (listed["tournament_id"], listed["accessible"]) == (tid, False) and listed["name"]
    params = {"tournament_id": tid, "tavla_id": late}
    body = {"accessible": True}
    reply = api.call(
        "PUT", "/tournaments/{tournament_id}/needs/{tavla_id}", params=params, body=body, user="late-comer"
    )
    assert reply.status == 200, reply.body
    [listed] = api.call("GET", "/me/table-needs", user="late-comer").body["needs"]
    assert listed["accessible"] is True


@pytest.mark.parametrize(
    ("settings", "policy"),
    [
        ({"format": "lives", "lives": 3}, {"open": True, "points": "half_per_missed_round"}),
        ({"format": "swiss", "swiss_rounds": 3}, {"open": True, "lives": 2}),
    ],
    ids=["points-for-lives", "lives-for-swiss"],
)
def test_a_start_the_format_does_not_use_is_refused_and_changes_nothing(
    api: Api, settings: dict[str, Any], policy: dict[str, Any]
) -> None:
    tid, _ = checked_in_field(api, 4, **settings)
    before = tournament_store.get(tid)
    params = {"tournament_id": tid}
    reply = api.call("PUT", "/tournaments/{tournament_id}/late-entry", params=params, body=policy, **ORG)
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    after = tournament_store.get(tid)
    assert after.late_entry == before.late_entry and not after.late_entry


def test_a_late_entrants_name_shows_when_staff_confirm_his_match(api: Api) -> None:
    """The confirmation's answer names both players; the function that confirmed round 1 knew
    the field before the late entry, and still names the late entrant in round 2."""
    from tavla.services.day import match_id

    tid, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=3)
    params = {"tournament_id": tid}
    policy = {"open": True, "points": "half_per_missed_round"}
    reply = api.call("PUT", "/tournaments/{tournament_id}/late-entry", params=params, body=policy, **ORG)
    assert reply.status == 200, reply.body
    assert draw(api, tid).status == 201

    def confirm(code: str) -> dict[str, Any]:
        match = records(tid)[code]
        body = {"home_points": match.length, "away_points": 0}
        reply = api.call(
            "POST", "/matches/{match_id}/confirm", params={"match_id": match_id(tid, code)}, body=body, **ORG
        )
        assert reply.status == 200, reply.body
        return dict(reply.body)

    first, *rest = [code for code, match in records(tid).items() if match.away]
    answer = confirm(first)
    assert answer["home"]["name"] and answer["away"]["name"]
    for code in rest:
        official(tid, code)
    late = create_player(api, "late-comer", name="Late Comer", phone="+306900000042")
    entry = {"tavla_id": late}
    assert (
        api.call("POST", "/tournaments/{tournament_id}/late-entries", params=params, body=entry, **ORG).status
        == 201
    )
    assert draw(api, tid).status == 201
    [code] = [c for c, m in records(tid).items() if m.round == 2 and late in (m.home, m.away) and m.away]
    answer = confirm(code)
    names = {
        answer["home"]["tavla_id"]: answer["home"]["name"],
        answer["away"]["tavla_id"]: answer["away"]["name"],
    }
    assert names[late] == "Late Comer"
    assert all(names.values())
