"""The season (R10.4, R10.5, R5.7, R8.3, R1.1): points per finished tournament, the table, the
Super Final.

Seasons are data (`SeasonRecord`): dates and `SeasonSettings`; a tournament declares its
`season_id` and `level` in its settings. A season never set by an admin uses the shipped
defaults (rules.season: 1st 100, 2nd 70, 3-4 50, 5-8 30, 9-16 15, 17-32 8, others 3;
Local x1, Regional x2, National x3, Major x4; 16 invited; final lives 4/3/2).

`TournamentFinished` -> `count_tournament`: the places of the tournament's main event
(`main`, else its first event) give the points, times the level's coefficient; disqualified
players get none (R8.3). Each player's award is written with a condition
(`store.season.add_award`), so the same tournament counted twice changes nothing. With the
points goes what R10.5's tie-breaks need: the player's official matches at that tournament
(all its events), read once here, so the table never reads a match.

The standings are a stored snapshot (`refresh_standings`): the season function ranks the
season once per finished tournament (and per merge; the rebuilds compare and rewrite it), and
GET /seasons/{id}/standings and the Super Final read a page of it instead of ranking every
entry on every request.

A season's life (R10.4): `open` until its start date, `running`, then `closed` by a one-time
schedule at the end of its end date (`close_season`), which freezes the Super Final's
invited list. Only tournaments finished within its dates (the day in Greece) count
(`in_season`), here and in the rebuilds alike. Setting a season publishes `SeasonChanged`:
the season function recounts its points and standings at once and schedules its close.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from tavla import events, schedules
from tavla.caller import Caller
from tavla.errors import Forbidden, SeasonClosed, SeasonNotFound
from tavla.frozen import Frozen
from tavla.models.season import (
    Season,
    SeasonBody,
    SeasonCalendar,
    SeasonList,
    SeasonStandingRow,
    SeasonStandingsPage,
    SeasonTournament,
    SuperFinal,
)
from tavla.rules.season import SeasonSettings, TournamentLevel, tournament_points
from tavla.rules.season_table import Award, Meeting, SeasonRow, final_lives, invited, season_table
from tavla.rules.standings import Standing
from tavla.rules.states import State
from tavla.services import invitations
from tavla.store import draws as draw_store
from tavla.store import invitations as invitation_store
from tavla.store import outbox
from tavla.store import players as player_store
from tavla.store import season as store
from tavla.store import tournaments as tournament_store
from tavla.store.records import FixtureRecord, SeasonRecord, SeasonStandingsRecord

STANDINGS_PAGE_ROWS = 500  # rows per snapshot page: ~75 KB, one BatchGetItem reads a request's
SEASON_TIME_ZONE = "Europe/Athens"  # a season's dates are days in Greece


@dataclass(frozen=True, eq=False, repr=False)
class Counted(Frozen):
    outcome: str  # counted | already_counted | no_season
    players: int = 0
    calls: int = 0


def default_seed(season_id: str) -> int:
    """The season's draw seed when none was recorded: derived from its id (reproducible)."""
    return int.from_bytes(hashlib.sha256(f"season:{season_id}".encode()).digest()[:6], "big")


def settings_of(season_id: str) -> tuple[SeasonSettings, int]:
    record = store.get(season_id)
    if record is None:
        return SeasonSettings(), default_seed(season_id)
    return SeasonSettings.model_validate(record.settings), record.draw_seed or default_seed(season_id)


def meetings(records: Iterable[FixtureRecord], aliases: Mapping[str, str]) -> dict[str, list[Meeting]]:
    """Each player's official matches (all events; BYEs are not matches), from their side."""
    out: dict[str, list[Meeting]] = {}
    for r in records:
        result = r.result
        if r.state != State.OFFICIAL or not r.home or not r.away or result is None:
            continue
        home, away = aliases.get(r.home, r.home), aliases.get(r.away, r.away)
        hp, ap = result.points
        home_won = result.winner == r.home
        out.setdefault(home, []).append(
            Meeting(opponent=away, won=home_won, points_for=hp, points_against=ap)
        )
        out.setdefault(away, []).append(
            Meeting(opponent=home, won=not home_won, points_for=ap, points_against=hp)
        )
    return out


