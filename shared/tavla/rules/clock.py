"""Match clocks (R7.4): settings, the cnb defaults, a clock added mid-match, loss on time.

Durations are accepted as `int` seconds or `datetime.timedelta` and returned as `timedelta`.

- Bronstein delay (cnb 3.5.5, mandatory there): the reserve runs during the move and the time
  used, up to the delay, is given back after it; unused delay is not saved ("non cumulabili").
  The flag falls when a move takes longer than the reserve.
- Simple delay: the reserve starts only after the delay; the flag falls when a move takes
  longer than reserve + delay. After a completed move both leave the same reserve.
- Increment (Fischer): the reserve runs during the move and the increment is added after it,
  so unused time accumulates.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel

ClockKind = Literal["bronstein", "simple_delay", "increment"]
ClockUse = Literal["off", "optional", "on_request", "mandatory"]
Side = Literal["A", "B"]
Duration = int | timedelta

CNB_SECONDS_PER_POINT = 120
CNB_DELAY_SECONDS = 12


class ClockError(RuleViolation):
    """Clock settings or readings that make no sense."""


def as_duration(value: Duration) -> timedelta:
    """`int` seconds or a `timedelta`, as a `timedelta`."""
    if isinstance(value, timedelta):
        return value
    return timedelta(seconds=value)


class ClockSettings(RuleModel):
    """One match's clock: reserve per player and delay (or increment) per move."""

    model_config = ConfigDict(frozen=True)

    kind: ClockKind = "bronstein"
    reserve: timedelta = Field(description="total time per player")
    delay: timedelta = Field(default=timedelta(0), description="delay, or increment, per move")

    @model_validator(mode="after")
    def _positive(self) -> ClockSettings:
        if self.reserve <= timedelta(0):
            raise ClockError("A clock needs some reserve time for each player")
        if self.delay < timedelta(0):
            raise ClockError("The delay per move cannot be negative")
        return self


class ClockPolicy(RuleModel):
    """How a rule profile or a tournament page uses clocks (cnb 3.5.1, hbf 2.4, platform 8).

    `use`: off (only a referee may impose one), optional (both players agree), on_request (one
    player's request suffices), mandatory. The reserve is either per point of match length or a
    fixed total per player.
    """

    model_config = ConfigDict(frozen=True)

    use: ClockUse = "off"
    kind: ClockKind = "bronstein"
    reserve_per_point: timedelta | None = timedelta(seconds=CNB_SECONDS_PER_POINT)
    reserve_total: timedelta | None = None
    delay: timedelta = timedelta(seconds=CNB_DELAY_SECONDS)

    @model_validator(mode="after")
    def _one_reserve(self) -> ClockPolicy:
        if (self.reserve_per_point is None) == (self.reserve_total is None):
            raise ClockError("Give the clock's reserve either per point of match length or as a total")
        for reserve in (self.reserve_per_point, self.reserve_total):
            if reserve is not None and reserve <= timedelta(0):
                raise ClockError("A clock needs some reserve time for each player")
        if self.delay < timedelta(0):
            raise ClockError("The delay per move cannot be negative")
        return self

    def settings_for(self, match_length: int) -> ClockSettings:
        """The clock for a match of `match_length` points started with it."""
        _check_length(match_length)
        if self.reserve_per_point is not None:
            reserve = self.reserve_per_point * match_length
        else:
            assert self.reserve_total is not None
            reserve = self.reserve_total
        return ClockSettings(kind=self.kind, reserve=reserve, delay=self.delay)


def _check_length(match_length: int) -> None:
    if match_length < 1:
        raise ClockError(f"A match is at least 1 point long, not {match_length}")


def cnb_default_clock(match_length: int) -> ClockSettings:
    """cnb 3.5.5 (R7.4): Bronstein, 2 minutes per point of match length, 12 seconds a move."""
    _check_length(match_length)
    return ClockSettings(
        kind="bronstein",
        reserve=timedelta(seconds=CNB_SECONDS_PER_POINT * match_length),
        delay=timedelta(seconds=CNB_DELAY_SECONDS),
    )


def clock_for_match_in_progress(
    match_length: int,
    score_a: int,
    score_b: int,
    *,
    kind: ClockKind = "bronstein",
    delay: Duration = CNB_DELAY_SECONDS,
) -> ClockSettings:
    """A clock brought into a match already under way (cnb 3.5.6, R7.4).

    Each player gets as many minutes as the points player A still needs plus the points player B
    still needs. Also the setting after late-arrival penalty points (cnb 2.2.4).
    """
    _check_length(match_length)
    if not (0 <= score_a < match_length and 0 <= score_b < match_length):
        raise ClockError(f"{score_a}-{score_b} is not the score of a {match_length}-point match in progress")
    minutes = (match_length - score_a) + (match_length - score_b)
    return ClockSettings(kind=kind, reserve=timedelta(minutes=minutes), delay=as_duration(delay))


class MoveOnClock(RuleModel):
    """The mover's reserve after a move, and whether their flag fell during it."""

    model_config = ConfigDict(frozen=True)

    remaining: timedelta
    flag_fell: bool


def time_after_move(settings: ClockSettings, remaining: Duration, move_time: Duration) -> MoveOnClock:
    """The mover's reserve after a move of `move_time`, by clock kind (see the module notes).

    When the flag falls, `remaining` is zero.
    """
    left = as_duration(remaining)
    used = as_duration(move_time)
    if used < timedelta(0):
        raise ClockError("A move cannot take negative time")
    zero = timedelta(0)
    if settings.kind == "simple_delay":
        charged = max(zero, used - settings.delay)
        if charged > left:
            return MoveOnClock(remaining=zero, flag_fell=True)
        return MoveOnClock(remaining=left - charged, flag_fell=False)
    if used > left:
        return MoveOnClock(remaining=zero, flag_fell=True)
    if settings.kind == "bronstein":
        return MoveOnClock(remaining=left - used + min(used, settings.delay), flag_fell=False)
    return MoveOnClock(remaining=left - used + settings.delay, flag_fell=False)


class TimeVerdict(RuleModel):
    """Who loses on time, or whether play goes on (maybe without the clock)."""

    model_config = ConfigDict(frozen=True)

    loser: Side | None
    play_on_without_clock: bool = False
    reason: str


def time_loser(
    remaining_a: Duration,
    remaining_b: Duration,
    *,
    first_out: Side | None = None,
    certain_win: bool = False,
) -> TimeVerdict:
    """Who lost the match on time, given both reserves (R7.4, cnb 4.3.3).

    A player whose reserve is zero or less has run out and loses the match - unless, when their
    time ran out, their win was already mathematically certain (`certain_win`): they then win.
    When both have run out and `first_out` does not say who ran out first, nobody loses: the
    rest of the match is played without the clock.
    """
    a_out = as_duration(remaining_a) <= timedelta(0)
    b_out = as_duration(remaining_b) <= timedelta(0)
    if not a_out and not b_out:
        return TimeVerdict(loser=None, reason="Both players still have time")
    if a_out and b_out:
        if first_out is None:
            return TimeVerdict(
                loser=None,
                play_on_without_clock=True,
                reason=(
                    "Both players ran out of time and nobody knows who was first: play on without the clock"
                ),
            )
        out: Side = first_out
    else:
        out = "A" if a_out else "B"
    other: Side = "B" if out == "A" else "A"
    if certain_win:
        return TimeVerdict(
            loser=other,
            reason=f"{out} ran out of time with a certain win on the board: {out} wins the match",
        )
    return TimeVerdict(loser=out, reason=f"{out} ran out of time and loses the match")
