"""The adjourned position's photo from the desk's phone: the referee picks the camera's picture
(a small PNG here), it goes straight to the private store with the form the API signs, the
match is adjourned naming it, and the referee and a player of the match both see it."""

from __future__ import annotations

import base64
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, sign_in
from tests.e2e.web.test_breaks import being_played

RUN = uuid.uuid4().hex[:6]
# a 1 x 1 PNG: what the phone's camera would give, only smaller
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


def _shown(page: Page) -> None:
    """The photo, asked for, is loaded from the store (not a broken image)."""
    page.get_by_role("button", name="Δείτε τη φωτογραφία της θέσης").click()
    photo = page.get_by_role("img", name="Φωτογραφία της θέσης")
    expect(photo).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth === 1", arg=photo.element_handle())


def test_the_referee_photographs_the_position_and_the_players_see_it(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    organiser = f"web-photo-org-{RUN}"
    users = [f"web-photo-a-{RUN}", f"web-photo-b-{RUN}"]
    tid, match = being_played(client, stack, organiser, users)

    desk = phone()
    sign_in(desk, organiser, organiser=True)
    desk.goto(f"/#/t/{tid}/desk")
    section = desk.get_by_test_id("adjournments")
    camera = section.get_by_label("Φωτογραφία της θέσης")
    assert camera.get_attribute("accept") == "image/*" and camera.get_attribute("capture") == "environment"
    camera.set_input_files({"name": "position.png", "mimeType": "image/png", "buffer": PNG})
    expect(section.get_by_test_id("photo-uploaded")).to_contain_text("αποθηκεύτηκε")
    section.get_by_label("Αιτία").fill("Αδιαθεσία παίκτη")
    section.get_by_role("button", name="Διακοπή αγώνα").click()
    expect(desk.get_by_test_id("desk-message")).to_contain_text("Ο αγώνας διακόπηκε.")
    adjourned = client.call("GET", f"/matches/{match['id']}", user=users[1]).body
    assert adjourned["state"] == "adjourned" and adjourned["adjournment"]["photo"] is True
    _shown(desk)

    player = phone()
    sign_in(player, users[1])
    player.goto(f"/#/t/{tid}/match")
    expect(player.get_by_test_id("adjourned")).to_be_visible()
    _shown(player)
