"""The full rebuild, partitioned (R10.3, R10.5, R1.1): ratings and season standings from the
record alone, in steps that each fit one Lambda run at national size.

The nightly compare (`services.rebuild.nightly`) fits one run (it reads and compares; it
writes only what differs). Rebuilding from an empty or damaged state writes everything: at
100,000 results that is ~1,300 s in one process, more than Lambda's 15 minutes. What can run
side by side, and what cannot:

* Ratings are sequential in time: a match's rating change depends on both players' ratings
  just before it, which depend on every earlier match of theirs and of their opponents. The
  replay itself (the FIBS formula over 100,000 entries) is a few seconds of pure computation;
  what costs time is reading the record and writing ~200,000 history lines and 20,000
  profiles. So the computation is never split; the reads and the writes are.
* `plan`: the calendar, cut into `chunks` of tournaments, player `shards`, and the `seasons`.
* `ledger` (a map over tournament chunks, in parallel): each chunk reads its tournaments'
  matches, recomputes their ledger entries (merge aliases resolved) and their season awards,
  compares them with the stored entries, markers and awards and repairs them. A tournament's
  entries and awards depend on nothing but its own matches and final standings, so chunks
  are independent (an award is its own attribute; the season total is an atomic ADD).
* `check` (one run): the whole stored ledger against the chunks' totals; an entry no chunk
  claims (a result that left the record) is deleted. After it, the stored ledger is the record.
* `players` (a map over player shards, in parallel): each shard reads the whole ledger and
  replays all of it (the cheap, sequential part, repeated per shard instead of shipping
  200,000 steps between states), then compares and rewrites only its own players' histories
  and ratings. Shards share no item, so their writes never meet.
* `seasons` (a map over seasons): awards no finished tournament of the season gives are
  removed, then the season's standings snapshot is compared and rewritten.

Every step is idempotent (deterministic keys, overwrites): a retried or repeated step
converges. The state machine (CDK, `infra/workflows.py`) and the local stack (sequentially,
`local/workflows.py`) run these same steps from the registry's `WORKFLOWS`. The rebuild does
not lock out the `ratings` function: a result confirmed while it runs is applied by `ratings`
as usual; if the rebuild overwrites a player that result just moved, the next nightly
compare repairs it.
"""

from __future__ import annotations

import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from tavla.observability import logger
from tavla.rules.rating import RatingState
from tavla.rules.rating_ledger import LedgerEntry, RatingStep, replay
from tavla.services import ratings, rebuild, season
from tavla.store import players as player_store
from tavla.store import ratings as rating_store
from tavla.store import season as season_store
from tavla.store import tournaments as tournament_store
from tavla.store.records import FINISHED, FixtureRecord, ProfileRecord, RatedMatchRecord, TournamentRecord

CHUNK_TOURNAMENTS = 25  # tournaments per `ledger` item: ~2,500 results, ~200 calls from empty
PLAYER_SHARDS = 8  # `players` items: 20,000 players -> 2,500 each

Step = Callable[[Mapping[str, Any]], dict[str, Any]]


def shard_of(tavla_id: str, shards: int) -> int:
    """A player's shard: stable across runs and machines (CRC-32 of the Tavla ID)."""
    return zlib.crc32(tavla_id.encode()) % shards


def _month(moment: str) -> str:
    return moment[:7]


def plan(event: Mapping[str, Any]) -> dict[str, Any]:
    """The work: tournament chunks in calendar order, player shards, seasons."""
    now = str(event["now"])
    tournaments = rebuild.all_tournaments()
    ids = [t.id for t in tournaments]
    first = min([_month(t.created_at) for t in tournaments] + [_month(now)])
    seasons = {t.page.season_id for t in tournaments if t.page.season_id}
    common = {"now": now, "first": first}
    return {
        **common,
        "tournaments": len(ids),
        "chunks": [
            {**common, "tournaments": ids[i : i + CHUNK_TOURNAMENTS]}
            for i in range(0, len(ids), CHUNK_TOURNAMENTS)
        ],
        "shards": [{**common, "shard": k, "of": PLAYER_SHARDS} for k in range(PLAYER_SHARDS)],
        "seasons": [{**common, "season_id": s} for s in sorted(seasons | set(season_store.season_ids()))],
    }


