"""Single elimination (R5.3): the standard seeded bracket, BYEs to the top seeds, club protection (R5.2).

A draw is a list of bracket lines (line 1 plays line 2, line 3 plays line 4, ...); a line holding
`None` is a BYE, i.e. a free slot that a late arrival may still take (seed 001, 2.6). Seeds are
placed in the standard order (for 16: 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11), so seeds 1
and 2 can meet only in the final, seeds 1-4 only from the semi-finals on, and so on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from pydantic import ConfigDict

from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.seeding import SeedingMode, seed_order
from tavla.rules.value import RuleModel

Line = str | None


class NotEnoughPlayers(RuleViolation):
    """A bracket needs at least two players."""


class DuplicatePlayer(RuleViolation):
    """The same player cannot be placed twice in a draw."""


class NoFreeSlot(RuleViolation):
    """A late arrival came when every bracket slot was already taken."""


class ResultMissing(RuleViolation):
    """A round cannot advance until every match of it has a winner."""


class WinnerNotInMatch(RuleViolation):
    """A result names a winner who was not one of the two players of that match."""


class ClubClash(RuleModel):
    """Two players of the same club who meet in round one because it could not be avoided (R5.2)."""

    model_config = ConfigDict(frozen=True)

    club: str
    home: str
    away: str


class SingleEliminationDraw(RuleModel):
    """A published single elimination draw: enough to recompute it and to play it out (R5.1, R5.3)."""

    model_config = ConfigDict(frozen=True)

    seed: int
    mode: SeedingMode
    club_protection: bool
    size: int
    lines: tuple[Line, ...]
    seed_list: tuple[str, ...]
    club_clashes: tuple[ClubClash, ...] = ()
    late_arrivals: tuple[str, ...] = ()

    @property
    def rounds(self) -> int:
        """How many rounds the bracket has (the final is the last)."""
        return self.size.bit_length() - 1

    def first_round(self) -> list[Pairing]:
        """Round one's boards, BYEs included (a BYE is a pairing with no `away`)."""
        return round_pairings(self.lines)


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players` (at least 2)."""
    if players < 2:
        raise NotEnoughPlayers(f"an elimination bracket needs at least 2 players, not {players}")
    return 1 << (players - 1).bit_length()


def seed_positions(size: int) -> tuple[int, ...]:
    """The seed number on each bracket line, standard order: seeds k and k+1 of each band meet latest.

    `size` must be a power of two. For 8: (1, 8, 4, 5, 2, 7, 3, 6).
    """
    if size < 1 or size & (size - 1):
        raise RuleViolation(f"a bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def _check_unique(ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for pid in ids:
        if pid in seen:
            raise DuplicatePlayer(f"player {pid} is entered twice")
        seen.add(pid)


def _protect_clubs(
    by_seed: list[Entrant | None], size: int, players: int
) -> tuple[list[Entrant | None], list[ClubClash]]:
    """Swap round-one opponents within the bottom seed band so that clubmates avoid each other.

    Round one pairs seed s with seed size+1-s; the bottom band (seeds size/2+1 .. players) is
    permuted, each conflicting player swapping with the nearest seed whose match holds no
    player of that club. Each swap removes a clash and creates none, so the result has the
    fewest clashes any permutation of the bottom band can reach.
    """
    half = size // 2
    bottom = list(range(half + 1, players + 1))  # seed numbers of bottom-band players with a match
    seats = by_seed[:]
    clashes: list[ClubClash] = []

    def club_at(seed_no: int) -> str | None:
        entrant = seats[seed_no - 1]
        return None if entrant is None else entrant.club

    for index, s in enumerate(bottom):
        club = club_at(s)
        if club is None or club_at(size + 1 - s) != club:
            continue
        found = None
        for distance in range(1, len(bottom)):
            for j in (index - distance, index + distance):
                if 0 <= j < len(bottom):
                    other = bottom[j]
                    if club_at(other) != club and club_at(size + 1 - other) != club:
                        found = other
                        break
            if found is not None:
                break
        if found is None:
            top = seats[size - s]
            here = seats[s - 1]
            assert top is not None and here is not None
            clashes.append(ClubClash(club=club, home=top.player_id, away=here.player_id))
            continue
        seats[s - 1], seats[found - 1] = seats[found - 1], seats[s - 1]
    return seats, clashes


def draw_single_elimination(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    mode: SeedingMode = "rating",
    club_protection: bool = False,
    late_slots: int = 0,
) -> SingleEliminationDraw:
    """Draw a single elimination bracket (R5.1-R5.3).

    Guarantees: every entrant is on exactly one line; the bracket is the next power of two and
    its BYEs face the top seeds; seeds follow the standard order; with club protection on,
    clubmates meet in round one only when no swap within the bottom seed band avoids it, and
    each such pair is listed in `club_clashes`. The same entrants and seed give the same draw.
    `late_slots` keeps at least that many free slots for late arrivals (seed 001 2.6: the
    director decides how many); they are BYEs until `fill_late_arrivals` fills them.
    """
    _check_unique(e.player_id for e in entrants)
    ordered = seed_order(entrants, mode, seed)
    return draw_from_seed_order(
        ordered, seed=seed, mode=mode, club_protection=club_protection, late_slots=late_slots
    )


def draw_from_seed_order(
    ordered: Sequence[Entrant],
    *,
    seed: int,
    mode: SeedingMode,
    club_protection: bool = False,
    late_slots: int = 0,
) -> SingleEliminationDraw:
    """Place players already in seed order (best first) on a bracket; see `draw_single_elimination`.

    For callers that adjust the seed order first (bye balance, R5.8); `seed` and `mode` are
    recorded as given so the draw can be recomputed.
    """
    _check_unique(e.player_id for e in ordered)
    if late_slots < 0:
        raise RuleViolation(f"the number of late-arrival slots cannot be negative ({late_slots})")
    bracket_size(len(ordered))
    size = bracket_size(len(ordered) + late_slots)
    by_seed: list[Entrant | None] = [*ordered, *([None] * (size - len(ordered)))]
    clashes: list[ClubClash] = []
    if club_protection:
        by_seed, clashes = _protect_clubs(by_seed, size, len(ordered))
    lines = tuple(None if (e := by_seed[s - 1]) is None else e.player_id for s in seed_positions(size))
    return SingleEliminationDraw(
        seed=seed,
        mode=mode,
        club_protection=club_protection,
        size=size,
        lines=lines,
        seed_list=tuple(e.player_id for e in ordered),
        club_clashes=tuple(clashes),
    )


def fill_late_arrivals(draw: SingleEliminationDraw, late: Sequence[str]) -> SingleEliminationDraw:
    """Put late arrivals into the free slots (BYE lines) in bracket order, first come first placed.

    Seed 001, 2.6: late arrivals are assigned in the order of the bracket's numbering. Refuses a
    late arrival already in the draw, and more late arrivals than free slots.
    """
    placed = [p for p in draw.lines if p is not None]
    _check_unique([*placed, *late])
    free = [i for i, p in enumerate(draw.lines) if p is None]
    if len(late) > len(free):
        raise NoFreeSlot(f"{len(late)} late arrivals but only {len(free)} free slots in the bracket")
    lines = list(draw.lines)
    for index, player in zip(free, late, strict=False):
        lines[index] = player
    return draw.model_copy(update={"lines": tuple(lines), "late_arrivals": (*draw.late_arrivals, *late)})


def round_pairings(lines: Sequence[Line], first_table: int = 1) -> list[Pairing]:
    """The boards of one round from its bracket lines; a lone player is a BYE, an empty pair is skipped."""
    boards: list[Pairing] = []
    for k in range(0, len(lines) - 1, 2):
        a, b = lines[k], lines[k + 1]
        home, away = (a, b) if a is not None else (b, None)
        if home is None:
            continue
        boards.append(Pairing(table=first_table + len(boards), home=home, away=away))
    return boards


def next_round(lines: Sequence[Line], winners: Iterable[str]) -> tuple[Line, ...]:
    """The next round's lines: the winner of each pair, the lone player of a BYE pair.

    Refuses a winner who is not in the round and a played pair with no winner.
    """
    won = set(winners)
    out: list[Line] = []
    for k in range(0, len(lines) - 1, 2):
        a, b = lines[k], lines[k + 1]
        if a is None or b is None:
            out.append(a if b is None else b)
            continue
        if a in won and b in won:
            raise WinnerNotInMatch(f"{a} and {b} cannot both win their match")
        if a in won or b in won:
            out.append(a if a in won else b)
            continue
        raise ResultMissing(f"the match {a} - {b} has no result yet")
    stray = won - {p for p in lines if p is not None}
    if stray:
        raise WinnerNotInMatch(f"{', '.join(sorted(stray))} did not play in this round")
    return tuple(out)


class BracketProgress(RuleModel):
    """How far a single elimination bracket has been played (R10.1 uses `knocked_out_in`)."""

    model_config = ConfigDict(frozen=True)

    rounds: tuple[tuple[Line, ...], ...]
    knocked_out_in: dict[str, int]
    champion: str | None = None


def play_out(first_round: Sequence[Line], results: Iterable[MatchRecord]) -> BracketProgress:
    """Advance a bracket round by round from confirmed results.

    `rounds[0]` is `first_round`; each later entry is present once every match of the round
    before has a winner. `knocked_out_in` gives the round each loser went out in (BYEs are not
    losses). Refuses a result between players who were not paired in that round.
    """
    by_round: dict[int, list[MatchRecord]] = defaultdict(list)
    for record in results:
        if not record.is_bye:
            by_round[record.round].append(record)
    rounds = [tuple(first_round)]
    knocked_out: dict[str, int] = {}
    number = 1
    while len(rounds[-1]) > 1:
        lines = rounds[-1]
        records = by_round.get(number, [])
        pairs = {frozenset(p.players) for p in round_pairings(lines) if not p.is_bye}
        for record in records:
            if frozenset((record.home, record.away)) not in pairs:
                raise WinnerNotInMatch(f"{record.home} and {record.away} were not paired in round {number}")
            if record.winner not in (record.home, record.away):
                raise WinnerNotInMatch(f"{record.winner} did not play {record.home} - {record.away}")
        try:
            advanced = next_round(lines, (r.winner for r in records))
        except ResultMissing:
            break
        for record in records:
            loser = record.loser
            assert loser is not None
            knocked_out[loser] = number
        rounds.append(advanced)
        number += 1
    final = rounds[-1]
    champion = final[0] if len(final) == 1 else None
    return BracketProgress(rounds=tuple(rounds), knocked_out_in=knocked_out, champion=champion)


def bye_holders(lines: Sequence[Line]) -> set[str]:
    """The players who have a BYE in the round these lines describe."""
    return {
        player
        for k in range(0, len(lines) - 1, 2)
        for player, other in ((lines[k], lines[k + 1]), (lines[k + 1], lines[k]))
        if player is not None and other is None
    }
