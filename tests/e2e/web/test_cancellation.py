"""A tournament postponed, then cancelled, from the organiser's screen in a real browser at a
phone's size, on the local stack (R2, R3.5): each asked before anything is sent; the public
page says postponed with the new start in the venue's time (a venue in Rome seen from a phone
in Athens), then cancelled with the reason; the paid entry is on the refund list; the screens
have 0 serious axe violations in Greek, English and Italian."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_every_language, registered_player, sign_in

RUN = uuid.uuid4().hex[:6]
ORGANISERS = ("organisers",)
ROME = ZoneInfo("Europe/Rome")


def test_the_organiser_postpones_then_cancels_and_the_public_page_says_so(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-cancel-organiser-{RUN}"
    client.call("POST", "/players", {"name": "Διοργανωτής Ακύρωσης"}, user=organiser)
    tid = tournament(
        client, organiser, name="Κύπελλο Πλημμύρας", time_zone="Europe/Rome", refund_policy={"kind": "none"}
    )
    paid_id, _ = registered_player(client, f"web-cancel-paid-{RUN}", "Σοφία Πληρωμένη", tid)
    registered_player(client, f"web-cancel-unpaid-{RUN}", "Άρης Απλήρωτος", tid)
    paid = client.call(
        "POST",
        f"/tournaments/{tid}/payments",
        {"tavla_id": paid_id, "method": "cash", "amount": {"amount": 3000}},
        user=organiser,
        groups=ORGANISERS,
    )
    assert paid.status == 201, paid.body
    before = client.call("GET", f"/tournaments/{tid}").body

    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/cancel")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ακύρωση ή αναβολή")
    accessible_in_every_language(page, "input[name=postpone-to]")

    # postponed a week, 18:30 in Rome: asked first; a "no" sends nothing
    start = datetime.fromisoformat(before["starts_at"]).astimezone(ROME) + timedelta(days=7)
    wanted = start.replace(hour=18, minute=30, second=0, microsecond=0)
    page.locator("input[name=postpone-to]").fill(wanted.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Αναβολή τουρνουά").click()
    dialog = page.get_by_test_id("confirm-postpone")
    expect(dialog).to_contain_text("όλοι οι παίκτες ενημερώνονται")
    dialog.get_by_role("button", name="Άκυρο").click()
    assert client.call("GET", f"/tournaments/{tid}").body["starts_at"] == before["starts_at"]
    page.get_by_role("button", name="Αναβολή τουρνουά").click()
    page.get_by_test_id("confirm-postpone").get_by_role("button", name="Ναι: Αναβολή τουρνουά").click()
    expect(page.get_by_test_id("cancel-message")).to_have_text("Το τουρνουά μετατέθηκε.")
    moved = client.call("GET", f"/tournaments/{tid}").body
    assert datetime.fromisoformat(moved["starts_at"]) == wanted
    assert datetime.fromisoformat(moved["postponed_from"]) == datetime.fromisoformat(before["starts_at"])

    visitor = phone()
    visitor.goto(f"/#/t/{tid}")
    banner = visitor.get_by_test_id("called-off")
    expect(banner).to_contain_text("Το τουρνουά μετατέθηκε: ξεκινά")
    expect(banner).to_contain_text("18:30")  # the venue's clock, not the phone's (19:30 in Athens)
    expect(banner).to_contain_text(str(wanted.day))
    expect(banner).not_to_contain_text(re.compile(r"\d{4}-\d{2}-\d{2}T"))
    accessible_in_every_language(visitor, "[data-testid=called-off]")

    # cancelled with a reason: asked first; the refund still to pay is said and listed
    page.locator("input[name=cancel-reason]").fill("πλημμύρισε η αίθουσα")
    page.get_by_role("button", name="Ακύρωση τουρνουά").click()
    confirm = page.get_by_test_id("confirm-cancel")
    expect(confirm).to_contain_text("παίρνουν πίσω ό,τι πλήρωσαν")
    confirm.get_by_role("button", name="Ναι: Ακύρωση τουρνουά").click()
    expect(page.get_by_test_id("cancel-message")).to_have_text(
        re.compile(r"^Το τουρνουά ακυρώθηκε· επιστροφές προς πληρωμή: 30,00\s€\.$")
    )
    expect(page.get_by_test_id("cancelled")).to_be_visible()
    assert client.call("GET", f"/tournaments/{tid}").body["status"] == "cancelled"
    accessible_in_every_language(page, "[data-testid=cancelled]")
    page.get_by_test_id("refunds-link").click()
    page.wait_for_url(f"**/#/t/{tid}/refunds")
    expect(page.get_by_test_id("refunds-due")).to_have_text(re.compile(r"^30,00\s€$"))
    expect(page.get_by_test_id("refunds-due-list").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("refunds-due-list")).to_contain_text(paid_id)

    visitor.reload()
    banner = visitor.get_by_test_id("called-off")
    expect(banner).to_contain_text("Το τουρνουά ακυρώθηκε. Αιτία: πλημμύρισε η αίθουσα.")
    expect(banner).to_contain_text("παίρνουν πίσω όλο το ποσό")
    accessible_in_every_language(visitor, "[data-testid=called-off]")
