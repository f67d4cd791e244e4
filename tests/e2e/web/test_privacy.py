"""A player's personal data on the profile screen (R12, GDPR) in a real browser at a phone's
size, on the local stack: SMS consent given and withdrawn with one tap each, saved with its time;
the account erased after two confirmations (what goes and stays, then the Tavla ID typed back),
a wrong Tavla ID refused in Greek; afterwards the player is signed out and the public profile
shows only the pseudonym. The privacy screen states each retention period in el/en/it."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import (
    Phone,
    accessible_in_every_language,
    axe,
    create_profile,
    federation_club,
    sign_in,
    use_language,
)

RUN = uuid.uuid4().hex[:6]


def test_consent_is_one_tap_and_erasure_is_asked_twice(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    user = f"web-erase-{RUN}"
    page = phone()
    federation_club(stack, "ΟΑ Κηφισιάς")  # before the profile screen lists the clubs
    sign_in(page, user)
    tavla_id = create_profile(page, "Ελένη Διαγραφή", "ΟΑ Κηφισιάς")
    accessible_in_every_language(page, "[data-testid=erasure]")

    consents = page.get_by_test_id("consents")
    sms = consents.get_by_role("checkbox", name="Ειδοποιήσεις με SMS")
    sms.check()
    expect(consents.get_by_role("status")).to_have_text("Η επιλογή σας αποθηκεύτηκε.")
    me = client.call("GET", "/me", user=user).body
    assert me["sms_opt_in"] is True and me["sms_opt_in_at"]
    expect(consents).to_contain_text("Η επιλογή σας από")
    sms.uncheck()  # withdrawn with one tap
    expect(sms).not_to_be_checked()  # shown at once; saved when the PATCH answers
    for _ in range(50):
        withdrawn = client.call("GET", "/me", user=user).body
        if withdrawn["sms_opt_in"] is False:
            break
        page.wait_for_timeout(100)
    assert withdrawn["sms_opt_in"] is False and withdrawn["sms_opt_in_at"] >= me["sms_opt_in_at"]

    erasure = page.get_by_test_id("erasure")
    erasure.get_by_role("button", name="Διαγραφή του λογαριασμού μου").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("ψευδώνυμο")
    dialog.get_by_role("button", name="Ναι: Διαγραφή του λογαριασμού μου").click()
    typed = erasure.get_by_label(re.compile("Πληκτρολογήστε το Tavla ID σας"))
    typed.fill("ZZZZZZZ")
    erasure.get_by_role("button", name="Οριστική διαγραφή").click()
    expect(erasure.get_by_role("alert")).to_have_text(
        "Πληκτρολογήστε το Tavla ID σας για να επιβεβαιώσετε τη διαγραφή."
    )
    assert client.call("GET", "/me", user=user).status == 200  # nothing happened yet
    typed.fill(tavla_id.lower())
    erasure.get_by_role("button", name="Οριστική διαγραφή").click()
    done = page.get_by_test_id("erased")
    expect(done).to_contain_text(re.compile(r"Player [2-9A-Z]{6}"))
    pseudonym = re.search(r"Player [2-9A-Z]{6}", done.inner_text())
    assert pseudonym
    public = client.call("GET", f"/players/{tavla_id}").body
    assert public["name"] == pseudonym.group(0) and public["club"] is None
    assert client.call("GET", "/me", user=user).status == 404
    done.get_by_role("button", name="Αποσύνδεση").click()
    expect(page.get_by_role("link", name="Σύνδεση")).to_be_visible()
    page.goto(f"/#/player/{tavla_id}")  # the public page: the pseudonym, not the name
    expect(page.get_by_role("heading", level=1)).to_have_text(pseudonym.group(0))
    expect(page.locator("body")).not_to_contain_text("Ελένη Διαγραφή")
    expect(page.locator("body")).not_to_contain_text("ΟΑ Κηφισιάς")


def test_the_privacy_screen_states_each_period_in_the_screens_language(phone: Phone) -> None:
    """GET /privacy's periods, worded in the screen's language (R12.2), opened from the profile."""
    page = phone()
    sign_in(page, f"web-privacy-{RUN}")
    create_profile(page, "Νίκη Απόρρητο")
    page.get_by_test_id("privacy-link").click()
    page.wait_for_url("**/#/privacy")
    periods = page.get_by_test_id("retention")
    expect(periods.locator("li")).to_have_count(7)
    said = {
        "el": ("3 έτη", "Αμέσως", "1 έτος", "2 έτη", "5 έτη", "10 έτη"),
        "en": ("3 years", "At once", "1 year", "2 years", "5 years", "10 years"),
        "it": ("3 anni", "Subito", "1 anno", "2 anni", "5 anni", "10 anni"),
    }
    for lang, words in said.items():
        use_language(page, lang, "[data-testid=retention] li")
        kinds = ["contacts", "matched_payer", "notifications", "audit_details"]
        for kind, word in zip(kinds, words, strict=False):
            expect(periods.locator(f"li[data-kind={kind}] [data-testid=retention-period]")).to_have_text(word)
        money = periods.locator("li[data-kind=money_records] [data-testid=retention-period]")
        expect(money).to_have_text(list(words[4:]))
        violations = axe(page)
        assert violations == [], f"{lang}: {violations}"
    use_language(page, "el", "[data-testid=retention] li")
    expect(periods).to_contain_text("ν. 4308/2014")
    expect(periods).not_to_contain_text("deleted")
