"""Season points, season standings, Super Final invitations and final lives (R10.4, R10.5, R5.7).

Season points of one tournament = base placement points x the tournament's level
coefficient (R10.4). The seeds give no numbers, so `SeasonSettings` ships these defaults,
which the federation may change per season:

* base points by place: 1st 100, 2nd 70, 3-4 50, 5-8 30, 9-16 15, 17-32 8, every other
  finisher 3 (participation);
* level coefficients: Local 1, Regional 2, National 3, Major 4;
* the Super Final invites the top 16, the next 16 frozen as reserves, each invited player
  answering within 7 days; a tie across the cut is settled by a seeded draw
  (recorded seed, reproducible like any draw, R5.1); `cut_ties="invite_all"` invites the
  whole tied group instead;
* starting lives in a season-final lives event: places 1-4 get 4 lives, 5-8 get 3, the
  rest 2.

Shared places: players sharing places k..m each get the average of the base points of k..m
(times the coefficient), rounded half up to a whole point. Giving everybody the points of k
would hand out more points for a tie than for a decided order; the average keeps the total
a tournament distributes the same however its ties fall, the same principle as R11.3 for
prizes. With the default table an elimination tie (3-4, 5-8, ...) lies inside one band, so
it gets exactly that band's points.

Disqualified players get no season points from that tournament (R8.3). Season standings are
updated incrementally, one finished tournament at a time, and adding the same tournament twice
changes nothing (the roll-up may fire twice, R10.5). All points are whole numbers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence, Set
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.errors import RuleViolation
from tavla.rules.standings import Standing, remove_players
from tavla.rules.value import RuleModel

__all__ = [
    "Award",
    "FinalLivesRule",
    "LivesTier",
    "PlacePoints",
    "SeasonEntry",
    "SeasonError",
    "SeasonPlace",
    "SeasonSettings",
    "SeasonStandings",
    "SuperFinalInvitations",
    "TournamentLevel",
    "TournamentResult",
    "add_tournament",
    "final_starting_lives",
    "merge_players",
    "super_final_invitations",
    "tournament_points",
]


class SeasonError(RuleViolation):
    """A season request the rules do not allow."""


class TournamentLevel(StrEnum):
    """The level of a tournament (R2.1), which sets its season coefficient (R10.4)."""

    LOCAL = "local"
    REGIONAL = "regional"
    NATIONAL = "national"
    MAJOR = "major"


class PlacePoints(RuleModel):
    """A band of the base table: every place up to `up_to_place` (after the previous band)."""

    model_config = ConfigDict(frozen=True)

    up_to_place: int = Field(ge=1)
    points: int = Field(ge=0)


class LivesTier(RuleModel):
    """Season places up to `up_to_place` (after the previous tier) start the final with `lives`."""

    model_config = ConfigDict(frozen=True)

    up_to_place: int = Field(ge=1)
    lives: int = Field(ge=1)


def _check_bands(bands: Sequence[PlacePoints] | Sequence[LivesTier], what: str) -> None:
    places = [b.up_to_place for b in bands]
    if places != sorted(set(places)):
        raise ValueError(f"{what}: the places must rise from band to band")


class FinalLivesRule(RuleModel):
    """Starting lives of a season-final lives event by season place (R5.7).

    Default: places 1-4 start with 4 lives, 5-8 with 3, everybody else with 2. A tier is
    chosen by the best place of a player's (possibly shared) season place, so players level
    in the season are treated alike.
    """

    model_config = ConfigDict(frozen=True)

    tiers: tuple[LivesTier, ...] = (LivesTier(up_to_place=4, lives=4), LivesTier(up_to_place=8, lives=3))
    other_lives: int = Field(default=2, ge=1)

    @model_validator(mode="after")
    def _tiers_are_ordered(self) -> FinalLivesRule:
        _check_bands(self.tiers, "final lives tiers")
        return self

    def lives_for(self, place: int) -> int:
        """The starting lives of a player in season place `place`."""
        return next((t.lives for t in self.tiers if place <= t.up_to_place), self.other_lives)


def _default_table() -> tuple[PlacePoints, ...]:
    table = ((1, 100), (2, 70), (4, 50), (8, 30), (16, 15), (32, 8))
    return tuple(PlacePoints(up_to_place=p, points=v) for p, v in table)


def _default_coefficients() -> dict[TournamentLevel, Decimal]:
    return {
        TournamentLevel.LOCAL: Decimal(1),
        TournamentLevel.REGIONAL: Decimal(2),
        TournamentLevel.NATIONAL: Decimal(3),
        TournamentLevel.MAJOR: Decimal(4),
    }


class SeasonSettings(RuleModel):
    """One season's numbers, set by the federation (R10.4); the defaults are stated above."""

    model_config = ConfigDict(frozen=True)

    base_points: tuple[PlacePoints, ...] = Field(default_factory=_default_table)
    participation_points: int = Field(default=3, ge=0)
    coefficients: dict[TournamentLevel, Decimal] = Field(default_factory=_default_coefficients)
    super_final_size: int = Field(default=16, ge=1, le=48)  # the final is created in one transaction
    # the reserves frozen with the invited at the season's close: a decline or a missed
    # deadline passes the seat to the next of them (R10.4)
    super_final_reserves: int = Field(default=16, ge=0, le=1000)
    invitation_reply_days: int = Field(default=7, ge=1, le=60)
    cut_ties: Literal["draw", "invite_all"] = "draw"
    final_lives: FinalLivesRule = FinalLivesRule()
    # with divisions (R3.7): each division's Main earns its places' points times this, highest
    # division first; a division past the list earns none (default: the highest 1, others 0)
    division_coefficients: tuple[Decimal, ...] = Field(default=(Decimal(1),), max_length=8)

    @model_validator(mode="after")
    def _table_is_sane(self) -> SeasonSettings:
        _check_bands(self.base_points, "base points table")
        values = [b.points for b in self.base_points] + [self.participation_points]
        if values != sorted(values, reverse=True):
            raise ValueError("base points table: a better place can never earn fewer points")
        missing = [lv.value for lv in TournamentLevel if lv not in self.coefficients]
        if missing:
            raise ValueError(f"no coefficient set for level(s): {', '.join(missing)}")
        if any(c < 0 for c in self.coefficients.values()):
            raise ValueError("a level coefficient cannot be negative")
        if any(c < 0 for c in self.division_coefficients):
            raise ValueError("a division coefficient cannot be negative")
        return self

    def division_coefficient(self, rank: int) -> Decimal:
        """The coefficient of the division `rank` places below the highest (0: the highest)."""
        return self.division_coefficients[rank] if rank < len(self.division_coefficients) else Decimal(0)

    def base_for(self, place: int) -> int:
        """The base points of a single place."""
        return next((b.points for b in self.base_points if place <= b.up_to_place), self.participation_points)


