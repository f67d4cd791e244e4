"""Entry-fee money (R3.3-R3.6): ledgers, payments at the venue, card checkout and its webhook.

Every amount is integer cents (EUR). A registration's ledger is its entries (payments in,
refunds out) plus the fee that applies (division and early bird, tavla.rules.money); the
balance is computed from integers only. Every movement is written once, with its audit
record in the same transaction.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from tavla import card_payments, ids
from tavla.caller import Caller
from tavla.errors import NoPayment, NothingToPay, NotRegistered, ProviderUnavailable, TournamentNotFound
from tavla.frozen import Frozen
from tavla.models.common import Money
from tavla.models.payments import (
    CheckoutStarted,
    Ledger,
    LedgerEntry,
    MyPayments,
    Refunds,
    SideEventCharge,
    TournamentPayments,
    VenuePayment,
    WebhookReceived,
)
from tavla.observability import logger
from tavla.rules.money import LedgerLine, fee_due, side_event_fee, summarise
from tavla.rules.refunds import RefundKind
from tavla.services.access import player_actor, require_organiser, require_staff
from tavla.spreadsheet import cell
from tavla.store import audit as audit_store
from tavla.store import draws as draw_store
from tavla.store import payments as payment_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import snapshots
from tavla.store.audit import entry as audit_entry
from tavla.store.records import (
    SYSTEM,
    Actor,
    AuditRecord,
    CheckoutRecord,
    LedgerEntryRecord,
    RegistrationRecord,
    TournamentRecord,
)
from tavla.store.registrations import PENDING, REGISTERED, WAITLISTED
from tavla.store.tournaments import CANCELLED
from tavla.store.transactions import Transaction

_system_random = random.SystemRandom()
EUR = "EUR"
PAYMENT, REFUND = "payment", "refund"
PROVIDER_REFUND, BANK_REFUND, DUE, DONE = "provider_refund", "bank_refund", "due", "done"
RETRY_TARGET = "unpaid"  # the scheduled money function: it also retries card refunds
CARD_REFUNDS_STEP = "card_refunds"
# retries of a card refund, after the withdrawal (all scheduled then: a retry that finds the
# refund paid does nothing); after the last, it stays due on the organiser's refund list
REFUND_RETRIES = (timedelta(minutes=15), timedelta(hours=1), timedelta(hours=6), timedelta(hours=24))


def tournament_or_404(tournament_id: str) -> TournamentRecord:
    found = snapshots.snapshot(tournament_id).tournament
    if found is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return found


def _value(entry: LedgerEntryRecord) -> datetime | date:
    return (
        datetime.fromisoformat(entry.value_date)
        if "T" in entry.value_date
        else date.fromisoformat(entry.value_date)
    )


def counted(entry: LedgerEntryRecord) -> bool:
    """Money in the tournament's currency counts; another currency is flagged for the
    organiser and counts for nothing (its face value is not euros)."""
    return entry.currency == EUR


def _lines(entries: Iterable[LedgerEntryRecord]) -> list[LedgerLine]:
    return [
        LedgerLine(kind=e.kind, amount=e.amount, value=_value(e), settled=e.kind != REFUND or e.status != DUE)
        for e in entries
        if e.kind in (PAYMENT, REFUND) and counted(e)
    ]


def side_event_charges(tournament: TournamentRecord) -> dict[str, list[SideEventCharge]]:
    """R3.6: who plays which side event, and what it costs them.

    The day feeds the Consolation and the Last Chance only from the Main (the losers of its
    chosen rounds, rules/day.py): nobody outside the Main can enter one. So every side-event
    player is a Main player, and pays the side event's fee unless it is free for Main players
    (`side_event_fee`). Read from the published side-event draws: one Query, only when a
    side event is charged and a draw has been made.
    """
    charged = {
        e.kind: e
        for e in tournament.money.side_events
        if side_event_fee(e.fee, e.free_for_main_players, plays_main=True)
    }
    if not charged or not tournament.draws:
        return {}
    out: dict[str, list[SideEventCharge]] = {}
    for drawn in draw_store.day(tournament.id).rounds:
        event = charged.get(drawn.event)
        if event is None or drawn.event == "main":
            continue
        fee = side_event_fee(event.fee, event.free_for_main_players, plays_main=True)
        for entrant in drawn.inputs.get("field") or []:
            charges = out.setdefault(str(entrant["player_id"]), [])
            if all(c.event != drawn.event for c in charges):
                charges.append(SideEventCharge(event=drawn.event, name=event.name, fee=Money(amount=fee)))
    return out


def fee_of(
    tournament: TournamentRecord,
    division: str | None,
    entries: Sequence[LedgerEntryRecord],
    on: datetime | date,
) -> tuple[int, bool]:
    """The one price: the entry fee this registration owes on the value date `on` (division's
    fees first, then the tournament's; early bird in the tournament's zone) and whether the
    early-bird fee applies (R3.4). The page and the checkout ask it for now, the bank
    matcher for the transfer's value date."""
    money = tournament.money
    full, early = money.fees(division)
    due = fee_due(full, early, money.early_bird_deadline, money.time_zone, _lines(entries), on=on)
    return due, early is not None and due == early and due != full


