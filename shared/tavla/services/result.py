"""Live score and result (R7.2-R7.6, R8.1, R8.4, R9.4): game by game, declared, confirmed.

- The live score is a log of entries on the match (games, resignations, penalty points, a
  time loss), each checked by the rules (`tavla.rules.match`: Crawford, the profile's cube
  rules, the match length) by replaying the log with the new entry. Written on the match's
  version: of two players recording the same game at once, one lands, the other gets 409.
  The first entry moves the match from called to playing; the entry that completes it makes
  it `finished` (its table is freed and the next queued match called).
- Each player declares the final score. Alike -> `finished` (staff confirm), or official at
  once when the tournament says `results_official_without_referee`. Different -> `disputed`,
  flagged `reports_differ`, settled by the profile's rule (`tavla.rules.disputes`, R7.5).
- Staff confirm -> official through `progress.apply` (the bracket moves on, ResultConfirmed
  and MatchesCalled go on the bus). Changing an official result is refused once a dependent
  match has started (R9.4); confirming the same result again changes nothing.

What each operation allows and does is the day's model (`rules.operations`: `Record`,
`Declare`, `Confirm`); this module is the orchestration: read, authorise, apply, save. A change
that stays on its match (a game, the first report) is saved on the match alone; one that moves
the day on goes through `progress.apply`. Every change writes an audit record in the same
transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tavla.caller import Caller
from tavla.errors import MatchNotFound, NotStaff, NotYourMatch, StaleMatch, TournamentNotFound
from tavla.models.day import PlayerRef
from tavla.models.matches import FinalScore, MatchDetail, ScoreEntryView, ScoreUpdate
from tavla.rules import model, operations
from tavla.rules.operations import EntryAsked, Operation, side_of
from tavla.rules.score_entries import GamePlayed, PenaltyPoints
from tavla.rules.states import SCORING, State
from tavla.services import adjournment, breaks, day, progress
from tavla.services.access import player_actor, require_staff
from tavla.store import field_names
from tavla.store import matches as match_store
from tavla.store.matches import MatchSnapshot
from tavla.store.records import Actor, FixtureRecord, TournamentRecord

if TYPE_CHECKING:  # the rules of the match load with the first request that needs them
    from tavla.rules.operations import LiveState

# --------------------------------------------------------------------------- reading


def _read(match_id: str, sub: str | None = None) -> tuple[str, str, MatchSnapshot]:
    where = day.split_match_id(match_id)
    if where is None:
        raise MatchNotFound(f"No match {match_id}.")
    tournament_id, code = where
    snap = match_store.snapshot(tournament_id, code, sub, with_field=True)
    if snap.tournament is None or snap.match is None:
        raise MatchNotFound(f"No match {match_id}.")
    return tournament_id, code, snap


def _tournament(snap: MatchSnapshot) -> TournamentRecord:
    assert snap.tournament is not None
    return snap.tournament


def _match(snap: MatchSnapshot) -> FixtureRecord:
    assert snap.match is not None
    return snap.match


def _on_match(
    tournament_id: str, code: str, match: FixtureRecord, operation: Operation, now: datetime
) -> None:
    """Apply `operation` to the match as read: saved on the match alone when it stays there,
    else (or when the match changed meanwhile) applied to the day (`progress.apply`)."""
    try:
        change = model.Day.of_match(match).apply(code, operation, now)
    except model.MovesOn:
        progress.apply(tournament_id, code, operation, now)
        return
    after = change.after(code) or match
    try:
        match_store.save(after, match.version, change.audit)
    except StaleMatch:
        if not isinstance(operation, operations.Declare):
            raise
        # the opponent reported at the same moment: settled with both reports
        progress.apply(tournament_id, code, operation, now)


# --------------------------------------------------------------------------- the live score


def replay(tournament: TournamentRecord, match: FixtureRecord) -> tuple[LiveState, list[ScoreEntryView]]:
    """The live score as the rules see it (`rules.operations.replayed`), and its entries as the
    public sees them."""
    history: list[ScoreEntryView] = []
    steps = operations.replayed(tournament.play, match)
    for entry, state in steps:
        number = len(history) + 1
        if isinstance(entry, GamePlayed):
            game = state.games[-1]
            history.append(
                _view(
                    number,
                    "game",
                    game.winner,
                    state,
                    result=game.result,
                    cube=game.cube,
                    passed=game.passed,
                    resigned=entry.resigned,
                    crawford=game.crawford,
                    cube_voided=game.cube_voided,
                    points=game.points,
                )
            )
        elif isinstance(entry, PenaltyPoints):
            history.append(
                _view(number, "penalty", entry.winner, state, points=entry.points, reason=entry.reason)
            )
        else:
            lost = getattr(state, "current", state).result  # a series: the leg lost on time
            assert lost is not None
            history.append(_view(number, "time", lost.winner, state, reason="time"))
    return (steps[-1][1] if steps else operations.live_state(tournament.play, match)), history


def _view(number: int, kind: str, winner: str, state: LiveState, **fields: Any) -> ScoreEntryView:
    return ScoreEntryView(number=number, kind=kind, winner=winner, score=list(state.score), **fields)


def _asked(body: ScoreUpdate) -> EntryAsked:
    """The entry the request asks for, not yet checked against the match."""
    if body.game is not None:
        g = body.game
        return EntryAsked("game", g.winner, result=g.result, cube=g.cube, passed=g.passed)
    if body.resignation is not None:
        r = body.resignation
        return EntryAsked("resignation", r.player, result=r.result, cube=r.cube)
    if body.penalty is not None:
        p = body.penalty
        return EntryAsked("penalty", p.player, points=p.points, reason=p.reason)
    assert body.time_loss is not None
    return EntryAsked("time", body.time_loss.player)


def _actor(tournament: TournamentRecord, caller: Caller, match: FixtureRecord, tavla_id: str | None) -> Actor:
    """A player of this match, else this tournament's staff; anyone else 403."""
    if side_of(match, tavla_id) is not None:
        assert tavla_id is not None
        return player_actor(caller, tavla_id)
    try:
        return require_staff(tournament, caller)
    except NotStaff:
        raise NotYourMatch("Only this match's players and its tournament's staff may do that.") from None


