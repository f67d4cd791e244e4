"""A series: best of three 7-point matches ("legs") between the same two players (cnb 2.2.2).

The series is one match of the day (one table, one result); its live score is the log of games
as for any match, replayed leg by leg: a leg ends when a player reaches 7 points (or loses it on
time or by forfeit), and the next entry starts the next leg at 0-0 with the cube centred. The
series is won by the first player to win two legs; its official result is the legs won, home
first: 2-0, 2-1, 1-2 or 0-2 (a forfeit: 2-0 for the opponent, R8.1's "length to nil").

Only cnb's rulebook has series, and it gives them their own break rule: "Quando si disputa una
serie al meglio delle tre partite ai sette punti, le pause sono consentite solo tra una partita
e l'altra": breaks between legs, never between the games of a leg (`rules.breaks`).

`SeriesState` answers what the day reads of a match's live state (`score`, `games`, `is_over`,
`result`, `is_crawford_game`) so the operations replay a series as they replay a match;
`advance` applies an action to either. Between legs `current` is the leg just finished (its
score stays on the screen until the next game starts the next leg).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from tavla.frozen import Frozen
from tavla.rules.errors import RuleViolation

if TYPE_CHECKING:
    from tavla.rules.match import GameRecord, MatchAction, MatchResult, MatchState

SERIES_BEST_OF = 3
SERIES_LEG_LENGTH = 7
FORMATS = (1, SERIES_BEST_OF)  # a single match, or a best-of-three series


class SeriesError(RuleViolation):
    """A series question with impossible inputs."""


def legs_to_win(best_of: int) -> int:
    """Legs a player must win: the majority of `best_of` (2 of 3)."""
    if best_of < 1 or best_of % 2 == 0:
        raise SeriesError(f"A series is the best of an odd number of matches, not {best_of}")
    return best_of // 2 + 1


def possible_series_scores(best_of: int) -> frozenset[tuple[int, int]]:
    """Every official series result, home first: the winner has the majority, the loser less."""
    need = legs_to_win(best_of)
    return frozenset({(need, n) for n in range(need)} | {(n, need) for n in range(need)})


def check_series_score(best_of: int, score: tuple[int, int]) -> None:
    """Refuse a series result that no series of `best_of` can end with (e.g. 3-0 or 1-1)."""
    if tuple(score) not in possible_series_scores(best_of):
        need = legs_to_win(best_of)
        raise SeriesError(
            f"{score[0]}-{score[1]} is not the result of a best-of-{best_of} series: "
            f"the winner has {need} matches won, the loser fewer"
        )


def check_legs(
    best_of: int, leg_length: int, score: tuple[int, int], legs: tuple[tuple[int, int], ...]
) -> None:
    """Refuse legs that do not make the series result `score`: each leg a final score of a
    `leg_length`-point match (the winner exactly at it), no leg after the series was decided,
    and the legs won adding up to `score`."""
    from tavla.rules.match import ImpossibleScore, check_final_score

    check_series_score(best_of, score)
    won = [0, 0]
    for number, (home, away) in enumerate(legs, 1):
        if max(won) == legs_to_win(best_of):
            raise SeriesError(f"Match {number}: the series was over before it")
        try:
            check_final_score(leg_length, home, away)
        except ImpossibleScore as impossible:
            raise SeriesError(f"Match {number}: {impossible}") from None
        won[0 if home > away else 1] += 1
    if tuple(won) != tuple(score):
        raise SeriesError(
            f"The matches' scores give {won[0]}-{won[1]} in matches won, not {score[0]}-{score[1]}"
        )


@dataclass(frozen=True, eq=False, repr=False)
class SeriesState(Frozen):
    """A series as replayed so far (see the module): the legs finished (their official scores,
    in player order) and the leg of the last entry."""

    best_of: int
    current: MatchState
    legs: tuple[tuple[int, int], ...] = ()
    result: MatchResult | None = None

    @property
    def score(self) -> tuple[int, int]:
        """The running score of the current leg (or the leg just finished, between legs)."""
        return self.current.score

    @property
    def games(self) -> tuple[GameRecord, ...]:
        return self.current.games

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def is_crawford_game(self) -> bool:
        return self.current.is_crawford_game

    @property
    def between_legs(self) -> bool:
        """A leg is over and the series is not: the only moment breaks are allowed."""
        return self.current.is_over and self.result is None

    @property
    def legs_won(self) -> tuple[int, int]:
        return (
            sum(1 for a, b in self.legs if a > b),
            sum(1 for a, b in self.legs if b > a),
        )


def start_series(
    players: tuple[str, str],
    *,
    best_of: int = SERIES_BEST_OF,
    leg_length: int = SERIES_LEG_LENGTH,
    cube_used: bool = True,
    crawford_rule: bool = True,
) -> SeriesState:
    """A new series at 0-0 in legs, its first leg at 0-0."""
    from tavla.rules.match import start_match

    legs_to_win(best_of)
    leg = start_match(leg_length, players, cube_used=cube_used, crawford_rule=crawford_rule)
    return SeriesState(best_of=best_of, current=leg)


def _official(leg: MatchState) -> tuple[int, int]:
    """A finished leg's official score in player order (winner at the leg's length)."""
    assert leg.result is not None
    res = leg.result
    if res.winner == leg.players[0]:
        return res.winner_points, res.loser_points
    return res.loser_points, res.winner_points


def apply_to_series(state: SeriesState, action: MatchAction) -> SeriesState:
    """The series after `action`: applied to the leg in play (a new one once the last is over);
    the leg that gives a player the majority of legs ends the series.

    Guarantees: legs only accumulate; the series has a result exactly when a player has won the
    majority of `best_of` legs, and that result is a possible series score.
    """
    from tavla.rules.match import MatchOver, MatchResult, apply_action, start_match

    if state.result is not None:
        raise MatchOver(f"The series is over: {state.result.winner} won {state.result.score_text}")
    leg = state.current
    if leg.is_over:
        leg = start_match(
            leg.match_length, leg.players, cube_used=leg.cube_used, crawford_rule=leg.crawford_rule
        )
    leg = apply_action(leg, action)
    if not leg.is_over:
        return replace(state, current=leg)
    legs = (*state.legs, _official(leg))
    after = replace(state, current=leg, legs=legs)
    won = after.legs_won
    need = legs_to_win(state.best_of)
    if max(won) < need:
        return after
    assert leg.result is not None
    winner = 0 if won[0] >= need else 1
    result = MatchResult(
        winner=leg.players[winner],
        loser=leg.players[1 - winner],
        winner_points=won[winner],
        loser_points=won[1 - winner],
        how=leg.result.how,
        forfeit_reason=leg.result.forfeit_reason,
    )
    return replace(after, result=result)


def advance(state: MatchState | SeriesState, action: MatchAction) -> MatchState | SeriesState:
    """`action` applied to a match or a series (`rules.match.apply_action` / `apply_to_series`)."""
    if isinstance(state, SeriesState):
        return apply_to_series(state, action)
    from tavla.rules.match import apply_action

    return apply_action(state, action)
