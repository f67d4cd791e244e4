"""Synthesizes the app once per session: the real stack, and a stack of trigger-only
functions that exercises what the registry may not use yet (cron, one-time schedules).

Needs Node (jsii) and, the first time only, PyPI for the layer's wheels (cached in build/).
"""

from __future__ import annotations

import dataclasses

import pytest

import infra.quiet  # noqa: F401  (before aws_cdk)

# isort: split
from aws_cdk import assertions

from infra.app import build
from infra.registry import FUNCTIONS, Function, function
from infra.stack import TavlaStack
from tests.infra.helpers import Synthesized

# Functions that are triggered in every way the registry allows, on a handler module that
# exists (notify's); their names say which trigger they stand for.
_BASE = dataclasses.replace(function("notify"), events=(), sends_sms=False, sends_email=False)
TRIGGER_FUNCTIONS: tuple[Function, ...] = (
    dataclasses.replace(_BASE, name="noshow", scheduled=True),
    dataclasses.replace(_BASE, name="caller", schedules=("noshow",), publishes_events=True),
    dataclasses.replace(_BASE, name="rollup", cron="0 3 * * ? *", idempotent=True),
)


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Synthesized]:
    outdir = tmp_path_factory.mktemp("cdk.out")
    app, stack = build(outdir=str(outdir))
    triggers = TavlaStack(app, "TavlaTriggers", functions=TRIGGER_FUNCTIONS)
    app.synth()
    return {
        name: Synthesized(
            stack=s,
            functions=functions,
            template=assertions.Template.from_stack(s),
            annotations=assertions.Annotations.from_stack(s),
            outdir=outdir,
        )
        for name, s, functions in (("real", stack, FUNCTIONS), ("triggers", triggers, TRIGGER_FUNCTIONS))
    }


@pytest.fixture(scope="session", params=["real", "triggers"])
def each_stack(request: pytest.FixtureRequest, synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized[request.param]


@pytest.fixture(scope="session")
def real(synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized["real"]


@pytest.fixture(scope="session")
def triggers(synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized["triggers"]
