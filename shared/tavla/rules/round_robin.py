"""League / round robin (R5.6): Berger tables, a BYE for odd fields, single or double cycle, league points.

Players get Berger numbers 1..n from the seed order (R5.1). Round r of a cycle is the standard
Berger (circle method) round: player n is fixed, the others turn; n meets player
((r-1)*n/2 mod (n-1)) + 1 and plays home in even rounds. In an odd field number n is the BYE.
A second cycle repeats the first with home and away swapped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import ConfigDict

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.points import LEAGUE_POINTS, MatchPoints
from tavla.rules.seeding import SeedingMode, seed_order
from tavla.rules.value import RuleModel


class LeagueTooSmall(RuleViolation):
    """A league needs at least two players."""


class DuplicateLeaguePlayer(RuleViolation):
    """The same player cannot be entered twice in a league."""


class InvalidLeagueResult(RuleViolation):
    """A league result whose winner did not play in it."""


def berger_rounds(players: int) -> list[list[tuple[int, int | None]]]:
    """Berger table for `players` numbers (1-based): one list of (home, away) per round.

    Every pair meets exactly once in `players - 1` rounds (even field) or `players` rounds (odd
    field, where `away=None` marks the BYE). Each player has at most one board per round.
    """
    if players < 2:
        raise LeagueTooSmall(f"a league needs at least 2 players, not {players}")
    n = players + (players % 2)
    turning = n - 1
    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(1, n):
        pivot = ((r - 1) * (n // 2)) % turning + 1
        fixed: tuple[int, int] = (n, pivot) if r % 2 == 0 else (pivot, n)
        boards = [fixed]
        for k in range(1, n // 2):
            home = (pivot + k - 1) % turning + 1
            away = (pivot - k - 1) % turning + 1
            boards.append((home, away))
        real: list[tuple[int, int | None]] = []
        bye: list[tuple[int, int | None]] = []
        for home, away in boards:
            if n != players and n in (home, away):
                bye.append((away if home == n else home, None))
            else:
                real.append((home, away))
        rounds.append(real + bye)
    return rounds


class RoundRobinSchedule(RuleModel):
    """A published league schedule: Berger numbers, rounds, and the seed to recompute it (R5.1, R5.6)."""

    model_config = ConfigDict(frozen=True)

    seed: int
    mode: SeedingMode
    cycles: int
    numbers: tuple[str, ...]
    rounds: tuple[tuple[Pairing, ...], ...]


def draw_round_robin(
    entrants: Sequence[Entrant], *, seed: int, mode: SeedingMode = "random", double: bool = False
) -> RoundRobinSchedule:
    """Schedule a league: everybody plays everybody once (twice with `double`, home swapped).

    Guarantees: each player has one board (or the BYE) per round; each pair meets once per
    cycle, and in the second cycle with home and away swapped; same input and seed, same schedule.
    """
    ids = [e.player_id for e in entrants]
    if len(set(ids)) != len(ids):
        raise DuplicateLeaguePlayer("a player is entered twice in the league")
    numbers = tuple(e.player_id for e in seed_order(entrants, mode, seed))
    table = berger_rounds(len(numbers))

    def boards(pairs: list[tuple[int, int | None]], swap: bool) -> tuple[Pairing, ...]:
        out = []
        for t, (home, away) in enumerate(pairs, start=1):
            if away is None:
                out.append(Pairing(table=t, home=numbers[home - 1]))
            elif swap:
                out.append(Pairing(table=t, home=numbers[away - 1], away=numbers[home - 1]))
            else:
                out.append(Pairing(table=t, home=numbers[home - 1], away=numbers[away - 1]))
        return tuple(out)

    rounds = [boards(pairs, False) for pairs in table]
    if double:
        rounds += [boards(pairs, True) for pairs in table]
    return RoundRobinSchedule(
        seed=seed, mode=mode, cycles=2 if double else 1, numbers=numbers, rounds=tuple(rounds)
    )


class ImpossibleLeaguePoints(RuleViolation):
    """League points where a loss earns more than a win, or a forfeit more than a loss."""


def league_points(
    records: Iterable[MatchRecord], points: MatchPoints = LEAGUE_POINTS, players: Iterable[str] = ()
) -> dict[str, int]:
    """League points per player from finished matches (R5.6).

    The winner scores `win`; the loser `loss`, or `forfeit` when the match was forfeited; a BYE
    scores `bye`. Refuses points where a loss beats a win or a forfeit beats a loss. Every id
    in `players` appears, with 0 if it has no result yet.
    """
    scale = points
    if not scale.win >= scale.loss >= scale.forfeit:
        raise ImpossibleLeaguePoints(
            f"league points must give a win ({scale.win}) at least a loss ({scale.loss}) "
            f"and a loss at least a forfeit ({scale.forfeit})"
        )
    totals = dict.fromkeys(players, 0)
    for record in records:
        if record.winner not in (record.home, record.away):
            raise InvalidLeagueResult(f"{record.winner} did not play {record.home} - {record.away}")
        if record.away is None:
            totals[record.home] = totals.get(record.home, 0) + scale.bye
            continue
        loser = record.loser
        assert loser is not None
        totals[record.winner] = totals.get(record.winner, 0) + scale.win
        totals[loser] = totals.get(loser, 0) + (scale.forfeit if record.forfeit else scale.loss)
    return totals
