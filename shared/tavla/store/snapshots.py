"""Snapshot reads: what a request needs about one tournament, in one BatchGetItem."""

from __future__ import annotations

from dataclasses import dataclass

from tavla.frozen import Frozen
from tavla.store import keys
from tavla.store import registrations as registration_store
from tavla.store.dynamo import batch_get
from tavla.store.records import ProfileRecord, RegistrationRecord, TournamentRecord
from tavla.store.schema import MAIN


@dataclass(frozen=True, eq=False, repr=False)
class Snapshot(Frozen):
    """The tournament (if any), the caller's Tavla ID (if known), a player's entry and profile."""

    tavla_id: str | None
    tournament: TournamentRecord | None
    registration: RegistrationRecord | None = None
    profile: ProfileRecord | None = None
    caller: str | None = None  # the caller's own Tavla ID (asked by sub), whoever else is named


def snapshot(tournament_id: str, *, sub: str | None = None, tavla_id: str | None = None) -> Snapshot:
    """One strongly consistent call: the tournament, plus the caller's identity (by sub) or
    a player's registration and public profile (by Tavla ID)."""
    wanted = [keys.tournament(tournament_id)]
    if sub is not None:
        wanted.append(keys.identity(sub))
    if tavla_id is not None:
        wanted.append(keys.registration(tournament_id, tavla_id))
        wanted.append(keys.profile(tavla_id))
    found = batch_get(MAIN, wanted, consistent=True)
    by_sk = {i["sk"]: i for i in found}
    registration = next((i for i in found if i["sk"].startswith(keys.REG_PREFIX)), None)
    identity, meta, profile = by_sk.get("IDENTITY"), by_sk.get("META"), by_sk.get("PROFILE")
    return Snapshot(
        tavla_id=str(identity["tavla_id"]) if identity else tavla_id,
        tournament=TournamentRecord.from_item(meta) if meta else None,
        registration=registration_store.from_item(registration) if registration else None,
        profile=ProfileRecord.from_item(profile) if profile else None,
        caller=str(identity["tavla_id"]) if identity else None,
    )
