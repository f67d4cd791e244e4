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
- Staff confirm -> official through `progress.settle` (the bracket moves on, ResultConfirmed
  and MatchesCalled go on the bus). Changing an official result is refused once a dependent
  match has started (R9.4); confirming the same result again changes nothing.

Every change writes an audit record in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from tavla.caller import Caller
from tavla.errors import (
    AppealOpen,
    DecisionNeeded,
    ImpossibleFinalScore,
    MatchNotFound,
    MatchNotInPlay,
    NotInMatch,
    NotStaff,
    NotYourMatch,
    ResultMissing,
    StaleMatch,
)
from tavla.models.matches import FinalScore, GameEntry, MatchDetail, Resignation, ScoreEntryView, ScoreUpdate
from tavla.rules.disputes import Score, settle_dispute
from tavla.rules.results import How, Result
from tavla.rules.score_entries import EntryKind, GamePlayed, PenaltyPoints, ScoreEntry, TimeLoss
from tavla.rules.states import CONFIRMING, REPORTING, SCORING, State
from tavla.services import day, progress
from tavla.services.access import player_actor, require_staff
from tavla.store import matches as match_store
from tavla.store.audit import entry as audit_entry
from tavla.store.matches import MatchSnapshot
from tavla.store.records import Actor, AuditRecord, FixtureRecord, TournamentRecord

if TYPE_CHECKING:  # the rules of the match load with the first request that needs them
    from tavla.rules.match import MatchState

Side = Literal["home", "away"]
REPORTS_DIFFER = "reports_differ"
LIVE_SCORE_DIFFERS = "live_score_differs"
# the audit action of each kind of live-score entry
_RECORDED = {
    EntryKind.GAME: "game_recorded",
    EntryKind.PENALTY: "penalty_points",
    EntryKind.TIME: "time_loss",
}


class _Unchanged(Exception):
    """The confirmation asks for the official result as it already is: nothing to write."""


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


def _rules(tournament: TournamentRecord) -> tuple[bool, bool]:
    """Cube in use, Crawford rule: the tournament's effective rules (R2.2, R7.2)."""
    return tournament.play.cube_used, tournament.play.crawford


def _side_of(match: FixtureRecord, tavla_id: str | None) -> Side | None:
    if tavla_id is None:
        return None
    if tavla_id == match.home:
        return "home"
    if tavla_id == match.away:
        return "away"
    return None


def _other(side: str) -> Side:
    return "away" if side == "home" else "home"


def _player_of(match: FixtureRecord, side: str) -> str:
    player = match.home if side == "home" else match.away
    assert player is not None
    return player


# --------------------------------------------------------------------------- the live score


def replay(tournament: TournamentRecord, match: FixtureRecord) -> tuple[MatchState, list[ScoreEntryView]]:
    """The live score as the rules see it, and its entries as the public sees them.

    Late-arrival penalty points (R7.6, written by the no-show schedule) come first: they are
    given before the first game.
    """
    from tavla.rules.match import AwardPenalty, apply_action, start_match

    cube_used, crawford = _rules(tournament)
    assert match.home is not None and match.away is not None
    state = start_match(match.length, (match.home, match.away), cube_used=cube_used, crawford_rule=crawford)
    history: list[ScoreEntryView] = []
    for side, points in sorted(match.late_points.items()):
        if points < 1 or state.is_over:
            continue
        scorer = _player_of(match, _other(side))
        state = apply_action(state, AwardPenalty(player=scorer, points=points, reason="late arrival"))
        history.append(
            _view(len(history) + 1, "penalty", scorer, state, points=points, reason="late arrival")
        )
    for entry in match.games:
        state = apply_action(state, entry.action())
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
            assert state.result is not None
            history.append(_view(number, "time", state.result.winner, state, reason="time"))
    return state, history


def _view(number: int, kind: str, winner: str, state: MatchState, **fields: Any) -> ScoreEntryView:
    return ScoreEntryView(number=number, kind=kind, winner=winner, score=list(state.score), **fields)


