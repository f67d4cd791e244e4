"""The venue board and the standings (R10.1, R10.2): public, read-only, cheap to watch."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import params
from tavla.contract import errors
from tavla.errors import TournamentNotFound
from tavla.http import cached, make_resolver
from tavla.models.board import Board, Standings
from tavla.observability import entry
from tavla.services import board

app = make_resolver()

# a cache key: the live delta a screen was told of
Version: TypeAlias = "Annotated[int | None, params.Query(ge=0)]"
TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"
MAX_AGE = 5  # seconds a phone or CloudFront may show a board before asking again


@app.get(
    "/tournaments/<tournament_id>/board",
    tags=["board"],
    middlewares=cached(max_age=MAX_AGE),
    responses=errors(TournamentNotFound),
)
def get_board(tournament_id: TournamentId, v: Version = None) -> Board:
    """The venue board.

    What a venue screen and a phone show: the draw in play, each table and its match, the
    queue, every published match (who plays whom, called / present / late points, live
    score, state) by event and round, and the standings so far with shared places and the
    tie-break figures (R10.1, R10.2). Public: no phone or e-mail (R12.1). Cached for 5 s;
    send `If-None-Match` with the last `ETag` to get a 304 when nothing changed. `seq` is the
    last delta of the live channel the board holds: a screen applies the deltas after it.
    `v` is not read: a screen told of delta n that reads again sends `v=n`, a cache key of its
    own, so the edge does not answer with its copy from before the change.
    """
    del v  # a cache key only
    return board.board(tournament_id, with_seq=True)


@app.get(
    "/tournaments/<tournament_id>/standings",
    tags=["board"],
    middlewares=cached(max_age=MAX_AGE),
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
