"""The board and the standings (R10.1, R10.2, R12.1): what a venue screen and a phone show.

Public and read-only. One board is three DynamoDB calls whatever the field's size: the
tournament, field and tables (one BatchGetItem), the published rounds (a Query) and every
published match (a Query). Standings come from the rules (`rules.day.event_standings`) over
the official results, for each event drawn so far: provisional during the day, final once
the tournament is finished. Disqualified players have no place (R8.3). A tournament of
several divisions has each division's events apart (R3.7).

A board is polled by every phone and screen of the venue, so it stays small as the day
grows: it carries the draws in play (and each event's latest) with their results, and each
event's top standings rows; earlier rounds are at `GET .../rounds/{n}` and the whole table at
`GET .../standings`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from tavla.errors import TournamentNotFound
from tavla.models.board import (
    BOARD_ROWS,
    Board,
    Bracket,
    BracketRound,
    EventStandings,
    StandingRow,
    Standings,
    TableView,
)
from tavla.models.day import MatchView, PlayerRef
from tavla.rules import day as rules_day
from tavla.rules.late_entries import LateEntry
from tavla.rules.standings import Standing, TableRow
from tavla.rules.states import UNPLAYED, State
from tavla.services import day
from tavla.store import draws as draw_store
from tavla.store.records import FINISHED, FieldRecord, FixtureRecord, RoundRecord, TournamentRecord

# a match nothing more happens to (a draw whose matches are all so is no longer current)
SETTLED = frozenset({State.OFFICIAL, *UNPLAYED})
EVENTS: tuple[rules_day.EventName, ...] = ("main", "consolation", "last_chance")


def event_tables(
    tournament: TournamentRecord,
    field: FieldRecord | None,
    draws: Sequence[rules_day.Draw],
    records: Sequence[FixtureRecord],
    top: int | None = None,
) -> list[EventStandings]:
    """Each drawn event's standings from the official results (R10.1, R10.2, R8.3), division
    by division (R3.7); its first `top` rows only when given."""
    if field is None or not draws:
        return []
    settings, points = day.settings_of(tournament), day.match_points_of(tournament)
    winners, scores = day.results_of(records)
    fixtures = [f for d in draws for f in d.fixtures]
    states = rules_day.flow(fixtures, winners)
    people = day.names(field)
    disqualified = set(field.disqualified)
    out = []
    for division in day.divisions(tournament):
        for event in EVENTS:
            drawn = [d for d in draws if d.inputs.event == event and d.inputs.division == division]
            if not drawn:
                continue
            # a Swiss or lives field grows with late entries: the latest draw holds all of it
            inputs = drawn[-1].inputs if event == "main" else drawn[0].inputs
            players = [e.player_id for e in inputs.field]
            played = rules_day.records_of([f for d in drawn for f in d.fixtures], states, scores)
            rows = rules_day.event_standings(
                settings, event, players, played, disqualified & set(players), points, inputs.late
            )
            late = {e.player_id: e for e in inputs.late}
            table = event == "main" and settings.format in ("swiss", "round_robin")
            out.append(
                EventStandings(
                    division=division,
                    event=event,
                    system="table" if table else "knockout",
                    rows=[_row(r, people, late.get(r.player_id)) for r in rows[:top]],
                    total=len(rows),
                )
            )
    return out


def _row(standing: Standing, people: Mapping[str, PlayerRef], late: LateEntry | None = None) -> StandingRow:
    player = people.get(standing.player_id, PlayerRef(tavla_id=standing.player_id))
    row = StandingRow(place=standing.place, place_to=standing.place_to, label=standing.label, player=player)
    if late is not None:
        row = row.model_copy(update={"late_from_round": late.round})
    if isinstance(standing, TableRow):
        row = row.model_copy(
            update={
                "points": standing.points,
                "head_to_head": standing.head_to_head,
                "head_to_head_difference": standing.head_to_head_difference,
                "point_difference": standing.point_difference,
                "buchholz": standing.buchholz,
                "late_points": standing.late_half_points / 2 if standing.late_half_points else None,
            }
        )
    return row


def published(
    tournament_id: str, *, with_seq: bool = False
) -> tuple[draw_store.Day, TournamentRecord, list[FixtureRecord]]:
    """The tournament's day and every published match (three calls at most)."""
    current = draw_store.day(tournament_id, with_seq=with_seq)
    if current.tournament is None:
        raise TournamentNotFound(f"No tournament {tournament_id}.")
    tournament = current.tournament
    records = draw_store.fixtures(tournament) if tournament.draws else []
    return current, tournament, records


