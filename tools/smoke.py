"""`make smoke URL=<api base url>`: the critical path of a tournament day against a running
platform, in a minute, leaving nothing open behind it.

Steps: sign in an organiser and two players; create a tournament (two places, named
`[smoke] <run id>`); both players create their profile and register; the organiser checks
them in at the referee table and draws round 1; both players report the result and the
organiser confirms it; the public board shows the match official; the organiser finishes
the tournament. Every step prints `ok <step> (<ms>)`, or `FAILED <step>` with the answer,
and the command exits 1.

Cleaning up: the API deletes no tournament (its record and audit trail are the
federation's), so the smoke tournament is finished, and so closed to everyone; the test
users are deleted (Cognito) or were never more than a token (local stack).

Signing in:
- the local stack (default): tokens from its `POST /dev/token`;
- the cloud: `--outputs cdk-outputs-<stage>.json` (what `make deploy` writes): three
  Cognito users are created by admin calls (no invitation sent), signed in with
  ADMIN_USER_PASSWORD_AUTH, and deleted at the end; the caller's AWS credentials need
  cognito-idp:AdminCreateUser, AdminSetUserPassword, AdminAddUserToGroup,
  AdminInitiateAuth and AdminDeleteUser on the stage's user pool (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Protocol

import requests

ORGANISERS = "organisers"
TIMEOUT = 30


class SmokeFailed(Exception):
    pass


class SignIn(Protocol):
    def token(self, user: str, groups: tuple[str, ...]) -> str: ...
    def clean_up(self) -> None: ...


class DevTokens:
    """The local stack's token endpoint (local only: the cloud has no /dev routes)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def token(self, user: str, groups: tuple[str, ...]) -> str:
        response = requests.post(
            f"{self.url}/dev/token", json={"user": user, "groups": list(groups)}, timeout=TIMEOUT
        )
        if response.status_code != 200:
            raise SmokeFailed(f"/dev/token answered {response.status_code}: is this the local stack?")
        return str(response.json()["token"])

    def clean_up(self) -> None:
        return None


class CognitoUsers:
    """Test users created in the stage's user pool for this run, deleted afterwards."""

    def __init__(self, user_pool_id: str, client_id: str, region: str) -> None:
        import boto3

        self.pool, self.client_id = user_pool_id, client_id
        self.cognito = boto3.client("cognito-idp", region_name=region)
        self.created: list[str] = []

    def token(self, user: str, groups: tuple[str, ...]) -> str:
        username = f"smoke+{user}@example.invalid"
        password = f"Sm0ke!{secrets.token_urlsafe(18)}"
        self.cognito.admin_create_user(
            UserPoolId=self.pool,
            Username=username,
            MessageAction="SUPPRESS",
            UserAttributes=[
                {"Name": "email", "Value": username},
                {"Name": "email_verified", "Value": "true"},
            ],
        )
        self.created.append(username)
        self.cognito.admin_set_user_password(
            UserPoolId=self.pool, Username=username, Password=password, Permanent=True
        )
        for group in groups:
            self.cognito.admin_add_user_to_group(UserPoolId=self.pool, Username=username, GroupName=group)
        result = self.cognito.admin_initiate_auth(
            UserPoolId=self.pool,
            ClientId=self.client_id,
            AuthFlow="ADMIN_USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": username, "PASSWORD": password},
        )
        return str(result["AuthenticationResult"]["IdToken"])

    def clean_up(self) -> None:
        for username in self.created:
            self.cognito.admin_delete_user(UserPoolId=self.pool, Username=username)
        self.created.clear()


