"""Benchmarks of the results rules: rating replay, season roll-up, standings, prizes.

Run from the repository root: `PYTHONPATH=shared .venv/bin/python -m bench.bench_results`.
Exits non-zero when a target is missed.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from tavla.rules.entrants import MatchRecord
from tavla.rules.prizes import Money, PlacePrize, PrizeAnnouncement, award_prizes
from tavla.rules.rating import RatedResult, replay_history
from tavla.rules.season import (
    SeasonStandings,
    TournamentLevel,
    TournamentResult,
    add_tournament,
)
from tavla.rules.season_table import Award, season_table
from tavla.rules.standings import Standing, knockout_standings, table_standings

P = ParamSpec("P")
R = TypeVar("R")

TARGETS = {
    "rating": 3.0,  # s for 100,000 matches
    "season_add": 0.05,  # s, 99th percentile of adding one tournament to a 17,000-player season
    "season_rank": 2.0,  # s to rank the whole season
    "swiss": 2.0,  # s for the standings of a 1024-player, 10-round Swiss
    "knockout": 1.0,  # s for the standings of a 4096-player bracket
    "prizes": 0.5,  # s for the prize list of a 4096-player field
}


def timed(fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> tuple[R, float]:
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def bench_rating(rng: random.Random) -> float:
    players = [f"p{i:05d}" for i in range(5000)]
    results = []
    for _ in range(100_000):
        a, b = rng.sample(players, 2)
        results.append(
            RatedResult(
                winner=a, loser=b, match_length=rng.choice((5, 7, 9, 11)), forfeit=rng.random() < 0.02
            )
        )
    states, secs = timed(replay_history, results)
    print(f"rating 100000 matches, {len(states)} players: {secs:.2f} s")
    return secs


def knockout_rows(players: list[str], rng: random.Random) -> list[Standing]:
    shuffled = rng.sample(players, len(players))
    rows: list[Standing] = []
    size = len(shuffled)
    # 1, 2, 3-4, 5-8, ...
    rows.append(Standing(player_id=shuffled[0], place=1, place_to=1))
    start, width = 2, 1
    while start <= size:
        hi = min(size, start + width - 1)
        rows += [Standing(player_id=p, place=start, place_to=hi) for p in shuffled[start - 1 : hi]]
        start, width = hi + 1, width * 2
    return rows


def bench_season(rng: random.Random) -> tuple[float, float]:
    nation = [f"s{i:05d}" for i in range(20_000)]
    levels = list(TournamentLevel)
    season = SeasonStandings()
    adds: list[float] = []
    for t in range(600):
        field = rng.sample(nation, rng.choice((16, 32, 64, 128)))
        result = TournamentResult(
            tournament_id=f"t{t}", level=rng.choice(levels), standings=tuple(knockout_rows(field, rng))
        )
        season, secs = timed(add_tournament, season, result)
        adds.append(secs)
    adds.sort()
    p99 = adds[int(len(adds) * 0.99)]
    awards = {
        p: [Award(tournament_id=a.tournament_id, points=a.points) for a in e.awards]
        for p, e in season.entries.items()
    }
    table, rank_secs = timed(season_table, awards, 2026)  # R10.5's table, as the season function ranks
    print(
        f"season 600 tournaments, {len(table)} players: add one tournament median "
        f"{adds[len(adds) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {adds[-1] * 1000:.1f} ms; "
        f"ranking {rank_secs:.2f} s"
    )
    return p99, rank_secs


def bench_swiss(rng: random.Random) -> float:
    players = [f"w{i:04d}" for i in range(1024)]
    matches = []
    for rnd in range(1, 11):
        order = rng.sample(players, len(players))
        for a, b in zip(order[::2], order[1::2], strict=True):
            lo = rng.randint(0, 6)
            w, loser = (a, b) if rng.random() < 0.5 else (b, a)
            matches.append(
                MatchRecord(round=rnd, home=w, away=loser, home_points=7, away_points=lo, winner=w)
            )
    rows, secs = timed(table_standings, players, matches)
    print(
        f"swiss 1024 players 10 rounds: standings {secs:.2f} s, "
        f"{len({r.place for r in rows})} distinct places"
    )
    return secs


def bench_knockout(rng: random.Random) -> float:
    players = [f"k{i:04d}" for i in range(4096)]
    alive, matches, rnd = list(players), [], 1
    while len(alive) > 1:
        nxt = []
        for a, b in zip(alive[::2], alive[1::2], strict=True):
            w, lo = (a, b) if rng.random() < 0.5 else (b, a)
            matches.append(MatchRecord(round=rnd, home=w, away=lo, home_points=5, winner=w))
            nxt.append(w)
        alive, rnd = nxt, rnd + 1
    _, secs = timed(knockout_standings, players, matches)
    print(f"knockout 4096 players: standings {secs:.2f} s")
    return secs


def bench_prizes(rng: random.Random) -> float:
    players = [f"z{i:04d}" for i in range(4096)]
    shares = [10_000 // 64 + (1 if p <= 10_000 % 64 else 0) for p in range(1, 65)]  # 100 % in all
    ann = PrizeAnnouncement(
        places=tuple(PlacePrize(place=p, money=Money(pool_share_bp=shares[p - 1])) for p in range(1, 65))
    )
    result, secs = timed(award_prizes, ann, knockout_rows(players, rng), 4096 * 2000 + 37, tie_order=players)
    if result.paid_cents != result.pool_cents:
        print(f"MISSED prizes: paid {result.paid_cents} != pool {result.pool_cents}")
        sys.exit(1)
    print(
        f"prizes 4096 players, 64 paid places: {secs * 1000:.1f} ms, "
        f"paid {result.paid_cents} of pool {result.pool_cents} cents"
    )
    return secs


def main() -> None:
    rng = random.Random(20260301)
    figures = {"rating": bench_rating(rng)}
    figures["season_add"], figures["season_rank"] = bench_season(rng)
    figures["swiss"] = bench_swiss(rng)
    figures["knockout"] = bench_knockout(rng)
    figures["prizes"] = bench_prizes(rng)
    missed = [k for k, v in figures.items() if v > TARGETS[k]]
    for k in missed:
        print(f"MISSED {k}: {figures[k]:.3f} s > {TARGETS[k]} s")
    if missed:
        sys.exit(1)


if __name__ == "__main__":
    main()