def tournament_awards(
    detail: Mapping[str, Any],
    records: Sequence[FixtureRecord],
    settings: SeasonSettings,
    aliases: Mapping[str, str],
) -> dict[str, Award]:
    """What one finished tournament gives each placed player (pure but for its inputs)."""
    standings: Mapping[str, Sequence[Mapping[str, Any]]] = detail.get("events") or {}
    if not standings:
        return {}
    # the events that earn season points: each division's Main, highest division first (R3.7),
    # at the season's coefficient for it; announcements from before name only the highest's
    # (`season_event`), or hold only `main`
    first = str(detail.get("season_event") or ("main" if "main" in standings else sorted(standings)[0]))
    mains = [str(m) for m in detail.get("season_events") or [first]]
    level = TournamentLevel(detail.get("level") or TournamentLevel.LOCAL.value)
    disqualified = {aliases.get(p, p) for p in detail.get("disqualified") or ()}
    points: dict[str, int] = {}
    for rank, main in enumerate(mains):
        if main not in standings or not settings.division_coefficient(rank):
            continue
        rows = [
            Standing(
                player_id=aliases.get(r["tavla_id"], r["tavla_id"]), place=r["place"], place_to=r["place_to"]
            )
            for r in standings[main]
        ]
        for p, n in tournament_points(rows, level, settings, disqualified, division=rank).items():
            points[p] = max(n, points.get(p, 0))
    met = meetings(records, aliases)
    tid = str(detail["tournament_id"])
    return {p: Award(tournament_id=tid, points=n, meetings=tuple(met.get(p, ()))) for p, n in points.items()}


def _aliases(players: Iterable[str]) -> dict[str, str]:
    profiles = player_store.get_profiles(list(set(players)))
    return {p: r.merged_into for p, r in profiles.items() if r.merged_into}


def _day(moment: str) -> date:
    return datetime.fromisoformat(moment).astimezone(ZoneInfo(SEASON_TIME_ZONE)).date()


def in_season(record: SeasonRecord | None, finished_at: str | None) -> bool:
    """Does a tournament finished at `finished_at` count in the season (R10.4)? Only within
    its dates, by the day in Greece; a season never set has no dates (its defaults count all)."""
    if record is None or not finished_at:
        return True
    return record.starts_on <= _day(finished_at).isoformat() <= record.ends_on


def closes_at(record: SeasonRecord) -> datetime:
    """The end of the season's end date in Greece, in UTC: when its schedule closes it."""
    after = date.fromisoformat(record.ends_on) + timedelta(days=1)
    return datetime.combine(after, time(0), ZoneInfo(SEASON_TIME_ZONE)).astimezone(UTC)


def status_of(record: SeasonRecord, now: datetime) -> Literal["open", "running", "closed"]:
    if record.closed_at:
        return "closed"
    return "running" if _day(now.isoformat()).isoformat() >= record.starts_on else "open"


def count_tournament(detail: Mapping[str, Any]) -> Counted:
    """Add a finished tournament's season points (idempotent per tournament and player); a
    tournament finished outside the season's dates counts nothing (R10.4)."""
    season_id = detail.get("season_id")
    if not season_id:
        return Counted("no_season")
    if not in_season(store.get(str(season_id)), detail.get("finished_at")):
        return Counted("outside_season")
    settings, _ = settings_of(str(season_id))
    tid = str(detail["tournament_id"])
    records = draw_store.fixtures(draw_store.day(tid, with_rounds=False).tournament, 9999)
    placed = [r["tavla_id"] for rows in (detail.get("events") or {}).values() for r in rows]
    awards = tournament_awards(detail, records, settings, _aliases(placed))
    added = sum(store.add_award(str(season_id), p, a) for p, a in sorted(awards.items()))
    store.mark_counted(str(season_id), tid, str(detail.get("finished_at") or ""))
    store.remember(str(season_id))
    head = store.snapshot(str(season_id))
    snapshot_calls = 1
    if added or head is None or tid not in head.counted:  # a redelivery after a cut-short run too
        snapshot_calls += refresh_standings(str(season_id))
    return Counted(
        "counted" if added else "already_counted",
        players=added,
        calls=len(awards) + 4 + len(placed) // 100 + snapshot_calls,
    )


def _renamed(award: Award, merged: str, keep: str) -> Award:
    meetings = tuple(
        m.model_copy(update={"opponent": keep}) if m.opponent == merged else m for m in award.meetings
    )
    return award.model_copy(update={"meetings": meetings})


