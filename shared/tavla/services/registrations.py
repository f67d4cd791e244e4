"""Registration and the waiting list (R3.1, R3.2, R3.5): first come, first served, never over capacity."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tavla import events, ids, observability
from tavla.caller import Caller
from tavla.errors import (
    Busy,
    DivisionBarred,
    Invalid,
    NotPending,
    NotRegistered,
    RegistrationClosed,
    TournamentNotFound,
)
from tavla.models.common import Money
from tavla.models.registrations import Entries, Entry, RegistrationResult, WithdrawalResult
from tavla.services.access import player_actor, require_organiser
from tavla.store import outbox, snapshots
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import (
    SYSTEM,
    Actor,
    AuditRecord,
    ProfileRecord,
    RegistrationRecord,
    TournamentRecord,
)
from tavla.store.registrations import PENDING, REFUSED, REGISTERED, WAITLISTED

if TYPE_CHECKING:
    from tavla.services import payments

_system_random = random.SystemRandom()
MAX_ATTEMPTS = 60


def _backoff(attempt: int, rng: random.Random) -> None:
    """Full-jitter backoff: simultaneous losers spread out instead of colliding again."""
    observability.count(observability.CONTENTION_RETRIES)
    time.sleep(rng.uniform(0, min(0.5, 0.01 * 2 ** min(attempt, 6))))


def has_free_place(tournament: TournamentRecord) -> bool:
    """A newcomer may take a main-list place: one is free and nobody is waiting for it."""
    return tournament.registered < tournament.capacity and not tournament.waiting


def _snapshot(sub: str, tournament_id: str) -> tuple[str, TournamentRecord]:
    snap = snapshots.snapshot(tournament_id, sub=sub)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    if snap.tavla_id is None:
        player_store.tavla_id_of(sub)  # raises ProfileMissing with the API's message
    assert snap.tavla_id is not None
    return snap.tavla_id, snap.tournament


def _fresh(tournament_id: str) -> TournamentRecord:
    fresh = snapshots.snapshot(tournament_id).tournament
    if fresh is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return fresh


def register(
    caller: Caller,
    tournament_id: str,
    division: str | None,
    now: datetime,
    rng: random.Random = _system_random,
) -> RegistrationResult:
    """Register the caller: a free place if there is one, else the end of the waiting list;
    where entries need the organiser's approval (R3.7), a pending entry that takes no place.

    One BatchGetItem (identity + tournament) and one transaction in the usual case;
    under contention for the waiting list the transaction is retried with fresh state.
    """
    tavla_id, tournament = _snapshot(caller.sub, tournament_id)
    order = division_order(tournament)
    if division is None and len(order) > 1:
        raise Invalid(f"division: this tournament has several divisions; enter one of {', '.join(order)}.")
    chosen = division or order[0]
    player = player_actor(caller, tavla_id)

    def registered(**details: Any) -> AuditRecord:
        return audit_entry(player, "registered", now, tavla_id=tavla_id, division=chosen, **details)

    code = ids.checkin_code(rng)
    for _ in range(MAX_ATTEMPTS):
        if chosen not in division_order(tournament):
            raise Invalid(f"division: this tournament has no division '{chosen}'.")
        if not tournament.is_open or tournament.closes_epoch <= now.timestamp():
            raise RegistrationClosed("Registration for this tournament is closed.")
        _check_placement(tournament, tavla_id, chosen)
        as_read = _division_as_read(tournament, chosen)
        entry = RegistrationRecord(
            tournament_id=tournament_id,
            tavla_id=tavla_id,
            division=chosen,
            status=REGISTERED,
            checkin_code=code,
            registered_at=now.isoformat(),
            listed_at=now.isoformat(),
            starts_at=tournament.starts_at,
        )
        try:
            if tournament.registration.requires_approval:
                registration_store.add_pending(entry, now, [registered(list="pending")], division=as_read)
                return RegistrationResult(status=PENDING, checkin_code=code, division=chosen)
            return _take_place(tournament, entry, now, registered, rng, division=as_read)
        except registration_store.CodeTaken:
            code = ids.checkin_code(rng)
        except registration_store.DivisionChanged as changed:
            tournament = changed.current  # the organiser edited the divisions meanwhile: look again
    raise Busy("Many players are registering right now; please try again.")  # pragma: no cover


def _division_as_read(tournament: TournamentRecord, division: str) -> Mapping[str, Any] | None:
    """The division's stored settings, for the entry's write to find unchanged (R3.7)."""
    return tournament.division_as_stored(division)


def division_order(tournament: TournamentRecord) -> list[str]:
    """The tournament's division ids, highest first (the order its settings list them in)."""
    return list(tournament.registration.divisions)


