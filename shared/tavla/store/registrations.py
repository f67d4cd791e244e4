"""Registrations and the waiting list: every capacity and order invariant is a condition here.

Capacity (R3.2) is a condition on the tournament's `registered` counter, one registration
per player (R3.1) is `attribute_not_exists` on REG#<tavla_id>, waiting-list order is the
monotonic `wait_seq` guarded by an optimistic condition, and promotion on withdrawal is one
transaction that removes the leaver and promotes the first waiting player only if that
player is still waiting. Which list a newcomer belongs on is the service's decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from tavla import events
from tavla.errors import AlreadyRegistered, NotRegistered, RegistrationClosed
from tavla.store import audit, keys, outbox
from tavla.store.dynamo import Item, client, deserialize, query_prefix, table_name
from tavla.store.records import AuditRecord, RegistrationRecord, TournamentRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

OPEN = "open"
REGISTERED = "registered"
WAITLISTED = "waitlisted"
PENDING = "pending"  # waits for the organiser's approval (R3.7); takes no place
REFUSED = "refused"  # kept for the federation report; took nothing


class WaitingListMoved(Exception):
    """The tournament's counters changed since they were read; `current` is how they are now."""

    def __init__(self, current: TournamentRecord) -> None:
        super().__init__(current.id)
        self.current = current


class Full(WaitingListMoved):
    """No main-list place for a newcomer (full, or somebody waits): `current` shows why."""


class Contended(Exception):
    """Another change to the waiting list won the race; read again and retry."""


class DivisionChanged(Exception):
    """The division entered was edited or removed since the tournament was read (R3.7);
    `current` is the tournament as it is now."""

    def __init__(self, current: TournamentRecord) -> None:
        super().__init__("division changed")
        self.current = current


class CodeTaken(Exception):
    """The randomly drawn check-in code exists; draw another."""


class WaitingWithdrawal(Exception):
    """The player to withdraw is on the waiting list, not the main list."""

    def __init__(self, registration: RegistrationRecord) -> None:
        super().__init__(registration.tavla_id)
        self.registration = registration


def to_item(registration: RegistrationRecord) -> Item:
    """The stored item: the record plus its keys (gsi1: the player's tournaments by start)."""
    fields = registration.to_item()
    wait_seq, waited_seq = fields.pop("wait_seq", None), fields.pop("waited_seq", None)
    return {
        **keys.plain(keys.registration(registration.tournament_id, registration.tavla_id)),
        **fields,
        "gsi1pk": keys.player_pk(registration.tavla_id),
        "gsi1sk": keys.by_start(registration.starts_at, registration.tournament_id),
        **({"wait_q": keys.wait_q(wait_seq)} if wait_seq is not None else {}),
        **({"waited_q": keys.wait_q(waited_seq)} if waited_seq is not None else {}),
    }


def from_item(item: Item) -> RegistrationRecord:
    found = {k: v for k, v in item.items() if k not in ("wait_q", "waited_q")}
    if "wait_q" in item:
        found["wait_seq"] = int(item["wait_q"])
    if "waited_q" in item:
        found["waited_seq"] = int(item["waited_q"])
    return RegistrationRecord.from_item(found)


def _recorded(tx: Transaction, tournament_id: str, changes: Sequence[AuditRecord]) -> None:
    """The change's audit entries, and `EntriesChanged` for the screens that show the lists
    (written with the change: a retried change writes the same event, not a second)."""
    for change in changes:
        audit.record(tx, tournament_id, change)
    if changes:
        at = max(c.at for c in changes)
        outbox.add(tx, [outbox.Event(events.ENTRIES_CHANGED, {"tournament_id": tournament_id, "at": at})])


def _open_condition() -> str:
    return "#status = :open AND closes_epoch > :now"


