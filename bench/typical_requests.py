"""One typical request per function, with the AWS answers it gets, recorded on moto.

The cold-start benchmark replays them in fresh interpreters: the handler is imported, then
the request is resolved against AWS clients that return these recorded answers, so what a
module defers to its first request is still counted, and no AWS (or moto) is needed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from botocore.client import BaseClient

from infra.registry import function
from tavla import clock
from tavla.aws import AWS_CALL_LOG_LEVEL
from tavla.events import (
    EVENT_SOURCE,
    MATCHES_CALLED,
    REGISTRATION_PROMOTED,
    RESULT_CONFIRMED,
    STATEMENT_UPLOADED,
    TOURNAMENT_FINISHED,
)
from tests.service.conftest import Api, mocked_aws, reset_clients
from tests.service.day_helpers import checked_in_field
from tests.service.helpers import ORGANISER, appoint_referee, create_player, create_tournament, register

Answer = tuple[str, str, dict[str, Any]]  # service, operation, parsed response


@dataclass(frozen=True)
class Recorded:
    module: str  # the handler's module
    event: dict[str, Any]
    answers: list[Answer]
    # the same request made afresh, for one that is valid only near its making (a signed webhook)
    fresh: Callable[[], dict[str, Any]] | None = None
    # the moment the request was made: the replay's clock is set back to it, or a benchmark
    # longer than a deadline (the 10-minute no-show deadline) would replay another path
    # (a refusal, reads that were not recorded); None for a request made afresh
    made_at: datetime | None = None


@contextmanager
def _recording(answers: list[Answer]) -> Iterator[None]:
    original = getattr(BaseClient, "_make_api_call")  # noqa: B009  (private: mypy does not see it)

    def record(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        response = original(client, operation, params)
        answers.append((client.meta.service_model.service_name, operation, response))
        return response

    setattr(BaseClient, "_make_api_call", record)  # noqa: B010
    try:
        yield
    finally:
        setattr(BaseClient, "_make_api_call", original)  # noqa: B010


def _record(name: str, event: dict[str, Any]) -> Recorded:
    """Run `event` through the function as a new execution environment would (no cached
    clients or parameters) and keep every AWS answer it got."""
    import importlib

    module = function(name).module
    handler = importlib.import_module(module).handler
    reset_clients()
    answers: list[Answer] = []
    with _recording(answers):
        result = handler(event, _Context(name))
    if isinstance(result, dict) and int(result.get("statusCode", 200)) >= 400:
        raise AssertionError(f"{name}'s typical request failed while recording: {result}")
    return Recorded(module, event, answers, made_at=clock.now())


@dataclass
class _Context:
    function_name: str
    memory_limit_in_mb: int = 512
    aws_request_id: str = "bench"
    invoked_function_arn: str = "arn:aws:lambda:eu-central-1:123456789012:function:bench"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def record_all() -> tuple[dict[str, Recorded], dict[str, str]]:
    """Per function, its typical request: a player's profile, a tournament page, a
    registration, a check-in by QR pass, the OpenAPI document, a promotion notice, a Swiss
    round of 16 drawn; and the
    environment variables (table names, bus, secret) they were recorded with."""
    environ = dict(os.environ)
    try:
        with mocked_aws(os.environ.__setitem__):
            variables = {k: v for k, v in os.environ.items() if environ.get(k) != v}
            # recording quietly: no timing line per AWS call, no metrics on stdout
            os.environ.update({AWS_CALL_LOG_LEVEL: "DEBUG", "POWERTOOLS_METRICS_DISABLED": "true"})
            api = Api()
            tournament = create_tournament(api)
            params = {"tournament_id": tournament}
            create_player(api, "player", phone="+30 691 234 5678")
            referee = create_player(api, "referee")
            appoint_referee(api, tournament, referee)
            register(api, tournament, "player")
            create_player(api, "newcomer")
            pass_ = api.call("GET", "/me/checkin-pass", user="player").body["token"]
            drawn, entrants = checked_in_field(api, 16, format="swiss", swiss_rounds=4)
            recorded = {
                "players": _record("players", api.event("GET", "/me", user="player")[1]),
                "tournaments": _record(
                    "tournaments", api.event("GET", "/tournaments/{tournament_id}", params=params)[1]
                ),
                "registrations": _record(
                    "registrations",
                    api.event(
                        "POST", "/tournaments/{tournament_id}/registrations", params=params, user="newcomer"
                    )[1],
                ),
                "checkin": _record(
                    "checkin",
                    api.event(
                        "POST",
                        "/tournaments/{tournament_id}/checkins",
                        params=params,
                        body={"pass": pass_},
                        user="referee",
                    )[1],
                ),
                "openapi": _record("openapi", api.event("GET", "/openapi.json")[1]),
                "board": _record(
                    "board", api.event("GET", "/tournaments/{tournament_id}/board", params=params)[1]
                ),
                "finish": _record(
                    "finish",
                    api.event("GET", "/tournaments/{tournament_id}/report", params=params, user="referee")[1],
                ),
                "notify": _record("notify", _promotion(tournament, api)),
                "draw": _record(
                    "draw",
                    api.event(
                        "POST",
                        "/tournaments/{tournament_id}/rounds",
                        params={"tournament_id": drawn},
                        user=ORGANISER,
                    )[1],
                ),
            }
            money = _money_requests(api, tournament)
            return {
                **recorded,
                **_day_requests(api, drawn, entrants),
                **money,
                **_season_requests(api, drawn, entrants),
            }, variables
    finally:
        os.environ.clear()
        os.environ.update(environ)


def _day_requests(api: Api, drawn: str, entrants: list[str]) -> dict[str, Recorded]:
    """On the drawn Swiss round: a match read by the public, a player at the table, the call
    (bus event), the no-show deadline (schedule: the absent opponent forfeits), a warning, an
    appeal; in that order (after the deadline only the referee can mark a player present)."""
    match = api.call(
        "GET", "/tournaments/{tournament_id}/rounds/{number}", params={"tournament_id": drawn, "number": "1"}
    ).body["pairings"][0]
    home_user = f"player-{entrants.index(match['home']['tavla_id'])}"
    called = {"tournament_id": drawn, "at": datetime.now(UTC).isoformat(), "codes": [match["code"]]}
    return {
        "result": _record(
            "result", api.event("GET", "/matches/{match_id}", params={"match_id": match["id"]})[1]
        ),
        "presence": _record(
            "presence",
            api.event(
                "POST",
                "/matches/{match_id}/presence",
                params={"match_id": match["id"]},
                body={"present": True},
                user=home_user,
            )[1],
        ),
        "tablecall": _record(
            "tablecall",
            {
                "version": "0",
                "id": "bench-call",
                "detail-type": MATCHES_CALLED,
                "source": EVENT_SOURCE,
                "time": datetime.now(UTC).isoformat(),
                "detail": called,
            },
        ),
        "noshow": _record("noshow", {**called, "due": datetime.now(UTC).isoformat()}),
        "conduct": _record(
            "conduct",
            api.event(
                "POST",
                "/tournaments/{tournament_id}/penalties",
                params={"tournament_id": drawn},
                body={"tavla_id": match["home"]["tavla_id"], "kind": "warning", "reason": "slow play"},
                user=ORGANISER,
            )[1],
        ),
        "appeal": _record(
            "appeal",
            api.event(
                "POST",
                "/matches/{match_id}/appeals",
                params={"match_id": match["id"]},
                body={"kind": "decision", "statement": "The warning was given to the wrong player."},
                user=home_user,
            )[1],
        ),
    }


# --- money
def _money_requests(api: Api, tournament: str) -> dict[str, Recorded]:
    """Cash recorded at the venue by the referee; the provider's signed webhook of a card payment."""
    from local.fake_provider import FakeProvider, FakeStripeHttp, signature
    from tavla import card_payments
    from tests.service.conftest import PAYMENT_PROVIDER_SECRET

    params = {"tournament_id": tournament}
    player = api.call("GET", "/me", user="player").body["tavla_id"]
    fake = FakeProvider()
    card_payments.use_http_client(FakeStripeHttp(fake))
    try:
        session = api.call(
            "POST", "/tournaments/{tournament_id}/payments/checkout", params=params, user="player"
        ).body["session_id"]
    finally:
        card_payments.use_http_client(None)
    payload = fake.completed_event(session)
    secret = json.loads(PAYMENT_PROVIDER_SECRET)["webhook_secret"]

    def webhook() -> dict[str, Any]:
        """Signed now: the provider's tolerance is 5 minutes either way, so each replay signs again."""
        signed = signature(payload, secret, int(datetime.now(UTC).timestamp()))
        headers = {"stripe-signature": signed}
        return dict(api.event("POST", "/webhooks/payments", raw_body=payload, headers=headers)[1])

    venue = {"tavla_id": player, "method": "cash", "amount": {"amount": 500, "currency": "EUR"}}
    return {
        "payments": _record(
            "payments",
            api.event(
                "POST", "/tournaments/{tournament_id}/payments", params=params, body=venue, user="referee"
            )[1],
        ),
        "paywebhook": replace(_record("paywebhook", webhook()), fresh=webhook, made_at=None),
        # a payment deadline's notice fires: the unpaid players are told
        "unpaid": _record("unpaid", _deadline_notice(api, tournament)),
    }


