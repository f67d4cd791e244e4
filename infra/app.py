"""The CDK app (cdk.json runs `python -m infra.app`): the Tavla stack, checked by cdk-nag."""

from __future__ import annotations

import os
import sys

import infra.quiet  # noqa: F401  (before aws_cdk: keeps jsii's Node banner out of the output)

# isort: split
from aws_cdk import App, Aspects
from aws_cdk import cx_api as cxapi
from cdk_nag import AwsSolutionsChecks

from infra.stack import TavlaStack

STACK_NAME = "Tavla"
OUTDIR = "cdk.out"


def build(outdir: str | None = None) -> tuple[App, TavlaStack]:
    """The app with its one stack and the AwsSolutions checks attached (run at synth)."""
    app = App(outdir=outdir)
    stack = TavlaStack(app, STACK_NAME)
    Aspects.of(app).add(AwsSolutionsChecks())
    return app, stack


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
