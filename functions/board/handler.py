"""The venue board and the standings (R10.1, R10.2): public, read-only, cheap to watch."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.params import Path

from tavla.contract import errors
from tavla.errors import TournamentNotFound
from tavla.http import make_resolver
from tavla.models.board import Board, Standings
from tavla.observability import entry
from tavla.services import board

app = make_resolver()

TournamentId = Annotated[str, Path(max_length=64)]
MAX_AGE = 5  # seconds a phone or CloudFront may show a board before asking again


def _cached(app: APIGatewayHttpResolver, next_middleware: Callable[..., Response[Any]]) -> Response[Any]:
    """A strong ETag and `Cache-Control: public, max-age=5` on a 200; 304 when If-None-Match
    names the current tag. (Stands in for the shared caching helper of tavla.http.)"""
    response = next_middleware(app)
    if response.status_code != 200:
        return response
    body = (
        response.body if isinstance(response.body, str) else json.dumps(response.body, separators=(",", ":"))
    )
    tag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
    headers = {"ETag": tag, "Cache-Control": f"public, max-age={MAX_AGE}"}
    seen = [
        t.strip().removeprefix("W/")
        for t in (app.current_event.headers.get("if-none-match") or "").split(",")
    ]
    if tag in seen or "*" in seen:
        return Response(status_code=304, body="", headers=headers)
    response.body = body
    response.headers.update(headers)
    return response


@app.get(
    "/tournaments/<tournament_id>/board",
    tags=["board"],
    middlewares=[_cached],
    responses=errors(TournamentNotFound),
)
def get_board(tournament_id: TournamentId) -> Board:
    """The venue board.

    What a venue screen and a phone show: the draw in play, each table and its match, the
    queue, every published match (who plays whom, called / present / late points, live
    score, state) by event and round, and the standings so far with shared places and the
    tie-break figures (R10.1, R10.2). Public: no phone or e-mail (R12.1). Cached for 5 s;
    send `If-None-Match` with the last `ETag` to get a 304 when nothing changed.
    """
    return board.board(tournament_id)


@app.get(
    "/tournaments/<tournament_id>/standings",
    tags=["board"],
    middlewares=[_cached],
    responses=errors(TournamentNotFound),
)
def get_standings(tournament_id: TournamentId) -> Standings:
    """The standings.

    Per event (main, consolation, last chance): places, shared as ranges (5-8) where players
    went out together (R10.1); for Swiss and league the tie-break chain's figures: points,
    head-to-head, point difference, Buchholz (R10.2). Disqualified players have no place
    (R8.3). Provisional until the tournament is finished (`final`). Public.
    """
    return board.standings(tournament_id)


handler = entry(app)
