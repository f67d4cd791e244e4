"""The nightly rebuild (R10.5, R1.1): ratings and season points from the confirmed results alone.

Reads every tournament (the calendar), its matches and, once finished, its final standings;
recomputes the rating ledger, every player's rating and history, every season's awards and
its standings snapshot with the same pure functions the incremental path uses (`rules.rating_ledger`,
`rules.season`), compares them with the stored state and repairs what differs (logged with
what it found). It is also the recovery path after a bug: run it and the state is what the
record says.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from tavla.observability import logger
from tavla.rules.rating_ledger import LedgerEntry, RatingStep, replay
from tavla.rules.season_table import Award
from tavla.rules.states import State
from tavla.services import day, progress, ratings, season
from tavla.services.finish import finished_event
from tavla.store import draws as draw_store
from tavla.store import finish as finish_store
from tavla.store import players as player_store
from tavla.store import ratings as rating_store
from tavla.store import season as season_store
from tavla.store import tournaments as tournament_store
from tavla.store.records import FINISHED, FixtureRecord, RatedMatchRecord, SeasonRecord, TournamentRecord


@dataclass
class Report:
    tournaments: int = 0
    results: int = 0
    players: int = 0
    ledger_missing: list[str] = field(default_factory=list)
    ledger_extra: list[str] = field(default_factory=list)
    ledger_changed: list[str] = field(default_factory=list)
    ratings_differ: list[str] = field(default_factory=list)
    awards_differ: list[str] = field(default_factory=list)
    standings_differ: list[str] = field(default_factory=list)  # seasons whose snapshot was stale
    repaired: bool = False
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (
            self.ledger_missing
            or self.ledger_extra
            or self.ledger_changed
            or self.ratings_differ
            or self.awards_differ
            or self.standings_differ
        )

    def summary(self) -> dict[str, Any]:
        out = asdict(self)
        for k in (
            "ledger_missing",
            "ledger_extra",
            "ledger_changed",
            "ratings_differ",
            "awards_differ",
            "standings_differ",
        ):
            out[k] = len(out[k])
        out["clean"] = self.clean
        return out


def all_tournaments() -> list[TournamentRecord]:
    found: list[TournamentRecord] = []
    cursor: str | None = None
    while True:
        page, cursor = tournament_store.calendar(100, cursor, None)
        found.extend(page)
        if cursor is None:
            return found


def resolve(aliases: Mapping[str, str]) -> dict[str, str]:
    """Follow merge chains (A into B, B into C: A -> C)."""
    out = {}
    for p in aliases:
        q, seen = p, set()
        while q in aliases and q not in seen:
            seen.add(q)
            q = aliases[q]
        out[p] = q
    return out


def confirmed(
    tournaments: Iterable[TournamentRecord],
) -> tuple[dict[str, list[FixtureRecord]], dict[str, str]]:
    """Every tournament's matches and the merge aliases of everybody who played."""
    return matches_and_aliases([t.id for t in tournaments])


def matches_and_aliases(
    tournament_ids: Iterable[str],
) -> tuple[dict[str, list[FixtureRecord]], dict[str, str]]:
    """The tournaments' matches and the merge aliases of everybody who played in them."""
    matches = {tid: rating_store.official_matches(tid) for tid in tournament_ids}
    players = {p for rs in matches.values() for r in rs for p in (r.home, r.away) if p}
    profiles = player_store.get_profiles(sorted(players))
    return matches, resolve({p: r.merged_into for p, r in profiles.items() if r.merged_into})


def announced_versions(matches: Mapping[str, list[FixtureRecord]]) -> dict[str, int]:
    """match id -> the highest version its current result can have been announced with: a
    change reads version v and writes v + 1, and its ResultConfirmed carries v. A marker the
    rebuild writes holds it, so a late copy of that result or of an older one changes
    nothing, and the next correction (which reads the stored version or a later one) does."""
    return {day.match_id(tid, r.code): r.version - 1 for tid, rs in matches.items() for r in rs}