def _division_condition(division: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """A new entry's division still as read (R3.7): an organiser's removal of the division
    (or a change of its fee) in the meantime refuses the entry instead of orphaning it."""
    if division is None:
        return "", {}
    return " AND contains(divisions, :division)", {"division": dict(division)}


def _division_moved(cancelled: Cancelled, division: Mapping[str, Any] | None) -> None:
    current = cancelled.old("tournament")
    if (
        division is not None
        and current is not None
        and dict(division) not in (current.get("divisions") or [])
    ):
        raise DivisionChanged(TournamentRecord.from_item(current)) from cancelled


class NotPending(Exception):
    """The entry to approve or refuse is no longer pending (decided, withdrawn) or absent."""


def _add_entry(tx: Transaction, registration: RegistrationRecord, approving: bool) -> None:
    if approving:  # a pending entry takes its place: it exists, its code too
        wait_q = registration.wait_seq
        tx.update(
            "registration",
            MAIN,
            keys.registration(registration.tournament_id, registration.tavla_id),
            "SET #status = :status, listed_at = :now" + (", wait_q = :wait_q" if wait_q else ""),
            condition="#status = :pending",
            names={"#status": "status"},
            values={
                "status": registration.status,
                "now": registration.listed_at,
                "pending": PENDING,
                **({"wait_q": keys.wait_q(wait_q)} if wait_q else {}),
            },
        )
        return
    tx.put("registration", MAIN, to_item(registration), condition="attribute_not_exists(pk)")
    code = {
        **keys.plain(keys.checkin_code(registration.checkin_code)),
        "tournament_id": registration.tournament_id,
        "tavla_id": registration.tavla_id,
    }
    tx.put("code", MAIN, code, condition="attribute_not_exists(pk)")


def _raise_for_entry(cancelled: Cancelled, now: datetime, approving: bool) -> None:
    if cancelled.failed("registration"):
        if approving:
            raise NotPending from cancelled
        raise AlreadyRegistered("You are already registered for this tournament.") from cancelled
    current = cancelled.old("tournament")
    if current is not None and (
        current.get("status") != OPEN or int(current.get("closes_epoch", 0)) <= now.timestamp()
    ):
        raise RegistrationClosed("Registration for this tournament is closed.") from cancelled
    if cancelled.failed("code"):
        raise CodeTaken from cancelled


def add_registered(
    registration: RegistrationRecord,
    now: datetime,
    changes: Sequence[AuditRecord] = (),
    *,
    approving: bool = False,
    division: Mapping[str, Any] | None = None,
) -> None:
    """Take a place on the main list: never beyond capacity, never twice, never ahead of
    anyone already waiting (R3.1, R3.2). Raises Full when that is not possible, and
    DivisionChanged when `division` (as read) is no longer the tournament's."""
    in_division, division_values = _division_condition(division)
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(registration.tournament_id),
        "SET registered = registered + :one",
        condition=f"{_open_condition()} AND registered < #capacity AND waiting = :zero{in_division}",
        names={"#status": "status", "#capacity": "capacity"},
        values={"one": 1, "zero": 0, "open": OPEN, "now": int(now.timestamp()), **division_values},
        return_old=True,
    )
    _add_entry(tx, replace(registration, status=REGISTERED), approving)
    _recorded(tx, registration.tournament_id, changes)
    try:
        tx.run()
    except Cancelled as cancelled:
        _raise_for_entry(cancelled, now, approving)
        _division_moved(cancelled, division)
        current = cancelled.old("tournament")
        if current is not None:
            raise Full(TournamentRecord.from_item(current)) from cancelled
        raise


def add_waiting(
    registration: RegistrationRecord,
    seen: TournamentRecord,
    now: datetime,
    changes: Sequence[AuditRecord] = (),
    *,
    approving: bool = False,
    division: Mapping[str, Any] | None = None,
) -> int:
    """Join the end of the waiting list; returns the position.

    `seen` is the tournament as read: raises WaitingListMoved when its counters moved since
    (DivisionChanged when `division` did).
    """
    waiting, sequence = seen.waiting, seen.wait_seq
    in_division, division_values = _division_condition(division)
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(registration.tournament_id),
        "SET waiting = :w1, wait_seq = :s1",
        condition=f"{_open_condition()} AND (registered >= #capacity OR waiting > :zero)"
        f" AND waiting = :w0 AND wait_seq = :s0{in_division}",
        names={"#status": "status", "#capacity": "capacity"},
        values={
            "open": OPEN,
            "now": int(now.timestamp()),
            "zero": 0,
            "w0": waiting,
            "w1": waiting + 1,
            "s0": sequence,
            "s1": sequence + 1,
            **division_values,
        },
        return_old=True,
    )
    _add_entry(tx, replace(registration, status=WAITLISTED, wait_seq=sequence + 1), approving)
    _recorded(tx, registration.tournament_id, changes)
    try:
        tx.run()
    except Cancelled as cancelled:
        _raise_for_entry(cancelled, now, approving)
        current = cancelled.old("tournament")
        if current is not None:
            raise WaitingListMoved(TournamentRecord.from_item(current)) from cancelled
        raise
    return waiting + 1


def add_pending(
    registration: RegistrationRecord,
    now: datetime,
    changes: Sequence[AuditRecord] = (),
    division: Mapping[str, Any] | None = None,
) -> None:
    """Enter a registration that waits for the organiser's approval (R3.7): no place taken."""
    in_division, division_values = _division_condition(division)
    tx = Transaction()
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(registration.tournament_id),
        _open_condition() + in_division,
        names={"#status": "status"},
        values={"open": OPEN, "now": int(now.timestamp()), **division_values},
        return_old=True,
    )
    _add_entry(tx, replace(registration, status=PENDING), approving=False)
    _recorded(tx, registration.tournament_id, changes)
    try:
        tx.run()
    except Cancelled as cancelled:
        _raise_for_entry(cancelled, now, approving=False)
        _division_moved(cancelled, division)
        raise


