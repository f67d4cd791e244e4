"""The bank CSV's columns chosen from the file itself (R3.3), in a real browser at 360 px on
the local stack: the organiser pastes the bank's export, the screen shows its first lines,
and the columns and the date format are picked from examples, never typed as patterns."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, axe, registered_player, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]
ORGANISERS = ("organisers",)


def test_the_columns_and_the_date_format_are_picked_from_the_files_first_lines(
    phone: Phone, stack: Stack
) -> None:
    """The bank's layout (semicolons, decimal comma, day/month/year, its own transaction
    number): read from the file, its first lines shown; each date format offered as what the
    first date means ("04/03/2026 means 4 March 2026", or 3 April); the upload matches the transfer and the
    ledger links it to the bank's own transaction id."""
    client = Client(stack)
    organiser = f"web-csvmap-organiser-{RUN}"
    tid = tournament(client, organiser, capacity=4, name="Κύπελλο Στηλών")
    player_id, code = registered_player(client, f"web-csvmap-player-{RUN}", "Τάνια Τράπεζα", tid)

    desk = phone()
    sign_in(desk, organiser, organiser=True)
    desk.goto(f"/#/t/{tid}/money")
    mapping = desk.get_by_test_id("csv-mapping")
    desk.locator("textarea[name=statement]").fill(
        "Ημ/νία αξίας;Αρ. συναλλαγής;Ποσό;Αιτιολογία;Επωνυμία\n"
        f"04/03/2026;TX-{RUN}-1;30,00;Συμμετοχή {code};Τάνια Τράπεζα\n"
    )
    mapping.get_by_role("button", name="Ανάγνωση στηλών από το αρχείο").click()
    lines = mapping.get_by_test_id("csv-first-lines")
    expect(lines.locator("th")).to_have_text(
        ["Ημ/νία αξίας", "Αρ. συναλλαγής", "Ποσό", "Αιτιολογία", "Επωνυμία"]
    )
    expect(lines.locator("tbody tr").first).to_contain_text("30,00")
    assert axe(desk) == []

    mapping.locator("select[name=column-value_date]").select_option("Ημ/νία αξίας")
    mapping.locator("select[name=column-amount]").select_option("Ποσό")
    mapping.locator("select[name=column-reference]").select_option("Αιτιολογία")
    mapping.locator("select[name=column-payer]").select_option("Επωνυμία")
    mapping.locator("select[name=column-transaction_id]").select_option("Αρ. συναλλαγής")
    # 04/03/2026 reads day first and month first: each offered as the date it means
    dates = mapping.locator("select[name=date-format] option")
    expect(dates).to_have_count(2)
    expect(dates.filter(has_text=re.compile(r"σημαίνει 3 Απρ"))).to_have_count(1)
    march = dates.filter(has_text=re.compile(r"^04/03/2026 σημαίνει 4 Μαρ"))
    mapping.locator("select[name=date-format]").select_option(march.get_attribute("value"))
    expect(mapping.locator("select[name=delimiter], input[name=delimiter]:checked").first).to_be_attached()
    expect(mapping.locator("input[name=decimal-comma]")).to_be_checked()
    mapping.evaluate("e => scrollTo(0, e.getBoundingClientRect().top + scrollY - 72)")
    screenshot(desk, "csv-mapping-by-example")
    desk.get_by_role("button", name="Ανέβασμα").click()
    expect(desk.get_by_test_id("money-message")).to_have_text(
        "Εισήχθη: 1 αντιστοιχίστηκαν, 0 χωρίς αντιστοίχιση"
    )

    ledgers = client.call("GET", f"/tournaments/{tid}/payments", user=organiser, groups=ORGANISERS).body[
        "ledgers"
    ]
    [paid] = [e for lg in ledgers if lg["tavla_id"] == player_id for e in lg["entries"]]
    assert (paid["amount"]["amount"], paid["value_date"], paid["method"]) == (
        3000,
        "2026-03-04",
        "bank_transfer",
    )
