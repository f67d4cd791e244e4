"""The money screens of the referee table and the organiser, in a real browser at a
phone's size, on the local stack.

The setting up (tournament, staff, registrations, a cash payment and a withdrawal) goes over
HTTP; what the referee and the organiser do goes through the browser: cash taken at the till
with a typed amount, a bank refund marked paid, the payment deadline, the CSV export, and a
bank statement uploaded with the organiser's own column mapping, then again with the mapping
the API saved. Each screen is checked with axe-core in Greek and English and saved to
docs/screenshots/; the API is asked what was stored.
"""

from __future__ import annotations

import csv
import io
import re
import uuid
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from playwright.sync_api import expect

from tests.e2e.client import Client, tournament
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, registered_player, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]
ATHENS = ZoneInfo("Europe/Athens")
ORGANISERS = ("organisers",)


def _ledger(client: Client, tid: str, tavla_id: str, organiser: str) -> dict:
    reply = client.call("GET", f"/tournaments/{tid}/payments", user=organiser, groups=ORGANISERS)
    assert reply.status == 200, reply.body
    [ledger] = [x for x in reply.body["ledgers"] if x["tavla_id"] == tavla_id]
    return dict(ledger)


def test_the_till_the_refunds_the_deadline_the_export_and_the_csv_columns(phone: Phone, stack: Stack) -> None:
    """R3.3, R3.5, R3.2: the referee takes 12,50 in cash at the table (a typed
    amount, "12,5x" refused with nothing recorded) and the ledger shows it with its receipt,
    then the rest by card at the table, and the player leaves the list of who owes;
    the organiser marks a bank refund paid and it leaves the list of refunds to pay; sets the
    payment deadline in the venue's time, stored as that instant; downloads the CSV of every
    movement; uploads a statement in the bank's own CSV layout (semicolons, decimal comma,
    day/month/year), and a second one with the layout the API saved."""
    client = Client(stack)
    organiser = f"web-till-organiser-{RUN}"
    tid = tournament(client, organiser, capacity=8, name="Κύπελλο Ταμείου", refund_policy={"kind": "full"})
    referee_user = f"web-till-referee-{RUN}"
    referee_id = str(
        client.call("POST", "/players", {"name": "Ρένα Διαιτήτρια"}, user=referee_user).body["tavla_id"]
    )
    staffed = client.call(
        "PUT",
        f"/tournaments/{tid}/staff",
        {"staff": [{"tavla_id": referee_id, "role": "referee"}]},
        user=organiser,
        groups=ORGANISERS,
    )
    assert staffed.status == 200, staffed.body
    cash_id, _ = registered_player(client, f"web-till-cash-{RUN}", "Κώστας Μετρητάς", tid)
    leaver_id, _ = registered_player(client, f"web-till-leaver-{RUN}", "Λένα Αποχωρούσα", tid)
    _, first_code = registered_player(client, f"web-till-bank1-{RUN}", "Τάνια Τράπεζα", tid)
    second_id, second_code = registered_player(client, f"web-till-bank2-{RUN}", "Μάνος Μεταφορά", tid)
    paid = client.call(
        "POST",
        f"/tournaments/{tid}/payments",
        {"tavla_id": leaver_id, "method": "cash", "amount": {"amount": 3000}},
        user=organiser,
        groups=ORGANISERS,
    )
    assert paid.status == 201, paid.body
    left = client.call("DELETE", f"/tournaments/{tid}/registrations/me", user=f"web-till-leaver-{RUN}")
    assert left.status == 200 and left.body["refund_due"]["amount"] == 3000, left.body

    # The referee's till: who owes; a bad amount is refused and nothing is recorded.
    referee = phone()
    sign_in(referee, referee_user)
    referee.goto(f"/#/t/{tid}/desk")
    referee.get_by_role("link", name="Ταμείο").click()
    referee.wait_for_url(f"**/#/t/{tid}/till")
    owing = referee.get_by_test_id("owing").locator("li")
    expect(owing).to_have_count(3)  # the leaver withdrew: three still owe 30,00
    accessible_in_both_languages(referee, "[data-testid=owing] li")
    row = owing.filter(has_text=cash_id)
    row.get_by_role("button", name="Πληρωμή").click()
    amount = referee.locator("input[name=amount]")
    expect(amount).to_have_value("30,00")
    referee.evaluate("scrollTo(0, 0)")
    screenshot(referee, "till")
    expect(referee.get_by_test_id("till-owes")).to_have_text(re.compile(r"^Οφείλει 30,00\s€$"))
    amount.fill("12,5x")
    referee.get_by_role("button", name="Καταχώριση πληρωμής").click()
    expect(referee.get_by_role("alert")).to_have_text(re.compile("Το ποσό δεν είναι έγκυρο"))
    assert _ledger(client, tid, cash_id, organiser)["paid"]["amount"] == 0

    # 12,50 in cash with the receipt handed over: the ledger has exactly 1250 cents.
    amount.fill("12,50")
    referee.locator("input[name=receipt]").fill("A-17")
    referee.get_by_role("button", name="Καταχώριση πληρωμής").click()
    expect(referee.get_by_test_id("till-message")).to_have_text(
        re.compile(r"^Καταχωρίστηκαν 12,50\s€ \(μετρητά\) από Κώστας Μετρητάς\. Απόδειξη A-17$")
    )
    expect(row).to_contain_text(re.compile(r"17,50\s€"))
    ledger = _ledger(client, tid, cash_id, organiser)
    assert (ledger["paid"]["amount"], ledger["outstanding"]["amount"]) == (1250, 1750)
    [entry] = ledger["entries"]
    assert (entry["method"], entry["amount"]["amount"], entry["receipt"], entry["recorded_by"]) == (
        "cash",
        1250,
        "A-17",
        referee_id,
    )

    # The rest by card at the table: nothing left to pay, off the list of who owes.
    row.get_by_role("button", name="Πληρωμή").click()
    expect(amount).to_have_value("17,50")
    referee.get_by_label("κάρτα στον χώρο").check()
    referee.get_by_role("button", name="Καταχώριση πληρωμής").click()
    expect(referee.get_by_test_id("till-message")).to_contain_text("17,50")
    expect(owing).to_have_count(2)
    expect(owing.filter(has_text=cash_id)).to_have_count(0)
    ledger = _ledger(client, tid, cash_id, organiser)
    assert sorted((e["method"], e["amount"]["amount"]) for e in ledger["entries"]) == [
        ("card_at_venue", 1750),
        ("cash", 1250),
    ]
    assert ledger["outstanding"]["amount"] == 0

    # The organiser's refunds: the leaver's 30,00 to pay by transfer; marked paid, it leaves the list.
    desk = phone()
    sign_in(desk, organiser, organiser=True)
    desk.goto(f"/#/t/{tid}/money")
    # the payments table names each player, the withdrawn one too, the Tavla ID beside
    payments = desk.get_by_test_id("payments")
    for name in ("Κώστας Μετρητάς", "Λένα Αποχωρούσα", "Μάνος Μεταφορά"):
        expect(payments).to_contain_text(name)
    expect(payments.locator("tr", has_text="Κώστας Μετρητάς")).to_contain_text(cash_id)
    desk.get_by_role("link", name="Επιστροφές χρημάτων").click()
    due = desk.get_by_test_id("refunds-due-list").locator("li")
    expect(due).to_have_count(1)
    expect(due).to_contain_text("Λένα Αποχωρούσα")
    expect(due).to_contain_text(leaver_id)
    expect(due).to_contain_text(re.compile(r"30,00\s€"))
    expect(desk.get_by_test_id("refunds-due")).to_have_text(re.compile(r"^30,00\s€$"))
    accessible_in_both_languages(desk, "[data-testid=refunds-due-list] li")
    screenshot(desk, "refunds")
    due.get_by_role("button", name="Την πλήρωσα (έμβασμα)").click()
    expect(desk.get_by_test_id("refund-message")).to_contain_text("σημειώθηκε πληρωμένη")
    expect(desk.get_by_test_id("refund-message")).to_contain_text("Λένα Αποχωρούσα")
    expect(due).to_have_count(0)
    expect(desk.get_by_test_id("refunds-due")).to_have_text(re.compile(r"^0,00\s€$"))
    expect(desk.get_by_test_id("refunds-paid-list").locator("li")).to_have_count(1)
    expect(desk.get_by_test_id("refunds-paid-list")).to_contain_text("Λένα Αποχωρούσα")
    refunds = client.call("GET", f"/tournaments/{tid}/refunds", user=organiser, groups=ORGANISERS).body
    assert refunds["due"]["amount"] == 0
    assert [(r["tavla_id"], r["status"]) for r in refunds["refunds"]] == [(leaver_id, "done")]

    # The payment deadline, typed in Athens time, stored as that instant.
    desk.goto(f"/#/t/{tid}/money")
    desk.get_by_role("link", name="Προθεσμία πληρωμής").click()
    expect(desk.get_by_test_id("deadline-current")).to_have_text("Καμία προθεσμία")
    day = (datetime.now(ATHENS) + timedelta(days=10)).date()
    desk.locator("input[name=deadline]").fill(f"{day.isoformat()}T20:00")
    desk.get_by_role("button", name="Αποθήκευση προθεσμίας").click()
    expect(desk.get_by_test_id("deadline-message")).to_contain_text("Ειδοποίηση στους απλήρωτους")
    expect(desk.get_by_test_id("deadline-current")).to_contain_text("20:00")  # the venue time, 24-hour
    stored = client.call("GET", f"/tournaments/{tid}").body["payment_deadline"]
    wanted = datetime(day.year, day.month, day.day, 20, 0, tzinfo=ATHENS)
    assert datetime.fromisoformat(stored) == wanted, (stored, wanted.astimezone(UTC))
    accessible_in_both_languages(desk, "[data-testid=deadline-current]")
    screenshot(desk, "payment-deadline")

    # The export: one line per movement, refunds negative, in cents.
    desk.goto(f"/#/t/{tid}/money")
    expect(desk.get_by_test_id("collected")).to_have_text(re.compile(r"^30,00\s€$"))
    with desk.expect_download() as download:
        desk.get_by_role("button", name="Εξαγωγή πληρωμών (CSV)").click()
    assert download.value.suggested_filename == f"tavla-{tid}-payments.csv"
    rows = list(csv.DictReader(io.StringIO(download.value.path().read_text(encoding="utf-8"))))
    assert sorted((r["tavla_id"], r["kind"], r["method"], r["amount_cents"]) for r in rows) == sorted(
        [
            (cash_id, "payment", "cash", "1250"),
            (cash_id, "payment", "card_at_venue", "1750"),
            (leaver_id, "payment", "cash", "3000"),
            (leaver_id, "refund", "bank_refund", "-3000"),
        ]
    )
    assert [
        (r["name"], r["receipt"]) for r in rows if r["method"] == "cash" and r["tavla_id"] == cash_id
    ] == [("Κώστας Μετρητάς", "A-17")]

    # The bank's own CSV layout: the organiser names its columns; one transfer matches by its code.
    mapping = desk.get_by_test_id("csv-mapping")
    accessible_in_both_languages(desk, "[data-testid=csv-mapping]")
    mapping.locator("input[name=column-value_date]").fill("Ημερομηνία")
    mapping.locator("input[name=column-amount]").fill("Ποσό")
    mapping.locator("input[name=column-reference]").fill("Αιτιολογία")
    mapping.locator("input[name=column-payer]").fill("Επωνυμία")
    mapping.locator("select[name=date-format]").select_option("31/12/2026")
    mapping.locator("select[name=delimiter]").select_option("semicolon")
    mapping.locator("input[name=decimal-comma]").check()
    desk.locator("textarea[name=statement]").fill(
        f"Ημερομηνία;Ποσό;Αιτιολογία;Επωνυμία\n20/11/2026;30,00;Συμμετοχή {first_code};Τάνια Τράπεζα\n"
    )
    mapping.evaluate("e => scrollTo(0, e.getBoundingClientRect().top + scrollY - 72)")
    screenshot(desk, "csv-mapping")
    desk.get_by_role("button", name="Ανέβασμα").click()
    expect(desk.get_by_test_id("money-message")).to_have_text(
        "Εισήχθη: 1 αντιστοιχίστηκαν, 0 χωρίς αντιστοίχιση"
    )
    expect(desk.get_by_test_id("collected")).to_have_text(re.compile(r"^60,00\s€$"))

    # Next time: the columns the API saved for this organiser, nothing typed.
    desk.reload()
    mapping.locator("input[name=use-saved]").check()
    expect(mapping.locator("input[name=column-amount]")).to_have_count(0)
    desk.locator("textarea[name=statement]").fill(
        f"Ημερομηνία;Ποσό;Αιτιολογία;Επωνυμία\n21/11/2026;30,00;{second_code.lower()};Μ. Μεταφορά\n"
    )
    desk.get_by_role("button", name="Ανέβασμα").click()
    expect(desk.get_by_test_id("money-message")).to_have_text(
        "Εισήχθη: 1 αντιστοιχίστηκαν, 0 χωρίς αντιστοίχιση"
    )
    second = _ledger(client, tid, second_id, organiser)
    assert (second["paid"]["amount"], second["entries"][0]["method"], second["entries"][0]["value_date"]) == (
        3000,
        "bank_transfer",
        "2026-11-21",
    )
