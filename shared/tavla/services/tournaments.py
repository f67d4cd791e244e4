"""Tournament pages (R2): created by organisers, read by anyone, changed by their own staff."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from tavla import ids
from tavla.caller import Caller
from tavla.errors import (
    Conflict,
    DivisionHasEntries,
    Forbidden,
    Invalid,
    PlayerNotFound,
    SeasonNotFound,
    SeriesNotInProfile,
)
from tavla.models.audit import AuditActor, AuditEntry, AuditTrail
from tavla.models.tournaments import (
    Calendar,
    EffectiveRules,
    Placement,
    PlacementRequest,
    Placements,
    Staff,
    StaffRole,
    StaffUpdate,
    Tournament,
    TournamentCreate,
    TournamentSettings,
    TournamentSummary,
    TournamentUpdate,
)
from tavla.models.tournaments import StaffMember as ApiStaffMember
from tavla.rules.errors import RuleViolation
from tavla.rules.tournament_settings import MoneySettings
from tavla.services import registrations
from tavla.services.access import ORGANISER, require_organiser, require_staff
from tavla.store import audit
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import tournaments as tournament_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import Actor, AuditRecord, StaffMember, TournamentRecord
from tavla.store.registrations import PENDING, REGISTERED, WAITLISTED

_system_random = random.SystemRandom()


def effective_rules(settings: TournamentSettings) -> EffectiveRules:
    """The rule profile's defaults with the page's own settings on top (R2.2).

    Raises Invalid when a setting breaks a rule of the game (e.g. an even match length).
    """
    lengths = settings.match_lengths
    overrides = {
        "match_length": lengths.default,
        "semi_final_length": lengths.semi_final,
        "final_length": lengths.final,
        "lives": settings.lives,
        "cube_used": settings.cube_used,
        "series": settings.series or None,
    }
    from tavla.rules import profiles  # ~60 ms of models: paid by the requests that resolve rules

    try:
        rules = profiles.resolve(settings.rule_profile, {k: v for k, v in overrides.items() if v is not None})
    except profiles.SeriesNotAvailable as error:
        raise SeriesNotInProfile(str(error)) from error
    except RuleViolation as error:
        raise Invalid(str(error)) from error
    return EffectiveRules(
        profile=rules.name,
        match_length=rules.match_length("default"),
        semi_final_length=rules.match_length("semi_final"),
        final_length=rules.match_length("final"),
        series=rules.series,
        cube_used=rules.cube_used,
        crawford=rules.crawford,
        lives=rules.lives,
        table_call_minutes=int(rules.table_call_deadline.total_seconds() // 60),
        appeal_window_minutes=int(rules.appeal_window.total_seconds() // 60),
        appeal_above_referee=rules.appeal.above_referee,
        appeal_committee_sizes=list(rules.appeal.committee_sizes),
        appeal_overturn_rule=rules.appeal.overturn_rule,
    )


# A page further ahead than this is a typo, not a plan.
MAX_AHEAD = timedelta(days=5 * 366)
_TIMES = ("starts_at", "registration_closes_at", "early_bird_deadline", "payment_deadline")


def _check_times(settings: TournamentSettings, now: datetime, being_set: Iterable[str] = _TIMES) -> None:
    """The times being set lie ahead, within MAX_AHEAD: no page starting in 2020 or closing in 607."""
    for name in set(_TIMES) & set(being_set):
        moment = getattr(settings, name)
        if moment is not None and moment <= now:
            raise Invalid(f"{name}: must be in the future.")
        if moment is not None and moment > now + MAX_AHEAD:
            raise Invalid(f"{name}: must be within five years from now.")


def _stored(settings: TournamentSettings) -> dict[str, Any]:
    """Settings as stored: JSON-mode values plus what conditions compare (capacity, close time)."""
    item = settings.model_dump(mode="json")
    item["closes_epoch"] = int(settings.registration_closes_at.timestamp())
    item["rules"] = effective_rules(settings).model_dump(mode="json")
    return item


def _check_season(season_id: str | None) -> None:
    """A tournament declares only a season an admin has set (R10.4): its points go nowhere else."""
    from tavla.store import season as season_store  # only a request naming a season pays this

    if season_id and season_store.get(season_id) is None:
        raise SeasonNotFound(f"No season {season_id}: a platform admin sets it first.")


def _tournament(record: TournamentRecord) -> Tournament:
    return Tournament.model_validate(record.public())


def create(
    caller: Caller, body: TournamentCreate, now: datetime, rng: random.Random = _system_random
) -> Tournament:
    """A new tournament page; the caller becomes its organiser (R2.1, R1.3)."""
    if not caller.is_organiser:
        raise Forbidden("Only organisers may create tournaments.")
    record, change = new_record(caller, body, now, rng)
    tournament_store.create(record, change)
    _schedule_payment_deadline(record.id, record.money.payment_deadline, now)
    return _tournament(record)


def new_record(
    caller: Caller, body: TournamentCreate, now: datetime, rng: random.Random = _system_random
) -> tuple[TournamentRecord, AuditRecord]:
    """A new tournament, the caller its organiser, and its audit entry: not written yet."""
    _check_times(body, now)
    _check_season(body.season_id)
    tavla_id = player_store.tavla_id_or_none(caller.sub)
    record = TournamentRecord(
        id=ids.opaque(rng),
        status="open",
        checkin_open=True,
        registered=0,
        waiting=0,
        wait_seq=0,
        version=1,
        created_at=now.isoformat(),
        created_by=caller.sub,
        staff={caller.sub: StaffMember(role=ORGANISER, tavla_id=tavla_id)},
        settings=_stored(body),
    )
    organiser = Actor(role=ORGANISER, tavla_id=tavla_id, sub=caller.sub)
    return record, audit_entry(organiser, "tournament_created", now)


def _schedule_payment_deadline(tournament_id: str, deadline: str | None, now: datetime) -> None:
    """A payment deadline takes effect however it is set (R3.2): its schedules are created."""
    if deadline:
        from tavla.services import unpaid  # its money models and schedules: loaded by a deadline set

        unpaid.schedule(tournament_id, deadline, now)


def get(tournament_id: str) -> Tournament:
    return _tournament(tournament_store.get(tournament_id))


def calendar(limit: int, after: str | None, upcoming: bool, now: datetime) -> Calendar:
    """The public calendar by start time: by default from yesterday on, so today's stay listed."""
    found, next_key = tournament_store.calendar(limit, after, now - timedelta(days=1) if upcoming else None)
    return Calendar(tournaments=[TournamentSummary.model_validate(t.public()) for t in found], next=next_key)


