"""Draws through the API (R4.2, R5.1-R5.7): the field, the pairings, the seed, the tables."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.rules.day import DrawInputs, compute_draw, digest
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, create_player, dynamodb_calls, register


def first_round(api: Api, tournament_id: str) -> Any:
    """The public view of the tournament's draw 1."""
    return api.call(
        "GET",
        "/tournaments/{tournament_id}/rounds/{number}",
        params={"tournament_id": tournament_id, "number": "1"},
    )


def test_first_draw_pairs_the_checked_in_field_and_seats_every_match(api: Api) -> None:
    """R4.2, R5.3: 8 checked-in players, single elimination: 4 first-round matches on tables 1-4."""
    tournament_id, ids = checked_in_field(api, 8)
    reply = draw(api, tournament_id)
    assert reply.status == 201, reply.body
    body = reply.body
    first = [m for m in body["pairings"] if m["round"] == 1]
    assert len(first) == 4 and len(body["pairings"]) == 7
    assert sorted(m["table"] for m in first) == [1, 2, 3, 4]
    assert {m["state"] for m in first} == {"called"}
    assert sorted(p for m in first for p in (m["home"]["tavla_id"], m["away"]["tavla_id"])) == sorted(ids)
    later = [m for m in body["pairings"] if m["round"] > 1]
    assert {m["state"] for m in later} == {"waiting"}
    assert later[0]["home_from"].startswith("winner of main.R1.")


def test_the_first_draw_publishes_its_seed_list_and_each_match_its_bracket(api: Api) -> None:
    """R5.1, R5.2, R5.4: the public round view lists the field in seed order (seed 1 first, the
    highest rated first by default); each match says its bracket, its round there and its slot."""
    tournament_id, ids = checked_in_field(api, 6, format="double_elimination")
    assert draw(api, tournament_id).status == 201
    public = first_round(api, tournament_id)
    assert public.status == 200, public.body
    inputs = DrawInputs.model_validate(public.body["inputs"])
    rating = {e.player_id: e.rating for e in inputs.field}
    seeds = public.body["seed_list"]
    assert sorted(seeds) == sorted(ids) and list(compute_draw(inputs, public.body["seed"]).seed_list) == seeds
    assert [rating[p] for p in seeds] == sorted(rating.values(), reverse=True)
    brackets = {m["code"]: (m["bracket"], m["bracket_round"], m["slot"]) for m in public.body["pairings"]}
    assert brackets["main.W1.1"] == ("winners", 1, 1)
    assert brackets["main.L1.1"] == ("losers", 1, 1)
    assert brackets["main.GF1"] == ("final", 1, 1) and brackets["main.GF2"] == ("final_reset", 1, 1)
    assert all(m["declared"] == [] for m in public.body["pairings"])


def test_a_published_draw_recomputes_from_its_inputs_and_seed(api: Api) -> None:
    """R5.1: the round's public inputs hash to its digest and give the same pairings again."""
    tournament_id, _ = checked_in_field(api, 6, format="swiss", swiss_rounds=3)
    assert draw(api, tournament_id).status == 201
    public = first_round(api, tournament_id)
    assert public.status == 200, public.body
    inputs = DrawInputs.model_validate(public.body["inputs"])
    assert digest(inputs) == public.body["digest"]
    again = compute_draw(inputs, public.body["seed"])
    assert [f.code for f in again.fixtures] == [m["code"] for m in public.body["pairings"]]
    assert [(f.home.player, f.away.player) for f in again.fixtures] == [
        (m["home"]["tavla_id"], (m["away"] or {}).get("tavla_id")) for m in public.body["pairings"]
    ]


