"""Registration and the waiting list (R3.1, R3.2, R3.5): first come, first served, never over capacity."""

from __future__ import annotations

import random
import time
from datetime import datetime
from typing import Any

from tavla import events, ids, observability
from tavla.errors import Busy, Invalid, RegistrationClosed, TournamentNotFound
from tavla.http import Caller
from tavla.models.common import Money
from tavla.models.registrations import Entries, Entry, RegistrationResult, WithdrawalResult
from tavla.rules.refunds import refund_due
from tavla.store import keys
from tavla.store import players as player_store
from tavla.store import registrations as store
from tavla.store.audit import audit_put
from tavla.store.dynamo import Item, deserialize
from tavla.store.tournaments import calendar_sort_key

_system_random = random.SystemRandom()
MAX_ATTEMPTS = 60


def _backoff(attempt: int, rng: random.Random) -> None:
    """Full-jitter backoff: simultaneous losers spread out instead of colliding again."""
    observability.count(observability.CONTENTION_RETRIES)
    time.sleep(rng.uniform(0, min(0.5, 0.01 * 2 ** min(attempt, 6))))


def _snapshot(sub: str, tournament_id: str) -> tuple[str, Item]:
    snap = store.snapshot(tournament_id, sub=sub)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    if snap.tavla_id is None:
        player_store.tavla_id_of(sub)  # raises ProfileMissing with the API's message
    assert snap.tavla_id is not None
    return snap.tavla_id, snap.tournament


def register(
    caller: Caller,
    tournament_id: str,
    division: str,
    now: datetime,
    rng: random.Random = _system_random,
) -> RegistrationResult:
    """Register the caller: a free place if there is one, else the end of the waiting list.

    One BatchGetItem (identity + tournament) and one transaction in the usual case;
    under contention for the waiting list the transaction is retried with fresh state.
    """
    tavla_id, tournament = _snapshot(caller.sub, tournament_id)
    if division not in {d["id"] for d in tournament.get("divisions", [{"id": "main"}])}:
        raise Invalid(f"division: this tournament has no division '{division}'.")
    if tournament["status"] != "open" or tournament["closes_epoch"] <= now.timestamp():
        raise RegistrationClosed("Registration for this tournament is closed.")
    code = ids.checkin_code(rng)
    for attempt in range(MAX_ATTEMPTS):
        entry = {
            **deserialize(keys.registration(tournament_id, tavla_id)),
            "tournament_id": tournament_id,
            "tavla_id": tavla_id,
            "division": division,
            "checkin_code": code,
            "registered_at": now.isoformat(),
            "listed_at": now.isoformat(),
            "gsi1pk": keys.player_pk(tavla_id),
            "gsi1sk": calendar_sort_key(datetime.fromisoformat(tournament["starts_at"]), tournament_id),
        }
        try:
            if store.has_free_place(tournament):
                store.add_registered(tournament_id, {**entry, "status": "registered"}, now)
                observability.count(observability.REGISTERED)
                return RegistrationResult(status="registered", checkin_code=code)
            position = store.add_waiting(tournament_id, {**entry, "status": "waitlisted"}, tournament, now)
            observability.count(observability.WAITLISTED)
            return RegistrationResult(status="waitlisted", position=position, checkin_code=code)
        except store.CodeTaken:
            code = ids.checkin_code(rng)
        except store.Full:
            tournament = {**tournament, "registered": tournament["capacity"]}
            continue
        except (store.NotFull, store.Contended):
            _backoff(attempt, rng)
        fresh = store.snapshot(tournament_id).tournament
        assert fresh is not None
        tournament = fresh
    raise Busy("Many players are registering right now; please try again.")