def _final(match: FixtureRecord, state: MatchState) -> Score | None:
    """The live result in its official form (winner at the match length), home first."""
    if state.result is None:
        return None
    res = state.result
    if res.winner == match.home:
        return res.winner_points, res.loser_points
    return res.loser_points, res.winner_points


def _entry(body: ScoreUpdate, match: FixtureRecord, now: datetime) -> ScoreEntry:
    """The log entry of an update; a player it names must be one of the two (else 422)."""

    def side(player: str, what: str) -> Side:
        found = _side_of(match, player)
        if found is None:
            raise NotInMatch(f"{player} is not playing this match ({what}).")
        return found

    at = now.isoformat()
    if body.game is not None or body.resignation is not None:
        # a resignation is a game the opponent wins (hbf 4.9, cnb 4.5)
        played: GameEntry | Resignation
        if body.game is not None:
            side(body.game.winner, "winner")
            winner, played, passed = body.game.winner, body.game, body.game.passed
        else:
            assert body.resignation is not None
            played, passed = body.resignation, False
            winner = _player_of(match, _other(side(body.resignation.player, "resigning player")))
        resigned = body.resignation is not None
        return GamePlayed(winner, played.result, played.cube, passed, resigned, at)
    if body.penalty is not None:
        p = body.penalty
        scorer = _player_of(match, _other(side(p.player, "penalised player")))
        return PenaltyPoints(winner=scorer, points=p.points, reason=p.reason, offender=p.player, at=at)
    assert body.time_loss is not None
    side(body.time_loss.player, "player out of time")
    return TimeLoss(loser=body.time_loss.player, at=at)


def _actor(tournament: TournamentRecord, caller: Caller, match: FixtureRecord, tavla_id: str | None) -> Actor:
    """A player of this match, else this tournament's staff; anyone else 403."""
    if _side_of(match, tavla_id) is not None:
        assert tavla_id is not None
        return player_actor(caller, tavla_id)
    try:
        return require_staff(tournament, caller)
    except NotStaff:
        raise NotYourMatch("Only this match's players and its tournament's staff may do that.") from None


def _open(match: FixtureRecord, allowed: frozenset[str], what: str) -> None:
    if match.appeal is not None:
        raise AppealOpen("An appeal on this match is open: its result is frozen until it is decided (R9.2).")
    if match.state not in allowed or match.home is None or match.away is None:
        raise MatchNotInPlay(f"The match is {match.state}: {what} is not possible now.")


def record_score(caller: Caller, match_id: str, body: ScoreUpdate, now: datetime) -> MatchDetail:
    """Add the next entry of the live score (R7.2-R7.5; penalty points and time losses R7.4, R7.6, R8.4)."""
    from tavla.rules.match import apply_action

    tournament_id, code, snap = _read(match_id, caller.sub)
    tournament, match = _tournament(snap), _match(snap)
    if body.penalty is not None or body.time_loss is not None:
        actor = require_staff(tournament, caller)
    else:
        actor = _actor(tournament, caller, match, snap.tavla_id)
    _open(match, SCORING, "recording the score")
    if body.version != match.version:
        raise StaleMatch(
            f"The match is at version {match.version}, not {body.version}: reload it and try again."
        )
    entry = _entry(body, match, now)
    state, _ = replay(tournament, match)
    state = apply_action(state, entry.action())  # a RuleViolation is the API's 409 rule_violation
    over = state.is_over
    after = replace(
        match,
        games=(*match.games, entry),
        score=state.score,
        state=State.FINISHED if over else State.PLAYING,
        started_at=match.started_at or now.isoformat(),
        finished_at=now.isoformat() if over else match.finished_at,
    )
    action = _RECORDED[entry.kind]
    audit = audit_entry(
        actor,
        action,
        now,
        match=code,
        entry={k: v for k, v in entry.as_json().items() if k != "at"},
        score=list(state.score),
    )
    if not over:
        match_store.save(after, match.version, [audit])
    else:

        def finish(before: FixtureRecord, _: progress.DayView) -> FixtureRecord:
            if before.version != match.version:
                raise StaleMatch("The match changed meanwhile: reload it and try again.")
            return after

        # the match is over: its table is freed and the next queued match called (R6)
        progress.settle(tournament_id, code, finish, lambda b, a: [audit], now)
    return view(match_id)


