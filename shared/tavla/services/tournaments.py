"""Tournament pages (R2): created by organisers, read by anyone, changed by their own staff."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from tavla import ids
from tavla.errors import Conflict, Forbidden, Invalid, PlayerNotFound
from tavla.http import Caller
from tavla.models.tournaments import (
    Calendar,
    EffectiveRules,
    Staff,
    StaffUpdate,
    Tournament,
    TournamentCreate,
    TournamentSettings,
    TournamentSummary,
    TournamentUpdate,
)
from tavla.rules.errors import RuleViolation
from tavla.services import registrations
from tavla.services.access import ORGANISER, require_organiser, require_staff
from tavla.store import audit
from tavla.store import players as player_store
from tavla.store import tournaments as store
from tavla.store.audit import audit_put
from tavla.store.dynamo import Item

_system_random = random.SystemRandom()
_STATE = ("id", "status", "checkin_open", "registered", "waiting", "created_at")


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
    }
    from tavla.rules import profiles  # ~60 ms of models: paid by the requests that resolve rules

    try:
        rules = profiles.resolve(settings.rule_profile, {k: v for k, v in overrides.items() if v is not None})
    except RuleViolation as error:
        raise Invalid(str(error)) from error
    return EffectiveRules(
        profile=rules.name,
        match_length=rules.match_length("default"),
        semi_final_length=rules.match_length("semi_final"),
        final_length=rules.match_length("final"),
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
_TIMES = ("starts_at", "registration_closes_at", "early_bird_deadline")


def _check_times(settings: TournamentSettings, now: datetime, being_set: Iterable[str] = _TIMES) -> None:
    """The times being set lie ahead, within MAX_AHEAD: no page starting in 2020 or closing in 607."""
    for name in set(_TIMES) & set(being_set):
        moment = getattr(settings, name)
        if moment is not None and moment <= now:
            raise Invalid(f"{name}: must be in the future.")
        if moment is not None and moment > now + MAX_AHEAD:
            raise Invalid(f"{name}: must be within five years from now.")


def _stored(settings: TournamentSettings) -> Item:
    """Settings as stored: JSON-mode values plus what conditions compare (capacity, close time)."""
    item = settings.model_dump(mode="json")
    item["closes_epoch"] = int(settings.registration_closes_at.timestamp())
    item["rules"] = effective_rules(settings).model_dump(mode="json")
    return item


def _tournament(item: Item) -> Tournament:
    return Tournament.model_validate(item)


def create(
    caller: Caller, body: TournamentCreate, now: datetime, rng: random.Random = _system_random
) -> Tournament:
    """A new tournament page; the caller becomes its organiser (R2.1, R1.3)."""
    if not caller.is_organiser:
        raise Forbidden("Only organisers may create tournaments.")
    _check_times(body, now)
    tournament_id = ids.opaque(rng)
    item = {
        **_stored(body),
        "id": tournament_id,
        "status": "open",
        "checkin_open": True,
        "registered": 0,
        "waiting": 0,
        "wait_seq": 0,
        "version": 1,
        "staff": {caller.sub: {"role": ORGANISER}},
        "created_at": now.isoformat(),
        "created_by": caller.sub,
        "gsi1pk": "TOURNAMENTS",
        "gsi1sk": store.calendar_sort_key(body.starts_at, tournament_id),
    }
    store.create(item, audit_put(tournament_id, caller.sub, "tournament_created", now))
    return _tournament(item)


def get(tournament_id: str) -> Tournament:
    return _tournament(store.get(tournament_id))


def calendar(limit: int, after: str | None, upcoming: bool, now: datetime) -> Calendar:
    """The public calendar by start time: by default from yesterday on, so today's stay listed."""
    items, next_key = store.calendar(limit, after, now - timedelta(days=1) if upcoming else None)
    return Calendar(tournaments=[TournamentSummary.model_validate(i) for i in items], next=next_key)


def update(caller: Caller, tournament_id: str, body: TournamentUpdate, now: datetime) -> Tournament:
    """Change settings; the whole result is validated again, so a change cannot break a rule."""
    current = store.get(tournament_id)
    require_organiser(current, caller)
    if current["status"] != "open":
        raise Conflict("The draw has been made: settings can no longer change.")
    changes = body.model_dump(mode="json", exclude_unset=True)
    settings_now = TournamentSettings.model_validate(
        {k: v for k, v in current.items() if k in TournamentSettings.model_fields}
    ).model_dump(mode="json")
    try:
        merged = TournamentSettings.model_validate({**settings_now, **changes})
    except ValidationError as error:
        raise Invalid("; ".join(e["msg"] for e in error.errors())) from error
    _check_times(merged, now, being_set=changes)
    stored = _stored(merged)
    diff = {k: v for k, v in stored.items() if current.get(k) != v}
    if "starts_at" in diff:
        diff["gsi1sk"] = store.calendar_sort_key(merged.starts_at, tournament_id)
    if diff:
        store.update_settings(
            tournament_id,
            int(current["version"]),
            diff,
            audit_put(tournament_id, caller.sub, "settings_changed", now, fields=sorted(changes)),
        )
    if merged.capacity > current["capacity"]:
        registrations.fill_free_places(tournament_id, now)
    return get(tournament_id)


def put_staff(caller: Caller, tournament_id: str, body: StaffUpdate, now: datetime) -> Staff:
    """Replace the tournament's referees and organisers (R1.3); the caller stays organiser."""
    current = store.get(tournament_id)
    require_organiser(current, caller)
    profiles = player_store.get_profiles([m.tavla_id for m in body.staff])
    staff: dict[str, Any] = {}
    for member in body.staff:
        profile = profiles.get(member.tavla_id)
        if profile is None or not profile.get("user_sub"):
            raise PlayerNotFound(f"No player with Tavla ID {member.tavla_id}.")
        staff[profile["user_sub"]] = {"role": member.role, "tavla_id": member.tavla_id}
    staff[caller.sub] = {**(current["staff"].get(caller.sub) or {}), "role": ORGANISER}
    store.update_staff(
        tournament_id,
        int(current["version"]),
        staff,
        audit_put(
            tournament_id,
            caller.sub,
            "staff_changed",
            now,
            staff=[f"{m.tavla_id}:{m.role}" for m in body.staff],
        ),
    )
    return Staff(staff=body.staff)


def audit_trail(caller: Caller, tournament_id: str, limit: int) -> dict[str, Any]:
    """Who did what, when: every staff action on this tournament (its staff only)."""
    require_staff(store.get(tournament_id), caller)
    return {"records": audit.records(tournament_id, limit)}