def _check_placement(tournament: TournamentRecord, tavla_id: str, division: str) -> None:
    """The organiser's placement (R3.7): no division below the one the player is placed in
    (divisions are listed highest first)."""
    placed = tournament.placements.get(tavla_id)
    order = division_order(tournament)
    if placed in order and order.index(division) > order.index(placed):
        raise DivisionBarred(
            f"The organiser placed you in division '{placed}': you may not enter '{division}'."
        )


def _take_place(
    tournament: TournamentRecord,
    entry: RegistrationRecord,
    now: datetime,
    audited: Callable[..., AuditRecord],
    rng: random.Random,
    *,
    approving: bool = False,
    division: Mapping[str, Any] | None = None,
) -> RegistrationResult:
    """A free place if there is one, else the end of the waiting list (retried under contention)."""
    for attempt in range(MAX_ATTEMPTS):
        try:
            if has_free_place(tournament):
                registration_store.add_registered(
                    entry, now, [audited(list="main")], approving=approving, division=division
                )
                observability.count(observability.REGISTERED)
                return RegistrationResult(
                    status=REGISTERED, checkin_code=entry.checkin_code, division=entry.division
                )
            waiting = audited(list="waiting", position=tournament.waiting + 1)
            position = registration_store.add_waiting(
                entry, tournament, now, [waiting], approving=approving, division=division
            )
            observability.count(observability.WAITLISTED)
            return RegistrationResult(
                status=WAITLISTED, position=position, checkin_code=entry.checkin_code, division=entry.division
            )
        except registration_store.Full as full:
            tournament = full.current  # as it was when the place was refused: no read needed
            continue
        except registration_store.WaitingListMoved as moved:
            if has_free_place(moved.current):
                tournament = moved.current  # a place opened meanwhile: take it at once
                continue
            _backoff(attempt, rng)  # another player joined the waiting list first
        tournament = _fresh(tournament.id)
    raise Busy("Many players are registering right now; please try again.")


def _pending_entry(
    caller: Caller, tournament_id: str, tavla_id: str
) -> tuple[Actor, TournamentRecord, RegistrationRecord]:
    snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    organiser = require_organiser(snap.tournament, caller)
    if snap.registration is None or snap.registration.status != PENDING:
        raise NotPending(f"{tavla_id} has no entry waiting for approval in this tournament.")
    return organiser, snap.tournament, snap.registration


def approve(
    caller: Caller, tournament_id: str, tavla_id: str, now: datetime, rng: random.Random = _system_random
) -> RegistrationResult:
    """The organiser approves a pending entry (R3.7): a place if one is free, else the waiting
    list, by the same conditions as a registration."""
    organiser, tournament, pending = _pending_entry(caller, tournament_id, tavla_id)
    if not tournament.is_open or tournament.closes_epoch <= now.timestamp():
        raise RegistrationClosed("Registration for this tournament is closed.")

    def approved(**details: Any) -> AuditRecord:
        return audit_entry(
            organiser, "approved", now, tavla_id=tavla_id, division=pending.division, **details
        )

    try:
        return _take_place(
            tournament, replace(pending, listed_at=now.isoformat()), now, approved, rng, approving=True
        )
    except registration_store.NotPending as error:
        raise NotPending(f"{tavla_id} has no entry waiting for approval in this tournament.") from error


def refuse(caller: Caller, tournament_id: str, tavla_id: str, now: datetime) -> RegistrationResult:
    """The organiser refuses a pending entry (R3.7): no reason needed; kept as refused and in
    the audit trail for the federation report; it held no place, so it frees none."""
    organiser, _, pending = _pending_entry(caller, tournament_id, tavla_id)
    change = audit_entry(organiser, "refused", now, tavla_id=tavla_id, division=pending.division)
    try:
        registration_store.refuse(tournament_id, tavla_id, now, change)
    except registration_store.NotPending as error:
        raise NotPending(f"{tavla_id} has no entry waiting for approval in this tournament.") from error
    return RegistrationResult(status=REFUSED, checkin_code=pending.checkin_code, division=pending.division)


