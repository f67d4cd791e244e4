"""Redrawing a published round (R5.1): its organiser only, with a reason everyone sees.

A redraw is a new attempt at the same draw number: its seed follows from the committed secret
and the attempt, so the organiser cannot try seeds until one pleases; the inputs are planned
again from the day as it stands (a player who withdrew meanwhile is left out). The draw it
replaces stays on the public page with the reason ("redrawn: reason"), and the audit trail
records both. Once a result of the round is entered, or a later draw of its division is
made, the round stands (409).

However many matches the round holds (a 256-player Swiss round has 128), the new attempt is
staged under its own keys, where no reader looks, and shown by one switch on the tournament
(`store.draws.stage`, `store.draws.switch`, decision 0047): every reader sees one whole
attempt; a crash before the switch leaves the published round as it was, and the retry
stages the same matches again. A call or a result meanwhile refuses the switch (the plan's
version, the replaced matches' versions); a write read before it is refused after it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from tavla import clock, observability
from tavla.caller import Caller
from tavla.errors import DrawInProgress, RoundNotFound, RoundPlayed, TournamentNotFound
from tavla.models.day import RoundView
from tavla.rules import day as rules_day
from tavla.rules import model
from tavla.rules.states import State
from tavla.services import day, progress
from tavla.services.access import require_organiser
from tavla.services.draw import drawn_records, plan_draw, round_record_of, round_view, seed_for
from tavla.store import draws as draw_store
from tavla.store import hall as hall_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import FINISHED, Actor, FixtureRecord, RoundRecord, TablesRecord

_system_random = random.SystemRandom()
ENTERED = frozenset({State.PLAYING, State.FINISHED, State.DISPUTED, State.OFFICIAL})


def _entered(record: FixtureRecord) -> bool:
    """A result (or a score) of this match is on record: the round is being played."""
    return record.state in ENTERED or bool(record.games) or record.appeal is not None


def redraw(
    caller: Caller,
    tournament_id: str,
    number: int,
    reason: str,
    now: datetime,
    rng: random.Random = _system_random,
) -> RoundView:
    """Draw published round `number` again, for `reason` (its organisers only, R5.1).

    404 for a round not published; 409 once a result of it is entered or a later draw of its
    division is made, while another draw is being made, or when the round changes (a call, a
    result) while it is redrawn."""
    current = draw_store.day(tournament_id)
    tournament = current.tournament
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    organiser = require_organiser(tournament, caller)
    found = next((r for r in current.rounds if r.number == number), None)
    if found is None:
        raise RoundNotFound(f"Tournament {tournament_id} has no published draw {number}.")
    if tournament.status == FINISHED:
        raise RoundPlayed("The tournament is finished: its draws stand.")
    if tournament.drawing:
        raise DrawInProgress("Another draw of this tournament is being made: try again once it is published.")
    key = day.division_of(found)
    if any(day.division_of(r) == key and r.number > number for r in current.rounds):
        raise RoundPlayed(f"A later draw depends on draw {number}: it can no longer be redrawn.")
    attempt = found.attempt + 1
    # from here until the switch no write of the round lands; the matches are read after it
    draw_store.fence(tournament, number, attempt, clock.now())
    try:
        _redraw_fenced(current, found, organiser, key, attempt, reason, now, rng)
    except BaseException:
        draw_store.unfence(tournament_id, number, attempt)
        raise
    observability.count(observability.DRAW_PUBLISHED)
    return round_view(tournament_id, number)


def _redraw_fenced(
    current: draw_store.Day,
    found: RoundRecord,
    organiser: Actor,
    key: str | None,
    attempt: int,
    reason: str,
    now: datetime,
    rng: random.Random,
) -> None:
    """The redraw once its fence holds the round's writes: read, draw, stage, switch."""
    tournament = current.tournament
    assert tournament is not None
    tournament_id, number = tournament.id, found.number
    everything = draw_store.draw_items(tournament_id)
    old = [r for r in everything if r.draw == number and draw_store.shown(tournament, r)]
    if any(_entered(r) for r in old):
        raise RoundPlayed(f"A result of draw {number} has been entered: it can no longer be redrawn.")
    planned = plan_draw(current, tournament, key, number, now, before=number)
    inputs = planned.inputs
    if inputs.event != found.event:
        raise RoundPlayed(f"Draw {number} can no longer be made again as it was ({found.event}).")
    seed = seed_for(found.secret, number, attempt, rng)
    drawn = rules_day.compute_draw(inputs, seed)
    field = planned.field
    old_codes = {r.code for r in old}
    tables = _without(current.tables, old_codes)
    aggregate = model.Day(
        tournament_id=tournament_id,
        table_count=day.table_count(tournament, len(field.entrants)),
        field=field,
        tables=tables,
        matches={r.code: r for r in planned.records},
        fixtures=[f for d in planned.draws for f in d.fixtures],
        elsewhere=hall_store.elsewhere(current.tables),
    )
    placed = aggregate.publish_draw(drawn, drawn_records(tournament, number, key, drawn), now)
    assert placed.tables is not None
    earlier = (*found.earlier, _as_earlier(found, old, reason, now))
    replaced = round_record_of(tournament_id, drawn, now, found.secret, attempt=attempt, earlier=earlier)
    matches = [replace(r, attempt=attempt) for r, _ in placed.matches]
    change = draw_store.Redrawn(
        tournament=tournament,
        old=old,
        matches=matches,
        round_record=replaced,
        previous_attempt=found.attempt,
        tables=placed.tables[0],
        previous_tables_version=placed.tables[1],
        called=tuple(r.code for r in placed.called),
    )
    audited = audit_entry(
        organiser,
        "draw_redrawn",
        now,
        number=number,
        attempt=attempt,
        reason=reason,
        seed=seed,
        digest=replaced.digest,
        replaced_digest=found.digest,
        **({"division": key} if key else {}),
    )
    # staged where no reader looks, however many matches; an earlier try's leftovers go
    kept = {r.code for r in matches}
    leftovers = [r for r in everything if r.draw == number and r.attempt == attempt and r.code not in kept]
    draw_store.stage(change, leftovers)
    draw_store.switch(change, audited, [progress.outbox_event(e) for e in placed.events], clock.now())


def _without(tables: TablesRecord | None, codes: set[str]) -> TablesRecord | None:
    """The table plan with the replaced draw's matches taken off their tables and the queue."""
    if tables is None:
        return None
    return replace(
        tables,
        occupied={t: c for t, c in tables.occupied.items() if c not in codes},
        queue=tuple(c for c in tables.queue if c not in codes),
    )


def _as_earlier(
    found: RoundRecord, old: list[FixtureRecord], reason: str, now: datetime
) -> dict[str, object]:
    """The replaced draw as the public page keeps showing it."""
    return {
        "attempt": found.attempt,
        "seed": found.seed,
        "digest": found.digest,
        "published_at": found.published_at,
        "pairings": [[r.code, r.home, r.away] for r in sorted(old, key=lambda r: r.position)],
        "reason": reason,
        "redrawn_at": now.isoformat(),
    }