def standings(tournament_id: str) -> Standings:
    """Every drawn event's standings with shared places and the tie-break figures (public)."""
    current, tournament, records = published(tournament_id)
    draws = day.draws_of(current.rounds, records)
    return Standings(
        tournament_id=tournament_id,
        final=tournament.status == FINISHED,
        events=event_tables(tournament, current.field, draws, records),
    )


def _current(rounds: Sequence[RoundRecord], records: Sequence[FixtureRecord]) -> list[RoundRecord]:
    """The draws still being played (a Swiss round, a bracket, side brackets at once); else the last."""
    open_draws = {r.draw for r in records if r.state not in SETTLED}
    ordered = sorted(rounds, key=lambda r: r.number)
    return [r for r in ordered if r.number in open_draws] or ordered[-1:]


def _shown(rounds: Sequence[RoundRecord], current: Sequence[RoundRecord]) -> set[int]:
    """The draws whose matches the board carries: those in play, and each event's latest
    (its last round's results stay up until the next round is drawn)."""
    latest: dict[tuple[str | None, str], int] = {}
    for r in rounds:
        where = (day.division_of(r), r.event)
        latest[where] = max(latest.get(where, 0), r.number)
    return {r.number for r in current} | set(latest.values())


def _brackets(
    divisions: Sequence[str | None], views: Sequence[tuple[FixtureRecord, MatchView]]
) -> list[Bracket]:
    by_event: dict[tuple[str | None, str], dict[str, list[tuple[FixtureRecord, MatchView]]]] = {}
    for record, view in sorted(views, key=lambda x: (x[0].draw, x[0].position)):
        where = (record.division, record.event)
        by_event.setdefault(where, {}).setdefault(record.label, []).append((record, view))
    return [
        Bracket(
            division=division,
            event=event,
            rounds=[
                BracketRound(
                    label=label,
                    round=matches[0][0].round,
                    matches=[v for _, v in sorted(matches, key=lambda x: (x[0].board, x[0].code))],
                )
                for label, matches in labels.items()
            ],
        )
        for division in divisions
        for event in EVENTS
        if (labels := by_event.get((division, event)))
    ]


def board(tournament_id: str, *, with_seq: bool = False) -> Board:
    """The venue board (public): tables and queue, the draws in play with their matches, the
    top of the standings so far; `with_seq`: the last live delta it holds (the GET's, not the
    live function's render, which is counted after)."""
    current, tournament, records = published(tournament_id, with_seq=with_seq)
    people = day.names(current.field)
    in_play = _current(current.rounds, records)
    shown = _shown(current.rounds, in_play)
    views = {r.code: day.match_view(tournament_id, r, people) for r in records if r.draw in shown}
    tables = current.tables  # what sits on a table or waits for one is unsettled: its draw is in play
    draws = day.draws_of(current.rounds, records)
    return Board(
        tournament_id=tournament_id,
        name=tournament.name,
        status=tournament.status,
        finished_at=datetime.fromisoformat(tournament.finished_at) if tournament.finished_at else None,
        current=[day.round_summary(r) for r in in_play],
        tables=[
            TableView(table=n, match=views.get(tables.occupied.get(str(n), "")))
            for n in range(1, tables.count + 1)
        ]
        if tables
        else [],
        queue=[views[c] for c in (tables.queue if tables else ()) if c in views],
        brackets=_brackets(
            day.divisions(tournament), [(r, views[r.code]) for r in records if r.draw in shown]
        ),
        standings=event_tables(tournament, current.field, draws, records, top=BOARD_ROWS),
        late=[e["player_id"] for e in current.field.entrants if e.get("late")] if current.field else [],
        seq=current.seq,
    )
