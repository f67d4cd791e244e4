"""What a match is worth in a Swiss or league table (R5.5, R5.6: set on the league page)."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ConfigDict

from tavla.rules.value import RuleModel


class MatchPoints(RuleModel):
    """Points for a win, a loss, a loss by forfeit (to the forfeiting player) and a BYE.

    The defaults are the Swiss ones: a win or a BYE is 1 point, a loss 0.
    """

    model_config = ConfigDict(frozen=True)

    win: int = 1
    loss: int = 0
    forfeit: int = 0
    bye: int = 1


SWISS_POINTS = MatchPoints()
LEAGUE_POINTS = MatchPoints(win=2, loss=1, forfeit=0, bye=0)


def table_points(swiss: bool, page: Mapping[str, int] | None = None) -> MatchPoints:
    """The points a Swiss or league table counts: the page's win / loss / forfeit (R5.6), else
    the format's defaults. A Swiss BYE counts as a win (R5.5); a league BYE earns nothing."""
    default = SWISS_POINTS if swiss else LEAGUE_POINTS
    if not page:
        return default
    win = int(page.get("win", default.win))
    return MatchPoints(
        win=win,
        loss=int(page.get("loss", default.loss)),
        forfeit=int(page.get("forfeit", default.forfeit)),
        bye=win if swiss else 0,
    )
