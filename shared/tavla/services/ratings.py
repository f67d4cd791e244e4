"""Ratings (R10.3, R1.1, R9): every official result moves both players' FIBS ratings, once.

`ResultConfirmed` -> `apply_result`. Order: results are rated in the order they became
official (`official_at`, then the match id: the ledger key), not in the order EventBridge
delivers them, which it does not guarantee. Each result is written to the ledger and the
ratings are replayed from its key: for a result that arrives in order that is exactly the
two players' next step; a result that arrives late, or one an appeal changed (republished
through `progress.settle` with a new result and a new `official_at`), replays every later
match of the players it touches, and of their later opponents, so the state is always the
ledger replayed in key order, which is what the nightly rebuild recomputes.

Exactly once: the match's marker (RATED#<match id>) holds the fingerprint of what was
applied; the same event again returns at once, and the marker is written last with a
condition, so two deliveries racing each other cannot both apply. The function also runs
with reserved concurrency 1 (registry), so replays never interleave.

Latest result wins: EventBridge delivers at least once and in any order, so the original
result of a match an appeal overturned can arrive again after its correction. Every
ResultConfirmed carries the match's version its change was made on (a later change of the
match reads a higher one); a result older than the one the marker holds changes nothing
(`superseded`), so the ratings are always those of each match's latest result, replayed in
official order, whatever order the events came in.

Unrated: an admin may take a cancelled tournament's played results out of the ratings
(`TournamentUnrated` -> `unrate`): its ledger entries and markers go and the players are
replayed from its first one, as an appeal that removes a result does; a result of that
tournament delivered late is not rated. The rebuilds leave an unrated tournament out
(`rebuild.ledger_of`), so both paths say the same.

Forfeits are recorded in the player's history (their results) but not rated. An account
merge (`PlayersMerged`) moves the merged account's ledger entries to the one kept and
replays from its first match (R1.1: as if the two had always been one).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from tavla.errors import Invalid
from tavla.frozen import Frozen
from tavla.models.season import RatingPage, RatingRow
from tavla.rules.model import match_id
from tavla.rules.rating import PROVISIONAL_MATCHES, RatingState
from tavla.rules.rating_ledger import LedgerEntry, RatingStep, cascade, ledger_key, replay
from tavla.store import players as player_store
from tavla.store import ratings as store
from tavla.store.records import RatedMatchRecord


@dataclass(frozen=True, eq=False, repr=False)
class Applied(Frozen):
    outcome: str  # applied | unchanged | superseded (older than applied) | not_rated (a BYE)
    replayed: int = 0  # ledger entries replayed
    players: int = 0  # players whose rating or history changed
    calls: int = 0  # DynamoDB calls made by the writes


def entry_of(detail: Mapping[str, Any], aliases: Mapping[str, str] | None = None) -> LedgerEntry | None:
    """The ledger entry of a ResultConfirmed event (None for a BYE or a result without players)."""
    home, away, winner = detail.get("home"), detail.get("away"), detail.get("winner")
    if not home or not away or not winner or not detail.get("official_at"):
        return None
    names = aliases or {}
    loser = away if winner == home else home
    home_points, away_points = int(detail.get("home_points") or 0), int(detail.get("away_points") or 0)
    return LedgerEntry(
        key=ledger_key(str(detail["official_at"]), str(detail["match_id"])),
        match_id=str(detail["match_id"]),
        tournament_id=str(detail["tournament_id"]),
        winner=names.get(winner, winner),
        loser=names.get(loser, loser),
        length=max(1, int(detail.get("length") or 1)),
        forfeit=bool(detail.get("forfeit")),
        winner_points=home_points if winner == home else away_points,
        loser_points=away_points if winner == home else home_points,
    )


def version_of(detail: Mapping[str, Any]) -> int | None:
    """The match version a ResultConfirmed was announced with (None: an event from before they
    carried one)."""
    version = detail.get("version")
    return None if version is None else int(version)


def superseded(entry: LedgerEntry, version: int | None, applied: RatedMatchRecord) -> bool:
    """Is this result older than the one applied? By the match's version when both have one,
    else by when each became official (a correction is made official after the original)."""
    if version is not None and applied.version is not None:
        return version < applied.version
    return entry.key.split("#", 1)[0] < applied.ledger_key.split("#", 1)[0]


def fingerprint(entry: LedgerEntry) -> str:
    return hashlib.sha256(json.dumps(entry.model_dump(), sort_keys=True).encode()).hexdigest()[:32]


def _aliases(players: Iterable[str]) -> dict[str, str]:
    """Merged-away accounts among `players` -> the account they were merged into."""
    profiles = player_store.get_profiles(list(players))
    return {p: r.merged_into for p, r in profiles.items() if r.merged_into}


def apply_result(detail: Mapping[str, Any], now: datetime) -> Applied:
    """Rate one official result (see the module): idempotent, in official order."""
    raw = entry_of(detail)
    if raw is None:
        return Applied("not_rated")
    entry = entry_of(detail, _aliases(raw.players))
    assert entry is not None
    if store.unrated(entry.tournament_id):
        return Applied("not_rated")  # a late copy of a result an admin took out of the ratings
    before = store.marker(entry.match_id)
    print_ = fingerprint(entry)
    if before is not None and before.fingerprint == print_:
        return Applied("unchanged")
    version = version_of(detail)
    if before is not None and superseded(entry, version, before):
        return Applied("superseded")  # a late copy of a result since corrected
    old_key = before.ledger_key if before else None
    start = min(entry.key, old_key) if old_key else entry.key
    entries = [e for e in store.ledger_from(start, now) if e.key not in (entry.key, old_key)]
    entries = sorted([*entries, entry], key=lambda e: e.key)
    seeds = set(entry.players) | set(before.players if before else ())
    stale = [(p, old_key) for p in (before.players if before else ()) if old_key]
    marker = RatedMatchRecord(
        match_id=entry.match_id,
        ledger_key=entry.key,
        fingerprint=print_,
        players=entry.players,
        version=version,
    )
    try:
        return _replay_and_write(
            entries,
            seeds,
            start,
            stale=stale,
            ledger_puts=[entry],
            ledger_deletes=[old_key] if old_key and old_key != entry.key else [],
            marker=marker,
            marker_before=before,
        )
    except store.AlreadyApplied:
        return Applied("unchanged")


def _replay_and_write(
    entries: Sequence[LedgerEntry],
    seeds: Iterable[str],
    since: str,
    *,
    stale: Sequence[tuple[str, str]] = (),
    ledger_puts: Sequence[LedgerEntry] = (),
    ledger_deletes: Sequence[str] = (),
    marker: RatedMatchRecord | None = None,
    marker_before: RatedMatchRecord | None = None,
) -> Applied:
    dirty = cascade(entries, seeds, since)
    starts = {p: store.state_before(p, k) for p, k in dirty.items()}
    steps, finals = replay(entries, starts, dirty)
    # a seed left with no match from its key on (an appeal took it out) goes back to its start
    states = {p: finals.get(p, starts[p]) for p in dirty}
    existing = player_store.get_profiles(list(states))
    states = {p: s for p, s in states.items() if p in existing and not existing[p].merged_into}
    calls = store.write(
        steps=steps,
        stale_steps=stale,
        ledger_puts=ledger_puts,
        ledger_deletes=ledger_deletes,
        states=states,
        applied=marker,
        applied_before=marker_before,
    )
    return Applied("applied", replayed=len({s.key for s in steps}), players=len(states), calls=calls)


def unrate(tournament_id: str, now: datetime) -> Applied:
    """Take a tournament's results out of the ratings and replay its players (and their later
    opponents) from its first one. Idempotent: what a cut-short run left is finished by the
    next; the ledger entries go before their markers, so a retry still finds where to start."""
    matches = store.official_matches(tournament_id)
    marks = store.markers([match_id(tournament_id, m.code) for m in matches])
    if not marks:
        return Applied("unchanged")
    start = min(m.ledger_key for m in marks.values())
    later = store.ledger_from(start, now)
    gone = [e for e in later if e.tournament_id == tournament_id]
    entries = [e for e in later if e.tournament_id != tournament_id]
    seeds = {p for m in marks.values() for p in m.players}
    stale = [(p, m.ledger_key) for m in marks.values() for p in m.players]
    done = _replay_and_write(
        entries,
        seeds,
        start,
        stale=stale,
        ledger_deletes=sorted({e.key for e in gone} | {m.ledger_key for m in marks.values()}),
    )
    store.drop_markers(sorted(marks))
    return done


def merge(keep: str, merged: str, now: datetime) -> Applied:
    """Replay the ratings as if `merged` had always been `keep` (R1.1; idempotent)."""
    moved = store.history(merged)
    store.leave_lists(merged)
    if not moved:
        return Applied("unchanged")
    start = min(s.key for s in moved)
    entries = []
    changed = []
    stale = [(merged, s.key) for s in moved]
    for e in store.ledger_from(start, now):
        if merged in e.players:
            e = e.model_copy(
                update={
                    "winner": keep if e.winner == merged else e.winner,
                    "loser": keep if e.loser == merged else e.loser,
                }
            )
            changed.append(e)
            if e.winner == e.loser:  # the two accounts met: a person against themselves, not rated
                stale.append((keep, e.key))
        entries.append(e)
    return _replay_and_write(
        entries,
        {keep},
        start,
        stale=stale,
        ledger_puts=changed,
    )


# -- reading ---------------------------------------------------------------------------------


def provisional(rated_matches: int) -> bool:
    return rated_matches < PROVISIONAL_MATCHES


def state_of(steps: Sequence[RatingStep]) -> RatingState:
    """The state after a history given newest first."""
    if not steps:
        return RatingState()
    return RatingState(rating=steps[0].after, rated_matches=steps[0].rated_matches)


def rating_page(
    club: str | None, city: str | None, limit: int, after: str | None, club_id: str | None = None
) -> RatingPage:
    """The national rating list, or one club's or city's (R10.3), highest first, a page at a time.

    A club is named by its record's id (`club_id`), or by the text its players typed before
    clubs were records (`club`: until an admin maps it). Players are listed from their first
    official match; `provisional` marks those with fewer than 30 rated matches. Only public
    fields (R12.1).
    """
    if sum(1 for f in (club, city, club_id) if f) > 1:
        raise Invalid("Filter by one club or by a city, not several.")
    which: Literal["national", "club", "city"] = "club" if club or club_id else "city" if city else "national"
    value = club_id or club or city or store.NATIONAL
    found, cursor = store.rating_list("club_id" if club_id else which, value, limit, after)
    return RatingPage(
        which=which,
        players=[
            RatingRow(
                tavla_id=p.tavla_id,
                name=p.name,
                club=p.club,
                club_id=p.club_id,
                city=p.city,
                rating=p.rating,
                rated_matches=p.rated_matches,
                provisional=provisional(p.rated_matches),
            )
            for p in found
        ],
        next=cursor,
    )
