"""Breaks on the day (R7.7): started from the match screen, ended when the players are back, and
an overrun charged on the profile's lateness ladder (R7.6) by a schedule, nobody watching a clock.

A break is started by a player of the match (for themself) or by the referee (for either or
both), only between games: the match is being played and its last live-score entry is a game
(cnb: "solo a conclusione di un game"); one is not started while another runs. The profile's
allowance (`rules.breaks`) counts per player; where breaks may be combined (cnb) a player may
run several of theirs together and both players may take theirs at once. A cnb best-of-three
series of 7-point matches (`rules.series`) allows them only between its matches: once a leg is
over and the series is not, one per player (`series_break_decision`); between the games of a
leg it is refused with its own code.

The break ends at `started_at + duration x count`. A player is back when they say so (or the
referee does), or when the next game is recorded. One still away at the end owes the opponent
penalty points as a late arrival would from that moment (R7.6: cnb a point after 5 minutes and
one per 5 minutes more, hbf after 15 minutes); points that exceed half the match length lose
the match. The schedule fires at each step of that ladder (`Overrun`), and the player's return
settles what they owe (`Back`); points are absolute per break, so a step fired twice, or a
return after a step, never charges twice.

No I/O here; the refusals are the API's errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from tavla.errors import BreakNotBetweenLegs, BreakRefused, NoBreakRunning
from tavla.rules.lateness import LatenessPolicy, late_arrival
from tavla.rules.model import Actor, AuditRecord, FixtureRecord, audit_entry
from tavla.rules.operations import (
    Operation,
    Side,
    Unchanged,
    final_of,
    legs_of,
    live_state,
    other,
    player_of,
    require_open,
)
from tavla.rules.play_settings import PlaySettings
from tavla.rules.results import Result
from tavla.rules.score_entries import EntryKind, PenaltyPoints
from tavla.rules.states import AT_TABLE, State

if TYPE_CHECKING:
    from tavla.rules.breaks import BreakPolicy
    from tavla.rules.model import Day

OVERRUN = "break overrun"  # the reason on the penalty points an overrun gives
MAX_STEPS = 20


def taken(match: FixtureRecord, side: str) -> int:
    """Breaks `side` has taken in this match."""
    return sum(int(b.get("count", 1)) for b in match.breaks if side in b.get("sides", ()))


def taken_in_gap(match: FixtureRecord, side: str) -> int:
    """Breaks `side` has taken since the series' last finished leg (between these two legs)."""
    gap = len(match.legs)
    return sum(
        int(b.get("count", 1))
        for b in match.breaks
        if side in b.get("sides", ()) and int(b.get("after_leg", -1)) == gap
    )


def between_legs(match: FixtureRecord) -> bool:
    """A series whose last leg is over and which is not: the current leg's score holds the leg
    length (a leg in play never does), the match still being played."""
    return match.best_of > 1 and match.state == State.PLAYING and max(match.score) >= match.length


def left(policy: BreakPolicy, match: FixtureRecord) -> dict[str, int]:
    """The breaks each side has left (what both players see on the match screen); a series:
    those left between these two legs (or for the next gap, while a leg is played)."""
    from tavla.rules.breaks import SERIES_BREAKS_PER_GAP, breaks_allowed

    if match.best_of > 1:
        now = between_legs(match)
        return {
            side: max(0, SERIES_BREAKS_PER_GAP - (taken_in_gap(match, side) if now else 0))
            for side in ("home", "away")
        }
    allowance = breaks_allowed(policy, match.length)
    return {side: max(0, allowance - taken(match, side)) for side in ("home", "away")}


def allowed_now(match: FixtureRecord) -> bool:
    """Whether the match is at a moment a break may start (the screen shows its button then):
    between games, or in a series between legs; no break running."""
    if match.state != State.PLAYING or running(match) is not None:
        return False
    return between_legs(match) if match.best_of > 1 else between_games(match)


def running(match: FixtureRecord) -> Mapping[str, Any] | None:
    """The break running now: the last one, while a side of it is not back and no game was
    recorded since it started."""
    if not match.breaks:
        return None
    last = match.breaks[-1]
    away = [s for s in last["sides"] if s not in last.get("back", {})]
    played = any(e.kind == EntryKind.GAME and (e.at or "") > last["started_at"] for e in match.games)
    return last if away and not played else None


def between_games(match: FixtureRecord) -> bool:
    """A game is over and the next not recorded: the last live-score entry is a game."""
    games = [e for e in match.games if e.kind == EntryKind.GAME]
    return bool(games) and match.games[-1].kind == EntryKind.GAME


def ends_at(brk: Mapping[str, Any]) -> datetime:
    return datetime.fromisoformat(str(brk["ends_at"]))


