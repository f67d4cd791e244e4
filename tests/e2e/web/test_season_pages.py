"""The season's page and the Super Final invitation in a real browser, at a phone's size.

The season is set up over HTTP (one finished tournament of four counted, the clock moved past
the season's end date so that its schedule closes it and invites the two leaders); what a
fan and the invited players do goes through the browser: the season page reached from the
home page (its calendar, the standings with the points of each tournament, the finalists), and
each invited player's answer, asked twice, with the deadline in Greek time. axe in Greek,
English and Italian; screenshots to docs/screenshots/.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import played_in_season
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in

ATHENS = ZoneInfo("Europe/Athens")
ADMIN = ("admins",)
FED = "web-season-federation"


@pytest.fixture(scope="module")
def closed_season(stack: Stack) -> dict[str, Any]:
    """A season of one counted tournament, closed by its schedule: its id, name, tournament,
    standings, and the users of its players by Tavla ID."""
    client = Client(stack)
    run = uuid.uuid4().hex[:6]
    season, name = f"webseason{run}", f"Σεζόν Ιστού {run}"
    today = datetime.fromisoformat(stack.now()).astimezone(ATHENS).date()
    body = {
        "name": name,
        "starts_on": (today - timedelta(days=1)).isoformat(),
        "ends_on": today.isoformat(),
        "settings": {"super_final_size": 2, "super_final_reserves": 1, "invitation_reply_days": 2},
    }
    assert client.call("PUT", f"/seasons/{season}", body, user=FED, groups=ADMIN).status == 200
    day, standings = played_in_season(client, f"web-season-{run}", season)
    closes = datetime.combine(today + timedelta(days=1), datetime.min.time(), ATHENS)
    stack.advance_to(closes + timedelta(seconds=60))
    stack.drain()
    assert client.call("GET", f"/seasons/{season}").body["status"] == "closed"
    return {"id": season, "name": name, "tournament": day.id, "standings": standings, "users": day.players}


def _fits_the_phone(page: Page) -> None:
    """Nothing wider than the 360 px screen but the standings' own scrolling region."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_season_page_from_the_home_page(phone: Phone, closed_season: dict[str, Any]) -> None:
    """R10.4, R10.5: from the home page to the season: its life and dates, its calendar (the
    tournament marked counted), the standings with a column per counted tournament, and the
    finalists (none accepted yet of the two seats)."""
    fan = phone()
    fan.goto("/")
    fan.get_by_test_id("season-links").get_by_role("link", name=closed_season["name"]).click()
    fan.wait_for_url(f"**/#/season/{closed_season['id']}")
    expect(fan.get_by_role("heading", level=1)).to_have_text(closed_season["name"])
    expect(fan.get_by_test_id("season-life")).to_contain_text("Έκλεισε")
    calendar = fan.get_by_test_id("season-calendar").locator("li")
    expect(calendar).to_have_count(1)
    expect(calendar).to_contain_text("βαθμοί μετρημένοι")
    table = fan.get_by_test_id("season-standings")
    expect(table.locator("thead abbr")).to_have_text("#1")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(4)
    for i, row in enumerate(closed_season["standings"]):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(2)).to_have_text(str(row["points"]))
        expect(cells.nth(3)).to_have_text(str(row["by_tournament"][closed_season["tournament"]]))
    expect(fan.get_by_test_id("finalists")).to_contain_text("Αποδέχθηκαν 0 από 2 θέσεις")
    _fits_the_phone(fan)
    accessible_in_every_language(fan, "[data-testid=season-standings]")
    screenshot(fan, "season-page")


def test_the_invited_players_answer_asked_twice_before_the_deadline(
    phone: Phone, stack: Stack, closed_season: dict[str, Any]
) -> None:
    """R10.4: the leader finds the invitation from the home page with its deadline in Greek
    time, accepts (asked first, then done); the second player's "no" to the question sends
    nothing, then the decline is confirmed; the season page counts the one accepted."""
    leader, second = (r["tavla_id"] for r in closed_season["standings"][:2])
    users = closed_season["users"]
    player = phone()
    sign_in(player, users[leader])
    player.goto("/")
    player.get_by_role("link", name="Οι προσκλήσεις μου").click()
    card = player.get_by_test_id("invitations").locator("li")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(f"Super Final: {closed_season['name']}")
    reply_by = datetime.fromisoformat(
        Client(stack).call("GET", "/me/invitations", user=users[leader]).body["invitations"][0]["reply_by"]
    )
    expect(player.get_by_test_id("reply-by")).to_contain_text(reply_by.astimezone(ATHENS).strftime("%H:%M"))
    _fits_the_phone(player)
    accessible_in_every_language(player, "[data-testid=reply-by]")
    screenshot(player, "super-final-invitation")
    player.get_by_role("button", name="Αποδοχή").click()
    expect(player.get_by_test_id("confirm-accept")).to_contain_text("Θα αναμένεται να αγωνιστείτε")
    player.get_by_role("button", name="Ναι: Αποδοχή").click()
    expect(player.get_by_test_id("invitation-message")).to_contain_text("Αποδεχθήκατε")
    expect(player.get_by_test_id("invitation-status")).to_have_text("Αποδεχθήκατε")
    expect(player.get_by_role("button", name="Άρνηση")).to_have_count(0)

    other = phone()
    sign_in(other, users[second])
    other.goto("/#/invitations")
    other.get_by_role("button", name="Άρνηση").click()
    other.get_by_test_id("confirm-decline").get_by_role("button", name="Άκυρο").click()
    expect(other.get_by_test_id("invitation-status")).to_have_text("Αναμένεται η απάντησή σας")
    other.get_by_role("button", name="Άρνηση").click()
    other.get_by_role("button", name="Ναι: Άρνηση").click()
    expect(other.get_by_test_id("invitation-status")).to_have_text("Αρνηθήκατε")

    other.goto(f"/#/season/{closed_season['id']}")
    expect(other.get_by_test_id("accepted").locator("li")).to_have_count(1)
    expect(other.get_by_test_id("finalists")).to_contain_text(re.compile("Αποδέχθηκαν 1 από 2"))
