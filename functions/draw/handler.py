"""Draws (R5): the organiser draws the next round; anyone reads the published draws."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    AppealOpen,
    Busy,
    DrawInProgress,
    DrawnWithoutCommitment,
    Invalid,
    LateEntryClosed,
    LateEntryRefused,
    NotCommitted,
    NotEnoughPlayers,
    NotHeld,
    NothingToDraw,
    NotOrganiser,
    NotStaff,
    PlayerNotFound,
    ProfileMissing,
    RoundInProgress,
    RoundNotFound,
    RoundPlayed,
    RuleBroken,
    TournamentNotFound,
)
from tavla.http import LIVE_MAX_AGE, SIGNED_IN, cached, caller, make_resolver, revalidated
from tavla.models.commitment import DrawCommitment
from tavla.models.day import (
    DrawPreview,
    LateEntryPolicyBody,
    LateEntryRequest,
    LateEntryView,
    RedrawRequest,
    Rounds,
    RoundView,
)
from tavla.models.hall import HallBody, HallView, MyTableNeeds, NeedBody, TableAttributesBody
from tavla.observability import entry
from tavla.services import commitment, draw, hall, late_entries, redraw

app = make_resolver()

TournamentId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"
RoundNumber: TypeAlias = "Annotated[int, params.Path(ge=1, le=999)]"
Division: TypeAlias = (
    'Annotated[str | None, params.Query(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]'
)


@app.post(
    "/tournaments/<tournament_id>/rounds",
    security=SIGNED_IN,
    tags=["draws"],
    status_code=201,
    responses=errors(
        TournamentNotFound,
        NotOrganiser,
        RoundInProgress,
        NothingToDraw,
        NotEnoughPlayers,
        Invalid,
        AppealOpen,
        DrawInProgress,
        RuleBroken,
        Busy,
    ),
)
def draw_next(tournament_id: TournamentId, division: Division = None) -> tuple[RoundView, int]:
    """Draw the next round (of `division`, when the tournament has several).

    The whole bracket for elimination formats and the league, one round for Swiss and lives;
    side brackets once their feeding rounds are decided (R5; its organisers only). The first
    draw closes check-in and fixes the field (R4.2). The round records its seed and the
    digest of its inputs, so anyone can recompute it (R5.1). A tournament of several
    divisions is drawn one division at a time (R3.7): `division` is then required.
    """
    return draw.draw_next(caller(app), tournament_id, clock.now(), division=division), 201


@app.get(
    "/tournaments/<tournament_id>/rounds",
    tags=["draws"],
    responses=errors(TournamentNotFound),
    middlewares=cached(max_age=LIVE_MAX_AGE),
)
def rounds(tournament_id: TournamentId) -> Rounds:
    """The published draws.

    Each with its seed and digest (R5.1; public).
    """
    return draw.rounds(tournament_id)


@app.get(
    "/tournaments/<tournament_id>/rounds/<number>",
    tags=["draws"],
    responses=errors(TournamentNotFound, RoundNotFound),
    middlewares=cached(max_age=LIVE_MAX_AGE),
)
def round_view(tournament_id: TournamentId, number: RoundNumber) -> RoundView:
    """One published draw.

    Its matches and tables, its seed, and the public inputs it was computed from: recompute
    it with `make verify-draw` (R5.1; public).
    """
    return draw.round_view(tournament_id, number)


@app.post(
    "/tournaments/<tournament_id>/draw-commitment",
    security=SIGNED_IN,
    tags=["draws"],
    responses=errors(TournamentNotFound, NotOrganiser, DrawnWithoutCommitment),
)
def commit_seed(tournament_id: TournamentId) -> DrawCommitment:
    """Commit to the draw's seed now (its organisers; R5.1).

    Any time before the first draw: from then on the tournament page shows the seed's SHA-256
    (`draw_commitment`), and the first draw reveals the seed. The first draw commits by
    itself when nobody did (so check-in never closes without a commitment); asked again, the
    same commitment is returned.
    """
    return commitment.commit(caller(app), tournament_id, clock.now())


@app.get(
    "/tournaments/<tournament_id>/draw-preview",
    security=SIGNED_IN,
    tags=["draws"],
    responses=errors(
        TournamentNotFound,
        NotOrganiser,
        NotCommitted,
        RoundInProgress,
        NothingToDraw,
        NotEnoughPlayers,
        Invalid,
        AppealOpen,
        DrawInProgress,
        RuleBroken,
    ),
    middlewares=revalidated(),
)
def preview(tournament_id: TournamentId, division: Division = None) -> DrawPreview:
    """The next draw's pairings, computed from the committed seed (its organisers only; R5.1).

    Exactly what `POST .../rounds` will publish as long as nothing changes meanwhile (a
    result, a withdrawal, a late entry); nothing is written, and the seed is not shown.
    """
    return draw.preview(caller(app), tournament_id, clock.now(), division=division)


@app.post(
    "/tournaments/<tournament_id>/rounds/<number>/redraw",
    security=SIGNED_IN,
    tags=["draws"],
    responses=errors(
        TournamentNotFound,
        RoundNotFound,
        NotOrganiser,
        RoundPlayed,
        RoundInProgress,
        NothingToDraw,
        NotEnoughPlayers,
        AppealOpen,
        DrawInProgress,
        RuleBroken,
    ),
)
def redraw_round(tournament_id: TournamentId, number: RoundNumber, body: RedrawRequest) -> RoundView:
    """Draw a published round again, with a reason (its organisers only; R5.1).

    The new draw's seed is the committed secret's next attempt; the draw it replaces stays
    public under `earlier`, and the round shows "redrawn: reason". 409 once a result of the
    round is entered or a later draw depends on it, and when a result lands meanwhile.
    """
    return redraw.redraw(caller(app), tournament_id, number, body.reason, clock.now())


@app.put(
    "/tournaments/<tournament_id>/late-entry",
    security=SIGNED_IN,
    tags=["draws"],
    responses=errors(TournamentNotFound, NotOrganiser, LateEntryRefused, Invalid),
)
def late_entry_policy(tournament_id: TournamentId, body: LateEntryPolicyBody) -> LateEntryPolicyBody:
    """Open or close late entry.

    Swiss and lives only, its organisers (R5.5, R5.7): `points` (Swiss) and `lives` (lives)
    say what a late player starts with, the other one is refused (422); closed again, nobody
    else enters.
    """
    return late_entries.set_policy(caller(app), tournament_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/late-entries",
    security=SIGNED_IN,
    tags=["draws"],
    status_code=201,
    responses=errors(
        TournamentNotFound, PlayerNotFound, NotOrganiser, LateEntryClosed, LateEntryRefused, Invalid
    ),
)
def enter_late(tournament_id: TournamentId, body: LateEntryRequest) -> tuple[LateEntryView, int]:
    """Enter a player late while late entry is open (its organisers; R5.5, R5.7).

    They are paired from the next round drawn, starting with the points or lives the policy
    gives; the standings mark them as late.
    """
    return late_entries.enter(caller(app), tournament_id, body, clock.now()), 201


TableNumber: TypeAlias = "Annotated[int, params.Path(ge=1, le=2048)]"
MatchCode: TypeAlias = 'Annotated[str, params.Path(max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]'
PlayerId: TypeAlias = "Annotated[str, params.Path(max_length=64)]"


@app.get(
    "/tournaments/<tournament_id>/hall",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotStaff),
    middlewares=revalidated(),
)
def hall_view(tournament_id: TournamentId) -> HallView:
    """The hall as the desk sees it (its staff; R6).

    Every table with its attributes and match, the queue with why each match waits (its turn,
    a busy or missing accessible or streamed table, a hold), who holds whom, the players who
    need an accessible table.
    """
    return hall.hall(caller(app), tournament_id)


@app.put(
    "/tournaments/<tournament_id>/hall",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotOrganiser, Busy),
)
def set_hall(tournament_id: TournamentId, body: HallBody) -> HallView:
    """The matches to stream (or the Main's top board) and the tournaments sharing the hall.

    Its organisers: a streamed match goes only to a streamed table; a match of a player still
    at a table of a tournament beside this one is held. The day is seated again at once.
    """
    return hall.set_hall(caller(app), tournament_id, body, clock.now())


@app.put(
    "/tournaments/<tournament_id>/tables/<table>",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotOrganiser, Invalid, Busy),
)
def set_table(tournament_id: TournamentId, table: TableNumber, body: TableAttributesBody) -> HallView:
    """A table's attributes: accessible, streamed, reserved for an event or division, out of service.

    Its organisers; what may sit there from now on (a match at it plays on). The day is
    seated again at once.
    """
    return hall.set_table(caller(app), tournament_id, table, body, clock.now())


@app.get(
    "/tournaments/<tournament_id>/needs/<tavla_id>",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotStaff),
    middlewares=revalidated(),
)
def player_need(tournament_id: TournamentId, tavla_id: PlayerId) -> NeedBody:
    """A player's need at the tables.

    Private: the player, or the tournament's staff, read it; no public route shows it.
    """
    return hall.need(caller(app), tournament_id, tavla_id)


@app.get(
    "/me/table-needs",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(ProfileMissing),
    middlewares=revalidated(),
)
def my_table_needs() -> MyTableNeeds:
    """My need at the tables in each tournament I am entered in that is not over.

    Private (the caller's own); set each with `PUT .../needs/{tavla_id}`.
    """
    return hall.my_needs(caller(app))


@app.put(
    "/tournaments/<tournament_id>/needs/<tavla_id>",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotStaff, Busy),
)
def set_player_need(tournament_id: TournamentId, tavla_id: PlayerId, body: NeedBody) -> NeedBody:
    """Set a player's need (the player, or the tournament's staff; private).

    A player who needs an accessible table is seated only at one; a queued match waits for it.
    """
    return hall.set_need(caller(app), tournament_id, tavla_id, body, clock.now())


@app.post(
    "/tournaments/<tournament_id>/holds/<code>/release",
    security=SIGNED_IN,
    tags=["hall"],
    responses=errors(TournamentNotFound, NotStaff, NotHeld, Busy),
)
def release_hold(tournament_id: TournamentId, code: MatchCode) -> HallView:
    """Release a hold (its staff).

    The match is called at the next free table it may use, though its player is still playing
    elsewhere (409 `not_held` when it is not held).
    """
    return hall.release(caller(app), tournament_id, code, clock.now())


handler = entry(app)
