"""Prizes (R11) at finish: the pool from the entry fees actually collected (net of refunds),
split to the cent by the rules layer (`award_prizes`), shared places sharing equally,
disqualified players winning nothing; each payout recorded by the organiser (R11.5).

The announced prizes (TournamentSettings.prizes) become the rules' announcement: a prize
for places [a, b] is that prize for each of the places a..b; a money prize is a fixed amount
or a percentage of the pool. Category prizes (R11.4) need the players' private category
data and are not awarded here yet.
"""

from __future__ import annotations

from contextlib import suppress
from datetime import datetime
from typing import Any

from tavla.caller import Caller
from tavla.errors import NoPrize, NotFinished
from tavla.models.common import Money
from tavla.models.payments import Ledger, Payout, PrizeAward, PrizeTable
from tavla.rules.prizes import BASIS_POINTS, NonMoneyPrize, PlacePrize, PrizeAnnouncement, award_prizes
from tavla.rules.prizes import Money as PrizeMoney
from tavla.rules.standings import Standing
from tavla.services import payments
from tavla.services.access import require_organiser
from tavla.store import draws as draw_store
from tavla.store import finish as finish_store
from tavla.store import payments as payment_store
from tavla.store.records import LedgerEntryRecord, TournamentRecord

MAIN = "main"
PAYOUT = "payout"


def announcement(settings: Any) -> PrizeAnnouncement:
    """The tournament page's prizes as the rules read them (R11.1)."""
    places: dict[int, dict[str, Any]] = {}
    for prize in settings.get("prizes") or []:
        first, last = prize["places"]
        for place in range(int(first), int(last) + 1):
            slot = places.setdefault(place, {"money": None, "items": []})
            if prize.get("kind", "money") != "money":
                slot["items"].append(
                    NonMoneyPrize(kind=prize["kind"], description=prize.get("description") or "")
                )
            elif slot["money"] is None and prize.get("amount") is not None:
                slot["money"] = PrizeMoney(amount_cents=int(prize["amount"]["amount"]))
            elif slot["money"] is None and prize.get("pool_percentage") is not None:
                slot["money"] = PrizeMoney(pool_share_bp=int(prize["pool_percentage"]) * BASIS_POINTS // 100)
    return PrizeAnnouncement(
        places=tuple(
            PlacePrize(place=p, money=s["money"], items=tuple(s["items"])) for p, s in sorted(places.items())
        )
    )


def collected(entries: list[LedgerEntryRecord]) -> int:
    """Entry fees actually collected: payments in, less every refund recorded (R11.2)."""
    paid = sum(e.amount for e in entries if e.kind == payments.PAYMENT)
    return paid - sum(e.amount for e in entries if e.kind == payments.REFUND)


def _table(tournament: TournamentRecord) -> tuple[PrizeTable, dict[str, int]]:
    entries = payment_store.entries(tournament.id)
    fees = collected(entries)
    prizes = announcement(tournament.settings)
    final = finish_store.final(tournament.id)
    if final is None:
        pool = award_prizes(prizes, [], fees).pool_cents
        table = PrizeTable(
            tournament_id=tournament.id,
            final=False,
            collected=Money(amount=fees),
            pool=Money(amount=pool),
            awards=[],
            money_total=Money(amount=0),
        )
        return table, {}
    events = {str(e["event"]): e for e in final.events}
    rows: list[dict[str, Any]] = (events.get(MAIN) or next(iter(events.values()), {"rows": []}))["rows"]
    standings = [
        Standing(player_id=r["player"]["tavla_id"], place=r["place"], place_to=r["place_to"]) for r in rows
    ]
    names = {r["player"]["tavla_id"]: r["player"].get("name") for r in rows}
    field = draw_store.day(tournament.id, with_rounds=False).field
    result = award_prizes(
        prizes,
        standings,
        fees,
        disqualified=frozenset(field.disqualified) if field else frozenset(),
        tie_order=[str(e["player_id"]) for e in field.entrants] if field else (),
    )
    awards = [
        PrizeAward(
            tavla_id=a.player_id,
            name=names.get(a.player_id),
            scope=a.scope,
            place=a.place,
            money=Money(amount=a.money_cents),
            items=[f"{i.kind}: {i.description}" if i.description else i.kind for i in a.items],
        )
        for a in result.awards
    ]
    table = PrizeTable(
        tournament_id=tournament.id,
        final=True,
        collected=Money(amount=fees),
        pool=Money(amount=result.pool_cents),
        awards=awards,
        money_total=Money(amount=result.paid_cents),
    )
    return table, result.money_by_player()


def prize_table(tournament_id: str) -> PrizeTable:
    """The prize list, public like the results: who wins what, the pool it comes from."""
    tournament = payments.tournament_or_404(tournament_id)
    return _table(tournament)[0]


def record_payout(caller: Caller, tournament_id: str, body: Payout, now: datetime) -> Ledger:
    """The organiser paid a winner their money prize (R11.5): recorded once, for the amount the
    prize list gives (never an amount typed in), in the ledger and the audit trail."""
    tournament = payments.tournament_or_404(tournament_id)
    organiser = require_organiser(tournament, caller)
    table, money = _table(tournament)
    if not table.final:
        raise NotFinished("Prizes are paid once the tournament is finished.")
    amount = money.get(body.tavla_id, 0)
    if amount <= 0:
        raise NoPrize(f"{body.tavla_id} won no money prize in this tournament.")
    entry = LedgerEntryRecord(
        id=f"{PAYOUT}.prize",
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
    with suppress(payment_store.AlreadyRecorded):  # paid already: the ledger shows the one payout
        payment_store.add(entry, [change])
    return payments.player_ledger(tournament, body.tavla_id)
