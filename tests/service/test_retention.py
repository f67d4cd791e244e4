"""The retention purge removes exactly what is due (R12, GDPR Art. 5(1)(e)), time injected."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tavla.rules import privacy
from tavla.rules.model import Actor
from tavla.services import retention
from tavla.store import audit, keys
from tavla.store import notifications as notification_store
from tavla.store.bank import add_line
from tavla.store.dynamo import client, deserialize, table_name
from tavla.store.records import BankLineRecord
from tavla.store.schema import CONTACTS, MAIN
from tavla.store.transactions import Transaction
from tests.service.conftest import Api, LambdaContext
from tests.service.helpers import create_player, create_tournament, register

PERIODS = privacy.Periods(inactive_contacts=1000, matched_payer=0, notifications=365, audit_details=730)


def _items() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for spec in (MAIN, CONTACTS):
        for item in client().scan(TableName=table_name(spec))["Items"]:
            plain = deserialize(item)
            found[f"{plain['pk']}|{plain.get('sk', '')}"] = plain
    return found


def _line(tournament_id: str, checksum: str, status: str, tavla_id: str | None) -> None:
    add_line(
        BankLineRecord(
            tournament_id=tournament_id,
            checksum=checksum,
            value_date="2026-01-10",
            amount=2000,
            currency="EUR",
            status=status,
            imported_at="2026-01-10T09:00:00+00:00",
            tavla_id=tavla_id,
            payer=f"PAYER {checksum}",
            text=f"text {checksum}",
        ),
        None,
        [],
    )


def test_the_purge_removes_what_is_due_and_nothing_else(api: Api) -> None:
    """Contacts of a player inactive past the period go (profile stays), an active one's stay;
    notices past their period go, newer stay; a matched line loses its payer, an unmatched one
    keeps it for the organiser; old audit records lose details and sign-in, keep who and when;
    money records are untouched. A second run finds nothing more."""
    now = datetime.now(UTC)
    idle = create_player(api, "idle", name="Idle", phone="+306970000001", email="idle@example.org")
    active = create_player(api, "active", name="Active", phone="+306970000002")
    tournament_id = create_tournament(api)
    assert register(api, tournament_id, "active").status == 201
    old, recent = now - timedelta(days=400), now - timedelta(days=10)
    notification_store.add(active, "old", "promoted", "old notice", old, {})
    notification_store.add(active, "new", "promoted", "new notice", recent, {})
    _line(tournament_id, "m1", "matched", active)
    _line(tournament_id, "u1", "unmatched", None)
    tx = Transaction()
    actor = Actor(role="organiser", tavla_id=active, sub="organiser-sub")
    audit.record(tx, tournament_id, audit.entry(actor, "old_change", now - timedelta(days=800), note="x"))
    audit.record(tx, tournament_id, audit.entry(actor, "new_change", now - timedelta(days=100), note="y"))
    tx.run()
    before = _items()

    # the idle player's profile was created long ago: move the clock instead of the data
    later = now + timedelta(days=1001)
    purged = retention.purge(later, PERIODS)
    after = _items()

    # the active player's tournament starts days after `now`: within the period still
    assert purged.contacts == 1
    assert after[f"CONTACTS#{active}|"] == before[f"CONTACTS#{active}|"]
    assert f"CONTACTS#{idle}|" not in after and "PHONE#+306970000001|" not in after
    assert after[f"PLAYER#{idle}|PROFILE"] == before[f"PLAYER#{idle}|PROFILE"]
    assert purged.notices == 2 and not [k for k in after if "|NOTE#" in k]
    assert purged.payers == 1
    matched = after[f"TOURNAMENT#{tournament_id}|BANKLINE#m1"]
    assert "payer" not in matched and "text" not in matched and matched["amount"] == 2000
    assert after[f"TOURNAMENT#{tournament_id}|BANKLINE#u1"]["payer"] == "PAYER u1"
    assert purged.audit_details == len([k for k in before if "|AUDIT#" in k])  # all over 730 days by then
    trail = [v for k, v in after.items() if k.startswith(f"TOURNAMENT#{tournament_id}|AUDIT#")]
    for record in trail:
        assert record["details"] == {} and "sub" not in record["actor"]
    assert {"role": "organiser", "tavla_id": active} in [r["actor"] for r in trail]
    changed = {k for k in before if before[k] != after.get(k)}
    assert changed == (
        {f"CONTACTS#{idle}|", "PHONE#+306970000001|"}
        | {k for k in before if "|NOTE#" in k or "|AUDIT#" in k}
        | {f"TOURNAMENT#{tournament_id}|BANKLINE#m1"}
    )
    assert retention.purge(later, PERIODS) == retention.Purged(0, 0, 0, 0)


def test_the_purge_at_today_keeps_everything_still_within_its_period(api: Api) -> None:
    """Run now, with the same data: only the notice past a year, the old audit record and the
    matched payer are due; both players' contacts stay (one entered, one created today)."""
    now = datetime.now(UTC)
    idle = create_player(api, "idle", name="Idle", phone="+306970000001")
    active = create_player(api, "active", name="Active")
    tournament_id = create_tournament(api)
    assert register(api, tournament_id, "active").status == 201
    notification_store.add(active, "old", "promoted", "old notice", now - timedelta(days=400), {})
    notification_store.add(active, "new", "promoted", "new notice", now - timedelta(days=10), {})
    tx = Transaction()
    audit.record(tx, tournament_id, audit.entry(Actor(role="system"), "old", now - timedelta(days=800), a=1))
    audit.record(tx, tournament_id, audit.entry(Actor(role="system"), "new", now - timedelta(days=100), a=1))
    tx.run()
    purged = retention.purge(now, PERIODS)
    assert purged == retention.Purged(contacts=0, payers=0, notices=1, audit_details=1)
    after = _items()
    assert f"CONTACTS#{idle}|" in after
    assert [v["message"] for k, v in after.items() if k.startswith(f"PLAYER#{active}|NOTE#")] == [
        "new notice"
    ]
    kept = [v for k, v in after.items() if "|AUDIT#" in k and v["action"] == "new"]
    assert kept[0]["details"] == {"a": 1}
    assert keys.NOTE_PREFIX == "NOTE#"