def ledger(item: Mapping[str, Any]) -> dict[str, Any]:
    """One chunk of tournaments: its ledger entries and markers as its matches say.

    Each write is conditioned on the marker read after the matches: a result the `ratings`
    function applies meanwhile is newer than the matches read and is left as it is (a marker
    holding a higher version than the match read is too)."""
    records = [tournament_store.get(str(t)) for t in item["tournaments"]]
    matches, aliases = rebuild.matches_and_aliases([t.id for t in records])
    wanted = rebuild.ledger_of(matches, aliases, rebuild.unrated_ids(records))
    versions = rebuild.announced_versions(matches)
    marks = rating_store.markers(list(versions))
    stored = rating_store.ledger_entries([e.key for e in wanted])
    by_match = {e.match_id: e for e in wanted}

    def newer(mark: RatedMatchRecord | None) -> bool:
        return mark is not None and mark.version is not None and mark.version > versions[mark.match_id]

    fixes = [
        rating_store.ResultFix(e.match_id, e, rebuild.marker_of(e, versions), marks.get(e.match_id))
        for e in wanted
        if not newer(marks.get(e.match_id))
        and (
            stored.get(e.key) != e
            or e.match_id not in marks
            or marks[e.match_id].ledger_key != e.key
            or marks[e.match_id].fingerprint != ratings.fingerprint(e)
        )
    ]
    gone = [m for m in marks.values() if m.match_id not in by_match and not newer(m)]  # no longer rated
    calls, left = rating_store.repair_results(
        [*fixes, *(rating_store.ResultFix(m.match_id, None, None, m) for m in gone)]
    )
    differ, award_calls = _chunk_awards(records, matches, aliases)
    return {
        "results": len(wanted),
        "missing": sum(1 for f in fixes if f.entry is not None and f.entry.key not in stored),
        "changed": sum(1 for f in fixes if f.entry is not None and f.entry.key in stored),
        "extra": len(gone),
        "left_to_ratings": len(left),
        "awards_differ": differ,
        "write_calls": calls + award_calls,
    }


def _chunk_awards(
    records: Sequence[TournamentRecord],
    matches: Mapping[str, list[FixtureRecord]],
    aliases: Mapping[str, str],
) -> tuple[int, int]:
    """The chunk's finished tournaments' season awards, compared with the stored ones and
    repaired: a tournament's award is one attribute of its player's entry, so chunks never
    write the same attribute (the running total is an atomic ADD). Returns (differ, calls)."""
    wanted = rebuild.wanted_awards(records, matches, aliases)
    ids = {t.id for t in records}
    differ = calls = 0
    for season_id, by_player in sorted(wanted.items()):
        stored = season_store.entries_of(season_id, sorted(by_player))
        for p, want in sorted(by_player.items()):
            have = {a.tournament_id: a for a in stored.get(p, []) if a.tournament_id in ids}
            if have == want:
                continue
            differ += 1
            stale = [a for k, a in have.items() if want.get(k) != a]
            season_store.remove_awards(season_id, p, stale)
            calls += bool(stale)
            for k, a in want.items():
                if have.get(k) != a:
                    season_store.add_award(season_id, p, a)
                    calls += 1
    return differ, calls


def check(event: Mapping[str, Any]) -> dict[str, Any]:
    """The stored ledger against the chunks' totals: entries no marker names are deleted (each
    only if its marker still does not name it: `ratings` writes an entry with its marker)."""
    state = event["state"]
    now = str(state["plan"]["now"])
    claimed = sum(int(r["results"]) for r in state["ledger"])
    stored = rating_store.ledger_months(state["plan"]["first"], _month(now))
    orphans: list[str] = []
    if len(stored) != claimed:  # rare: only then is every entry checked against its marker
        marks = rating_store.markers([e.match_id for e in stored])
        orphans = [
            e.key
            for e in stored
            if (e.match_id not in marks or marks[e.match_id].ledger_key != e.key)
            and rating_store.drop_orphan(e.key, e.match_id)
        ]
    if orphans:
        logger.warning("rebuild: ledger entries no result claims", extra={"orphans": orphans[:20]})
    return {"results": len(stored) - len(orphans), "orphans": len(orphans)}


ATTEMPTS = 3  # passes over a shard's players the `ratings` function wrote meanwhile


