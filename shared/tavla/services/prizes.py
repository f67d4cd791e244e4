"""Prizes (R11) at finish: the pool from the entry fees actually collected (net of refunds),
split to the cent by the rules layer (`award_prizes`), shared places sharing equally,
disqualified players winning nothing; each payout recorded by the organiser (R11.5).

The announced prizes (TournamentSettings.prizes and category_prizes) become the rules'
announcement: a prize for places [a, b] is that prize for each of the places a..b; a money
prize is a fixed amount or a percentage of the pool.

Category prizes (R11.4: women, youth, veteran) go to the best finishers of the Main among
the entries eligible for them, when at least the announced number of eligible players
finished; a player may win a place prize and a category prize, and is paid both in one
payout. Eligibility is private (R12): the player declares gender and birth year in their
profile, the organiser may set or correct an entry's categories (it then wins over the
profile) until the tournament is finished; only the award itself is public.

Event pools (R3.6): a lower division's Main and each side event may announce prizes of their
own, paid from their own fees unless the organiser pools them (rules `finalise_pools`). An
event's fees: a player's money kept (payments - refunds, paid or due) goes to their entry fee
first (their division's Main, as owed at the close of registration), what is beyond it to the
side events they were charged, each up to its fee, in the order played; a withdrawn player's
kept money to the highest division's Main (the entry is gone; its division with it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from tavla import ids
from tavla.caller import Caller
from tavla.errors import NoPrize, NotFinished, NotRegistered, OverPrize, TournamentOver
from tavla.models.common import Money
from tavla.models.money_figures import MoneyFigures
from tavla.models.payments import (
    CategoryEligibility,
    Eligibility,
    EntryCategories,
    Ledger,
    Payout,
    PrizeAward,
    PrizePayouts,
    PrizePool,
    PrizeTable,
    UnawardedPrize,
    WinnerPayouts,
)
from tavla.rules.prizes import (
    EventPrizes,
    PlayerAward,
    Pools,
    award_event,
    award_prizes,
    finalise_pools,
)
from tavla.rules.prizes import UnawardedPrize as UnawardedRule
from tavla.rules.standings import Standing
from tavla.rules.tournament_settings import EventPrizeSettings
from tavla.services import categories, day, payments
from tavla.services.access import require_organiser, require_staff
from tavla.store import draws as draw_store
from tavla.store import finish as finish_store
from tavla.store import payments as payment_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import snapshots
from tavla.store.audit import entry as audit_entry
from tavla.store.records import LedgerEntryRecord, RegistrationRecord, TournamentRecord

MAIN = "main"
PAYOUT = "payout"
_system_random = random.SystemRandom()


def _frozen_or_live(tournament: TournamentRecord) -> dict[str, frozenset[str]]:
    """Eligibility as the finish froze it (a tournament finished before it was frozen: as now)."""
    if not tournament.prizes.has_categories:
        return {}
    frozen = finish_store.prize_eligibility(tournament.id)
    if frozen is not None:
        return {k: frozenset(v) for k, v in frozen.categories.items()}
    return categories.eligible(tournament)


def figures(tournament: TournamentRecord, entries: Sequence[LedgerEntryRecord]) -> MoneyFigures:
    """The tournament's money figures, by the one definition of each (models.payments): the
    payments page, the prize list and the federation report all ask this."""

    def total(kind: str, status: str | None = None) -> int:
        return sum(
            e.amount
            for e in entries
            if e.kind == kind and payments.counted(e) and (status is None or e.status == status)
        )

    received = total(payments.PAYMENT)
    refunds_due = total(payments.REFUND, payments.DUE)
    refunded = total(payments.REFUND) - refunds_due
    collected = max(0, received - refunded - refunds_due)
    paid_out = total(PAYOUT)
    return MoneyFigures(
        received=Money(amount=received),
        refunded=Money(amount=refunded),
        refunds_due=Money(amount=refunds_due),
        collected=Money(amount=collected),
        pool=Money(amount=pools(tournament, entries, collected)[0].pool_cents),
        paid_out=Money(amount=paid_out),
        held=Money(amount=max(0, received - refunded - paid_out)),
    )


Event = tuple[str, str | None, EventPrizeSettings]
"""An event with prizes of its own: its id, its division (None: a single division), its prizes."""


def _event_id(division: str | None, event: str) -> str:
    return f"{division}.{event}" if division else event


def _events(tournament: TournamentRecord) -> list[Event]:
    keys = day.divisions(tournament)
    out: list[Event] = []
    for e in tournament.prizes.events:
        if e.division is not None:  # a lower division's Main
            out.append((_event_id(e.division, "main"), e.division, e))
        else:  # a side event, played in each division
            out += [(_event_id(d, e.event), d, e) for d in keys]
    return out


def _event_fees(
    tournament: TournamentRecord, entries: Sequence[LedgerEntryRecord], events: Sequence[Event]
) -> dict[str, int]:
    """The fees each event kept (module doc): read only when an event keeps its own pool."""
    if not any(not e.pooled and any(p.money for p in e.places) for _, _, e in events):
        return {}
    registrations = {r.tavla_id: r for r in registration_store.all_entries(tournament.id)}
    charges = payments.side_event_charges(tournament) if any(e.division is None for _, _, e in events) else {}
    by_player: dict[str, list[LedgerEntryRecord]] = {}
    for entry in entries:
        if entry.kind in (payments.PAYMENT, payments.REFUND) and payments.counted(entry):
            by_player.setdefault(entry.tavla_id, []).append(entry)
    keys = day.divisions(tournament)
    closes = tournament.registration.closes
    out: dict[str, int] = {}
    for tavla_id, own in by_player.items():
        kept = sum(e.amount if e.kind == payments.PAYMENT else -e.amount for e in own)
        if kept <= 0:
            continue
        registration = registrations.get(tavla_id)
        division = registration.division if registration and registration.division in keys else keys[0]
        fee, _ = payments.fee_of(tournament, division, own, closes)
        beyond = max(0, kept - fee)
        for charge in charges.get(tavla_id, ()):
            part = min(beyond, charge.fee.amount)
            event = _event_id(division, charge.event)
            out[event] = out.get(event, 0) + part
            beyond, kept = beyond - part, kept - part
        main = "main" if division == keys[0] else _event_id(division, "main")
        out[main] = out.get(main, 0) + kept
    return out


def pools(
    tournament: TournamentRecord, entries: Sequence[LedgerEntryRecord], collected: int
) -> tuple[Pools, list[Event]]:
    """Every prize pool of the tournament from the fees it collected (R11.2, R3.6)."""
    events = _events(tournament)
    fees = _event_fees(tournament, entries, events)
    listed = [
        EventPrizes(id=i, places=e.places, collected_cents=fees.get(i, 0), pooled=e.pooled)
        for i, _, e in events
    ]
    return finalise_pools(tournament.prizes.announcement, collected, listed), events


def _pools_shown(found: Pools, events: Sequence[Event]) -> list[PrizePool]:
    pooled = [i for i, _, e in events if i not in found.own]
    shown = [
        PrizePool(
            id=MAIN,
            collected=Money(amount=found.collected[MAIN]),
            pool=Money(amount=found.main.pool_cents),
            pays=[MAIN, *pooled],
        )
    ]
    return shown + [
        PrizePool(id=i, collected=Money(amount=found.collected[i]), pool=Money(amount=m.pool_cents), pays=[i])
        for i, m in found.own.items()
    ]


def _table(tournament: TournamentRecord) -> tuple[PrizeTable, dict[str, int]]:
    entries = payment_store.entries(tournament.id)
    fees = figures(tournament, entries).collected.amount
    prizes = tournament.prizes.announcement
    found, events = pools(tournament, entries, fees)
    final = finish_store.final(tournament.id)
    if final is None:
        table = PrizeTable(
            tournament_id=tournament.id,
            final=False,
            collected=Money(amount=fees),
            pool=Money(amount=found.pool_cents),
            awards=[],
            money_total=Money(amount=0),
            pools=_pools_shown(found, events),
        )
        return table, {}
    # the announced prizes are the highest division's (R3.7; divisions are listed highest first)
    top = day.divisions(tournament)[0]
    tops = {str(e["event"]): e for e in final.events if e.get("division") == top}
    rows: list[dict[str, Any]] = (tops.get(MAIN) or next(iter(tops.values()), {"rows": []}))["rows"]
    standings = [
        Standing(player_id=r["player"]["tavla_id"], place=r["place"], place_to=r["place_to"]) for r in rows
    ]
    names = {r["player"]["tavla_id"]: r["player"].get("name") for r in rows}
    field = draw_store.day(tournament.id, with_rounds=False).field
    disqualified = frozenset(field.disqualified) if field else frozenset()
    tie_order = [str(e["player_id"]) for e in field.entrants] if field else []
    result = award_prizes(
        prizes,
        standings,
        fees,
        eligibility=_frozen_or_live(tournament),
        disqualified=disqualified,
        tie_order=tie_order,
        money=found.main,
    )
    won: list[tuple[str, PlayerAward]] = [(MAIN, a) for a in result.awards]
    missed: list[UnawardedRule] = list(result.unawarded)
    played = {(e.get("division"), str(e["event"])): e for e in final.events}
    for event_id, division, announced in events:
        event = played.get((division, announced.event), {"rows": []})
        names |= {r["player"]["tavla_id"]: r["player"].get("name") for r in event["rows"]}
        got, lost = award_event(
            EventPrizes(id=event_id, places=announced.places, pooled=announced.pooled),
            [
                Standing(player_id=r["player"]["tavla_id"], place=r["place"], place_to=r["place_to"])
                for r in event["rows"]
            ],
            found,
            disqualified,
            tie_order,
        )
        won += [(event_id, a) for a in got]
        missed += lost
    awards = [
        PrizeAward(
            tavla_id=a.player_id,
            name=names.get(a.player_id),
            scope=a.scope,
            place=a.place,
            money=Money(amount=a.money_cents),
            items=[f"{i.kind}: {i.description}" if i.description else i.kind for i in a.items],
            event=event_id,
            paid_from=event_id if event_id in found.own else MAIN,
        )
        for event_id, a in won
    ]
    money: dict[str, int] = {}
    for award in awards:
        money[award.tavla_id] = money.get(award.tavla_id, 0) + award.money.amount
    table = PrizeTable(
        tournament_id=tournament.id,
        final=True,
        collected=Money(amount=fees),
        pool=Money(amount=found.pool_cents),
        awards=awards,
        money_total=Money(amount=sum(money.values())),
        unawarded=[
            UnawardedPrize(
                scope=u.scope,
                place=u.place,
                money=Money(amount=u.money_cents),
                reason="too_few_participants" if u.too_few else "place_not_reached",
            )
            for u in missed
        ],
        pools=_pools_shown(found, events),
    )
    return table, money


def prize_table(tournament_id: str) -> PrizeTable:
    """The prize list, public like the results: who wins what, the pool it comes from."""
    tournament = payments.tournament_or_404(tournament_id)
    return _table(tournament)[0]


def _paid_out(entries: Sequence[LedgerEntryRecord]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in entries:
        if e.kind == PAYOUT:
            out[e.tavla_id] = out.get(e.tavla_id, 0) + e.amount
    return out


def record_payout(
    caller: Caller, tournament_id: str, body: Payout, now: datetime, rng: random.Random = _system_random
) -> Ledger:
    """The organiser paid a winner (part of) their money prize (R11.5): the amount given, or all
    that is left of it; never more than is left (409, nothing recorded), even when two payouts
    arrive at once (the store's condition on the winner's paid-out total). In the ledger and
    the audit trail. With nothing left and no amount, nothing is recorded."""
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    table, money = _table(tournament)
    if not table.final:
        raise NotFinished("Prizes are paid once the tournament is finished.")
    won = money.get(body.tavla_id, 0)
    if won <= 0:
        raise NoPrize(f"{body.tavla_id} won no money prize in this tournament.")
    paid = _paid_out(payment_store.entries(tournament_id, body.tavla_id)).get(body.tavla_id, 0)
    left = won - paid
    amount = left if body.amount is None else body.amount.amount
    if body.amount is None and left <= 0:  # paid in full already: the ledger shows it
        return payments.player_ledger(tournament, body.tavla_id, now)
    if amount > left:
        raise OverPrize(f"{body.tavla_id} has {left} cents of their prize left to pay, not {amount}.")
    entry = LedgerEntryRecord(
        id=f"{PAYOUT}.{now.strftime('%Y%m%dT%H%M%S')}.{ids.opaque(rng)}",
        tournament_id=tournament_id,
        tavla_id=body.tavla_id,
        kind=PAYOUT,
        method="prize",
        amount=amount,
        value_date=now.isoformat(),
        recorded_by=organiser.tavla_id or organiser.role,
        recorded_at=now.isoformat(),
        reference=body.reference or body.method,
    )
    change = payments.audited(organiser, entry, now, paid_by=body.method)
    try:
        payment_store.add_payout(entry, change, won=won, paid_before=paid)
    except payment_store.OverPaid as over:
        raise OverPrize(f"Another payout to {body.tavla_id} came first: less is left to pay.") from over
    return payments.player_ledger(tournament, body.tavla_id, now)


def payouts(caller: Caller, tournament_id: str) -> PrizePayouts:
    """Every winner's money prize, the payouts recorded and the rest due (its staff, R11.5)."""
    tournament = payments.tournament_or_404(tournament_id)
    require_staff(tournament, caller)
    table, money = _table(tournament)
    entries = [e for e in payment_store.entries(tournament_id) if e.kind == PAYOUT]
    names = {a.tavla_id: a.name for a in table.awards}
    winners = []
    for tavla_id in sorted(set(money) | {e.tavla_id for e in entries}):
        paid = [e for e in entries if e.tavla_id == tavla_id]
        won, out = money.get(tavla_id, 0), sum(e.amount for e in paid)
        if won <= 0 and not paid:
            continue
        winners.append(
            WinnerPayouts(
                tavla_id=tavla_id,
                name=names.get(tavla_id),
                won=Money(amount=won),
                paid=Money(amount=out),
                rest_due=Money(amount=max(0, won - out)),
                payouts=[payments.shown(e) for e in paid],
            )
        )
    return PrizePayouts(
        tournament_id=tournament_id,
        final=table.final,
        winners=winners,
        paid=Money(amount=sum(w.paid.amount for w in winners)),
        rest_due=Money(amount=sum(w.rest_due.amount for w in winners)),
    )