def ledger(
    tournament: TournamentRecord,
    tavla_id: str,
    registration: RegistrationRecord | None,
    entries: Sequence[LedgerEntryRecord],
    side_events: Sequence[SideEventCharge],
    on: datetime | date,
    name: str | None = None,
) -> Ledger:
    """One registration's ledger on the value date `on`: what it owes (entry fee, side
    events played), what moved, the refunds still due, the balance."""
    fee, early = fee_of(tournament, registration.division if registration else None, entries, on)
    status = registration.status if registration else "withdrawn"
    active = status in (REGISTERED, WAITLISTED, PENDING)
    side = sum(c.fee.amount for c in side_events)
    owes = fee + side if status == REGISTERED else 0  # waiting and pending entries hold no place yet
    totals = summarise(_lines(entries), owes, active=active)
    return Ledger(
        tavla_id=tavla_id,
        name=name,
        tournament_id=tournament.id,
        status=status,
        division=registration.division if registration else None,
        due=Money(amount=totals.due),
        paid=Money(amount=totals.paid),
        refunded=Money(amount=totals.refunded),
        refund_due=Money(amount=totals.refund_due),
        balance=totals.balance,
        outstanding=Money(amount=totals.outstanding),
        early_bird=early and status == REGISTERED,
        side_events=list(side_events),
        entries=[shown(e) for e in entries],
    )


def shown(entry: LedgerEntryRecord, name: str | None = None) -> LedgerEntry:
    return LedgerEntry(
        id=entry.id,
        tavla_id=entry.tavla_id,
        name=name,
        kind=entry.kind,
        method=entry.method,
        amount=Money(amount=entry.amount),
        value_date=entry.value_date,
        reference=entry.reference,
        recorded_by=entry.recorded_by,
        recorded_at=datetime.fromisoformat(entry.recorded_at),
        receipt=entry.receipt,
        status=entry.status,
        flags=list(entry.flags),
        expected=Money(amount=entry.expected_amount) if entry.expected_amount is not None else None,
        currency=entry.currency,
        statement_line=entry.statement_line,
    )


def tournament_ledgers(
    tournament: TournamentRecord, now: datetime, entries: Sequence[LedgerEntryRecord] | None = None
) -> list[Ledger]:
    registrations = {r.tavla_id: r for r in registration_store.all_entries(tournament.id)}
    by_player: dict[str, list[LedgerEntryRecord]] = {}
    for e in payment_store.entries(tournament.id) if entries is None else entries:
        by_player.setdefault(e.tavla_id, []).append(e)
    players = sorted(set(registrations) | set(by_player) | payment_store.withdrawn(tournament.id))
    side = side_event_charges(tournament)
    names = names_of(players)
    return [
        ledger(tournament, p, registrations.get(p), by_player.get(p, []), side.get(p, ()), now, names.get(p))
        for p in players
    ]


def names_of(tavla_ids: Iterable[str]) -> dict[str, str]:
    """The players' names as their profiles say now (an erased player's is the pseudonym that
    replaced it): a treasurer's lists name people, the Tavla ID beside."""
    wanted = list(tavla_ids)
    return {t: p.name for t, p in player_store.get_profiles(wanted).items()} if wanted else {}


def player_ledger(tournament: TournamentRecord, tavla_id: str, on: datetime | date) -> Ledger:
    """One player's ledger in a tournament on the value date `on`, read afresh."""
    registration = snapshots.snapshot(tournament.id, tavla_id=tavla_id).registration
    entries = payment_store.entries(tournament.id, tavla_id)
    side = side_event_charges(tournament).get(tavla_id, ())
    return ledger(tournament, tavla_id, registration, entries, side, on)