def _deadline_notice(api: Api, tournament: str) -> dict[str, Any]:
    deadline = (datetime.now(UTC) + timedelta(days=3)).isoformat()
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/payments/deadline",
        params={"tournament_id": tournament},
        body={"at": deadline},
        user=ORGANISER,
    )
    assert reply.status == 200, reply.body
    return {"tournament_id": tournament, "deadline": deadline, "step": "notice"}


def _promotion(tournament: str, api: Api) -> dict[str, Any]:
    """The bus event notify gets when a waiting player is promoted."""
    player = api.call("GET", "/me", user="player").body
    return {
        "version": "0",
        "id": "bench-event",
        "detail-type": REGISTRATION_PROMOTED,
        "source": EVENT_SOURCE,
        "time": datetime.now(UTC).isoformat(),
        "detail": {
            "tournament_id": tournament,
            "tournament_name": "Athens Open",
            "tavla_id": player["tavla_id"],
            "promoted_at": datetime.now(UTC).isoformat(),
        },
    }


# --- ratings, season points, the rating list


def _bus(kind: str, detail: dict[str, Any]) -> dict[str, Any]:
    now = datetime.now(UTC).isoformat()
    return {
        "version": "0",
        "id": f"bench-{kind}",
        "detail-type": kind,
        "source": EVENT_SOURCE,
        "time": now,
        "detail": detail,
    }


