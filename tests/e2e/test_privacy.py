"""No public route ever returns a phone number, an e-mail address or a player's need at the tables
(R12.1; the need set by staff at the desk), checked over every one;
and once a player erased their account (R12, GDPR Art. 17), no public route, staff view or export
names them, while every other player's rating stays as it was."""

from __future__ import annotations

import re
import time

import requests

from infra.registry import FUNCTIONS
from tests.e2e.client import Client, numbered_phone, players, tournament

PHONE = "+306971112233"
EMAIL = "private.person@example.org"
DOCUMENTS = ("/openapi.json", "/privacy")  # they describe the fields, naming nobody


def test_no_public_route_leaks_contact_data(stack) -> None:
    client = Client(stack)
    season = "privacy"  # the players reach a season's standings and its Super Final too
    dates = {"name": "Privacy season", "starts_on": "2026-01-01", "ends_on": "2030-12-31"}
    reply = client.call("PUT", f"/seasons/{season}", dates, user="fed-privacy", groups=("admins",))
    assert reply.status == 200, reply.body
    tid = tournament(client, "org-privacy", capacity=2, season_id=season)
    people = players(client, "private", 3, phone=PHONE, email=EMAIL)
    for user in people:  # two registered, one waiting
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
    for tavla_id in list(people.values())[:2]:  # the day under way: checked in and drawn
        reply = client.call(
            "POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user="org-privacy"
        )
        assert reply.status == 200, reply.body
    needy = list(people.values())[2]  # staff record the need of the one waiting at the desk
    reply = client.call("PUT", f"/tournaments/{tid}/needs/{needy}", {"accessible": True}, user="org-privacy")
    assert reply.status == 200, reply.body
    drawn = client.call("POST", f"/tournaments/{tid}/rounds", user="org-privacy")
    assert drawn.status == 201, drawn.body
    match = drawn.body["pairings"][0]
    score = {"home_points": match["length"], "away_points": 0}
    played = client.call("POST", f"/matches/{match['id']}/confirm", score, user="org-privacy")
    assert played.status == 200, played.body
    assert client.call("POST", f"/tournaments/{tid}/finish", user="org-privacy").status == 200
    standings = f"/seasons/{season}/standings"
    deadline = time.monotonic() + 60  # season points arrive through the event bus
    while len(client.call("GET", standings).body["rows"]) < 2:
        assert time.monotonic() < deadline, "the finished tournament never reached the season"
        time.sleep(0.5)
    values = {
        "tournament_id": tid,
        "tavla_id": next(iter(people.values())),
        "number": "1",
        "match_id": match["id"],
        "season_id": season,
    }
    phones = [numbered_phone(PHONE, i) for i in range(len(people))]
    contacts = (*phones, *(p[3:] for p in phones), EMAIL, "example.org")
    _walk_public_routes(client, values, contacts)
    staff_view = client.call("GET", f"/tournaments/{tid}/entries/contacts", user="org-privacy").body
    assert PHONE in str(staff_view)  # the data exists; only the public routes withhold it
    hall = client.call("GET", f"/tournaments/{tid}/hall", user="org-privacy").body
    assert hall["needs"] == [needy]  # so does the need

    # the winner of the one match erases their account
    user, erased = next(iter(people.items()))
    others = [t for t in people.values() if t != erased]
    rated = time.monotonic() + 60  # ratings arrive through the event bus
    while client.call("GET", f"/players/{match['home']['tavla_id']}").body["rated_matches"] < 1:
        assert time.monotonic() < rated, "the match never reached the ratings"
        time.sleep(0.5)
    pages = {t: client.call("GET", f"/players/{t}").body for t in others}
    reply = client.call("POST", "/me/erasure", {"confirm": erased}, user=user)
    assert reply.status == 200, reply.body
    pseudonym = reply.body["pseudonym"]
    assert client.call("GET", f"/players/{erased}").body["name"] == pseudonym
    _walk_public_routes(client, values, (*contacts, user))
    for path in (
        f"/tournaments/{tid}/entries/contacts",
        f"/tournaments/{tid}/payments",
        f"/tournaments/{tid}/payments/export",
        f"/tournaments/{tid}/report",
        f"/tournaments/{tid}/report?format=csv",
        f"/tournaments/{tid}/audit",
    ):
        answer = requests.get(
            stack.url + path,
            headers={"Authorization": f"Bearer {client.token('org-privacy', ('organisers',))}"},
            timeout=60,
        )
        assert answer.status_code == 200, (path, answer.text)
        for secret in (phones[0], phones[0][3:], user):  # the others' contacts are staff's to see
            assert secret not in answer.text, f"{path} names the erased player: {secret}"
        if path.endswith("/contacts"):
            rows = [r for rows in answer.json().values() for r in rows if r["tavla_id"] == erased]
            assert rows and all(r["phone"] is None and r["email"] is None for r in rows), rows
    assert {t: client.call("GET", f"/players/{t}").body for t in others} == pages


def _walk_public_routes(client: Client, values: dict[str, str], secrets: tuple[str, ...]) -> None:
    """Every public GET route, its path filled from `values`: none may show any of `secrets`."""
    public = [r for f in FUNCTIONS for r in f.routes() if r.public and r.method == "GET"]
    assert len(public) >= 5
    for route in public:
        path = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], route.path)
        reply = client.call("GET", path)
        assert reply.status == 200, (route, reply.body)
        text = str(reply.body)
        for secret in secrets:
            assert secret not in text, f"{route.path} leaks {secret}"
        if route.path not in DOCUMENTS:  # no route about players says who needs what table
            assert "accessible" not in text.lower(), f"{route.path} shows a need at the tables"