def tournament_payments(caller: Caller, tournament_id: str, now: datetime) -> TournamentPayments:
    """Every registration's ledger (its referees and organisers)."""
    tournament = tournament_or_404(tournament_id)
    require_staff(tournament, caller)
    from tavla.services import prizes  # the prizes read the payments: the figures are theirs

    entries = payment_store.entries(tournament.id)
    ledgers = tournament_ledgers(tournament, now, entries)
    figures = prizes.figures(tournament, entries)
    return TournamentPayments(
        tournament_id=tournament_id,
        ledgers=ledgers,
        collected=figures.collected,
        outstanding=Money(amount=sum(lg.outstanding.amount for lg in ledgers)),
        refunds_due=figures.refunds_due,
        figures=figures,
    )


EXPORT_COLUMNS = (
    "tournament_id",
    "tavla_id",
    "name",
    "entry_id",
    "kind",
    "method",
    "amount_cents",
    "currency",
    "value_date",
    "reference",
    "receipt",
    "status",
    "flags",
    "recorded_by",
    "recorded_at",
)


def export_csv(caller: Caller, tournament_id: str) -> str:
    """All money in and out, one line per movement (its organisers): for the treasurer."""
    tournament = tournament_or_404(tournament_id)
    require_organiser(tournament, caller)
    entries = payment_store.entries(tournament_id)
    names = names_of({e.tavla_id for e in entries})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for e in entries:
        row = [
            tournament_id,
            e.tavla_id,
            names.get(e.tavla_id, ""),
            e.id,
            e.kind,
            e.method,
            e.amount if e.kind == PAYMENT else -e.amount,
            e.currency,
            e.value_date,
            e.reference,
            e.receipt,
            e.status,
            " ".join(e.flags),
            e.recorded_by,
            e.recorded_at,
        ]
        writer.writerow([cell(v) for v in row])
    return out.getvalue()


def my_payments(caller: Caller, now: datetime) -> MyPayments:
    """My ledgers in every tournament I entered or paid for."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    tournaments = {r.tournament_id for r in registration_store.of_player(tavla_id)}
    mine = payment_store.of_payer(tavla_id)
    tournaments |= {e.tournament_id for e in mine}
    ledgers: list[Ledger] = []
    for tournament_id in sorted(tournaments):
        snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
        if snap.tournament is None:
            continue
        entries = [e for e in mine if e.tournament_id == tournament_id]
        side = side_event_charges(snap.tournament).get(tavla_id, ())
        ledgers.append(ledger(snap.tournament, tavla_id, snap.registration, entries, side, now))
    return MyPayments(ledgers=ledgers)


def _recorder(actor: Actor) -> str:
    return actor.tavla_id or actor.role


def audited(actor: Actor, entry: LedgerEntryRecord, now: datetime, **details: Any) -> Any:
    return audit_entry(
        actor,
        f"{entry.kind}_recorded",
        now,
        tavla_id=entry.tavla_id,
        entry=entry.id,
        method=entry.method,
        amount=entry.amount,
        currency=entry.currency,
        flags=list(entry.flags) or None,
        **details,
    )


def record_venue_payment(
    caller: Caller, tournament_id: str, body: VenuePayment, now: datetime, rng: random.Random = _system_random
) -> Ledger:
    """Cash or card at the referee table (R3.3), recorded by staff; the receipt is in the ledger."""
    snap = snapshots.snapshot(tournament_id, tavla_id=body.tavla_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    staff = require_staff(snap.tournament, caller)
    if snap.registration is None:
        raise NotRegistered(f"{body.tavla_id} has no entry in this tournament.")
    entry_id = f"venue.{ids.opaque(rng)}"
    entry = LedgerEntryRecord(
        id=entry_id,
        tournament_id=tournament_id,
        tavla_id=body.tavla_id,
        kind=PAYMENT,
        method=body.method,
        amount=body.amount.amount,
        value_date=now.isoformat(),
        recorded_by=_recorder(staff),
        recorded_at=now.isoformat(),
        receipt=body.receipt or entry_id.removeprefix("venue.").upper()[:10],
        reference=snap.registration.checkin_code,
    )
    payment_store.add(entry, [audited(staff, entry, now, receipt=entry.receipt)])
    return player_ledger(snap.tournament, body.tavla_id, now)


def start_checkout(caller: Caller, tournament_id: str, now: datetime) -> CheckoutStarted:
    """A card checkout for what my ledger says I owe (never an amount from the client)."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    if snap.registration is None or snap.registration.status != REGISTERED:
        raise NotRegistered("Only an entry on the main list pays its fee.")
    player_actor(caller, tavla_id)
    current = player_ledger(snap.tournament, tavla_id, now)
    owed = current.outstanding.amount
    if owed <= 0:
        raise NothingToPay("Your entry fee is paid: there is nothing to pay.")
    provider = card_payments.provider()
    checkout = provider.create_checkout(
        amount=owed,
        currency=EUR,
        description=f"Entry fee: {snap.tournament.name}",
        metadata={
            "tournament_id": tournament_id,
            "tavla_id": tavla_id,
            "expected_amount": str(owed),
            "reference": snap.registration.checkin_code,
        },
        return_url=card_payments.return_url(tournament_id),
    )
    payment_store.add_checkout(
        CheckoutRecord(
            provider=provider.name,
            session_id=checkout.session_id,
            tournament_id=tournament_id,
            tavla_id=tavla_id,
            amount=owed,
            currency=EUR,
            started_at=now.isoformat(),
        )
    )
    return CheckoutStarted(
        checkout_url=checkout.url, session_id=checkout.session_id, amount=Money(amount=owed)
    )


