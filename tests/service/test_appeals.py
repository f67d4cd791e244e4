"""Appeals (R9.1-R9.5): the window, the frozen result, the referee or a committee, the bracket."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from tavla import clock
from tavla.store.records import FixtureRecord
from tests.service.conftest import Api, Reply
from tests.service.day_helpers import audit_trail, checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    yield
    clock.reset()


def _user(ids: list[str], tavla_id: str | None) -> str:
    assert tavla_id is not None
    return f"player-{ids.index(tavla_id)}"


def _appeal(api: Api, tournament_id: str, code: str, user: str, kind: str = "score") -> Reply:
    return api.call(
        "POST",
        "/matches/{match_id}/appeals",
        params={"match_id": f"{tournament_id}.{code}"},
        body={"kind": kind, "statement": "The last game was a gammon, not a single game."},
        user=user,
    )


def _decide(api: Api, appeal_id: str, body: dict[str, Any], user: str = ORGANISER) -> Reply:
    return api.call(
        "POST",
        "/appeals/{appeal_id}/decision",
        params={"appeal_id": appeal_id},
        body={"reasoning": "Both players heard; the score sheet decides.", **body},
        user=user,
        groups=("organisers",) if user == ORGANISER else (),
    )


def _day(api: Api, players: int, profile: str = "platform") -> tuple[str, list[str]]:
    tournament_id, ids = checked_in_field(api, players, rule_profile=profile)
    assert draw(api, tournament_id).status == 201
    return tournament_id, ids


def test_an_appeal_within_the_window_is_accepted_and_freezes_the_result(api: Api) -> None:
    """R9.1, R9.2: the loser appeals 14 minutes after the end: 201; the match holds the appeal;
    a second appeal on it is refused while the first is open."""
    tournament_id, ids = _day(api, 4)
    match = official(tournament_id, "main.R1.1")
    clock.advance(timedelta(minutes=14))
    reply = _appeal(api, tournament_id, "main.R1.1", _user(ids, match.away))
    assert reply.status == 201, reply.body
    assert reply.body["status"] == "open" and reply.body["appellant"] == match.away
    assert reply.body["id"].startswith(tournament_id + ".")
    assert records(tournament_id)["main.R1.1"].appeal == reply.body["id"]
    again = _appeal(api, tournament_id, "main.R1.1", _user(ids, match.home))
    assert (again.status, again.error) == (409, "appeal_open")


def test_only_a_player_of_the_match_may_appeal(api: Api) -> None:
    """R9.1: a player of another match and the organiser are refused."""
    tournament_id, ids = _day(api, 4)
    official(tournament_id, "main.R1.1")
    other = records(tournament_id)["main.R1.2"].home
    reply = _appeal(api, tournament_id, "main.R1.1", _user(ids, other))
    assert (reply.status, reply.error) == (403, "not_your_match")


def test_a_frozen_result_holds_the_dependent_match_until_the_decision(api: Api) -> None:
    """R9.2: while R1.1 is under appeal the final is not called, though both semi-finals are
    official; the referee dismisses the appeal and the final is called."""
    tournament_id, ids = _day(api, 4)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    official(tournament_id, "main.R1.2")
    final = records(tournament_id)["main.R2.1"]
    assert (final.state, final.table) == ("queued", None)
    assert (final.home, final.away) != (None, None)
    decided = _decide(api, appeal["id"], {"outcome": "dismissed"})
    assert decided.status == 200, decided.body
    assert decided.body["route"] == "referee" and decided.body["outcome"] == "dismissed"
    final = records(tournament_id)["main.R2.1"]
    assert final.state == "called" and final.table is not None
    assert records(tournament_id)["main.R1.1"].appeal is None


def test_the_referee_upholds_an_appeal_and_the_bracket_moves_on_from_the_new_result(api: Api) -> None:
    """R9.3, R9.4, R9.5 (platform): the referee gives R1.1 to the appellant: the final, called
    already but not started, goes back to the queue on appeal, then gets the appellant; both
    players are told, with the reasoning, each in their language."""
    tournament_id, ids = _day(api, 4)
    semi = official(tournament_id, "main.R1.1")
    official(tournament_id, "main.R1.2")
    assert records(tournament_id)["main.R2.1"].home == semi.home
    assert records(tournament_id)["main.R2.1"].state == "called"
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    assert records(tournament_id)["main.R2.1"].state == "queued"
    assert api.call("PATCH", "/me", body={"language": "it"}, user=_user(ids, semi.home)).status == 200
    refused = _decide(api, appeal["id"], {"outcome": "upheld"}, user=_user(ids, semi.away))
    assert (refused.status, refused.error) == (403, "not_staff")
    reply = _decide(api, appeal["id"], {"outcome": "upheld", "new_result": {"winner": semi.away}})
    assert reply.status == 200, reply.body
    assert reply.body["new_result"]["winner"] == semi.away
    after = records(tournament_id)
    assert after["main.R1.1"].result is not None and after["main.R1.1"].result.winner == semi.away
    assert after["main.R1.1"].result.how == "decision"
    assert after["main.R2.1"].home == semi.away and after["main.R2.1"].state == "called"
    for player, words in ((semi.home, "Il ricorso"), (semi.away, "ένσταση")):
        notes = api.call("GET", "/me/notifications", user=_user(ids, player)).body
        # each in their own language: Italian chosen, else the federation's Greek
        assert any("score sheet decides" in n["message"] and words in n["message"] for n in notes), notes
    again = _decide(api, appeal["id"], {"outcome": "dismissed"})
    assert (again.status, again.error) == (409, "appeal_decided")


def _committee_case(api: Api, profile: str, votes: list[bool]) -> tuple[Reply, FixtureRecord, str]:
    tournament_id, ids = _day(api, 8, profile)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away), kind="decision").body
    impartial = [p for p in ids if p not in (semi.home, semi.away)][: len(votes)]
    reply = _decide(
        api,
        appeal["id"],
        {"committee": {"members": impartial, "votes": votes}, "new_result": {"winner": semi.away}},
    )
    return reply, semi, tournament_id


def test_hbf_two_of_three_do_not_overturn_the_referee(api: Api) -> None:
    """R9.5 (hbf 6.3): a committee of three overturns only unanimously: 2 of 3 leave the result."""
    reply, semi, tournament_id = _committee_case(api, "hbf", [True, True, False])
    assert reply.status == 200, reply.body
    assert (reply.body["outcome"], reply.body["route"]) == ("dismissed", "committee")
    assert reply.body["votes"] == [True, True, False] and len(reply.body["members"]) == 3
    assert records(tournament_id)["main.R1.1"].result.winner == semi.home  # type: ignore[union-attr]


def test_hbf_three_of_three_overturn_the_referee(api: Api) -> None:
    """R9.5 (hbf 6.3): unanimous: overturned, the new result stands and flows on."""
    reply, semi, tournament_id = _committee_case(api, "hbf", [True, True, True])
    assert reply.body["outcome"] == "upheld", reply.body
    after = records(tournament_id)
    assert after["main.R1.1"].result.winner == semi.away  # type: ignore[union-attr]
    assert after["main.R2.1"].home == semi.away


def test_cnb_a_simple_majority_of_five_overturns(api: Api) -> None:
    """R9.5 (cnb 1.3.2, 5.2): three of five is a majority: the decision changes."""
    reply, semi, tournament_id = _committee_case(api, "cnb", [True, False, True, False, True])
    assert reply.body["outcome"] == "upheld", reply.body
    assert records(tournament_id)["main.R1.1"].result.winner == semi.away  # type: ignore[union-attr]


def test_cnb_one_of_three_is_no_majority(api: Api) -> None:
    """R9.5 (cnb 5.2): one of three: the director's decision stands."""
    reply, semi, tournament_id = _committee_case(api, "cnb", [True, False, False])
    assert reply.body["outcome"] == "dismissed", reply.body
    assert records(tournament_id)["main.R1.1"].result.winner == semi.home  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("profile", "who", "code"),
    [
        ("hbf", "party", "committee_not_impartial"),
        ("cnb", "party", "committee_not_impartial"),
        ("hbf", "two", "invalid_committee"),
        ("cnb", "four", "invalid_committee"),
        ("platform", "three", "invalid_committee"),
    ],
)
def test_a_committee_that_does_not_fit_the_rules_is_refused(
    api: Api, profile: str, who: str, code: str
) -> None:
    """R9.5: nobody party to the match sits on the committee; hbf three, cnb three or five;
    under platform rules there is no committee. Nothing is decided."""
    tournament_id, ids = _day(api, 8, profile)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    others = [p for p in ids if p not in (semi.home, semi.away)]
    choices: dict[str, list[Any]] = {
        "party": [semi.home, others[0], others[1]],
        "two": others[:2],
        "four": others[:4],
        "three": others[:3],
    }
    members = choices[who]
    reply = _decide(api, appeal["id"], {"committee": {"members": members, "votes": [True] * len(members)}})
    assert (reply.status, reply.error) == (422, code)
    assert records(tournament_id)["main.R1.1"].appeal == appeal["id"]


