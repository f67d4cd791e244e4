"""The Super Final's invitations (R10.4): the list frozen at the season's close, each invitation
and its answer, every step a transaction whose conditions keep the seats right.

The head (SEASON#<id> / FINAL) counts `open` seats (neither pending nor accepted) and `next`,
the index of the next player on the frozen list. Inviting takes an open seat and moves `next`
on, conditional on both as read: two writers passing the same seat on invite one player.
Answering is conditional on the invitation still pending and its deadline (accept, decline
before it; expire after it): a late accept and the deadline's schedule cannot both win, and an
accept also needs `accepted < seats`, so two accepts can never fill more seats than there are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from tavla.store import keys, outbox
from tavla.store.dynamo import batch_get, client, deserialize, query_prefix, table_name
from tavla.store.records import InvitationRecord, SuperFinalRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

PENDING, ACCEPTED, DECLINED, EXPIRED = "pending", "accepted", "declined", "expired"


class SeatTaken(Exception):
    """The head moved since it was read (another writer invited): read it again."""


class NotPending(Exception):
    """The invitation was answered (or lapsed) already, or its deadline decided otherwise."""


class FinalFull(Exception):
    """Every seat of the final is accepted already."""


class AlreadyCreated(Exception):
    """The final's tournament was created already (by an earlier request)."""


def _final(item: Mapping[str, Any]) -> SuperFinalRecord:
    return SuperFinalRecord.from_item({**item, "rows": tuple(json.loads(str(item.get("rows") or "[]")))})


def head(season_id: str) -> SuperFinalRecord | None:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.super_final(season_id), ConsistentRead=True
    )
    return _final(deserialize(response["Item"])) if "Item" in response else None


def heads(season_ids: Sequence[str]) -> dict[str, SuperFinalRecord]:
    """The frozen lists of these seasons' finals, those closed (BatchGetItem)."""
    found = batch_get(MAIN, [keys.super_final(s) for s in season_ids], consistent=True) if season_ids else []
    return {f.season_id: f for f in map(_final, found)}


def freeze(tx: Transaction, final: SuperFinalRecord) -> None:
    """The frozen list and its seats, once (added to the season's closing transaction)."""
    tx.put(
        "final",
        MAIN,
        {
            **keys.plain(keys.super_final(final.season_id)),
            **final.to_item(),
            "rows": json.dumps(list(final.rows), separators=(",", ":")),
        },
        condition="attribute_not_exists(pk)",
    )


def invite(final: SuperFinalRecord, invitation: InvitationRecord, announce: Sequence[outbox.Event]) -> None:
    """Invite the next player on the frozen list into an open seat (SeatTaken: the head moved)."""
    tx = Transaction()
    tx.update(
        "final",
        MAIN,
        keys.super_final(final.season_id),
        "SET #next = :after ADD #open :minus",
        condition="#next = :next AND #open > :zero",
        names={"#next": "next", "#open": "open"},
        values={"next": final.next, "after": final.next + 1, "minus": -1, "zero": 0},
    )
    tx.put(
        "invitation",
        MAIN,
        {**keys.plain(keys.invitation(invitation.season_id, invitation.tavla_id)), **invitation.to_item()},
        condition="attribute_not_exists(pk)",
    )
    tx.put(
        "pointer",
        MAIN,
        {
            **keys.plain(keys.player_invitation(invitation.tavla_id, invitation.season_id)),
            "season_id": invitation.season_id,
        },
    )
    outbox.add(tx, announce)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("final") or cancelled.failed("invitation"):
            raise SeatTaken(final.season_id) from cancelled
        raise


def answer(
    season_id: str,
    tavla_id: str,
    status: str,
    at: str,
    announce: Sequence[outbox.Event] = (),
) -> None:
    """Accept or decline before the deadline, or expire after it: once, whichever comes first.

    NotPending: answered already, or on the wrong side of its deadline; FinalFull: an accept
    when every seat is accepted already."""
    tx = Transaction()
    before = "reply_by <= :at" if status == EXPIRED else "reply_by > :at"
    tx.update(
        "invitation",
        MAIN,
        keys.invitation(season_id, tavla_id),
        "SET #status = :status, answered_at = :at",
        condition=f"#status = :pending AND {before}",
        names={"#status": "status"},
        values={"status": status, "pending": PENDING, "at": at},
    )
    if status == ACCEPTED:
        tx.update(
            "final",
            MAIN,
            keys.super_final(season_id),
            "ADD accepted :one",
            condition="accepted < seats",
            values={"one": 1},
        )
    else:  # the seat is open again, for the next on the list
        tx.update(
            "final",
            MAIN,
            keys.super_final(season_id),
            "ADD #open :one",
            names={"#open": "open"},
            values={"one": 1},
        )
    outbox.add(tx, announce)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("invitation"):
            raise NotPending(tavla_id) from cancelled
        if cancelled.failed("final"):
            raise FinalFull(season_id) from cancelled
        raise


def get(season_id: str, tavla_id: str) -> InvitationRecord | None:
    response = client().get_item(
        TableName=table_name(MAIN), Key=keys.invitation(season_id, tavla_id), ConsistentRead=True
    )
    return InvitationRecord.from_item(deserialize(response["Item"])) if "Item" in response else None


def of_season(season_id: str) -> list[InvitationRecord]:
    """Every invitation of the season's final, in the order they were sent."""
    items = query_prefix(MAIN, keys.season_pk(season_id), keys.INVITE_PREFIX, ConsistentRead=True)
    return sorted((InvitationRecord.from_item(i) for i in items), key=lambda r: r.order)


def of_player(tavla_id: str) -> list[InvitationRecord]:
    """A player's invitations, every season (their pointers, then the invitations)."""
    pointers = query_prefix(MAIN, keys.player_pk(tavla_id), keys.INVITE_PREFIX)
    wanted = [keys.invitation(str(p["season_id"]), tavla_id) for p in pointers]
    found = [InvitationRecord.from_item(i) for i in batch_get(MAIN, wanted, consistent=True)]
    return sorted(found, key=lambda r: r.invited_at, reverse=True)


def claim_tournament(tx: Transaction, season_id: str, tournament_id: str) -> None:
    """The final's tournament, once: added to the transaction that creates it."""
    tx.update(
        "final",
        MAIN,
        keys.super_final(season_id),
        "SET tournament_id = :t",
        condition="attribute_exists(pk) AND attribute_not_exists(tournament_id)",
        values={"t": tournament_id},
    )


def set_champion(season_id: str, tournament_id: str, champion: str) -> bool:
    """The final's winner, recorded once and only for the season's own final."""
    tx = Transaction()
    tx.update(
        "final",
        MAIN,
        keys.super_final(season_id),
        "SET champion = :c",
        condition="tournament_id = :t AND attribute_not_exists(champion)",
        values={"t": tournament_id, "c": champion},
    )
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("final"):
            return False
        raise
    return True
