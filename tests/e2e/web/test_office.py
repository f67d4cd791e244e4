"""The federation's office in a real browser at a phone's size, on the local stack (R1.2,
R1.3): an admin adds a club and merges the near-duplicate spellings players typed into it;
a player whose club was typed chooses it from the list on the profile screen. Each step is
checked on the screen and in the API; the admin console is checked with axe-core in Greek
and in English."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_both_languages, screenshot, sign_in

RUN = uuid.uuid4().hex[:6]


def test_an_admin_merges_typed_clubs_into_a_club_and_a_player_chooses_it(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    admin = f"web-office-admin-{RUN}"
    admin_id = client.call("POST", "/players", {"name": "Γραμματέας"}, user=admin).body["tavla_id"]
    granted = client.call("PUT", f"/admin/roles/{admin_id}/admins", user=admin, groups=("admins",))
    assert granted.status == 200, granted.body
    name = f"Όμιλος Πλάκας {RUN}"
    typed = {f"web-office-p1-{RUN}": name, f"web-office-p2-{RUN}": f"ΟΜΙΛΟΣ ΠΛΑΚΑΣ {RUN}."}
    ids = {
        u: client.call("POST", "/players", {"name": "Παίκτης", "club": c}, user=u).body["tavla_id"]
        for u, c in typed.items()
    }
    chooser = f"web-office-chooser-{RUN}"
    client.call("POST", "/players", {"name": "Διαλέγει", "club": "Κάποιος σύλλογος"}, user=chooser)

    page = phone()
    sign_in(page, admin)  # the local issuer reads the admins role the API granted
    page.goto("/#/admin")
    expect(page.get_by_role("heading", level=1)).to_have_text("Γραφείο ομοσπονδίας")
    page.locator("input[name=club-name]").fill(name)
    page.locator("input[name=club-city]").fill("Αθήνα")
    page.locator("input[name=club-short_name]").fill("ΟΠ")
    page.locator("input[name=club-contact]").fill("210 000 0000")
    page.get_by_role("button", name="Προσθήκη συλλόγου").click()
    expect(page.get_by_test_id("clubs")).to_contain_text(name)
    club_id = next(c["id"] for c in client.call("GET", "/clubs").body if c["name"] == name)

    spelled = page.locator("p", has_text=f"“{name}”")  # the spellings, not the clubs to choose
    group = page.get_by_test_id("near-duplicates").locator("div.card").filter(has=spelled)
    expect(group.locator("select")).to_have_value(club_id)  # the record whose name reads the same
    accessible_in_both_languages(page, "[data-testid=clubs] li")
    screenshot(page, "admin-console")
    group = page.get_by_test_id("near-duplicates").locator("div.card").filter(has=spelled)
    group.get_by_role("button", name="Συγχώνευση").click()
    page.get_by_role("button", name="Ναι: Συγχώνευση").click()
    expect(page.get_by_test_id("admin-message")).to_contain_text("2 παίκτες")
    for tavla_id in ids.values():
        assert client.call("GET", f"/players/{tavla_id}").body["club_id"] == club_id

    player = phone()
    sign_in(player, chooser)
    expect(player.get_by_test_id("typed-club")).to_contain_text("Κάποιος σύλλογος")
    player.locator("select[name=club_id]").select_option(club_id)
    player.locator("form button[type=submit]").click()
    expect(player.get_by_role("status")).to_be_visible()
    mine = client.call("GET", "/me", user=chooser).body
    assert (mine["club_id"], mine["club"]) == (club_id, name)
