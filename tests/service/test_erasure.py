"""A player erases their account (R12, GDPR Art. 17), on moto."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest

from tavla.caller import USER_POOL_ENV
from tavla.store import notifications as notification_store
from tavla.store.bank import add_line
from tavla.store.dynamo import client, deserialize, table_name
from tavla.store.records import BankLineRecord
from tavla.store.schema import CONTACTS, MAIN
from tests.push_browser import Browser
from tests.service.board_helpers import play_out, raw_call
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw
from tests.service.helpers import ORGANISER, create_player, create_tournament, register
from tests.service.payment_helpers import pay_cash

ERASE = "/me/erasure"
NAME, PHONE, EMAIL = "Eleni Papadaki", "+306971112299", "eleni.papadaki@example.org"
CLUB = "Omilos Smyrnis"
SECRETS = (NAME, "Papadaki", PHONE, PHONE[3:], EMAIL, "Kifisia")
T = {"tournament_id": ""}


def _everything(_: str = "") -> dict[str, Any]:
    """Every item of both tables, as text per key (what a leak would be found in)."""
    found: dict[str, Any] = {}
    for spec in (MAIN, CONTACTS):
        for item in client().scan(TableName=table_name(spec))["Items"]:
            plain = deserialize(item)
            found[f"{plain['pk']}|{plain.get('sk', '')}"] = plain
    return found


def _finished_day(api: Api) -> tuple[str, str, list[str]]:
    """Eleni and three others play a finished single elimination; Eleni paid cash, a bank line
    with her name as payer paid too, she has a notice and a push subscription."""
    create_player(
        api, "eleni", name=NAME, club=CLUB, city="Kifisia", phone=PHONE, email=EMAIL, birth_year=1990
    )
    tournament_id, players = checked_in_field(api, 4, users=["eleni", "p1", "p2", "p3"])
    eleni = players[0]
    pay_cash(api, tournament_id, eleni)
    line = BankLineRecord(
        tournament_id=tournament_id,
        checksum="c0ffee",
        value_date="2026-11-30",
        amount=2000,
        currency="EUR",
        status="matched",
        imported_at="2026-11-30T10:00:00+00:00",
        tavla_id=eleni,
        payer="ELENI PAPADAKI",
        text="Papadaki entry",
    )
    add_line(line, None, [])
    at = datetime(2026, 11, 30, tzinfo=UTC)
    notification_store.add(eleni, "n1", "promoted", f"{NAME}, you are in", at, {})
    browser = Browser("https://fcm.googleapis.com/fcm/send/eleni-phone")
    saved = api.call("PUT", "/me/push-subscriptions", body=browser.subscription(), user="eleni")
    assert saved.status == 200, saved.body
    assert draw(api, tournament_id).status == 201
    play_out(tournament_id)
    finished = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tournament_id}, user=ORGANISER
    )
    assert finished.status == 200, finished.body
    return tournament_id, eleni, players[1:]


def _staff_views(api: Api, tournament_id: str) -> str:
    """What the organiser reads and exports: entries with contacts, payments, CSV, the report."""
    params = {"tournament_id": tournament_id}
    seen = []
    for path in (
        "/tournaments/{tournament_id}/entries",
        "/tournaments/{tournament_id}/entries/contacts",
        "/tournaments/{tournament_id}/payments",
        "/tournaments/{tournament_id}/report",
        "/tournaments/{tournament_id}/standings",
    ):
        reply = api.call("GET", path, params=params, user=ORGANISER)
        assert reply.status == 200, (path, reply.body)
        seen.append(str(reply.body))
    for path in ("/tournaments/{tournament_id}/payments/export", "/tournaments/{tournament_id}/report"):
        answer = raw_call(api, "GET", path, params=params, query={"format": "csv"}, user=ORGANISER)
        assert answer["statusCode"] == 200, path
        seen.append(answer["body"])
    return "\n".join(seen)


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> str:
    cognito = boto3.client("cognito-idp")
    pool_id = str(cognito.create_user_pool(PoolName="tavla-test")["UserPool"]["Id"])
    cognito.admin_create_user(UserPoolId=pool_id, Username="eleni")
    monkeypatch.setenv(USER_POOL_ENV, pool_id)
    return pool_id


def test_erasure_keeps_results_under_a_pseudonym_and_leaves_no_contact_or_name(api: Api, pool: str) -> None:
    """R12, GDPR Art. 17: contacts, consents, notices, push subscriptions, payer names and the
    sign-in go; every result, standing and other player's rating stays exactly as it was, the
    erased player's name replaced by a stable pseudonym; no staff view or export names her;
    money records stay and the answer says until when; asking again answers the same."""
    tournament_id, eleni, others = _finished_day(api)
    assert NAME in _staff_views(api, tournament_id)  # the views did show her before
    before = _everything(eleni)
    standings_before = api.call(
        "GET", "/tournaments/{tournament_id}/standings", params={"tournament_id": tournament_id}
    ).body
    others_before = {t: api.call("GET", "/players/{tavla_id}", params={"tavla_id": t}).body for t in others}

    refused = api.call("POST", ERASE, body={"confirm": "WRONG"}, user="eleni")
    assert (refused.status, refused.error) == (422, "erasure_not_confirmed")
    assert _everything(eleni) == before

    reply = api.call("POST", ERASE, body={"confirm": eleni.lower()}, user="eleni")
    assert reply.status == 200, reply.body
    pseudonym = reply.body["pseudonym"]
    assert re.fullmatch(r"Player [2-9A-Z]{6}", pseudonym)
    [money] = [k for k in reply.body["kept"] if k["kind"] == "money_records"]
    assert money["until"] == "2036-12-31" and "2220" in money["why"]  # platform rules: 10 years
    assert money["count"] >= 1 and str(money["count"]) in money["what"]

    # nothing of hers is left, in any item of either table, but the pseudonymous results
    after = _everything(eleni)
    text = str(after)
    for secret in SECRETS:
        assert secret not in text, secret
    # the club stays only inside the published draw's inputs (packed), which its fingerprint covers
    assert CLUB not in text
    assert f"CONTACTS#{eleni}|" not in after and f"PHONE#{PHONE}|" not in after
    assert not [k for k in after if k.startswith(f"PLAYER#{eleni}|") and "NOTE#" in k]
    assert [k for k in before if k.startswith("PUSH#")]  # her browser's subscription was there
    assert not [item for item in after.values() if str(item["pk"]).startswith("PUSH#")]  # and is gone
    line = after[f"TOURNAMENT#{tournament_id}|BANKLINE#c0ffee"]
    assert (line["amount"], line["tavla_id"]) == (2000, eleni) and "payer" not in line
    assert [k for k in after if k.startswith(f"TOURNAMENT#{tournament_id}|LEDGER#{eleni}")]
    with pytest.raises(boto3.client("cognito-idp").exceptions.UserNotFoundException):
        boto3.client("cognito-idp").admin_get_user(UserPoolId=pool, Username="eleni")

    # results and others' ratings unchanged; her name is the pseudonym wherever it was
    standings_after = api.call(
        "GET", "/tournaments/{tournament_id}/standings", params={"tournament_id": tournament_id}
    ).body
    expected = str(standings_before).replace(NAME, pseudonym).replace(repr(CLUB), "None")
    assert str(standings_after) == expected
    for other, page in others_before.items():
        assert api.call("GET", "/players/{tavla_id}", params={"tavla_id": other}).body == page
    mine = api.call("GET", "/players/{tavla_id}", params={"tavla_id": eleni}).body
    assert (mine["name"], mine.get("club"), mine.get("city")) == (pseudonym, None, None)
    views = _staff_views(api, tournament_id)
    assert pseudonym in views
    for secret in (*SECRETS, CLUB):
        assert secret not in views, secret

    assert api.call("GET", "/me", user="eleni").status == 404
    again = api.call("POST", ERASE, body={"confirm": eleni}, user="eleni")
    assert (again.status, again.body) == (200, reply.body)


def test_erasure_waits_for_open_entries_and_platform_roles(api: Api) -> None:
    """R12: entered in a tournament that is not over -> 409 entries_open (withdraw and be refunded
    first); an organiser -> 409 roles_held; nothing changes either way."""
    tavla_id = create_player(api, "u1", name=NAME, phone=PHONE)
    tournament_id = create_tournament(api)
    assert register(api, tournament_id, "u1").status == 201
    before = _everything(tavla_id)
    reply = api.call("POST", ERASE, body={"confirm": tavla_id}, user="u1")
    assert (reply.status, reply.error) == (409, "entries_open")
    organiser = create_player(api, "org-u", name="Org")
    reply = api.call("POST", ERASE, body={"confirm": organiser}, user="org-u", groups=("organisers",))
    assert (reply.status, reply.error) == (409, "roles_held")
    after = _everything(tavla_id)
    assert {k: after[k] for k in before} == before
    assert api.call("GET", "/me", user="u1").body["phone"] == PHONE
    assert api.call("POST", ERASE, body={"confirm": "X"}, user="nobody").status == 404


def _need(api: Api, tournament_id: str, tavla_id: str, accessible: bool) -> None:
    params = {"tournament_id": tournament_id, "tavla_id": tavla_id}
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/needs/{tavla_id}",
        params=params,
        body={"accessible": accessible},
        user="eleni",
    )
    assert reply.status == 200, reply.body


def test_a_table_need_is_in_the_export_and_goes_with_the_erasure(api: Api) -> None:
    """A need at the tables is personal data (R12): the player's export lists each one held
    (set before the first draw and during the day), not one cleared again; the erasure takes
    it out of every plan and leaves no pointer to it."""
    eleni = create_player(api, "eleni", name=NAME)
    users = ["p0", "p1", "p2", "p3"]
    drawn, _ = checked_in_field(api, 4, users=users, tables=2)
    assert draw(api, drawn).status == 201
    before_draw, _ = checked_in_field(api, 4, users=users, tables=2)
    cleared, _ = checked_in_field(api, 4, users=users, tables=2)
    for tournament_id in (drawn, before_draw, cleared):
        _need(api, tournament_id, eleni, True)
    _need(api, cleared, eleni, False)

    data = api.call("GET", "/me/data", user="eleni")
    assert data.status == 200, data.body
    held = {n["tournament_id"]: n["accessible"] for n in data.body["table_needs"]}
    assert held == {drawn: True, before_draw: True}

    reply = api.call("POST", ERASE, body={"confirm": eleni}, user="eleni")
    assert reply.status == 200, reply.body
    assert any("tables" in line for line in reply.body["erased"])
    after = _everything()
    for tournament_id in (drawn, before_draw, cleared):
        assert eleni not in after[f"TOURNAMENT#{tournament_id}|TABLES"].get("needs", {})
    assert not [k for k in after if k.startswith(f"PLAYER#{eleni}|NEED#")]
    desk = api.call(
        "GET", "/tournaments/{tournament_id}/hall", params={"tournament_id": drawn}, user=ORGANISER
    )
    assert desk.status == 200 and desk.body["needs"] == []