def _season_requests(api: Api, drawn: str, entrants: list[str]) -> dict[str, Recorded]:
    """An official result rated, a finished tournament counted, the national list read."""
    result = {
        "tournament_id": drawn,
        "match_id": f"{drawn}.main.S1.1",
        "code": "main.S1.1",
        "event": "main",
        "home": entrants[0],
        "away": entrants[1],
        "length": 7,
        "winner": entrants[0],
        "home_points": 7,
        "away_points": 2,
        "forfeit": False,
        "official_at": datetime.now(UTC).isoformat(),
    }
    rows = [{"tavla_id": p, "place": i + 1, "place_to": i + 1} for i, p in enumerate(entrants)]
    finished = {
        "tournament_id": drawn,
        "finished_at": datetime.now(UTC).isoformat(),
        "level": "national",
        "season_id": "bench-season",
        "disqualified": [],
        "events": {"main": rows},
    }
    return {
        "ratings": _record("ratings", _bus(RESULT_CONFIRMED, result)),
        "season": _record("season", _bus(TOURNAMENT_FINISHED, finished)),
        # a statement's import job, delivered for an import that is not there (again): one read
        "statements": _record(
            "statements", _bus(STATEMENT_UPLOADED, {"tournament_id": drawn, "statement_id": "bench"})
        ),
        "rankings": _record("rankings", api.event("GET", "/ratings")[1]),
        # the federation office: an admin reading who organises
        "federation": _record(
            "federation",
            api.event(
                "GET", "/admin/roles/{role}", params={"role": "organisers"}, user="fed", groups=("admins",)
            )[1],
        ),
        # the full rebuild's first step, as its state machine invokes it
        "rebuild": _record("rebuild", {"step": "plan", "state": {}}),
    }
