"""The edge stack, in us-east-1: the WAF web ACL in front of CloudFront.

A web ACL for a CloudFront distribution must be created in us-east-1 (scope CLOUDFRONT),
whatever region the rest of the platform runs in. It lives in this small stack of its own;
the regional stack receives its ARN through CDK's cross-region references (an SSM parameter
written into the regional stack's region by a custom resource, read back with a dynamic
reference), so one `cdk deploy --all` deploys both in the right order.

Rules, in order: a rate-based rule per client IP (the stage's `waf_rate_limit` requests per
five minutes), then AWS's managed groups: the IP reputation list, known bad inputs, and the
common rule set (its 8 KB body limit is far above any Tavla request body).
"""

from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_wafv2 as wafv2
from constructs import Construct

from infra.stages import Stage

MANAGED_RULE_GROUPS = (
    "AWSManagedRulesAmazonIpReputationList",
    "AWSManagedRulesKnownBadInputsRuleSet",
    "AWSManagedRulesCommonRuleSet",
)
RATE_RULE = "RatePerIp"


def _visibility(name: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
    return wafv2.CfnWebACL.VisibilityConfigProperty(
        cloud_watch_metrics_enabled=True, metric_name=name, sampled_requests_enabled=True
    )


class EdgeStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, *, stage: Stage, **kwargs: object) -> None:
        super().__init__(
            scope,
            construct_id,
            description=f"Tavla {stage.name}: the WAF web ACL in front of CloudFront (us-east-1)",
            **kwargs,  # type: ignore[arg-type]
        )
        self.metric_name = f"{stage.stack_name}-web-acl"
        rules = [
            wafv2.CfnWebACL.RuleProperty(
                name=RATE_RULE,
                priority=0,
                action=wafv2.CfnWebACL.RuleActionProperty(block={}),
                statement=wafv2.CfnWebACL.StatementProperty(
                    rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                        aggregate_key_type="IP", limit=stage.waf_rate_limit, evaluation_window_sec=300
                    )
                ),
                visibility_config=_visibility(RATE_RULE),
            )
        ]
        for priority, group in enumerate(MANAGED_RULE_GROUPS, start=1):
            rules.append(
                wafv2.CfnWebACL.RuleProperty(
                    name=group,
                    priority=priority,
                    override_action=wafv2.CfnWebACL.OverrideActionProperty(none={}),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                            vendor_name="AWS", name=group
                        )
                    ),
                    visibility_config=_visibility(group),
                )
            )
        self.web_acl = wafv2.CfnWebACL(
            self,
            "WebAcl",
            scope="CLOUDFRONT",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            description=f"Tavla {stage.name}: rate limit per IP and AWS managed rule groups",
            rules=rules,
            visibility_config=_visibility(self.metric_name),
        )

    @property
    def web_acl_arn(self) -> str:
        return self.web_acl.attr_arn
