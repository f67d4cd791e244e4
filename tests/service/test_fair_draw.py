"""A draw nobody can shop (R5.1): the seed committed before check-in closes and revealed by the
draw, the organiser's preview, redraws with a reason; late entries in Swiss and lives (R5.5, R5.7)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from infra.registry import FUNCTIONS
from tavla import clock
from tavla.caller import Caller
from tavla.errors import StaleMatch
from tavla.rules.commitment import commitment, draw_seed
from tavla.rules.states import State
from tavla.services import commitment as commitment_service
from tavla.store import draws as draw_store
from tavla.store import keys
from tavla.store import matches as match_store
from tavla.store import ratings as rating_store
from tavla.store.dynamo import client, serialize, table_name
from tavla.store.records import FieldRecord, item_of
from tavla.store.schema import MAIN
from tests.service.conftest import Api
from tests.service.day_helpers import audit_trail, checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER, create_player, create_tournament
from tools.verify_draw import check_rounds

ORG = {"user": ORGANISER, "groups": ("organisers",)}


def _commit(tournament_id: str, seed: int = 3) -> str:
    """Commit with replayable randomness: the secret the test then knows."""
    made = commitment_service.commit(
        Caller(ORGANISER, frozenset({"organisers"})), tournament_id, clock.now(), random.Random(seed)
    )
    secret = f"{random.Random(seed).getrandbits(256):064x}"
    assert made.hash == commitment(secret)
    return secret


def _in(tournament_id: str, **more: str) -> dict[str, str]:
    return {"tournament_id": tournament_id, **more}


def _round(api: Api, tournament_id: str, number: int) -> dict[str, Any]:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/rounds/{number}", params=_in(tournament_id, number=str(number))
    )
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _pairs(pairings: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None]]:
    def tid(side: dict[str, Any] | str | None) -> str | None:
        return side["tavla_id"] if isinstance(side, dict) else side  # a round's match, or an earlier draw's

    return [(p["code"], tid(p.get("home")), tid(p.get("away"))) for p in pairings]


def test_the_seed_is_committed_before_the_draw_secret_until_it_and_revealed_by_it(api: Api) -> None:
    """R5.1: the page shows the seed's hash from the commit on; no route shows the seed before
    the draw; the draw reveals it, its seed follows from it, and the verifier agrees."""
    tournament_id, _ = checked_in_field(api, 6, format="swiss", swiss_rounds=3)
    secret = _commit(tournament_id)
    again = api.call("POST", "/tournaments/{tournament_id}/draw-commitment", params=_in(tournament_id), **ORG)
    assert again.status == 200 and again.body["hash"] == commitment(secret)  # asked again: the same
    page = api.call("GET", "/tournaments/{tournament_id}", params=_in(tournament_id)).body
    assert page["draw_commitment"]["hash"] == commitment(secret)
    walked = 0
    for function in FUNCTIONS:  # every GET of the tournament, as anyone and as its organiser
        for route in function.routes():
            if route.method != "GET" or "{" in route.path.replace("{tournament_id}", ""):
                continue
            for who in ({}, ORG):
                reply = api.call("GET", route.path, params=_in(tournament_id), **who)
                assert secret not in str(reply.body), route.path
                walked += 1
    assert walked > 10
    assert draw(api, tournament_id).status == 201
    published = _round(api, tournament_id, 1)
    assert published["revealed_seed"] == secret and published["seed"] == draw_seed(secret, 1, 1)
    assert check_rounds([published], commitment(secret)) == {1: []}
    assert check_rounds([published], commitment("another")) != {1: []}


def test_the_first_draw_commits_when_the_organiser_did_not(api: Api) -> None:
    """R5.1: check-in never closes without a commitment; one committed after drawing is refused."""
    tournament_id, _ = checked_in_field(api, 4)
    assert draw(api, tournament_id).status == 201
    page = api.call("GET", "/tournaments/{tournament_id}", params=_in(tournament_id)).body
    published = _round(api, tournament_id, 1)
    assert check_rounds([published], page["draw_commitment"]["hash"]) == {1: []}
    assert any(r["action"] == "seed_committed" for r in audit_trail(api, tournament_id))


def test_the_preview_is_what_the_draw_then_publishes(api: Api) -> None:
    """R5.1: the organiser's preview of the next round, from the committed seed, is the round
    the draw publishes (round 1 and round 2 of a Swiss); it shows no seed."""
    tournament_id, _ = checked_in_field(api, 8, format="swiss", swiss_rounds=3)
    early = api.call("GET", "/tournaments/{tournament_id}/draw-preview", params=_in(tournament_id), **ORG)
    assert early.status == 409 and early.body["error"]["code"] == "not_committed"
    _commit(tournament_id)
    for number in (1, 2):
        shown = api.call("GET", "/tournaments/{tournament_id}/draw-preview", params=_in(tournament_id), **ORG)
        assert shown.status == 200, shown.body
        assert "seed" not in shown.body
        drawn = draw(api, tournament_id)
        assert drawn.status == 201
        assert _pairs(shown.body["pairings"]) == _pairs(drawn.body["pairings"])
        assert shown.body["digest"] == drawn.body["digest"]
        for code, match in records(tournament_id).items():
            if match.draw == number and match.away:
                official(tournament_id, code)


def test_a_redraw_needs_a_reason_keeps_the_first_draw_and_stops_at_the_first_result(api: Api) -> None:
    """R5.1: 422 without a reason; the redraw is the next attempt of the committed seed, the
    first draw stays public with "redrawn: reason", the audit trail has it; once a result of
    the round is entered, 409."""
    tournament_id, _ = checked_in_field(api, 8, format="swiss", swiss_rounds=3)
    secret = _commit(tournament_id)
    first = draw(api, tournament_id).body
    path, params = "/tournaments/{tournament_id}/rounds/{number}/redraw", _in(tournament_id, number="1")
    assert api.call("POST", path, params=params, body={}, **ORG).status == 422
    before = records(tournament_id)
    redrawn = api.call("POST", path, params=params, body={"reason": "Player 3 was checked in twice"}, **ORG)
    assert redrawn.status == 200, redrawn.body
    body = redrawn.body
    assert body["attempt"] == 2 and body["seed"] == draw_seed(secret, 1, 2)
    assert body["redraws"][0]["reason"] == "Player 3 was checked in twice"
    assert _pairs(body["earlier"][0]["pairings"]) == _pairs(first["pairings"])  # the first draw stays
    assert body["earlier"][0]["seed"] == first["seed"]
    after = records(tournament_id)
    assert set(after) == set(before) and all(m.attempt == 2 for m in after.values())  # each written anew
    summary = api.call("GET", "/tournaments/{tournament_id}/rounds", params=_in(tournament_id)).body
    assert summary["rounds"][0]["redraws"][0]["reason"] == "Player 3 was checked in twice"
    assert check_rounds([_round(api, tournament_id, 1)], commitment(secret)) == {1: []}
    trail = [r for r in audit_trail(api, tournament_id) if r["action"] == "draw_redrawn"]
    assert trail and trail[0]["details"]["reason"] == "Player 3 was checked in twice"
    code = next(c for c, m in after.items() if m.away)
    official(tournament_id, code)
    refused = api.call("POST", path, params=params, body={"reason": "Again, please"}, **ORG)
    assert refused.status == 409 and refused.body["error"]["code"] == "round_played"
    assert _round(api, tournament_id, 1)["attempt"] == 2  # nothing changed


def test_a_late_entrant_joins_the_next_round_with_half_points_and_is_marked_late(api: Api) -> None:
    """R5.5: late entry opened with a half point per missed round; the entrant is paired in
    round 2, starts on 0.5 and the standings say late; closed again, nobody else enters."""
    tournament_id, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=3)
    late = create_player(api, "late-comer", name="Late Comer")
    entry = {"tavla_id": late}
    closed = api.call(
        "POST", "/tournaments/{tournament_id}/late-entries", params=_in(tournament_id), body=entry, **ORG
    )
    assert closed.status == 409 and closed.body["error"]["code"] == "late_entry_closed"
    policy = {"open": True, "points": "half_per_missed_round"}
    opened = api.call(
        "PUT", "/tournaments/{tournament_id}/late-entry", params=_in(tournament_id), body=policy, **ORG
    )
    assert opened.status == 200, opened.body
    assert draw(api, tournament_id).status == 201
    for code, match in records(tournament_id).items():
        if match.away:
            official(tournament_id, code)
    entered = api.call(
        "POST", "/tournaments/{tournament_id}/late-entries", params=_in(tournament_id), body=entry, **ORG
    )
    assert entered.status == 201, entered.body
    assert entered.body == {"tavla_id": late, "round": 2, "points": 0.5, "lives": None}
    twice = api.call(
        "POST", "/tournaments/{tournament_id}/late-entries", params=_in(tournament_id), body=entry, **ORG
    )
    assert twice.status == 409 and twice.body["error"]["code"] == "late_entry_refused"
    second = draw(api, tournament_id)
    assert second.status == 201, second.body
    assert any(
        late in (p["home"] or {}).get("tavla_id", "") + (p["away"] or {}).get("tavla_id", "")
        for p in second.body["pairings"]
    )
    table = api.call("GET", "/tournaments/{tournament_id}/standings", params=_in(tournament_id)).body
    row = next(r for r in table["events"][0]["rows"] if r["player"]["tavla_id"] == late)
    assert row["late_from_round"] == 2 and row["late_points"] == 0.5
    others = [r for r in table["events"][0]["rows"] if r["player"]["tavla_id"] != late]
    assert all(r["late_from_round"] is None for r in others)
    board = api.call("GET", "/tournaments/{tournament_id}/board", params=_in(tournament_id)).body
    assert board["late"] == [late]  # the pairings mark them


def _equal_field(tournament_id: str, players: int) -> None:
    """A field of equal ratings: the seed alone orders it, so each attempt pairs it anew."""
    entrants = tuple(
        {"player_id": f"P{i:05d}", "rating": 1500.0, "name": f"Player {i}", "club": f"Club {i % 9}"}
        for i in range(players)
    )
    field = FieldRecord(tournament_id=tournament_id, fixed_at="2026-12-01T09:00:00+00:00", entrants=entrants)
    item = {**keys.plain(keys.field(tournament_id)), **item_of(field), "entrants": list(entrants)}
    client().put_item(TableName=table_name(MAIN), Item=serialize(item))


class _DiesOnWrite:
    """The store's client, which raises on its `n`th BatchWriteItem (the Lambda dies there)."""

    def __init__(self, n: int) -> None:
        self.n, self.writes = n, 0
        self.real = client()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def batch_write_item(self, **request: Any) -> Any:
        self.writes += 1
        if self.writes == self.n:
            raise RuntimeError("the function died while staging")
        return self.real.batch_write_item(**request)


