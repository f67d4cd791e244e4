"""Season tests: play tournaments through `progress.settle`, catch the bus, deliver it to the
ratings and season functions as EventBridge would."""

from __future__ import annotations

import importlib
import math
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from tavla import clock, events
from tavla.rules.results import Result
from tavla.rules.states import State
from tavla.services import progress
from tavla.store.records import FixtureRecord
from tests.service.board_helpers import next_due
from tests.service.conftest import Api, LambdaContext
from tests.service.helpers import ORGANISER, bus_taking

ratings_fn = importlib.import_module("functions.ratings.handler")
season_fn = importlib.import_module("functions.season.handler")

Published = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def bus(monkeypatch: pytest.MonkeyPatch) -> Published:
    """Every event put on the bus, in order; `deliver` hands them to the functions."""
    seen: Published = []
    monkeypatch.setattr(events, "put_on_bus", bus_taking(lambda kind, detail: seen.append((kind, detail))))
    return seen


def event(kind: str, detail: dict[str, Any], n: int = 0) -> dict[str, Any]:
    return {
        "version": "0",
        "id": f"evt-{n}",
        "detail-type": kind,
        "source": "tavla",
        "time": "2026-12-01T10:00:00Z",
        "detail": detail,
    }


def deliver(published: Published, kinds: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """Deliver the caught events to the ratings and season functions, then forget them."""
    out = []
    for n, (kind, detail) in enumerate(list(published)):
        if kinds is not None and kind not in kinds:
            continue
        if kind in (events.RESULT_CONFIRMED, events.PLAYERS_MERGED, events.TOURNAMENT_UNRATED):
            out.append(ratings_fn.handler(event(kind, detail, n), LambdaContext("ratings")))
        if kind in (events.TOURNAMENT_FINISHED, events.PLAYERS_MERGED, events.SEASON_CHANGED):
            out.append(season_fn.handler(event(kind, detail, n), LambdaContext("season")))
    published.clear()
    return out


def results(published: Published) -> list[dict[str, Any]]:
    return [d for k, d in published if k == events.RESULT_CONFIRMED]


def decide(tournament_id: str, code: str, home_wins: bool, forfeit: bool = False) -> FixtureRecord:
    """Make a result official now (staff confirmation through `progress.settle`); the clock moves on."""

    def change(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
        assert match.home and match.away
        result = {
            "winner": match.home if home_wins else match.away,
            "home_points": match.length if home_wins else (0 if forfeit else 2),
            "away_points": (0 if forfeit else 2) if home_wins else match.length,
            "forfeit": forfeit,
            "how": "forfeit" if forfeit else "score",
        }
        return replace(
            match, state=State.OFFICIAL, result=Result.from_json(result), official_at=clock.now().isoformat()
        )

    done = progress.settle(tournament_id, code, change, lambda a, b: [], clock.now()).match
    clock.advance(timedelta(minutes=3))
    return done


def overturn(match: FixtureRecord, _: progress.DayView) -> FixtureRecord:
    """The referee's decision on appeal (R9): the other player wins, official now."""
    assert match.home and match.away and match.result
    loser = match.away if match.result.winner == match.home else match.home
    points = {"home_points": match.length, "away_points": 0}
    if loser == match.away:
        points = {"home_points": 0, "away_points": match.length}
    result = {"winner": loser, **points, "how": "decision"}
    return replace(
        match, state=State.OFFICIAL, result=Result.from_json(result), official_at=clock.now().isoformat()
    )


def play_out(tournament_id: str, home_wins: Any = lambda m: True) -> None:
    """Every playable match official in draw order (`home_wins(match)` decides) until none is left."""
    while (due := next_due(tournament_id)) is not None:
        decide(tournament_id, due.code, home_wins(due))


def finish(api: Api, tournament_id: str) -> Any:
    reply = api.call(
        "POST", "/tournaments/{tournament_id}/finish", params={"tournament_id": tournament_id}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return reply.body


def fibs(official: list[dict[str, Any]]) -> dict[str, tuple[float, int]]:
    """An independent recomputation of R10.3, straight from the spec's words: results in
    official order; forfeits not rated; K = max(1, 5 - 4m/30); P_upset = 1/(10^(D sqrt(n)/2000)+1)."""
    state: dict[str, tuple[float, int]] = {}
    for r in sorted(official, key=lambda d: (d["official_at"], d["match_id"])):
        if r["forfeit"] or not r["away"]:
            continue
        winner = r["winner"]
        loser = r["away"] if winner == r["home"] else r["home"]
        (rw, mw), (rl, ml) = state.get(winner, (1500.0, 0)), state.get(loser, (1500.0, 0))
        n = r["length"]
        upset = 1 / (10 ** (abs(rw - rl) * math.sqrt(n) / 2000) + 1)
        p = upset if rw >= rl else 1 - upset
        kw, kl = max(1.0, 5 - 4 * mw / 30), max(1.0, 5 - 4 * ml / 30)
        state[winner] = (rw + 4 * kw * math.sqrt(n) * p, mw + 1)
        state[loser] = (rl - 4 * kl * math.sqrt(n) * p, ml + 1)
    return state


def page(api: Api, tavla_id: str) -> dict[str, Any]:
    reply = api.call("GET", "/players/{tavla_id}", params={"tavla_id": tavla_id})
    assert reply.status == 200, reply.body
    return dict(reply.body)


def entered(api: Api, users: list[str], **settings: Any) -> tuple[str, list[str]]:
    """A tournament with these users (profiles made on first use) registered, checked in and drawn."""
    from tests.service.day_helpers import checked_in_field, draw

    tid, ids = checked_in_field(api, len(users), users, **settings)
    assert draw(api, tid).status == 201
    return tid, ids


def _id_of_user(user: str) -> str:
    from tavla.store import players as player_store

    return player_store.tavla_id_of(user)


def wipe_ratings(ids: list[str]) -> None:
    """Everything the ratings wrote, gone: the ledger and its markers, histories, ratings."""
    from tavla.rules.rating import RatingState
    from tavla.store import ratings as rating_store

    ledger = rating_store.ledger_from("2000-01", clock.now())
    rating_store.repair_ledger([], [], [e.key for e in ledger], [e.match_id for e in ledger])
    rating_store.write_histories([], [(p, s.key) for p in ids for s in rating_store.history(p)])
    rating_store.put_profiles_state({p: RatingState() for p in ids})