def test_the_privacy_notice_states_each_period_as_the_purge_applies_it(api: Api, monkeypatch: Any) -> None:
    """R12.2, GDPR Art. 13: `GET /privacy` (public) states every period from the one place the
    purge reads, a deployment's override included, and the money periods with their law."""
    monkeypatch.setenv("RETENTION_NOTIFICATIONS", "30")
    reply = api.call("GET", "/privacy")
    assert reply.status == 200
    days = {p["data"]: p["days"] for p in reply.body["retention"]}
    assert days["your notices (the in-app feed)"] == 30
    assert set(days.values()) >= {privacy.Periods().inactive_contacts, 0, privacy.Periods().audit_details}
    money = [p for p in reply.body["retention"] if p["data"].startswith("money records")]
    assert {(p["years"], "4308/2014" in p["source"] or "2220" in p["source"]) for p in money} == {
        (5, True),
        (10, True),
    }


def test_consents_are_recorded_with_their_time_and_my_data_returns_them(api: Api) -> None:
    """R12.2, GDPR Art. 7, 15, 20: choosing or withdrawing SMS or e-mail records when; `GET
    /me/data` returns the consents with their times, entries, money records and notices."""
    tavla_id = create_player(api, "u1", name="Eleni", phone="+306970000009", sms_opt_in=True)
    first = api.call("GET", "/me", user="u1").body
    assert first["sms_opt_in"] is True and first["sms_opt_in_at"] and first["notify_by_email_at"] is None
    assert api.call("PATCH", "/me", body={"notify_by_email": True}, user="u1").status == 200
    assert api.call("PATCH", "/me", body={"sms_opt_in": False}, user="u1").status == 200
    notification_store.add(tavla_id, "n1", "promoted", "You are in", datetime.now(UTC), {})
    data = api.call("GET", "/me/data", user="u1").body
    consents = {c["channel"]: c for c in data["consents"]}
    assert consents["sms"]["given"] is False and consents["sms"]["at"] >= first["sms_opt_in_at"]
    assert consents["email"]["given"] is True and consents["email"]["at"]
    assert [n["message"] for n in data["notifications"]] == ["You are in"]
    assert data["payments"] == [] and data["privacy_notice"]["retention"]


def test_the_schedule_runs_the_purge_and_nothing_else_does(api: Api) -> None:
    """The registry's daily cron tick runs the purge with the platform clock; any other event
    is ignored."""
    import importlib

    handler = importlib.import_module("functions.retention.handler").handler  # as Lambda calls it
    create_player(api, "u1", name="Eleni")
    tick = {"detail-type": "Scheduled Event", "source": "aws.scheduler", "detail": {}}
    assert handler(tick, LambdaContext("retention")) == {
        "contacts": 0,
        "payers": 0,
        "notices": 0,
        "audit_details": 0,
    }
    assert handler({"detail-type": "Something"}, LambdaContext("retention")) == {"outcome": "ignored"}
