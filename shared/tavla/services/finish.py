"""Finishing a tournament and its federation report (R2.3, R8.3, R10.1, R10.2).

`finish` (its organiser): only once every match is decided and no draw is due, and no appeal
is open. The final standings are stored with the tournament, which turns `finished`, and
`TournamentFinished` goes on the bus with each event's places (disqualified players have
none, so they earn no season points, R8.3). Finishing again returns the same standings.
A tournament of several divisions (R3.7) finishes once every division that has players to
pair is played out; its season points and announced prizes come from its highest
division's Main (the divisions are listed highest first).

`report` (its organiser or referee): everything the federation asks for (R2.3): every
decided match, refused registrations, who withdrew or was disqualified, the standings, and
the audit trail grouped by action (penalties, withdrawals, disqualifications, expulsions,
appeals with their decisions and reasons, and whatever else was recorded). As JSON, or as
one CSV table with a `kind` column (`report_csv`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from tavla import events
from tavla.caller import Caller
from tavla.errors import AppealOpen, NotFinished
from tavla.models.audit import AuditActor, AuditEntry
from tavla.models.board import EventStandings, FinalStandings, RefusedEntry, Report, ReportResult
from tavla.models.day import PlayerRef
from tavla.rules import day as rules_day
from tavla.services import categories, day
from tavla.services.access import require_organiser, require_staff
from tavla.services.board import event_tables, published
from tavla.spreadsheet import cell
from tavla.store import audit, outbox
from tavla.store import finish as finish_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import FINISHED, FieldRecord, FinalRecord, FixtureRecord, TournamentRecord


def finish(caller: Caller, tournament_id: str, now: datetime) -> FinalStandings:
    """Finish the tournament: final standings stored with `TournamentFinished` (idempotent)."""
    current, tournament, records = published(tournament_id)
    organiser = require_organiser(tournament, caller)
    if tournament.status == FINISHED:
        return _again(tournament, current.field)
    if any(r.appeal for r in records):
        raise AppealOpen("An appeal is open: the tournament finishes once it is decided (R9.2).")
    if tournament.drawing:
        raise NotFinished("A draw is being made: the tournament is not over.")
    draws = day.draws_of(current.rounds, records)
    if not _played_out(tournament, current.field, draws, records):
        raise NotFinished("Matches are still to be decided, or a draw is still due: the tournament goes on.")
    standings = event_tables(tournament, current.field, draws, records)
    record = FinalRecord(
        tournament_id=tournament_id,
        finished_at=now.isoformat(),
        events=tuple(e.model_dump(mode="json") for e in standings),
        finished_by={k: v for k, v in (("role", organiser.role), ("tavla_id", organiser.tavla_id)) if v},
        announced=True,  # its event is written with it
    )
    change = audit_entry(organiser, "finished", now, events=[e.event for e in standings])
    eligibility = categories.snapshot(tournament)  # R11.4: frozen with the standings
    try:
        finish_store.finish(
            tournament, record, change, eligibility, [_finished(tournament, current.field, record)]
        )
    except finish_store.NotRunning:
        stored = finish_store.final(tournament_id)
        if stored is None:
            raise NotFinished("The tournament changed while it was being finished: look again.") from None
        return _view(stored)  # finished at the same moment by another request, with its event
    return _view(record)


def _played_out(
    tournament: TournamentRecord,
    field: FieldRecord | None,
    draws: list[rules_day.Draw],
    records: list[FixtureRecord],
) -> bool:
    """Every draw that will be made is made and decided, in every division (R3.7) with two
    players or more to pair; a tournament never drawn is not over."""
    if field is None:
        return False
    winners, scores = day.results_of(records)
    settings = day.settings_of(tournament)
    out = day.out_of_play(field)
    for division in day.divisions(tournament):
        mine = [d for d in draws if d.inputs.division == division]
        if not mine and len(day.entrants(field, division)) < 2:
            continue  # nobody to pair in this division
        if not rules_day.event_finished(settings, mine, winners, scores, out):
            return False
    return True


def _again(tournament: TournamentRecord, field: FieldRecord | None) -> FinalStandings:
    """A finish repeated: the stored standings; announced now if finished before its event was
    written with it."""
    stored = finish_store.final(tournament.id)
    if stored is None:
        raise NotFinished("The tournament is finished but has no stored standings.")
    if not stored.announced:
        finish_store.announce(tournament.id, [_finished(tournament, field, stored)])
    return _view(stored)


def _view(record: FinalRecord) -> FinalStandings:
    return FinalStandings(
        tournament_id=record.tournament_id,
        finished_at=datetime.fromisoformat(record.finished_at),
        events=[EventStandings.model_validate(e) for e in record.events],
    )


def finished_event(
    tournament: TournamentRecord, field: FieldRecord | None, record: FinalRecord
) -> dict[str, Any]:
    """What season points and prizes need (R10.4, R11): each event's places, by Tavla ID.

    Events are named `main`, `consolation` ...; those of a tournament of several divisions
    `open.main` ... (R3.7), and `season_event` names the one season points come from.
    """
    return {
        "tournament_id": tournament.id,
        "finished_at": record.finished_at,
        "level": tournament.page.level,
        "season_id": tournament.page.season_id,
        "disqualified": sorted(field.disqualified) if field else [],
        "season_event": _event(day.divisions(tournament)[0], "main"),
        # each division's Main, highest first: the season's coefficient for each (R3.7, R10.4)
        "season_events": [_event(d, "main") for d in day.divisions(tournament)],
        "events": {
            _event(e.get("division"), str(e["event"])): [
                {"tavla_id": r["player"]["tavla_id"], "place": r["place"], "place_to": r["place_to"]}
                for r in e["rows"]
            ]
            for e in record.events
        },
    }


def _finished(tournament: TournamentRecord, field: FieldRecord | None, record: FinalRecord) -> outbox.Event:
    # one finish, one event, whichever request writes it
    return outbox.Event(
        events.TOURNAMENT_FINISHED, finished_event(tournament, field, record), key=tournament.id
    )


# -- the federation report ------------------------------------------------------------------


def report(caller: Caller, tournament_id: str) -> Report:
    """The federation report (R2.3; the tournament's organisers and referees)."""
    # The money figures load the payments service and its models: the report's alone, not the
    # finish's, so not at init (docs/decisions/0033).
    from tavla.services import prizes
    from tavla.store import payments as payment_store

    current, tournament, records = published(tournament_id)
    require_staff(tournament, caller)
    people = day.names(current.field)
    refused = [
        r for r in registration_store.all_entries(tournament_id) if r.status == registration_store.REFUSED
    ]
    profiles = player_store.get_profiles([r.tavla_id for r in refused]) if refused else {}

    def ref(tavla_id: str) -> PlayerRef:
        if tavla_id in people:
            return people[tavla_id]
        profile = profiles.get(tavla_id)
        if profile is None:
            return PlayerRef(tavla_id=tavla_id)
        return PlayerRef(tavla_id=tavla_id, name=profile.name, club=profile.club)

    draws = day.draws_of(current.rounds, records)
    field = current.field
    actions: dict[str, list[AuditEntry]] = {}
    for r in audit.every_record(tournament_id):
        actions.setdefault(r.action, []).append(
            AuditEntry(
                at=r.at,
                action=r.action,
                actor=AuditActor(role=r.actor.role, tavla_id=r.actor.tavla_id),
                details=dict(r.details),
            )
        )
    return Report(
        tournament_id=tournament_id,
        name=tournament.name,
        status=tournament.status,
        starts_at=datetime.fromisoformat(tournament.starts_at),
        finished_at=datetime.fromisoformat(tournament.finished_at) if tournament.finished_at else None,
        results=[
            _result(r, ref)
            for r in sorted(records, key=lambda r: (r.draw, r.position))
            if r.result is not None and r.home is not None
        ],
        refused=[
            RefusedEntry(
                player=ref(r.tavla_id),
                division=r.division,
                registered_at=datetime.fromisoformat(r.registered_at),
            )
            for r in sorted(refused, key=lambda r: (r.registered_at, r.tavla_id))
        ],
        withdrawn=[ref(p) for p in (field.withdrawn if field else ())],
        disqualified=[ref(p) for p in (field.disqualified if field else ())],
        standings=event_tables(tournament, field, draws, records),
        money=prizes.figures(tournament, payment_store.entries(tournament_id)),
        actions=actions,
    )


def _result(record: FixtureRecord, ref: Callable[[str], PlayerRef]) -> ReportResult:
    result = record.result
    assert record.home is not None and result is not None
    return ReportResult(
        code=record.code,
        division=record.division,
        event=record.event,
        round=record.round,
        label=record.label,
        home=ref(record.home),
        away=ref(record.away) if record.away else None,
        winner=result.winner,
        home_points=result.home_points,
        away_points=result.away_points,
        forfeit=result.forfeit,
        how=result.how,
        official_at=datetime.fromisoformat(record.official_at) if record.official_at else None,
    )


# One flat table; each row's `kind` says which columns it fills.
CSV_COLUMNS = (
    "kind",
    "at",
    "action",
    "event",
    "round",
    "match",
    "home",
    "home_name",
    "away",
    "away_name",
    "winner",
    "home_points",
    "away_points",
    "forfeit",
    "how",
    "tavla_id",
    "name",
    "place",
    "actor",
    "details",
)


def _details(value: Mapping[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) if value else ""


def _event(division: str | None, event: str) -> str:
    """An event as the CSV names it: `main`, or `open.main` in a tournament of divisions."""
    return f"{division}.{event}" if division else event


def csv_rows(report: Report) -> Iterable[dict[str, Any]]:
    """The report as rows of one table (see `report_csv`)."""
    for r in report.results:
        yield {
            "kind": "result",
            "at": r.official_at.isoformat() if r.official_at else None,
            "event": _event(r.division, r.event),
            "round": r.label,
            "match": r.code,
            "home": r.home.tavla_id,
            "home_name": r.home.name,
            "away": r.away.tavla_id if r.away else None,
            "away_name": r.away.name if r.away else None,
            "winner": r.winner,
            "home_points": r.home_points,
            "away_points": r.away_points,
            "forfeit": r.forfeit,
            "how": r.how,
        }
    for e in report.standings:
        for s in e.rows:
            figures = s.model_dump(exclude={"place", "place_to", "label", "player"}, exclude_none=True)
            yield {
                "kind": "standing",
                "event": _event(e.division, e.event),
                "tavla_id": s.player.tavla_id,
                "name": s.player.name,
                "place": s.label,
                "details": _details(figures),
            }
    for x in report.refused:
        yield {
            "kind": "refused_entry",
            "at": x.registered_at.isoformat(),
            "tavla_id": x.player.tavla_id,
            "name": x.player.name,
            "details": _details({"division": x.division}),
        }
    for kind, players in (
        ("withdrawn_player", report.withdrawn),
        ("disqualified_player", report.disqualified),
    ):
        for p in players:
            yield {"kind": kind, "tavla_id": p.tavla_id, "name": p.name}
    for action, entries in report.actions.items():
        for a in entries:
            details = a.details
            yield {
                "kind": "action",
                "at": a.at,
                "action": action,
                "match": details.get("match_id") or details.get("code") or details.get("match"),
                "tavla_id": details.get("tavla_id") or details.get("player"),
                "actor": f"{a.actor.role}:{a.actor.tavla_id}" if a.actor.tavla_id else a.actor.role,
                "details": _details(details),
            }


def report_csv(report: Report) -> str:
    """The report as one CSV table (RFC 4180), a row per item, its `kind` first:

    result (a decided match: event, round, match, home, away, winner, points, forfeit, how),
    standing (event, tavla_id, name, place, details = tie-break figures), refused_entry,
    withdrawn_player, disqualified_player, and action (an audit record: at, action, match,
    tavla_id, actor, details as JSON). Every cell goes through `spreadsheet.cell`: a
    formula start, at the beginning or after any separator, is prefixed with a quote.
    """
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in csv_rows(report):
        writer.writerow({c: cell(row.get(c)) for c in CSV_COLUMNS})
    return out.getvalue()