def marker_of(entry: LedgerEntry, versions: Mapping[str, int]) -> RatedMatchRecord:
    """The marker of a result as the record says it (the rebuilds)."""
    return RatedMatchRecord(
        match_id=entry.match_id,
        ledger_key=entry.key,
        fingerprint=ratings.fingerprint(entry),
        players=entry.players,
        version=versions.get(entry.match_id),
    )


def unrated_ids(tournaments: Iterable[TournamentRecord]) -> frozenset[str]:
    """Tournaments whose results an admin took out of the ratings (cancelled ones only)."""
    return frozenset(t.id for t in tournaments if t.lifecycle.unrated_at)


def ledger_of(
    matches: Mapping[str, list[FixtureRecord]],
    aliases: Mapping[str, str],
    unrated: Collection[str] = frozenset(),
) -> list[LedgerEntry]:
    """The ledger the record says: every official result, but an unrated tournament's."""
    entries = []
    for tid, records in matches.items():
        if tid in unrated:
            continue
        for r in records:
            if r.state != State.OFFICIAL:
                continue
            entry = ratings.entry_of(progress.result_event(tid, r), aliases)
            if entry is not None:
                entries.append(entry)
    return sorted(entries, key=lambda e: e.key)


def rebuild_ratings(
    entries: list[LedgerEntry],
    now: datetime,
    report: Report,
    repair: bool,
    versions: Mapping[str, int] | None = None,
) -> None:
    players = sorted({p for e in entries for p in e.players})
    steps, states = replay(entries, {}, dict.fromkeys(players, ""))
    report.results, report.players = len(entries), len(players)
    wanted = {e.key: e for e in entries}
    stored: dict[str, LedgerEntry] = {}
    if entries:
        first = min(e.key for e in entries)[:7]
        stored = {e.key: e for e in rating_store.ledger_months(first, max(now.isoformat()[:7], first))}
    report.ledger_missing = sorted(set(wanted) - set(stored))
    report.ledger_extra = sorted(set(stored) - set(wanted))
    report.ledger_changed = sorted(k for k in set(wanted) & set(stored) if wanted[k] != stored[k])
    profiles = player_store.get_profiles(players)
    report.ratings_differ = sorted(
        p
        for p, s in states.items()
        if p in profiles and (profiles[p].rating != s.rating or profiles[p].rated_matches != s.rated_matches)
    )
    if not repair or report.clean:
        return
    touched = set(report.ratings_differ)
    for k in (*report.ledger_missing, *report.ledger_extra, *report.ledger_changed):
        for e in (wanted.get(k), stored.get(k)):
            if e is not None:
                touched |= set(e.players)
    by_player: dict[str, list[RatingStep]] = defaultdict(list)
    for s in steps:
        by_player[s.player].append(s)
    fix = [wanted[k] for k in (*report.ledger_missing, *report.ledger_changed)]
    rating_store.write(
        steps=[],
        stale_steps=[],
        ledger_puts=fix,
        ledger_deletes=report.ledger_extra,
        states={},
    )
    rating_store.put_markers([marker_of(e, versions or {}) for e in fix])
    for p in sorted(touched):
        rating_store.replace_history(p, by_player.get(p, []))
    rating_store.put_profiles_state({p: states[p] for p in touched if p in states and p in profiles})


def wanted_awards(
    tournaments: Iterable[TournamentRecord],
    matches: Mapping[str, list[FixtureRecord]],
    aliases: Mapping[str, str],
    only: str | None = None,
) -> dict[str, dict[str, dict[str, Award]]]:
    """season -> player -> tournament -> the award its final standings give (finished ones).

    Without `matches` for a tournament the awards carry no meetings: who is placed, and the points."""
    wanted: dict[str, dict[str, dict[str, Award]]] = defaultdict(lambda: defaultdict(dict))
    records: dict[str, SeasonRecord | None] = {}
    for t in tournaments:
        season_id = t.page.season_id
        if t.status != FINISHED or not season_id or (only is not None and season_id != only):
            continue
        final = finish_store.final(t.id)
        if final is None:
            continue
        if str(season_id) not in records:
            records[str(season_id)] = season_store.get(str(season_id))
        if not season.in_season(records[str(season_id)], final.finished_at):
            continue  # finished outside the season's dates (R10.4)
        detail = finished_event(t, draw_store.day(t.id, with_rounds=False).field, final)
        settings, _ = season.settings_of(str(season_id))
        for p, award in season.tournament_awards(detail, matches.get(t.id, []), settings, aliases).items():
            wanted[str(season_id)][p][t.id] = award
    return wanted


