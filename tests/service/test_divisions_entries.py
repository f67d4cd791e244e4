"""Divisions and entries (R3.7): the organiser edits the divisions; no entry is ever left in a
division the tournament no longer has, whatever the order of the writes."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.services import registrations
from tavla.store import tournaments as tournament_store
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament

OPEN = {"id": "open", "name": "Open"}
NOVICE = {"id": "novice", "name": "Novice"}
PAGE = "/tournaments/{tournament_id}"
ENTRIES = "/tournaments/{tournament_id}/registrations"


def _enter(api: Api, tournament_id: str, user: str, division: str | None) -> Any:
    create_player(api, user)
    return api.call(
        "POST",
        ENTRIES,
        params={"tournament_id": tournament_id},
        body={"division": division} if division else None,
        user=user,
    )


def _edit(api: Api, tournament_id: str, **changes: Any) -> Any:
    return api.call("PATCH", PAGE, params={"tournament_id": tournament_id}, body=changes, user=ORGANISER)


def _page(api: Api, tournament_id: str) -> dict[str, Any]:
    page: dict[str, Any] = api.call("GET", PAGE, params={"tournament_id": tournament_id}).body
    return page


def _ids(api: Api, tournament_id: str) -> list[str]:
    return [d["id"] for d in _page(api, tournament_id)["divisions"]]


def test_the_organiser_adds_reorders_and_prices_divisions(api: Api) -> None:
    """R3.7, R3.3: divisions are edited before the draw, highest first, each with its own fee."""
    tournament_id = create_tournament(api)
    divisions = [{**OPEN, "entry_fee": {"amount": 3000}}, NOVICE]
    reply = _edit(api, tournament_id, divisions=divisions)
    assert reply.status == 200, reply.body
    assert _ids(api, tournament_id) == ["open", "novice"]
    assert _page(api, tournament_id)["divisions"][0]["entry_fee"]["amount"] == 3000


@pytest.mark.parametrize(
    "divisions",
    [
        [],
        [OPEN, {**OPEN, "name": "Open again"}],
        [{"id": "no spaces", "name": "X"}],
        [OPEN, {**NOVICE, "early_bird_fee": {"amount": 500}}],
    ],
    ids=["none", "same id twice", "unsafe id", "early bird without its deadline"],
)
def test_divisions_that_cannot_be_told_apart_are_refused(api: Api, divisions: list[Any]) -> None:
    """R3.7: no division, two with one id, an id unfit for a match code, or an early-bird fee
    that no deadline would ever apply (R3.4): 422, nothing changed."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    before = _page(api, tournament_id)
    reply = _edit(api, tournament_id, divisions=divisions)
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    assert _page(api, tournament_id) == before


def test_a_division_with_entries_is_not_removed(api: Api) -> None:
    """R3.7: a player entered in the Novice keeps it: removing it is 409, nothing changed."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    assert _enter(api, tournament_id, "novice-0", "novice").status == 201
    before = _page(api, tournament_id)
    reply = _edit(api, tournament_id, divisions=[OPEN], name="Renamed")
    assert (reply.status, reply.error) == (409, "division_has_entries"), reply.body
    assert _page(api, tournament_id) == before


def test_an_entry_written_while_its_division_is_removed_undoes_the_removal(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.7: a player's entry lands between the organiser's check and the change: the change
    is undone (409) and the entry keeps a division the tournament has."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    create_player(api, "late-novice")
    write = tournament_store.update_settings
    raced: list[int] = []

    def entry_first(*args: Any) -> None:
        if not raced:
            raced.append(
                api.call(
                    "POST",
                    ENTRIES,
                    params={"tournament_id": tournament_id},
                    body={"division": "novice"},
                    user="late-novice",
                ).status
            )
        write(*args)

    monkeypatch.setattr(tournament_store, "update_settings", entry_first)
    reply = _edit(api, tournament_id, divisions=[OPEN])
    assert raced == [201]
    assert (reply.status, reply.error) == (409, "division_has_entries"), reply.body
    assert _ids(api, tournament_id) == ["open", "novice"]


def test_an_entry_into_a_division_removed_since_it_was_read_is_refused(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.7: the player read the page while it still had a Novice; the organiser removed it;
    the entry is refused (422), not written into a division that is gone."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    real = registrations._snapshot
    stale = registrations._fresh(tournament_id)
    assert _edit(api, tournament_id, divisions=[OPEN]).status == 200
    monkeypatch.setattr(registrations, "_snapshot", lambda sub, tid: (real(sub, tid)[0], stale))
    reply = _enter(api, tournament_id, "stale-novice", "novice")
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    listed = api.call("GET", "/tournaments/{tournament_id}/entries", params={"tournament_id": tournament_id})
    assert (listed.body["main"], listed.body["waiting"]) == ([], [])


def test_an_entry_priced_as_read_follows_a_fee_change(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """R3.7, R3.3: the Novice's fee changed after the player read the page: the entry is
    written against the division as it is now."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    real = registrations._snapshot
    stale = registrations._fresh(tournament_id)
    priced = [OPEN, {**NOVICE, "entry_fee": {"amount": 1000}}]
    assert _edit(api, tournament_id, divisions=priced).status == 200
    monkeypatch.setattr(registrations, "_snapshot", lambda sub, tid: (real(sub, tid)[0], stale))
    reply = _enter(api, tournament_id, "priced-novice", "novice")
    assert reply.status == 201, reply.body


def test_one_division_needs_no_choice_and_several_do(api: Api) -> None:
    """R3.7: with a single division (whatever its id) a registration needs no body; with
    several, a registration that names none is refused and nothing is written."""
    single = create_tournament(api, divisions=[{"id": "open", "name": "Open"}])
    entered = _enter(api, single, "single-0", None)
    assert (entered.status, entered.body["division"]) == (201, "open")
    several = create_tournament(api, divisions=[OPEN, NOVICE])
    reply = _enter(api, several, "several-0", None)
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    assert "division" in reply.body["error"]["message"]


def test_the_organiser_sees_who_is_placed_where(api: Api) -> None:
    """R3.7: the placements as the organiser left them, highest division first, with names;
    a lifted placement is gone."""
    tournament_id = create_tournament(api, divisions=[OPEN, NOVICE])
    params = {"tournament_id": tournament_id}
    strong, middling = create_player(api, "strong", name="Strong"), create_player(api, "middling", name="Mid")

    def place(tavla_id: str, division: str | None) -> None:
        placed = api.call(
            "PUT",
            "/tournaments/{tournament_id}/placements/{tavla_id}",
            params={**params, "tavla_id": tavla_id},
            body={"division": division},
            user=ORGANISER,
        )
        assert placed.status == 200, placed.body

    place(middling, "novice")
    place(strong, "open")

    def listed() -> list[tuple[str, str, str]]:
        reply = api.call("GET", "/tournaments/{tournament_id}/placements", params=params, user=ORGANISER)
        assert reply.status == 200, reply.body
        return [(p["tavla_id"], p["division"], p["name"]) for p in reply.body["placements"]]

    assert listed() == [(strong, "open", "Strong"), (middling, "novice", "Mid")]
    place(middling, None)
    assert listed() == [(strong, "open", "Strong")]