def withdraw(
    actor: Actor,
    tournament: TournamentRecord,
    tavla_id: str,
    now: datetime,
    rng: random.Random = _system_random,
) -> WithdrawalResult:
    """Withdraw `tavla_id` before the draw, by `actor` (the player, or staff on their
    behalf; services.withdrawals decides who may and which withdrawal applies): the first
    waiting player is promoted in the same step and told (R3.2). `tournament` is as the
    caller just read it: the transaction's conditions decide."""
    tournament_id = tournament.id
    if not tournament.is_open:  # drawn meanwhile: the day's withdrawal applies now
        raise RegistrationClosed("The draw has just been made: withdraw again to leave the day.")
    # Money (its models, card payments, statements) is loaded by a withdrawal, the only path
    # here that refunds: registering and the lists never need it (cold start).
    from tavla.services import payments

    refund = payments.withdrawal_refund(tournament, tavla_id, actor, now)
    for attempt in range(MAX_ATTEMPTS):
        # nobody waited as the tournament was just read: no list to read (one call less); the
        # withdrawal is conditioned on that (`waiting = 0`), so a player who joined the list
        # meanwhile makes it retry, reading the list then
        nobody_waited = attempt == 0 and tournament.waiting == 0
        head = None if nobody_waited else next(iter(registration_store.first_waiting(tournament_id)), None)
        if head is not None and head.tavla_id == tavla_id:
            head = None  # the leaver heads the waiting list: nobody takes a place they never held
        changes = [audit_entry(actor, "withdrawn", now, tavla_id=tavla_id, list="main")]
        if head is not None:
            changes.append(_promoted(head, now, reason="withdrawal", place_of=tavla_id))
        try:
            registration_store.withdraw(
                tournament_id, tavla_id, head, now, changes, refund.write, _told(tournament, [head], now)
            )
        except registration_store.WaitingWithdrawal as other_list:
            status = other_list.registration.status
            if status not in (WAITLISTED, PENDING):
                raise NotRegistered(f"{tavla_id} is not on this tournament's lists.") from other_list
            return leave_list(actor, tournament, tavla_id, status, now, refund)
        except registration_store.Contended:
            _backoff(attempt, rng)
            continue
        if head is not None:
            observability.count(observability.PROMOTED)
        payments.after_withdrawal(tournament, tavla_id, refund, now)
        return _withdrawn(tournament_id, tavla_id, now, refund.total, head.tavla_id if head else None)
    raise Busy("Many players are withdrawing right now; please try again.")


def leave_list(
    actor: Actor,
    tournament: TournamentRecord,
    tavla_id: str,
    status: str,
    now: datetime,
    refund: payments.WithdrawalRefund | None = None,
) -> WithdrawalResult:
    """A waiting or pending entry leaves its list: it held no place, so nobody is promoted.
    After the draw too (the list stays until its players leave it), then with all it paid
    refunded, since it never had a place to pay for."""
    from tavla.services import payments  # loaded by a withdrawal, as above

    drawn = not tournament.is_open
    if refund is None:
        refund = payments.withdrawal_refund(tournament, tavla_id, actor, now, whole=drawn)
    withdrawn = audit_entry(actor, "withdrawn", now, tavla_id=tavla_id, list=_LIST_NAME[status])
    if status == PENDING:
        registration_store.withdraw_pending(tournament.id, tavla_id, [withdrawn], refund.write)
    else:
        registration_store.withdraw_waiting(tournament.id, tavla_id, [withdrawn], refund.write, drawn=drawn)
    payments.after_withdrawal(tournament, tavla_id, refund, now)
    return _withdrawn(tournament.id, tavla_id, now, refund.total, None)


def _withdrawn(
    tournament_id: str, tavla_id: str, now: datetime, refund_due: int, promoted: str | None
) -> WithdrawalResult:
    return WithdrawalResult(
        tournament_id=tournament_id,
        tavla_id=tavla_id,
        stage="before_draw",
        at=now,
        refund_due=Money(amount=refund_due),
        refund="policy",
        promoted=promoted,
    )


def _told(
    tournament: TournamentRecord, promoted: Iterable[RegistrationRecord | None], now: datetime
) -> list[outbox.Event]:
    """`RegistrationPromoted` for each player promoted, written with the promotion (R3.2)."""
    return [
        outbox.Event(
            events.REGISTRATION_PROMOTED,
            {
                "tournament_id": tournament.id,
                "tournament_name": tournament.name,
                "tavla_id": p.tavla_id,
                "promoted_at": now.isoformat(),
            },
        )
        for p in promoted
        if p is not None
    ]


_LIST_NAME = {WAITLISTED: "waiting", PENDING: "pending"}


