"""Clubs as records of the federation (R1.2, R5.2, R10.3): kept by its admins, chosen by players.

The draw's club protection and the club rating lists go by the club's id, so two clubs that
share a name stay two, and one club typed three ways becomes one once an admin merges the
spellings. Free-text clubs typed before the records existed keep working (shown, filtered by
their text) until they are mapped; the near-duplicate list is the one-time mapping's worklist.
"""

from __future__ import annotations

import random
from dataclasses import asdict, replace
from datetime import datetime
from typing import Any

from tavla import ids
from tavla.caller import Caller
from tavla.errors import ClubNotFound, Invalid, NoSuchClub
from tavla.models.federation import (
    Club,
    ClubBody,
    ClubMerge,
    ClubMerged,
    ClubSpelling,
    ClubUpdate,
    NearDuplicateClubs,
    PublicClub,
)
from tavla.rules.clubs import folded, near_duplicates
from tavla.services.roles import adopt_admin
from tavla.store import audit
from tavla.store import clubs as club_store
from tavla.store.clubs import ClubRecord

_system_random = random.SystemRandom()


def _club(record: ClubRecord) -> Club:
    return Club.model_validate({k: v for k, v in asdict(record).items() if k != "merged_into"})


def public_list() -> list[PublicClub]:
    """Every club, by name: what a player chooses from (no contact, R12.1)."""
    kept = (c for c in club_store.every_club() if not c.merged_into)
    return [
        PublicClub(id=c.id, name=c.name, city=c.city, short_name=c.short_name)
        for c in sorted(kept, key=lambda c: (folded(c.name), c.id))
    ]


def admin_list(caller: Caller, now: datetime) -> list[Club]:
    adopt_admin(caller, now)
    kept = (c for c in club_store.every_club() if not c.merged_into)
    return [_club(c) for c in sorted(kept, key=lambda c: (folded(c.name), c.id))]


def create(caller: Caller, body: ClubBody, now: datetime, rng: random.Random = _system_random) -> Club:
    actor = adopt_admin(caller, now)
    record = ClubRecord(id=ids.tavla_id(rng), created_at=now.isoformat(), **body.model_dump())
    while not club_store.create(
        record, audit.entry(actor, "club created", now, club=record.id, name=record.name)
    ):
        record = replace(record, id=ids.tavla_id(rng))  # an id drawn twice (30^7): draw again
    return _club(record)


def update(caller: Caller, club_id: str, body: ClubUpdate, now: datetime) -> Club:
    """Edit a club; a new name reaches its members' profiles (what boards and lists show)."""
    actor = adopt_admin(caller, now)
    current = club_store.get(club_id)
    if current.merged_into:
        raise NoSuchClub(f"Club {club_id} was merged into {current.merged_into}.")
    changes = body.model_dump(exclude_unset=True)
    for required in ("name", "city", "short_name"):
        if required in changes and changes[required] is None:
            raise Invalid(f"{required}: a club needs one.")
    edited = replace(current, **changes, updated_at=now.isoformat())
    change = audit.entry(actor, "club edited", now, club=club_id, fields=sorted(changes))
    club_store.replace(edited, current.updated_at, change)
    if edited.name != current.name:
        for member in club_store.members([], [club_id]):
            club_store.move_member(member, edited)
    return _club(edited)


def chosen(club_id: str) -> ClubRecord:
    """The club a player chooses: one the federation keeps (ClubNotFound, 422, otherwise)."""
    try:
        club = club_store.get(club_id)
    except NoSuchClub:
        raise ClubNotFound(f"club_id: no club {club_id}: choose one from GET /clubs.") from None
    if club.merged_into:
        return club_store.get(club.merged_into)
    return club


def near_duplicate_clubs(caller: Caller, now: datetime) -> list[NearDuplicateClubs]:
    """The free-text clubs still on profiles, grouped where they look like one club, each with
    the record whose name reads the same (if any): the admin's worklist for the mapping."""
    adopt_admin(caller, now)
    by_name = {folded(c.name): c.id for c in club_store.every_club() if not c.merged_into}
    groups = near_duplicates(club_store.free_text_clubs())
    return [
        NearDuplicateClubs(
            spellings=[ClubSpelling(name=s.name, players=s.players) for s in g.spellings],
            players=g.players,
            club_id=next((by_name[folded(s.name)] for s in g.spellings if folded(s.name) in by_name), None),
        )
        for g in groups
    ]


def merge(caller: Caller, club_id: str, body: ClubMerge, now: datetime) -> ClubMerged:
    """Fold spellings and duplicate records into one club: every player typed so, or in a
    duplicate, gets the club's id and name. Repeating it moves nobody twice (idempotent);
    a player who changes their club meanwhile keeps their own choice."""
    actor = adopt_admin(caller, now)
    kept = club_store.get(club_id)
    if kept.merged_into:
        raise NoSuchClub(f"Club {club_id} was merged into {kept.merged_into}: merge into that one.")
    duplicates = [club_store.get(c) for c in dict.fromkeys(body.clubs) if c != club_id]
    change = audit.entry(
        actor,
        "clubs merged",
        now,
        club=club_id,
        spellings=list(body.spellings),
        clubs=[d.id for d in duplicates],
    )
    club_store.mark_merged([d for d in duplicates if d.merged_into != club_id], kept, change)
    members = club_store.members(body.spellings, [d.id for d in duplicates])
    moved = sum(club_store.move_member(m, kept) for m in members)
    return ClubMerged(club=_club(kept), moved=moved, changed_meanwhile=len(members) - moved)


def profile_fields(public: dict[str, Any]) -> dict[str, Any]:
    """A profile's club fields as written: a chosen `club_id` brings the club's name with it;
    free text (the old way, still accepted) drops any chosen club; `club_id: null` clears both."""
    if "club_id" in public:
        club_id = public["club_id"]
        if club_id is None:
            return {**public, "club": None}
        club = chosen(str(club_id))
        return {**public, "club_id": club.id, "club": club.name}
    if "club" in public:
        return {**public, "club_id": None}
    return public