def refuse(tournament_id: str, tavla_id: str, now: datetime, change: AuditRecord) -> None:
    """Refuse a pending entry; it stays, as refused, for the federation report. Frees nothing."""
    tx = Transaction()
    tx.update(
        "registration",
        MAIN,
        keys.registration(tournament_id, tavla_id),
        "SET #status = :refused, refused_at = :now",
        condition="#status = :pending",
        names={"#status": "status"},
        values={"refused": REFUSED, "pending": PENDING, "now": now.isoformat()},
    )
    _recorded(tx, tournament_id, [change])
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("registration"):
            raise NotPending from cancelled
        raise


def withdraw_pending(
    tournament_id: str,
    tavla_id: str,
    changes: Sequence[AuditRecord] = (),
    extra: Callable[[Transaction], None] | None = None,
) -> None:
    """Withdraw an entry still waiting for approval: it held no place, so no counter moves."""
    tx = Transaction()
    tx.delete(
        "leaver",
        MAIN,
        keys.registration(tournament_id, tavla_id),
        condition="#status = :pending",
        names={"#status": "status"},
        values={"pending": PENDING},
    )
    if extra is not None:
        extra(tx)
    _recorded(tx, tournament_id, changes)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("leaver"):
            raise NotRegistered("You are not on this tournament's lists.") from cancelled
        raise


def first_waiting(tournament_id: str, count: int = 1) -> list[RegistrationRecord]:
    """The head of the waiting list, strongly consistent (local secondary index)."""
    response = client().query(
        TableName=table_name(MAIN),
        IndexName=MAIN.index("waitlist").name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.tournament_pk(tournament_id)}},
        ConsistentRead=True,
        Limit=count,
    )
    return [from_item(deserialize(i)) for i in response.get("Items", [])]


def _promote(tx: Transaction, waiting: RegistrationRecord, now: datetime) -> None:
    """Move one waiting player to the main list, only if they are still waiting."""
    tx.update(
        f"promotion {waiting.tavla_id}",
        MAIN,
        keys.registration(waiting.tournament_id, waiting.tavla_id),
        "SET #status = :registered, listed_at = :now, promoted_at = :now, waited_q = wait_q REMOVE wait_q",
        condition="#status = :waitlisted",
        names={"#status": "status"},
        values={"registered": REGISTERED, "waitlisted": WAITLISTED, "now": now.isoformat()},
    )


def promote(
    seen: TournamentRecord,
    heads: Sequence[RegistrationRecord],
    now: datetime,
    changes: Sequence[AuditRecord] = (),
    events: Sequence[outbox.Event] = (),
) -> None:
    """Promote the head of the waiting list into places that are free (capacity raised), with
    the events that tell them.

    `seen` is the tournament as read; raises Contended when its counters moved meanwhile.
    """
    tx = Transaction()
    for head in heads:
        _promote(tx, head, now)
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(seen.id),
        "SET registered = registered + :n, waiting = waiting - :n",
        condition="#status = :open AND registered = :registered AND waiting = :waiting"
        " AND #capacity = :capacity",
        names={"#status": "status", "#capacity": "capacity"},
        values={
            "n": len(heads),
            "open": OPEN,
            "registered": seen.registered,
            "waiting": seen.waiting,
            "capacity": seen.capacity,
        },
    )
    _recorded(tx, seen.id, changes)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise Contended from cancelled


