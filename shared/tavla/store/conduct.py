"""Conduct (R8): a player leaving the field, and penalties that only the audit trail records."""

from __future__ import annotations

from typing import Literal

from tavla.errors import AlreadyOut, NotDrawn
from tavla.store import audit, keys
from tavla.store.records import AuditRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction

OutList = Literal["withdrawn", "disqualified"]


def mark_out(tournament_id: str, tavla_id: str, out: OutList, change: AuditRecord) -> None:
    """Add the player to the field's `withdrawn` or `disqualified` list, once, with its audit record.

    From then on the day forfeits their matches as they come due (R8.2, R8.3). A player with a
    match to forfeit is put out by `put_out` inside the day's own transaction instead.
    """
    tx = Transaction()
    put_out(tx, tournament_id, tavla_id, out)
    audit.record(tx, tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        if cancelled.failed("field"):
            if cancelled.old("field") is None:
                raise NotDrawn("Nothing is drawn yet.") from cancelled
            raise AlreadyOut(f"{tavla_id} has already withdrawn or been disqualified.") from cancelled
        raise


def put_out(tx: Transaction, tournament_id: str, tavla_id: str, out: OutList) -> None:
    """The field update of `mark_out`, as an item of `tx`: it fails if the player is out already
    (a withdrawn player may still be disqualified; a disqualified one has nothing to withdraw from)."""
    condition = "attribute_exists(pk) AND NOT contains(disqualified, :id)"
    if out == "withdrawn":
        condition += " AND NOT contains(withdrawn, :id)"
    tx.update(
        "field",
        MAIN,
        keys.field(tournament_id),
        f"SET {out} = list_append(if_not_exists({out}, :empty), :one)",
        condition=condition,
        values={"id": tavla_id, "empty": [], "one": [tavla_id]},
        return_old=True,
    )


def record(tournament_id: str, change: AuditRecord) -> None:
    """Write an audit record on its own (a warning changes nothing else, R8.4)."""
    tx = Transaction()
    audit.record(tx, tournament_id, change)
    tx.run()
