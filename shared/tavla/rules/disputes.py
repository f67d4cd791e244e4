"""Two players' final scores that differ: whose prevails, by rule profile (R7.5).

Pure: the declared scores and the live score in, a score (or "the referee decides") out.

- `platform` and `hbf`: the referee hears both players and decides; no record prevails by
  itself, so the answer is `None` (the referee must give a score).
- `cnb` (4.7): the table scorer's record prevails, which on this platform is the live
  game-by-game score when it is complete (a player reached the match length, or a time
  loss ended it). Else the record of the trailing player prevails: the player behind in the
  live score as recorded so far. With no live score, or level, nobody trails: the referee
  decides (`None`).

Scores are (home points, away points) throughout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

Side = Literal["home", "away"]
Score = tuple[int, int]


def trailing_side(live: Score) -> Side | None:
    """The side behind in the live score; None when level (0-0 included)."""
    home, away = live
    if home == away:
        return None
    return "home" if home < away else "away"


def settle_dispute(
    profile: str,
    reports: Mapping[str, Score],
    live: Score,
    live_final: Score | None,
) -> Score | None:
    """The score that prevails when the players' reports differ, or None: the referee decides.

    `live` is the live score as recorded so far; `live_final` the official form of the live
    result when it is complete (winner at the match length), else None.
    """
    if profile != "cnb":
        return None
    if live_final is not None:
        return live_final
    side = trailing_side(live)
    if side is None:
        return None
    return reports.get(side)