def provider_webhook(payload: str, signature: str | None, now: datetime) -> WebhookReceived:
    """The provider's signed webhook: verified, checked, recorded once per event and checkout.

    The event is validated before anything is recorded (card_payments: 400 when malformed).
    Only a checkout the platform started counts, for the player and tournament it was
    started for (the event's metadata is not trusted): another is acknowledged (2xx, so the
    provider stops retrying), logged and not recorded. The provider's amount is the truth:
    a difference from the checkout is flagged `amount_mismatch`, a surplus becomes a refund
    due (R3.5); another currency is flagged `currency_mismatch` and counts for nothing.
    """
    provider = card_payments.provider()
    paid = provider.paid_checkout(payload, signature, now)
    if paid is None:
        return WebhookReceived(recorded=False)
    started = payment_store.checkout(provider.name, paid.session_id)
    if started is None:
        logger.warning("webhook for a checkout we did not start", extra={"session": paid.session_id})
        return WebhookReceived(recorded=False)
    tournament = snapshots.snapshot(started.tournament_id).tournament
    if tournament is None:
        return WebhookReceived(recorded=False)
    flags = []
    if started.amount != paid.amount:
        flags.append("amount_mismatch")
    if paid.currency != started.currency:
        flags.append("currency_mismatch")
    entry = LedgerEntryRecord(
        id=f"card.{paid.session_id}",
        tournament_id=started.tournament_id,
        tavla_id=started.tavla_id,
        kind=PAYMENT,
        method="card_online",
        amount=paid.amount,
        currency=paid.currency,
        value_date=paid.paid_at.isoformat(),
        recorded_by="provider",
        recorded_at=now.isoformat(),
        reference=paid.metadata.get("reference"),
        flags=tuple(flags),
        expected_amount=started.amount if flags else None,
        provider_ref=paid.payment_ref,
    )
    for _ in range(2):  # read open, found cancelled meanwhile: once more, as cancelled
        late = tournament.status == CANCELLED
        refund = surplus_refund(tournament, entry, SYSTEM, now)
        changes = [audited(SYSTEM, entry, now, provider=provider.name, provider_event=paid.event_id)]
        changes += [audited(SYSTEM, r, now, status=DUE, surplus_of=entry.id) for r in refund]
        try:
            payment_store.add(
                entry,
                changes,
                provider_event=(provider.name, paid.event_id),
                follow=refund,
                not_cancelled=not late,
            )
        except payment_store.AlreadyRecorded:
            return WebhookReceived(recorded=False)
        except payment_store.TournamentWasCancelled:
            tournament = tournament_or_404(started.tournament_id)
            continue
        break
    if late and any(r.method == PROVIDER_REFUND for r in refund):
        # nobody is there to pay it: back through the provider at once, the retries after
        _schedule_card_refunds(tournament.id, entry.tavla_id, now)
        send_card_refunds(tournament.id, entry.tavla_id, SYSTEM, now, patient=False)
    return WebhookReceived(recorded=True)


SURPLUS = "surplus"
AFTER_CANCEL = "after_cancel"  # money that arrived once the tournament was cancelled


