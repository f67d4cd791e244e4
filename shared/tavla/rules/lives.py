"""Lives format (R5.7): every loss costs a life, a player with no life left is out.

* Everyone starts with `N` lives, or - in season finals - with the lives a mapping
  player -> starting lives gives them (e.g. following the season ranking).
* Each loss (a forfeit too) costs one life; a BYE costs none and counts as a win.
* Each round pairs the players still in: players with the same number of lives meet; when
  a lives group is odd one of its players meets the next lives group. Equal lives come
  before avoiding a rematch (R5.7): the pairing has the smallest total lives difference
  possible (a player changes group only to even out an odd group), and among those the
  fewest rematches, so a rematch inside a group happens only when the group leaves no other
  way. Engine: `tavla.rules.line_matching`, exact weighted matching where it cannot avoid a
  rematch.
* Draws published before that order was recorded paired the other way round (fewest
  rematches first, then lives): `equal_lives_first=False` recomputes them (R5.1).
* With an odd number still in, the BYE goes to a player with the fewest lives; among those,
  one who has not had a bye yet (the fewest byes), and among those the lowest-ranked (rank:
  lives, then rating, then a seeded draw).
* The event ends when one player remains: the winner.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

import networkx as nx
from pydantic import ConfigDict, Field

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.line_matching import NoPerfectMatching, matching_cost, min_cost_line_matching
from tavla.rules.value import RuleModel

__all__ = [
    "LivesError",
    "LivesRound",
    "lives_remaining",
    "lives_winner",
    "pair_lives_round",
    "players_still_in",
]

StartingLives = int | Mapping[str, int]


class LivesError(RuleViolation):
    """The lives event cannot go on as asked (bad settings or results, or it is over)."""


class LivesRound(RuleModel):
    """The pairing of one round of a lives event, with the seed of the generator used (R5.1)."""

    model_config = ConfigDict(frozen=True)

    round: int = Field(ge=1)
    seed: int
    pairings: tuple[Pairing, ...]


def lives_remaining(
    entrants: Sequence[Entrant], history: Iterable[MatchRecord], starting_lives: StartingLives
) -> dict[str, int]:
    """Lives each entrant has left after the recorded matches (0 = out), in entry order.

    `starting_lives` is the same `N` for everybody, or a mapping player -> starting lives
    that covers every entrant (season finals). Raises `LivesError` for a setting below one
    life, or a result no lives event can have (unknown player, a player who was already out).
    """
    lives, _ = _replay(entrants, list(history), starting_lives)
    return lives


def players_still_in(
    entrants: Sequence[Entrant], history: Iterable[MatchRecord], starting_lives: StartingLives
) -> list[str]:
    """The players with at least one life left, in entry order."""
    return [p for p, n in lives_remaining(entrants, history, starting_lives).items() if n > 0]


def lives_winner(
    entrants: Sequence[Entrant], history: Iterable[MatchRecord], starting_lives: StartingLives
) -> str | None:
    """The winner once exactly one player remains; None while the event goes on."""
    still_in = players_still_in(entrants, history, starting_lives)
    return still_in[0] if len(still_in) == 1 else None


def pair_lives_round(
    entrants: Sequence[Entrant],
    history: Iterable[MatchRecord],
    round_number: int,
    seed: int,
    starting_lives: StartingLives,
    withdrawn: Collection[str] = frozenset(),
    equal_lives_first: bool = True,
) -> LivesRound:
    """Pair round `round_number` of a lives event among the players still in (R5.7).

    Guarantees: only players with lives left play; the BYE (odd number still in) goes to a
    player with the fewest lives, preferring one without a bye; the pairing has the smallest
    total lives difference possible and, among those, the fewest rematches (with
    `equal_lives_first=False`, the rule of older draws: the other way round); tables are
    numbered 1.. from the players with the most lives. Deterministic for the same input.
    Players who `withdrew` (or were disqualified, R8.2, R8.3) are paired no more, whatever
    their lives. Raises `LivesError` for bad input, or when fewer than two players remain.
    """
    if round_number < 1:
        raise LivesError(f"round {round_number} does not exist: rounds are numbered from 1")
    records = list(history)
    for r in records:
        if r.round >= round_number:
            raise LivesError(
                f"round {round_number} cannot be paired with a result of round {r.round} already on record"
            )
    lives, byes = _replay(entrants, records, starting_lives)
    alive = [e for e in entrants if lives[e.player_id] > 0 and e.player_id not in withdrawn]
    if len(alive) < 2:
        winner = f": {alive[0].player_id} has won" if alive else ""
        raise LivesError(f"the lives event is over{winner}; there is no round {round_number} to pair")
    rng = random.Random(seed)
    draw = {pid: rng.random() for pid in sorted(e.player_id for e in alive)}
    ranked = sorted(alive, key=lambda e: (-lives[e.player_id], -e.rating, draw[e.player_id]))
    bye: str | None = None
    if len(ranked) % 2:
        lowest_first = list(reversed(ranked))
        bye = min(lowest_first, key=lambda e: (lives[e.player_id], byes[e.player_id])).player_id
    field = [e.player_id for e in ranked if e.player_id != bye]
    levels = [lives[p] for p in field]
    met = _met(records)
    forbidden = [(i, j) for i, a in enumerate(field) for j in range(i + 1, len(field)) if field[j] in met[a]]
    pairs = (_equal_lives_first if equal_lives_first else _rematches_first)(levels, forbidden)
    ordered = sorted(pairs, key=lambda p: (-max(levels[p[0]], levels[p[1]]), p[0]))
    boards = [Pairing(table=t, home=field[a], away=field[b]) for t, (a, b) in enumerate(ordered, start=1)]
    if bye is not None:
        boards.append(Pairing(table=len(boards) + 1, home=bye))
    return LivesRound(round=round_number, seed=seed, pairings=tuple(boards))


# -- internals -------------------------------------------------------------------------------


def _replay(
    entrants: Sequence[Entrant], records: list[MatchRecord], starting_lives: StartingLives
) -> tuple[dict[str, int], dict[str, int]]:
    ids = [e.player_id for e in entrants]
    if len(set(ids)) != len(ids):
        raise LivesError("a player is entered twice")
    if isinstance(starting_lives, int):
        start = dict.fromkeys(ids, starting_lives)
    else:
        missing = [p for p in ids if p not in starting_lives]
        if missing:
            raise LivesError(f"no starting lives given for {', '.join(missing)}")
        start = {p: starting_lives[p] for p in ids}
    for p, n in start.items():
        if n < 1:
            raise LivesError(f"{p} cannot start with {n} lives: everybody starts with at least one")
    lives = dict(start)
    byes: dict[str, int] = defaultdict(int)
    for r in sorted(records, key=lambda r: r.round):
        players = [r.home] if r.away is None else [r.home, r.away]
        for p in players:
            if p not in lives:
                raise LivesError(f"{p} is not in this lives event (round {r.round})")
            if lives[p] == 0:
                raise LivesError(f"{p} was already out and cannot play in round {r.round}")
        if r.away == r.home or r.winner not in players:
            raise LivesError(f"the round {r.round} result of {r.home} is not a valid match")
        if r.away is None:
            byes[r.home] += 1
            continue
        lives[r.away if r.winner == r.home else r.home] -= 1
    return lives, byes


def _met(records: list[MatchRecord]) -> dict[str, set[str]]:
    met: dict[str, set[str]] = defaultdict(set)
    for r in records:
        if r.away is not None:
            met[r.home].add(r.away)
            met[r.away].add(r.home)
    return met


Pairs = list[tuple[int, int]]


def _rematches_first(levels: list[int], forbidden: list[tuple[int, int]]) -> Pairs:
    """The rule of older draws: no rematch while any pairing avoids one, then nearest lives."""
    try:
        return min_cost_line_matching(levels, forbidden)
    except NoPerfectMatching:
        return _exact(levels, set(forbidden), lives_weight=1, rematch_weight=_spread(levels) * len(levels))


def _equal_lives_first(levels: list[int], forbidden: list[tuple[int, int]]) -> Pairs:
    """R5.7: the smallest total lives difference, then the fewest rematches.

    The smallest total lives difference of any pairing is the parity bound (each gap between
    two lives groups is crossed once when the players above it are odd in number, else not
    at all); the fast engine's rematch-free pairing is the answer whenever it reaches that
    bound. Otherwise the exact matching weighs one life of difference above every rematch.
    """
    try:
        pairs = min_cost_line_matching(levels, forbidden)
        if matching_cost(levels, pairs) == _parity_bound(levels):
            return pairs
    except NoPerfectMatching:
        pass
    return _exact(levels, set(forbidden), lives_weight=len(levels), rematch_weight=1)


def _spread(levels: list[int]) -> int:
    return max(levels) - min(levels) + 1


def _parity_bound(levels: list[int]) -> int:
    """The smallest total lives difference of any pairing of `levels` (rematches allowed)."""
    ordered = sorted(levels, reverse=True)
    return sum(ordered[i] - ordered[i + 1] for i in range(0, len(ordered) - 1, 2))


def _exact(
    levels: list[int], forbidden: set[tuple[int, int]], *, lives_weight: int, rematch_weight: int
) -> Pairs:
    """Exact minimum of lives_weight * lives difference + rematch_weight * rematches (cubic)."""
    n = len(levels)
    top = lives_weight * _spread(levels) + rematch_weight  # above any pair's cost: weights > 0
    graph = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            cost = lives_weight * abs(levels[i] - levels[j]) + (rematch_weight if (i, j) in forbidden else 0)
            graph.add_edge(i, j, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)
