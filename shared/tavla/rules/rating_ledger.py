"""The national rating ledger: official results in the order they became official (R10.3, R1.1).

Every official result has a ledger key, `<official_at in UTC>#<match_id>`, and the ratings
are the FIBS formula (`rules.rating`) applied to the ledger in key order. The incremental
path and the nightly rebuild use the same two functions, so they cannot disagree:

* `cascade(entries, seeds)`: when a result arrives late (EventBridge does not keep order),
  changes (an appeal) or two accounts merge, the players whose ratings change are the seeds
  from the first entry on, and every later opponent of a changed player from the match they
  met on: the returned map gives each changed player the key from which their history moves.
* `replay(entries, starts, dirty_from)`: the history steps of every entry that touches a
  changed player, from each one's state before their first changed entry (`starts`).

A full rebuild is `replay(all entries, {}, {everybody: ""})`. Forfeits are kept in the
history (the player's results) but not rated; a match of a person against themselves (two
merged accounts that met) is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from pydantic import ConfigDict, Field

from tavla.rules.rating import RatingState, experience_boost, rate_match
from tavla.rules.value import RuleModel

__all__ = ["LedgerEntry", "RatingStep", "cascade", "ledger_key", "replay"]


def ledger_key(official_at: str, match_id: str) -> str:
    """The ledger order: the moment the result became official (UTC), then the match id."""
    moment = datetime.fromisoformat(official_at).astimezone(UTC).isoformat()
    return f"{moment}#{match_id}"


class LedgerEntry(RuleModel):
    """One official result as the rating sees it."""

    model_config = ConfigDict(frozen=True)

    key: str = Field(min_length=1)
    match_id: str = Field(min_length=1)
    tournament_id: str = Field(min_length=1)
    winner: str = Field(min_length=1)
    loser: str = Field(min_length=1)
    length: int = Field(ge=1)
    forfeit: bool = False
    winner_points: int = Field(default=0, ge=0)
    loser_points: int = Field(default=0, ge=0)

    @property
    def players(self) -> tuple[str, str]:
        return self.winner, self.loser


class RatingStep(RuleModel):
    """One line of a player's rating history: the match, the rating before and after, K."""

    model_config = ConfigDict(frozen=True)

    player: str
    key: str
    match_id: str
    tournament_id: str
    opponent: str
    won: bool
    forfeit: bool
    rated: bool
    before: float
    after: float
    boost: float  # K of this match (0 when not rated)
    rated_matches: int  # rated matches after this one
    points_for: int
    points_against: int


def cascade(entries: Sequence[LedgerEntry], seeds: Iterable[str], since: str | None = None) -> dict[str, str]:
    """Who changes, and from which ledger key: the seeds from `since` (default: the first
    entry; give the removed entry's key when an entry moved or left), then every opponent of a
    changed player from the entry where they met (`entries` in key order)."""
    first = since if since is not None else (entries[0].key if entries else "")
    dirty: dict[str, str] = dict.fromkeys(seeds, first)
    for e in entries:
        if e.winner in dirty or e.loser in dirty:
            for p in e.players:
                dirty.setdefault(p, e.key)
    return dirty


def replay(
    entries: Sequence[LedgerEntry],
    starts: Mapping[str, RatingState],
    dirty_from: Mapping[str, str],
) -> tuple[list[RatingStep], dict[str, RatingState]]:
    """Replay the entries (in key order) touching changed players; their steps and final states.

    `starts` holds each changed player's state before their first changed entry (missing:
    a new player, 1500 and no rated match). An entry is replayed when one of its players has
    changed by then; both players' steps are returned.
    """
    states: dict[str, RatingState] = {}
    steps: list[RatingStep] = []
    for e in entries:
        if e.winner == e.loser:
            continue
        touched = [p for p in e.players if p in dirty_from and dirty_from[p] <= e.key]
        if not touched:
            continue
        w = states.get(e.winner) or starts.get(e.winner) or RatingState()
        lo = states.get(e.loser) or starts.get(e.loser) or RatingState()
        if e.forfeit:
            w2, l2 = w, lo
        else:
            w2, l2 = rate_match(w, lo, e.length)
        for me, before, after, won in ((e.winner, w, w2, True), (e.loser, lo, l2, False)):
            steps.append(
                RatingStep(
                    player=me,
                    key=e.key,
                    match_id=e.match_id,
                    tournament_id=e.tournament_id,
                    opponent=e.loser if won else e.winner,
                    won=won,
                    forfeit=e.forfeit,
                    rated=not e.forfeit,
                    before=before.rating,
                    after=after.rating,
                    boost=0.0 if e.forfeit else experience_boost(before.rated_matches),
                    rated_matches=after.rated_matches,
                    points_for=e.winner_points if won else e.loser_points,
                    points_against=e.loser_points if won else e.winner_points,
                )
            )
            states[me] = after
    return steps, states