def surplus_refund(
    tournament: TournamentRecord,
    payment: LedgerEntryRecord,
    actor: Actor,
    now: datetime,
    owed: int | None = None,
) -> list[LedgerEntryRecord]:
    """What a payment brings beyond what its registration owed on its value date (`owed`,
    when the caller has just read it), as a refund due (R3.3, R3.5): on the organiser's
    refund list, flagged `surplus`, paid like any refund (a card one back through the
    provider). Nothing for money not counted.

    A tournament cancelled already owes nothing: the whole payment comes back (`after_cancel`),
    under the id the cancellation would give it, so a repeated cancellation never plans it twice."""
    if not counted(payment):
        return []
    if tournament.status == CANCELLED:
        by_card = payment.method == "card_online" and payment.provider_ref is not None
        method = PROVIDER_REFUND if by_card else BANK_REFUND
        late = _refund_entry(
            tournament,
            payment.tavla_id,
            actor,
            now,
            f"refund.cancel.{payment.id}",
            method,
            payment.amount,
            payment,
        )
        return [replace(late, flags=(AFTER_CANCEL,))]
    if owed is None:
        owed = player_ledger(tournament, payment.tavla_id, _value(payment)).outstanding.amount
    extra = payment.amount - owed
    if extra <= 0:
        return []
    by_card = payment.method == "card_online" and payment.provider_ref is not None
    refund = _refund_entry(
        tournament,
        payment.tavla_id,
        actor,
        now,
        f"refund.{SURPLUS}.{payment.id}",
        PROVIDER_REFUND if by_card else BANK_REFUND,
        extra,
        payment,
    )
    return [replace(refund, flags=(SURPLUS,))]


# --- refunds (R3.5)


def _held(entries: Sequence[LedgerEntryRecord]) -> int:
    """The money held for an entry: what was paid, less what was refunded (due or paid)."""
    return sum(e.amount for e in entries if e.kind == PAYMENT and counted(e)) - sum(
        e.amount for e in entries if e.kind == REFUND and counted(e)
    )


def _refund_kind(tournament: TournamentRecord) -> RefundKind:
    """The organiser's policy; a postponed tournament gives it all back until its new
    registration close (the date a player entered for is gone)."""
    return "full" if tournament.lifecycle.postponed_at else tournament.money.refund.kind


def _refundable(
    tournament: TournamentRecord, entries: Sequence[LedgerEntryRecord], now: datetime, whole: bool = False
) -> int:
    """What the policy gives back of the money held for this entry (R3.5); `whole`: all of it
    (an entry that never held a place)."""
    from tavla.rules.refunds import refund_due

    if whole:
        return max(_held(entries), 0)
    policy = tournament.money.refund
    return refund_due(
        _held(entries),
        _refund_kind(tournament),
        withdrawn_at=now,
        registration_closes_at=tournament.registration.closes,
        drawn=not tournament.is_open,
        percentage=policy.percentage,
        deduction=policy.deduction,
    )


@dataclass(frozen=True, eq=False, repr=False)
class WithdrawalRefund(Frozen):
    """The refund a withdrawal gives (R3.5), planned before the withdrawal is written and
    written in its transaction (`write`): no withdrawal without its refund, or the reverse."""

    tournament_id: str
    total: int  # cents
    entries: tuple[LedgerEntryRecord, ...]
    changes: tuple[AuditRecord, ...]

    @property
    def by_card(self) -> bool:
        return any(e.method == PROVIDER_REFUND for e in self.entries)

    tavla_id: str = ""
    at: str = ""

    def write(self, tx: Transaction) -> None:
        """The refunds and the withdrawn mark (the ledger stays on the payments list)."""
        if self.tavla_id:
            payment_store.put_withdrawn(tx, self.tournament_id, self.tavla_id, self.at)
        for entry in self.entries:
            payment_store.put_entry(tx, entry)
        for change in self.changes:
            audit_store.record(tx, self.tournament_id, change)


