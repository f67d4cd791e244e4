"""The match screen's breaks and the desk's adjournments on a phone (R7.7): both players see the
breaks left, a player takes one between games, sees its end in venue time and comes back; the
referee adjourns a match being played and resumes it; 0 serious axe violations."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in
from tests.e2e.web.test_live import _field

RUN = uuid.uuid4().hex[:6]
NINE = {"default": 9, "semi_final": 9, "final": 9}


def cnb_pair_at_table(
    client: Client, stack: Stack, kind: str, names: tuple[str, str], **settings: object
) -> tuple[str, dict, str, tuple[str, str]]:
    """Anna and Boris (`names`) at their table on a cnb page (`settings`: more of the page's),
    both present: (the tournament's id, their match as drawn, Anna's Tavla ID, their users)."""
    organiser = f"web-{kind}-org-{RUN}"
    users = (f"web-{kind}-anna-{RUN}", f"web-{kind}-boris-{RUN}")
    for user, name in zip(users, names, strict=True):
        assert client.call("POST", "/players", {"name": name}, user=user).status == 201
    tid, drawn = _field(
        client, stack, organiser, list(users), capacity=2, tables=1, rule_profile="cnb", **settings
    )
    match = drawn["pairings"][0]
    anna_id = client.call("GET", "/me", user=users[0]).body["tavla_id"]
    for user in users:
        reply = client.call("POST", f"/matches/{match['id']}/presence", {"present": True}, user=user)
        assert reply.status == 200, reply.body
    return tid, match, anna_id, users


def test_a_player_takes_a_break_between_games_and_comes_back(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    names = ("Άννα Παύση", "Μπόρις Ρολόι")
    tid, match, anna_id, (anna_user, _) = cnb_pair_at_table(client, stack, "break", names, match_lengths=NINE)
    version = client.call("GET", f"/matches/{match['id']}").body["version"]
    game = {"version": version, "game": {"winner": anna_id}}
    assert client.call("PUT", f"/matches/{match['id']}/score", game, user=anna_user).status == 200

    anna = phone()
    sign_in(anna, anna_user)
    anna.goto(f"/#/t/{tid}/match")
    breaks = anna.get_by_test_id("breaks")
    expect(breaks).to_contain_text(re.compile(r"Διαλείμματα που απομένουν: .*1, .*1"))
    breaks.get_by_role("button", name="Διάλειμμα τώρα").click()
    expect(breaks.get_by_role("status")).to_contain_text(
        re.compile(r"Διάλειμμα: Άννα Παύση, έως \d\d:\d\d:\d\d")
    )
    expect(breaks).to_contain_text("Άννα Παύση 0")
    expect(breaks).to_contain_text("Μπόρις Ρολόι 1")
    screenshot(anna, "my-match-break")
    accessible_in_every_language(anna, "[data-testid=breaks]")
    breaks.get_by_role("button", name="Επέστρεψα").click()
    expect(breaks.get_by_role("status")).to_have_count(0)
    expect(breaks.get_by_role("button", name="Διάλειμμα τώρα")).to_have_count(0)  # none left


def being_played(client: Client, stack: Stack, organiser: str, users: list[str]) -> tuple[str, dict]:
    """Two players, one table, their match under way (both present, a game recorded): the
    tournament's id and the match as drawn."""
    for i, user in enumerate(users):
        assert client.call("POST", "/players", {"name": f"Παίκτρια {'ΑΒ'[i]}"}, user=user).status == 201
    tid, drawn = _field(client, stack, organiser, users, capacity=2, tables=1)
    match = drawn["pairings"][0]
    winner = client.call("GET", "/me", user=users[0]).body["tavla_id"]
    for user in users:
        assert (
            client.call("POST", f"/matches/{match['id']}/presence", {"present": True}, user=user).status
            == 200
        )
    version = client.call("GET", f"/matches/{match['id']}").body["version"]
    game = {"version": version, "game": {"winner": winner}}
    assert client.call("PUT", f"/matches/{match['id']}/score", game, user=users[0]).status == 200
    return tid, match


def test_the_referee_adjourns_a_match_at_the_desk_and_resumes_it(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-adjourn-org-{RUN}"
    tid, match = being_played(client, stack, organiser, [f"web-adjourn-a-{RUN}", f"web-adjourn-b-{RUN}"])

    desk = phone()
    sign_in(desk, organiser, organiser=True)
    desk.goto(f"/#/t/{tid}/desk")
    section = desk.get_by_test_id("adjournments")
    section.get_by_label("Αιτία").fill("Κλείνει η αίθουσα")
    section.get_by_role("button", name="Διακοπή αγώνα").click()
    expect(desk.get_by_test_id("desk-message")).to_contain_text("Ο αγώνας διακόπηκε.")
    expect(desk.get_by_test_id("adjourned-match")).to_have_count(1)
    accessible_in_every_language(desk, "[data-testid=adjournments]")
    desk.get_by_test_id("adjourned-match").get_by_role("button", name="Συνέχιση αγώνα").click()
    expect(desk.get_by_test_id("desk-message")).to_contain_text("πρώτο ελεύθερο τραπέζι")
    resumed = client.call("GET", f"/matches/{match['id']}").body
    assert (resumed["state"], resumed["table"], resumed["score"][0] + resumed["score"][1]) == ("called", 1, 1)
