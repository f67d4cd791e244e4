"""The console's part of a draw nobody can shop (R5.1) in a real browser at a phone's size, on
the local stack: the organiser commits to the seed, previews round 1 (the draw then publishes
exactly those boards), draws it, and redraws it with a reason after a confirmation; the API
then shows the first draw and the reason, and the public page "redrawn: reason"."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import checked_in_field
from tests.e2e.web.conftest import Phone, sign_in

RUN = uuid.uuid4().hex[:6]


def test_the_organiser_commits_previews_draws_and_redraws_with_a_reason(phone: Phone, stack: Stack) -> None:
    """R5.1: commitment on the page, preview = the published round, redraw asks twice and needs a reason."""
    client = Client(stack)
    organiser = f"web-fair-org-{RUN}"
    tid, _ = checked_in_field(client, organiser, f"web-fair-{RUN}", 4, format="swiss", swiss_rounds=2)
    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/organise")
    card = page.get_by_test_id("fair-draw")
    card.get_by_role("button", name="Δέσμευση του σπόρου της κλήρωσης").click()
    expect(card.get_by_test_id("commitment")).to_be_visible()
    committed = client.call("GET", f"/tournaments/{tid}").body["draw_commitment"]["hash"]
    expect(card.get_by_test_id("commitment")).to_contain_text(committed[:16])

    card.get_by_role("button", name="Προεπισκόπηση επόμενου γύρου").click()
    expect(card.get_by_test_id("preview").locator("li")).to_have_count(2)
    shown = card.get_by_test_id("preview").inner_text()
    page.get_by_role("button", name="Κλήρωση επόμενου γύρου").click()
    expect(page.get_by_test_id("organise-message")).to_be_visible()
    drawn = client.call("GET", f"/tournaments/{tid}/rounds/1").body
    for match in drawn["pairings"]:  # every published board is one the preview showed
        assert f"{match['home']['name']} – {match['away']['name']}" in shown

    redraw = card.get_by_role("button", name="Νέα κλήρωση")
    expect(redraw).to_be_disabled()  # no reason yet
    card.locator("input[name=reason]").fill("Λάθος τραπέζι στον πίνακα")
    redraw.click()
    card.get_by_role("button", name="Ναι: Νέα κλήρωση").click()
    expect(card.get_by_test_id("redraw-message")).to_have_text("Ο γύρος κληρώθηκε ξανά")
    again = client.call("GET", f"/tournaments/{tid}/rounds/1").body
    assert again["attempt"] == 2 and again["redraws"][0]["reason"] == "Λάθος τραπέζι στον πίνακα"
    assert [m["code"] for m in again["earlier"][0]["pairings"]] == [m["code"] for m in drawn["pairings"]]
    page.goto(f"/#/t/{tid}")  # the public page: the hash, and "redrawn: reason"
    facts = page.get_by_test_id("fair-draw-facts")
    expect(facts).to_contain_text(committed)
    expect(facts.get_by_test_id("redrawn")).to_have_text("νέα κλήρωση: Λάθος τραπέζι στον πίνακα")
