"""Unpaid places (R3.2, R3.3): by the organiser's payment deadline, a main-list entry that
still owes its fee is released to the waiting list, whose first player is promoted.

Two one-time EventBridge Scheduler schedules per deadline, named by the deadline: a notice
a day before (to each unpaid player, in their language, by feed and push, once per deadline), and
the release. Both re-read everything and are idempotent: the release takes only entries
listed before the deadline that still owe (players promoted by the release are not touched
when it fires again), and does nothing if the deadline was moved or the draw made.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tavla import notices, schedules
from tavla.caller import Caller
from tavla.errors import Invalid, RegistrationClosed, TournamentNotFound
from tavla.models.payments import Ledger, PaymentDeadline, PaymentDeadlineSet
from tavla.services import payments, registrations
from tavla.services.access import require_organiser
from tavla.store import payments as payment_store
from tavla.store import registrations as registration_store
from tavla.store.records import TournamentRecord

NOTICE_BEFORE = timedelta(days=1)
TARGET = "unpaid"


def set_deadline(
    caller: Caller, tournament_id: str, body: PaymentDeadline, now: datetime
) -> PaymentDeadlineSet:
    """The organiser sets (or lifts) the payment deadline; its schedules are created."""
    tournament = payments.tournament_or_404(tournament_id)
    require_organiser(tournament, caller)
    if not tournament.is_open:
        raise RegistrationClosed("The draw has been made: no more payment deadlines.")
    if body.at is not None and body.at <= now:
        raise Invalid("at: a payment deadline must be in the future.")
    payment_store.set_payment_deadline(tournament_id, body.at.isoformat() if body.at else None)
    if body.at is None:
        return PaymentDeadlineSet(payment_deadline=None)
    notice = schedule(tournament_id, body.at.isoformat(), now)
    return PaymentDeadlineSet(payment_deadline=body.at, notice_at=notice)


def schedule(tournament_id: str, at: str, now: datetime) -> datetime | None:
    """The deadline's schedules (its notice, if a day remains, and its release), however the
    deadline was set: with the tournament, by a settings change, or here. Returns when the
    notice goes out. `at` is the deadline exactly as stored (the schedules compare it).
    Schedules are named by the deadline, so setting it again adds none; one left from a
    deadline since moved finds it changed and does nothing."""
    deadline = datetime.fromisoformat(at)
    stamp = deadline.strftime("%Y%m%dT%H%M%S")
    notice = deadline - NOTICE_BEFORE
    if notice > now:
        schedules.create_once(
            schedules.schedule_name(TARGET, tournament_id, "notice", stamp),
            notice,
            TARGET,
            {"tournament_id": tournament_id, "deadline": at, "step": "notice"},
        )
    schedules.create_once(
        schedules.schedule_name(TARGET, tournament_id, "release", stamp),
        deadline,
        TARGET,
        {"tournament_id": tournament_id, "deadline": at, "step": "release"},
    )
    return notice if notice > now else None


def enforce(payload: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A deadline schedule fired: notify or release the unpaid entries (idempotent); or a
    card refund the provider did not take is tried again (R3.5)."""
    if payload.get("step") == payments.CARD_REFUNDS_STEP:
        return payments.retry_card_refunds(payload, now)
    tournament_id, deadline, step = payload.get("tournament_id"), payload.get("deadline"), payload.get("step")
    try:
        tournament = payments.tournament_or_404(str(tournament_id))
    except TournamentNotFound:
        return {"skipped": "no such tournament"}
    if not tournament.is_open or tournament.money.payment_deadline != deadline or deadline is None:
        return {"skipped": "the deadline changed or the draw was made"}
    at = datetime.fromisoformat(deadline)
    unpaid = [
        lg.tavla_id
        for lg, listed in _main_list(tournament, now)
        if lg.outstanding.amount > 0 and datetime.fromisoformat(listed) < at
    ]
    if step == "notice":
        from tavla.services import notify

        fields = {"tournament": tournament.name, "deadline": deadline}
        data = {"tournament_id": tournament_id, "deadline": deadline}
        profile = tournament.play.rule_profile
        # the notice's own moment and name: delivered twice, stored and sent once
        notify.tell(
            [
                notify.Notice(
                    t, notices.PAYMENT_DUE, fields, data, profile, time_zone=tournament.money.time_zone
                )
                for t in unpaid
            ],
            f"unpaid-{tournament_id}-{deadline}",
            at - NOTICE_BEFORE,
        )
        return {"notified": len(unpaid)}
    if now < at:
        return {"skipped": "the deadline is still to come"}
    released = [p for p in unpaid if registrations.release_unpaid(tournament, p, now)]
    return {"released": len(released)}


def _main_list(tournament: TournamentRecord, now: datetime) -> list[tuple[Ledger, str]]:
    """Each main-list entry's ledger and when it was listed."""
    entries = {
        r.tavla_id: r for r in registration_store.all_entries(tournament.id) if r.status == "registered"
    }
    ledgers = {lg.tavla_id: lg for lg in payments.tournament_ledgers(tournament, now)}
    return [(ledgers[t], r.listed_at) for t, r in entries.items() if t in ledgers]