def _round_half_up(x: Fraction) -> int:
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def tournament_points(
    standings: Sequence[Standing],
    level: TournamentLevel,
    settings: SeasonSettings | None = None,
    disqualified: Set[str] = frozenset(),
    division: int = 0,
) -> dict[str, int]:
    """Season points each finisher of one tournament earns (R10.4, R8.3).

    Each player gets _round_half_up(average base points of their place range x coefficient),
    the coefficient being the level's times the division's (`division` places below the
    highest, R3.7). Disqualified players are removed first (the places close up) and get nothing.
    """
    cfg = settings or SeasonSettings()
    coefficient = Fraction(cfg.coefficients[level]) * Fraction(cfg.division_coefficient(division))
    rows = remove_players(standings, disqualified)
    out: dict[str, int] = {}
    for r in rows:
        total = sum(cfg.base_for(p) for p in range(r.place, r.place_to + 1))
        out[r.player_id] = _round_half_up(Fraction(total, r.place_to - r.place + 1) * coefficient)
    return out


class TournamentResult(RuleModel):
    """A finished tournament as the season sees it."""

    model_config = ConfigDict(frozen=True)

    tournament_id: str = Field(min_length=1)
    level: TournamentLevel
    standings: tuple[Standing, ...]
    disqualified: frozenset[str] = frozenset()


class Award(RuleModel):
    """The season points one player earned at one tournament."""

    model_config = ConfigDict(frozen=True)

    tournament_id: str
    points: int = Field(ge=0)


class SeasonEntry(RuleModel):
    """One player's season so far: the total and the tournaments that made it."""

    model_config = ConfigDict(frozen=True)

    player_id: str = Field(min_length=1)
    awards: tuple[Award, ...] = ()

    @property
    def points(self) -> int:
        return sum(a.points for a in self.awards)

    @property
    def best(self) -> int:
        """The most points earned at a single tournament (the first season tie-break)."""
        return max((a.points for a in self.awards), default=0)

    def counted(self, tournament_id: str) -> bool:
        return any(a.tournament_id == tournament_id for a in self.awards)


class SeasonStandings(RuleModel):
    """The season table, built up one finished tournament at a time."""

    model_config = ConfigDict(frozen=True)

    entries: dict[str, SeasonEntry] = Field(default_factory=dict)
    counted: frozenset[str] = frozenset()