def _promoted(head: RegistrationRecord, now: datetime, **details: Any) -> AuditRecord:
    return audit_entry(SYSTEM, "promoted", now, tavla_id=head.tavla_id, **details)


# A transaction holds at most 100 items: promote in batches of three items per player (the
# entry, its audit record and the event that tells them), the tournament item included.
PROMOTION_BATCH = 33


def fill_free_places(tournament_id: str, now: datetime, rng: random.Random = _system_random) -> list[str]:
    """Give free main-list places (capacity raised) to the head of the waiting list, in order.

    Returns the promoted Tavla IDs; each promoted player is notified (R3.2).
    """
    promoted: list[str] = []
    for attempt in range(MAX_ATTEMPTS):
        tournament = snapshots.snapshot(tournament_id).tournament
        if tournament is None or not tournament.is_open:
            return promoted
        free = min(tournament.capacity - tournament.registered, tournament.waiting)
        if free <= 0:
            return promoted
        heads = registration_store.first_waiting(tournament_id, min(free, PROMOTION_BATCH))
        try:
            promotions = [_promoted(h, now, reason="capacity_raised") for h in heads]
            registration_store.promote(tournament, heads, now, promotions, _told(tournament, heads, now))
        except registration_store.Contended:
            _backoff(attempt, rng)
            continue
        observability.count(observability.PROMOTED, len(heads))
        promoted.extend(h.tavla_id for h in heads)
    raise Busy("The waiting list is changing fast; the remaining places will be filled on the next change.")


def ordered(
    registrations: list[RegistrationRecord],
) -> tuple[list[RegistrationRecord], list[RegistrationRecord]]:
    """Main list in order of listing (players promoted together in waiting-list order),
    waiting list in arrival order."""
    main = sorted(
        (r for r in registrations if r.status == REGISTERED),
        key=lambda r: (r.listed_at, r.waited_seq or 0, r.tavla_id),
    )
    waiting = sorted((r for r in registrations if r.status == WAITLISTED), key=lambda r: r.wait_seq or 0)
    return main, waiting


def entries(tournament_id: str) -> Entries:
    """The public entry list: public fields only (R12.1)."""
    if snapshots.snapshot(tournament_id).tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    main, waiting = ordered(registration_store.all_entries(tournament_id))
    profiles = player_store.get_profiles([r.tavla_id for r in main + waiting])

    return Entries(
        main=[Entry(**entry_fields(r, i, profiles)) for i, r in enumerate(main, 1)],
        waiting=[Entry(**entry_fields(r, i, profiles)) for i, r in enumerate(waiting, 1)],
    )


def entry_fields(
    registration: RegistrationRecord, position: int, profiles: dict[str, ProfileRecord]
) -> dict[str, Any]:
    """One line of an entry list: the registration with the player's public profile."""
    tavla_id = registration.tavla_id
    profile = profiles.get(tavla_id)
    return {
        "tavla_id": tavla_id,
        "name": profile.name if profile else tavla_id,
        "club": profile.club if profile else None,
        "city": profile.city if profile else None,
        "status": registration.status,
        "position": position,
        "checked_in": registration.checked_in_at is not None,
        "division": registration.division,  # R3.7
    }


# --- unpaid places released at the organiser's payment deadline
def release_unpaid(
    tournament: TournamentRecord, tavla_id: str, now: datetime, rng: random.Random = _system_random
) -> bool:
    """Take an unpaid main-list place back (the system, by the payment deadline): the first
    waiting player is promoted in the same step and told (R3.2). False when the player is no
    longer on the main list (released already, or withdrew)."""
    for attempt in range(MAX_ATTEMPTS):
        head = next(iter(registration_store.first_waiting(tournament.id)), None)
        changes = [audit_entry(SYSTEM, "released_unpaid", now, tavla_id=tavla_id, list="main")]
        if head is not None:
            changes.append(_promoted(head, now, reason="unpaid_release", place_of=tavla_id))
        try:
            registration_store.withdraw(
                tournament.id, tavla_id, head, now, changes, events=_told(tournament, [head], now)
            )
        except (registration_store.WaitingWithdrawal, NotRegistered, RegistrationClosed):
            return False  # not on the main list any more, or the draw has been made
        except registration_store.Contended:
            _backoff(attempt, rng)
            continue
        if head is not None:
            observability.count(observability.PROMOTED)
        return True
    raise Busy("The lists are changing fast; the release is retried.")  # pragma: no cover
