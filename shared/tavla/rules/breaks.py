"""Breaks during a match (R7.7): how many each player may take, and whether one may be taken now.

- `cnb` (seed 001, 2.2.2): every player has five-minute breaks by match length: 9 points 1,
  11 or 13 points 2, 15 to 19 points 3, over 19 points 4. The seed gives none below 9 points;
  even lengths fall in the band below the next odd one (10: 1, 12 and 14: 2). Breaks are taken
  only when a game is over; a player may run several of theirs together, and both players may
  join theirs.
- `hbf` (seed 000, 2.2): each player may take one five-minute break (between games) in a match
  of at most 13 points; the referee may allow more in longer or very important matches.
- `platform` (seed 002): says nothing about breaks, so none unless the page or the referee
  grants them.
- A cnb best-of-three series of 7-point matches (seed 001, 2.2.2, last sentence): "le pause
  sono consentite solo tra una partita e l'altra". Never between the games of a leg (a 7-point
  leg has no band), only once a leg is over and the series is not; each player has one break
  at each such moment (`SERIES_BREAKS_PER_GAP`), not carried to the next one, and both players
  may join theirs (decision 0048 gives the reasoning).
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel


class BreakError(RuleViolation):
    """A break question with impossible inputs."""


class BreakPolicy(RuleModel):
    """Breaks per player by match length: `bands` are (longest match length, breaks) in
    increasing order; longer matches get `longer`."""

    model_config = ConfigDict(frozen=True)

    bands: tuple[tuple[int, int], ...] = ()
    longer: int = Field(default=0, ge=0)
    duration: timedelta = timedelta(minutes=5)
    between_games_only: bool = True
    combinable: bool = True

    @model_validator(mode="after")
    def _ordered(self) -> BreakPolicy:
        lengths = [length for length, _ in self.bands]
        if lengths != sorted(set(lengths)) or any(n < 0 for _, n in self.bands):
            raise BreakError("Break bands must go by increasing match length with no negative counts")
        if self.duration <= timedelta(0):
            raise BreakError("A break lasts some minutes")
        return self


NO_BREAKS = BreakPolicy()
CNB_BREAKS = BreakPolicy(bands=((8, 0), (10, 1), (14, 2), (19, 3)), longer=4)
HBF_BREAKS = BreakPolicy(bands=((13, 1),), longer=0, combinable=False)

BREAK_POLICIES: dict[str, BreakPolicy] = {"platform": NO_BREAKS, "hbf": HBF_BREAKS, "cnb": CNB_BREAKS}


def break_policy(policy: BreakPolicy | str) -> BreakPolicy:
    """A policy given as itself or by profile name (platform, hbf, cnb)."""
    if isinstance(policy, BreakPolicy):
        return policy
    try:
        return BREAK_POLICIES[policy]
    except KeyError:
        raise BreakError(f"There is no break policy for profile '{policy}'") from None


def breaks_allowed(policy: BreakPolicy | str, match_length: int, *, extra_granted: int = 0) -> int:
    """Breaks each player may take in a match of `match_length` points (plus any the referee
    granted); `policy` is a profile's policy or its name."""
    policy = break_policy(policy)
    if match_length < 1:
        raise BreakError(f"A match is at least 1 point long, not {match_length}")
    if extra_granted < 0:
        raise BreakError("A referee grants breaks, never takes them away")
    for longest, count in policy.bands:
        if match_length <= longest:
            return count + extra_granted
    return policy.longer + extra_granted


class BreakDecision(RuleModel):
    """Whether a player may start a break now, for how long, and how many they keep."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    reason: str
    remaining_after: int = Field(ge=0)
    duration: timedelta


def break_decision(
    policy: BreakPolicy | str,
    match_length: int,
    *,
    taken: int,
    between_games: bool,
    count: int = 1,
    extra_granted: int = 0,
) -> BreakDecision:
    """May a player who has already taken `taken` breaks take `count` more now? (R7.7)

    Guarantees: never allowed during a game where breaks are between games only, never beyond
    the player's allowance, and several at once only where breaks may be combined.
    `remaining_after` is what the player keeps if the break is taken (or keeps now, if refused).
    """
    policy = break_policy(policy)
    if taken < 0 or count < 1:
        raise BreakError("Breaks are counted from zero and taken one or more at a time")
    allowance = breaks_allowed(policy, match_length, extra_granted=extra_granted)
    left = max(0, allowance - taken)
    if policy.between_games_only and not between_games:
        return _refuse("Breaks are taken only between games: finish this game first", left)
    if allowance == 0:
        return _refuse(f"No breaks in a {match_length}-point match under these rules", left)
    if count > 1 and not policy.combinable:
        return _refuse("Breaks cannot be run together under these rules: one at a time", left)
    if count > left:
        if left == 0:
            return _refuse(f"The player has used all {allowance} of their breaks", left)
        return _refuse(f"The player has only {left} break(s) left", left)
    return _grant(policy, count, left)


def _grant(policy: BreakPolicy, count: int, left: int) -> BreakDecision:
    return BreakDecision(
        allowed=True,
        reason=f"Break of {_minutes(policy.duration * count)} granted",
        remaining_after=left - count,
        duration=policy.duration * count,
    )


def _refuse(reason: str, left: int) -> BreakDecision:
    return BreakDecision(allowed=False, reason=reason, remaining_after=left, duration=timedelta(0))


def _minutes(duration: timedelta) -> str:
    minutes = int(duration.total_seconds()) // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


# A series' breaks (cnb 2.2.2): one per player between one leg and the next (decision 0048).
SERIES_BREAKS_PER_GAP = 1


def series_break_decision(
    policy: BreakPolicy | str,
    *,
    between_legs: bool,
    taken_in_gap: int,
    count: int = 1,
) -> BreakDecision:
    """May a player of a series who has taken `taken_in_gap` breaks since the last leg ended take
    `count` more now? (cnb 2.2.2)

    Guarantees: never allowed unless a leg is over and the series is not (between the games of
    a leg is refused even where a single match of that length would allow it), never more than
    `SERIES_BREAKS_PER_GAP` per player between two legs.
    """
    policy = break_policy(policy)
    if taken_in_gap < 0 or count < 1:
        raise BreakError("Breaks are counted from zero and taken one or more at a time")
    left = max(0, SERIES_BREAKS_PER_GAP - taken_in_gap)
    if not between_legs:
        return _refuse("In a series breaks are taken only between one match and the next", left)
    if count > left:
        if left == 0:
            return _refuse("The player has taken their break between these matches", left)
        return _refuse(f"The player has only {left} break(s) between these matches", left)
    return _grant(policy, count, left)
