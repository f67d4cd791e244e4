"""A match's result as one value: who won, the points home first, and how it was decided.

Every way a match ends builds its result here (a score, a forfeit, a BYE, a referee's or an
appeal's decision), so the official form (the winner has the match length, R7.5; a forfeit is
length to nil, R8.1) is written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from tavla.frozen import Frozen

# score: the players' agreed or live score; time: a clock's time loss (R7.4); decision: the
# referee or an appeal (R7.5, R9.3); penalty: a conduct penalty (R8.4); withdrawal and noshow:
# a player out of play or absent (R8.2, R6.1); bye: a walkover with nobody to play
How = Literal["score", "time", "decision", "penalty", "withdrawal", "noshow", "bye"]


@dataclass(frozen=True, eq=False, repr=False)
class Result(Frozen):
    winner: str
    home_points: int = 0
    away_points: int = 0
    how: How = "score"
    forfeit: bool = False

    @classmethod
    def by_score(cls, home: str, away: str, points: tuple[int, int], how: How = "score") -> Result:
        """The result a final score gives: the side with more points wins."""
        return cls(home if points[0] > points[1] else away, points[0], points[1], how)

    @classmethod
    def bye(cls, winner: str) -> Result:
        return cls(winner, 0, 0, "bye")

    @classmethod
    def forfeited(cls, home: str, away: str, length: int, loser: str, how: How) -> Result:
        """Match length to nil for the opponent of `loser` (R8.1)."""
        winner = away if loser == home else home
        home_points = length if winner == home else 0
        return cls(winner, home_points, length - home_points, how, forfeit=True)

    @classmethod
    def awarded(cls, home: str, away: str, length: int, winner: str, how: How = "decision") -> Result:
        """The match given to `winner` at its length, without a forfeit (an appeal's decision)."""
        home_points = length if winner == home else 0
        return cls(winner, home_points, length - home_points, how)

    @property
    def points(self) -> tuple[int, int]:
        return self.home_points, self.away_points

    def same_outcome(self, other: Result | None) -> bool:
        """The same winner and score (how it was reached aside): confirming it again changes nothing."""
        return other is not None and (self.winner, self.points) == (other.winner, other.points)

    def as_json(self) -> dict[str, Any]:
        """The result as stored and shown: {winner, home_points, away_points, how, forfeit}."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        return cls(
            winner=str(data["winner"]),
            home_points=int(data.get("home_points", 0)),
            away_points=int(data.get("away_points", 0)),
            how=data.get("how", "score"),
            forfeit=bool(data.get("forfeit", False)),
        )