def withdraw(
    tournament_id: str,
    tavla_id: str,
    promote: RegistrationRecord | None,
    now: datetime,
    changes: Sequence[AuditRecord] = (),
    extra: Callable[[Transaction], None] | None = None,
    events: Sequence[outbox.Event] = (),
) -> None:
    """Remove a main-list player and, in the same transaction, promote `promote` (if given) with
    the event that tells them;
    `extra` adds what is written with the withdrawal (the refund it gives, `store.payments`).

    Raises Contended when `promote` was promoted or left meanwhile (read the head again),
    NotRegistered when there is nothing to withdraw, and WaitingWithdrawal when the player
    is on the waiting list (use `withdraw_waiting`).
    """
    tx = Transaction()
    tx.delete(
        "leaver",
        MAIN,
        keys.registration(tournament_id, tavla_id),
        condition="#status = :registered",
        names={"#status": "status"},
        values={"registered": REGISTERED},
        return_old=True,
    )
    counters: dict[str, Any]
    if promote is not None:
        _promote(tx, promote, now)
        # the leaver's place goes to the head of the list: the main list stays full
        counters = {"expression": "SET waiting = waiting - :one", "condition": "#status = :open"}
        counter_values: dict[str, Any] = {"open": OPEN, "one": 1}
    else:
        # a place opens; only if nobody joined the waiting list meanwhile (else: retry)
        counters = {
            "expression": "SET registered = registered - :one",
            "condition": "#status = :open AND waiting = :zero",
        }
        counter_values = {"open": OPEN, "one": 1, "zero": 0}
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        counters["expression"],
        condition=counters["condition"],
        names={"#status": "status"},
        values=counter_values,
        return_old=True,
    )
    if extra is not None:
        extra(tx)
    _recorded(tx, tournament_id, changes)
    outbox.add(tx, events)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("leaver"):
            old = cancelled.old("leaver")
            if old is None:
                raise NotRegistered("You are not registered for this tournament.") from cancelled
            raise WaitingWithdrawal(from_item(old)) from cancelled
        if promote is not None and cancelled.failed(f"promotion {promote.tavla_id}"):
            raise Contended from cancelled
        if cancelled.failed("tournament"):
            meta = cancelled.old("tournament")
            if meta is not None and meta.get("status") == OPEN:
                raise Contended from cancelled  # somebody joined the waiting list: promote them
            raise RegistrationClosed("The draw has been made: withdraw at the referee table.") from cancelled
        raise


def withdraw_waiting(
    tournament_id: str,
    tavla_id: str,
    changes: Sequence[AuditRecord] = (),
    extra: Callable[[Transaction], None] | None = None,
    drawn: bool = False,
) -> None:
    """Leave the waiting list; those behind move up one place. `drawn`: after the draw, when
    nobody is promoted any more but the list stays until the player leaves it."""
    tx = Transaction()
    tx.delete(
        "leaver",
        MAIN,
        keys.registration(tournament_id, tavla_id),
        condition="#status = :waitlisted",
        names={"#status": "status"},
        values={"waitlisted": WAITLISTED},
    )
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET waiting = waiting - :one",
        condition="#status <> :open" if drawn else "#status = :open",
        names={"#status": "status"},
        values={"one": 1, "open": OPEN},
    )
    if extra is not None:
        extra(tx)
    _recorded(tx, tournament_id, changes)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("leaver"):
            raise NotRegistered("You are not on this tournament's lists.") from cancelled
        if cancelled.failed("tournament"):
            raise RegistrationClosed("The draw has been made: withdraw at the referee table.") from cancelled
        raise


def all_entries(tournament_id: str) -> list[RegistrationRecord]:
    """Every registration of the tournament (main list and waiting list), as last written:
    a consistent read, so the draw's field and the divisions' check see the latest entries."""
    items = query_prefix(MAIN, keys.tournament_pk(tournament_id), keys.REG_PREFIX, ConsistentRead=True)
    return [from_item(i) for i in items]


def of_player(tavla_id: str) -> list[RegistrationRecord]:
    """A player's registrations across tournaments (gsi1), for 'my data' and merges."""
    response = client().query(
        TableName=table_name(MAIN),
        IndexName=MAIN.index("gsi1").name,
        KeyConditionExpression="gsi1pk = :p",
        ExpressionAttributeValues={":p": {"S": keys.player_pk(tavla_id)}},
    )
    return [from_item(deserialize(i)) for i in response.get("Items", [])]


# --- category-prize eligibility (R11.4)
def set_categories(
    tournament: TournamentRecord, tavla_id: str, categories: Sequence[str] | None, change: AuditRecord
) -> None:
    """The organiser sets (or, with None, clears) an entry's prize categories, with its audit
    record, while the tournament is not finished. Raises NotRegistered for no such entry,
    `Finished` once the tournament is finished."""
    tx = Transaction()
    if categories is None:
        expression, values = "REMOVE #categories", None
    else:
        expression, values = "SET #categories = :categories", {"categories": list(categories)}
    tx.update(
        "registration",
        MAIN,
        keys.registration(tournament.id, tavla_id),
        expression,
        condition="attribute_exists(pk)",
        names={"#categories": "categories"},
        values=values,
    )
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        condition="attribute_not_exists(finished_at)",
    )
    audit.record(tx, tournament.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("registration"):
            raise NotRegistered(f"{tavla_id} has no entry in this tournament.") from cancelled
        if cancelled.failed("tournament"):
            raise Finished from cancelled
        raise


class Finished(Exception):
    """The tournament finished meanwhile: its prize list stands."""
