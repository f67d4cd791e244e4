"""Money an attacker cannot bend (R3.3, R3.5, R11.5): a correctly signed webhook is still
checked before anything is recorded, every money write is idempotent, every CSV cell is text."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from local.fake_provider import FakeProvider
from tests.service.board_helpers import raw_call
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament, future, register
from tests.service.payment_helpers import MAPPING, deliver, ledger_of, planned_schedules, provider, signed

__all__ = ["provider"]  # the fixture

PAYMENTS = "/tournaments/{tournament_id}/payments"


def _entered(api: Api, user: str = "payer", name: str | None = None) -> tuple[str, str]:
    tid = create_tournament(api)
    tavla_id = create_player(api, user, name)
    assert register(api, tid, user).status == 201
    return tid, tavla_id


def _session(api: Api, tid: str, user: str = "payer") -> str:
    reply = api.call("POST", PAYMENTS + "/checkout", params={"tournament_id": tid}, user=user)
    assert reply.status == 201, reply.body
    return str(reply.body["session_id"])


def _bent(provider: FakeProvider, session_id: str, change: Any) -> str:
    """A completed event for a real session, altered (then signed with the right secret)."""
    event = json.loads(provider.completed_event(session_id))
    change(event)
    return json.dumps(event)


def _everything_answers(api: Api, tid: str) -> None:
    """The pages that read the ledger still answer after the attempt."""
    assert api.call("GET", "/me/payments", user="payer").status == 200
    assert api.call("GET", PAYMENTS, params={"tournament_id": tid}, user=ORGANISER).status == 200
    statement = api.call(
        "POST",
        "/tournaments/{tournament_id}/bank-statements",
        params={"tournament_id": tid},
        body={"format": "mt940", "content": ":20:X\n:25:A\n:28C:1\n:60F:C261101EUR0,00\n:62F:C261101EUR0,00"},
        user=ORGANISER,
    )
    assert statement.status == 200, statement.body


def _set(path: str, value: Any) -> Any:
    def change(event: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = event
        for p in parents:
            node = node[p]
        if value is KeyError:
            del node[last]
        else:
            node[last] = value

    return change


MALFORMED = {
    "negative amount": _set("data.object.amount_total", -2000),
    "amount as text": _set("data.object.amount_total", "2000"),
    "amount missing": _set("data.object.amount_total", KeyError),
    "amount 1e40": _set("data.object.amount_total", 1e40),
    "metadata a list": _set("data.object.metadata", ["tournament_id"]),
    "created as text": _set("created", "yesterday"),
    "object null": _set("data.object", None),
    "no event id": _set("id", KeyError),
}


@pytest.mark.parametrize("attack", sorted(MALFORMED))
def test_a_signed_but_malformed_event_is_refused_and_records_nothing(
    api: Api, provider: FakeProvider, attack: str
) -> None:
    """R3.3: a signed event that is not a well-formed payment is a 400 `invalid_webhook`
    (retrying cannot mend it), nothing recorded, and every money page still answers."""
    tid, tavla_id = _entered(api)
    payload = _bent(provider, _session(api, tid), MALFORMED[attack])
    reply = deliver(api, payload, signed(payload))
    assert (reply.status, reply.error) == (400, "invalid_webhook"), reply.body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["entries"] == []
    _everything_answers(api, tid)


def test_an_event_for_a_checkout_we_never_started_credits_nobody(api: Api, provider: FakeProvider) -> None:
    """R3.3: a signed event naming a tournament and a player in its metadata, but for a
    session the platform did not start for them, pays nothing (2xx: the provider stops)."""
    tid, tavla_id = _entered(api)
    outsider = create_player(api, "outsider")
    session_id = _session(api, tid)

    def forged(event: dict[str, Any]) -> None:
        event["data"]["object"]["id"] = "cs_test_never_started"
        event["data"]["object"]["metadata"]["tavla_id"] = outsider

    payload = _bent(provider, session_id, forged)
    reply = deliver(api, payload, signed(payload))
    assert (reply.status, reply.body["recorded"]) == (200, False)
    other = _bent(provider, session_id, _set("data.object.metadata.tavla_id", outsider))
    reply = deliver(api, other, signed(other))  # a real session, another player named
    assert (reply.status, reply.body["recorded"]) == (200, True)
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000  # the session's player
    payments = api.call("GET", PAYMENTS, params={"tournament_id": tid}, user=ORGANISER).body
    assert outsider not in {lg["tavla_id"] for lg in payments["ledgers"]}


def test_a_payment_in_another_currency_is_flagged_and_not_counted(api: Api, provider: FakeProvider) -> None:
    """R3.3: 20.00 USD for a EUR checkout is recorded for the organiser, flagged, and counts
    for nothing: the fee is still owed, the EUR totals do not include it."""
    tid, tavla_id = _entered(api)
    payload = _bent(provider, _session(api, tid), _set("data.object.currency", "usd"))
    reply = deliver(api, payload, signed(payload))
    assert reply.status == 200, reply.body
    ledger = ledger_of(api, tid, tavla_id, ORGANISER)
    [entry] = ledger["entries"]
    assert ("currency_mismatch" in entry["flags"], ledger["paid"]["amount"]) == (True, 0)
    assert ledger["outstanding"]["amount"] == 2000
    totals = api.call("GET", PAYMENTS, params={"tournament_id": tid}, user=ORGANISER).body
    assert totals["collected"]["amount"] == 0


def test_a_venue_payment_sent_twice_with_its_key_is_recorded_once(api: Api) -> None:
    """R3.3: the referee's phone resends the 7.00 cash payment with the same Idempotency-Key:
    one payment, the same answer twice."""
    tid, tavla_id = _entered(api)
    body = {"tavla_id": tavla_id, "method": "cash", "amount": {"amount": 700}}
    key = {"Idempotency-Key": "venue-cash-0001"}
    answers = [
        api.call("POST", PAYMENTS, params={"tournament_id": tid}, body=body, user=ORGANISER, headers=key)
        for _ in range(2)
    ]
    assert [a.status for a in answers] == [201, 201]
    assert answers[0].body == answers[1].body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 700
    other = {**body, "amount": {"amount": 800}}
    reused = api.call(
        "POST", PAYMENTS, params={"tournament_id": tid}, body=other, user=ORGANISER, headers=key
    )
    assert (reused.status, reused.error) == (422, "idempotency_key_reused")


def test_a_manual_match_sent_twice_with_its_key_answers_the_same(api: Api) -> None:
    """R3.3: a manual match retried with its key answers as the first time (not 404)."""
    tid, tavla_id = _entered(api)
    statement = "Date;Amount;Description;Payer\n01/11/2026;20,00;no code here;Eve"
    imported = api.call(
        "POST",
        "/tournaments/{tournament_id}/bank-statements",
        params={"tournament_id": tid},
        body={"format": "csv", "content": statement, "mapping": MAPPING},
        user=ORGANISER,
    )
    checksum = imported.body["lines"][0]["checksum"]
    answers = [
        api.call(
            "POST",
            "/tournaments/{tournament_id}/bank-statements/lines/{checksum}/match",
            params={"tournament_id": tid, "checksum": checksum},
            body={"tavla_id": tavla_id},
            user=ORGANISER,
            headers={"Idempotency-Key": "match-line-0001"},
        )
        for _ in range(2)
    ]
    assert [a.status for a in answers] == [200, 200] and answers[0].body == answers[1].body
    assert ledger_of(api, tid, tavla_id, ORGANISER)["paid"]["amount"] == 2000


def _rows(api: Api, path: str, tid: str) -> list[list[str]]:
    reply = raw_call(api, "GET", path, params={"tournament_id": tid}, user=ORGANISER)
    assert reply["statusCode"] == 200, reply
    return list(csv.reader(io.StringIO(reply["body"])))


def test_no_export_cell_can_start_a_formula(api: Api, provider: FakeProvider) -> None:
    """R3.3: a name like `Eve;=1+2` (a `;` starts a new cell in a European spreadsheet) and the
    provider's currency reach the payments export as text: no cell holds a formula start
    after any separator."""
    tid, tavla_id = _entered(api, name="Eve;=1+2")
    payload = _bent(provider, _session(api, tid), _set("data.object.currency", "=cmd"))
    deliver(api, payload, signed(payload))
    body = {"tavla_id": tavla_id, "method": "cash", "amount": {"amount": 700}, "receipt": "R,@SUM(A1)"}
    api.call("POST", PAYMENTS, params={"tournament_id": tid}, body=body, user=ORGANISER)
    rows = _rows(api, PAYMENTS + "/export", tid)
    cells = [c for row in rows[1:] for c in row]
    assert "Eve;=1+2" not in cells and any("Eve" in c for c in cells)
    for cell in cells:
        for part in [cell, *(cell.split(sep, 1)[1] for sep in ",;\t|" if sep in cell)]:
            assert not part.startswith(("=", "+", "@")), (cell, rows)


def test_a_payment_deadline_given_at_creation_schedules_the_release(api: Api) -> None:
    """R3.2, R3.3: the deadline in POST /tournaments is shown and enforced: its notice and
    release are scheduled, as when it is set afterwards."""
    at = future(5)
    tid = create_tournament(api, payment_deadline=at)
    shown = api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body
    assert shown["payment_deadline"] is not None
    planned = [p for p in planned_schedules().values() if p.get("tournament_id") == tid]
    assert sorted(p["step"] for p in planned) == ["notice", "release"], planned
