"""A tournament cancelled or postponed by its organiser or an admin (R2, R3.5).

Cancelled (before or during the day): registration and check-in close, every entrant is
refunded everything they paid (card payments back through the provider, bank and cash on the
organiser's refund list), every entrant is told in their language, the public page says
cancelled, and the season never counts it (only a finished tournament is counted, and a
cancelled one never finishes). Matches played before the cancellation stay rated, unless an
admin says otherwise (`unrate`, when cancelling or later): the tournament is marked unrated and
the ratings function takes its results out of the ledger and replays (`ratings.unrate`), as the
nightly and full rebuilds leave an unrated tournament's results out.

Postponed (before the draw): the dates move, and the registration close, early bird and
payment deadline move by as much (the payment deadline's schedules with it: the old ones find
the deadline changed and do nothing); entrants keep their place, are told, and may withdraw
with a full refund until the new registration close.

Both are safe to repeat: a second cancel finds the tournament cancelled and only checks the
refunds again (refunds have the cancellation's own ids and are planned from the money still
held, so nothing is refunded twice); a postponement to the start it already has changes
nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ValidationError

from tavla import events
from tavla.caller import Caller
from tavla.errors import (
    DrawInProgress,
    Forbidden,
    Invalid,
    NotPostponable,
    TournamentCancelled,
    TournamentOver,
)
from tavla.models.common import Money
from tavla.models.tournaments import CancelBody, Cancellation, PostponeBody, Tournament, TournamentSettings
from tavla.rules.tournament_settings import MoneySettings
from tavla.services import payments, tournaments, unpaid
from tavla.services.access import require_organiser
from tavla.store import outbox
from tavla.store import payments as payment_store
from tavla.store import registrations as registration_store
from tavla.store import tournaments as tournament_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import FINISHED, Actor, TournamentRecord
from tavla.store.registrations import PENDING, REGISTERED, WAITLISTED
from tavla.store.tournaments import CANCELLED
from tavla.store.transactions import Cancelled, Transaction

# card refunds tried at once while answering; the rest go by their scheduled retries
QUICK_CARD_REFUNDS = 10


def cancel(caller: Caller, tournament_id: str, body: CancelBody, now: datetime) -> Cancellation:
    """Cancel the tournament and refund every entrant in full (its organisers, or an admin)."""
    tournament = tournament_store.get(tournament_id)
    actor = require_organiser(tournament, caller)
    unrate = body.unrate and tournament.lifecycle.unrated_at is None
    if body.unrate:
        _may_unrate(tournament, caller)
    changed = False
    unrated = outbox.Event(events.TOURNAMENT_UNRATED, {"tournament_id": tournament_id, "at": now.isoformat()})
    if tournament.status != CANCELLED:
        _refuse_cancel(tournament)
        change = audit_entry(
            actor,
            "tournament_cancelled",
            now,
            reason=body.reason,
            stage=tournament.status,
            draws=tournament.draws,
            unrated=unrate or None,
        )
        detail = {"tournament_id": tournament_id, "at": now.isoformat(), "reason": body.reason}
        event = outbox.Event(events.TOURNAMENT_CANCELLED, {k: v for k, v in detail.items() if v is not None})
        changed = tournament_store.cancel(
            tournament_id,
            now.isoformat(),
            body.reason,
            change,
            [event, *([unrated] if unrate else [])],
            unrate,
        )
        if not changed:  # a draw, a finish or another cancellation came first
            _refuse_cancel(tournament_store.get(tournament_id), meanwhile=True)
    elif unrate:  # the admin's later word on a day already cancelled
        change = audit_entry(actor, "tournament_unrated", now, draws=tournament.draws)
        changed = tournament_store.unrate(tournament_id, now.isoformat(), change, [unrated])
    cancelled = tournament_store.get(tournament_id)
    written = _refund_everyone(cancelled, actor, now)
    due = sum(
        e.amount for e in payment_store.entries(tournament_id) if e.kind == "refund" and e.status == "due"
    )
    return Cancellation(
        tournament_id=tournament_id,
        cancelled_at=cancelled.lifecycle.cancelled,
        changed=changed,
        refunds_written=written,
        refunds_due=Money(amount=due),
        unrated_at=cancelled.lifecycle.unrated_at,
    )


def _may_unrate(tournament: TournamentRecord, caller: Caller) -> None:
    """Results stay rated unless an admin says otherwise, and only results a draw led to."""
    if not caller.is_admin:
        raise Forbidden("Only the federation's admins may take played results out of the ratings.")
    if not tournament.draws:
        raise Invalid("unrate: no draw was made, so no result was played to take out of the ratings.")


def _refuse_cancel(tournament: TournamentRecord, *, meanwhile: bool = False) -> None:
    if tournament.status == CANCELLED:
        return
    if tournament.status == FINISHED:
        raise TournamentOver(
            "The tournament is finished: its results are the record, it cannot be cancelled."
        )
    if tournament.drawing is not None or meanwhile:
        raise DrawInProgress("A draw is being made: cancel once it is published.")


def _refund_everyone(tournament: TournamentRecord, actor: Actor, now: datetime) -> int:
    """Each entrant's money back in full, one entrant per transaction (idempotent: planned from
    what is still held, written under ids of the cancellation's own)."""
    written, tried = 0, 0
    for entry in registration_store.all_entries(tournament.id):
        if entry.status not in (REGISTERED, WAITLISTED, PENDING):
            continue
        refund = payments.cancellation_refund(tournament, entry.tavla_id, actor, now)
        if not refund.entries:
            continue
        tx = Transaction()
        refund.write(tx)
        try:
            tx.run()
        except Cancelled:  # a repeated cancellation wrote these refunds just now
            continue
        written += 1
        if refund.by_card and tried < QUICK_CARD_REFUNDS:
            tried += 1
            payments.after_withdrawal(tournament, entry.tavla_id, refund, now)
    return written