def test_the_parties_and_staff_read_the_appeal_and_nobody_else(api: Api) -> None:
    """R9.3, R12: the appellant, the opponent and the organiser read it; another player may not."""
    tournament_id, ids = _day(api, 4)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    other = records(tournament_id)["main.R1.2"].home
    for user, groups, status in (
        (_user(ids, semi.away), (), 200),
        (_user(ids, semi.home), (), 200),
        (ORGANISER, ("organisers",), 200),
        (_user(ids, other), (), 403),
    ):
        reply = api.call(
            "GET", "/appeals/{appeal_id}", params={"appeal_id": appeal["id"]}, user=user, groups=groups
        )
        assert reply.status == status, (user, reply.body)
    missing = api.call("GET", "/appeals/{appeal_id}", params={"appeal_id": "nothing"}, user=ORGANISER)
    assert (missing.status, missing.error) == (404, "appeal_not_found")


def test_lodging_and_deciding_are_in_the_audit_trail(api: Api) -> None:
    """R9.3, R2.3: the federation report reads appeals and decisions with their reasoning."""
    tournament_id, ids = _day(api, 4)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    _decide(api, appeal["id"], {"outcome": "dismissed"})
    by_action = {e["action"]: e for e in audit_trail(api, tournament_id)}
    assert by_action["appeal_lodged"]["details"]["appeal_id"] == appeal["id"]
    decided = by_action["appeal_decided"]["details"]
    assert decided["outcome"] == "dismissed" and "score sheet" in decided["reasoning"]


