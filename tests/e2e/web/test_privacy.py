"""A player's personal data on the profile screen (R12, GDPR) in a real browser at a phone's
size, on the local stack: SMS consent given and withdrawn with one tap each, saved with its time;
the account erased after two confirmations (what goes and stays, then the Tavla ID typed back),
a wrong Tavla ID refused in Greek; afterwards the public profile shows only the pseudonym."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import (
    Phone,
    accessible_in_both_languages,
    create_profile,
    federation_club,
    sign_in,
)

RUN = uuid.uuid4().hex[:6]


def test_consent_is_one_tap_and_erasure_is_asked_twice(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    user = f"web-erase-{RUN}"
    page = phone()
    federation_club(stack, "ΟΑ Κηφισιάς")  # before the profile screen lists the clubs
    sign_in(page, user)
    tavla_id = create_profile(page, "Ελένη Διαγραφή", "ΟΑ Κηφισιάς")
    accessible_in_both_languages(page, "[data-testid=erasure]")

    consents = page.get_by_test_id("consents")
    sms = consents.get_by_role("checkbox", name="Ειδοποιήσεις με SMS")
    sms.check()
    expect(consents.get_by_role("status")).to_have_text("Η επιλογή σας αποθηκεύτηκε.")
    me = client.call("GET", "/me", user=user).body
    assert me["sms_opt_in"] is True and me["sms_opt_in_at"]
    expect(consents).to_contain_text("Η επιλογή σας από")
    sms.uncheck()  # withdrawn with one tap
    expect(sms).not_to_be_checked()
    withdrawn = client.call("GET", "/me", user=user).body
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
