"""Player rating: the FIBS formula with the platform's experience boost (R10.3, R1.1).

FIBS (`help formula`), as SPEC R10.3 states it: D = |r1 - r2|, n = match length,
P_upset = 1 / (10^(D*sqrt(n)/2000) + 1) is the underdog's chance to win; P = P_upset when
the favourite won, else 1 - P_upset; each player moves by 4 * K * sqrt(n) * P, the winner up
and the loser down, K being that player's own experience boost. The platform counts rated
matches instead of FIBS's experience points: K = max(1, 5 - 4*m/30), m = the rated matches
the player finished before this one, so K = 5 in the first match and 1 from the 31st match on
(m = 30). New players start at 1500. Forfeits and BYEs are not rated.

Numbers: ratings are Python floats (IEEE-754 doubles), as on FIBS. The formula is built
from a square root and a power of ten, so Decimal would be no more exact, only slower;
the same history replayed in the same order gives bit-for-bit the same rating on the same
runtime. Store the full float; show it with `display_rating` (2 decimals, round half to
even on the stored binary value: 1503.904... -> "1503.90").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from datetime import datetime

from pydantic import ConfigDict, Field

from tavla.rules.entrants import MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel

__all__ = [
    "PROVISIONAL_MATCHES",
    "START_RATING",
    "HistoryEntry",
    "PlayerReplay",
    "RatedResult",
    "RatingError",
    "RatingState",
    "RatingStep",
    "display_rating",
    "experience_boost",
    "match_rating_changes",
    "rate_match",
    "rated_result",
    "replay_history",
    "replay_player",
    "upset_probability",
]

START_RATING = 1500.0
"""Rating of a new player (R10.3)."""

PROVISIONAL_MATCHES = 30
"""Rated matches after which the boost K reaches 1 (R10.3: the provisional period)."""

_MAX_EXPONENT = 300.0  # 10**300 is finite; beyond it P_upset is 0 to double precision anyway


class RatingError(RuleViolation):
    """A rating request the rules do not allow (bad match length, a player against themselves)."""


class RatingState(RuleModel):
    """A player's rating and how many rated matches they have finished."""

    model_config = ConfigDict(frozen=True)

    rating: float = Field(default=START_RATING, allow_inf_nan=False)
    rated_matches: int = Field(default=0, ge=0)

    @property
    def provisional(self) -> bool:
        """True during the first 30 rated matches, while the rating moves faster."""
        return self.rated_matches < PROVISIONAL_MATCHES


def experience_boost(rated_matches: int) -> float:
    """K = max(1, 5 - 4*m/30) for a player with `m` rated matches finished before this one."""
    if rated_matches < 0:
        raise RatingError("a player cannot have a negative number of rated matches")
    return max(1.0, 5.0 - 4.0 * rated_matches / PROVISIONAL_MATCHES)


def _check_length(match_length: int) -> None:
    if match_length < 1:
        raise RatingError(f"match length must be at least 1 point, got {match_length}")


def upset_probability(rating_a: float, rating_b: float, match_length: int) -> float:
    """The underdog's chance to win an n-point match: 1 / (10^(D*sqrt(n)/2000) + 1)."""
    _check_length(match_length)
    exponent = min(abs(rating_a - rating_b) * math.sqrt(match_length) / 2000.0, _MAX_EXPONENT)
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def match_rating_changes(winner: RatingState, loser: RatingState, match_length: int) -> tuple[float, float]:
    """The rating changes of one rated match: `(winner's gain, loser's change)`.

    The gain is >= 0 and the loser's change <= 0. With equal boosts K the two are exact
    opposites (zero-sum); a provisional player moves by their own, larger K only.
    Worked example (R10.3): 1850 vs 1750, 5 points, both K = 1: the favourite wins +-3.90,
    the underdog wins +-5.04.
    """
    p_upset = upset_probability(winner.rating, loser.rating, match_length)
    p = p_upset if winner.rating >= loser.rating else 1.0 - p_upset
    base = 4.0 * math.sqrt(match_length) * p
    return (
        experience_boost(winner.rated_matches) * base,
        -(experience_boost(loser.rated_matches) * base),
    )


