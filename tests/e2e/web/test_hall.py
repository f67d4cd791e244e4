"""The desk's part of the hall in a real browser at a phone's size, on the local stack: a
jackpot beside the Main holds X's match while X plays his Main match; the desk says so and by
whom, the referee releases the hold after a confirmation, and the match then waits for its
turn (the jackpot's one table is taken), which the desk says too. axe: 0 serious."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client, players
from tests.e2e.conftest import Stack
from tests.e2e.hall import beside, hall_tournament, match_of
from tests.e2e.web.conftest import Phone, accessible_in_every_language, sign_in

RUN = uuid.uuid4().hex[:6]


def test_the_desk_shows_why_matches_wait_and_releases_a_hold(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-hall-org-{RUN}"
    everyone = players(client, f"web-hall-{RUN}", 5)
    users = list(everyone)
    x = everyone[users[0]]
    main = hall_tournament(client, organiser, {u: everyone[u] for u in users[:2]}, tables=1)
    jackpot = hall_tournament(client, organiser, {u: everyone[u] for u in (users[0], *users[2:])}, tables=1)
    beside(client, organiser, main, jackpot)
    assert client.call("POST", f"/tournaments/{main}/rounds", user=organiser).status == 201
    assert client.call("POST", f"/tournaments/{jackpot}/rounds", user=organiser).status == 201
    held = match_of(client, jackpot, x)
    assert held["state"] == "queued"

    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{jackpot}/desk")
    hold = page.get_by_test_id("hall-hold")
    expect(hold).to_have_count(1)
    name = held["home"]["name"] if held["home"]["tavla_id"] == x else held["away"]["name"]
    expect(hold.get_by_test_id("hall-reason")).to_have_text(
        f"Σε αναμονή: ο/η {name} παίζει ακόμη σε άλλη διοργάνωση της αίθουσας"
    )
    accessible_in_every_language(page, "[data-testid=hall-hold]")

    hold.get_by_role("button", name="Άρση αναμονής").click()
    page.get_by_role("button", name="Ναι: Άρση αναμονής").click()
    waiting = page.get_by_test_id("hall-wait")
    expect(waiting).to_have_count(1)  # released, it waits for the jackpot's one table
    expect(waiting.get_by_test_id("hall-reason")).to_have_text(
        "Περιμένει τη σειρά του: όλα τα τραπέζια είναι πιασμένα"
    )
    expect(page.get_by_test_id("hall-hold")).to_have_count(0)
    hall = client.call("GET", f"/tournaments/{jackpot}/hall", user=organiser).body
    assert hall["holds"] == [] and hall["queue"] == [{"match": held["code"], "reason": "tables_busy"}]
    accessible_in_every_language(page, "[data-testid=hall-wait]")
