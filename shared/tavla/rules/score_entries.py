"""The entries of a match's live score (R7.2-R7.6, R8.4), typed: a game (or a resignation),
penalty points, a time loss.

A match stores its live score as a log of these entries (JSON objects with a `kind`); the
store parses each once when it reads the match (`parse`) and writes it back in the same form
(`as_json`), so the stored and API formats never change. The rules replay the log through
`action` (the match rules' own action for the entry); the services build entries, never dicts.

Light on purpose: every read of a match parses its entries, while the match rules
(`tavla.rules.match`, pydantic) load only with the first request that replays a score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from tavla.frozen import Frozen

if TYPE_CHECKING:
    from tavla.rules.match import MatchAction


class EntryKind(StrEnum):
    GAME = "game"
    PENALTY = "penalty"
    TIME = "time"


class ScoreEntryError(ValueError):
    """A stored live-score entry of a shape the services never write."""


@dataclass(frozen=True, eq=False, repr=False)
class GamePlayed(Frozen):
    """A game as reported after it ended; a resignation is a game the opponent wins (hbf 4.9, cnb 4.5)."""

    kind: ClassVar[EntryKind] = EntryKind.GAME
    winner: str
    result: str = "single"  # single / gammon / backgammon
    cube: int = 1  # the cube the game was decided at (with `passed`: the value the passer lost)
    passed: bool = False
    resigned: bool = False
    at: str | None = None

    def action(self) -> MatchAction:
        from tavla.rules.match import RecordGame

        return RecordGame(winner=self.winner, result=self.result, cube=self.cube, passed=self.passed)

    def as_json(self) -> dict[str, Any]:
        game = {"kind": str(self.kind), "winner": self.winner, "result": self.result, "cube": self.cube}
        resigned = {"resigned": True} if self.resigned else {}
        return {**game, "passed": self.passed, **resigned, **_at(self.at)}


@dataclass(frozen=True, eq=False, repr=False)
class PenaltyPoints(Frozen):
    """Penalty points to `winner`, the offender's opponent (R7.4, R8.4)."""

    kind: ClassVar[EntryKind] = EntryKind.PENALTY
    winner: str
    points: int
    reason: str
    offender: str | None = None
    at: str | None = None

    def action(self) -> MatchAction:
        from tavla.rules.match import AwardPenalty

        return AwardPenalty(player=self.winner, points=self.points, reason=self.reason)

    def as_json(self) -> dict[str, Any]:
        offender = {"offender": self.offender} if self.offender is not None else {}
        fields = {"winner": self.winner, **offender, "points": self.points, "reason": self.reason}
        return {"kind": str(self.kind), **fields, **_at(self.at)}


@dataclass(frozen=True, eq=False, repr=False)
class TimeLoss(Frozen):
    """`loser`'s clock ran out: they lose the match (R7.4)."""

    kind: ClassVar[EntryKind] = EntryKind.TIME
    loser: str
    at: str | None = None

    def action(self) -> MatchAction:
        from tavla.rules.match import LoseOnTime

        return LoseOnTime(player=self.loser)

    def as_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "loser": self.loser, **_at(self.at)}


ScoreEntry = GamePlayed | PenaltyPoints | TimeLoss


def _at(at: str | None) -> dict[str, str]:
    return {"at": at} if at is not None else {}


def parse(stored: Mapping[str, Any]) -> ScoreEntry:
    """An entry as stored (numbers may come back from DynamoDB as Decimal)."""
    try:
        kind = EntryKind(stored["kind"])
        at = str(stored["at"]) if stored.get("at") is not None else None
        if kind is EntryKind.GAME:
            return GamePlayed(
                winner=str(stored["winner"]),
                result=str(stored.get("result", "single")),
                cube=int(stored.get("cube", 1)),
                passed=bool(stored.get("passed", False)),
                resigned=bool(stored.get("resigned", False)),
                at=at,
            )
        if kind is EntryKind.PENALTY:
            offender = stored.get("offender")
            return PenaltyPoints(
                winner=str(stored["winner"]),
                points=int(stored["points"]),
                reason=str(stored["reason"]),
                offender=str(offender) if offender is not None else None,
                at=at,
            )
        return TimeLoss(loser=str(stored["loser"]), at=at)
    except (KeyError, TypeError, ValueError) as error:
        raise ScoreEntryError(f"a live-score entry of no known shape: {dict(stored)!r}") from error
