"""Who comes to the Super Final, as its organiser sees it, and the season's screens following
the answers by themselves.

A season of four closed by its schedule (two seats, two reserves): the second declines, the
deadline passes for the leader and the first reserve, the second reserve is invited. In the
browser the organiser's replies screen lists each kind (waiting with its deadline in Greek
time, declined, lapsed, the reserve marked); then the invited reserve accepts on one phone
and the organiser's replies screen and the season page on another show it with no reload.
axe in Greek, English and Italian at 360 px.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.day import played_in_season
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in

ATHENS = ZoneInfo("Europe/Athens")
ADMIN = ("admins",)
SHOWS_S = 10.0  # the poll's safety net with the push channel open (live.POLL_WITH_HINTS_MS)


def test_the_organiser_sees_every_answer_and_an_accept_shows_without_a_reload(
    phone: Phone, fresh_stack_factory: Callable[..., Stack]
) -> None:
    """On a stack of its own: the test moves the platform's clock two days on, which would
    lapse the invitations of another test's season on a shared stack."""
    stack = fresh_stack_factory()
    client = Client(stack)
    run = uuid.uuid4().hex[:6]
    season, name = f"webreplies{run}", f"Σεζόν Απαντήσεων {run}"
    organiser = f"web-replies-org-{run}"
    made = client.call("POST", "/players", {"name": "Ορέστης Διοργανωτής"}, user=organiser)
    assert made.status == 201, made.body
    today = datetime.fromisoformat(stack.now()).astimezone(ATHENS).date()
    body = {
        "name": name,
        "starts_on": (today - timedelta(days=1)).isoformat(),
        "ends_on": today.isoformat(),
        "organiser": made.body["tavla_id"],
        "settings": {"super_final_size": 2, "super_final_reserves": 2, "invitation_reply_days": 2},
    }
    assert client.call("PUT", f"/seasons/{season}", body, user="web-replies-fed", groups=ADMIN).status == 200
    day, standings = played_in_season(client, f"web-replies-{run}", season)
    order = [r["tavla_id"] for r in standings]
    users = day.players
    closes = datetime.combine(today + timedelta(days=1), datetime.min.time(), ATHENS)
    stack.advance_to(closes + timedelta(seconds=60))
    stack.drain()
    declined = client.call("POST", f"/seasons/{season}/invitations/me/decline", user=users[order[1]])
    assert declined.status == 200, declined.body
    stack.drain()
    stack.advance(timedelta(days=2, minutes=5).total_seconds())  # the leader and the first reserve lapse
    stack.drain()
    replies = client.call("GET", f"/seasons/{season}/invitations/replies", user=organiser).body
    assert [i["tavla_id"] for i in replies["pending"]] == [order[3]], replies
    reply_by = datetime.fromisoformat(replies["pending"][0]["reply_by"]).astimezone(ATHENS)

    desk = phone(base_url=stack.url)
    sign_in(desk, organiser)
    desk.goto(f"/#/season/{season}")
    desk.get_by_test_id("replies-link").click()
    desk.wait_for_url(f"**/#/season/{season}/replies")
    pending = desk.get_by_test_id("replies-pending").locator("li")
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text(reply_by.strftime("%H:%M"))
    expect(pending).to_contain_text("ώρα Ελλάδας")
    expect(pending).to_contain_text("από τους αναπληρωματικούς")
    expect(desk.get_by_test_id("replies-declined").locator("li")).to_have_count(1)
    expect(desk.get_by_test_id("replies-expired").locator("li")).to_have_count(2)
    expect(desk.get_by_test_id("replies-summary")).to_contain_text("Αποδέχθηκαν 0 από 2")
    assert desk.evaluate("document.documentElement.scrollWidth") <= 360
    accessible_in_every_language(desk, "[data-testid=replies-pending]")
    screenshot(desk, "super-final-replies")
    season_page = desk.context.new_page()
    season_page.goto(f"/#/season/{season}")
    expect(season_page.get_by_test_id("finalists")).to_contain_text("Αποδέχθηκαν 0 από 2")

    player = phone(base_url=stack.url)
    sign_in(player, users[order[3]])
    player.goto("/#/invitations")
    # the invited reserve's own card says where the seat came from
    expect(player.get_by_test_id("invitation-reserve")).to_have_text("από τους αναπληρωματικούς")
    player.get_by_role("button", name="Αποδοχή").click()
    player.get_by_role("button", name="Ναι: Αποδοχή").click()
    start = time.monotonic()
    expect(player.get_by_test_id("invitation-status")).to_have_text("Αποδεχθήκατε")
    expect(desk.get_by_test_id("replies-accepted").locator("li")).to_have_count(1, timeout=10_000)
    on_desk = time.monotonic() - start
    expect(season_page.get_by_test_id("accepted").locator("li")).to_have_count(1, timeout=10_000)
    on_page = time.monotonic() - start
    # no reload: the season's hint, or the screens' own poll behind it (the 2 s bar is not met
    # yet on the local stack: ~5 s measured, see the season notes)
    assert on_desk <= SHOWS_S and on_page <= SHOWS_S, (on_desk, on_page)
    expect(desk.get_by_test_id("replies-accepted")).to_contain_text("από τους αναπληρωματικούς")
    expect(desk.get_by_test_id("replies-pending")).to_have_count(0)
