"""The end of the day: the organiser finishes the tournament; staff export the federation report."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from aws_lambda_powertools.event_handler import Response

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import AppealOpen, NotFinished, NotOrganiser, NotStaff, TournamentNotFound
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.board import FinalStandings, Report
from tavla.observability import entry
from tavla.services import finish

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"

REPORT_RESPONSES = errors(TournamentNotFound, NotStaff)
REPORT_RESPONSES[200] = {
    "description": "The report: JSON, or with `format=csv` one CSV table with a `kind` column",
    "content": {
        "application/json": {"model": Report},
        "text/csv": {"schema": {"type": "string"}},
    },
}


@app.post(
    "/tournaments/<tournament_id>/finish",
    security=SIGNED_IN,
    tags=["board"],
    responses=errors(TournamentNotFound, NotOrganiser, NotFinished, AppealOpen),
)
def finish_tournament(tournament_id: TournamentId) -> FinalStandings:
    """Finish the tournament.

    Once every match is decided and no draw is due (else 409 `not_finished`; 409
    `appeal_open` while an appeal is open): the final standings are stored, the tournament
    is `finished`, and `TournamentFinished` goes on the bus with each event's places for
    season points and prizes; disqualified players have no place (R8.3). Its organisers
    only. Finishing again returns the same standings.
    """
    return finish.finish(caller(app), tournament_id, clock.now())


@app.get(
    "/tournaments/<tournament_id>/report",
    security=SIGNED_IN,
    tags=["board"],
    responses=REPORT_RESPONSES,
)
def federation_report(
    tournament_id: TournamentId, format: Annotated[Literal["json", "csv"], params.Query()] = "json"
) -> Response[str]:
    """The federation report.

    Every decided match (round, players, score, forfeit), refused registrations, withdrawn
    and disqualified players, the standings, and the audit trail grouped by action
    (penalties, withdrawals, disqualifications, expulsions, appeals with their decisions and
    reasons, ...) (R2.3; the tournament's organisers and referees). `format=csv` gives one
    CSV table whose first column, `kind`, is result, standing, refused_entry,
    withdrawn_player, disqualified_player or action.
    """
    report = finish.report(caller(app), tournament_id)
    if format == "csv":
        return Response(
            status_code=200,
            content_type="text/csv; charset=utf-8",
            body=finish.report_csv(report),
            headers={"Content-Disposition": f'attachment; filename="report-{tournament_id}.csv"'},
        )
    return Response(status_code=200, content_type="application/json", body=report.model_dump_json())


handler = entry(app)
