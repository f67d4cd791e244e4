"""Synthesizes the app once per session: every stage of cdk.json (its regional stack and its
us-east-1 edge stack), and a stack of trigger-only functions that exercises what the
registry may not use yet (cron, one-time schedules).

Needs Node (jsii) and, the first time only, PyPI for the layer's wheels (cached in build/).
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import infra.quiet  # noqa: F401  (before aws_cdk)

# isort: split
from aws_cdk import Stack, assertions

from infra.app import Deployment, build
from infra.registry import FUNCTIONS, Function, function
from infra.stack import TavlaStack
from infra.stages import CDK_JSON
from tests.infra.helpers import Synthesized, SynthesizedTemplate

# Functions that are triggered in every way the registry allows, on a handler module that
# exists (notify's); their names say which trigger they stand for.
_BASE = dataclasses.replace(function("notify"), events=(), sends_sms=False, sends_email=False)
TRIGGER_FUNCTIONS: tuple[Function, ...] = (
    dataclasses.replace(_BASE, name="noshow", scheduled=True),
    dataclasses.replace(_BASE, name="caller", schedules=("noshow",), publishes_events=True),
    dataclasses.replace(_BASE, name="rollup", cron="0 3 * * ? *", idempotent=True),
)
# The prod stage as cdk.json has it, plus a domain of its own: the path a federation takes.
PROD_DOMAIN = "tavla.federation.example"
PROD_CERTIFICATE = "arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000"


def _with_prod_domain() -> dict[str, object]:
    stages = json.loads(CDK_JSON.read_text(encoding="utf-8"))["context"]
    stages["stages"]["prod"] |= {"domain": PROD_DOMAIN, "certificate_arn": PROD_CERTIFICATE}
    return dict(stages)


@dataclasses.dataclass
class Synthesis:
    deployments: dict[str, Deployment]
    regional: dict[str, Synthesized]  # real (= dev), prod, triggers
    every: dict[str, SynthesizedTemplate]  # the above and the edge stacks


@pytest.fixture(scope="session")
def synthesis(tmp_path_factory: pytest.TempPathFactory) -> Synthesis:
    outdir = tmp_path_factory.mktemp("cdk.out")
    app, deployments = build(outdir=str(outdir), context=_with_prod_domain())
    triggers = TavlaStack(app, "TavlaTriggers", functions=TRIGGER_FUNCTIONS)
    app.synth()

    def regional(stack: TavlaStack, functions: tuple[Function, ...]) -> Synthesized:
        return Synthesized(
            stack=stack,
            functions=functions,
            template=assertions.Template.from_stack(stack),
            annotations=assertions.Annotations.from_stack(stack),
            outdir=outdir,
        )

    def template(stack: Stack) -> SynthesizedTemplate:
        return SynthesizedTemplate(
            stack=stack,
            template=assertions.Template.from_stack(stack),
            annotations=assertions.Annotations.from_stack(stack),
            outdir=outdir,
        )

    found = {
        "real": regional(deployments["dev"].main, FUNCTIONS),
        "prod": regional(deployments["prod"].main, FUNCTIONS),
        "triggers": regional(triggers, TRIGGER_FUNCTIONS),
    }
    edges = {f"{name}-edge": template(d.edge) for name, d in deployments.items()}
    return Synthesis(deployments, found, {**found, **edges})


@pytest.fixture(scope="session")
def synthesized(synthesis: Synthesis) -> dict[str, Synthesized]:
    return synthesis.regional


@pytest.fixture(scope="session", params=["real", "triggers"])
def each_stack(request: pytest.FixtureRequest, synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized[request.param]


@pytest.fixture(scope="session", params=["real", "prod", "triggers", "dev-edge", "prod-edge"])
def every_stack(request: pytest.FixtureRequest, synthesis: Synthesis) -> SynthesizedTemplate:
    """Every template the app deploys (each stage's two stacks) and the trigger stack."""
    return synthesis.every[request.param]


@pytest.fixture(scope="session")
def real(synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized["real"]


@pytest.fixture(scope="session")
def prod(synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized["prod"]


@pytest.fixture(scope="session")
def triggers(synthesized: dict[str, Synthesized]) -> Synthesized:
    return synthesized["triggers"]
