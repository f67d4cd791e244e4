"""The operations on one match of the day, each checked against the match as it stands.

An operation says what becomes of its match (`after`, refusing what the match's state does
not allow), what goes into the audit trail and what is announced; `Day.apply` runs it and
moves the day on from it, into one `DayChange`. A service builds the operation from the
request (who asks, the tournament's settings, the clock), then loads the day, applies it,
saves the change and retries on conflict (`services.progress.settle`). An operation is applied
again on every retry, to the match as read again, so its checks hold on what is written.

No I/O here; the refusals are the API's errors (`tavla.errors`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from tavla.errors import (
    AppealDecided,
    AppealExhausted,
    AppealOpen,
    AppealWindowClosed,
    DecisionNeeded,
    ImpossibleFinalScore,
    MatchNotInPlay,
    NoMatchToPenalise,
    NotInMatch,
    ResultLocked,
    ResultMissing,
    StaleMatch,
    TooLateToArrive,
)
from tavla.frozen import Frozen
from tavla.rules import grievances, holds
from tavla.rules.model import Actor, AuditRecord, DomainEvent, FixtureRecord, audit_entry, locked
from tavla.rules.play_settings import PlaySettings
from tavla.rules.results import How, Result
from tavla.rules.score_entries import EntryKind, GamePlayed, PenaltyPoints, ScoreEntry, TimeLoss
from tavla.rules.states import APPEALABLE, AT_TABLE, CONFIRMING, REPORTING, SCORING, UNDECIDED, State

if TYPE_CHECKING:  # the rules of the match load with the first operation that replays a score
    from tavla.rules.lateness import LatenessPolicy, LatenessVerdict
    from tavla.rules.match import MatchState
    from tavla.rules.model import Day
    from tavla.rules.series import SeriesState

    LiveState = MatchState | SeriesState

Side = Literal["home", "away"]
Score = tuple[int, int]
SIDES: tuple[Side, Side] = ("home", "away")
REPORTS_DIFFER = "reports_differ"
LIVE_SCORE_DIFFERS = "live_score_differs"
BOTH_ABSENT = "both_absent"
# the audit action of each kind of live-score entry
_RECORDED = {
    EntryKind.GAME: "game_recorded",
    EntryKind.PENALTY: "penalty_points",
    EntryKind.TIME: "time_loss",
}


class Unchanged(Exception):
    """The operation asks for the match as it already is: nothing to write."""


class Operation(Frozen):
    """One operation on a match (see the module); the defaults record and announce nothing.

    Its dataclasses are `@dataclass(frozen=True, eq=False, repr=False)` (`tavla.frozen`)."""

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        raise NotImplementedError

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return ()

    def events(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[DomainEvent]:
        return ()


# --------------------------------------------------------------------------- the match


def side_of(match: FixtureRecord, tavla_id: str | None) -> Side | None:
    if tavla_id is None:
        return None
    if tavla_id == match.home:
        return "home"
    if tavla_id == match.away:
        return "away"
    return None


def other(side: str) -> Side:
    return "away" if side == "home" else "home"


def player_of(match: FixtureRecord, side: str) -> str:
    player = match.home if side == "home" else match.away
    assert player is not None
    return player


def require_open(match: FixtureRecord, allowed: frozenset[str], what: str) -> None:
    """R9.2: an open appeal freezes the match; otherwise its state must allow `what`."""
    if match.appeal is not None:
        raise AppealOpen("An appeal on this match is open: its result is frozen until it is decided (R9.2).")
    if match.state not in allowed or match.home is None or match.away is None:
        raise MatchNotInPlay(f"The match is {match.state}: {what} is not possible now.")


def require_unlocked(target: FixtureRecord, records: Iterable[FixtureRecord]) -> None:
    """Refuse to change a result that a started match depends on (R9.4)."""
    if target.state == State.OFFICIAL and locked(target, records):
        raise ResultLocked(
            "A match that depends on this result has started: the result can no longer change (R9.4)."
        )


def with_flags(
    match: FixtureRecord, add: tuple[str, ...] = (), drop: tuple[str, ...] = ()
) -> tuple[str, ...]:
    kept = [f for f in match.flags if f not in drop]
    return tuple(kept + [f for f in add if f not in kept])


def started(play: PlaySettings, match: FixtureRecord) -> LiveState:
    """The match (or series, `rules.series`) at 0-0, before any entry."""
    assert match.home is not None and match.away is not None
    players = (match.home, match.away)
    if match.best_of > 1:
        from tavla.rules.series import start_series

        return start_series(
            players,
            best_of=match.best_of,
            leg_length=match.length,
            cube_used=play.cube_used,
            crawford_rule=play.crawford,
        )
    from tavla.rules.match import start_match

    return start_match(match.length, players, cube_used=play.cube_used, crawford_rule=play.crawford)


def replayed(play: PlaySettings, match: FixtureRecord) -> list[tuple[ScoreEntry, LiveState]]:
    """The live score replayed by the match rules: each entry with the score after it.

    Late-arrival penalty points (R7.6, given by the no-show deadline) come first: they are given
    before the first game."""
    from tavla.rules.series import advance as apply_action

    state = started(play, match)
    steps: list[tuple[ScoreEntry, LiveState]] = []
    late = [
        PenaltyPoints(winner=player_of(match, other(side)), points=points, reason="late arrival")
        for side, points in sorted(match.late_points.items())
        if points >= 1
    ]
    for entry in late:
        if state.is_over:
            continue
        state = apply_action(state, entry.action())
        steps.append((entry, state))
    for logged in match.games:
        state = apply_action(state, logged.action())
        steps.append((logged, state))
    return steps


def live_state(play: PlaySettings, match: FixtureRecord) -> LiveState:
    """The live score as the rules see it now."""
    steps = replayed(play, match)
    return steps[-1][1] if steps else started(play, match)


def legs_of(state: LiveState) -> tuple[tuple[int, int], ...]:
    """A series' finished legs, home first (a single match has none)."""
    return getattr(state, "legs", ())


