"""Swiss pairing (R5.5): players with equal points meet, and the same two never meet twice.

`pair_swiss_round` makes one round's pairing from the field and the earlier rounds:

* a win is one point, and a BYE counts as a win (one point, and the record's score);
* the field is ranked by points, then the tie-breaks of R5.5 / R10.2 - point difference,
  then the sum of the opponents' points (Buchholz) - then rating, then a seeded draw;
* with an odd field the BYE goes to the lowest-ranked player who has not had one yet (when
  everybody has had one: the lowest-ranked of those with the fewest byes); should the rest
  then have no pairing without a rematch, the next such player gets it;
* the rest are paired with no rematch (a hard rule) so that the total points difference
  between opponents is the minimum possible: everybody meets a player on the same points
  whenever the field allows it, and otherwise the fewest and smallest floats are used
  (engine: `tavla.rules.line_matching`). Among pairings of equal total, each score group
  pairs its top half against its bottom half, and the lowest-ranked player floats down;
* boards are numbered 1.. from the top (most points first), the BYE on the last number.

The same input (field, history, round, seed) always gives the same pairing. Head-to-head,
the second tie-break of R10.2, orders only players who met and is not a ranking of the whole
field, so the pairing order skips it (the final standings apply it).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from pydantic import ConfigDict, Field

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.line_matching import NoPerfectMatching, min_cost_line_matching
from tavla.rules.value import RuleModel

__all__ = [
    "SwissError",
    "SwissRound",
    "SwissStanding",
    "pair_swiss_round",
    "swiss_ranking",
]


class SwissError(RuleViolation):
    """The Swiss round cannot be paired as asked (bad history, or only rematches are left)."""


class SwissStanding(RuleModel):
    """One player's figures for the pairing order: points, point difference, Buchholz, byes."""

    model_config = ConfigDict(frozen=True)

    player_id: str = Field(min_length=1)
    points: int
    point_difference: int
    buchholz: int
    byes: int


class SwissRound(RuleModel):
    """The pairing of one Swiss round, with the seed of the random generator used (R5.1)."""

    model_config = ConfigDict(frozen=True)

    round: int = Field(ge=1)
    seed: int
    pairings: tuple[Pairing, ...]


def swiss_ranking(
    entrants: Sequence[Entrant], history: Iterable[MatchRecord], seed: int
) -> list[SwissStanding]:
    """Rank the field for pairing: points, point difference, Buchholz, rating, seeded draw.

    Points count one per win, a BYE being a win. Point difference is points scored minus
    points conceded over all matches (a BYE with the score recorded on it). Buchholz is the
    sum of the current points of every opponent met (the BYE adds nothing). Players in
    `history` who are no longer in the field still count as opponents.
    """
    _check_field(entrants)
    records = list(history)
    return _rank(entrants, records, seed)


def pair_swiss_round(
    entrants: Sequence[Entrant],
    history: Iterable[MatchRecord],
    round_number: int,
    seed: int,
    start_half_points: Mapping[str, int] | None = None,
) -> SwissRound:
    """Pair Swiss round `round_number` (R5.5).

    Guarantees: nobody meets an opponent they met before; the total points difference over
    the boards is the minimum over all rematch-free pairings once the BYE is given; the BYE
    (odd field) goes to the lowest-ranked player without one; tables are numbered 1.. from
    the top boards. Deterministic for the same input. Raises `SwissError` when the history
    is not a set of earlier rounds of this field, or no pairing without rematch exists.
    `start_half_points`: late entrants' starting points in halves of a win (then every
    score is counted in halves, which pairs exactly as whole points do).
    """
    _check_field(entrants)
    if round_number < 1:
        raise SwissError(f"round {round_number} does not exist: rounds are numbered from 1")
    records = list(history)
    _check_history(records, round_number)
    if len(entrants) < 2:
        raise SwissError("a Swiss round needs at least two players")
    ranking = _rank(entrants, records, seed, start_half_points or {})
    met = _met(records)
    for bye in _bye_candidates(ranking):
        field = [s for s in ranking if s.player_id != bye]
        index = {s.player_id: i for i, s in enumerate(field)}
        forbidden = [(index[a], index[b]) for a in index for b in met.get(a, ()) if b in index and a < b]
        try:
            pairs = min_cost_line_matching([s.points for s in field], forbidden)
        except NoPerfectMatching:
            continue
        return SwissRound(round=round_number, seed=seed, pairings=_boards(field, pairs, bye))
    raise SwissError(
        f"round {round_number} cannot be paired: every pairing of the {len(ranking)} players "
        "would repeat a match, and the same two may not meet twice in a Swiss (R5.5)"
    )


