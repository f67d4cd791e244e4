"""Check-in at the referee table (R4): by pass, Tavla ID or phone; idempotent; staff only."""

from __future__ import annotations

from datetime import datetime

from tavla import observability, passes, phones
from tavla.errors import Conflict, NotRegistered, PlayerNotFound, TournamentNotFound
from tavla.http import Caller
from tavla.models.registrations import (
    CheckinRequest,
    CheckinResult,
    CheckinState,
    EntriesWithContacts,
    EntryWithContacts,
)
from tavla.services.access import require_organiser, require_staff
from tavla.services.registrations import entry_fields, ordered
from tavla.store import players as player_store
from tavla.store import registrations as store
from tavla.store import tournaments as tournament_store
from tavla.store.audit import audit_put
from tavla.store.dynamo import Item


def _who(body: CheckinRequest, now: datetime) -> str:
    if body.pass_ is not None:
        return passes.verify(body.pass_, now, passes.signing_key())
    if body.tavla_id is not None:
        return body.tavla_id
    assert body.phone is not None
    found = player_store.tavla_ids_by_phone(phones.normalise(body.phone))
    if not found:
        raise PlayerNotFound("No player has this phone number.")
    if len(found) > 1:
        raise Conflict("Several players share this phone number: check in by Tavla ID or pass.")
    return found[0]


def check_in(caller: Caller, tournament_id: str, body: CheckinRequest, now: datetime) -> CheckinResult:
    """Mark a player present. Scanning twice is fine; a waiting-list player may check in (R4.2)."""
    tavla_id = _who(body, now)
    snap = store.snapshot(tournament_id, tavla_id=tavla_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    require_staff(snap.tournament, caller)
    registration, profile = snap.registration, snap.profile
    if profile is None:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    if registration is None:
        raise NotRegistered(f"{tavla_id} is not registered for this tournament.")
    if "checked_in_at" in registration:
        return _result(profile, registration, registration["checked_in_at"], already=True)
    audit = audit_put(tournament_id, caller.sub, "checked_in", now, tavla_id=tavla_id)
    if store.check_in(tournament_id, tavla_id, caller.sub, now, audit):
        observability.count(observability.CHECKED_IN)
        return _result(profile, registration, now.isoformat(), already=False)
    again = store.snapshot(tournament_id, tavla_id=tavla_id).registration or registration
    return _result(profile, again, again.get("checked_in_at", now.isoformat()), already=True)


def _result(profile: Item, registration: Item, at: object, already: bool) -> CheckinResult:
    tavla_id = str(profile["tavla_id"])
    return CheckinResult(
        tavla_id=tavla_id,
        name=str(profile["name"]),
        club=profile.get("club"),
        status=registration["status"],
        already_checked_in=already,
        checked_in_at=str(at),
    )


def close(caller: Caller, tournament_id: str, now: datetime) -> CheckinState:
    """Close check-in (the organiser's call; the draw closes it too, R4.3)."""
    tournament = tournament_store.get(tournament_id)
    require_organiser(tournament, caller)
    tournament_store.set_checkin_open(
        tournament_id, False, audit_put(tournament_id, caller.sub, "checkin_closed", now)
    )
    return CheckinState(checkin_open=False)


def entries_with_contacts(caller: Caller, tournament_id: str) -> EntriesWithContacts:
    """The entry lists with phone and e-mail, for this tournament's staff only (R12.1)."""
    tournament = tournament_store.get(tournament_id)
    require_staff(tournament, caller)
    main, waiting = ordered(store.all_entries(tournament_id))
    ids = [r["tavla_id"] for r in main + waiting]
    profiles = player_store.get_profiles(ids)
    contacts = player_store.get_contacts(ids)

    def line(registration: Item, position: int) -> EntryWithContacts:
        private = contacts.get(registration["tavla_id"], {})
        return EntryWithContacts(
            **entry_fields(registration, position, profiles),
            phone=private.get("phone"),
            email=private.get("email"),
        )

    return EntriesWithContacts(
        main=[line(r, i) for i, r in enumerate(main, 1)],
        waiting=[line(r, i) for i, r in enumerate(waiting, 1)],
    )