def final_of(match: FixtureRecord, state: LiveState) -> Score | None:
    """The live result in its official form (winner at the match length, or a series' legs
    won), home first."""
    if state.result is None:
        return None
    res = state.result
    if res.winner == match.home:
        return res.winner_points, res.loser_points
    return res.loser_points, res.winner_points


def check_final(match: FixtureRecord, score: Score) -> None:
    """R7.3: the winner has exactly the match length, the loser less (a series: the winner
    has two legs won, the loser fewer)."""
    from tavla.rules.match import ImpossibleScore, check_final_score

    if match.best_of > 1:
        from tavla.rules.series import SeriesError, check_series_score

        try:
            check_series_score(match.best_of, score)
        except SeriesError as impossible:
            raise ImpossibleFinalScore(str(impossible)) from None
        return

    try:
        check_final_score(match.length, score[0], score[1])
    except ImpossibleScore as impossible:
        raise ImpossibleFinalScore(str(impossible)) from None


def check_legs(match: FixtureRecord, score: Score, legs: tuple[Score, ...]) -> None:
    """A series' matches as declared or confirmed: consistent with the series result; a single
    match has none."""
    if not legs:
        return
    if match.best_of == 1:
        raise ImpossibleFinalScore("A single match has no matches of its own: send its final score alone.")
    from tavla.rules.series import SeriesError
    from tavla.rules.series import check_legs as check

    try:
        check(match.best_of, match.length, score, legs)
    except SeriesError as impossible:
        raise ImpossibleFinalScore(str(impossible)) from None


def _legs_of(data: Mapping[str, Any]) -> tuple[Score, ...]:
    return tuple((int(h), int(a)) for h, a in data.get("legs") or ())


def by_score(match: FixtureRecord, score: Score, how: How) -> Result:
    assert match.home is not None and match.away is not None
    return Result.by_score(match.home, match.away, score, how)


# --------------------------------------------------------------------------- the live score


@dataclass(frozen=True, eq=False, repr=False)
class EntryAsked(Frozen):
    """A live-score entry as asked, before it is checked against the match: a game (`player`
    won it), a resignation (`player` resigned), penalty points (against `player`) or a time
    loss (`player`'s clock ran out)."""

    kind: Literal["game", "resignation", "penalty", "time"]
    player: str
    result: str = "single"
    cube: int = 1
    passed: bool = False
    points: int = 0
    reason: str = ""


