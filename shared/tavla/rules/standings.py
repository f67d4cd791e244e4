"""Final standings of one event (R10.1, R10.2, R8.3).

Two families:

* `knockout_standings` (single / double elimination, lives, R5.3, R5.4, R5.7): players are
  ranked by the round in which they lost their last life; players knocked out in the same
  round share the place, shown as a range (a field of 16: the final's loser is 2nd, the
  semi-final losers share 3-4, the quarter-final losers 5-8, ...).
* `table_standings` (Swiss and league, R5.5, R5.6): points, then head-to-head, then the
  overall point difference, then the sum of the opponents' points (Buchholz); players still
  level after the whole chain share the place.

Disqualified players (R8.3) are removed from the ranking: they get no place, and everybody
below them moves up. Their matches stay on the record, so their opponents keep the points
they won against them (as a chess arbiter keeps the games of a withdrawn player).

A place is a range `place..place_to`; a single place has `place == place_to`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence, Set
from itertools import combinations
from typing import TypeVar

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.entrants import MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.points import SWISS_POINTS, MatchPoints
from tavla.rules.value import RuleModel

__all__ = [
    "Standing",
    "StandingsError",
    "TableRow",
    "elimination_rounds",
    "knockout_standings",
    "rank_by_elimination",
    "remove_players",
    "table_standings",
    "validate_standings",
]


T = TypeVar("T")


class StandingsError(RuleViolation):
    """The results given cannot be turned into standings (unknown player, bad record)."""


class Standing(RuleModel):
    """One player's place in an event; `place..place_to` is the range of a shared place."""

    model_config = ConfigDict(frozen=True)

    player_id: str = Field(min_length=1)
    place: int = Field(ge=1)
    place_to: int = Field(ge=1)

    @model_validator(mode="after")
    def _range_is_ordered(self) -> Standing:
        if self.place_to < self.place:
            raise ValueError(f"place range {self.place}-{self.place_to} runs backwards")
        return self

    @property
    def shared(self) -> bool:
        """True when other players share this place."""
        return self.place_to > self.place

    @property
    def label(self) -> str:
        """The place as shown on the tournament page: `"2"` or `"5-8"`."""
        return str(self.place) if not self.shared else f"{self.place}-{self.place_to}"


class TableRow(Standing):
    """A Swiss / league standing with the figures of the tie-break chain (R10.2)."""

    points: int
    head_to_head: int
    head_to_head_difference: int
    point_difference: int
    buchholz: int
    late_half_points: int = 0  # a late entrant's starting points, in halves of a win


def _check_field(players: Iterable[str], disqualified: Set[str]) -> list[str]:
    field = list(players)
    dupes = sorted(p for p, n in Counter(field).items() if n > 1)
    if dupes:
        raise StandingsError(f"player(s) listed twice in the field: {', '.join(dupes)}")
    unknown = sorted(set(disqualified) - set(field))
    if unknown:
        raise StandingsError(f"disqualified player(s) not in the field: {', '.join(unknown)}")
    return field


def _check_match(m: MatchRecord, field: Set[str]) -> None:
    for pid in (m.home, m.away):
        if pid is not None and pid not in field:
            raise StandingsError(f"round {m.round}: {pid} is not in the field of this event")
    if m.away is not None and m.home == m.away:
        raise StandingsError(f"round {m.round}: {m.home} cannot play against themselves")
    if m.winner not in (m.home, m.away):
        raise StandingsError(f"round {m.round}: the winner {m.winner} did not play in this match")


def _share_places(ordered: Sequence[T], key: Callable[[T], Hashable]) -> list[tuple[T, int, int]]:
    """Attach `(place, place_to)` to an already sorted list; equal keys share the place."""
    out: list[tuple[T, int, int]] = []
    i = 0
    while i < len(ordered):
        j = i
        k = key(ordered[i])
        while j + 1 < len(ordered) and key(ordered[j + 1]) == k:
            j += 1
        out.extend((ordered[x], i + 1, j + 1) for x in range(i, j + 1))
        i = j + 1
    return out


