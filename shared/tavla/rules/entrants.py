"""The values every draw works on: who is in the field and who plays whom."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from tavla.rules.value import RuleModel


class Entrant(RuleModel):
    """A player as the draw sees them: an id, a rating for seeding, a club for protection."""

    model_config = ConfigDict(frozen=True)

    player_id: str = Field(min_length=1)
    rating: float = 1500.0
    club: str | None = None


class Pairing(RuleModel):
    """One board of a round: `away` is None when `home` has the BYE."""

    model_config = ConfigDict(frozen=True)

    table: int = Field(ge=1)
    home: str
    away: str | None = None

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def players(self) -> tuple[str, ...]:
        return (self.home,) if self.away is None else (self.home, self.away)


class MatchRecord(RuleModel):
    """A finished match as the rules see it: who met, the points each scored, who won.

    A BYE is recorded with `away=None` and counts as a win for `home`. A forfeit is a
    win by match length to nil (R8.1) and is flagged so ratings can skip it (R10.3).
    """

    model_config = ConfigDict(frozen=True)

    round: int = Field(ge=1)
    home: str
    away: str | None = None
    home_points: int = Field(default=0, ge=0)
    away_points: int = Field(default=0, ge=0)
    winner: str
    forfeit: bool = False

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def loser(self) -> str | None:
        if self.away is None:
            return None
        return self.away if self.winner == self.home else self.home