def merge(keep: str, merged: str) -> None:
    """Move a merged account's awards to the one kept (R1.1): the better award of a tournament
    both earned in (never both); every opponent's record names the kept account. Idempotent."""
    for season_id in store.season_ids():
        everyone = store.entries(season_id)
        for player, awards in everyone.items():  # the opponents' records first
            if player in (keep, merged):
                continue
            stale = [a for a in awards if any(m.opponent == merged for m in a.meetings)]
            store.remove_awards(season_id, player, stale)
            for a in stale:
                store.add_award(season_id, player, _renamed(a, merged, keep))
        moving = [_renamed(a, merged, keep) for a in everyone.get(merged, [])]
        kept = {a.tournament_id: a for a in everyone.get(keep, [])}
        for a in moving:
            old = kept.get(a.tournament_id)
            if old is not None and old.points >= a.points:
                continue
            if old is not None:
                store.remove_awards(season_id, keep, [old])
            store.add_award(season_id, keep, a)
        store.remove_awards(season_id, merged, everyone.get(merged, []))
        if merged in everyone:
            refresh_standings(season_id)


# -- the table and the Super Final -----------------------------------------------------------


def table(season_id: str) -> tuple[list[SeasonRow], int]:
    """The season table ranked from every entry (R10.5) and the seed of its draw: what the
    snapshot holds (the roll-ups write it; requests read the snapshot)."""
    _, seed = settings_of(season_id)
    return season_table(store.entries(season_id), seed), seed


def refresh_standings(season_id: str, *, compare: bool = False) -> int:
    """Rank the season from every entry and store it as the standings snapshot (R10.5).

    Run by the season function after each finished tournament (and a merge) and by the
    rebuilds; `compare` leaves an equal snapshot as it is. Two writers at once: the later one
    finds the version moved and ranks again. Returns the DynamoDB calls made (0: unchanged).
    """
    record = store.get(season_id)
    if record is not None and record.closed_at and store.snapshot(season_id) is not None:
        return 0  # frozen at the close (R10.4): the Super Final's list was taken from it
    for _ in range(5):
        entries = store.entries(season_id)
        _, seed = settings_of(season_id)
        rows = season_table(entries, seed)
        pages = [rows[i : i + STANDINGS_PAGE_ROWS] for i in range(0, len(rows), STANDINGS_PAGE_ROWS)]
        previous = store.snapshot(season_id)
        if compare and previous is not None and _same(season_id, previous, pages, seed):
            return 0
        head = SeasonStandingsRecord(
            season_id=season_id,
            version=(previous.version + 1) if previous else 1,
            total=len(rows),
            pages=len(pages),
            page_rows=STANDINGS_PAGE_ROWS,
            draw_seed=seed,
            counted=tuple(sorted({a.tournament_id for awards in entries.values() for a in awards})),
        )
        try:
            return store.put_snapshot(season_id, pages, head, previous)
        except store.SnapshotMoved:
            continue
    raise RuntimeError(f"season {season_id}: the standings snapshot kept moving")


def _same(
    season_id: str, head: SeasonStandingsRecord, pages: Sequence[Sequence[SeasonRow]], seed: int
) -> bool:
    if head.draw_seed != seed or head.pages != len(pages) or head.page_rows != STANDINGS_PAGE_ROWS:
        return False
    stored = store.snapshot_pages(season_id, head.version, list(range(head.pages)))
    return all(stored.get(n) == list(rows) for n, rows in enumerate(pages))


def snapshot_rows(season_id: str, offset: int, limit: int) -> tuple[list[SeasonRow], int, int] | None:
    """Rows offset..offset+limit of the standings snapshot, its total and draw seed (None: no
    snapshot yet). A page or two per request (at most 500 rows a page), never a ranking."""
    for _ in range(3):
        head = store.snapshot(season_id)
        if head is None:
            return None
        first, last = offset // head.page_rows, (offset + max(limit, 1) - 1) // head.page_rows
        wanted = [n for n in range(first, last + 1) if n < head.pages]
        pages = store.snapshot_pages(season_id, head.version, wanted)
        if len(pages) < len(wanted):  # replaced while reading: read the new version
            continue
        rows = [r for n in wanted for r in pages[n]]
        start = offset - first * head.page_rows
        return rows[start : start + limit], head.total, head.draw_seed
    raise RuntimeError(f"season {season_id}: the standings snapshot kept moving")