def _shown(api: Api, tournament_id: str) -> dict[str, Any]:
    """What readers show of round 1: its page, the board's pairings, each match's own page."""
    page = _round(api, tournament_id, 1)
    board = api.call("GET", "/tournaments/{tournament_id}/board", params=_in(tournament_id)).body
    on_board = [m for b in board["brackets"] for r in b["rounds"] for m in r["matches"]]
    codes = [p["code"] for p in (*page["pairings"][:3], page["pairings"][-1])]
    own = [
        api.call("GET", "/matches/{match_id}", params={"match_id": f"{tournament_id}.{c}"}).body
        for c in codes
    ]
    return {"page": page, "board": sorted(_pairs(on_board)), "own": _pairs(own)}


def test_a_round_of_128_matches_is_redrawn_whole_and_a_fault_while_staging_changes_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R5.1, decision 0047: a 256-player Swiss round (128 matches, more than one transaction
    holds) is staged under its attempt's keys and shown by one switch. A fault in the middle
    of staging leaves every reader on the first draw and the round's writes free; the retry
    redraws it, and then every reader shows the second attempt whole, the first draw stays on
    the page, and a write read on a match of the first draw is refused."""
    tournament_id = create_tournament(api, capacity=256, format="swiss", swiss_rounds=3)
    _equal_field(tournament_id, 256)
    secret = _commit(tournament_id)
    first = draw(api, tournament_id)
    assert first.status == 201, first.body
    before = records(tournament_id)
    assert len([m for m in before.values() if m.draw == 1]) == 128
    shown_before = _shown(api, tournament_id)
    path, params = "/tournaments/{tournament_id}/rounds/{number}/redraw", _in(tournament_id, number="1")
    reason = {"reason": "Player 3 was checked in twice"}

    dying, healthy = _DiesOnWrite(3), client  # 6 writes of 25 stage the round
    monkeypatch.setattr(draw_store, "client", lambda: dying)
    with pytest.raises(RuntimeError):
        api.call("POST", path, params=params, body=reason, **ORG)
    monkeypatch.setattr(draw_store, "client", healthy)
    assert dying.writes == 6  # the other writes had been sent
    assert records(tournament_id) == before
    assert _shown(api, tournament_id) == shown_before
    assert not [r for r in audit_trail(api, tournament_id) if r["action"] == "draw_redrawn"]
    fence = draw_store.day(tournament_id).tournament
    assert fence is not None and fence.redrawing is None  # the round's writes go on

    redrawn = api.call("POST", path, params=params, body=reason, **ORG)
    assert redrawn.status == 200, redrawn.body
    assert redrawn.body["attempt"] == 2 and redrawn.body["seed"] == draw_seed(secret, 1, 2)
    after = records(tournament_id)
    assert len(after) == 128 and {m.attempt for m in after.values()} == {2}
    new = sorted(_pairs(redrawn.body["pairings"]))
    assert new != sorted(_pairs(first.body["pairings"]))
    shown = _shown(api, tournament_id)
    assert sorted(_pairs(shown["page"]["pairings"])) == new == shown["board"]
    assert set(shown["own"]) <= set(new)
    assert _pairs(shown["page"]["earlier"][0]["pairings"]) == _pairs(first.body["pairings"])
    assert check_rounds([shown["page"]], commitment(secret)) == {1: []}

    old = next(m for m in before.values() if m.away)  # read before the switch, written after
    with pytest.raises(StaleMatch):
        match_store.save(replace(old, state=State.PLAYING), old.version)
    with pytest.raises(StaleMatch):
        match_store.settle(tournament_id, [(replace(old, state=State.PLAYING), old.version)], None, [])
    assert records(tournament_id) == after
    official(tournament_id, old.code)  # the second attempt's match takes its result
    assert records(tournament_id)[old.code].state == State.OFFICIAL
    rated = rating_store.official_matches(tournament_id)  # what the ratings' rebuild reads
    assert len(rated) == 128 and {m.code: m.version for m in rated} == {
        c: m.version for c, m in records(tournament_id).items()
    }
