"""Unpaid places (R3.2, R3.3): by the payment deadline, a main-list entry that still
owes is released to the waiting list (a notice first), as schedules, idempotently."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tavla import clock, events
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, bus_taking, create_player, create_tournament, entries, register
from tests.service.payment_helpers import fire_unpaid as _fire
from tests.service.payment_helpers import pay_cash
from tests.service.payment_helpers import planned_schedules as _schedules


def test_unpaid_places_go_to_the_waiting_list_at_the_deadline_once(api: Api, monkeypatch) -> None:
    """R3.2, R3.3: payer keeps their place; the unpaid player is told, then released; the
    waiting player is promoted; firing again releases nobody (not even the promoted player)."""
    published: list[str] = []
    monkeypatch.setattr(events, "put_on_bus", bus_taking(lambda kind, detail: published.append(kind)))
    tid = create_tournament(api, capacity=2)
    payer, debtor = create_player(api, "payer"), create_player(api, "debtor")
    waiting = create_player(api, "waiting")
    for user in ("payer", "debtor", "waiting"):
        assert register(api, tid, user).status == 201
    pay_cash(api, tid, payer)
    deadline = datetime.now(UTC) + timedelta(days=3)
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/payments/deadline",
        params={"tournament_id": tid},
        body={"at": deadline.isoformat()},
        user=ORGANISER,
    )
    assert reply.status == 200, reply.body
    planned = _schedules()
    assert sorted(p["step"] for p in planned.values()) == ["notice", "release"]
    notice = next(p for p in planned.values() if p["step"] == "notice")
    assert _fire(notice) == {"notified": 1}
    _fire(notice)  # delivered twice: one notification
    notes = api.call("GET", "/me/notifications", user="debtor").body
    assert [n["kind"] for n in notes].count("payment_due") == 1
    assert "πληρώστε τη συμμετοχή σας" in notes[0]["message"]  # the federation's Greek
    release = next(p for p in planned.values() if p["step"] == "release")
    assert "skipped" in _fire(release)  # never before the deadline
    clock.advance(timedelta(days=3, seconds=1))
    assert _fire(release) == {"released": 1}
    assert _fire(release) == {"released": 0}
    listed = entries(api, tid)
    assert [e["tavla_id"] for e in listed["main"]] == [payer, waiting] and listed["waiting"] == []
    assert debtor not in json.dumps(listed)
    # the promoted player is told, once (the rest are the entry lists' live hints)
    assert [p for p in published if p != events.ENTRIES_CHANGED] == [events.REGISTRATION_PROMOTED]


def test_a_moved_deadline_makes_the_old_schedule_a_no_op(api: Api) -> None:
    """Idempotent and safe: a schedule of a deadline since moved (or lifted) releases nobody."""
    tid = create_tournament(api, capacity=2)
    create_player(api, "debtor")
    assert register(api, tid, "debtor").status == 201
    first = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    params = {"tournament_id": tid}
    api.call(
        "PUT",
        "/tournaments/{tournament_id}/payments/deadline",
        params=params,
        body={"at": first},
        user=ORGANISER,
    )
    api.call(
        "PUT",
        "/tournaments/{tournament_id}/payments/deadline",
        params=params,
        body={"at": None},
        user=ORGANISER,
    )
    old = {"tournament_id": tid, "deadline": first, "step": "release"}
    assert _fire(old)["skipped"]
    assert len(entries(api, tid)["main"]) == 1


def test_a_deadline_in_the_past_is_refused_and_changes_nothing(api: Api) -> None:
    """422 for a deadline already gone: no schedule, no setting."""
    tid = create_tournament(api)
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/payments/deadline",
        params={"tournament_id": tid},
        body={"at": past},
        user=ORGANISER,
    )
    assert (reply.status, reply.error) == (422, "validation_error")
    assert _schedules() == {}
    assert (
        api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid}).body[
            "payment_deadline"
        ]
        is None
    )