def _rows(rows: Sequence[SeasonRow]) -> list[SeasonStandingRow]:
    profiles = player_store.get_profiles([r.player_id for r in rows]) if rows else {}
    out = []
    for r in rows:
        p = profiles.get(r.player_id)
        out.append(
            SeasonStandingRow(
                tavla_id=r.player_id,
                name=p.name if p else None,
                club=p.club if p else None,
                place=r.place,
                place_to=r.place,
                points=r.points,
                tournaments=r.tournaments,
                head_to_head=r.head_to_head,
                point_difference=r.point_difference,
                opponents_points=r.opponents_points,
                drawn=r.drawn,
                by_tournament=dict(r.by_tournament),
            )
        )
    return out


def _snapshot_or_empty(season_id: str, offset: int, limit: int) -> tuple[list[SeasonRow], int, int]:
    found = snapshot_rows(season_id, offset, limit)
    if found is not None:
        return found
    if store.get(season_id) is None:  # no season set and no tournament counted in it
        raise SeasonNotFound(f"No season {season_id}.")
    return [], 0, settings_of(season_id)[1]


def standings(season_id: str, limit: int, offset: int) -> SeasonStandingsPage:
    """A page of the season standings, read from the snapshot (R10.5)."""
    rows, total, seed = _snapshot_or_empty(season_id, offset, limit)
    return SeasonStandingsPage(
        season_id=season_id, rows=_rows(rows), total=total, draw_seed=seed, champion=_champion(season_id)
    )


def _champion(season_id: str) -> SeasonStandingRow | None:
    """The Super Final's winner with their frozen season row (R10.4), once the final finished."""
    final = invitation_store.head(season_id)
    if final is None or not final.champion:
        return None
    row = next((r for r in final.rows if r["tavla_id"] == final.champion), None)
    found, _, _ = _snapshot_or_empty(season_id, max(int(row["place"]) - 1, 0), 1) if row else ([], 0, 0)
    rows = _rows([r for r in found if r.player_id == final.champion])
    return rows[0] if rows else None


def super_final(season_id: str) -> SuperFinal:
    """The invited players in season order and their starting lives in the final (R10.4, R5.7)."""
    settings, _ = settings_of(season_id)
    record = store.get(season_id)
    if record is not None and record.closed_at:  # frozen when the season closed
        rows, _, _ = _snapshot_or_empty(season_id, 0, max(len(record.to_invite), settings.super_final_size))
        by_id = {r.player_id: r for r in rows}
        chosen = [by_id[p] for p in record.to_invite if p in by_id]
        return SuperFinal(season_id=season_id, invited=_rows(chosen), lives=final_lives(chosen, settings))
    rows, _, _ = _snapshot_or_empty(season_id, 0, settings.super_final_size)
    chosen = invited(rows, settings)
    return SuperFinal(season_id=season_id, invited=_rows(chosen), lives=final_lives(chosen, settings))


def invite(caller: Caller, season_id: str, now: datetime) -> SuperFinal:
    """Send the Super Final invitations (admin): `SuperFinalInvited` -> notify tells each one."""
    if not caller.is_admin:
        raise Forbidden("Only platform admins may send the Super Final invitations.")
    final = super_final(season_id)
    # the invitations are the whole change: the event alone is written
    outbox.write(
        [
            outbox.Event(
                events.SUPER_FINAL_INVITED,
                {
                    "season_id": season_id,
                    "at": now.isoformat(),
                    "invited": [
                        {"tavla_id": r.tavla_id, "place": r.place, "lives": final.lives[r.tavla_id]}
                        for r in final.invited
                    ],
                },
            )
        ]
    )
    return final


def _season(record: SeasonRecord, now: datetime) -> Season:
    final = invitation_store.head(record.id) if record.closed_at else None
    return Season(
        super_final_id=final.tournament_id if final else None,
        champion=final.champion if final else None,
        id=record.id,
        name=record.name,
        starts_on=date.fromisoformat(record.starts_on),
        ends_on=date.fromisoformat(record.ends_on),
        federation=record.federation,
        organiser=record.organiser,
        settings=SeasonSettings.model_validate(record.settings),
        status=status_of(record, now),
        closed_at=record.closed_at,
        to_invite=list(record.to_invite),
    )


def get_season(season_id: str, now: datetime) -> Season:
    record = store.get(season_id)
    if record is None:
        raise SeasonNotFound(f"No season {season_id}.")
    return _season(record, now)


# a tournament may start a few days before it finishes: the calendar's span opens this early
CALENDAR_LEAD = timedelta(days=7)


