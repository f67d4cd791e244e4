"""The synthesized templates pass cfn-lint (CloudFormation's own resource specs), alongside cdk-nag.

cdk-nag judges practice (encryption, least privilege); cfn-lint judges whether CloudFormation
will accept the template: property types and values, references, runtimes, regional support.
No error and no warning passes, except the rules acknowledged below, each with its reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from aws_cdk import Token
from cfnlint.api import ManualArgs, lint_file

from infra.stages import from_cdk_json
from tests.infra.helpers import Synthesized, SynthesizedTemplate

pytestmark = pytest.mark.infra

REGIONS = [from_cdk_json()["prod"].region]  # the region the platform is deployed to (cdk.json)

ACKNOWLEDGED = {
    "W3005": "CDK's Lambda Function lists its role in DependsOn although its Role property already "
    "references it (GetAtt): CDK adds it itself, next to the role's default policy that the function "
    "must wait for, and offers no switch to leave it out; the redundant edge changes nothing.",
}


def test_template_passes_cfn_lint(every_stack: SynthesizedTemplate) -> None:
    """Each stage's regional and edge (us-east-1) templates, in the region they deploy to."""
    template = every_stack.outdir / every_stack.stack.template_file
    region = every_stack.stack.region
    regions = REGIONS if Token.is_unresolved(region) else [region]
    matches = lint_file(template, ManualArgs(regions=regions, ignore_checks=sorted(ACKNOWLEDGED)))
    assert [f"{m.rule.id} {m.message} at {'/'.join(map(str, m.path or []))}" for m in matches] == []


def test_cfn_lint_sees_a_broken_template(tmp_path: Path, real: Synthesized) -> None:
    """The check can fail: a Lambda runtime CloudFormation does not know is an error."""
    text = (real.outdir / real.stack.template_file).read_text(encoding="utf-8")
    broken = tmp_path / "broken.template.json"
    broken.write_text(text.replace('"Runtime": "python', '"Runtime": "cobol', 1), encoding="utf-8")
    matches = lint_file(broken, ManualArgs(regions=REGIONS, ignore_checks=sorted(ACKNOWLEDGED)))
    assert any(m.rule.id.startswith("E") for m in matches)


def test_every_acknowledgement_says_why() -> None:
    assert all(len(reason.split()) >= 12 for reason in ACKNOWLEDGED.values())
