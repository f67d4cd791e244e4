"""Benchmark of the Swiss (R5.5) and Lives (R5.7) pairings.

Run from the repository root: `PYTHONPATH=shared .venv/bin/python -m bench.bench_pairing`.

Targets (exit status 1 when one is missed):
* Swiss, 1,024 players, 9 rounds of random results: slowest round <= 0.5 s, no rematch;
* Lives, 1,024 players, rounds of random results until one player is left: slowest round
  <= 0.5 s;
* Swiss fields of up to 128 players: every round's total points difference equals the one of
  networkx's exact maximum-weight matching, on a few seeded tournaments.
"""

from __future__ import annotations

import random
import time

import networkx as nx

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.lives import lives_winner, pair_lives_round
from tavla.rules.swiss import pair_swiss_round

TARGET_SECONDS = 0.5
LIVES = 3


def _field(n: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(player_id=f"p{i:04d}", rating=round(rng.gauss(1500, 200))) for i in range(n)]


def _results(number: int, pairings: tuple[Pairing, ...], rng: random.Random) -> list[MatchRecord]:
    out = []
    for p in pairings:
        if p.away is None:
            out.append(MatchRecord(round=number, home=p.home, winner=p.home, home_points=7))
            continue
        home_wins = rng.random() < 0.5
        loser = rng.randint(0, 6)
        out.append(
            MatchRecord(
                round=number,
                home=p.home,
                away=p.away,
                winner=p.home if home_wins else p.away,
                home_points=7 if home_wins else loser,
                away_points=loser if home_wins else 7,
            )
        )
    return out


def _optimum(players: list[str], points: dict[str, int], met: set[frozenset[str]]) -> int:
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if frozenset((a, b)) not in met:
                graph.add_edge(a, b, weight=1000 - abs(points[a] - points[b]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != len(players):
        return -1
    return int(sum(abs(points[a] - points[b]) for a, b in matching))


def swiss_run(n: int, rounds: int, seed: int, check_optimum: bool) -> tuple[float, int, int]:
    """Play a Swiss; return the slowest round's seconds, the rematches, the non-optimal rounds."""
    rng = random.Random(seed)
    entrants = _field(n, rng)
    history: list[MatchRecord] = []
    met: set[frozenset[str]] = set()
    slowest, rematches, off = 0.0, 0, 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        rnd = pair_swiss_round(entrants, history, number, seed * 100 + number)
        slowest = max(slowest, time.perf_counter() - start)
        games = [p for p in rnd.pairings if p.away is not None]
        rematches += sum(frozenset(p.players) in met for p in games)
        if check_optimum:
            points = dict.fromkeys((e.player_id for e in entrants), 0)
            for r in history:
                points[r.winner] += 1
            total = sum(abs(points[p.home] - points[p.away or ""]) for p in games)
            seated = [x for p in games for x in p.players]
            off += total != _optimum(seated, points, met)
        met |= {frozenset(p.players) for p in games}
        history += _results(number, rnd.pairings, rng)
    return slowest, rematches, off


def lives_run(n: int, seed: int) -> tuple[float, int]:
    """Play a lives event to its winner; return the slowest round's seconds and the rounds."""
    rng = random.Random(seed)
    entrants = _field(n, rng)
    history: list[MatchRecord] = []
    slowest, number = 0.0, 0
    while lives_winner(entrants, history, LIVES) is None:
        number += 1
        start = time.perf_counter()
        rnd = pair_lives_round(entrants, history, number, seed * 100 + number, LIVES)
        slowest = max(slowest, time.perf_counter() - start)
        history += _results(number, rnd.pairings, rng)
    return slowest, number


def main() -> None:
    ok = True
    slowest, rematches, _ = swiss_run(1024, 9, seed=1, check_optimum=False)
    print(f"swiss 1024 players x 9 rounds: slowest round {slowest:.3f} s, rematches {rematches}")
    ok &= slowest <= TARGET_SECONDS and rematches == 0

    slowest, rounds = lives_run(1024, seed=1)
    print(f"lives 1024 players, {LIVES} lives, {rounds} rounds to a winner: slowest round {slowest:.3f} s")
    ok &= slowest <= TARGET_SECONDS

    for n, rounds, seed in [(16, 5, 1), (33, 7, 2), (64, 7, 3), (101, 8, 4), (128, 9, 5)]:
        _, rematches, off = swiss_run(n, rounds, seed, check_optimum=True)
        verdict = "equal" if off == 0 and rematches == 0 else f"{off} rounds NOT optimal"
        print(f"swiss {n} players x {rounds} rounds vs networkx exact optimum: {verdict}")
        ok &= off == 0 and rematches == 0

    print("targets met" if ok else "TARGET MISSED")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