def add_tournament(
    season: SeasonStandings, result: TournamentResult, settings: SeasonSettings | None = None
) -> SeasonStandings:
    """Add one finished tournament's points to the season (R10.4, R10.5).

    Touches only that tournament's players (never a rescan of all matches). Adding a
    tournament already counted returns the season unchanged (safe when the roll-up fires twice).
    """
    if result.tournament_id in season.counted:
        return season
    awards = tournament_points(result.standings, result.level, settings, result.disqualified)
    entries = dict(season.entries)
    for pid, pts in awards.items():
        entry = entries.get(pid, SeasonEntry(player_id=pid))
        award = Award(tournament_id=result.tournament_id, points=pts)
        entries[pid] = entry.model_copy(update={"awards": (*entry.awards, award)})
    # every part is already validated: construct without re-validating the whole season table
    return SeasonStandings.model_construct(entries=entries, counted=season.counted | {result.tournament_id})


def merge_players(season: SeasonStandings, surviving: str, duplicate: str) -> SeasonStandings:
    """Move a duplicate account's season points to the surviving id (R1.1).

    If both accounts earned points at the same tournament (which the one-account rule
    forbids), the better award of the two is kept, so a person never scores twice in one event.
    """
    if surviving == duplicate:
        raise SeasonError("an account cannot be merged into itself")
    dup = season.entries.get(duplicate)
    if dup is None:
        return season
    keep = season.entries.get(surviving, SeasonEntry(player_id=surviving))
    best: dict[str, Award] = {}
    for a in (*keep.awards, *dup.awards):
        if a.tournament_id not in best or a.points > best[a.tournament_id].points:
            best[a.tournament_id] = a
    entries = {k: v for k, v in season.entries.items() if k != duplicate}
    entries[surviving] = SeasonEntry(player_id=surviving, awards=tuple(best.values()))
    return SeasonStandings(entries=entries, counted=season.counted)


class SeasonPlace(Standing):
    """A row of the season table."""

    points: int
    best: int
    tournaments: int


class SuperFinalInvitations(RuleModel):
    """Who is invited to the Super Final, in season order, and how a tie at the cut was settled."""

    model_config = ConfigDict(frozen=True)

    invited: tuple[str, ...]
    tied_at_cut: tuple[str, ...] = ()
    drawn_at_cut: tuple[str, ...] = ()
    seed: int


def super_final_invitations(
    ranking: Sequence[SeasonPlace], seed: int, settings: SeasonSettings | None = None
) -> SuperFinalInvitations:
    """The season leaders invited to the Super Final (R10.4).

    Everyone whose whole place range lies within the top N is invited. If a shared place
    straddles the cut, `cut_ties="draw"` fills the remaining seats by a draw among the tied
    players with `random.Random(seed)` (recorded, reproducible); `"invite_all"` invites the
    whole tied group. Players with no season points are never invited.
    """
    cfg = settings or SeasonSettings()
    n = cfg.super_final_size
    scoring = [r for r in ranking if r.points > 0]
    sure = [r.player_id for r in scoring if r.place_to <= n]
    tied = sorted(r.player_id for r in scoring if r.place <= n < r.place_to)
    if not tied:
        return SuperFinalInvitations(invited=tuple(sure), seed=seed)
    if cfg.cut_ties == "invite_all":
        return SuperFinalInvitations(invited=(*sure, *tied), tied_at_cut=tuple(tied), seed=seed)
    drawn = random.Random(seed).sample(tied, n - len(sure))
    drawn_set = set(drawn)
    return SuperFinalInvitations(
        invited=(*sure, *(p for p in tied if p in drawn_set)),
        tied_at_cut=tuple(tied),
        drawn_at_cut=tuple(drawn),
        seed=seed,
    )


def final_starting_lives(
    ranking: Sequence[SeasonPlace], invited: Sequence[str], settings: SeasonSettings | None = None
) -> dict[str, int]:
    """Starting lives for the season-final lives event, by season place (R5.7).

    Each invited player's lives come from `settings.final_lives` for their season place
    (the best place of a shared range). Refuses an invited player who has no season place.
    """
    rule = (settings or SeasonSettings()).final_lives
    place: Mapping[str, int] = {r.player_id: r.place for r in ranking}
    missing = [p for p in invited if p not in place]
    if missing:
        raise SeasonError(f"not in the season ranking: {', '.join(missing)}")
    return {p: rule.lives_for(place[p]) for p in invited}
