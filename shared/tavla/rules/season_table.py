"""The season table with R10.5's tie-break chain, and each tournament's contribution to it.

R10.5: season points, then head-to-head between the tied players, then point difference
over all their season matches, then the sum of their opponents' season points, and last a
recorded random draw. Here:

* head-to-head: among the players level on points, wins minus losses in their season
  matches against each other (0 for a player who met none of them);
* point difference: game points won minus lost over every season match (a forfeit counts
  as recorded, match length-0, R8.1);
* opponents' points: the sum of the season points of every opponent met, once per match;
* the draw: `random.Random(seed)` shuffles each group still level, so no place is shared
  and the Super Final cut is never a tie; the seed is recorded with the season.

Each tournament adds an `Award` per player: its points and the matches the player played
there (opponent, won, points for and against): everything the chain needs, kept with the
player's season entry, so the table never reads a match again.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from pydantic import ConfigDict, Field

from tavla.rules.season import SeasonSettings
from tavla.rules.value import RuleModel

__all__ = ["Award", "Meeting", "SeasonRow", "final_lives", "invited", "season_table"]


class Meeting(RuleModel):
    """One season match from one player's side."""

    model_config = ConfigDict(frozen=True)

    opponent: str
    won: bool
    points_for: int
    points_against: int


class Award(RuleModel):
    """What one tournament gave one player: season points and the matches played there."""

    model_config = ConfigDict(frozen=True)

    tournament_id: str
    points: int
    meetings: tuple[Meeting, ...] = ()


class SeasonRow(RuleModel):
    model_config = ConfigDict(frozen=True)

    player_id: str
    place: int
    points: int
    tournaments: int
    head_to_head: int
    point_difference: int
    opponents_points: int
    drawn: bool = False
    by_tournament: dict[str, int] = Field(default_factory=dict)  # tournament id -> its season points


def season_table(awards: Mapping[str, Iterable[Award]], seed: int) -> list[SeasonRow]:
    """Every player with an award, ranked by R10.5's chain (see the module); places 1..n."""
    by_player = {p: list(a) for p, a in awards.items()}
    points = {p: sum(a.points for a in aw) for p, aw in by_player.items()}
    meetings = {p: [m for a in aw for m in a.meetings] for p, aw in by_player.items()}
    diff = {p: sum(m.points_for - m.points_against for m in ms) for p, ms in meetings.items()}
    opp = {p: sum(points.get(m.opponent, 0) for m in ms) for p, ms in meetings.items()}
    groups: dict[int, list[str]] = defaultdict(list)
    for p in by_player:
        groups[points[p]].append(p)
    h2h: dict[str, int] = {}
    for group in groups.values():
        members = set(group)
        for p in group:
            h2h[p] = sum(
                (1 if m.won else -1) for m in meetings[p] if m.opponent in members and len(members) > 1
            )
    rng = random.Random(seed)

    def key(p: str) -> tuple[int, int, int, int]:
        return (-points[p], -h2h[p], -diff[p], -opp[p])

    ordered = sorted(by_player, key=lambda p: (key(p), p))
    rows: list[SeasonRow] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and key(ordered[j + 1]) == key(ordered[i]):
            j += 1
        tied = ordered[i : j + 1]
        drawn = len(tied) > 1
        if drawn:
            rng.shuffle(tied)
        for p in tied:
            rows.append(
                SeasonRow(
                    player_id=p,
                    place=len(rows) + 1,
                    points=points[p],
                    tournaments=len(by_player[p]),
                    head_to_head=h2h[p],
                    point_difference=diff[p],
                    opponents_points=opp[p],
                    drawn=drawn,
                    by_tournament={a.tournament_id: a.points for a in by_player[p]},
                )
            )
        i = j + 1
    return rows


def invited(rows: Sequence[SeasonRow], settings: SeasonSettings) -> list[SeasonRow]:
    """The Super Final's invited players: the top `super_final_size` with season points (R10.4).

    The table has no shared place (the draw settles the last ties), so the cut is exact.
    """
    return [r for r in rows if r.points > 0][: settings.super_final_size]


def final_lives(rows: Sequence[SeasonRow], settings: SeasonSettings) -> dict[str, int]:
    """Starting lives in the season final by season place (R5.7, `settings.final_lives`)."""
    return {r.player_id: settings.final_lives.lives_for(r.place) for r in rows}