def withdraw(
    caller: Caller, tournament_id: str, now: datetime, rng: random.Random = _system_random
) -> WithdrawalResult:
    """Withdraw the caller; the first waiting player is promoted in the same step and told (R3.2)."""
    tavla_id, tournament = _snapshot(caller.sub, tournament_id)
    if tournament["status"] != "open":
        raise RegistrationClosed("The draw has been made: withdraw at the referee table.")
    audit = audit_put(tournament_id, caller.sub, "withdrawn", now, tavla_id=tavla_id)
    for attempt in range(MAX_ATTEMPTS):
        head = next(iter(store.first_waiting(tournament_id)), None)
        try:
            store.withdraw(tournament_id, tavla_id, head, now, audit)
        except store.WaitingWithdrawal:
            store.withdraw_waiting(tournament_id, tavla_id, audit)
            return WithdrawalResult(refund_due=Money(amount=_refund(tournament, now)))
        except store.Contended:
            _backoff(attempt, rng)
            continue
        if head is not None:
            _announce_promotion(tournament, head, now)
        return WithdrawalResult(
            refund_due=Money(amount=_refund(tournament, now)), promoted=head["tavla_id"] if head else None
        )
    raise Busy("Many players are withdrawing right now; please try again.")


def _announce_promotion(tournament: Item, promoted: Item, now: datetime) -> None:
    observability.count(observability.PROMOTED)
    events.publish(
        events.REGISTRATION_PROMOTED,
        {
            "tournament_id": tournament["id"],
            "tournament_name": tournament["name"],
            "tavla_id": promoted["tavla_id"],
            "promoted_at": now.isoformat(),
        },
    )


# A transaction holds at most 100 items: promote in batches, the tournament item included.
PROMOTION_BATCH = 99


def fill_free_places(tournament_id: str, now: datetime, rng: random.Random = _system_random) -> list[str]:
    """Give free main-list places (capacity raised) to the head of the waiting list, in order.

    Returns the promoted Tavla IDs; each promoted player is notified (R3.2).
    """
    promoted: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        tournament = store.snapshot(tournament_id).tournament
        if tournament is None or tournament["status"] != "open":
            return promoted
        free = min(int(tournament["capacity"]) - int(tournament["registered"]), int(tournament["waiting"]))
        if free <= 0:
            return promoted
        heads = store.first_waiting(tournament_id, min(free, PROMOTION_BATCH))
        try:
            store.promote(tournament_id, heads, tournament, now)
        except store.Contended:
            _backoff(attempt, rng)
            continue
        for head in heads:
            _announce_promotion(tournament, head, now)
        promoted.extend(h["tavla_id"] for h in heads)
    raise Busy("The waiting list is changing fast; the remaining places will be filled on the next change.")


def _refund(tournament: Item, now: datetime) -> int:
    policy = tournament.get("refund_policy") or {}
    return refund_due(
        0,  # payments arrive with the payments feature; nothing collected yet means nothing due
        policy.get("kind", "full"),
        withdrawn_at=now,
        registration_closes_at=datetime.fromisoformat(tournament["registration_closes_at"]),
        drawn=tournament["status"] != "open",
        percentage=policy.get("percentage"),
        deduction=(policy.get("deduction") or {}).get("amount"),
    )


def ordered(registrations: list[Item]) -> tuple[list[Item], list[Item]]:
    """Main list in order of listing (players promoted together in waiting-list order),
    waiting list in arrival order."""
    main = sorted(
        (r for r in registrations if r["status"] == "registered"),
        key=lambda r: (r["listed_at"], r.get("waited_q", ""), r["tavla_id"]),
    )
    waiting = sorted((r for r in registrations if r["status"] == "waitlisted"), key=lambda r: r["wait_q"])
    return main, waiting


def entries(tournament_id: str) -> Entries:
    """The public entry list: public fields only (R12.1)."""
    snap = store.snapshot(tournament_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    main, waiting = ordered(store.all_entries(tournament_id))
    profiles = player_store.get_profiles([r["tavla_id"] for r in main + waiting])

    return Entries(
        main=[Entry(**entry_fields(r, i, profiles)) for i, r in enumerate(main, 1)],
        waiting=[Entry(**entry_fields(r, i, profiles)) for i, r in enumerate(waiting, 1)],
    )


def entry_fields(registration: Item, position: int, profiles: dict[str, Item]) -> dict[str, Any]:
    """One line of an entry list: the registration with the player's public profile."""
    tavla_id = registration["tavla_id"]
    profile = profiles.get(tavla_id, {})
    return {
        "tavla_id": tavla_id,
        "name": profile.get("name", tavla_id),
        "club": profile.get("club"),
        "city": profile.get("city"),
        "status": registration["status"],
        "position": position,
        "checked_in": "checked_in_at" in registration,
    }