def withdrawal_refund(
    tournament: TournamentRecord, tavla_id: str, actor: Actor, now: datetime, whole: bool = False
) -> WithdrawalRefund:
    """A withdrawal before registration closes (R3.5): the refund the policy gives, as refunds
    due, card payments first, the rest for the organiser to pay by bank (the refund list).
    After the draw, or with nothing paid, nothing; `whole`: all that is held (a waiting
    entry leaving after the draw never had a place to pay for).

    Card refunds go back through the provider once the withdrawal is written
    (`after_withdrawal`); their retries are scheduled before it, so a provider that fails (or a
    crash) leaves the refund due, visible on the ledger and the refund list, and tried again."""
    from tavla.rules.refunds import refund_possible

    closes, drawn = tournament.registration.closes, not tournament.is_open
    if not whole and not refund_possible(
        _refund_kind(tournament), withdrawn_at=now, registration_closes_at=closes, drawn=drawn
    ):
        # nothing comes back whatever was paid: the ledger is not read (one call less)
        return WithdrawalRefund(tournament.id, 0, (), (), tavla_id, now.isoformat())
    entries = payment_store.entries(tournament.id, tavla_id)
    stamp = now.strftime("%Y%m%dT%H%M%S%f")
    total = _refundable(tournament, entries, now, whole)
    return _planned(tournament, tavla_id, actor, now, entries, total, stamp)


def cancellation_refund(
    tournament: TournamentRecord, tavla_id: str, actor: Actor, now: datetime
) -> WithdrawalRefund:
    """A cancelled tournament gives back everything held for the entry, whatever the policy:
    card payments through the provider, the rest on the organiser's refund list. The refunds'
    ids are the cancellation's own, so a repeated cancellation finds them written (and, the
    money given back already, plans none)."""
    entries = payment_store.entries(tournament.id, tavla_id)
    refund = _planned(
        tournament, tavla_id, actor, now, entries, max(0, _held(entries)), "cancel", withdrawn=False
    )
    return refund


def _planned(
    tournament: TournamentRecord,
    tavla_id: str,
    actor: Actor,
    now: datetime,
    entries: Sequence[LedgerEntryRecord],
    total: int,
    bank_id: str,
    *,
    withdrawn: bool = True,
) -> WithdrawalRefund:
    """`total` given back, card payments first (each up to what it brought), the rest by bank."""
    prefix = "refund." if withdrawn else "refund.cancel."
    left = total
    refunded_by_card: dict[str | None, int] = {}
    for e in entries:
        if e.kind == REFUND and e.method == PROVIDER_REFUND:
            refunded_by_card[e.reference] = refunded_by_card.get(e.reference, 0) + e.amount
    planned: list[LedgerEntryRecord] = []
    for payment in entries:
        if left <= 0:
            break
        if payment.kind != PAYMENT or payment.method != "card_online" or not payment.provider_ref:
            continue
        available = payment.amount - refunded_by_card.get(payment.id, 0)
        if available <= 0 or not counted(payment):
            continue
        amount = min(left, available)
        planned.append(
            _refund_entry(
                tournament, tavla_id, actor, now, f"{prefix}{payment.id}", PROVIDER_REFUND, amount, payment
            )
        )
        left -= amount
    if left > 0:
        planned.append(
            _refund_entry(tournament, tavla_id, actor, now, f"refund.bank.{bank_id}", BANK_REFUND, left, None)
        )
    changes = tuple(audited(actor, e, now, status=DUE) for e in planned)
    marked = tavla_id if withdrawn else ""  # a cancelled tournament's entrants did not withdraw
    refund = WithdrawalRefund(tournament.id, total, tuple(planned), changes, marked, now.isoformat())
    if refund.by_card:
        _schedule_card_refunds(tournament.id, tavla_id, now)
    return refund


def after_withdrawal(
    tournament: TournamentRecord, tavla_id: str, refund: WithdrawalRefund, now: datetime
) -> None:
    """Once the withdrawal (and its refund) is written: the card refunds' one short try."""
    if refund.by_card:
        send_card_refunds(tournament.id, tavla_id, SYSTEM, now, patient=False)


def _schedule_card_refunds(tournament_id: str, tavla_id: str, now: datetime) -> None:
    """The retries, created before the first try (so a crash mid-way is retried too)."""
    from tavla import schedules

    stamp = now.strftime("%Y%m%dT%H%M%S")
    for attempt, after in enumerate(REFUND_RETRIES, start=1):
        schedules.create_once(
            schedules.schedule_name(RETRY_TARGET, tournament_id, "refund", tavla_id, stamp, attempt),
            now + after,
            RETRY_TARGET,
            {
                "step": CARD_REFUNDS_STEP,
                "tournament_id": tournament_id,
                "tavla_id": tavla_id,
                "attempt": attempt,
            },
        )