def rank_by_elimination(
    eliminated_in: Mapping[str, int | None],
    disqualified: Set[str] = frozenset(),
    lives_left: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Rank players by the round they were knocked out in (R10.1, R5.7, R8.3).

    `eliminated_in[p]` is the round in which `p` lost their last life, or None for a player
    still in. Players still in come first (ordered by `lives_left`, more first, when given;
    otherwise they share the top place); then the later a player went out, the better.
    Players out in the same round share the place. Disqualified players are left out.
    Guarantees: the result is a permutation of the non-disqualified players, places run
    1..n without gaps, sorted best first (ties by player id).
    """
    unknown = sorted(set(disqualified) - set(eliminated_in))
    if unknown:
        raise StandingsError(f"disqualified player(s) not in the field: {', '.join(unknown)}")
    lives = lives_left or {}

    def key(pid: str) -> tuple[int, int]:
        out = eliminated_in[pid]
        if out is None:
            return (0, -lives.get(pid, 0))
        return (1, -out)

    ranked = sorted((p for p in eliminated_in if p not in disqualified), key=lambda p: (key(p), p))
    return [Standing(player_id=p, place=a, place_to=b) for p, a, b in _share_places(ranked, key)]


def elimination_rounds(
    players: Iterable[str],
    matches: Iterable[MatchRecord],
    lives: int | Mapping[str, int] = 1,
) -> tuple[dict[str, int | None], dict[str, int]]:
    """The round each player lost their last life in, and the lives each player has left.

    `lives` is 1 for single elimination, 2 for double elimination, N (or a per-player map,
    for season finals, R5.7) for a lives event. A forfeit costs a life like any loss; a BYE
    costs nothing. Round numbers must grow with time across all brackets of the event.
    Losses after a player is out are refused: the record would be wrong.
    """
    field = _check_field(players, frozenset())
    start = dict.fromkeys(field, lives) if isinstance(lives, int) else dict(lives)
    missing = sorted(set(field) - set(start))
    if missing:
        raise StandingsError(f"no starting lives given for: {', '.join(missing)}")
    if any(start[p] < 1 for p in field):
        raise StandingsError("every player must start with at least one life")
    left = {p: start[p] for p in field}
    out: dict[str, int | None] = dict.fromkeys(field)
    fieldset = set(field)
    for m in sorted(matches, key=lambda r: r.round):
        _check_match(m, fieldset)
        for pid in (m.home, m.away):
            gone = out.get(pid) if pid is not None else None
            if gone is not None:
                raise StandingsError(f"round {m.round}: {pid} was already knocked out in round {gone}")
        loser = m.loser
        if loser is None:
            continue
        left[loser] -= 1
        if left[loser] == 0:
            out[loser] = m.round
    return out, left


def knockout_standings(
    players: Iterable[str],
    matches: Iterable[MatchRecord],
    disqualified: Set[str] = frozenset(),
    lives: int | Mapping[str, int] = 1,
) -> list[Standing]:
    """Standings of an elimination or lives event from its match records (R10.1, R5.7, R8.3).

    Single elimination: `lives=1`; double elimination: `lives=2`; lives events: N or a
    per-player map. Players knocked out in the same round share the place (16 players: 1, 2,
    3-4, 5-8, 9-16). Players still in rank first, more lives left first. Disqualified players
    get no place; the others close the gap.
    """
    field = _check_field(players, disqualified)
    out, left = elimination_rounds(field, matches, lives)
    return rank_by_elimination(out, disqualified, left)


def table_standings(
    players: Iterable[str],
    matches: Iterable[MatchRecord],
    points: MatchPoints = SWISS_POINTS,
    disqualified: Set[str] = frozenset(),
    start_half_points: Mapping[str, int] | None = None,
) -> list[TableRow]:
    """Swiss / league standings with the tie-break chain of R10.2 (seed 002 section 12).

    1. match points (`MatchPoints`; a BYE earns `bye` points);
    2. head-to-head ("αλληλοδιαφορά"): among the players level on points, first the match
       points earned in their matches against each other, then the game-point difference
       in those matches - applied only when every two of them have met (a Swiss event rarely
       has a complete mini-league; an incomplete one would reward whoever happened to meet);
    3. overall point difference: game points won minus lost over all matches (a BYE counts
       0; a forfeit counts as recorded, match length-0, R8.1);
    4. Buchholz: the sum of the final match points of every opponent met (a BYE adds 0).
    Players level on all four share the place. Disqualified players are left out (R8.3).
    `start_half_points`: late entrants' starting points (halves of a win), counted with the
    match points of step 1 and shown apart (`late_half_points`).
    Guarantees: a permutation of the non-disqualified field, places 1..n without gaps.
    """
    system = points
    field = _check_field(players, disqualified)
    fieldset = set(field)
    recs = list(matches)
    pts: dict[str, int] = dict.fromkeys(field, 0)
    diff: dict[str, int] = dict.fromkeys(field, 0)
    opponents: dict[str, list[str]] = defaultdict(list)
    for m in recs:
        _check_match(m, fieldset)
        if m.away is None:
            pts[m.home] += system.bye
            continue
        loser = m.loser
        assert loser is not None
        pts[m.winner] += system.win
        pts[loser] += system.forfeit if m.forfeit else system.loss
        diff[m.home] += m.home_points - m.away_points
        diff[m.away] += m.away_points - m.home_points
        opponents[m.home].append(m.away)
        opponents[m.away].append(m.home)
    buchholz = {p: sum(pts[o] for o in opponents[p]) for p in field}

    ranked_field = [p for p in field if p not in disqualified]
    start = dict(start_half_points or {})
    total = {p: 2 * pts[p] + start.get(p, 0) for p in field} if start else pts
    groups: dict[int, list[str]] = defaultdict(list)
    for p in ranked_field:
        groups[total[p]].append(p)
    h2h: dict[str, tuple[int, int]] = dict.fromkeys(ranked_field, (0, 0))
    for group in groups.values():
        if len(group) > 1:
            h2h.update(_head_to_head(group, recs, system))

    def key(p: str) -> tuple[int, int, int, int, int]:
        return (-total[p], -h2h[p][0], -h2h[p][1], -diff[p], -buchholz[p])

    ordered = sorted(ranked_field, key=lambda p: (key(p), p))
    return [
        TableRow(
            player_id=p,
            place=a,
            place_to=b,
            points=pts[p],
            head_to_head=h2h[p][0],
            head_to_head_difference=h2h[p][1],
            point_difference=diff[p],
            buchholz=buchholz[p],
            late_half_points=start.get(p, 0),
        )
        for p, a, b in _share_places(ordered, key)
    ]


def _head_to_head(
    group: Sequence[str], matches: Sequence[MatchRecord], system: MatchPoints
) -> dict[str, tuple[int, int]]:
    """(match points, game-point difference) of each player in the matches within `group`;
    all zero unless every two players of the group have met."""
    members = set(group)
    inner = [m for m in matches if m.away is not None and m.home in members and m.away in members]
    met = {frozenset((m.home, m.away)) for m in inner}
    if any(frozenset(pair) not in met for pair in combinations(group, 2)):
        return dict.fromkeys(group, (0, 0))
    score = dict.fromkeys(group, 0)
    diff = dict.fromkeys(group, 0)
    for m in inner:
        loser = m.loser
        assert loser is not None and m.away is not None
        score[m.winner] += system.win
        score[loser] += system.forfeit if m.forfeit else system.loss
        diff[m.home] += m.home_points - m.away_points
        diff[m.away] += m.away_points - m.home_points
    return {p: (score[p], diff[p]) for p in group}


def validate_standings(rows: Sequence[Standing]) -> None:
    """Refuse standings that are not a clean ranking: each player once, best place first,
    places 1..n without gaps, and every shared range `k..m` held by exactly m-k+1 players."""
    dupes = sorted(p for p, n in Counter(r.player_id for r in rows).items() if n > 1)
    if dupes:
        raise StandingsError(f"player(s) ranked twice: {', '.join(dupes)}")
    expected = 1
    i = 0
    while i < len(rows):
        r = rows[i]
        size = r.place_to - r.place + 1
        group = rows[i : i + size]
        if r.place != expected or any((g.place, g.place_to) != (r.place, r.place_to) for g in group):
            raise StandingsError(
                f"the standings are inconsistent at place {expected} ({r.player_id}: {r.label})"
            )
        if len(group) != size:
            raise StandingsError(f"place {r.label} is shared by fewer players than its range says")
        expected = r.place_to + 1
        i += size


def remove_players(rows: Sequence[Standing], removed: Set[str]) -> list[Standing]:
    """The standings without `removed` (e.g. players disqualified after the event, R8.3).

    The others keep their order and who they were level with; places close up (a shared
    5-8 that loses one player becomes 5-7, and everybody below moves up one place).
    """
    validate_standings(rows)
    kept = [r for r in rows if r.player_id not in removed]
    shifted = _share_places(kept, lambda r: r.place)
    return [Standing(player_id=r.player_id, place=a, place_to=b) for r, a, b in shifted]
