"""Money and the season in a real browser, at a phone's size, on the local stack.

The setting up (tournaments, registrations, a whole day of play) goes over HTTP, as
tests/e2e does; what a person does on these screens goes through the browser: paying by card
on the fake provider's page, uploading a bank statement and matching a line by hand, paying a
prize out, the rating list, a player's history chart, the season standings. Every new screen
is checked with axe-core in Greek and in English and saved to docs/screenshots/.
"""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Locator, expect

from tests.e2e.client import Client, tournament, until
from tests.e2e.conftest import Stack
from tests.e2e.day import TournamentDay
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, registered_player, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]
ORGANISERS = ("organisers",)
EUR30 = re.compile(r"^30,00\s€$")  # Greek formatting, whatever the language of the page
EUR0 = re.compile(r"^0,00\s€$")


def test_a_player_pays_by_card_and_the_organiser_reconciles_the_bank_statement(
    phone: Phone, stack: Stack
) -> None:
    """R3.3: the player sees what they owe, pays by card on the provider's page and the
    payment arrives in their ledger (the provider's webhook); the organiser uploads a bank
    statement, sees one line matched by its check-in code and one unmatched, and matches that
    one by hand; the players' payments follow."""
    client = Client(stack)
    organiser = f"web-money-organiser-{RUN}"
    tid = tournament(client, organiser, capacity=8, name="Κύπελλο Ταμείου")
    payer = f"web-payer-{RUN}"
    registered_player(client, payer, "Πέτρος Πληρωτής", tid)
    _, transfer_code = registered_player(client, f"web-transfer-{RUN}", "Τάνια Τράπεζα", tid)
    forgetful_id, _ = registered_player(client, f"web-forgetful-{RUN}", "Φώτης Ξεχασιάρης", tid)

    # The player's ledger on the tournament page: 30 euros due, nothing paid.
    player = phone()
    sign_in(player, payer)
    player.goto(f"/#/t/{tid}")
    expect(player.get_by_test_id("ledger-outstanding")).to_have_text(EUR30)
    expect(player.get_by_test_id("ledger-paid")).to_have_text(EUR0)
    accessible_in_both_languages(player, "[data-testid=my-ledger]")
    screenshot(player, "my-payment")

    # Pay by card: the provider's page, its Pay button; the webhook records the payment.
    player.get_by_role("button", name=re.compile("Πληρωμή με κάρτα")).click()
    player.wait_for_url(re.compile(r"/checkout/cs_test_"))
    expect(player.get_by_role("heading")).to_have_text("Pay 30.00 EUR")
    player.get_by_role("button", name="Pay").click()
    expect(player.locator("body")).to_contain_text('"delivered": 200')
    player.goto(f"/#/t/{tid}")
    expect(player.get_by_test_id("ledger-paid")).to_have_text(EUR30)
    expect(player.get_by_test_id("ledger-outstanding")).to_have_text(EUR0)
    expect(player.get_by_test_id("my-ledger")).to_contain_text("κάρτα (online)")

    # The organiser's statement: one transfer quoting a check-in code, one quoting nothing.
    desk = phone()
    sign_in(desk, organiser, organiser=True)
    desk.goto(f"/#/t/{tid}/money")
    expect(desk.get_by_test_id("collected")).to_have_text(EUR30)
    statement = (
        "date,amount,reference,payer\n"
        f"2026-11-20,30.00,Entry {transfer_code},Tania Trapeza\n"
        "2026-11-21,30.00,Tournament fee,F. Xechasiaris\n"
    )
    desk.locator("textarea[name=statement]").fill(statement)
    desk.get_by_role("button", name="Ανέβασμα").click()
    expect(desk.get_by_test_id("money-message")).to_have_text(
        "Εισήχθη: 1 αντιστοιχίστηκαν, 1 χωρίς αντιστοίχιση"
    )
    lines = desk.get_by_test_id("statement-lines").locator("li")
    expect(lines.locator("xpath=self::*[@data-status='matched']")).to_have_count(1)
    unmatched = lines.locator("xpath=self::*[@data-status='unmatched']")
    expect(unmatched).to_have_count(1)
    expect(unmatched).to_contain_text("F. Xechasiaris")
    accessible_in_both_languages(desk, "[data-testid=statement-lines]")
    desk.get_by_test_id("statement-lines").evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot(desk, "bank-statement")

    # The unmatched line matched by hand to the player who forgot the code.
    unmatched.locator("input[name=match-tavla-id]").fill(forgetful_id)
    unmatched.get_by_role("button", name="Αντιστοίχιση").click()
    expect(lines.locator("xpath=self::*[@data-status='matched']")).to_have_count(2)
    expect(desk.get_by_test_id("collected")).to_have_text(re.compile(r"^90,00\s€$"))
    rows = desk.get_by_test_id("payments").locator("tbody tr")
    expect(rows.filter(has_text=forgetful_id)).to_contain_text("0,00")