def send_card_refunds(
    tournament_id: str, tavla_id: str, actor: Actor, now: datetime, *, patient: bool = True
) -> int:
    """Send each card refund of this player still due back through the provider, with the
    refund's own idempotency key (a repeat refunds once). Returns how many remain due (the
    provider did not answer). Not `patient` (a withdrawal answering the player): one short
    try per refund, the schedules retry."""
    left = 0
    for entry in payment_store.entries(tournament_id, tavla_id):
        if entry.kind != REFUND or entry.status != DUE or entry.method != PROVIDER_REFUND:
            continue
        try:
            _settle(entry, actor, now, patient=patient)
        except ProviderUnavailable:
            left += 1
    return left


def retry_card_refunds(payload: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A card refund retry fired (EventBridge Scheduler): send what is still due (nothing
    once it is paid: idempotent). A provider still failing leaves it due, on the organiser's
    refund list, for the next retry or the organiser."""
    tournament_id, tavla_id = str(payload.get("tournament_id") or ""), str(payload.get("tavla_id") or "")
    left = send_card_refunds(tournament_id, tavla_id, SYSTEM, now)
    return {"card_refunds_due": left, "attempt": payload.get("attempt")}


QUICK_TIMEOUT_SECONDS = 4.0  # a withdrawal's one try at the provider (the Lambda has 10 s)


def _settle(entry: LedgerEntryRecord, actor: Actor, now: datetime, *, patient: bool = True) -> None:
    """Pay a refund that is due: a card one back through the provider (its idempotency key:
    the tournament and the entry's id), a bank one marked paid; recorded with its audit."""
    receipt = None
    if entry.method == PROVIDER_REFUND and entry.provider_ref:
        provider = (
            card_payments.provider()
            if patient
            else card_payments.provider(timeout_seconds=QUICK_TIMEOUT_SECONDS, retries=0)
        )
        receipt = provider.refund(
            payment_ref=entry.provider_ref,
            amount=entry.amount,
            idempotency_key=f"{entry.tournament_id}.{entry.id}",
        )
    change = audit_entry(
        actor,
        "refund_paid",
        now,
        tavla_id=entry.tavla_id,
        entry=entry.id,
        method=entry.method,
        amount=entry.amount,
        receipt=receipt,
    )
    payment_store.settle(entry, receipt, change)


def _refund_entry(
    tournament: TournamentRecord,
    tavla_id: str,
    actor: Actor,
    now: datetime,
    entry_id: str,
    method: str,
    amount: int,
    payment: LedgerEntryRecord | None,
) -> LedgerEntryRecord:
    return LedgerEntryRecord(
        id=entry_id,
        tournament_id=tournament.id,
        tavla_id=tavla_id,
        kind=REFUND,
        method=method,
        amount=amount,
        value_date=now.isoformat(),
        recorded_by=_recorder(actor),
        recorded_at=now.isoformat(),
        status=DUE,
        reference=payment.id if payment else None,
        provider_ref=payment.provider_ref if payment else None,
    )


def refunds(caller: Caller, tournament_id: str) -> Refunds:
    """Every refund of the tournament, due ones first: the organiser's list to pay (R3.5)."""
    tournament = tournament_or_404(tournament_id)
    require_organiser(tournament, caller)
    found = [e for e in payment_store.entries(tournament_id) if e.kind == REFUND]
    ordered = sorted(found, key=lambda e: (e.status != DUE, e.recorded_at, e.id))
    due = sum(e.amount for e in found if e.status == DUE)
    names = names_of({e.tavla_id for e in found})
    return Refunds(refunds=[shown(e, names.get(e.tavla_id)) for e in ordered], due=Money(amount=due))


def pay_refund(caller: Caller, tournament_id: str, entry_id: str, now: datetime) -> LedgerEntry:
    """The organiser pays a refund that is due: a card one back through the provider (with the
    entry's id as the idempotency key, so a retry refunds once), a bank one marked paid.
    Paying one already paid changes nothing."""
    tournament = tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    entry = next(
        (e for e in payment_store.entries(tournament_id) if e.id == entry_id and e.kind == REFUND), None
    )
    if entry is None:
        raise NoPayment(f"No refund {entry_id} in this tournament.")
    if entry.status == DUE:
        _settle(entry, organiser, now)
    settled = next(e for e in payment_store.entries(tournament_id, entry.tavla_id) if e.id == entry_id)
    return shown(settled)
