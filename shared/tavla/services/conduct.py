"""Conduct (R8): penalties by the ladder, withdrawal during the day, disqualification.

The ladder (R8.4; seed 002 section 9, the same steps under every profile):
- `warning`: recorded, nothing else changes;
- `game`: the loss of a game: the opponent scores one game at cube 1, i.e. one point
  (`rules.match.AwardPenalty`, between games), which may end the match;
- `match`: the loss of the match: a forfeit, length to nil (`progress.forfeit_result`, how
  "penalty"), and the day moves on from it.
Withdrawal (R8.2: staff, or the player themself) and disqualification (R8.3: staff) put the
player on the field's `withdrawn` / `disqualified` list; the day forfeits the match they are
in now and every later one as it comes due (`progress.apply`). There is no refund after the
draw (R3.5). A disqualified player gets no place, prize or season points (the standings
leave them out). What a penalty does to the match is the day's model (`rules.operations.Penalty`),
and so is putting a player out (`Day.put_out`). Everything goes into the audit trail (actions
"penalty", "withdrawal", "disqualification"), which the federation report reads.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from tavla.caller import Caller
from tavla.errors import (
    MatchNotFound,
    NoMatchToPenalise,
    NotDrawn,
    NotInField,
    NotStaff,
    TournamentNotFound,
    TournamentOver,
)
from tavla.models.appeals import OutBody, OutView, PenaltyBody, PenaltyView
from tavla.rules import operations
from tavla.rules.states import AT_TABLE, UNDECIDED
from tavla.services import day, progress
from tavla.services.access import player_actor, require_staff, role_in, staff_actor
from tavla.store import conduct as conduct_store
from tavla.store import draws as draw_store
from tavla.store import players as player_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import FINISHED, Actor, FieldRecord, FixtureRecord, TournamentRecord


def _day(tournament_id: str) -> tuple[TournamentRecord, FieldRecord | None]:
    current = draw_store.day(tournament_id, with_rounds=False)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    if current.tournament.status == FINISHED:
        raise TournamentOver("The tournament is finished: conduct is judged during it.")
    return current.tournament, current.field


def _in_field(field: FieldRecord | None, tavla_id: str) -> FieldRecord:
    if field is None:
        raise NotDrawn("Nothing is drawn yet: only a drawn player can leave the day or be disqualified.")
    if tavla_id not in {e["player_id"] for e in field.entrants}:
        raise NotInField(f"{tavla_id} is not in this tournament's field.")
    return field


def _their_match(tournament_id: str, tavla_id: str, match_id: str | None, states: frozenset[str]) -> str:
    """The match a penalty is about: the one named, else the one the player is in now."""
    if match_id is not None:
        split = day.split_match_id(match_id)
        if split is None or split[0] != tournament_id:
            raise MatchNotFound(f"No match {match_id} in tournament {tournament_id}.")
        return split[1]
    tournament, _ = _day(tournament_id)
    mine = [r for r in draw_store.fixtures(tournament) if tavla_id in (r.home, r.away) and r.state in states]
    if not mine:
        raise NoMatchToPenalise(f"{tavla_id} is not playing a match now: name the match (match_id).")
    return min(mine, key=lambda r: (r.draw, r.position)).code


def penalise(caller: Caller, tournament_id: str, body: PenaltyBody, now: datetime) -> PenaltyView:
    """A penalty by the ladder (R8.4), recorded in the audit trail."""
    tournament, field = _day(tournament_id)
    actor = require_staff(tournament, caller)
    _in_field(field, body.tavla_id)

    after: FixtureRecord | None = None
    match_id = body.match_id
    details = {"tavla_id": body.tavla_id, "kind": body.kind, "reason": body.reason}
    if body.kind == "warning":
        conduct_store.record(tournament_id, audit_entry(actor, "penalty", now, **details, match_id=match_id))
    else:
        states = AT_TABLE if body.kind == "game" else UNDECIDED
        code = _their_match(tournament_id, body.tavla_id, body.match_id, states)
        match_id = day.match_id(tournament_id, code)
        penalty = operations.Penalty(
            body.tavla_id,
            body.kind,
            body.reason,
            tournament.play,
            actor,
            now,
            {**details, "match_id": match_id},
        )
        after = progress.apply(tournament_id, code, penalty, now).match
    return PenaltyView(
        tournament_id=tournament_id,
        tavla_id=body.tavla_id,
        kind=body.kind,
        reason=body.reason,
        at=now,
        match_id=match_id,
        score=list(after.score) if after is not None else None,
        result=after.result.as_json() if after is not None and after.result else None,
    )


def withdraw(caller: Caller, tournament_id: str, body: OutBody, now: datetime) -> OutView:
    """R8.2: the player leaves during the day (staff, or the player themself); no refund (R3.5)."""
    tournament, field = _day(tournament_id)
    actor: Actor
    if role_in(tournament, caller) or caller.is_admin:
        actor = staff_actor(tournament, caller)
    elif player_store.tavla_id_or_none(caller.sub) == body.tavla_id:
        actor = player_actor(caller, body.tavla_id)
    else:
        raise NotStaff("Only this tournament's staff, or the player themself, may withdraw a player.")
    return _out(tournament, field, body, actor, "withdrawal", now)


def disqualify(caller: Caller, tournament_id: str, body: OutBody, now: datetime) -> OutView:
    """R8.3: staff remove the player: their matches are forfeited, no place, prize or points."""
    tournament, field = _day(tournament_id)
    actor = require_staff(tournament, caller)
    return _out(tournament, field, body, actor, "disqualification", now)


def _out(
    tournament: TournamentRecord,
    field: FieldRecord | None,
    body: OutBody,
    actor: Actor,
    kind: str,
    now: datetime,
) -> OutView:
    _in_field(field, body.tavla_id)
    out: conduct_store.OutList = "withdrawn" if kind == "withdrawal" else "disqualified"
    change = audit_entry(actor, kind, now, tavla_id=body.tavla_id, reason=body.reason, refund="none")
    records = draw_store.fixtures(tournament)
    mine = [r for r in records if body.tavla_id in (r.home, r.away)]
    if not mine:  # nothing of theirs to forfeit (cannot happen once drawn; kept whole anyway)
        conduct_store.mark_out(tournament.id, body.tavla_id, out, change)
        return _out_view(tournament, body, kind, now, [])

    def put_out(view: progress.DayView) -> progress.DayView:
        """The day as it is once the player is out: the same transaction puts them out."""
        _in_field(view.field, body.tavla_id)
        return replace(view, day=view.day.put_out(body.tavla_id, out))

    # any change moves the day on: the match they are in now, and any that is due, is forfeited
    now_or_last = min(
        (r for r in mine if r.state in UNDECIDED),
        key=lambda r: (r.draw, r.position),
        default=mine[-1],
    )
    settled = progress.apply(
        tournament.id,
        now_or_last.code,
        operations.Touch((change,)),
        now,
        extra=lambda tx: conduct_store.put_out(tx, tournament.id, body.tavla_id, out),
        prepare=put_out,
    )
    forfeited = [
        day.match_id(tournament.id, r.code)
        for r in settled.confirmed
        if body.tavla_id in (r.home, r.away) and r.result is not None and r.result.how == "withdrawal"
    ]
    return _out_view(tournament, body, kind, now, forfeited)


def _out_view(
    tournament: TournamentRecord, body: OutBody, kind: str, now: datetime, forfeited: list[str]
) -> OutView:
    return OutView(
        tournament_id=tournament.id,
        tavla_id=body.tavla_id,
        kind=kind,
        at=now,
        forfeited=forfeited,
    )