def update(caller: Caller, tournament_id: str, body: TournamentUpdate, now: datetime) -> Tournament:
    """Change settings; the whole result is validated again, so a change cannot break a rule."""
    current = tournament_store.get(tournament_id)
    organiser = require_organiser(current, caller)
    if not current.is_open:
        raise Conflict("The draw has been made: settings can no longer change.")
    changes = body.model_dump(mode="json", exclude_unset=True)
    settings_now = TournamentSettings.model_validate(
        {k: v for k, v in current.settings.items() if k in TournamentSettings.model_fields}
    ).model_dump(mode="json")
    try:
        merged = TournamentSettings.model_validate({**settings_now, **changes})
    except ValidationError as error:
        raise Invalid("; ".join(e["msg"] for e in error.errors())) from error
    _check_times(merged, now, being_set=changes)
    if "season_id" in changes:
        _check_season(merged.season_id)
    stored = _stored(merged)
    removed = set(registrations.division_order(current)) - {d.id for d in merged.divisions}
    _refuse_if_entered(current.id, removed)
    tournament_store.update_settings(
        current, stored, audit_entry(organiser, "settings_changed", now, fields=sorted(changes))
    )
    try:
        _refuse_if_entered(current.id, removed)  # an entry written between the check and the change
    except DivisionHasEntries:
        written = replace(current, settings={**current.settings, **stored}, version=current.version + 1)
        undone = audit_entry(organiser, "settings_restored", now, fields=sorted(changes))
        tournament_store.update_settings(written, current.stored_values(stored), undone)
        raise
    if "payment_deadline" in changes:
        _schedule_payment_deadline(tournament_id, MoneySettings.parse(stored).payment_deadline, now)
    if merged.capacity > current.capacity:
        registrations.fill_free_places(tournament_id, now)
    return get(tournament_id)


def _refuse_if_entered(tournament_id: str, removed: set[str]) -> None:
    """A division is removed only while nobody is entered in it (R3.7): an entry's division
    must stay one of the tournament's. New entries check the division as they are written
    (registration_store), so a check after the change catches any that came before it."""
    if not removed:
        return
    entered = [
        r
        for r in registration_store.all_entries(tournament_id)
        if r.division in removed and r.status in (REGISTERED, WAITLISTED, PENDING)
    ]
    if entered:
        names = ", ".join(sorted({r.division for r in entered}))
        raise DivisionHasEntries(
            f"divisions: {len(entered)} player(s) are entered in {names}; a division with entries stays."
        )


