"""Cold start: what an HTTP function's init phase must not do (measured costs in
docs/performance.md and the CHANGELOG): import what only some requests need, build pydantic
validators, or leave the garbage collector off. A fresh interpreter imports each handler and
reports, so a new eager import fails here before `make bench` sees it. Nothing is timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from infra.registry import FUNCTIONS

# module -> why it stays out of the init phase
DEFERRED = {
    "aws_xray_sdk": "~0.18 s (builds a botocore session); active tracing and tavla.aws stand in",
    "aws_lambda_powertools.event_handler.openapi.models": "~0.1 s; only the OpenAPI document reads it",
    "aws_lambda_powertools.event_handler.openapi.params": "~0.15 s; loaded by the first request",
    "email_validator": "~35 ms; loaded by the first e-mail validated",
    "tavla.rules.profiles": "~60 ms; loaded by the requests that resolve rules",
    "aws_lambda_powertools.utilities.idempotency": "~0.1 s; loaded by requests with an Idempotency-Key",
    "networkx": "~0.5 s; loaded by the draws that pair by matching (Swiss, lives)",
    "tavla.rules.swiss": "networkx; loaded by the Swiss draws",
    "tavla.rules.lives": "networkx; loaded by the lives draws",
    "tavla.rules.match": "builds a validator at import; loaded by the requests that score a match",
    "tavla.rules.breaks": "builds each profile's break policy at import; loaded by a match's own screen",
    "tavla.services.prizes": "standings and the money service; loaded by the prize routes and the report",
    "tavla.services.statements": "loaded by the bank statements' routes",
    "tavla.services.unpaid": "reminders and schedules; loaded by a payment deadline set",
    "hypothesis": "a test library; never in a function",
    "moto": "a test library; never in a function",
}
# The draw algorithms: the functions whose requests read or make the draws load them at init;
# the others with the first request that moves the day on (a confirmation, a forfeit).
DRAW_ALGORITHMS = {
    "tavla.rules.day": "the draws' plan, flow and standings, and the formats below",
    "tavla.rules.double_elimination": "a format's draw",
    "tavla.rules.single_elimination": "a format's draw",
    "tavla.rules.round_robin": "a format's draw",
    "tavla.rules.side_brackets": "a format's draw",
    "tavla.rules.seeding": "a format's draw",
}
READ_THE_DRAWS = {"draw", "board", "finish"}
# Models and services some functions answer with: only those load them at init (a shared
# answer, such as the draw's commitment or the money figures, has a module of its own).
ONLY_IN = {
    "tavla.models.tournaments": ({"tournaments"}, "the tournament pages' 24 models"),
    "tavla.models.payments": ({"payments", "paywebhook"}, "27 money models and the statements' parsers"),
    "tavla.services.payments": ({"payments", "paywebhook"}, "the money service, card payments"),
    "tavla.card_payments": ({"payments", "paywebhook"}, "the card provider's models"),
}
# Rule and API models build their validators on first use (`RuleModel`, `ApiModel`); these few
# are built at import because a module makes a constant of them.
BUILT_AT_IMPORT = {
    "MatchPoints",
    "SideBracketPlan",
    "LivesTier",
    "FinalLivesRule",
    "LatenessPolicy",
    "PrivacyNotice",
}


# Run in a fresh interpreter: what every HTTP handler loads first is imported once, then each
# handler is imported in a fork of that process (a fresh interpreter per handler costs ~1.5 s).
_PROBE = """
import importlib, json, os, sys
import gc
import tavla.http
from pydantic import BaseModel
deferred, found = json.loads(sys.argv[1]), {}

def built():  # tavla's pydantic models whose validator exists already
    return sorted({
        c.__name__ for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("tavla")
        for c in vars(m).values()
        if isinstance(c, type) and issubclass(c, BaseModel) and c.__module__ == m.__name__
        and c.__pydantic_complete__
    })

for module in sys.argv[2:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(module)
            loaded = [m for m in deferred if m in sys.modules]
            os.write(write, json.dumps({"loaded": loaded, "built": built(), "gc": gc.isenabled()}).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        text = answer.read()
    os.waitpid(pid, 0)
    found[module] = json.loads(text) if text else "the import failed"
print(json.dumps(found))
"""


@pytest.mark.slow  # a fresh interpreter per handler
def test_no_http_handler_imports_what_only_some_requests_need() -> None:
    env = {**os.environ, "AWS_DEFAULT_REGION": "eu-central-1"}
    modules = [f.module for f in FUNCTIONS if f.http]
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(sorted(DEFERRED | DRAW_ALGORITHMS | ONLY_IN)), *modules],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert sorted(found) == sorted(modules), result.stderr
    for function in (f for f in FUNCTIONS if f.http):
        report = found[function.module]
        assert isinstance(report, dict), f"{function.name}: {report}"
        loaded = report["loaded"]
        if function.name in READ_THE_DRAWS:
            loaded = [m for m in loaded if m not in DRAW_ALGORITHMS]
        loaded = [m for m in loaded if function.name not in ONLY_IN.get(m, (set(), ""))[0]]
        why = DEFERRED | DRAW_ALGORITHMS | {m: reason for m, (_, reason) in ONLY_IN.items()}
        assert loaded == [], {m: why[m] for m in loaded} | {"function": function.name}
        eager = set(report["built"]) - BUILT_AT_IMPORT
        assert not eager, (
            f"{function.name} builds {sorted(eager)} at init: derive them from RuleModel or ApiModel"
        )
        assert report["gc"], f"{function.name}: the collector is still off after init (end with entry(app))"


_PLUGINS_PROBE = """
import functions
from pydantic.plugin import _loader
def scanned():
    raise AssertionError("pydantic read the installed distributions for plugins")
_loader.importlib_metadata.distributions = scanned
assert list(_loader.get_plugins()) == []
"""


def test_the_first_validator_looks_for_no_pydantic_plugin() -> None:
    """Pydantic's plugin search reads every installed distribution's entry points when a process
    builds its first validator: tens of ms of a cold start, for plugins tavla does not use."""
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    result = subprocess.run([sys.executable, "-c", _PLUGINS_PROBE], env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