def eligibility(caller: Caller, tournament_id: str) -> Eligibility:
    """Every entry's prize categories and where they come from (its organisers: private, R12);
    once finished, as the finish froze them (what the prizes were awarded by)."""
    tournament = payments.tournament_or_404(tournament_id)
    require_organiser(tournament, caller)
    entries = categories.entry_categories(tournament)
    frozen = finish_store.prize_eligibility(tournament_id) if tournament.finished_at else None
    if frozen is not None:
        entries = [
            (r, frozenset(c for c, ids in frozen.categories.items() if r.tavla_id in ids), by_organiser)
            for r, _, by_organiser in entries
        ]
    profiles = player_store.get_profiles([r.tavla_id for r, _, _ in entries])
    names = {tavla_id: profile.name for tavla_id, profile in profiles.items()}
    return Eligibility(tournament_id=tournament_id, entries=[_shown(*e, names) for e in entries])


def _shown(
    registration: RegistrationRecord, found: frozenset[str], by_organiser: bool, names: dict[str, str]
) -> CategoryEligibility:
    return CategoryEligibility(
        tavla_id=registration.tavla_id,
        name=registration.player_name or names.get(registration.tavla_id),
        status=registration.status,
        categories=sorted(found),
        set_by="organiser" if by_organiser else "profile",
    )


def set_categories(
    caller: Caller, tournament_id: str, tavla_id: str, body: EntryCategories, now: datetime
) -> CategoryEligibility:
    """The organiser sets or corrects an entry's prize categories (R11.4), or clears them (the
    profile decides again); in the audit trail; refused once the tournament is finished (its
    prize list stands)."""
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    chosen = None if body.categories is None else tuple(sorted(body.categories))
    change = audit_entry(organiser, "prize_categories_set", now, tavla_id=tavla_id, categories=chosen)
    try:
        registration_store.set_categories(tournament, tavla_id, chosen, change)
    except registration_store.Finished as finished:
        raise TournamentOver("The tournament is finished: its prize list stands.") from finished
    snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
    if snap.registration is None:  # withdrawn meanwhile
        raise NotRegistered(f"{tavla_id} has no entry in this tournament.")
    [found] = categories.entry_categories(tournament, only=snap.registration)
    return _shown(*found, {tavla_id: snap.profile.name} if snap.profile else {})
