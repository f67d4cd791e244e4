"""schemathesis over the whole OpenAPI document against a running local stack.

It seeds the stack with a small world (an organiser with a tournament, a player registered in
it, another player), then runs schemathesis once with the organiser's token and once with the
player's, bounded and deterministic, with the seeded ids in its dictionaries so that path and
body parameters often name things that exist and the run reaches past 404s. The checks are
the contract's promises: no server error, no status code the document does not list, and
every response matching its documented content type and schema.

By hand, against `make run`:  .venv/bin/python -m tests.e2e.fuzz http://127.0.0.1:8000
It prints each schemathesis command it runs (rerun one as it is: its config and reports stay in
.local/fuzz/), then schemathesis' own report for each role.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import requests

CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)
MAX_EXAMPLES = 25  # per operation and phase
SEED_PROBABILITY = 0.5  # how often a parameter with seeded values takes one of them
REQUEST_TIMEOUT_SECONDS = 30
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


@dataclass
class World:
    """What the run is seeded with: tokens by role, and ids that exist."""

    tokens: dict[str, str] = field(default_factory=dict)
    tournament_ids: list[str] = field(default_factory=list)
    tavla_ids: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Failure:
    role: str
    operation: str
    check: str  # schemathesis' code: ST101 server error, ST103 undocumented status, ...
    detail: str  # its own text: what came back and the curl line that reproduces it

    def __str__(self) -> str:
        return f"[{self.role}] {self.operation} {self.check}\n{self.detail}"


@dataclass
class Run:
    role: str
    command: list[str]
    exit_code: int
    output: str
    tested: set[str]  # operations, "METHOD /path"
    failures: list[Failure]


def _call(url: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.request(method, url + path, json=body, headers=headers, timeout=30)
    if response.status_code >= 300:
        raise RuntimeError(f"seeding {method} {path}: {response.status_code} {response.text}")
    return response.json()


def seed(url: str) -> World:
    """An organiser with a tournament, a player registered in it, another player; all with profiles."""
    world = World()
    for index, (role, groups) in enumerate((("organiser", ["organisers"]), ("player", []), ("other", []))):
        token = _call(url, "POST", "/dev/token", body={"user": f"fuzz-{role}", "groups": groups})["token"]
        world.tokens[role] = token
        profile = {"name": f"Fuzz {role.title()}", "phone": f"+30 697 000 {index:04d}"}
        world.tavla_ids.append(_call(url, "POST", "/players", token, profile)["tavla_id"])
    now = datetime.now(UTC)
    tournament = {
        "name": "Fuzz Open",
        "venue": "Café Tavli, Plaka",
        "city": "Athens",
        "starts_at": (now + timedelta(days=30)).isoformat(),
        "registration_closes_at": (now + timedelta(days=29)).isoformat(),
        "capacity": 8,
        "entry_fee": {"amount": 2000, "currency": "EUR"},
    }
    tournament_id = _call(url, "POST", "/tournaments", world.tokens["organiser"], tournament)["id"]
    world.tournament_ids.append(tournament_id)
    _call(url, "POST", f"/tournaments/{tournament_id}/registrations", world.tokens["player"])
    return world


def _toml(value: Any) -> str:
    """Strings, numbers and lists of them, and inline tables: all a schemathesis config needs here."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def config(world: World, role: str) -> str:
    """The run's schemathesis.toml: the caller's token, and the seeded ids as dictionaries that
    path and body parameters of those names draw from (else schemathesis generates them)."""
    dictionaries = {"tournament_ids": world.tournament_ids, "tavla_ids": world.tavla_ids}
    bindings = {
        "path.tournament_id": "tournament_ids",
        "path.tavla_id": "tavla_ids",
        "body.tavla_id": "tavla_ids",
        "body.keep": "tavla_ids",
        "body.merge": "tavla_ids",
        "body.staff[*].tavla_id": "tavla_ids",
    }  # not phones: a seeded phone would stand in for the boundary values (like "") schemathesis tries
    lines = [f"headers = {_toml({'Authorization': f'Bearer {world.tokens[role]}'})}", ""]
    lines += ["[cache]", "enabled = false  # replaying past runs' findings would make runs differ", ""]
    for name, values in dictionaries.items():
        lines += [f"[dictionaries.{name}]", f"values = {_toml(values)}", ""]
    lines.append("[parameters]")
    lines += [
        f"{json.dumps(key)} = {_toml({'dictionary': name, 'probability': SEED_PROBABILITY})}"
        for key, name in bindings.items()
    ]
    return "\n".join(lines) + "\n"


def command(url: str, config_file: Path, report_dir: Path) -> list[str]:
    return [
        str(SCHEMATHESIS),
        "--config-file",
        str(config_file),
        "run",
        f"{url}/openapi.json",
        "--checks",
        ",".join(CHECKS),
        "--max-examples",
        str(MAX_EXAMPLES),
        "--generation-deterministic",  # the same cases every run (and no example database): reproducible
        "--continue-on-failure",  # one finding must not hide the next on the same operation
        "--workers",
        "1",
        "--request-timeout",
        str(REQUEST_TIMEOUT_SECONDS),
        "--report",
        "junit",
        "--report-dir",
        str(report_dir),
        "--no-color",
    ]


def failures(role: str, junit: Path) -> tuple[set[str], list[Failure]]:
    """The operations tested, and every failure schemathesis reported, from its JUnit report."""
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    found, tested = [], set()
    for case in cases:
        tested.add(case.get("name", "?"))
        for failure in [*case.iter("failure"), *case.iter("error")]:
            check = failure.get("message", "?")
            found.append(Failure(role, case.get("name", "?"), check, failure.text or ""))
    return tested, found


ROLES = ("organiser", "player")


def run(url: str, workdir: Path, world: World | None = None, roles: tuple[str, ...] = ROLES) -> list[Run]:
    """Seed the stack (unless given a world), then run schemathesis once per role."""
    world = world or seed(url)
    runs = []
    for role in roles:
        config_file = workdir / f"schemathesis-{role}.toml"
        config_file.write_text(config(world, role), encoding="utf-8")
        report_dir = workdir / f"report-{role}"
        argv = command(url, config_file, report_dir)
        print("$ " + " ".join(argv), flush=True)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=1800, check=False)
        reports = sorted(report_dir.glob("junit*.xml"))
        if not reports:
            tail = done.stdout[-4000:] + done.stderr[-4000:]
            raise RuntimeError(f"schemathesis wrote no report (exit {done.returncode}):\n{tail}")
        tested, found = failures(role, reports[-1])
        runs.append(Run(role, argv, done.returncode, done.stdout, tested, found))
    return runs


def main() -> int:
    url = (sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000").rstrip("/")
    workdir = Path(".local/fuzz")
    workdir.mkdir(parents=True, exist_ok=True)
    runs = run(url, workdir)
    for done in runs:
        print(done.output)
    return 0 if all(not r.failures and r.exit_code == 0 for r in runs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
