"""Whole tournament days over HTTP, one per format, each under one of the three rule profiles.

Check-in, every draw through the API, every match reported by both players and confirmed by
the referee, the finish; then the standings the platform shows must be the ones the rules
layer gives for the published results (R10.1, R10.2), and every published draw must
recompute, from its public seed and inputs alone, to what was published (R5.1).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tavla.rules.day import DaySettings, DrawInputs, event_standings
from tavla.rules.entrants import MatchRecord
from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import TournamentDay
from tools.verify_draw import verify


@pytest.fixture(scope="module")
def client(stack: Stack) -> Client:
    return Client(stack)


def _expected_standings(day: TournamentDay) -> dict[str, list[tuple[str, int, int]]]:
    """What the rules layer says, from the published draws and results alone."""
    matches = day.matches()
    out: dict[str, list[tuple[str, int, int]]] = {}
    first = DrawInputs.model_validate(day.round(1)["inputs"])
    settings: DaySettings = first.settings
    for draw in day.draws:
        event = draw["event"]
        if event in out:
            continue
        inputs = DrawInputs.model_validate(day.round(draw["number"])["inputs"])
        players = [e.player_id for e in inputs.field]
        records = []
        for m in matches:
            if m["event"] != event or not m.get("result"):
                continue
            result = m["result"]
            if m["state"] == "official":
                records.append(
                    MatchRecord(
                        round=m["round"],
                        home=m["home"]["tavla_id"],
                        away=m["away"]["tavla_id"],
                        home_points=result["home_points"],
                        away_points=result["away_points"],
                        winner=result["winner"],
                        forfeit=result["forfeit"],
                    )
                )
            elif m["state"] == "bye" and m["home_from"] is None and m["away_from"] is None:
                records.append(MatchRecord(round=m["round"], home=result["winner"], winner=result["winner"]))
        rows = event_standings(settings, event, players, records)
        out[event] = sorted((r.player_id, r.place, r.place_to) for r in rows)
    return out


def _shown_standings(body: dict[str, Any]) -> dict[str, list[tuple[str, int, int]]]:
    return {
        e["event"]: sorted((r["player"]["tavla_id"], r["place"], r["place_to"]) for r in e["rows"])
        for e in body["events"]
    }


def _check_day(client: Client, stack: Stack, day: TournamentDay) -> dict[str, list[tuple[str, int, int]]]:
    assert all(m["state"] in ("official", "bye", "void", "not_needed") for m in day.matches())
    finished = day.finish()
    shown = client.call("GET", f"/tournaments/{day.id}/standings")
    assert shown.status == 200, shown.body
    expected = _expected_standings(day)
    assert _shown_standings(shown.body) == expected
    assert _shown_standings(finished) == expected
    verdict = verify(stack.url, day.id)
    assert verdict and all(problems == [] for problems in verdict.values()), verdict
    return expected


def test_single_elimination_32_with_club_protection_platform(client: Client, stack: Stack) -> None:
    """R5.2, R5.3, R10.1: 32 players; knocked out together share the place (1, 2, 3-4, 5-8 ...)."""
    day = TournamentDay(client, "se32", 32, format="single_elimination", club_protection=True)
    day.enter_field()
    day.run()
    places = Counter((p, q) for _, p, q in _check_day(client, stack, day)["main"])
    assert places == {(1, 1): 1, (2, 2): 1, (3, 4): 2, (5, 8): 4, (9, 16): 8, (17, 32): 16}
    first_round = [m for m in day.draws[0]["pairings"] if m["round"] == 1]
    clubs = {e["player_id"]: e.get("club") for e in day.draws[0]["inputs"]["field"]}
    assert all(clubs[m["home"]["tavla_id"]] != clubs[m["away"]["tavla_id"]] for m in first_round)


def test_double_elimination_16_that_needs_the_reset_hbf(client: Client, stack: Stack) -> None:
    """R5.4: the losers' bracket winner takes the first final, so a second final decides."""
    day = TournamentDay(client, "de16", 16, format="double_elimination", rule_profile="hbf")
    day.enter_field()
    day.run(lambda m: m["away"]["tavla_id"] if m["label"] == "GF1" else m["home"]["tavla_id"])
    states = {m["code"]: m["state"] for m in day.matches()}
    assert states["main.GF1"] == "official" and states["main.GF2"] == "official"
    places = _check_day(client, stack, day)["main"]
    assert [p for p in places if p[1] == 1] and len(places) == 16


def test_swiss_24_players_5_rounds_cnb(client: Client, stack: Stack) -> None:
    """R5.5, R10.2: five rounds, nobody meets twice, the table with its tie-break chain."""
    day = TournamentDay(client, "sw24", 24, format="swiss", swiss_rounds=5, rule_profile="cnb")
    day.enter_field()
    day.run()
    assert len(day.draws) == 5
    pairs = [frozenset((m["home"]["tavla_id"], m["away"]["tavla_id"])) for m in day.matches() if m["away"]]
    assert len(pairs) == len(set(pairs)) == 5 * 12
    assert len(_check_day(client, stack, day)["main"]) == 24


def test_lives_16_players_3_lives_platform(client: Client, stack: Stack) -> None:
    """R5.7: out after three losses; the last one standing wins."""
    day = TournamentDay(client, "lv16", 16, format="lives", lives=3)
    day.enter_field()
    day.run()
    losses = Counter(
        m["away" if m["result"]["winner"] == m["home"]["tavla_id"] else "home"]["tavla_id"]
        for m in day.matches()
        if m["away"] and m["state"] == "official"
    )
    places = _check_day(client, stack, day)["main"]
    assert sum(1 for lost in losses.values() if lost >= 3) == 15  # all out but the winner
    assert sum(1 for _, p, _ in places if p == 1) == 1


def test_round_robin_8_players_hbf(client: Client, stack: Stack) -> None:
    """R5.6: everybody plays everybody: 28 matches in 7 rounds."""
    day = TournamentDay(client, "rr8", 8, format="round_robin", rule_profile="hbf")
    day.enter_field()
    day.run()
    assert len([m for m in day.matches() if m["away"]]) == 28
    assert len(_check_day(client, stack, day)["main"]) == 8


def test_main_consolation_last_chance_32_cnb(client: Client, stack: Stack) -> None:
    """R5.8: the Consolation from Main rounds 1-2, the Last Chance from Consolation rounds 1-2."""
    day = TournamentDay(
        client,
        "mcl32",
        32,
        format="single_elimination",
        rule_profile="cnb",
        side_events=[
            {"name": "Consolation", "kind": "consolation"},
            {"name": "Last Chance", "kind": "last_chance"},
        ],
    )
    day.enter_field()
    day.run()
    assert [d["event"] for d in day.draws] == ["main", "consolation", "last_chance"]
    standings = _check_day(client, stack, day)
    assert len(standings["main"]) == 32 and len(standings["consolation"]) == 24