def test_players_not_checked_in_are_not_in_the_draw_and_check_in_closes(api: Api) -> None:
    """R4.2, R4.3: an absent player loses the place; after the draw check-in is closed."""
    tournament_id, ids = checked_in_field(api, 4)
    late = create_player(api, "late-1")
    assert register(api, tournament_id, "late-1").status in (201,)
    assert draw(api, tournament_id).status == 201
    round_ = api.call(
        "GET",
        "/tournaments/{tournament_id}/rounds/{number}",
        params={"tournament_id": tournament_id, "number": "1"},
    ).body
    field = [e["player_id"] for e in round_["inputs"]["field"]]
    assert late not in field and sorted(field) == sorted(ids)
    reply = api.call(
        "POST",
        "/tournaments/{tournament_id}/checkins",
        params={"tournament_id": tournament_id},
        body={"tavla_id": late},
        user=ORGANISER,
    )
    assert reply.status == 409 and reply.body["error"]["code"] == "checkin_closed"


def test_swiss_next_round_waits_for_results_and_elimination_is_drawn_once(api: Api) -> None:
    """R5.5: 409 round_in_progress while results are pending; R5.3: nothing more to draw."""
    swiss, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2)
    assert draw(api, swiss).status == 201
    again = draw(api, swiss)
    assert again.status == 409 and again.body["error"]["code"] == "round_in_progress"


def test_only_its_organiser_draws(api: Api) -> None:
    tournament_id, _ = checked_in_field(api, 4)
    create_player(api, "stranger")
    reply = draw(api, tournament_id, user="stranger")
    assert reply.status == 403
    assert api.call(
        "GET", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tournament_id}
    ).body == {"rounds": []}


def test_a_draw_needs_two_checked_in_players(api: Api) -> None:
    tournament_id, _ = checked_in_field(api, 1)
    reply = draw(api, tournament_id)
    assert reply.status == 409 and reply.body["error"]["code"] == "not_enough_players"


def test_a_draw_interrupted_before_publishing_converges_to_the_same_round_when_retried(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draw that reserved its seed and wrote its matches, then failed, is finished by the retry."""
    from tavla.store import draws as draw_store

    tournament_id, _ = checked_in_field(api, 8, format="swiss", swiss_rounds=3)
    real_publish = draw_store.publish
    written: list[list[str]] = []
    real_write = draw_store.write_fixtures

    def write(records):
        written.append([f"{r.code}:{r.home}-{r.away}" for r in records])
        real_write(records)

    def crash(*args, **kwargs):
        raise RuntimeError("the Lambda timed out")

    monkeypatch.setattr(draw_store, "write_fixtures", write)
    monkeypatch.setattr(draw_store, "publish", crash)
    with pytest.raises(RuntimeError):
        draw(api, tournament_id)
    assert api.call(
        "GET", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tournament_id}
    ).body == {"rounds": []}, "nothing is visible before the publish"
    monkeypatch.setattr(draw_store, "publish", real_publish)
    retried = draw(api, tournament_id)
    assert retried.status == 201, retried.body
    assert written[0] == written[1], "the retry drew the same round with the reserved seed"
    assert [
        r["number"]
        for r in api.call(
            "GET", "/tournaments/{tournament_id}/rounds", params={"tournament_id": tournament_id}
        ).body["rounds"]
    ] == [1]


def test_a_round_page_reads_its_own_round_only(api: Api) -> None:
    """R5.1: round 1's page after round 2 is drawn shows round 1's matches with their results,
    and reads no more of the table than it did before round 2 (the round's own matches)."""
    from tests.service.board_helpers import play_out

    tournament_id, _ = checked_in_field(api, 8, format="swiss", swiss_rounds=3)
    assert draw(api, tournament_id).status == 201
    params = {"tournament_id": tournament_id, "number": "1"}

    def page() -> Any:
        return api.call("GET", "/tournaments/{tournament_id}/rounds/{number}", params=params)

    before = dynamodb_calls(page)
    play_out(tournament_id)
    assert draw(api, tournament_id).status == 201
    after = dynamodb_calls(page)
    first = page().body
    assert {m["code"].split(".")[1] for m in first["pairings"]} == {"S1"}
    assert len(first["pairings"]) == 4 and {m["state"] for m in first["pairings"]} == {"official"}
    assert after == before == ["BatchGetItem", "BatchGetItem"]
    missing = api.call(
        "GET", "/tournaments/{tournament_id}/rounds/{number}", params={**params, "number": "3"}
    )
    assert missing.status == 404