def rate_match(winner: RatingState, loser: RatingState, match_length: int) -> tuple[RatingState, RatingState]:
    """Both players' states after one rated match (each gains one rated match)."""
    gain, loss = match_rating_changes(winner, loser, match_length)
    return (
        RatingState(rating=winner.rating + gain, rated_matches=winner.rated_matches + 1),
        RatingState(rating=loser.rating + loss, rated_matches=loser.rated_matches + 1),
    )


def display_rating(rating: float) -> str:
    """The rating as shown to people: 2 decimals ("1503.90")."""
    return f"{rating:.2f}"


class RatedResult(RuleModel):
    """A finished match as the rating sees it. Forfeits are carried but not rated."""

    model_config = ConfigDict(frozen=True)

    winner: str = Field(min_length=1)
    loser: str = Field(min_length=1)
    match_length: int = Field(ge=1)
    forfeit: bool = False


def rated_result(record: MatchRecord, match_length: int) -> RatedResult | None:
    """The rating's view of a match record; None for a BYE (nothing to rate)."""
    loser = record.loser
    if loser is None:
        return None
    return RatedResult(winner=record.winner, loser=loser, match_length=match_length, forfeit=record.forfeit)


def replay_history(
    results: Iterable[RatedResult],
    initial: Mapping[str, RatingState] | None = None,
) -> dict[str, RatingState]:
    """Replay matches in the order given and return every player's final state.

    Players missing from `initial` start at 1500 with no rated matches. Forfeits change
    nothing (R10.3). Guarantees: the same results in the same order give the same ratings.
    """
    states: dict[str, RatingState] = dict(initial or {})
    for r in results:
        if r.winner == r.loser:
            raise RatingError(f"{r.winner} cannot play against themselves")
        if r.forfeit:
            continue
        w = states.get(r.winner, RatingState())
        lo = states.get(r.loser, RatingState())
        states[r.winner], states[r.loser] = rate_match(w, lo, r.match_length)
    return states


class HistoryEntry(RuleModel):
    """One match of a player's rating history, with the opponent's rating before it."""

    model_config = ConfigDict(frozen=True)

    match_id: str = Field(min_length=1)
    played_at: datetime
    opponent_id: str = Field(min_length=1)
    opponent_rating: float = Field(allow_inf_nan=False)
    match_length: int = Field(ge=1)
    won: bool
    forfeit: bool = False


class RatingStep(RuleModel):
    """One rated match in a replayed history: the rating before and after it."""

    model_config = ConfigDict(frozen=True)

    match_id: str
    rating_before: float
    change: float
    rating_after: float
    boost: float


class PlayerReplay(RuleModel):
    """The outcome of replaying one player's history: the final state and every step."""

    model_config = ConfigDict(frozen=True)

    state: RatingState
    steps: tuple[RatingStep, ...]


def replay_player(
    entries: Iterable[HistoryEntry],
    own_ids: Set[str] = frozenset(),
    start: RatingState | None = None,
) -> PlayerReplay:
    """Recompute one player's rating from their history, e.g. after an account merge (R1.1).

    Give the entries of all the merged accounts and their ids as `own_ids`. The entries are
    replayed in time order (`played_at`, then `match_id`); matches between the merged
    accounts (the person against themselves) and forfeits are not rated. Opponents keep
    the rating they had at the time (`opponent_rating`), so nobody else's rating changes.
    Refuses the same match twice.
    """
    ordered = sorted(entries, key=lambda e: (e.played_at, e.match_id))
    seen: set[str] = set()
    state = start or RatingState()
    steps: list[RatingStep] = []
    for e in ordered:
        if e.match_id in seen:
            raise RatingError(f"match {e.match_id} appears twice in the history")
        seen.add(e.match_id)
        if e.forfeit or e.opponent_id in own_ids:
            continue
        opponent = RatingState(rating=e.opponent_rating)
        if e.won:
            change, _ = match_rating_changes(state, opponent, e.match_length)
        else:
            _, change = match_rating_changes(opponent, state, e.match_length)
        after = RatingState(rating=state.rating + change, rated_matches=state.rated_matches + 1)
        steps.append(
            RatingStep(
                match_id=e.match_id,
                rating_before=state.rating,
                change=change,
                rating_after=after.rating,
                boost=experience_boost(state.rated_matches),
            )
        )
        state = after
    return PlayerReplay(state=state, steps=tuple(steps))
