"""Lives format (R5.7): every loss costs a life, a player with no life left is out.

* Everyone starts with `N` lives, or - in season finals - with the lives a mapping
  player -> starting lives gives them (e.g. following the season ranking).
* Each loss (a forfeit too) costs one life; a BYE costs none and counts as a win.
* Each round pairs the players still in: players with the same number of lives meet; when
  a lives group is odd its odd player meets the nearest lives group. Rematches are avoided
  whenever the field allows it (a soft rule here: fewest rematches first, then the smallest
  total lives difference). Engine: `tavla.rules.line_matching`.
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
from pydantic import BaseModel, ConfigDict, Field

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.line_matching import NoPerfectMatching, min_cost_line_matching

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


class LivesRound(BaseModel):
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
) -> LivesRound:
    """Pair round `round_number` of a lives event among the players still in (R5.7).

    Guarantees: only players with lives left play; the BYE (odd number still in) goes to a
    player with the fewest lives, preferring one without a bye; the pairing has the fewest
    rematches possible and, among those, the smallest total lives difference; tables are
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
    try:
        pairs = min_cost_line_matching(levels, forbidden)
    except NoPerfectMatching:
        pairs = _fewest_rematches(levels, {(i, j) for i, j in forbidden})
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


def _fewest_rematches(levels: list[int], forbidden: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """Exact: fewest rematches first, then the smallest total lives difference (cubic)."""
    n = len(levels)
    spread = max(levels) - min(levels) + 1
    rematch_cost = spread * n  # one rematch weighs more than any total lives difference
    graph = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            cost = abs(levels[i] - levels[j]) + (rematch_cost if (i, j) in forbidden else 0)
            graph.add_edge(i, j, weight=rematch_cost + spread - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)
