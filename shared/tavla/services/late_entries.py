"""Late entries (R5.5, R5.7): a Swiss or lives event takes players after its first draw.

The organiser opens late entry with what a late player starts with (no points or a half point
per missed round; lives) and closes it again; while it is open, the organiser enters a player
who arrives (at the desk, by Tavla ID). The player joins the next round drawn; the start is a
public input of that draw and every later one (`DrawInputs.late`), and the standings mark them.
"""

from __future__ import annotations

from datetime import datetime

from tavla.caller import Caller
from tavla.errors import Invalid, LateEntryClosed, LateEntryRefused, PlayerNotFound
from tavla.models.day import LateEntryPolicyBody, LateEntryRequest, LateEntryView
from tavla.rules import late_entries as rules
from tavla.services import day
from tavla.services.access import require_organiser
from tavla.services.draw import division_to_draw
from tavla.store import draws as draw_store
from tavla.store import late_entries as late_store
from tavla.store import players as player_store
from tavla.store import tournaments as tournament_store
from tavla.store.audit import entry as audit_entry

FORMATS = ("swiss", "lives")


def set_policy(
    caller: Caller, tournament_id: str, body: LateEntryPolicyBody, now: datetime
) -> LateEntryPolicyBody:
    """Open or close late entry (its organisers; Swiss and lives only, 409 otherwise)."""
    tournament = tournament_store.get(tournament_id)
    organiser = require_organiser(tournament, caller)
    if tournament.play.format not in FORMATS:
        raise LateEntryRefused(
            f"Only Swiss and lives events take late entries, not {tournament.play.format}."
        )
    _fits(tournament.play.format, body)
    policy = body.model_dump(mode="json", exclude_none=True)
    change = audit_entry(organiser, "late_entry_opened" if body.open else "late_entry_closed", now, **policy)
    late_store.set_policy(tournament_id, policy, change)
    return body


def _fits(format: str, body: LateEntryPolicyBody) -> None:
    """A start the format has no use for is refused, not stored and silently ignored: a lives
    event counts lives, not points; a Swiss counts points, not lives."""
    if format == "lives" and body.points != "none":
        raise Invalid("points: a lives event starts a late player with lives, not points.")
    if format == "swiss" and body.lives is not None:
        raise Invalid("lives: a Swiss starts a late player with points, not lives.")


def enter(caller: Caller, tournament_id: str, body: LateEntryRequest, now: datetime) -> LateEntryView:
    """Enter a player late (its organisers, while late entry is open): they are paired from the
    next round drawn with the start the policy gives. 409 when closed, before the first draw,
    or when the player is already in the field; 404 for a player without a profile."""
    current = draw_store.day(tournament_id)
    tournament = current.tournament
    if tournament is None:
        tournament = tournament_store.get(tournament_id)  # raises the 404
    organiser = require_organiser(tournament, caller)
    if not (tournament.late_entry and tournament.late_entry.get("open")):
        raise LateEntryClosed("Late entry is not open: open it first.")
    field = current.field
    if field is None or tournament.draws == 0:
        raise LateEntryRefused("The first round is not drawn yet: the player checks in as usual.")
    key = division_to_draw(tournament, body.division)
    if any(e["player_id"] == body.tavla_id for e in field.entrants):
        raise LateEntryRefused(f"{body.tavla_id} is already in the field.")
    profile = player_store.get_profiles([body.tavla_id]).get(body.tavla_id)
    if profile is None:
        raise PlayerNotFound(f"No player {body.tavla_id}.")
    rounds = [r.round for r in current.rounds if day.division_of(r) == key and r.event == "main"]
    policy = rules.LateEntryPolicy.model_validate(
        {k: v for k, v in tournament.late_entry.items() if k in ("points", "lives")}
    )
    settings = day.settings_of(tournament)
    try:
        start = rules.late_entry(
            policy, settings.format, body.tavla_id, max(rounds, default=0) + 1, settings.lives
        )
    except rules.LateEntryRefused as refused:
        raise LateEntryRefused(str(refused)) from refused
    entrant: dict[str, object] = {
        "player_id": body.tavla_id,
        "rating": float(profile.rating),
        "name": profile.name,
        "late": start.model_dump(mode="json", exclude={"player_id"}, exclude_none=True),
    }
    if profile.club:
        entrant["club"] = profile.club
    if key is not None:
        entrant["division"] = key
    change = audit_entry(organiser, "late_entry", now, tavla_id=body.tavla_id, round=start.round)
    late_store.add(tournament, len(field.entrants), entrant, change)
    return LateEntryView(
        tavla_id=body.tavla_id, round=start.round, points=start.half_points / 2, lives=start.lives
    )