def test_prizes_ratings_and_the_season_after_a_finished_day(phone: Phone, stack: Stack) -> None:
    """R11.1: the prize table at the finish, a prize paid out; R10.x: the
    national rating list (provisional marked, filtered by club), a player's rating history as a
    chart, the season standings and the Super Final invitations."""
    client = Client(stack)
    season = f"web{RUN}"
    body = {"name": f"Σεζόν {RUN}", "starts_on": "2026-01-01", "ends_on": "2027-12-31"}
    reply = client.call("PUT", f"/seasons/{season}", body, user="web-federation", groups=("admins",))
    assert reply.status == 200, reply.body
    prizes = [{"places": [1, 1], "amount": {"amount": 5000, "currency": "EUR"}}]
    day = TournamentDay(client, f"web-season-{RUN}", 4, season_id=season, prizes=prizes)
    day.enter_field()
    # The day's players get a city and clubs of this run (the stack is shared with other tests).
    city = f"Web {RUN}"
    ids = {int(user.rsplit("-", 1)[1]): tavla_id for tavla_id, user in day.players.items()}
    for i, tavla_id in ids.items():
        moved = client.call(
            "PATCH", "/me", {"city": city, "club": f"{city} {i % 2}"}, user=day.players[tavla_id]
        )
        assert moved.status == 200, moved.body
    day.run()
    day.finish()
    champion = until(
        lambda: [a for a in client.call("GET", f"/tournaments/{day.id}/prizes").body["awards"] if a["place"]]
    )
    assert champion, "no prize awarded"
    rows = lambda: client.call("GET", f"/seasons/{season}/standings").body["rows"]  # noqa: E731
    standings = until(lambda: len(rows()) == 4 and rows())
    assert standings, rows()
    history = until(lambda: client.call("GET", f"/players/{ids[1]}").body["history"])
    assert history, "no rating history"

    # The organiser's prize table: 50 euros for the winner, paid out in cash.
    organiser = phone()
    sign_in(organiser, day.organiser, organiser=True)
    organiser.goto(f"/#/t/{day.id}/money")
    table = organiser.get_by_test_id("prize-table")
    expect(table.locator("li")).to_have_count(1)
    expect(table).to_contain_text(re.compile(r"50,00\s€"))
    accessible_in_both_languages(organiser, "[data-testid=prize-table]")
    table.evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot(organiser, "prize-table")
    table.get_by_role("button", name="Δόθηκε σε μετρητά").click()
    expect(organiser.get_by_test_id("money-message")).to_have_text("Η απόδοση καταγράφηκε")

    # The rating list: the national one; the day's four players by their city, provisional
    # (few rated matches); two of them by their club.
    fan = phone()
    fan.goto("/#/season")
    ratings = fan.get_by_test_id("rating-list").locator("li")
    expect(ratings.first).to_be_visible()
    accessible_in_both_languages(fan, "[data-testid=rating-list]")

    def row(i: int) -> Locator:
        return ratings.filter(has=fan.locator(f'a[href="#/player/{ids[i]}"]'))

    def show(by: str, value: str) -> None:
        fan.locator("select[name=by]").select_option(by)
        fan.locator("input[name=filter]").fill(value)
        fan.get_by_role("button", name="Εμφάνιση").click()

    show("city", city)
    expect(ratings).to_have_count(4)
    for i in range(4):
        expect(row(i)).to_have_count(1)
        expect(row(i).locator(".provisional")).to_be_visible()
    screenshot(fan, "ratings")
    show("club", f"{city} 1")
    expect(ratings).to_have_count(2)
    expect(row(1)).to_have_count(1)
    expect(row(3)).to_have_count(1)

    # A player's page: the rating history as an inline SVG chart, one point per match and the start.
    row(1).get_by_role("link").click()
    fan.wait_for_url(f"**/#/player/{ids[1]}")
    chart = fan.get_by_test_id("rating-chart")
    expect(chart).to_be_visible()
    played = len(client.call("GET", f"/players/{ids[1]}").body["history"])
    expect(chart.locator("circle")).to_have_count(played + 1)
    accessible_in_both_languages(fan, "[data-testid=rating-chart]")
    screenshot(fan, "rating-history")

    # The season: four players in the standings, the invitations to the Super Final.
    fan.goto(f"/#/season/{season}")
    expect(fan.get_by_role("heading", level=1)).to_have_text(f"Σεζόν {RUN}")
    expect(fan.get_by_test_id("season-standings").locator("tbody tr")).to_have_count(4)
    winner = standings[0]
    expect(fan.get_by_test_id("season-standings").locator("tbody tr").first).to_contain_text(
        str(winner["points"])
    )
    expect(fan.get_by_test_id("invited").locator("li").first).to_be_visible()
    accessible_in_both_languages(fan, "[data-testid=season-standings]")
    screenshot(fan, "season-standings")
