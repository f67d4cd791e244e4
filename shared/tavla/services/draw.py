"""Draws (R4.2, R5): the organiser draws the next round through the API; anyone reads them.

The first draw closes check-in and fixes the field: checked-in players of the main list, then
checked-in waiting-list players in waiting order up to capacity (R4.2). Each draw records its
seed and the digest of its public inputs (R5.1), is published atomically however many
matches it holds, and seats its playable matches at the venue's tables; the table calls,
notifications and no-show schedules follow from the `MatchesCalled` event.

A tournament of several divisions (R3.7) is drawn one division at a time: the organiser
names the division, and its draw sees only that division's players, draws and results. The
first draw of any division fixes the whole field (check-in closes for every division); the
venue's tables are shared.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tavla import observability
from tavla.caller import Caller
from tavla.errors import (
    AppealOpen,
    DrawInProgress,
    Invalid,
    NotCommitted,
    NotEnoughPlayers,
    NothingToDraw,
    RoundInProgress,
    RoundNotFound,
    TournamentNotFound,
)
from tavla.frozen import Frozen
from tavla.models.day import DrawPreview, EarlierDraw, PlayerRef, PreviewPairing, Rounds, RoundView
from tavla.rules import commitment as rules_commitment
from tavla.rules import day as rules_day
from tavla.rules import model
from tavla.rules.double_elimination import Source
from tavla.rules.states import State
from tavla.services import commitment, day, progress
from tavla.services.access import require_organiser
from tavla.store import draws as draw_store
from tavla.store import hall as hall_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import (
    FINISHED,
    Actor,
    FieldRecord,
    FixtureRecord,
    RoundRecord,
    TournamentRecord,
)
from tavla.store.registrations import REGISTERED, WAITLISTED

_system_random = random.SystemRandom()


def _field(tournament: TournamentRecord, now: datetime) -> FieldRecord:
    """Who is in the draw (R4.2): checked in, main list first, then the waiting list in order;
    each with their division when the tournament has several (R3.7)."""
    several = day.divisions(tournament) != [None]
    everyone = registration_store.all_entries(tournament.id)
    present = [r for r in everyone if r.checked_in_at is not None]
    main = sorted((r for r in present if r.status == REGISTERED), key=lambda r: (r.listed_at, r.tavla_id))
    waiting = sorted((r for r in present if r.status == WAITLISTED), key=lambda r: r.wait_seq or 0)
    chosen = (main + waiting)[: tournament.capacity]
    if len(chosen) < 2:
        raise NotEnoughPlayers(f"{len(chosen)} player(s) checked in: a draw needs at least two.")
    # entries checked in before ratings and names went on the entry: read their profiles
    missing = [r.tavla_id for r in chosen if r.rating is None or r.player_name is None]
    profiles = player_store.get_profiles(missing) if missing else {}
    entrants = []
    for r in chosen:
        profile = profiles.get(r.tavla_id)
        rating = r.rating if r.rating is not None else (profile.rating if profile else 1500.0)
        club = r.club if r.club is not None else (profile.club if profile else None)
        club_id = r.club_id if r.club is not None else (profile.club_id if profile else None)
        name = r.player_name or (profile.name if profile else None)
        entrant = {"player_id": r.tavla_id, "rating": float(rating), "name": name}
        if club:
            entrant["club"] = club
        if club_id:  # protection compares records, not spellings (R5.2)
            entrant["club_id"] = club_id
        if several:
            entrant["division"] = r.division
        entrants.append(entrant)
    return FieldRecord(tournament_id=tournament.id, fixed_at=now.isoformat(), entrants=tuple(entrants))


def division_to_draw(tournament: TournamentRecord, asked: str | None) -> str | None:
    """The division to draw (R3.7): named when the tournament has several; None when it has one."""
    keys = day.divisions(tournament)
    if keys == [None]:
        only = tournament.play.divisions[0]
        if asked not in (None, only):
            raise Invalid(f"division: this tournament has no division '{asked}'.")
        return None
    if asked is None:
        raise Invalid(
            f"division: this tournament has several divisions; draw one of {', '.join(map(str, keys))}."
        )
    if asked not in keys:
        raise Invalid(f"division: this tournament has no division '{asked}'.")
    return asked


@dataclass(frozen=True, eq=False, repr=False)
class _Planned(Frozen):
    """The next draw of a division as the published ones leave it: its inputs and what they
    were read from."""

    field: FieldRecord
    records: list[FixtureRecord]  # the division's published matches
    draws: list[rules_day.Draw]
    inputs: rules_day.DrawInputs


def plan_draw(
    current: draw_store.Day,
    tournament: TournamentRecord,
    key: str | None,
    number: int,
    now: datetime,
    field: FieldRecord | None = None,
    before: int | None = None,
) -> _Planned:
    """Plan draw `number` of division `key` (R5): from the division's published draws (those
    before draw `before` only, when one is redrawn); 409 while results it needs are pending
    or an appeal is open."""
    field = field or current.field or _field(tournament, now)
    entrants = day.entrants(field, key)
    if len(entrants) < 2:
        raise NotEnoughPlayers(f"{len(entrants)} player(s) of division '{key}' checked in: a draw needs two.")
    rounds = [
        r for r in current.rounds if day.division_of(r) == key and (before is None or r.number < before)
    ]
    numbers = {r.number for r in rounds}
    everything = draw_store.fixtures(tournament) if tournament.draws else []
    records = [r for r in everything if r.draw in numbers]
    if any(r.appeal for r in records):
        raise AppealOpen("An appeal is open: the next draw waits for its decision (R9.2).")
    settings = day.settings_of(tournament)
    draws = day.draws_of(rounds, records)
    winners, scores = day.results_of(records)
    try:
        inputs = rules_day.plan_next_draw(
            settings, entrants, draws, winners, scores, day.out_of_play(field), day.late_entries(field, key)
        )
    except rules_day.RoundInProgress as pending:
        raise RoundInProgress(str(pending)) from pending
    except rules_day.NothingToDraw as done:
        raise NothingToDraw(str(done)) from done
    inputs = inputs.model_copy(update={"number": number, "division": key})
    return _Planned(field=field, records=records, draws=draws, inputs=inputs)


def _organised(current: draw_store.Day, tournament_id: str, caller: Caller) -> tuple[TournamentRecord, Actor]:
    """The tournament, still running, and its organiser calling (404, 403, 409 otherwise)."""
    tournament = current.tournament
    if tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    organiser = require_organiser(tournament, caller)
    if tournament.status == FINISHED:
        raise NothingToDraw("The tournament is finished.")
    return tournament, organiser


def draw_next(
    caller: Caller,
    tournament_id: str,
    now: datetime,
    rng: random.Random = _system_random,
    division: str | None = None,
) -> RoundView:
    """Draw the next round (the whole bracket for elimination formats, R5.3, R5.4, R5.6), of
    `division` when the tournament has several (R3.7).

    The first draw commits to the seed if the organiser has not yet (R5.1); its seed and
    every later one's follow from the committed secret, which the draw reveals.
    409 while results it depends on are pending, while an appeal is open, when every draw is
    made, or when another draw is being published at the same moment.
    """
    current = draw_store.day(tournament_id)
    tournament, organiser = _organised(current, tournament_id, caller)
    key = division_to_draw(tournament, division)
    number = tournament.draws + 1
    reserved = (
        tournament.drawing if tournament.drawing and tournament.drawing.get("number") == number else None
    )
    if reserved and reserved.get("division") != key:
        raise DrawInProgress(
            f"Draw {number} of division '{reserved.get('division')}' is being made or was interrupted: "
            "draw that division again first."
        )
    planned = plan_draw(current, tournament, key, number, now)
    field, records, draws, inputs = planned.field, planned.records, planned.draws, planned.inputs
    if tournament.draw_secret is None and tournament.draws == 0 and reserved is None:
        tournament = commitment.ensure(organiser, tournament, now, rng)
    secret = tournament.draw_secret
    seed = int(reserved["seed"]) if reserved else seed_for(secret, number, 1, rng)
    if reserved is None:
        change = audit_entry(
            organiser, "draw_reserved", now, number=number, **({"division": key} if key else {})
        )
        try:
            draw_store.reserve(tournament, number, seed, key, None if current.field else field, change)
        except DrawInProgress:
            again = draw_store.day(tournament_id, with_rounds=False)
            mine = again.tournament.drawing if again.tournament else None
            if not mine or mine.get("number") != number or mine.get("division") != key or again.field is None:
                raise
            # a draw that was interrupted, or made at this moment: both write the same matches
            seed, field = int(mine["seed"]), again.field
            inputs = plan_draw(current, tournament, key, number, now, field=field).inputs
    drawn = rules_day.compute_draw(inputs, seed)
    aggregate = model.Day(
        tournament_id=tournament_id,
        table_count=day.table_count(tournament, len(field.entrants)),
        field=field,
        tables=current.tables,
        matches={r.code: r for r in records},
        fixtures=[f for d in draws for f in d.fixtures],
        elsewhere=hall_store.elsewhere(current.tables),
    )
    placed = aggregate.publish_draw(drawn, drawn_records(tournament, number, key, drawn), now)
    new_records = [r for r, _ in placed.matches]
    draw_store.write_fixtures(new_records)
    round_record = round_record_of(tournament_id, drawn, now, secret)
    published = audit_entry(
        organiser,
        "draw_published",
        now,
        number=number,
        event=inputs.event,
        seed=seed,
        digest=round_record.digest,
        **({"division": key} if key else {}),
    )
    assert placed.tables is not None
    # the round's calls are written with the round: notices and deadlines follow from them
    called = [progress.outbox_event(e) for e in placed.events]
    draw_store.publish(
        tournament, round_record, *placed.tables, published, called, [r.code for r in placed.called]
    )
    observability.count(observability.DRAW_PUBLISHED)
    people = day.names(field)
    return RoundView(
        **day.round_summary(round_record).model_dump(),
        inputs=round_record.inputs,
        seed_list=list(round_record.seed_list),
        pairings=[day.match_view(tournament_id, r, people) for r in new_records],
    )


def round_record_of(
    tournament_id: str, drawn: rules_day.Draw, now: datetime, secret: str | None, **redrawn: Any
) -> RoundRecord:
    """A computed draw as published: what it holds, its seed, the digest of its inputs (R5.1)."""
    inputs = drawn.inputs
    return RoundRecord(
        tournament_id=tournament_id,
        number=inputs.number,
        event=inputs.event,
        round=inputs.round,
        seed=drawn.seed,
        digest=rules_day.digest(inputs),
        inputs=inputs.model_dump(mode="json"),
        codes=tuple(f.code for f in drawn.fixtures),
        published_at=now.isoformat(),
        seed_list=drawn.seed_list,
        secret=secret,
        **redrawn,
    )


def seed_for(secret: str | None, number: int, attempt: int, rng: random.Random) -> int:
    """The committed secret's seed for this draw and attempt (R5.1); a tournament drawn before
    seeds were committed keeps drawing fresh ones."""
    return rules_commitment.draw_seed(secret, number, attempt) if secret else rng.getrandbits(63)


def drawn_records(
    tournament: TournamentRecord, number: int, key: str | None, drawn: rules_day.Draw
) -> list[FixtureRecord]:
    fed = model.feeds_of(drawn.fixtures)
    return [
        _record(tournament, number, key, position, f, fed[f.code])
        for position, f in enumerate(drawn.fixtures)
    ]


def preview(caller: Caller, tournament_id: str, now: datetime, division: str | None = None) -> DrawPreview:
    """The next draw's pairings as the draw will publish them, from the committed seed
    (organisers only, R5.1): nothing is written, and the seed itself is not shown. 409 before
    the seed is committed, and whenever the draw itself would be refused."""
    current = draw_store.day(tournament_id)
    tournament, _ = _organised(current, tournament_id, caller)
    key = division_to_draw(tournament, division)
    if tournament.draw_secret is None:
        raise NotCommitted("Commit to the draw's seed first: the preview is computed from it.")
    number = tournament.draws + 1
    if tournament.drawing:
        raise DrawInProgress(f"Draw {number} is being made: read it once it is published.")
    planned = plan_draw(current, tournament, key, number, now)
    drawn = rules_day.compute_draw(
        planned.inputs, seed_for(tournament.draw_secret, number, 1, random.Random())
    )
    people = day.names(planned.field)
    return DrawPreview(
        number=number,
        division=key,
        event=planned.inputs.event,
        round=planned.inputs.round,
        digest=rules_day.digest(planned.inputs),
        pairings=[_preview_pairing(f, people) for f in drawn.fixtures],
    )


def _preview_pairing(fixture: rules_day.Fixture, people: dict[str, PlayerRef]) -> PreviewPairing:
    def side(src: Source) -> tuple[PlayerRef | None, str | None]:
        if src.kind == "entry":
            return (people.get(src.player) if src.player else None), None
        return None, f"{src.kind} of {src.match}"

    (home, home_from), (away, away_from) = side(fixture.home), side(fixture.away)
    return PreviewPairing(
        code=fixture.code,
        board=fixture.board,
        label=fixture.label,
        home=home,
        away=away,
        home_from=home_from,
        away_from=away_from,
    )


def _record(
    tournament: TournamentRecord,
    number: int,
    division: str | None,
    position: int,
    fixture: rules_day.Fixture,
    feeds: tuple[str, ...],
) -> FixtureRecord:
    """A drawn match as stored, before the day places it (players, state, table)."""
    return FixtureRecord(
        tournament_id=tournament.id,
        code=fixture.code,
        draw=number,
        division=division,
        event=fixture.event,
        round=fixture.round,
        label=fixture.label,
        board=fixture.board,
        stage=fixture.stage,
        length=day.match_length(tournament, fixture.stage),
        best_of=tournament.play.best_of,
        home_source=fixture.home.model_dump(exclude_none=True),
        away_source=fixture.away.model_dump(exclude_none=True),
        state=State.WAITING,
        position=position,
        unless_home_wins=fixture.unless_home_wins,
        feeds=feeds,
    )


def rounds(tournament_id: str) -> Rounds:
    """The published draws, newest last (public)."""
    current = draw_store.day(tournament_id)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    return Rounds(rounds=[day.round_summary(r) for r in current.rounds])


def round_view(tournament_id: str, number: int) -> RoundView:
    """One published draw with its matches and the inputs to recompute it (public, R5.1).

    Reads that draw's matches only (by the codes its round lists), so a page of round 1 costs
    the same in round 9."""
    current, found = draw_store.one_round(tournament_id, number)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    if found is None:
        raise RoundNotFound(f"Tournament {tournament_id} has no published draw {number}.")
    records = draw_store.fixtures_by_code(current.tournament, found.codes)
    people = day.names(current.field)
    return RoundView(
        **day.round_summary(found).model_dump(),
        inputs=dict(found.inputs),
        seed_list=list(found.seed_list),
        pairings=[
            day.match_view(tournament_id, r, people) for r in sorted(records, key=lambda r: r.position)
        ],
        earlier=[EarlierDraw.model_validate(_earlier(e)) for e in found.earlier],
    )


def _earlier(stored: Mapping[str, Any]) -> dict[str, Any]:
    pairings = [{"code": c, "home": h, "away": a} for c, h, a in stored["pairings"]]
    return {**stored, "pairings": pairings}
