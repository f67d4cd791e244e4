"""Late entries (R5.5, R5.7): a Swiss or lives event takes players after it has started.

The organiser opens late entry with a policy (what a late player starts with) and closes it
again; a player entered while it is open joins the next round drawn. What they start with:
- Swiss: nothing, or half a win per round they missed (the usual half-point byes of a Swiss);
  counted in half points so the pairing and the table stay in whole numbers;
- lives: the lives the policy gives, else the event's starting lives.
The late start is a public input of every later draw (`DrawInputs.late`), so the draws stay
recomputable, and the standings mark the player as late.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal

from pydantic import ConfigDict, Field

from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel

__all__ = ["LateEntry", "LateEntryPolicy", "LateEntryRefused", "late_entry", "start_half_points"]

LatePoints = Literal["none", "half_per_missed_round"]
LATE_FORMATS = ("swiss", "lives")


class LateEntryRefused(RuleViolation):
    """The event takes no late entry now (another format, entry closed, or nothing left to draw)."""


class LateEntryPolicy(RuleModel):
    """What a late player starts with, set by the organiser when opening late entry."""

    model_config = ConfigDict(frozen=True)

    points: LatePoints = "none"
    lives: int | None = Field(default=None, ge=1)  # None: the event's starting lives


class LateEntry(RuleModel):
    """A player who entered after the first draw: from which round they play, and their start."""

    model_config = ConfigDict(frozen=True)

    player_id: str = Field(min_length=1)
    round: int = Field(ge=2)  # the first round they are paired in
    half_points: int = Field(default=0, ge=0)  # Swiss: starting points, in halves of a win
    lives: int | None = Field(default=None, ge=1)  # lives: starting lives


def late_entry(
    policy: LateEntryPolicy, format: str, player_id: str, next_round: int, event_lives: int
) -> LateEntry:
    """The start of a player entering before round `next_round` is drawn (R5.5, R5.7).

    Refused for formats without rounds drawn one at a time, and before the first round (a
    player then simply checks in)."""
    if format not in LATE_FORMATS:
        raise LateEntryRefused(f"Only Swiss and lives events take late entries, not {format}.")
    if next_round < 2:
        raise LateEntryRefused("The first round is not drawn yet: the player checks in as usual.")
    missed = next_round - 1
    if format == "swiss":
        half = missed if policy.points == "half_per_missed_round" else 0
        return LateEntry(player_id=player_id, round=next_round, half_points=half)
    return LateEntry(player_id=player_id, round=next_round, lives=policy.lives or event_lives)


def start_half_points(late: Iterable[LateEntry]) -> dict[str, int]:
    """Swiss: each late player's starting points in halves of a win (those with any)."""
    return {e.player_id: e.half_points for e in late if e.half_points}


def start_lives(late: Iterable[LateEntry]) -> dict[str, int]:
    """Lives: each late player's starting lives."""
    return {e.player_id: e.lives for e in late if e.lives is not None}


def late_players(late: Iterable[LateEntry]) -> Mapping[str, int]:
    """Who entered late, with the round they joined in (the standings say so)."""
    return {e.player_id: e.round for e in late}