def record_score(caller: Caller, match_id: str, body: ScoreUpdate, now: datetime) -> MatchDetail:
    """Add the next entry of the live score (R7.2-R7.5; penalty points and time losses R7.4, R7.6, R8.4)."""
    tournament_id, code, snap = _read(match_id, caller.sub)
    tournament, match = _tournament(snap), _match(snap)
    progress.require_in_play(tournament)
    if body.penalty is not None or body.time_loss is not None:
        actor = require_staff(tournament, caller)
    else:
        actor = _actor(tournament, caller, match, snap.tavla_id)
    record = operations.Record(_asked(body), tournament.play, actor, now, body.version)
    # the entry that completes the match moves the day on: its table is freed (R6)
    _on_match(tournament_id, code, match, record, now)
    return view(match_id)


# --------------------------------------------------------------------------- reports


def report(caller: Caller, match_id: str, body: FinalScore, now: datetime) -> MatchDetail:
    """A player declares the final score (R7.5); both alike -> finished (or official), else disputed."""
    tournament_id, code, snap = _read(match_id, caller.sub)
    tournament, match = _tournament(snap), _match(snap)
    progress.require_in_play(tournament)
    side = side_of(match, snap.tavla_id)
    if side is None:
        raise NotYourMatch("Only the match's two players declare its final score.")
    assert snap.tavla_id is not None
    actor = player_actor(caller, snap.tavla_id)
    score = (body.home_points, body.away_points)
    # the first report changes this match only: no need to read the day
    declare = operations.Declare(side, score, tournament.play, actor, now, body.leg_scores())
    _on_match(tournament_id, code, match, declare, now)
    return view(match_id)


# --------------------------------------------------------------------------- confirmation


def confirm(caller: Caller, match_id: str, body: FinalScore | None, now: datetime) -> MatchDetail:
    """Staff make the result official (R7.5); the bracket moves on; R9.4 locks a started dependency.

    The match, the tournament and the table plan are read once, in one BatchGetItem; the change
    goes on from that read, and the answer is built from it and what was written, with the
    players' names from the field when the change read it, else as the function keeps them
    (`store.field_names`): a confirmation does not read the field for two names."""
    where = day.split_match_id(match_id)
    if where is None:
        raise MatchNotFound(f"No match {match_id}.")
    tournament_id, code = where
    try:
        first = progress.read_first(tournament_id, code)
    except TournamentNotFound:
        raise MatchNotFound(f"No match {match_id}.") from None
    tournament, match = first.tournament, first.matches.get(code)
    if tournament is None or match is None or match.draw > tournament.draws:
        raise MatchNotFound(f"No match {match_id}.")
    actor = require_staff(tournament, caller)
    given = (body.home_points, body.away_points) if body is not None else None
    confirming = operations.Confirm(given, tournament.play, actor, now, body.leg_scores() if body else ())
    as_read = MatchSnapshot(tournament, match)
    try:
        if match.state == State.OFFICIAL:  # official already as asked: nothing more to read
            with suppress(model.MovesOn):
                model.Day.of_match(match).apply(code, confirming, now)
        settled = progress.apply(tournament_id, code, confirming, now, first=first)
    except operations.Unchanged:
        return detail(tournament, as_read, _names(tournament_id, match))
    # the match as written, shown with the tournament and the field as the change read them
    snap = MatchSnapshot(settled.tournament, settled.match, None, settled.field)
    return detail(settled.tournament, snap, None if settled.field else _names(tournament_id, match))


def _names(tournament_id: str, match: FixtureRecord) -> dict[str, PlayerRef]:
    """The two players' public names, as this function keeps them (`store.field_names`)."""
    return day.people(field_names.entrants(tournament_id, (match.home, match.away)).values())


# --------------------------------------------------------------------------- the public view


def detail(
    tournament: TournamentRecord, snap: MatchSnapshot, people: Mapping[str, PlayerRef] | None = None
) -> MatchDetail:
    """The match as its players and staff see it; names from `people` when given, else from
    the field read with it."""
    match = _match(snap)
    base = day.match_view(tournament.id, match, day.names(snap.field) if people is None else people)
    history: list[ScoreEntryView] = []
    crawford = False
    if match.home is not None and match.away is not None:
        state, history = replay(tournament, match)
        crawford = state.is_crawford_game and match.state in SCORING
    return MatchDetail(
        **base.model_dump(),
        history=history,
        crawford=crawford,
        reported=[side for side in ("home", "away") if side in match.reports],
        flags=list(match.flags),
        adjournment=adjournment.view(match),
        breaks=breaks.view(tournament, match),
    )


def view(match_id: str) -> MatchDetail:
    """A match with its live score, game by game (public: names and clubs only, R12.1)."""
    _, _, snap = _read(match_id)
    return detail(_tournament(snap), snap)