def players(item: Mapping[str, Any]) -> dict[str, Any]:
    """One shard of players: the whole ledger replayed, its players' histories and ratings
    compared with the replay and rewritten where they differ.

    The `ratings` function may apply a result meanwhile. Each player's `rating_seq` (bumped by
    every ratings write) is read before the ledger, and each write is conditioned on it: a
    player written since is done again in the next pass (sequence, then ledger, read anew),
    and after `ATTEMPTS` passes left to the next rebuild (counted in `left_to_ratings`)."""
    shard, shards = int(item["shard"]), int(item["of"])
    first, last = str(item["first"]), _month(str(item["now"]))
    entries = rating_store.ledger_months(first, last)
    todo = sorted({p for e in entries for p in e.players if shard_of(p, shards) == shard})
    out = {"shard": shard, "players": len(todo), "histories_differ": 0, "ratings_differ": 0, "write_calls": 0}
    known = set(todo)
    for _ in range(ATTEMPTS):
        if not todo:
            break
        profiles = rating_store.profiles_read(todo)  # before the ledger: see above
        entries = rating_store.ledger_months(first, last)
        again = _write_players(entries, profiles, shard, shards, out)
        new = {p for e in entries for p in e.players if shard_of(p, shards) == shard} - known
        known |= new
        todo = sorted({*again, *new})  # written meanwhile, or first seen in this read
    return {**out, "left_to_ratings": len(todo)}


def _write_players(
    entries: Sequence[LedgerEntry],
    profiles: Mapping[str, ProfileRecord],
    shard: int,
    shards: int,
    out: dict[str, Any],
) -> list[str]:
    """The replay written for `profiles`' players, each on the sequence read; the players
    written meanwhile by `ratings` (to do again)."""
    everybody = sorted({p for e in entries for p in e.players})
    steps, states = replay(entries, {}, dict.fromkeys(everybody, ""))
    wanted: dict[str, list[RatingStep]] = defaultdict(list)
    for s in steps:
        if shard_of(s.player, shards) == shard:
            wanted[s.player].append(s)
    again = []
    for p, profile in sorted(profiles.items()):
        if profile.merged_into:
            continue
        have = {s.key: s for s in rating_store.history(p)}
        want = {s.key: s for s in wanted.get(p, [])}
        state = states.get(p, RatingState())
        moved = profile.rating != state.rating or profile.rated_matches != state.rated_matches
        if have == want and not moved:
            continue
        calls = rating_store.rebuild_player(
            p,
            [s for k, s in want.items() if have.get(k) != s],
            [k for k in have if k not in want],
            state if moved else None,
            profile.rating_seq,
        )
        if calls is None:
            again.append(p)
            continue
        out["histories_differ"] += have != want
        out["ratings_differ"] += moved
        out["write_calls"] += calls
    return again


def seasons(item: Mapping[str, Any]) -> dict[str, Any]:
    """One season, after the chunks wrote every wanted award: awards no finished tournament of
    the season gives (a tournament moved to another season, an account merged away) are
    removed, then the standings snapshot is compared and rewritten. Reads no match."""
    season_id = str(item["season_id"])
    tournaments = [
        t for t in rebuild.all_tournaments() if t.status == FINISHED and t.page.season_id == season_id
    ]
    entries = season_store.entries(season_id)
    raw = rebuild.wanted_awards(tournaments, {}, {}, only=season_id).get(season_id, {})
    profiles = player_store.get_profiles(sorted(set(entries) | set(raw)))
    aliases = rebuild.resolve({p: r.merged_into for p, r in profiles.items() if r.merged_into})
    placed = {(aliases.get(p, p), tid) for p, awards in raw.items() for tid in awards}
    extras = 0
    for p, awards in sorted(entries.items()):
        stale = [a for a in awards if (p, a.tournament_id) not in placed]
        if stale:
            extras += 1
            season_store.remove_awards(season_id, p, stale)
    rewritten = season.refresh_standings(season_id, compare=True) > 0
    return {
        "season_id": season_id,
        "tournaments": len(tournaments),
        "awards_extra": extras,
        "standings_rewritten": rewritten,
    }


STEPS: dict[str, Step] = {
    "plan": plan,
    "ledger": ledger,
    "check": check,
    "players": players,
    "seasons": seasons,
}


def run_step(event: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """One step, as the state machine (or the local runner) invokes it: {"step", "item" | "state"}."""
    name = str(event.get("step", ""))
    if name not in STEPS:
        raise ValueError(f"no rebuild step {name!r}")
    started = time.perf_counter()
    if name == "plan":
        out = plan({"now": now.isoformat()})
    elif "item" in event:
        out = STEPS[name](event["item"])
    else:
        out = STEPS[name](event)
    logger.info(
        "rebuild step",
        extra={"step": name, "seconds": round(time.perf_counter() - started, 2), **_brief(out)},
    )
    return out


def _brief(out: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if isinstance(v, int | float | str)}