@dataclass(frozen=True, eq=False, repr=False)
class Start(Operation):
    """A break of `count` breaks each for `sides`, starting now (see the module)."""

    sides: tuple[Side, ...]
    count: int
    policy: BreakPolicy
    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        require_open(before, AT_TABLE, "a break")
        if running(before) is not None:
            raise BreakRefused("A break is running: it ends first.")
        if len(self.sides) > 1 and not self.policy.combinable:
            raise BreakRefused("Breaks cannot be run together under these rules: one player at a time.")
        from tavla.rules.breaks import break_decision, series_break_decision  # builds the policies

        duration = timedelta(0)
        for side in self.sides:
            if before.best_of > 1:
                decision = series_break_decision(
                    self.policy,
                    between_legs=between_legs(before),
                    taken_in_gap=taken_in_gap(before, side),
                    count=self.count,
                )
                if not decision.allowed and not between_legs(before):
                    raise BreakNotBetweenLegs(f"{decision.reason} (cnb 2.2.2).")
            else:
                decision = break_decision(
                    self.policy,
                    before.length,
                    taken=taken(before, side),
                    between_games=between_games(before),
                    count=self.count,
                )
            if not decision.allowed:
                raise BreakRefused(f"{decision.reason}.")
            duration = decision.duration
        brk: dict[str, Any] = {
            "sides": list(self.sides),
            "count": self.count,
            "by": self.actor.tavla_id or self.actor.sub,
            "started_at": self.at.isoformat(),
            "ends_at": (self.at + duration).isoformat(),
            "back": {},
            "points": {},
            **({"after_leg": len(before.legs)} if before.best_of > 1 else {}),
        }
        return replace(before, breaks=(*before.breaks, brk))

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        brk = after.breaks[-1]
        return [
            audit_entry(
                self.actor,
                "break_started",
                self.at,
                match=after.code,
                sides=brk["sides"],
                count=brk["count"],
                ends_at=brk["ends_at"],
            )
        ]


def _charged(
    before: FixtureRecord,
    brk: Mapping[str, Any],
    owed: Mapping[str, int],
    lost: str | None,
    play: PlaySettings,
    at: datetime,
) -> FixtureRecord:
    """The match once each side owes `owed` points for this break (absolute) and, if `lost`, that
    side has lost the match: the new points as penalty entries of the live score (R7.6)."""
    from tavla.rules.series import advance

    points = dict(brk.get("points", {}))
    entries = []
    for side, total in sorted(owed.items()):
        extra = total - int(points.get(side, 0))
        if extra > 0:
            opponent = player_of(before, other(side))
            entries.append(
                PenaltyPoints(
                    winner=opponent,
                    points=extra,
                    reason=OVERRUN,
                    offender=player_of(before, side),
                    at=at.isoformat(),
                )
            )
            points[side] = total
    new_brk = {**brk, "points": points}
    after = replace(before, breaks=(*before.breaks[:-1], new_brk))
    now = at.isoformat()
    home, away = player_of(before, "home"), player_of(before, "away")
    if lost is not None:
        result = Result.forfeited(home, away, before.won_at, player_of(before, lost), "penalty")
        return replace(after, state=State.OFFICIAL, result=result, official_at=now, finished_at=now)
    if not entries:
        return after
    state = live_state(play, before)
    for entry in entries:
        if not state.is_over:
            state = advance(state, entry.action())
    after = replace(after, games=(*before.games, *entries), score=state.score, legs=legs_of(state))
    final = final_of(before, state)
    if final is None:
        return after
    result = Result.by_score(home, away, final, "penalty")
    return replace(after, state=State.OFFICIAL, result=result, official_at=now, finished_at=now)


@dataclass(frozen=True, eq=False, repr=False)
class Back(Operation):
    """`side` is back from the running break (said by the player or the referee): late, they owe
    what the ladder gives for the overrun (R7.6)."""

    side: Side
    lateness: LatenessPolicy
    play: PlaySettings
    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        brk = running(before)
        if brk is None or self.side not in brk["sides"] or self.side in brk.get("back", {}):
            raise NoBreakRunning("No break of this player is running.")
        require_open(before, frozenset({State.PLAYING}), "ending a break")
        verdict = late_arrival(
            self.lateness, before.length, ends_at(brk), max(self.at, ends_at(brk)), arrived=True
        )
        brk = {**brk, "back": {**brk.get("back", {}), self.side: self.at.isoformat()}}
        marked = replace(before, breaks=(*before.breaks[:-1], brk))
        owed: dict[str, int] = {self.side: verdict.penalty_points} if verdict.penalty_points else {}
        return _charged(marked, brk, owed, self.side if verdict.forfeit else None, self.play, self.at)

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        points = int(after.breaks[-1].get("points", {}).get(self.side, 0))
        return [
            audit_entry(
                self.actor,
                "break_ended",
                self.at,
                match=after.code,
                side=self.side,
                penalty_points=points or None,
            )
        ]


@dataclass(frozen=True, eq=False, repr=False)
class Overrun(Operation):
    """A step of the overrun ladder of the break started at `started_at` fired: whoever of it is
    still away owes the ladder's points (or loses the match, R7.6). A break over, or another
    one, changes nothing."""

    started_at: str
    lateness: LatenessPolicy
    play: PlaySettings
    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        brk = running(before)
        if brk is None or brk["started_at"] != self.started_at or before.state != State.PLAYING:
            raise Unchanged
        verdict = late_arrival(self.lateness, before.length, ends_at(brk), self.at, arrived=False)
        away = [s for s in brk["sides"] if s not in brk.get("back", {})]
        owed: dict[str, int] = {s: verdict.penalty_points for s in away if verdict.penalty_points}
        lost = away[0] if verdict.forfeit and len(away) == 1 else None
        after = _charged(before, brk, owed, lost, self.play, self.at)
        if after == before:
            raise Unchanged
        return after

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        points = after.breaks[-1].get("points", {})
        return [
            audit_entry(
                self.actor, "break_overrun", self.at, match=after.code, points=dict(points), state=after.state
            )
        ]


def overrun_steps(lateness: LatenessPolicy, match: FixtureRecord, brk: Mapping[str, Any]) -> list[datetime]:
    """Every moment a player still away from the break owes more (up to the loss of the match)."""
    moments: list[datetime] = []
    start = ends_at(brk)
    at: datetime | None = start
    while at is not None and len(moments) < MAX_STEPS:
        at = late_arrival(lateness, match.length, start, at, arrived=False).next_change_at
        if at is not None:
            moments.append(at)
    return moments
