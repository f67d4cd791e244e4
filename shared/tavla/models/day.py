"""The tournament day as the API shows it: draws, matches, tables (R5, R6). Public fields only."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from tavla.models.common import ApiModel, StrictModel, TavlaId
from tavla.rules.model import Bracket

MatchState = Literal[
    "waiting",
    "queued",
    "called",
    "playing",
    "adjourned",
    "finished",
    "disputed",
    "official",
    "bye",
    "void",
    "not_needed",
]
Side = Literal["home", "away"]


class PlayerRef(ApiModel):
    """A player as a board shows them: Tavla ID, name, club (R12.1: nothing private)."""

    tavla_id: str
    name: str | None = None
    club: str | None = None


class ResultView(ApiModel):
    winner: str
    home_points: int
    away_points: int
    forfeit: bool = False
    how: str = Field(description="score, forfeit, time, bye, decision")


class Declaration(ApiModel):
    """The final score one side declared (R7.5), home first."""

    side: Side
    home_points: int
    away_points: int
    at: datetime | None = None


class MatchView(ApiModel):
    """One match of a published draw, as the public sees it."""

    id: str = Field(description="the match id used by /matches/{id}")
    code: str = Field(description="its place in the draw, e.g. main.R2.3 (event, round, board)")
    draw: int
    division: str | None = Field(
        default=None, description="its division's id (R3.7); null when the tournament has one"
    )
    event: str
    round: int
    label: str = Field(description="what a board shows: R2, W3, L4, GF1, S3, RR5, V2")
    board: int
    bracket: Bracket = Field(
        description="main (single elimination, Swiss, round robin, lives), winners, losers, final, "
        "final_reset (double elimination), consolation, last_chance"
    )
    bracket_round: int = Field(description="its round within its bracket (1 for a final)")
    slot: int = Field(description="its place in its round, from 1 (the board of its code)")
    stage: str
    length: int = Field(description="points to win (a series: of each of its matches)")
    best_of: int = Field(
        default=1, description="1: one match; 3: a best-of-three series, its result the matches won"
    )
    legs: list[list[int]] = Field(
        default_factory=list, description="a series' finished matches, each its final score home first"
    )
    state: MatchState
    home: PlayerRef | None = None
    away: PlayerRef | None = None
    home_from: str | None = Field(default=None, description="'winner of main.R1.3' while not known")
    away_from: str | None = None
    table: int | None = None
    called_at: datetime | None = None
    present: list[Side] = Field(default_factory=list)
    excused: list[Side] = Field(default_factory=list, description="absent with the referee's leave")
    late_points: dict[str, int] = Field(default_factory=dict)
    score: list[int] = Field(default_factory=lambda: [0, 0], description="live score, home first")
    games: int = 0
    result: ResultView | None = None
    official_at: datetime | None = None
    appeal_open: bool = False
    declared: list[Declaration] = Field(
        default_factory=list, description="the final scores the players declared, by side (R7.5)"
    )
    version: int = 0


class Redraw(ApiModel):
    """A draw replaced by a redraw: which attempt, why, when (public, R5.1)."""

    attempt: int
    reason: str
    redrawn_at: datetime


class EarlierPairing(ApiModel):
    code: str
    home: str | None = None
    away: str | None = None


class EarlierDraw(ApiModel):
    """A draw as first published, before a redraw replaced it: it stays visible (R5.1)."""

    attempt: int
    seed: int
    digest: str
    published_at: datetime
    pairings: list[EarlierPairing]
    reason: str = Field(description="why the organiser redrew it")
    redrawn_at: datetime


class RoundSummary(ApiModel):
    """A published draw: what it drew, its seed and the digest of its inputs (R5.1)."""

    number: int
    division: str | None = Field(
        default=None, description="its division's id (R3.7); null when the tournament has one"
    )
    event: str
    round: int
    seed: int
    digest: str = Field(description="SHA-256 of the canonical JSON of `inputs`")
    published_at: datetime
    matches: int
    revealed_seed: str | None = Field(
        default=None,
        description="the secret committed to before the first draw: its SHA-256 is the tournament's "
        "`draw_commitment.hash`, and `seed` follows from it, the draw's number and `attempt` (R5.1)",
    )
    attempt: int = Field(default=1, description="1, or 2.. once redrawn")
    redraws: list[Redraw] = Field(default_factory=list, description="'redrawn: reason', oldest first")


class RoundView(RoundSummary):
    """A published draw with its matches and the public inputs it was computed from."""

    inputs: dict[str, Any] = Field(description="field, ratings, clubs, earlier results, settings")
    seed_list: list[str] = Field(
        default_factory=list,
        description="the field in seed order (Tavla IDs, seed 1 first) as this draw placed it (R5.1, R5.2)",
    )
    pairings: list[MatchView]
    earlier: list[EarlierDraw] = Field(default_factory=list, description="the draws a redraw replaced")


class PreviewPairing(ApiModel):
    code: str
    board: int
    label: str
    home: PlayerRef | None = None
    away: PlayerRef | None = None
    home_from: str | None = None
    away_from: str | None = None


class DrawPreview(ApiModel):
    """The next draw as it will be published, computed from the committed seed (organisers only)."""

    number: int
    division: str | None = None
    event: str
    round: int
    digest: str
    pairings: list[PreviewPairing]


class RedrawRequest(StrictModel):
    """Why the organiser redraws a published round (R5.1): shown on the public page."""

    reason: str = Field(min_length=3, max_length=300)


class LateEntryPolicyBody(StrictModel):
    """Open or close late entry (Swiss and lives, R5.5, R5.7): what a late player starts with."""

    open: bool
    points: Literal["none", "half_per_missed_round"] = "none"
    lives: int | None = Field(default=None, ge=1, le=9, description="null: the event's starting lives")


class LateEntryRequest(StrictModel):
    """A player entered late by the organiser while late entry is open."""

    tavla_id: TavlaId
    division: str | None = Field(default=None, min_length=1, max_length=64)


class LateEntryView(ApiModel):
    tavla_id: str
    round: int = Field(description="the first round they are paired in")
    points: float = Field(description="Swiss: the points they start with")
    lives: int | None = None


class Rounds(ApiModel):
    rounds: list[RoundSummary]


class PresenceRequest(StrictModel):
    """At the table (`present`), or excused by the referee (`excused`, staff only) (R6.3).

    `tavla_id`: which player; a player marking themself may leave it out.
    """

    tavla_id: TavlaId | None = None
    present: Literal[True] | None = None
    excused: Literal[True] | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        if (self.present is None) == (self.excused is None):
            raise ValueError("give exactly one of `present: true` or `excused: true`")
        return self
