"""The CDK app (cdk.json runs `python -m infra.app`): per stage, the regional Tavla stack and
its edge stack in us-east-1 (CloudFront's WAF), checked by cdk-nag.

`-c stage=dev` synthesizes that stage only (what `make deploy/diff/destroy` do); without it
every stage of cdk.json is synthesized (`make synth`, the tests).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass

import infra.quiet  # noqa: F401  (before aws_cdk: keeps jsii's Node banner out of the output)

# isort: split
from aws_cdk import App, Aspects, Environment
from aws_cdk import cx_api as cxapi
from cdk_nag import AwsSolutionsChecks

from infra.edge import EdgeStack
from infra.stack import TavlaStack
from infra.stages import CDK_JSON, EDGE_REGION, Stage, from_context

OUTDIR = "cdk.out"


@dataclass
class Deployment:
    """One stage's two stacks."""

    stage: Stage
    main: TavlaStack
    edge: EdgeStack


def add_stage(app: App, stage: Stage) -> Deployment:
    account = os.environ.get("CDK_DEFAULT_ACCOUNT")
    edge = EdgeStack(
        app,
        stage.edge_stack_name,
        stage=stage,
        env=Environment(account=account, region=EDGE_REGION),
        cross_region_references=True,
    )
    main = TavlaStack(
        app,
        stage.stack_name,
        stage=stage,
        web_acl_arn=edge.web_acl_arn,
        web_acl_metric=edge.metric_name,
        env=Environment(account=account, region=stage.region),
        cross_region_references=True,
    )
    return Deployment(stage, main, edge)


def build(
    outdir: str | None = None, context: dict[str, object] | None = None
) -> tuple[App, dict[str, Deployment]]:
    """The app with the chosen stage(s) and the AwsSolutions checks attached (run at synth)."""
    app = App(outdir=outdir, context=context)
    if app.node.try_get_context("stages") is None:  # run as `python -m infra.app`, not by the CLI:
        for key, value in json.loads(CDK_JSON.read_text(encoding="utf-8"))["context"].items():
            app.node.set_context(key, value)  # the same context (stages, feature flags) as the CLI's
    stages = from_context(
        {"region": app.node.get_context("region"), "stages": app.node.get_context("stages")}
    )
    chosen = app.node.try_get_context("stage")
    if chosen is not None and chosen not in stages:
        raise SystemExit(f"unknown stage {chosen!r}: cdk.json declares {sorted(stages)}")
    deployments = {name: add_stage(app, stage) for name, stage in stages.items() if chosen in (None, name)}
    Aspects.of(app).add(AwsSolutionsChecks())
    return app, deployments


def main() -> None:
    """Synthesize into cdk.out/ (the CLI passes its own outdir); fail on any error finding."""
    app, _ = build(outdir=None if "CDK_OUTDIR" in os.environ else OUTDIR)
    assembly = app.synth()
    errors = [
        f"{message.id}: {message.entry.data}"
        for stack in assembly.stacks
        for message in stack.messages
        if message.level == cxapi.SynthesisMessageLevel.ERROR
    ]
    if errors:
        sys.exit("\n".join(errors))


if __name__ == "__main__":
    main()
