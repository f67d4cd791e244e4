"""The organiser's prize categories (R11.4, R12) in a real browser at a phone's size,
on the local stack: each entry starts from the player's private profile (gender, birth year);
the organiser corrects one, the API stores it as the organiser's; handing it back to the
profile restores what the profile says. Checked with axe-core in Greek and English."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]
ORGANISERS = ("organisers",)


def _entry(client: Client, tid: str, user: str, profile: dict) -> str:
    created = client.call("POST", "/players", profile, user=user)
    assert created.status == 201, created.body
    assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
    return str(created.body["tavla_id"])


def _stored(client: Client, tid: str, organiser: str) -> dict[str, tuple[list[str], str]]:
    reply = client.call("GET", f"/tournaments/{tid}/prizes/eligibility", user=organiser, groups=ORGANISERS)
    assert reply.status == 200, reply.body
    return {e["tavla_id"]: (e["categories"], e["set_by"]) for e in reply.body["entries"]}


def test_the_organiser_corrects_an_entrys_prize_categories_and_hands_it_back(
    phone: Phone, stack: Stack
) -> None:
    client = Client(stack)
    organiser = f"web-cat-organiser-{RUN}"
    women = [{"category": "women", "minimum_participants": 2, "prize": {"places": [1, 1], "kind": "cup"}}]
    tid = tournament(client, organiser, capacity=8, name="Κύπελλο Κατηγοριών", category_prizes=women)
    maria = _entry(client, tid, f"web-cat-maria-{RUN}", {"name": "Μαρία Παίκτρια", "gender": "female"})
    nikos = _entry(client, tid, f"web-cat-nikos-{RUN}", {"name": "Νίκος Παίκτης", "birth_year": 1950})
    before = _stored(client, tid, organiser)
    assert before[maria] == (["women"], "profile")
    assert before[nikos][1] == "profile" and "women" not in before[nikos][0]

    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/money")
    page.get_by_role("link", name="Κατηγορίες επάθλων").click()
    page.wait_for_url(f"**/#/t/{tid}/categories")
    cards = page.get_by_test_id("categories").locator("li")
    expect(cards).to_have_count(2)
    accessible_in_both_languages(page, "[data-testid=categories] li")
    card = cards.filter(has_text=nikos)
    expect(card).to_contain_text("από το προφίλ")

    # The organiser corrects what Maria's profile leaves out (no birth year): she is a youth player.
    maria_card = cards.filter(has_text=maria)
    maria_card.get_by_role("checkbox", name="Νέοι").check()
    expect(page.get_by_test_id("categories-message")).to_have_text("Αποθηκεύτηκε: Μαρία Παίκτρια")
    expect(maria_card).to_contain_text("από τον διοργανωτή")
    assert _stored(client, tid, organiser)[maria] == (["women", "youth"], "organiser")
    screenshot(page, "prize-categories")

    maria_card.get_by_role("button", name="Πίσω στο προφίλ").click()
    expect(page.get_by_test_id("categories-message")).to_have_text(
        "Μαρία Παίκτρια: αποφασίζει ξανά το προφίλ"
    )
    expect(maria_card).to_contain_text("από το προφίλ")
    assert _stored(client, tid, organiser)[maria] == (["women"], "profile")
    # private: the public entry list says nothing of gender, age or categories
    public = str(client.call("GET", f"/tournaments/{tid}/entries").body)
    assert "female" not in public and "1950" not in public and "women" not in public