def entry_of(asked: EntryAsked, match: FixtureRecord, at: datetime) -> ScoreEntry:
    """The log entry of a request; a player it names must be one of the two (else 422)."""

    def side(what: str) -> Side:
        found = side_of(match, asked.player)
        if found is None:
            raise NotInMatch(f"{asked.player} is not playing this match ({what}).")
        return found

    when = at.isoformat()
    if asked.kind == "game":
        side("winner")
        return GamePlayed(asked.player, asked.result, asked.cube, asked.passed, False, when)
    if asked.kind == "resignation":  # a game the opponent wins (hbf 4.9, cnb 4.5)
        winner = player_of(match, other(side("resigning player")))
        return GamePlayed(winner, asked.result, asked.cube, False, True, when)
    if asked.kind == "penalty":
        scorer = player_of(match, other(side("penalised player")))
        return PenaltyPoints(
            winner=scorer, points=asked.points, reason=asked.reason, offender=asked.player, at=when
        )
    side("player out of time")
    return TimeLoss(loser=asked.player, at=when)


@dataclass(frozen=True, eq=False, repr=False)
class Record(Operation):
    """The next entry of the live score (R7.2-R7.6, R8.4), on the version the client saw (of two
    players recording the same game at once, one lands). The first entry starts the match; the
    one that completes it finishes it (its table is freed)."""

    asked: EntryAsked
    play: PlaySettings
    actor: Actor
    at: datetime
    version: int

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        from tavla.rules.series import advance as apply_action

        require_open(before, SCORING, "recording the score")
        if before.version != self.version:
            raise StaleMatch(
                f"The match is at version {before.version}, not {self.version}: reload it and try again."
            )
        entry = entry_of(self.asked, before, self.at)
        state = apply_action(live_state(self.play, before), entry.action())  # RuleViolation: 409
        over = state.is_over
        return replace(
            before,
            games=(*before.games, entry),
            score=state.score,
            legs=legs_of(state),
            state=State.FINISHED if over else State.PLAYING,
            started_at=before.started_at or self.at.isoformat(),
            finished_at=self.at.isoformat() if over else before.finished_at,
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        entry = after.games[-1]
        fields = {k: v for k, v in entry.as_json().items() if k != "at"}
        return [
            audit_entry(
                self.actor,
                _RECORDED[entry.kind],
                self.at,
                match=after.code,
                entry=fields,
                score=list(after.score),
            )
        ]


# --------------------------------------------------------------------------- reports


def _score_of(data: Mapping[str, Any]) -> Score:
    return int(data["home_points"]), int(data["away_points"])


@dataclass(frozen=True, eq=False, repr=False)
class Declare(Operation):
    """A player declares the final score (R7.5): both alike -> finished (staff confirm), or
    official at once when the tournament says so; different -> disputed, flagged."""

    side: Side
    score: Score
    play: PlaySettings
    actor: Actor
    at: datetime
    legs: tuple[Score, ...] = ()  # a series: its matches' scores, when the live score lacks them

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        require_open(before, REPORTING, "declaring the final score")
        check_final(before, self.score)
        check_legs(before, self.score, self.legs)
        now = self.at.isoformat()
        mine: dict[str, Any] = {"home_points": self.score[0], "away_points": self.score[1], "at": now}
        if self.legs:
            mine["legs"] = [list(leg) for leg in self.legs]
        reports = {**before.reports, self.side: mine}
        declared = replace(before, reports=reports)
        theirs = reports.get(other(self.side))
        if theirs is None:
            return declared
        legs_differ = bool(self.legs) and bool(_legs_of(theirs)) and _legs_of(theirs) != self.legs
        if _score_of(theirs) != self.score or legs_differ:
            return replace(declared, state=State.DISPUTED, flags=with_flags(before, add=(REPORTS_DIFFER,)))
        state = live_state(self.play, before)
        live = final_of(before, state)
        differs = (LIVE_SCORE_DIFFERS,) if live is not None and live != self.score else ()
        flags = with_flags(before, add=differs, drop=(REPORTS_DIFFER,))
        finished_at = before.finished_at or now
        if not self.play.results_official_without_referee:
            return replace(declared, state=State.FINISHED, finished_at=finished_at, flags=flags)
        timed = state.result is not None and state.result.how == "time" and live == self.score
        return replace(
            declared,
            state=State.OFFICIAL,
            result=by_score(before, self.score, "time" if timed else "score"),
            official_at=now,
            finished_at=finished_at,
            flags=flags,
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        home, away = self.score
        return [
            audit_entry(
                self.actor,
                "score_reported",
                self.at,
                match=after.code,
                side=self.side,
                home_points=home,
                away_points=away,
                state=after.state,
            )
        ]


# --------------------------------------------------------------------------- confirmation


def decided_result(play: PlaySettings, match: FixtureRecord, given: Score | None) -> Result:
    """The result staff confirm: the score they give (the referee's decision), else what prevails.

    Without a score: a disputed match by the profile's rule (R7.5; else 409 decision_needed);
    otherwise the players' agreed score, else the complete live score (else 409 result_missing).
    """
    from tavla.rules.disputes import settle_dispute

    state = live_state(play, match)
    live = final_of(match, state)
    live_how: How = "time" if state.result is not None and state.result.how == "time" else "score"
    reports = {side: _score_of(r) for side, r in match.reports.items() if side in SIDES}
    agreed = reports.get("home") if len(reports) == 2 and reports["home"] == reports["away"] else None
    if given is not None:
        check_final(match, given)
        if match.state == State.DISPUTED or given not in (agreed, live):
            return by_score(match, given, "decision")
        return by_score(match, given, live_how if given == live and agreed is None else "score")
    if match.state == State.DISPUTED:
        prevails = settle_dispute(play.rule_profile, reports, state.score, live)
        if prevails is None:
            raise DecisionNeeded(
                "The players' reports differ: under this tournament's rules the referee decides; "
                "confirm with the score (R7.5)."
            )
        return by_score(match, prevails, live_how if prevails == live else "score")
    if agreed is not None:
        return by_score(match, agreed, "score")
    if live is not None:
        return by_score(match, live, live_how)
    raise ResultMissing("No complete live score and no agreed report: confirm with the score.")


@dataclass(frozen=True, eq=False, repr=False)
class Confirm(Operation):
    """Staff make the result official (R7.5), or change an official one until a match that
    depends on it has started (R9.4); the same result again is `Unchanged`."""

    given: Score | None
    play: PlaySettings
    actor: Actor
    at: datetime
    legs: tuple[Score, ...] = ()  # a series: its matches' scores as the referee gives them

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        require_open(before, CONFIRMING, "confirming a result")
        if self.legs and self.given is None:
            raise ImpossibleFinalScore("The matches' scores come with the series result they make.")
        if before.state == State.OFFICIAL and self.given is None:
            raise Unchanged
        if self.given is not None:
            check_final(before, self.given)
            check_legs(before, self.given, self.legs)
        result = decided_result(self.play, before, self.given)
        if before.state == State.OFFICIAL:
            if result.same_outcome(before.result):
                raise Unchanged
            require_unlocked(before, day.matches.values())
        now = self.at.isoformat()
        return replace(
            before,
            state=State.OFFICIAL,
            result=result,
            legs=self._legs(before, result),
            official_at=now,
            finished_at=before.finished_at or now,
            flags=with_flags(before, drop=(REPORTS_DIFFER,)),
        )

    def _legs(self, before: FixtureRecord, result: Result) -> tuple[Score, ...]:
        """A series' matches on the official result: the referee's, else the live score's, else
        those a player declared with this result."""
        if self.legs or before.legs:
            return self.legs or before.legs
        for report in before.reports.values():
            if _score_of(report) == result.points and _legs_of(report):
                return _legs_of(report)
        return ()

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        assert after.result is not None
        result = after.result.as_json()
        changed = before.state == State.OFFICIAL
        return [
            audit_entry(
                self.actor,
                "result_changed" if changed else "result_confirmed",
                self.at,
                match=after.code,
                previous=before.result.as_json() if changed and before.result else None,
                **{k: result[k] for k in ("winner", "home_points", "away_points", "how")},
            )
        ]


# --------------------------------------------------------------------------- appeals


@dataclass(frozen=True, eq=False, repr=False)
class Window(Frozen):
    """A profile's appeal window (R9.1): how long after the end, and whether a committee hears
    appeals above the referee (then only while the result can still be corrected, R9.4)."""

    after_end: timedelta
    committee: bool


def require_in_window(
    match: FixtureRecord, records: Iterable[FixtureRecord], window: Window, at: datetime
) -> None:
    """Refuse an appeal outside the profile's window (R9.1)."""
    if match.state not in APPEALABLE or match.home is None or match.away is None:
        raise AppealWindowClosed(f"Match {match.code} has not been played: there is nothing to appeal.")
    ended = match.official_at or match.finished_at
    if ended is not None and at > datetime.fromisoformat(ended) + window.after_end:
        minutes = int(window.after_end.total_seconds() // 60)
        raise AppealWindowClosed(
            f"Appeals are lodged within {minutes} minutes of the end of the match (R9.1)."
        )
    if window.committee and locked(match, records):
        raise AppealWindowClosed(
            "A match that depends on this result has started: it can no longer be corrected (R9.1, R9.4)."
        )


@dataclass(frozen=True, eq=False, repr=False)
class Lodge(Operation):
    """A player appeals (R9.1): the match holds the appeal's id, its result is frozen and what
    depends on it is not called until the decision (R9.2). One open appeal per match; a side
    whose grievance against this result was decided may not appeal it again (R9.3, R9.5)."""

    appeal_id: str
    appellant: str
    window: Window
    at: datetime
    records: tuple[AuditRecord, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if before.appeal:
            raise AppealOpen("An appeal on this match is open already: it is decided first (R9.2).")
        if not grievances.may_appeal(self.appellant, before.result, before.appeals_heard):
            raise AppealExhausted(
                "Your appeal against this result has been decided: the decision is final (R9.3, R9.5)."
            )
        require_in_window(before, day.matches.values(), self.window, self.at)
        return replace(before, appeal=self.appeal_id)

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return self.records


@dataclass(frozen=True, eq=False, repr=False)
class Decide(Operation):
    """The decision on the open appeal `appeal_id` (R9.3, R9.5): the match is freed; a new
    result (`result`) becomes official unless a match that depends on it has started (R9.4).
    The grievance is heard: the appellant's against the result that stands, both sides'
    against a new one."""

    appeal_id: str
    appellant: str
    result: Result | None
    at: datetime
    records: tuple[AuditRecord, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if before.appeal != self.appeal_id:
            raise AppealDecided("This appeal has been decided: the decision is final (R9.3).")
        players = (before.home or "", before.away or "")
        if self.result is None:
            heard = grievances.heard_after(
                before.appeals_heard, self.appellant, players, before.result, False
            )
            return replace(before, appeal=None, appeals_heard=heard)
        require_unlocked(before, day.matches.values())
        heard = grievances.heard_after(before.appeals_heard, self.appellant, players, self.result, True)
        return replace(
            before,
            appeal=None,
            state=State.OFFICIAL,
            result=self.result,
            official_at=self.at.isoformat(),
            appeals_heard=heard,
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return self.records


# --------------------------------------------------------------------------- presence and no-shows


def absent_sides(match: FixtureRecord) -> list[Side]:
    """Sides neither marked present nor excused by the referee."""
    return [s for s in SIDES if s not in match.present and s not in match.excused]


def awaited(match: FixtureRecord) -> bool:
    """Called to a table, with a player still not there."""
    return match.state == State.CALLED and match.called_at is not None and bool(absent_sides(match))


def late_points(match: FixtureRecord, points: int, absent: Sequence[str]) -> FixtureRecord:
    """The absent sides owe `points` (absolute: a step fired twice gives them once); both
    absent: flagged for the referee (R6.1-R6.3, R7.6)."""
    owed = dict(match.late_points)
    for side in absent:
        if points:
            owed[side] = points
    flags = match.flags
    if len(absent) == len(SIDES) and BOTH_ABSENT not in flags:
        flags = (*flags, BOTH_ABSENT)
    return replace(match, late_points=owed, flags=flags)


def lateness_audit(
    actor: Actor, before: FixtureRecord, after: FixtureRecord, at: datetime
) -> list[AuditRecord]:
    out = []
    for side in SIDES:
        points = after.late_points.get(side, 0)
        if points != before.late_points.get(side, 0):
            out.append(
                audit_entry(
                    actor, "late_points", at, code=after.code, tavla_id=getattr(after, side), points=points
                )
            )
    if BOTH_ABSENT in after.flags and BOTH_ABSENT not in before.flags:
        out.append(audit_entry(actor, "both_absent", at, code=after.code))
    return out


@dataclass(frozen=True, eq=False, repr=False)
class Late(Operation):
    """A no-show deadline's step that forfeits nobody: penalty points to the absent (R7.6), a
    match nobody came to flagged (R6.3). Nothing changes for a match no longer awaited."""

    points: int
    actor: Actor
    at: datetime
    ruled: tuple[DomainEvent, ...] = ()  # told to the referee when the match is first flagged

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if not awaited(before):
            raise Unchanged
        return late_points(before, self.points, absent_sides(before))

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return lateness_audit(self.actor, before, after, self.at)

    def events(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[DomainEvent]:
        flagged = BOTH_ABSENT in after.flags and BOTH_ABSENT not in before.flags
        return self.ruled if flagged else ()


@dataclass(frozen=True, eq=False, repr=False)
class NoShow(Operation):
    """The no-show deadline forfeits the absent `side` (R6.1, R7.6), only while the match is
    still called with that side alone absent: a step fired twice, or after the referee ruled,
    or once the match started, is `Unchanged`."""

    side: Side
    points: int
    actor: Actor
    at: datetime
    ruled: tuple[DomainEvent, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if not awaited(before) or absent_sides(before) != [self.side]:
            raise Unchanged
        loser = player_of(before, self.side)
        if holds.playing_elsewhere(day, loser, before.code) is not None:
            raise Unchanged  # still at another table of the hall: held, never forfeited
        return replace(
            late_points(before, self.points, [self.side]),
            state=State.OFFICIAL,
            result=Result.forfeited(
                player_of(before, "home"), player_of(before, "away"), before.won_at, loser, "noshow"
            ),
            official_at=self.at.isoformat(),
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        loser = getattr(before, self.side)
        forfeit = audit_entry(
            self.actor, "noshow_forfeit", self.at, code=after.code, tavla_id=loser, side=self.side
        )
        return [*lateness_audit(self.actor, before, after, self.at), forfeit]

    def events(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[DomainEvent]:
        return self.ruled


def verdict(policy: LatenessPolicy, match: FixtureRecord, at: datetime, *, arrived: bool) -> LatenessVerdict:
    """The lateness verdict at `at` on a player of a called match (R6.1, R7.6)."""
    from tavla.rules.lateness import late_arrival

    assert match.called_at is not None
    return late_arrival(policy, match.length, datetime.fromisoformat(match.called_at), at, arrived=arrived)


@dataclass(frozen=True, eq=False, repr=False)
class Presence(Operation):
    """A player of the match marked present (their lateness settled once and for all: the
    points of their arrival given away) or excused (lateness cleared), R6.1-R6.3, R7.6. Only
    while the match awaits its players, and after the deadline only by staff (their ruling
    wins, R6.3); said already: `Unchanged`."""

    side: Side
    present: bool
    staff: bool
    policy: LatenessPolicy
    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if self.side in before.present or self.side in before.excused:
            raise Unchanged
        if not awaited(before):
            raise MatchNotInPlay(f"Match {before.code} is not waiting for its players ({before.state}).")
        owed = dict(before.late_points)
        now = self.at.isoformat()
        if self.present:
            arrival = verdict(self.policy, before, self.at, arrived=True)
            if arrival.forfeit and not self.staff:
                raise TooLateToArrive("The deadline has passed: only the referee can mark you present now.")
            if arrival.penalty_points:
                owed[self.side] = arrival.penalty_points
            after = replace(before, present={**before.present, self.side: now}, late_points=owed)
        else:
            owed.pop(self.side, None)
            after = replace(before, excused={**before.excused, self.side: now}, late_points=owed)
        if len(absent_sides(after)) < len(SIDES):
            after = replace(after, flags=tuple(f for f in after.flags if f != BOTH_ABSENT))
        return after

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        action = "present" if self.present else "excused"
        points = after.late_points.get(self.side) or None
        who = getattr(after, self.side)
        return [audit_entry(self.actor, action, self.at, code=after.code, tavla_id=who, late_points=points)]


@dataclass(frozen=True, eq=False, repr=False)
class Recall(Operation):
    """Staff call a called match again (R6): its clock starts again, presence and lateness
    cleared; `called` announces it (notices, new no-show deadlines)."""

    actor: Actor
    at: datetime
    called: tuple[DomainEvent, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if before.state != State.CALLED:
            raise MatchNotInPlay(f"Match {before.code} cannot be called ({before.state}).")
        return replace(
            before,
            called_at=self.at.isoformat(),
            present={},
            excused={},
            late_points={},
            flags=tuple(f for f in before.flags if f != BOTH_ABSENT),
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return [audit_entry(self.actor, "match_called", self.at, code=after.code, table=after.table)]

    def events(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[DomainEvent]:
        return self.called


@dataclass(frozen=True, eq=False, repr=False)
class Seat(Operation):
    """A queued match takes a free table now if there is one (the day seats what it can, R6)."""

    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        return before

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        if after.state != State.CALLED:
            return []
        return [audit_entry(self.actor, "match_called", self.at, code=after.code, table=after.table)]


# --------------------------------------------------------------------------- conduct


def require_playing(match: FixtureRecord, tavla_id: str, states: frozenset[str], what: str) -> None:
    if tavla_id not in (match.home, match.away):
        raise NoMatchToPenalise(f"{tavla_id} does not play match {match.code}.")
    if match.state not in states:
        raise NoMatchToPenalise(f"Match {match.code} is {match.state}: {what}.")


@dataclass(frozen=True, eq=False, repr=False)
class Penalty(Operation):
    """A penalty of the ladder on `offender`'s match (R8.4): `game`, one game at cube 1 to the
    opponent at the table (it may end the match, official at once); `match`, a forfeit of an
    undecided match (length to nil, how "penalty")."""

    offender: str
    kind: Literal["game", "match"]
    reason: str
    play: PlaySettings
    actor: Actor
    at: datetime
    details: Mapping[str, Any] = field(default_factory=dict)  # the audit record's, besides the outcome

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        now = self.at.isoformat()
        if self.kind == "match":
            require_playing(before, self.offender, UNDECIDED, "its result is official (change it by appeal)")
            home, away = player_of(before, "home"), player_of(before, "away")
            result = Result.forfeited(home, away, before.won_at, self.offender, "penalty")
            return replace(before, state=State.OFFICIAL, result=result, official_at=now)
        from tavla.rules.series import advance as apply_action

        require_playing(before, self.offender, AT_TABLE, "a game penalty is given at the table")
        opponent = player_of(before, other(side_of(before, self.offender) or "home"))
        entry = PenaltyPoints(
            winner=opponent, points=1, reason=f"game penalty: {self.reason}", offender=self.offender, at=now
        )
        state = apply_action(live_state(self.play, before), entry.action())
        after = replace(before, score=state.score, legs=legs_of(state), games=(*before.games, entry))
        final = final_of(before, state)
        if final is None:
            return after
        result = by_score(before, final, "penalty")
        return replace(after, state=State.OFFICIAL, finished_at=now, official_at=now, result=result)

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        score = list(after.score) if self.kind == "game" else None
        result = after.result.as_json() if after.result else None
        return [audit_entry(self.actor, "penalty", self.at, **self.details, score=score, result=result)]


@dataclass(frozen=True, eq=False, repr=False)
class Touch(Operation):
    """Nothing changes on the match itself: the day moves on from it as it stands (a player put
    out forfeits what is due, R8.2, R8.3), with the audit `records`."""

    records: tuple[AuditRecord, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        return before

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return self.records
