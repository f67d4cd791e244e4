"""Cost: DynamoDB calls per request, counted with botocore's event hooks (on in-process moto).

Targets from the foundation issue: register <= 2, check in <= 2, withdraw with promotion <= 3
(4 with a refund policy: the player's payments are read to plan the refund; 3 without one).
Every path is printed, the ones without a target too, so a regression shows in review.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import boto3
from moto import mock_aws

from tests.service.helpers import dynamodb_calls

TARGETS = {"register": 2, "check in by Tavla ID": 2, "check in by pass": 2, "withdraw with promotion": 3}


@contextmanager
def _aws() -> Iterator[None]:
    """In-process moto for one benchmark; cached AWS clients are forgotten on the way in and
    out, so the next benchmark's clients point where it says (moto or DynamoDB Local)."""
    from tavla.store.schema import TABLES, create_table_args
    from tests.service.conftest import reset_clients

    os.environ.update(
        AWS_DEFAULT_REGION="eu-central-1",
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        EVENT_BUS_NAME="bench-bus",
        PASS_KEY_SECRET_ID="bench-pass-key",
        POWERTOOLS_METRICS_DISABLED="true",  # the figures, not the EMF lines, on stdout
        AWS_CALL_LOG_LEVEL="DEBUG",  # nor a timing line per AWS call
    )
    for spec in TABLES:
        os.environ[spec.env_var] = f"bench-{spec.name}"
    reset_clients()
    with mock_aws():
        dynamodb = boto3.client("dynamodb")
        for spec in TABLES:
            dynamodb.create_table(**create_table_args(spec, f"bench-{spec.name}"))
        boto3.client("events").create_event_bus(Name="bench-bus")
        boto3.client("secretsmanager").create_secret(Name="bench-pass-key", SecretString="k")
        try:
            yield
        finally:
            reset_clients()


def _count(action: Callable[[], Any]) -> int:
    return len(dynamodb_calls(action))


def main() -> int:
    with _aws():
        from tests.service.conftest import Api
        from tests.service.helpers import appoint_referee, create_player, create_tournament

        api = Api()
        tid = create_tournament(api, capacity=3)
        referee = create_player(api, "ref")
        appoint_referee(api, tid, referee)
        players = [create_player(api, f"p{i}", phone=f"+3069700000{i:02d}") for i in range(5)]
        path = "/tournaments/{tournament_id}/registrations"
        params = {"tournament_id": tid}

        def register(user: str) -> Callable[[], Any]:
            return lambda: api.call("POST", path, params=params, user=user)

        def check_in(body: dict[str, str]) -> Callable[[], Any]:
            return lambda: api.call(
                "POST", "/tournaments/{tournament_id}/checkins", params=params, body=body, user="ref"
            )

        figures = {
            "register": _count(register("p0")),
            "register (waiting list)": 0,
        }
        for user in ("p1", "p2"):
            register(user)()
        figures["register (waiting list)"] = _count(register("p3"))
        token = api.call("GET", "/me/checkin-pass", user="p1").body["token"]
        figures["check in by Tavla ID"] = _count(check_in({"tavla_id": players[0]}))
        figures["check in by pass"] = _count(check_in({"pass": token}))
        figures["check in by phone"] = _count(check_in({"phone": "+306970000002"}))
        figures["check in again (idempotent)"] = _count(check_in({"tavla_id": players[0]}))
        figures["withdraw with promotion"] = _count(
            lambda: api.call("DELETE", path + "/me", params=params, user="p0")
        )
        # a policy that gives nothing back: the player's payments are not read
        none = create_tournament(api, capacity=2, refund_policy={"kind": "none"}, name="No refunds")
        for user in ("p1", "p2", "p3"):
            api.call("POST", path, params={"tournament_id": none}, user=user)
        figures["withdraw with promotion, no refund"] = _count(
            lambda: api.call("DELETE", path + "/me", params={"tournament_id": none}, user="p1")
        )
    missed = False
    for name, calls in figures.items():
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            verdict = f"(target <= {target})" if calls <= target else f"MISSED > {target}"
        missed |= target is not None and calls > target
        print(f"dynamodb calls {name:<30} {calls}  {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
