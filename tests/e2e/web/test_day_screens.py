"""The day's screens beside the desk, in a real browser at a phone's size on the local stack:
the console's late entries (opened with a half point per missed round, a player entered by
Tavla ID) and the board marking late entrants "late"; the organiser's table plan (a table made
accessible, reserved for the Main); the player's need on the profile (private, set by the
player). axe: 0 serious in el/en/it on each."""

from __future__ import annotations

import uuid
from typing import Any

from playwright.sync_api import expect

from tests.e2e.client import Client, players, until
from tests.e2e.conftest import Stack
from tests.e2e.day import checked_in_field
from tests.e2e.hall import win
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]


def test_the_console_opens_late_entry_and_enters_a_player(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-late-org-{RUN}"
    tid, _ = checked_in_field(client, organiser, f"web-late-{RUN}", 4, format="swiss", swiss_rounds=3)
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=organiser).status == 201
    [late] = players(client, f"web-late-new-{RUN}", 1).values()

    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/organise")
    card = page.get_by_test_id("late-entry")
    expect(card.get_by_test_id("late-state")).to_have_text("Οι εκπρόθεσμες εγγραφές είναι κλειστές.")
    card.locator("select[name=late-points]").select_option("half_per_missed_round")
    card.get_by_role("button", name="Άνοιγμα εκπρόθεσμων εγγραφών").click()
    expect(card.get_by_test_id("late-state")).to_have_text("Οι εκπρόθεσμες εγγραφές είναι ανοιχτές.")
    card.locator("input[name=late-player]").fill(late.lower())
    card.get_by_role("button", name="Εγγραφή παίκτη").click()
    expect(card.get_by_test_id("late-message")).to_have_text(
        f"Ο/Η {late} μπαίνει στο ζευγάρωμα από τον γύρο 2."
    )
    accessible_in_every_language(page, "[data-testid=late-entry]")
    card.scroll_into_view_if_needed()
    screenshot(page, "console-late-entry")


def test_the_board_marks_late_entrants(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-board-late-org-{RUN}"
    tid, _ = checked_in_field(
        client, organiser, f"web-board-late-{RUN}", 4, format="swiss", swiss_rounds=3, tables=3
    )
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=organiser).status == 201
    for match in client.call("GET", f"/tournaments/{tid}/rounds/1").body["pairings"]:
        win(client, match, match["home"]["tavla_id"], organiser)
    policy = {"open": True, "points": "half_per_missed_round"}
    assert client.call("PUT", f"/tournaments/{tid}/late-entry", policy, user=organiser).status == 200
    for late in players(client, f"web-board-late-new-{RUN}", 2).values():  # two: no bye in round 2
        entered = client.call("POST", f"/tournaments/{tid}/late-entries", {"tavla_id": late}, user=organiser)
        assert entered.status == 201, entered.body
    assert client.call("POST", f"/tournaments/{tid}/rounds", user=organiser).status == 201

    page = phone()
    page.goto(f"/#/t/{tid}/board")
    tables = page.get_by_test_id("tables")
    expect(tables.get_by_test_id("late")).to_have_count(2)
    expect(tables.get_by_test_id("late").first).to_have_text("εκπρόθεσμα")
    expect(page.get_by_test_id("standings").get_by_test_id("late")).to_have_count(2)
    accessible_in_every_language(page, "[data-testid=tables]")
    screenshot(page, "board-late-entrants")


def test_the_organiser_sets_a_table_s_attributes(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-tables-org-{RUN}"
    tid, _ = checked_in_field(client, organiser, f"web-tables-{RUN}", 4, tables=2)
    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/tables")
    table = page.get_by_test_id("table-2")
    table.get_by_label("Προσβάσιμο (χωρίς σκαλιά, ευρύχωρο)").check()
    expect(page.get_by_test_id("tables-message")).to_have_text("Το τραπέζι 2 αποθηκεύτηκε.")
    table.locator("select[name=reserved_for]").select_option("main")
    expect(table.locator("select[name=reserved_for]")).to_have_value("main")

    def saved() -> list[dict[str, Any]] | None:
        tables: list[dict[str, Any]] = client.call("GET", f"/tournaments/{tid}/hall", user=organiser).body[
            "tables"
        ]
        return tables if tables[1]["reserved_for"] else None

    tables = until(saved)
    assert tables[1] == {
        "table": 2,
        "match": None,
        "accessible": True,
        "streamed": False,
        "reserved_for": "main",
        "out_of_service": False,
    }
    assert tables[0]["accessible"] is False
    expect(table.get_by_label("Προσβάσιμο (χωρίς σκαλιά, ευρύχωρο)")).to_be_checked()
    accessible_in_every_language(page, "[data-testid=table-2]")
    page.get_by_test_id("table-2").scroll_into_view_if_needed()
    screenshot(page, "table-plan")


def test_a_player_sets_their_need_on_the_profile(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-need-org-{RUN}"
    tid, field = checked_in_field(client, organiser, f"web-need-{RUN}", 2, tables=2)
    tavla_id, user = next(iter(field.items()))
    page = phone()
    sign_in(page, user)
    needs = page.get_by_test_id("table-needs")
    box = needs.locator("input[type=checkbox]")
    expect(box).not_to_be_checked()
    box.check()
    expect(needs.get_by_test_id("need-message")).to_have_text("Η ανάγκη σας αποθηκεύτηκε.")
    assert client.call("GET", f"/tournaments/{tid}/needs/{tavla_id}", user=user).body == {"accessible": True}
    assert client.call("GET", f"/tournaments/{tid}/hall", user=organiser).body["needs"] == [tavla_id]
    accessible_in_every_language(page, "[data-testid=table-needs]")
    expect(box).to_be_checked()  # read again after each reload
    needs.scroll_into_view_if_needed()
    screenshot(page, "profile-table-need")


def test_the_referee_sets_and_clears_a_player_s_need_at_the_desk(phone: Phone, stack: Stack) -> None:
    """The desk at 360 px: the referee marks a player as needing an accessible table (the
    seating's need, as the player's own would be) and clears it again."""
    client = Client(stack)
    organiser = f"web-desk-need-org-{RUN}"
    tid, field = checked_in_field(client, organiser, f"web-desk-need-{RUN}", 2, tables=2)
    tavla_id, user = next(iter(field.items()))
    page = phone()
    sign_in(page, organiser, organiser=True)
    page.goto(f"/#/t/{tid}/desk")
    needs = page.get_by_test_id("desk-needs")
    expect(needs.get_by_test_id("desk-needs-list")).to_have_text("Κανείς δεν χρειάζεται προσβάσιμο τραπέζι.")
    needs.locator("select[name=need-player]").select_option(tavla_id)
    needs.get_by_test_id("desk-need-set").click()
    expect(needs.get_by_test_id("desk-need")).to_have_count(1)
    expect(needs.get_by_test_id("desk-need-message")).to_contain_text("μόνο σε προσβάσιμο τραπέζι")
    assert client.call("GET", f"/tournaments/{tid}/needs/{tavla_id}", user=user).body == {"accessible": True}
    accessible_in_every_language(page, "[data-testid=desk-needs]")
    needs.scroll_into_view_if_needed()
    screenshot(page, "desk-table-need")
    needs.get_by_test_id("desk-need").get_by_role("button").click()
    expect(needs.get_by_test_id("desk-need")).to_have_count(0)
    assert client.call("GET", f"/tournaments/{tid}/needs/{tavla_id}", user=user).body == {"accessible": False}