def put_staff(caller: Caller, tournament_id: str, body: StaffUpdate, now: datetime) -> Staff:
    """Replace the tournament's referees and organisers (R1.3); the caller stays organiser."""
    current = tournament_store.get(tournament_id)
    organiser = require_organiser(current, caller)
    profiles = player_store.get_profiles([m.tavla_id for m in body.staff])
    staff: dict[str, StaffMember] = {}
    for member in body.staff:
        profile = profiles.get(member.tavla_id)
        if profile is None or not profile.user_sub:
            raise PlayerNotFound(f"No player with Tavla ID {member.tavla_id}.")
        staff[profile.user_sub] = StaffMember(role=member.role, tavla_id=member.tavla_id)
    mine = current.staff.get(caller.sub)
    staff[caller.sub] = StaffMember(role=ORGANISER, tavla_id=mine.tavla_id if mine else None)
    tournament_store.update_staff(
        current,
        staff,
        audit_entry(organiser, "staff_changed", now, staff=[f"{m.tavla_id}:{m.role}" for m in body.staff]),
    )
    return _staff_list(staff)  # as GET .../staff shows it: the caller, kept as organiser, too


def staff(caller: Caller, tournament_id: str) -> Staff:
    """The tournament's referees and organisers as they are now (R1.3; its staff only).

    By Tavla ID; an organiser with no player profile (so no Tavla ID yet) is not listed.
    """
    current = tournament_store.get(tournament_id)
    require_staff(current, caller)
    return _staff_list(current.staff)


def _staff_list(staff: Mapping[str, StaffMember]) -> Staff:
    members = []
    for sub, member in staff.items():
        # the creator is staff from the start, before they may have had a profile
        tavla_id = member.tavla_id or player_store.tavla_id_or_none(sub)
        if tavla_id:
            role: StaffRole = "organiser" if member.role == ORGANISER else "referee"
            members.append(ApiStaffMember(tavla_id=tavla_id, role=role))
    return Staff(staff=sorted(members, key=lambda m: (m.role != "organiser", m.tavla_id)))


def audit_trail(caller: Caller, tournament_id: str, limit: int, after: str | None = None) -> AuditTrail:
    """Who did what, when: every change to this tournament and its lists (its staff only), a
    page at a time (`next` is the cursor of the following page).

    Actors are shown by Tavla ID and role; their user ids stay internal.
    """
    require_staff(tournament_store.get(tournament_id), caller)
    found, cursor = audit.records(tournament_id, limit, after)
    return AuditTrail(
        records=[
            AuditEntry(
                at=r.at,
                action=r.action,
                actor=AuditActor(role=r.actor.role, tavla_id=r.actor.tavla_id),
                details=dict(r.details),
            )
            for r in found
        ],
        next=cursor,
    )


def place(
    caller: Caller, tournament_id: str, tavla_id: str, body: PlacementRequest, now: datetime
) -> Placement:
    """Place a player (R3.7; its organisers): barred below `division`, invited up to it."""
    current = tournament_store.get(tournament_id)
    organiser = require_organiser(current, caller)
    if body.division is not None and body.division not in registrations.division_order(current):
        raise Invalid(f"division: this tournament has no division '{body.division}'.")
    player = player_store.get_profile(tavla_id)  # PlayerNotFound for an unknown Tavla ID
    change = audit_entry(organiser, "placed", now, tavla_id=tavla_id, division=body.division or "any")
    tournament_store.set_placement(current, tavla_id, body.division, change)
    return Placement(tavla_id=tavla_id, division=body.division, name=player.name)


def placements(caller: Caller, tournament_id: str) -> Placements:
    """Every player placed in a division, highest division first (R3.7; its organisers)."""
    current = tournament_store.get(tournament_id)
    require_organiser(current, caller)
    placed = {p: str(d) for p, d in current.placements.items() if d}
    profiles = player_store.get_profiles(list(placed)) if placed else {}
    order = registrations.division_order(current)

    def rank(tavla_id: str) -> tuple[int, str]:
        division = placed[tavla_id]
        return (order.index(division) if division in order else len(order), tavla_id)

    return Placements(
        placements=[
            Placement(tavla_id=p, division=placed[p], name=profiles[p].name if p in profiles else None)
            for p in sorted(placed, key=rank)
        ]
    )