def calendar(season_id: str) -> SeasonCalendar:
    """The season's tournaments by start time, each marked when its points are in (R10.4)."""
    record = store.get(season_id)
    if record is None:
        raise SeasonNotFound(f"No season {season_id}.")
    start = datetime.combine(date.fromisoformat(record.starts_on), time(0), ZoneInfo(SEASON_TIME_ZONE))
    head = store.snapshot(season_id)
    counted = set(head.counted) if head else set()
    found = tournament_store.of_season(season_id, start - CALENDAR_LEAD, closes_at(record))
    # a counted tournament listed to start outside the span (its page's date moved) is listed too
    found += tournament_store.several(sorted(counted - {t.id for t in found}))
    found.sort(key=lambda t: (datetime.fromisoformat(t.starts_at).astimezone(UTC), t.id))
    return SeasonCalendar(
        season_id=season_id,
        tournaments=[
            SeasonTournament(
                id=t.id,
                name=t.name,
                city=t.page.city,
                starts_at=datetime.fromisoformat(t.starts_at),
                status=t.status,
                level=t.page.level or TournamentLevel.LOCAL.value,
                counted=t.id in counted,
            )
            for t in found
        ],
    )


def list_seasons(
    year: int | None, federation: str | None, limit: int, offset: int, now: datetime
) -> SeasonList:
    """Seasons, the latest first: those whose dates touch `year`, of `federation`."""
    found = [
        r
        for r in store.get_many(store.season_ids())
        if (year is None or int(r.starts_on[:4]) <= year <= int(r.ends_on[:4]))
        and (federation is None or r.federation == federation)
    ]
    found.sort(key=lambda r: (r.starts_on, r.id), reverse=True)
    return SeasonList(seasons=[_season(r, now) for r in found[offset : offset + limit]], total=len(found))


def put_season(caller: Caller, season_id: str, body: SeasonBody, now: datetime) -> Season:
    """Set a season's dates and numbers (platform admins, R10.4); a closed one is frozen.
    `SeasonChanged` has the season function recount it and schedule its close."""
    if not caller.is_admin:
        raise Forbidden("Only platform admins may set a season.")
    old = store.get(season_id)
    if old is not None and old.closed_at:
        raise SeasonClosed(f"Season {season_id} closed on {old.closed_at[:10]}: it no longer changes.")
    try:
        store.put(
            SeasonRecord(
                id=season_id,
                name=body.name,
                starts_on=body.starts_on.isoformat(),
                ends_on=body.ends_on.isoformat(),
                settings=body.settings.model_dump(mode="json"),
                draw_seed=old.draw_seed if old else default_seed(season_id),
                federation=body.federation,
                organiser=body.organiser,
            ),
            [outbox.Event(events.SEASON_CHANGED, {"season_id": season_id, "at": now.isoformat()})],
        )
    except store.SeasonClosed as closed:
        raise SeasonClosed(f"Season {season_id} closed meanwhile: it no longer changes.") from closed
    return get_season(season_id, now)


def schedule_close(season_id: str, now: datetime) -> str:
    """The season's close, at the end of its end date (one-time schedule; now if past)."""
    record = store.get(season_id)
    if record is None or record.closed_at:
        return "no_season" if record is None else "already_closed"
    at = closes_at(record)
    if at <= now:
        return close_season(season_id, now)
    schedules.create_once(
        schedules.schedule_name("season-close", season_id, record.ends_on),
        at,
        "season",
        {"close_season": season_id},
    )
    return "scheduled"


def close_season(season_id: str, now: datetime) -> str:
    """Close a season at its end (the schedule): the standings as they stand, frozen with the
    Super Final's list (`to_invite`, and the reserves: `services.invitations`), and the
    invitations sent from it. A schedule left from dates since moved changes nothing; one fired
    twice only sends what a cut-short first run did not."""
    record = store.get(season_id)
    if record is None:
        return "no_season"
    if record.closed_at:
        invitations.fill_seats(season_id, now)
        return "already_closed"
    if now < closes_at(record):
        return "not_yet"
    refresh_standings(season_id, compare=True)
    settings, _ = settings_of(season_id)
    rows, _, _ = _snapshot_or_empty(season_id, 0, settings.super_final_size + settings.super_final_reserves)
    final = invitations.frozen(season_id, rows, settings)
    chosen = [str(r["tavla_id"]) for r in final.rows[: final.seats]]
    closed = store.close(season_id, now.isoformat(), chosen, final)
    invitations.fill_seats(season_id, now)
    return "closed" if closed else "already_closed"