def postpone(caller: Caller, tournament_id: str, body: PostponeBody, now: datetime) -> Tournament:
    """Move the tournament's dates (its organisers, or an admin), before the draw."""
    current = tournament_store.get(tournament_id)
    actor = require_organiser(current, caller)
    if current.status == CANCELLED:
        raise TournamentCancelled("The tournament was cancelled: it has no dates to move.")
    if not current.is_open:
        raise NotPostponable("The draw has been made: a day under way can be cancelled, not postponed.")
    old = TournamentSettings.model_validate(
        {k: v for k, v in current.settings.items() if k in TournamentSettings.model_fields}
    )
    if body.starts_at == old.starts_at and current.lifecycle.postponed_at:
        return tournaments.get(tournament_id)  # asked again: it is where it was asked to be
    if body.starts_at <= old.starts_at:
        raise Invalid("starts_at: a postponement moves the start later.")
    shift = body.starts_at - old.starts_at
    moved: dict[str, Any] = {
        "starts_at": body.starts_at,
        "registration_closes_at": body.registration_closes_at or old.registration_closes_at + shift,
    }
    for name in ("early_bird_deadline", "payment_deadline"):
        if getattr(old, name) is not None:
            moved[name] = getattr(old, name) + shift
    try:
        merged = TournamentSettings.model_validate({**old.model_dump(), **moved})
    except ValidationError as error:
        raise Invalid("; ".join(e["msg"] for e in error.errors())) from error
    tournaments._check_times(merged, now, being_set=moved)
    stored = {
        **tournaments._stored(merged),
        "postponed_at": now.isoformat(),
        "postponed_from": current.lifecycle.postponed_from or current.starts_at,
    }
    change = audit_entry(
        actor, "tournament_postponed", now, starts_at=stored["starts_at"], was=current.starts_at
    )
    event = outbox.Event(
        events.TOURNAMENT_POSTPONED,
        {
            "tournament_id": tournament_id,
            "at": now.isoformat(),
            "starts_at": _venue_time(merged.starts_at, merged.time_zone),
            "registration_closes_at": _venue_time(merged.registration_closes_at, merged.time_zone),
        },
    )
    tournament_store.update_settings(current, stored, change, [event])
    deadline = MoneySettings.parse(stored).payment_deadline
    if deadline:
        unpaid.schedule(tournament_id, deadline, now)
    return tournaments.get(tournament_id)


def _venue_time(moment: datetime, zone: str) -> str:
    """A time as the venue's clock shows it (what an entrant's notice says)."""
    from zoneinfo import ZoneInfo

    return moment.astimezone(ZoneInfo(zone)).isoformat()
