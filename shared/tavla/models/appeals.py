"""Appeals (R9) and conduct (R8) as the API takes and shows them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, model_validator

from tavla.models.common import ApiModel, LongText, ShortText, StrictModel, TavlaId

AppealKind = Literal["score", "pairing", "decision"]
Outcome = Literal["upheld", "dismissed"]


class AppealBody(StrictModel):
    """An appeal on the match's score, its pairing or a referee's decision (R9.1)."""

    kind: AppealKind
    statement: LongText = Field(min_length=1, description="what is appealed and why")


class NewResult(StrictModel):
    """The result the decision sets: the points, or only the winner (then length to nil)."""

    winner: TavlaId | None = None
    home_points: int | None = Field(default=None, ge=0, le=99)
    away_points: int | None = Field(default=None, ge=0, le=99)

    @model_validator(mode="after")
    def _one_way(self) -> NewResult:
        points = (self.home_points is None, self.away_points is None)
        if points[0] != points[1]:
            raise ValueError("give both home_points and away_points, or neither")
        if self.winner is None and points[0]:
            raise ValueError("give the winner or the points")
        return self


class Committee(StrictModel):
    """The appeal committee above the referee (R9.5: hbf three, cnb three or five) and its votes."""

    members: list[TavlaId] = Field(min_length=1, max_length=5)
    votes: list[bool] = Field(min_length=1, max_length=5, description="per member: true = overturn")


class DecisionBody(StrictModel):
    """The decision on an appeal (R9.3): the referee's (platform), or the committee's (hbf, cnb)."""

    reasoning: LongText = Field(min_length=1)
    outcome: Outcome | None = Field(
        default=None, description="the referee's decision (platform); a committee's follows from its votes"
    )
    committee: Committee | None = None
    new_result: NewResult | None = Field(
        default=None, description="the result when the appeal is upheld and the result changes"
    )


class AppealView(ApiModel):
    id: str
    tournament_id: str
    match_id: str
    kind: AppealKind
    statement: str
    appellant: str
    opponent: str | None = None
    lodged_at: datetime
    status: Literal["open", "decided"]
    result_before: dict[str, object] | None = None
    outcome: Outcome | None = None
    reasoning: str | None = None
    route: Literal["referee", "committee"] | None = None
    members: list[str] = Field(default_factory=list)
    votes: list[bool] = Field(default_factory=list)
    new_result: dict[str, object] | None = None
    decided_at: datetime | None = None


PenaltyKind = Literal["warning", "game", "match"]


class PenaltyBody(StrictModel):
    """A penalty by the ladder (R8.4): a warning, the loss of a game, the loss of the match."""

    tavla_id: TavlaId
    kind: PenaltyKind
    reason: ShortText
    match_id: str | None = Field(
        default=None, max_length=200, description="default: the match the player is playing"
    )


class PenaltyView(ApiModel):
    tournament_id: str
    tavla_id: str
    kind: PenaltyKind
    reason: str
    at: datetime
    match_id: str | None = None
    score: list[int] | None = Field(default=None, description="the match's live score after a game penalty")
    result: dict[str, object] | None = None


class OutBody(StrictModel):
    """A player leaving the tournament during the day (R8.2) or removed from it (R8.3)."""

    tavla_id: TavlaId
    reason: ShortText | None = None


class OutView(ApiModel):
    tournament_id: str
    tavla_id: str
    kind: Literal["withdrawal", "disqualification"]
    at: datetime
    forfeited: list[str] = Field(description="match ids forfeited now; later ones are forfeited when due")
    refund: Literal["none"] = Field(default="none", description="no refund after the draw (R3.5)")