# -- internals -------------------------------------------------------------------------------


def _check_field(entrants: Sequence[Entrant]) -> None:
    seen: set[str] = set()
    for e in entrants:
        if e.player_id in seen:
            raise SwissError(f"player {e.player_id} is entered twice")
        seen.add(e.player_id)


def _check_history(records: list[MatchRecord], round_number: int) -> None:
    for r in records:
        if r.round >= round_number:
            raise SwissError(
                f"round {round_number} cannot be paired with a result of round {r.round} already on record"
            )
        if r.away == r.home:
            raise SwissError(f"player {r.home} cannot play against themselves (round {r.round})")
        if r.winner not in (r.home, r.away):
            raise SwissError(f"the winner {r.winner} of a round {r.round} match did not play in it")


def _met(records: list[MatchRecord]) -> dict[str, set[str]]:
    met: dict[str, set[str]] = defaultdict(set)
    for r in records:
        if r.away is not None:
            met[r.home].add(r.away)
            met[r.away].add(r.home)
    return met


def _rank(
    entrants: Sequence[Entrant], records: list[MatchRecord], seed: int, start: Mapping[str, int] | None = None
) -> list[SwissStanding]:
    """`start`: late starting points in halves; when there are any, every score counts in halves."""
    scale = 2 if start else 1
    points: dict[str, int] = defaultdict(int)
    for pid, halves in (start or {}).items():
        points[pid] = halves
    diff: dict[str, int] = defaultdict(int)
    byes: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for r in records:
        points[r.winner] += scale
        diff[r.home] += r.home_points - r.away_points
        if r.away is None:
            byes[r.home] += 1
            continue
        diff[r.away] += r.away_points - r.home_points
        opponents[r.home].append(r.away)
        opponents[r.away].append(r.home)
    rng = random.Random(seed)
    draw = {pid: rng.random() for pid in sorted(e.player_id for e in entrants)}
    standings = {
        e.player_id: SwissStanding(
            player_id=e.player_id,
            points=points[e.player_id],
            point_difference=diff[e.player_id],
            buchholz=sum(points[o] for o in opponents[e.player_id]),
            byes=byes[e.player_id],
        )
        for e in entrants
    }
    rating = {e.player_id: e.rating for e in entrants}

    def key(s: SwissStanding) -> tuple[int, int, int, float, float]:
        return (-s.points, -s.point_difference, -s.buchholz, -rating[s.player_id], draw[s.player_id])

    return sorted(standings.values(), key=key)


def _bye_candidates(ranking: list[SwissStanding]) -> list[str | None]:
    if len(ranking) % 2 == 0:
        return [None]
    lowest_first = list(reversed(ranking))
    return [s.player_id for s in sorted(lowest_first, key=lambda s: s.byes)]


def _boards(field: list[SwissStanding], pairs: list[tuple[int, int]], bye: str | None) -> tuple[Pairing, ...]:
    # Top boards first: the higher-ranked player's rank decides (pairs are (better, worse)).
    ordered = sorted(pairs, key=lambda p: (-max(field[p[0]].points, field[p[1]].points), p[0]))
    boards = [
        Pairing(table=t, home=field[a].player_id, away=field[b].player_id)
        for t, (a, b) in enumerate(ordered, start=1)
    ]
    if bye is not None:
        boards.append(Pairing(table=len(boards) + 1, home=bye))
    return tuple(boards)
