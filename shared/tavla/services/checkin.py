"""Check-in at the referee table (R4): by pass, Tavla ID or phone; idempotent; staff only."""

from __future__ import annotations

from datetime import datetime

from tavla import observability, passes, phones
from tavla.caller import Caller
from tavla.errors import ForgedPass, NotRegistered, PlayerNotFound, TournamentNotFound
from tavla.models.registrations import (
    CheckinRequest,
    CheckinResult,
    CheckinState,
    EntriesWithContacts,
    EntryWithContacts,
)
from tavla.services.access import require_organiser, require_staff
from tavla.services.registrations import entry_fields, ordered
from tavla.store import checkins as checkin_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import snapshots
from tavla.store import tournaments as tournament_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import ProfileRecord, RegistrationRecord
from tavla.store.registrations import PENDING, REGISTERED, WAITLISTED


def _named(body: CheckinRequest, now: datetime) -> tuple[str | None, ForgedPass | None]:
    """The Tavla ID the body names without any lookup (a pass is checked, its verdict kept back)."""
    if body.pass_ is not None:
        try:
            return passes.verify(body.pass_, now, passes.signing_key()), None
        except ForgedPass as forged:
            return None, forged
    return body.tavla_id, None


def _by_phone(phone: str) -> str:
    found = player_store.tavla_id_by_phone(phones.normalise(phone))
    if found is None:
        raise PlayerNotFound("No player has this phone number.")
    return found


def check_in(caller: Caller, tournament_id: str, body: CheckinRequest, now: datetime) -> CheckinResult:
    """Mark a player present. Scanning twice is fine; a waiting-list player may check in (R4.2).

    The staff check comes before anything about the player is looked up or told: a caller
    who is not this tournament's staff gets 403 whatever the body (no phone-number oracle).
    """
    tavla_id, forged = _named(body, now)
    snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
    if snap.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    referee = require_staff(snap.tournament, caller)
    if forged is not None:
        raise forged
    if tavla_id is None:
        assert body.phone is not None
        tavla_id = _by_phone(body.phone)
        snap = snapshots.snapshot(tournament_id, tavla_id=tavla_id)
    registration, profile = snap.registration, snap.profile
    if profile is None:
        raise PlayerNotFound(f"No player with Tavla ID {tavla_id}.")
    if registration is None or registration.status not in (REGISTERED, WAITLISTED):
        raise NotRegistered(f"{tavla_id} is not on this tournament's lists.")
    if registration.checked_in_at is not None:
        return _result(profile, registration, registration.checked_in_at, already=True)
    change = audit_entry(referee, "checked_in", now, tavla_id=tavla_id)
    if checkin_store.check_in(tournament_id, profile, referee.tavla_id, now, change):
        observability.count(observability.CHECKED_IN)
        return _result(profile, registration, now.isoformat(), already=False)
    again = snapshots.snapshot(tournament_id, tavla_id=tavla_id).registration or registration
    return _result(profile, again, again.checked_in_at or now.isoformat(), already=True)


def _result(
    profile: ProfileRecord, registration: RegistrationRecord, at: str, already: bool
) -> CheckinResult:
    return CheckinResult(
        tavla_id=profile.tavla_id,
        name=profile.name,
        club=profile.club,
        status=registration.status,
        already_checked_in=already,
        checked_in_at=at,
    )


def close(caller: Caller, tournament_id: str, now: datetime) -> CheckinState:
    """Close check-in (the organiser's call; the draw closes it too, R4.3)."""
    tournament = tournament_store.get(tournament_id)
    organiser = require_organiser(tournament, caller)
    tournament_store.set_checkin_open(tournament_id, False, audit_entry(organiser, "checkin_closed", now))
    return CheckinState(checkin_open=False)


def entries_with_contacts(caller: Caller, tournament_id: str) -> EntriesWithContacts:
    """The entry lists with phone and e-mail, for this tournament's staff only (R12.1)."""
    tournament = tournament_store.get(tournament_id)
    require_staff(tournament, caller)
    everyone = registration_store.all_entries(tournament_id)
    main, waiting = ordered(everyone)
    pending = sorted((r for r in everyone if r.status == PENDING), key=lambda r: r.registered_at)
    ids = [r.tavla_id for r in main + waiting + pending]
    profiles = player_store.get_profiles(ids)
    contacts = player_store.get_contacts(ids)

    def line(registration: RegistrationRecord, position: int) -> EntryWithContacts:
        private = contacts.get(registration.tavla_id)
        return EntryWithContacts(
            **entry_fields(registration, position, profiles),
            phone=private.phone if private else None,
            email=private.email if private else None,
        )

    return EntriesWithContacts(
        main=[line(r, i) for i, r in enumerate(main, 1)],
        waiting=[line(r, i) for i, r in enumerate(waiting, 1)],
        pending=[line(r, i) for i, r in enumerate(pending, 1)],
    )