@dataclass
class Smoke:
    url: str
    sign_in: SignIn
    out: Callable[[str], None] = print
    run_id: str = field(
        default_factory=lambda: datetime.now(UTC).strftime("%Y%m%d%H%M%S") + secrets.token_hex(2)
    )
    tokens: dict[str, str] = field(default_factory=dict)
    tournament_id: str = ""
    steps: list[str] = field(default_factory=list)

    def call(self, method: str, path: str, body: Any = None, *, user: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if user is not None:
            headers["Authorization"] = f"Bearer {self.tokens[user]}"
        response = requests.request(method, self.url + path, json=body, headers=headers, timeout=TIMEOUT)
        if response.status_code >= 300:
            raise SmokeFailed(f"{method} {path} answered {response.status_code}: {response.text[:500]}")
        return response.json() if response.content else None

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        try:
            yield
        except Exception as error:
            self.out(f"FAILED {name}: {error}")
            raise
        self.steps.append(name)
        self.out(f"ok {name} ({(time.monotonic() - started) * 1000:.0f} ms)")

    def run(self) -> str:
        """Walk the critical path; returns the (finished) tournament's id."""
        users = {"organiser": (ORGANISERS,), "home": (), "away": ()}
        try:
            with self.step("sign in an organiser and two players"):
                for user, groups in users.items():
                    self.tokens[user] = self.sign_in.token(f"{self.run_id}-{user}", groups)
            self._day()
        finally:
            with self.step("clean up"):
                if self.tournament_id:
                    self._finish()
                self.sign_in.clean_up()
        return self.tournament_id

    def _platform_now(self) -> datetime:
        """The platform's time, from its `Date` header: the dates sent must be in the future
        by its clock, not this machine's (a skewed laptop, a local stack whose clock moved on)."""
        answered = requests.get(self.url + "/tournaments", timeout=TIMEOUT).headers.get("Date")
        return parsedate_to_datetime(answered) if answered else datetime.now(UTC)

    def _day(self) -> None:
        now = self._platform_now()
        with self.step("create a tournament"):
            body = {
                "name": f"[smoke] {self.run_id}",
                "venue": "Smoke test",
                "city": "Athens",
                "starts_at": (now + timedelta(days=2)).isoformat(),
                "registration_closes_at": (now + timedelta(days=1)).isoformat(),
                "capacity": 2,
            }
            self.tournament_id = str(self.call("POST", "/tournaments", body, user="organiser")["id"])
        tid = self.tournament_id
        players: dict[str, str] = {}
        with self.step("players create their profiles and register"):
            for user in ("home", "away"):
                profile = self.call("POST", "/players", {"name": f"Smoke {user}"}, user=user)
                players[user] = str(profile["tavla_id"])
                self.call("POST", f"/tournaments/{tid}/registrations", user=user)
        with self.step("check in at the referee table"):
            for tavla_id in players.values():
                self.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user="organiser")
        with self.step("draw round 1"):
            self.call("POST", f"/tournaments/{tid}/rounds", user="organiser")
            (match,) = [m for m in self.call("GET", f"/tournaments/{tid}/rounds/1")["pairings"] if m["away"]]
        by_tavla_id = {v: k for k, v in players.items()}
        score = {"home_points": match["length"], "away_points": 0}
        with self.step("players report the result, the organiser confirms it"):
            for side in ("home", "away"):
                self.call(
                    "POST", f"/matches/{match['id']}/report", score, user=by_tavla_id[match[side]["tavla_id"]]
                )
            self.call("POST", f"/matches/{match['id']}/confirm", user="organiser")
        with self.step("the public board shows the result"):
            board = self.call("GET", f"/tournaments/{tid}/board")
            shown = [
                m
                for bracket in board["brackets"]
                for r in bracket["rounds"]
                for m in r["matches"]
                if m.get("code") == match["code"]
            ]
            if not shown or shown[0]["state"] != "official":
                raise SmokeFailed(f"the board does not show {match['code']} official: {shown}")

    def _finish(self) -> None:
        tournament = self.call("GET", f"/tournaments/{self.tournament_id}")
        if tournament["status"] == "finished":
            return
        self.call("POST", f"/tournaments/{self.tournament_id}/finish", user="organiser")


def from_outputs(path: Path) -> CognitoUsers:
    """The user pool of the stage whose `make deploy` wrote `path`."""
    outputs = json.loads(path.read_text(encoding="utf-8"))
    (stack,) = [o for o in outputs.values() if "UserPoolId" in o]
    region = stack["UserPoolId"].split("_", 1)[0]
    return CognitoUsers(stack["UserPoolId"], stack["UserPoolClientId"], region)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make smoke", description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="the API's base URL (local stack or the stage's ApiUrl)")
    parser.add_argument(
        "--outputs", type=Path, help="cdk-outputs-<stage>.json: sign in with Cognito test users"
    )
    args = parser.parse_args(argv)
    url = args.url.rstrip("/")
    sign_in: SignIn = from_outputs(args.outputs) if args.outputs else DevTokens(url)
    smoke = Smoke(url, sign_in)
    try:
        tournament_id = smoke.run()
    except Exception:  # every failure is reported by its step; the exit code says it
        return 1
    print(f"smoke test passed: {len(smoke.steps)} steps, tournament {tournament_id} finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
