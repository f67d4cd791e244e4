"""Every stack (each stage's regional and edge stacks, the trigger stack) passes cdk-nag's
AwsSolutions checks; every acknowledgement says why."""

from __future__ import annotations

import pytest
from aws_cdk.assertions import Match

from infra.stack import TavlaStack
from tests.infra.helpers import SynthesizedTemplate

pytestmark = pytest.mark.infra

MIN_REASON_WORDS = 12


def test_no_unacknowledged_aws_solutions_findings(every_stack: SynthesizedTemplate) -> None:
    findings = Match.string_like_regexp("AwsSolutions-.*")
    errors = every_stack.annotations.find_error("*", findings)
    warnings = every_stack.annotations.find_warning("*", findings)
    assert [e.entry.data for e in errors] == []
    assert [w.entry.data for w in warnings] == []


def test_every_acknowledgement_carries_a_specific_reason(every_stack: SynthesizedTemplate) -> None:
    suppressions = [
        suppression
        for resource in every_stack.resources.values()
        for suppression in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", [])
    ]
    if isinstance(every_stack.stack, TavlaStack):  # the edge stacks need no acknowledgement
        assert suppressions, "the stack is expected to acknowledge a few findings"
    reasons_by_rule: dict[str, set[str]] = {}
    for suppression in suppressions:
        assert suppression["id"].startswith("AwsSolutions-")
        assert len(suppression["reason"].split()) >= MIN_REASON_WORDS, suppression
        reasons_by_rule.setdefault(suppression["reason"], set()).add(suppression["id"])
    # one reason never stands for several different rules: each says why for its own finding
    assert all(len(rules) == 1 for rules in reasons_by_rule.values()), reasons_by_rule


def test_wildcard_acknowledgements_name_the_wildcard(every_stack: SynthesizedTemplate) -> None:
    """IAM5 is acknowledged per wildcard (appliesTo), never for a whole policy."""
    for resource in every_stack.resources.values():
        for suppression in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", []):
            if suppression["id"] == "AwsSolutions-IAM5":
                assert suppression.get("applies_to"), suppression
