"""Bracket timings: a 4,096-player single elimination draw with club protection (target 50 ms,
median of several runs) and a full 1,024-player double elimination played out match by match.

Run from the repository root: `PYTHONPATH=shared .venv/bin/python -m bench.bench_brackets`.
Exits non-zero when the single elimination target is missed.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from tavla.rules.double_elimination import draw_double_elimination, resolve
from tavla.rules.entrants import Entrant
from tavla.rules.single_elimination import draw_single_elimination

SINGLE_PLAYERS = 4096
SINGLE_TARGET_S = 0.050
CLUBS = 200
DOUBLE_PLAYERS = 1024
RUNS = 9


def realistic_field(players: int, clubs: int, rng: random.Random) -> list[Entrant]:
    """Ratings around 1500; club sizes skewed (a few big clubs, many small ones), some unattached."""
    weights = [1.0 / (rank + 1) for rank in range(clubs)]
    names = [f"club-{c:03d}" for c in range(clubs)]
    field = []
    for i in range(players):
        club = None if rng.random() < 0.05 else rng.choices(names, weights)[0]
        field.append(Entrant(player_id=f"player-{i:05d}", rating=round(rng.gauss(1500, 180), 1), club=club))
    return field


def bench_single(rng: random.Random) -> tuple[float, int]:
    field = realistic_field(SINGLE_PLAYERS, CLUBS, rng)
    timings = []
    clashes = 0
    for run in range(RUNS):
        start = time.perf_counter()
        draw = draw_single_elimination(field, seed=run, mode="rating", club_protection=True)
        timings.append(time.perf_counter() - start)
        clashes = len(draw.club_clashes)
    return statistics.median(timings), clashes


def bench_double(rng: random.Random) -> tuple[float, int]:
    field = realistic_field(DOUBLE_PLAYERS, CLUBS, rng)
    start = time.perf_counter()
    bracket = draw_double_elimination(field, seed=1, club_protection=True)
    winners: dict[str, str] = {}
    while True:
        state = resolve(bracket, winners)
        ready = state.ready()
        if not ready:
            break
        for match in ready:
            assert match.home is not None and match.away is not None
            winners[match.id] = rng.choice([match.home, match.away])
    elapsed = time.perf_counter() - start
    assert state.champion is not None
    return elapsed, len(winners)


def main() -> None:
    rng = random.Random(2026)
    single, clashes = bench_single(rng)
    print(
        f"single elimination {SINGLE_PLAYERS} players, club protection ({CLUBS} clubs): "
        f"median draw {single * 1000:.1f} ms (target {SINGLE_TARGET_S * 1000:.0f} ms), "
        f"unavoidable club clashes {clashes}"
    )
    double, played = bench_double(rng)
    print(
        f"double elimination {DOUBLE_PLAYERS} players: full simulation {double:.2f} s, "
        f"{played} matches played"
    )
    if single > SINGLE_TARGET_S:
        print("FAILED: single elimination draw slower than target", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