def test_a_swiss_appeal_holds_the_appellants_next_round_match_not_the_others(api: Api) -> None:
    """R9.2: round 2 is drawn and called; a round-1 result is appealed within the window: the
    round-2 matches of its players go back to the queue; a match of two others plays on."""
    tournament_id, ids = checked_in_field(api, 6, format="swiss", swiss_rounds=3)
    assert draw(api, tournament_id).status == 201
    for board in (1, 2, 3):
        official(tournament_id, f"main.S1.{board}")
    assert draw(api, tournament_id).status == 201
    appealed = records(tournament_id)["main.S1.1"]
    reply = _appeal(api, tournament_id, "main.S1.1", _user(ids, appealed.away))
    assert reply.status == 201, reply.body
    parties = {appealed.home, appealed.away}
    second = [r for r in records(tournament_id).values() if r.draw == 2]
    held = {r.code for r in second if parties & {r.home, r.away}}
    assert held and all(r.state == "queued" and r.table is None for r in second if r.code in held)
    assert all(r.state == "called" for r in second if r.code not in held)


def test_an_open_appeal_freezes_the_result_against_confirmation(api: Api) -> None:
    """R9.2: a player appeals a referee's decision during play: staff cannot confirm a result
    until the appeal is decided; afterwards they can."""
    tournament_id, ids = _day(api, 4)
    match = records(tournament_id)["main.R1.2"]
    appeal = _appeal(api, tournament_id, "main.R1.2", _user(ids, match.home), kind="decision").body
    score = {"home_points": match.length, "away_points": 0}
    confirm = {
        "params": {"match_id": f"{tournament_id}.main.R1.2"},
        "body": score,
        "user": ORGANISER,
        "groups": ("organisers",),
    }
    refused = api.call("POST", "/matches/{match_id}/confirm", **confirm)
    assert (refused.status, refused.error) == (409, "appeal_open")
    assert _decide(api, appeal["id"], {"outcome": "dismissed"}).status == 200
    confirmed = api.call("POST", "/matches/{match_id}/confirm", **confirm)
    assert confirmed.status == 200, confirmed.body
    assert records(tournament_id)["main.R1.2"].state == "official"


def test_a_decision_sets_only_a_score_a_match_can_end_with(api: Api) -> None:
    """R9.3, R7.5: the new result is a final score in the official form (the winner has the
    length, the other less): 12-0 or 7-7 in a 7-point match is refused and nothing changes."""
    tournament_id, ids = _day(api, 4)
    semi = official(tournament_id, "main.R1.1")
    appeal = _appeal(api, tournament_id, "main.R1.1", _user(ids, semi.away)).body
    before = records(tournament_id)
    length = before["main.R1.1"].length
    for home, away in ((length + 5, 0), (length, length), (length - 1, 0)):
        body = {"outcome": "upheld", "new_result": {"home_points": home, "away_points": away}}
        reply = _decide(api, appeal["id"], body)
        assert (reply.status, reply.error) == (422, "invalid_decision"), (home, away, reply.body)
    assert records(tournament_id) == before
    fine = {"outcome": "upheld", "new_result": {"home_points": 2, "away_points": length}}
    assert _decide(api, appeal["id"], fine).status == 200
    decided = records(tournament_id)["main.R1.1"].result
    assert decided is not None and decided.winner == semi.away
