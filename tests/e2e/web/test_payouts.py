"""Prize payouts on the organiser's phone (R11.5), in a real browser at 360 px on the local
stack: the day is played over HTTP; the payouts go through the browser, each confirmed before
it is recorded, its answer shown in the winner's own card; the API is asked what was stored."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client, until
from tests.e2e.conftest import Stack
from tests.e2e.day import TournamentDay
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]


def test_a_prize_paid_in_two_parts_each_confirmed(phone: Phone, stack: Stack) -> None:
    """The winner's 50,00: 20,00 now (asked to confirm, then the card says so and 30,00 is left),
    40,00 refused on the phone (only 30,00 left, nothing sent), a payout cancelled at the
    confirmation records nothing, then the 30,00 left; the API lists both payouts."""
    client = Client(stack)
    prizes = [{"places": [1, 1], "amount": {"amount": 5000, "currency": "EUR"}}]
    day = TournamentDay(client, f"web-payouts-{RUN}", 4, prizes=prizes)
    day.enter_field()
    day.run()
    day.finish()
    assert until(lambda: client.call("GET", f"/tournaments/{day.id}/prizes").body["final"])

    desk = phone()
    sign_in(desk, day.organiser, organiser=True)
    desk.goto(f"/#/t/{day.id}/money")
    desk.get_by_role("link", name="Αποδόσεις επάθλων").click()
    card = desk.get_by_test_id("winner")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("winner-rest")).to_have_text(re.compile(r"^50,00\s€$"))
    accessible_in_every_language(desk, "[data-testid=winner]")

    amount = card.locator("input[name=payout-amount]")
    amount.fill("20,00")
    card.get_by_role("button", name="Απόδοση").click()
    confirm = card.get_by_test_id("payout-confirm")
    expect(confirm).to_contain_text(re.compile(r"20,00\s€"))
    screenshot(desk, "payout-confirm")
    confirm.get_by_role("button", name="Ναι, δόθηκαν").click()
    expect(card.get_by_test_id("winner-message")).to_contain_text(re.compile(r"Καταγράφηκε απόδοση 20,00\s€"))
    expect(card.get_by_test_id("winner-rest")).to_have_text(re.compile(r"^30,00\s€$"))
    expect(desk.get_by_test_id("payouts-paid")).to_have_text(re.compile(r"^20,00\s€$"))

    amount.fill("40,00")
    card.get_by_role("button", name="Απόδοση").click()
    expect(card.get_by_role("alert")).to_contain_text(re.compile(r"Απομένουν μόνο 30,00\s€"))
    expect(card.get_by_test_id("payout-confirm")).to_have_count(0)

    amount.fill("30,00")
    card.get_by_role("button", name="Απόδοση").click()
    card.get_by_test_id("payout-confirm").get_by_role("button", name="Άκυρο").click()
    expect(card.get_by_test_id("winner-rest")).to_have_text(re.compile(r"^30,00\s€$"))
    card.get_by_role("button", name="Απόδοση").click()
    card.get_by_test_id("payout-confirm").get_by_role("button", name="Ναι, δόθηκαν").click()
    expect(card.get_by_test_id("winner-rest")).to_have_text(re.compile(r"^0,00\s€$"))
    expect(card.locator("input[name=payout-amount]")).to_have_count(0)
    screenshot(desk, "payouts")

    listed = client.call("GET", f"/tournaments/{day.id}/prizes/payouts", user=day.organiser).body
    [winner] = listed["winners"]
    assert sorted(p["amount"]["amount"] for p in winner["payouts"]) == [2000, 3000]
    assert (winner["rest_due"]["amount"], listed["paid"]["amount"]) == (0, 5000)
