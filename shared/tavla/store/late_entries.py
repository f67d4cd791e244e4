"""Late entries (R5.5, R5.7): the organiser's policy on the tournament, late players on the field.

A late entrant has no registration (the field is their entry): a pointer in their own
partition, written with the entry, says where they play, so their erasure waits for the
tournament to be over and their profile lists it as it lists their registrations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavla.errors import LateEntryClosed, LateEntryRefused
from tavla.store import audit, keys
from tavla.store.dynamo import query_prefix
from tavla.store.records import FINISHED, AuditRecord, TournamentRecord
from tavla.store.schema import MAIN
from tavla.store.transactions import Cancelled, Transaction


def set_policy(tournament_id: str, policy: Mapping[str, Any], change: AuditRecord) -> None:
    """Open or close late entry, with what a late player starts with (a finished day takes none)."""
    tx = Transaction()
    tx.update(
        "tournament",
        MAIN,
        keys.tournament(tournament_id),
        "SET late_entry = :policy",
        condition="attribute_exists(pk) AND #status <> :finished",
        names={"#status": "status"},
        values={"policy": dict(policy), "finished": FINISHED},
    )
    audit.record(tx, tournament_id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise LateEntryRefused("The tournament is finished: it takes no late entry.") from cancelled


def add(tournament: TournamentRecord, size: int, entrant: Mapping[str, Any], change: AuditRecord) -> None:
    """Append a late entrant to the field, on condition late entry is still open, no draw was
    published or begun since the entry was planned, and nobody was added meanwhile (`size`)."""
    tx = Transaction()
    tx.check(
        "tournament",
        MAIN,
        keys.tournament(tournament.id),
        "late_entry.#open = :yes AND draws = :draws AND attribute_not_exists(drawing)",
        names={"#open": "open"},
        values={"yes": True, "draws": tournament.draws},
    )
    tx.update(
        "field",
        MAIN,
        keys.field(tournament.id),
        "SET entrants = list_append(entrants, :new)",
        condition="size(entrants) = :size",
        values={"new": [dict(entrant)], "size": size},
    )
    pointer = {
        **keys.plain(keys.late_pointer(str(entrant["player_id"]), tournament.id)),
        "tournament_id": tournament.id,
        "starts_at": tournament.starts_at,
    }
    tx.put("pointer", MAIN, pointer)
    audit.record(tx, tournament.id, change)
    try:
        tx.run()
    except Cancelled as cancelled:
        raise LateEntryClosed(
            "Late entry closed, a draw was made or another player entered meanwhile: try again."
        ) from cancelled


def entered_late(tavla_id: str) -> dict[str, str]:
    """The tournaments the player was entered in late: tournament id -> its start."""
    found = query_prefix(
        MAIN, keys.player_pk(tavla_id), keys.LATE_PREFIX, ProjectionExpression="tournament_id, starts_at"
    )
    return {str(i["tournament_id"]): str(i["starts_at"]) for i in found}