def rebuild_seasons(
    tournaments: Iterable[TournamentRecord],
    matches: Mapping[str, list[FixtureRecord]],
    aliases: Mapping[str, str],
    report: Report,
    repair: bool,
    only: str | None = None,
) -> None:
    """Every season's awards (or season `only`'s) recomputed, compared and repaired."""
    wanted = wanted_awards(tournaments, matches, aliases, only)
    seasons = sorted(set(wanted) | set(season_store.season_ids()))
    for season_id in seasons if only is None else [only]:
        stored = {p: {a.tournament_id: a for a in aw} for p, aw in season_store.entries(season_id).items()}
        _repair_season(season_id, stored, wanted.get(season_id, {}), report, repair)


def _repair_season(
    season_id: str,
    stored: Mapping[str, Mapping[str, Award]],
    goal: Mapping[str, Mapping[str, Award]],
    report: Report,
    repair: bool,
) -> None:
    """A season's awards made what `goal` says, then its standings snapshot compared."""
    for p in sorted(set(goal) | set(stored)):
        have, want = stored.get(p, {}), goal.get(p, {})
        if have == want:
            continue
        report.awards_differ.append(f"{season_id}:{p}")
        if repair:
            season_store.remove_awards(season_id, p, [a for k, a in have.items() if want.get(k) != a])
            for k, a in want.items():
                if have.get(k) != a:
                    season_store.add_award(season_id, p, a)
    if repair and season.refresh_standings(season_id, compare=True):
        report.standings_differ.append(season_id)


def recount_season(season_id: str) -> int:
    """One season's points and standings recounted now (its dates or numbers changed, R10.4):
    every finished tournament of the season within its dates, with its settings. The matches
    (for the tie-breaks) are read only for tournaments not counted before; the others keep
    the meetings stored with their awards. Returns the awards that changed."""
    tournaments = [t for t in all_tournaments() if t.status == "finished" and t.page.season_id == season_id]
    stored = {p: {a.tournament_id: a for a in aw} for p, aw in season_store.entries(season_id).items()}
    known = {tid for awards in stored.values() for tid in awards}
    matches, aliases = matches_and_aliases([t.id for t in tournaments if t.id not in known])
    profiles = player_store.get_profiles(sorted(stored))
    aliases = resolve({**aliases, **{p: r.merged_into for p, r in profiles.items() if r.merged_into}})
    goal = wanted_awards(tournaments, matches, aliases, only=season_id).get(season_id, {})
    for p, awards in goal.items():
        for tid, award in list(awards.items()):
            kept = stored.get(p, {}).get(tid)
            if tid in known and kept is not None:
                awards[tid] = award.model_copy(update={"meetings": kept.meetings})
    report = Report()
    _repair_season(season_id, stored, goal, report, repair=True)
    return len(report.awards_differ)


def nightly(now: datetime, repair: bool = True) -> Report:
    """Recompute from the record, compare, repair (see the module); the report says what differed."""
    started = time.perf_counter()
    report = Report()
    tournaments = all_tournaments()
    report.tournaments = len(tournaments)
    matches, aliases = confirmed(tournaments)
    rebuild_ratings(
        ledger_of(matches, aliases, unrated_ids(tournaments)),
        now,
        report,
        repair,
        announced_versions(matches),
    )
    rebuild_seasons(tournaments, matches, aliases, report, repair)
    report.repaired = repair and not report.clean
    report.seconds = round(time.perf_counter() - started, 3)
    if not report.clean:
        logger.warning(
            "rebuild found differences",
            extra={
                **report.summary(),
                "ledger_missing_keys": report.ledger_missing[:20],
                "ledger_extra_keys": report.ledger_extra[:20],
                "ratings_differ_players": report.ratings_differ[:20],
                "awards_differ_players": report.awards_differ[:20],
            },
        )
    return report