# --------------------------------------------------------------------------- reports


def _score_of(data: Mapping[str, Any]) -> Score:
    return int(data["home_points"]), int(data["away_points"])


def _check_final(match: FixtureRecord, score: Score) -> None:
    from tavla.rules.match import ImpossibleScore, check_final_score

    try:
        check_final_score(match.length, score[0], score[1])
    except ImpossibleScore as impossible:
        raise ImpossibleFinalScore(str(impossible)) from None


def _result(match: FixtureRecord, score: Score, how: How) -> Result:
    assert match.home is not None and match.away is not None
    return Result.by_score(match.home, match.away, score, how)


def _flags(match: FixtureRecord, add: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> tuple[str, ...]:
    kept = [f for f in match.flags if f not in drop]
    return tuple(kept + [f for f in add if f not in kept])


def report(caller: Caller, match_id: str, body: FinalScore, now: datetime) -> MatchDetail:
    """A player declares the final score (R7.5); both alike -> finished (or official), else disputed."""
    tournament_id, code, snap = _read(match_id, caller.sub)
    tournament, match = _tournament(snap), _match(snap)
    side = _side_of(match, snap.tavla_id)
    if side is None:
        raise NotYourMatch("Only the match's two players declare its final score.")
    assert snap.tavla_id is not None
    actor = player_actor(caller, snap.tavla_id)
    _open(match, REPORTING, "declaring the final score")
    score = (body.home_points, body.away_points)
    _check_final(match, score)
    at_once = tournament.play.results_official_without_referee

    def declare(before: FixtureRecord, _day: progress.DayView | None = None) -> FixtureRecord:
        _open(before, REPORTING, "declaring the final score")
        reports = {
            **before.reports,
            side: {"home_points": score[0], "away_points": score[1], "at": now.isoformat()},
        }
        after = replace(before, reports=reports)
        other = reports.get(_other(side))
        if other is None:
            return after
        if _score_of(other) != score:
            return replace(after, state=State.DISPUTED, flags=_flags(before, add=(REPORTS_DIFFER,)))
        state, _ = replay(tournament, before)
        live = _final(before, state)
        differs = (LIVE_SCORE_DIFFERS,) if live is not None and live != score else ()
        flags = _flags(before, add=differs, drop=(REPORTS_DIFFER,))
        finished_at = before.finished_at or now.isoformat()
        if at_once:
            how: How = (
                "time"
                if state.result is not None and state.result.how == "time" and live == score
                else "score"
            )
            return replace(
                after,
                state=State.OFFICIAL,
                result=_result(before, score, how),
                official_at=now.isoformat(),
                finished_at=finished_at,
                flags=flags,
            )
        return replace(after, state=State.FINISHED, finished_at=finished_at, flags=flags)

    def audit(before: FixtureRecord, after: FixtureRecord) -> list[AuditRecord]:
        return [
            audit_entry(
                actor,
                "score_reported",
                now,
                match=code,
                side=side,
                home_points=score[0],
                away_points=score[1],
                state=after.state,
            )
        ]

    if _other(side) not in match.reports:
        # the first report changes this match only: no need to read the whole day
        first = declare(match)
        try:
            match_store.save(first, match.version, audit(match, first))
            return view(match_id)
        except StaleMatch:
            pass  # the opponent reported at the same moment: settled below with both reports
    progress.settle(tournament_id, code, declare, audit, now)
    return view(match_id)


# --------------------------------------------------------------------------- confirmation


def decided_result(tournament: TournamentRecord, match: FixtureRecord, given: FinalScore | None) -> Result:
    """The result staff confirm: the score they give (the referee's decision), else what prevails.

    Without a score: a disputed match by the profile's rule (R7.5; else 409 decision_needed);
    otherwise the players' agreed score, else the complete live score (else 409 result_missing).
    """
    state, _ = replay(tournament, match)
    live = _final(match, state)
    live_how: How = "time" if state.result is not None and state.result.how == "time" else "score"
    reports = {side: _score_of(r) for side, r in match.reports.items() if side in ("home", "away")}
    agreed = reports.get("home") if len(reports) == 2 and reports["home"] == reports["away"] else None
    if given is not None:
        score = (given.home_points, given.away_points)
        _check_final(match, score)
        if match.state == State.DISPUTED or score not in (agreed, live):
            return _result(match, score, "decision")
        return _result(match, score, live_how if score == live and agreed is None else "score")
    if match.state == State.DISPUTED:
        profile = tournament.play.rule_profile
        prevails = settle_dispute(profile, reports, state.score, live)
        if prevails is None:
            raise DecisionNeeded(
                "The players' reports differ: under this tournament's rules the referee decides; "
                "confirm with the score (R7.5)."
            )
        return _result(match, prevails, live_how if prevails == live else "score")
    if agreed is not None:
        return _result(match, agreed, "score")
    if live is not None:
        return _result(match, live, live_how)
    raise ResultMissing("No complete live score and no agreed report: confirm with the score.")


def confirm(caller: Caller, match_id: str, body: FinalScore | None, now: datetime) -> MatchDetail:
    """Staff make the result official (R7.5); the bracket moves on; R9.4 locks a started dependency."""
    tournament_id, code, snap = _read(match_id, caller.sub)
    tournament, match = _tournament(snap), _match(snap)
    actor = require_staff(tournament, caller)
    _open(match, CONFIRMING, "confirming a result")
    if match.state == State.OFFICIAL and (
        body is None or decided_result(tournament, match, body).same_outcome(match.result)
    ):
        return view(match_id)  # official already, as asked: nothing changes

    def make_official(before: FixtureRecord, current: progress.DayView) -> FixtureRecord:
        _open(before, CONFIRMING, "confirming a result")
        if before.state == State.OFFICIAL and body is None:
            raise _Unchanged
        result = decided_result(current.tournament, before, body)
        if before.state == State.OFFICIAL:
            if result.same_outcome(before.result):
                raise _Unchanged
            progress.require_unlocked(before, current.records.values())
        return replace(
            before,
            state=State.OFFICIAL,
            result=result,
            official_at=now.isoformat(),
            finished_at=before.finished_at or now.isoformat(),
            flags=_flags(before, drop=(REPORTS_DIFFER,)),
        )

    def audit(before: FixtureRecord, after: FixtureRecord) -> list[AuditRecord]:
        assert after.result is not None
        result = after.result.as_json()
        changed = before.state == State.OFFICIAL
        return [
            audit_entry(
                actor,
                "result_changed" if changed else "result_confirmed",
                now,
                match=code,
                previous=before.result.as_json() if changed and before.result else None,
                **{k: result[k] for k in ("winner", "home_points", "away_points", "how")},
            )
        ]

    try:
        settled = progress.settle(tournament_id, code, make_official, audit, now)
    except _Unchanged:  # confirmed meanwhile, as asked
        return view(match_id)
    # the match as written, shown with the tournament and field already read: no read again
    return detail(tournament, replace(snap, match=settled.match))


# --------------------------------------------------------------------------- the public view


def detail(tournament: TournamentRecord, snap: MatchSnapshot) -> MatchDetail:
    match = _match(snap)
    base = day.match_view(tournament.id, match, day.names(snap.field))
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
    )


def view(match_id: str) -> MatchDetail:
    """A match with its live score, game by game (public: names and clubs only, R12.1)."""
    _, _, snap = _read(match_id)
    return detail(_tournament(snap), snap)
