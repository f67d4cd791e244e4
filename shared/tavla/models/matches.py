"""One match's live score and result through the API (R7.2-R7.6, R8.4, R9.4). Public fields only."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from tavla.models.adjournment import AdjournmentView, BreaksView
from tavla.models.common import ApiModel, ShortText, StrictModel, TavlaId
from tavla.models.day import MatchView, Side

GameKind = Literal["single", "gammon", "backgammon"]
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)


def _cube_value(value: int) -> int:
    if value not in CUBE_VALUES:
        raise ValueError(f"a cube shows 1, 2, 4, 8, 16, 32 or 64, not {value}")
    return value


class GameEntry(StrictModel):
    """One finished game as the scoreboard records it (R7.2, R7.5)."""

    winner: TavlaId
    result: GameKind = "single"
    cube: int = Field(default=1, description="the cube value the game was decided at (1: not turned)")
    passed: bool = Field(
        default=False, description="a double was passed: `cube` is the value before the refused double"
    )

    _cube = field_validator("cube")(_cube_value)


class Resignation(StrictModel):
    """A player resigns the game in play: the opponent wins it, single, gammon or backgammon."""

    player: TavlaId = Field(description="who resigns")
    result: GameKind = "single"
    cube: int = 1

    _cube = field_validator("cube")(_cube_value)


class PenaltyPoints(StrictModel):
    """The referee awards points against `player` (late arrival, breaks, slow play; R7.6, R8.4)."""

    player: TavlaId = Field(description="the offender: the opponent scores the points")
    points: int = Field(ge=1, le=25)
    reason: ShortText = "penalty"


class TimeLoss(StrictModel):
    """`player`'s clock ran out: they lose the match (R7.4; the referee records it)."""

    player: TavlaId


class ScoreUpdate(StrictModel):
    """The next entry of the live score, on the match's current `version` (else 409 stale_version).

    Exactly one of: `game` or `resignation` (either player, or staff); `penalty` or
    `time_loss` (staff only).
    """

    version: int = Field(ge=0)
    game: GameEntry | None = None
    resignation: Resignation | None = None
    penalty: PenaltyPoints | None = None
    time_loss: TimeLoss | None = None

    @model_validator(mode="after")
    def _one(self) -> Self:
        given = [self.game, self.resignation, self.penalty, self.time_loss]
        if sum(x is not None for x in given) != 1:
            raise ValueError("send exactly one of game, resignation, penalty, time_loss")
        return self


class LegScore(StrictModel):
    """One match of a series, its final score home first."""

    home_points: int = Field(ge=0, le=99)
    away_points: int = Field(ge=0, le=99)


class FinalScore(StrictModel):
    """A final score, home first: the winner has exactly the match length (R7.3, R8.1); a
    series: the matches won (2-0, 2-1), with each match's score in `legs` when the live score
    did not record them."""

    home_points: int = Field(ge=0, le=99)
    away_points: int = Field(ge=0, le=99)
    legs: list[LegScore] | None = Field(
        default=None, max_length=3, description="a series: each of its matches' final score, in order"
    )

    def leg_scores(self) -> tuple[tuple[int, int], ...]:
        return tuple((leg.home_points, leg.away_points) for leg in self.legs or ())


class ScoreEntryView(ApiModel):
    """One entry of the live score: a game, penalty points, or a time loss."""

    number: int = Field(description="1, 2, ... in the order they were recorded")
    kind: Literal["game", "penalty", "time"]
    winner: str = Field(description="Tavla ID of who scored (a time loss: who won the match)")
    result: GameKind | None = None
    cube: int = 1
    passed: bool = False
    resigned: bool = False
    crawford: bool = False
    cube_voided: bool = Field(default=False, description="a cube turned in the Crawford game: void (R7.2)")
    points: int = 0
    reason: str | None = None
    score: list[int] = Field(description="the live score after it, home first")


class MatchDetail(MatchView):
    """A match with its whole live score (public)."""

    history: list[ScoreEntryView] = Field(default_factory=list)
    crawford: bool = Field(default=False, description="the next game is the Crawford game: no doubling")
    reported: list[Side] = Field(default_factory=list, description="who has declared a final score")
    flags: list[str] = Field(default_factory=list, description="for the referee, e.g. reports_differ")
    adjournment: AdjournmentView | None = Field(default=None, description="its last adjournment, if any")
    breaks: BreaksView | None = Field(default=None, description="breaks left and running (R7.7)")
