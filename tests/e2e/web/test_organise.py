"""The organiser's and the referee's remaining screens in a real browser, at a phone's
size, on the local stack: editing a tournament's settings, approving and refusing entries
(R3.7), the staff list (R1.3), penalties, withdrawal and disqualification (R8), and the
service worker keeping /config.json for a load without signal.

The setting up goes over HTTP (tests/e2e/client.py); what the organiser or the referee does
goes through the browser, and each step is checked both on the screen and in the API.
Every new screen is checked with axe-core in Greek and in English and saved to
docs/screenshots/ (Greek, phone size).
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime, timedelta

from playwright.sync_api import Page, Route, expect

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.day import TournamentDay
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, axe, screenshot, sign_in

# A refusal on a Greek screen: the sentence for its error code, no English from the API in it.
GREEK_ONLY = re.compile(r"^[^A-Za-z]+$")

RUN = uuid.uuid4().hex[:6]
ORGANISERS = ("organisers",)


def _profile(client: Client, user: str, name: str) -> str:
    created = client.call("POST", "/players", {"name": name}, user=user)
    assert created.status == 201, created.body
    return str(created.body["tavla_id"])


def _entrant(client: Client, user: str, name: str, tid: str) -> str:
    """A profile and a registration over HTTP; the Tavla ID."""
    tavla_id = _profile(client, user, name)
    registered = client.call("POST", f"/tournaments/{tid}/registrations", user=user)
    assert registered.status == 201, registered.body
    return tavla_id


def _staff(client: Client, tid: str, user: str) -> set[tuple[str, str]]:
    """The staff as the API has it (GET .../staff)."""
    reply = client.call("GET", f"/tournaments/{tid}/staff", user=user)
    assert reply.status == 200, reply.body
    return {(m["tavla_id"], m["role"]) for m in reply.body["staff"]}


def _organiser_at(phone: Phone, user: str, tid: str, link: str) -> Page:
    """The organiser's phone on the tournament's organise screen, then on one of its links."""
    page = phone()
    sign_in(page, user, organiser=True)
    page.goto(f"/#/t/{tid}/organise")
    page.get_by_role("link", name=link).click()
    return page


def test_the_organiser_edits_the_settings_and_sees_the_apis_refusal(phone: Phone, stack: Stack) -> None:
    """R2.1, R2.2: the settings form is filled from the tournament; a change the API
    refuses (registration closing after the start) shows its 422 message and changes nothing;
    more places, a new fee and another rule profile are saved, and the waiting player is
    promoted into the new place."""
    client = Client(stack)
    organiser = f"web-edit-org-{RUN}"
    tid = tournament(client, organiser, capacity=2, name="Κύπελλο Ρυθμίσεων")
    for i in range(3):
        _entrant(client, f"web-edit-{i}-{RUN}", f"Παίκτης Ρυθμίσεων {i}", tid)
    before = client.call("GET", f"/tournaments/{tid}").body
    assert (before["registered"], before["waiting"]) == (2, 1)

    page = _organiser_at(phone, organiser, tid, "Ρυθμίσεις τουρνουά")
    page.wait_for_url(f"**/#/t/{tid}/edit")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ρυθμίσεις: Κύπελλο Ρυθμίσεων")
    expect(page.locator("input[name=capacity]")).to_have_value("2")
    expect(page.locator("input[name=fee]")).to_have_value("30,00")
    accessible_in_both_languages(page, "[data-testid=edit-form]")
    screenshot(page, "edit-tournament")

    # Registration closing after the start: the API's 422, shown; nothing changed.
    starts = datetime.fromisoformat(page.locator("input[name=starts]").input_value())
    page.locator("input[name=closes]").fill((starts + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"))
    page.locator("input[name=capacity]").fill("3")
    page.get_by_role("button", name="Αποθήκευση").click()
    # said in Greek by its code, with no English sentence from the API in it
    expect(page.get_by_role("alert")).to_have_text(GREEK_ONLY)
    unchanged = client.call("GET", f"/tournaments/{tid}").body
    assert unchanged["registration_closes_at"] == before["registration_closes_at"]
    assert unchanged["capacity"] == 2

    # A capacity the form itself would let through but the API refuses (below 2): its message.
    page.reload()
    page.locator("input[name=capacity]").evaluate("e => e.removeAttribute('min')")
    page.locator("input[name=capacity]").fill("1")
    page.get_by_role("button", name="Αποθήκευση").click()
    expect(page.get_by_role("alert")).to_have_text(GREEK_ONLY)
    assert client.call("GET", f"/tournaments/{tid}").body["capacity"] == 2

    # Three places, 35 euros, the federation's profile: saved; the waiting player gets the place.
    page.reload()
    page.locator("input[name=capacity]").fill("3")
    page.locator("input[name=fee]").fill("35")
    page.locator("select[name=profile]").select_option("hbf")
    page.get_by_role("button", name="Αποθήκευση").click()
    expect(page.get_by_test_id("edit-message")).to_have_text("Οι ρυθμίσεις αποθηκεύτηκαν")
    after = client.call("GET", f"/tournaments/{tid}").body
    assert after["capacity"] == 3
    assert after["entry_fee"]["amount"] == 3500
    assert after["rule_profile"] == "hbf"
    assert (after["registered"], after["waiting"]) == (3, 0)
    expect(page.locator("input[name=capacity]")).to_have_value("3")
    expect(page.get_by_role("alert")).to_have_count(0)


def test_the_organiser_sets_the_league_points(phone: Phone, stack: Stack) -> None:
    """R5.6: a league's page shows the three points fields, empty (the 2 / 1 / 0 default); the
    organiser sets 3 / 1 / 0 and it is saved; a win worth no more than a loss is the API's 422,
    shown, and the points stay as they were."""
    client = Client(stack)
    organiser = f"web-points-org-{RUN}"
    tid = tournament(client, organiser, format="round_robin", name="Πρωτάθλημα Βαθμών")
    page = _organiser_at(phone, organiser, tid, "Ρυθμίσεις τουρνουά")
    page.wait_for_url(f"**/#/t/{tid}/edit")
    expect(page.locator("input[name=points_win]")).to_have_value("")
    accessible_in_both_languages(page, "[data-testid=edit-form]")
    page.locator("input[name=points_win]").fill("3")
    page.locator("input[name=points_loss]").fill("1")
    page.locator("input[name=points_forfeit]").fill("0")
    page.get_by_role("button", name="Αποθήκευση").click()
    expect(page.get_by_test_id("edit-message")).to_have_text("Οι ρυθμίσεις αποθηκεύτηκαν")
    points = {"win": 3, "loss": 1, "forfeit": 0}
    assert client.call("GET", f"/tournaments/{tid}").body["match_points"] == points
    expect(page.locator("input[name=points_win]")).to_have_value("3")

    page.locator("input[name=points_win]").fill("1")
    page.get_by_role("button", name="Αποθήκευση").click()
    expect(page.get_by_role("alert")).to_have_text(GREEK_ONLY)
    assert client.call("GET", f"/tournaments/{tid}").body["match_points"] == points


def test_after_the_draw_the_settings_are_read_only(phone: Phone, stack: Stack) -> None:
    """R2.2: once the draw is made the API changes no setting, so the form says so and
    offers nothing to save."""
    client = Client(stack)
    day = TournamentDay(client, f"web-locked-{RUN}", 2)
    day.enter_field()
    assert day.draw().status == 201
    page = _organiser_at(phone, day.organiser, day.id, "Ρυθμίσεις τουρνουά")
    expect(page.get_by_text("Η κλήρωση έγινε: οι ρυθμίσεις δεν αλλάζουν πια.")).to_be_visible()
    expect(page.locator("input[name=capacity]")).to_be_disabled()
    expect(page.get_by_role("button", name="Αποθήκευση")).to_have_count(0)


def test_the_organiser_approves_one_entry_and_refuses_another(phone: Phone, stack: Stack) -> None:
    """R3.7: entries waiting for approval are listed for the organiser; one approved
    takes a place, one refused takes none and shows nowhere on the public entry list."""
    client = Client(stack)
    organiser = f"web-approve-org-{RUN}"
    tid = tournament(client, organiser, capacity=8, name="Κύπελλο Έγκρισης", requires_approval=True)
    welcome = _entrant(client, f"web-approve-yes-{RUN}", "Αλέκα Αποδεκτή", tid)
    refused = _entrant(client, f"web-approve-no-{RUN}", "Ρένος Ρίφης", tid)

    page = _organiser_at(phone, organiser, tid, "Εγκρίσεις συμμετοχών")
    pending = page.get_by_test_id("pending").locator("li")
    expect(pending).to_have_count(2)
    expect(pending.first).to_contain_text(welcome)
    accessible_in_both_languages(page, "[data-testid=pending] li")
    screenshot(page, "approvals")

    page.get_by_role("button", name="Έγκριση: Αλέκα Αποδεκτή").click()
    expect(page.get_by_test_id("approvals-message")).to_have_text("Εγκρίθηκε: Αλέκα Αποδεκτή πήρε θέση")
    expect(pending).to_have_count(1)
    expect(page.get_by_test_id("approved")).to_contain_text(welcome)
    page.get_by_role("button", name="Απόρριψη: Ρένος Ρίφης").click()
    expect(page.get_by_test_id("approvals-message")).to_have_text("Απορρίφθηκε η συμμετοχή: Ρένος Ρίφης")
    expect(pending).to_have_count(0)
    expect(page.get_by_text("Καμία συμμετοχή δεν περιμένει έγκριση.")).to_be_visible()

    public = client.call("GET", f"/tournaments/{tid}/entries").body
    assert [(e["tavla_id"], e["status"]) for e in public["main"]] == [(welcome, "registered")]
    assert refused not in json.dumps(public)
    staff_view = client.call("GET", f"/tournaments/{tid}/entries/contacts", user=organiser).body
    assert staff_view["pending"] == []


def test_the_organiser_names_referees_and_organisers_and_removes_one(phone: Phone, stack: Stack) -> None:
    """R1.3: the whole staff list by Tavla ID; an unknown ID is refused with the API's
    message; a referee added may see the staff-only audit trail, an organiser added may change
    the settings, and a referee removed loses that access. The list survives a reload."""
    client = Client(stack)
    organiser = f"web-staff-org-{RUN}"
    tid = tournament(client, organiser, capacity=8, name="Κύπελλο Προσωπικού")
    referee_user, helper_user = f"web-staff-ref-{RUN}", f"web-staff-help-{RUN}"
    referee = _profile(client, referee_user, "Ρένα Διαιτήτρια")
    helper = _profile(client, helper_user, "Χάρης Βοηθός")
    audit = f"/tournaments/{tid}/audit"
    assert client.call("GET", audit, user=referee_user).status == 403

    page = _organiser_at(phone, organiser, tid, "Διαιτητές και διοργανωτές")
    expect(page.get_by_text("Δεν έχει οριστεί κανείς ακόμη.")).to_be_visible()
    members = page.get_by_test_id("staff").locator("li")

    page.locator("input[name=staff-id]").fill("ZZZZ999")
    page.get_by_role("button", name="Προσθήκη").click()
    expect(page.get_by_role("alert")).to_contain_text("Δεν βρέθηκε αυτός ο παίκτης.")  # in Greek, by its code
    expect(members).to_have_count(0)

    page.locator("input[name=staff-id]").fill(referee.lower())
    page.get_by_role("button", name="Προσθήκη").click()
    expect(page.get_by_test_id("staff-message")).to_have_text(f"Προστέθηκε: {referee}")
    page.locator("input[name=staff-id]").fill(helper)
    page.locator("select[name=role]").select_option("organiser")
    page.get_by_role("button", name="Προσθήκη").click()
    expect(members).to_have_count(2)
    expect(members.filter(has_text=referee)).to_contain_text("Διαιτητής")
    expect(members.filter(has_text=helper)).to_contain_text("Διοργανωτής")
    assert client.call("GET", audit, user=referee_user).status == 200
    assert _staff(client, tid, organiser) == {(referee, "referee"), (helper, "organiser")}
    patched = client.call("PATCH", f"/tournaments/{tid}", {"tables": 4}, user=helper_user)
    assert patched.status == 200, patched.body

    page.reload()
    expect(members).to_have_count(2)
    accessible_in_both_languages(page, "[data-testid=staff] li")
    screenshot(page, "staff")

    page.get_by_role("button", name=f"Αφαίρεση {referee}").click()
    expect(page.get_by_test_id("staff-message")).to_have_text(f"Αφαιρέθηκε: {referee}")
    expect(members).to_have_count(1)
    expect(members).to_contain_text(helper)
    assert client.call("GET", audit, user=referee_user).status == 403
    assert _staff(client, tid, organiser) == {(helper, "organiser")}


def test_the_referee_penalises_and_disqualifies_after_confirming(phone: Phone, stack: Stack) -> None:
    """R8.3, R8.4: from the referee desk, a game penalty gives the opponent a point in
    the match (the live score and the match's history show it); a disqualification asks first,
    a cancel changes nothing, the confirmation forfeits the player's match."""
    client = Client(stack)
    day = TournamentDay(client, f"web-conduct-{RUN}", 4)
    day.enter_field()
    drawn = day.draw()
    assert drawn.status == 201, drawn.body
    stack.drain()
    first, second = drawn.body["pairings"][:2]
    offender, opponent = first["home"]["tavla_id"], first["away"]["tavla_id"]
    cheat = second["away"]["tavla_id"]
    names = {p["tavla_id"]: p["name"] for m in (first, second) for p in (m["home"], m["away"])}

    page = phone()
    sign_in(page, day.referee)
    page.goto(f"/#/t/{day.id}/desk")
    page.get_by_role("link", name="Ποινές και αποκλεισμοί").click()
    page.wait_for_url(f"**/#/t/{day.id}/conduct")
    expect(page.locator("select[name=player] option")).to_have_count(4)
    accessible_in_both_languages(page, "select[name=player]:has(option)")
    screenshot(page, "conduct")

    # A game penalty: one point to the opponent, in the match.
    page.locator("select[name=player]").select_option(offender)
    page.get_by_label("Ποινή: χάνει ένα παιχνίδι").check()
    page.locator("textarea[name=reason]").fill("Καθυστέρηση")
    page.get_by_role("button", name="Ποινή παιχνιδιού").click()
    message = page.get_by_test_id("conduct-message")
    expect(message).to_have_text(f"Ποινή παιχνιδιού: {names[offender]}. Σκορ τώρα 0–1")
    match = client.call("GET", f"/matches/{first['id']}").body
    penalties = [h for h in match["history"] if h["kind"] == "penalty"]
    assert [(p["winner"], p["points"]) for p in penalties] == [(opponent, 1)]
    assert "Καθυστέρηση" in str(penalties[0]["reason"])
    assert match["score"] == [0, 1]
    recorded = page.get_by_test_id("conduct-list").locator("li")
    expect(recorded).to_have_count(1)
    expect(recorded.first).to_contain_text("Καθυστέρηση")

    # A disqualification asks first; Cancel records nothing.
    page.locator("select[name=player]").select_option(cheat)
    page.get_by_label("Αποκλεισμός", exact=True).check()
    page.locator("textarea[name=reason]").fill("Αντιαθλητική συμπεριφορά")
    page.get_by_role("button", name="Αποκλεισμός…").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(f"Αποκλεισμός του/της {names[cheat]};")
    assert axe(page) == []  # the question itself, in Greek
    dialog.evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot(page, "disqualify-confirm")
    accessible_in_both_languages(page, "select[name=player]:has(option)")
    expect(dialog).to_have_count(0)  # a reload forgets the question: nothing was sent
    assert client.call("GET", f"/matches/{second['id']}").body.get("result") is None

    page.locator("select[name=player]").select_option(cheat)
    page.get_by_label("Αποκλεισμός", exact=True).check()
    page.get_by_role("button", name="Αποκλεισμός…").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Άκυρο").click()
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    assert client.call("GET", f"/matches/{second['id']}").body.get("result") is None

    page.get_by_role("button", name="Αποκλεισμός…").click()
    page.get_by_role("button", name=f"Ναι, αποκλεισμός: {names[cheat]}").click()
    expect(message).to_have_text(f"Αποκλείστηκε: {names[cheat]}")
    expect(recorded).to_have_count(2)
    result = client.call("GET", f"/matches/{second['id']}").body["result"]
    assert result["forfeit"] is True
    assert result["winner"] == second["home"]["tavla_id"]


def test_a_load_without_signal_keeps_the_clouds_sign_in(phone: Phone, stack: Stack) -> None:
    """PWA: a cloud stage's /config.json is kept by the service worker, so a page
    loaded without signal still offers the cloud's sign-in, not the local stack's."""
    page = phone()
    config = {
        "mode": "cognito",
        "api": stack.url,
        "sign_in": "https://tavla-test.auth.example.org",
        "client_id": "web",
    }

    def cloud(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(config))

    page.context.route(re.compile(r"/config\.json$"), cloud)
    page.goto("/#/signin")
    expect(page.get_by_text("Συνδέεστε στη σελίδα σύνδεσης του Tavla")).to_be_visible()
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()
    expect(page.locator("input[name=user]")).to_have_count(0)
    page.context.unroute(re.compile(r"/config\.json$"))

    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.get_by_text("Συνδέεστε στη σελίδα σύνδεσης του Tavla")).to_be_visible()
        expect(page.locator("input[name=user]")).to_have_count(0)
    finally:
        page.context.set_offline(False)
