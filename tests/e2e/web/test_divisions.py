"""Divisions in a real browser (R3.7), at a phone's size, on the local stack: the
organiser lists two divisions in the new-tournament form (ids from the Greek names, one with
its own fee) and renames one in the edit form; a placed player is refused the lower division
on the tournament page and enters the higher one; the organiser places that player from the
approvals screen; each division is drawn from its own button and the board shows both.

Most registrations go over HTTP (tests/e2e/client.py); what the organiser and the placed
player do goes through the browser, and each step is checked in the API too. Every new screen
state is checked with axe-core in Greek and in English and saved (Greek, phone size).
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import (
    Phone,
    accessible_in_both_languages,
    axe,
    create_profile,
    screenshot,
    sign_in,
    use_language,
)

RUN = uuid.uuid4().hex[:6]


def _player(client: Client, user: str, name: str) -> str:
    created = client.call("POST", "/players", {"name": name}, user=user)
    assert created.status == 201, created.body
    return str(created.body["tavla_id"])


def _enter(client: Client, user: str, tid: str, division: str) -> None:
    registered = client.call("POST", f"/tournaments/{tid}/registrations", {"division": division}, user=user)
    assert registered.status == 201, registered.body


def _editor_accessible(page: Page) -> None:
    """The new-tournament form with two divisions: 0 serious or critical axe findings in Greek
    and in English (each language is a reload, so the second division is added again)."""
    for lang in ("el", "en"):
        use_language(page, lang, "[data-testid=divisions-editor]")
        page.get_by_test_id("divisions-editor").get_by_role("button").last.click()
        expect(page.get_by_test_id("division-row")).to_have_count(2)
        violations = axe(page)
        assert violations == [], f"{lang} {page.url}: {violations}"
    use_language(page, "el", "[data-testid=divisions-editor]")


def test_two_divisions_from_the_form_to_the_board(phone: Phone, stack: Stack) -> None:
    """R3.7 (hbf 1.4, cnb 1.4.2), R3.3: divisions made in the form are stored as
    entered, highest first; a placed player cannot enter the lower division (the API's
    refusal in Greek) and enters the higher one from the radio list; the entry list says each
    entry's division; each division is drawn on its own and the board shows both."""
    client = Client(stack)
    organiser = f"web-div-org-{RUN}"
    _player(client, organiser, "Όλγα Οργανώτρια")

    # The organiser's form: two divisions, ids from the Greek names, the lower with its fee.
    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto("/#/new")
    _editor_accessible(page)
    page.locator("input[name=name]").fill("Κύπελλο Κατηγοριών")
    page.locator("input[name=venue]").fill("Καφενείο Πλατείας")
    page.locator("input[name=capacity]").fill("8")
    page.locator("input[name=fee]").fill("30")
    page.locator("input[name=division-name-0]").fill("Αρχάριοι")
    expect(page.locator("input[name=division-id-0]")).to_have_value("archarioi")  # from the name
    page.locator("input[name=division-id-0]").fill("novice")  # or typed
    page.get_by_role("button", name="Προσθήκη κατηγορίας").click()
    page.locator("input[name=division-name-1]").fill("Ανοιχτή Α'")
    expect(page.locator("input[name=division-id-1]")).to_have_value("anoichti-a")
    page.get_by_role("button", name="Προσθήκη κατηγορίας").click()
    page.locator("input[name=division-name-2]").fill("Δοκιμαστική")
    page.get_by_role("button", name="Πιο πάνω: Ανοιχτή Α'").click()  # the higher division first
    page.get_by_role("button", name="Αφαίρεση: Δοκιμαστική").click()
    expect(page.get_by_test_id("division-row")).to_have_count(2)
    page.locator("input[name=division-fee-1]").fill("15")
    page.get_by_test_id("divisions-editor").evaluate("e => e.scrollIntoView()")
    screenshot(page, "divisions-new")
    page.get_by_role("button", name="Δημιουργία").click()
    page.wait_for_url(re.compile(r".*#/t/[^/]+/organise$"))
    tid = page.url.split("#/t/")[1].split("/")[0]
    stored = client.call("GET", f"/tournaments/{tid}").body
    assert stored["divisions"] == [
        {
            "id": "anoichti-a",
            "name": "Ανοιχτή Α'",
            "entry_fee": None,
            "early_bird_fee": None,
            "prizes": [],
            "pooled": False,
        },
        {
            "id": "novice",
            "name": "Αρχάριοι",
            "entry_fee": {"amount": 1500, "currency": "EUR"},
            "early_bird_fee": None,
            "prizes": [],
            "pooled": False,
        },
    ]

    # The edit form: the same list, renamed in place; only the divisions are sent.
    page.goto(f"/#/t/{tid}/edit")
    expect(page.locator("input[name=division-name-1]")).to_have_value("Αρχάριοι")
    page.locator("input[name=division-name-1]").fill("Αρχάριοι Β")
    expect(page.locator("input[name=division-id-1]")).to_have_value("novice")  # an id stays put
    page.get_by_role("button", name="Αποθήκευση").click()
    expect(page.get_by_test_id("edit-message")).to_have_text("Οι ρυθμίσεις αποθηκεύτηκαν")
    edited = client.call("GET", f"/tournaments/{tid}").body
    assert [d["name"] for d in edited["divisions"]] == ["Ανοιχτή Α'", "Αρχάριοι Β"]
    assert {k: v for k, v in edited.items() if k not in ("divisions", "version")} == {
        k: v for k, v in stored.items() if k not in ("divisions", "version")
    }
    accessible_in_both_languages(page, "[data-testid=division-row]")

    # Three players over HTTP; the fourth, strong, is placed in the higher division by the
    # organiser on the approvals screen.
    players = {}
    for key, name, division in (
        ("a1", "Άρης Ανοιχτός", "anoichti-a"),
        ("n1", "Νίκος Νέος", "novice"),
        ("n2", "Νάσια Νέα", "novice"),
    ):
        user = f"web-div-{key}-{RUN}"
        players[key] = (_player(client, user, name), user)
        _enter(client, user, tid, division)
    strong_user = f"web-div-strong-{RUN}"
    strong_page = phone()
    sign_in(strong_page, strong_user)
    strong = create_profile(strong_page, "Στέλιος Δυνατός")

    page.goto(f"/#/t/{tid}/approvals")
    page.locator("input[name=place-id]").fill(strong)
    page.locator("select[name=place-division]").select_option("anoichti-a")
    page.get_by_role("button", name="Τοποθέτηση", exact=True).click()
    expect(page.get_by_test_id("approvals-message")).to_have_text(f"{strong}: από Ανοιχτή Α' και πάνω")
    # the organiser sees who is placed where (GET .../placements), with the player's name
    expect(page.get_by_test_id("placements").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("placements")).to_contain_text(f"Στέλιος Δυνατός · {strong} Ανοιχτή Α'")
    expect(page.get_by_test_id("approved")).to_contain_text("Αρχάριοι Β")
    accessible_in_both_languages(page, "[data-testid=placement-form]")
    accessible_in_both_languages(page, "[data-testid=placements]")
    expect(page.get_by_test_id("approved").locator("li")).to_have_count(3)
    screenshot(page, "divisions-placement")

    # The placed player: the lower division is refused (in Greek), the higher one is entered.
    strong_page.goto(f"/#/t/{tid}")
    expect(strong_page.get_by_test_id("divisions")).to_contain_text("15,00")
    choices = strong_page.get_by_test_id("register-form")
    expect(choices.get_by_role("radio")).to_have_count(2)
    accessible_in_both_languages(strong_page, "[data-testid=register-form]")
    screenshot(strong_page, "divisions-register")
    choices.get_by_label(re.compile("Αρχάριοι Β")).check()
    choices.get_by_role("button", name="Εγγραφή").click()
    expect(strong_page.get_by_role("alert")).to_have_text(
        "Ο διοργανωτής σας έχει τοποθετήσει σε ανώτερη κατηγορία."
    )
    choices.get_by_label(re.compile("Ανοιχτή Α'")).check()
    choices.get_by_role("button", name="Εγγραφή").click()
    expect(strong_page.get_by_test_id("my-entry")).to_contain_text("Ανοιχτή Α'")
    entries = client.call("GET", f"/tournaments/{tid}/entries").body
    assert {e["tavla_id"]: e["division"] for e in entries["main"]} == {
        players["a1"][0]: "anoichti-a",
        players["n1"][0]: "novice",
        players["n2"][0]: "novice",
        strong: "anoichti-a",
    }
    listed = strong_page.locator("ol.entries li")
    expect(listed.filter(has_text="Στέλιος Δυνατός")).to_contain_text("Ανοιχτή Α'")
    expect(listed.filter(has_text="Νάσια Νέα")).to_contain_text("Αρχάριοι Β")

    # Everybody checked in; each division drawn from its own button; the board shows both.
    for tavla_id in [strong, *(p[0] for p in players.values())]:
        checked = client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=organiser)
        assert checked.status == 200, checked.body
    page.goto(f"/#/t/{tid}/organise")
    for division, name in (("anoichti-a", "Ανοιχτή Α'"), ("novice", "Αρχάριοι Β")):
        page.get_by_role("button", name=f"Κλήρωση επόμενου γύρου: {name}").click()
        expect(page.get_by_test_id("organise-message")).to_have_text(f"{name}: Κληρώθηκε ο γύρος 1: 1 αγώνας")
        # the division's own first round, whatever the tournament's draw number
        expect(page.get_by_test_id(f"draw-{division}")).to_contain_text("Γύρος 1 (κύριο): 1 αγώνας")
    rounds = client.call("GET", f"/tournaments/{tid}/rounds").body["rounds"]
    assert sorted(r["division"] for r in rounds) == ["anoichti-a", "novice"]
    accessible_in_both_languages(page, "[data-testid=draw-novice]")
    screenshot(page, "divisions-draw")

    page.goto(f"/#/t/{tid}/board")
    tables = page.get_by_test_id("tables")
    expect(tables.locator("li").filter(has_text="Ανοιχτή Α'")).to_contain_text("Στέλιος Δυνατός")
    expect(tables.locator("li").filter(has_text="Αρχάριοι Β")).to_contain_text("Νάσια Νέα")
    expect(page.get_by_role("heading", name="Αρχάριοι Β")).to_be_visible()
    accessible_in_both_languages(page, "[data-testid=division-novice]")
    screenshot(page, "divisions-board")

    # After the draws the divisions are read only, like the rest of the settings.
    page.goto(f"/#/t/{tid}/edit")
    expect(page.locator("input[name=division-name-0]")).to_be_disabled()
    expect(page.get_by_role("button", name="Προσθήκη κατηγορίας")).to_be_disabled()
    expect(page.get_by_role("button", name="Αποθήκευση")).to_have_count(0)
