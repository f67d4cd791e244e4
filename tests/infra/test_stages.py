"""the stages of cdk.json as synthesized. Prod keeps and protects its data, logs for
a year, backs its tables up and watches every function; dev can be destroyed; both throttle
per route class and sit behind the us-east-1 web ACL with their own limits."""

from __future__ import annotations

from typing import Any

import pytest

from infra.edge import MANAGED_RULE_GROUPS, RATE_RULE
from infra.stages import Stage, from_cdk_json, from_context, route_class
from tests.infra.conftest import PROD_CERTIFICATE, PROD_DOMAIN, Synthesis
from tests.infra.helpers import Synthesized

pytestmark = pytest.mark.infra

STAGES = from_cdk_json()


def _of_type(synth: Synthesized, kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in synth.resources.items() if r["Type"] == kind}


def test_prod_keeps_and_protects_tables_user_pool_and_logs(prod: Synthesized) -> None:
    tables = _of_type(prod, "AWS::DynamoDB::Table")
    assert tables
    for table in tables.values():
        assert table["DeletionPolicy"] == "Retain" and table["UpdateReplacePolicy"] == "Retain"
        assert table["Properties"]["DeletionProtectionEnabled"] is True
        assert table["Properties"]["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    (pool,) = _of_type(prod, "AWS::Cognito::UserPool").values()
    assert pool["DeletionPolicy"] == "Retain" and pool["Properties"]["DeletionProtection"] == "ACTIVE"
    logs = _of_type(prod, "AWS::Logs::LogGroup")
    assert len(logs) >= len(prod.functions)
    for group in logs.values():
        assert group["DeletionPolicy"] == "Retain"
        assert group["Properties"]["RetentionInDays"] == STAGES["prod"].log_retention_days


def test_dev_can_be_destroyed_and_keeps_logs_briefly(real: Synthesized) -> None:
    for table in _of_type(real, "AWS::DynamoDB::Table").values():
        assert table["DeletionPolicy"] == "Delete"
        assert table["Properties"]["DeletionProtectionEnabled"] is False
        assert table["Properties"]["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    (pool,) = _of_type(real, "AWS::Cognito::UserPool").values()
    assert pool["Properties"]["DeletionProtection"] == "INACTIVE"
    for group in _of_type(real, "AWS::Logs::LogGroup").values():
        assert group["Properties"]["RetentionInDays"] == STAGES["dev"].log_retention_days
    assert not _of_type(real, "AWS::Backup::BackupPlan")


def test_prod_backs_up_every_table_daily_and_monthly(prod: Synthesized) -> None:
    (plan,) = _of_type(prod, "AWS::Backup::BackupPlan").values()
    rules = {r["RuleName"]: r for r in plan["Properties"]["BackupPlan"]["BackupPlanRule"]}
    assert rules["Daily"]["Lifecycle"]["DeleteAfterDays"] == 35
    assert rules["Monthly"]["Lifecycle"]["DeleteAfterDays"] == 365
    (selection,) = _of_type(prod, "AWS::Backup::BackupSelection").values()
    selected = {r["Fn::GetAtt"][0] for r in selection["Properties"]["BackupSelection"]["Resources"]}
    assert selected == set(_of_type(prod, "AWS::DynamoDB::Table"))


@pytest.fixture(params=["dev", "prod"])
def staged(request: pytest.FixtureRequest, synthesized: dict[str, Synthesized]) -> tuple[Synthesized, Stage]:
    """Each stage's regional stack, with its stage as cdk.json declares it."""
    return synthesized["real" if request.param == "dev" else "prod"], STAGES[request.param]


def test_every_function_table_and_schedule_is_watched_and_alarms_reach_the_stage_email(
    staged: tuple[Synthesized, Stage],
) -> None:
    synth, stage = staged
    topic = synth.logical_id(synth.stack.alarms.topic)
    alarms = list(_of_type(synth, "AWS::CloudWatch::Alarm").values())
    assert all(a["Properties"]["AlarmActions"] == [{"Ref": topic}] for a in alarms)

    def watched(metric: str) -> set[str]:
        """The functions whose `metric` an alarm reads, alone or in its metric math."""
        read = [
            m
            for a in alarms
            for m in (
                [a["Properties"]]
                if "MetricName" in a["Properties"]
                else [
                    q["MetricStat"]["Metric"] for q in a["Properties"].get("Metrics", []) if "MetricStat" in q
                ]
            )
        ]
        return {
            m["Dimensions"][0]["Value"]["Ref"]
            for m in read
            if m.get("MetricName") == metric and m.get("Namespace") == "AWS/Lambda"
        }

    functions = {synth.logical_id(synth.stack.lambdas.by_name[f.name]) for f in synth.functions}
    assert watched("Errors") == watched("Throttles") == watched("Duration") == functions
    by_function = {synth.logical_id(synth.stack.lambdas.by_name[f.name]): f for f in synth.functions}
    for alarm in alarms:
        if alarm["Properties"].get("MetricName") == "Duration":
            spec = by_function[alarm["Properties"]["Dimensions"][0]["Value"]["Ref"]]
            limit = 0.8 * spec.timeout_seconds * 1000  # asynchronous: near its timeout
            if spec.http:  # callers wait: the stage's limit
                limit = min(limit, stage.p99_latency_ms)
            assert alarm["Properties"]["ExtendedStatistic"] == "p99"
            assert alarm["Properties"]["Threshold"] == int(limit)
    expressions = [
        m.get("Expression", "")
        for a in alarms
        for m in a["Properties"].get("Metrics", [])
        if "Expression" in m
    ]
    assert expressions.count("reads + writes") == len(_of_type(synth, "AWS::DynamoDB::Table"))
    assert "errors + dropped + undelivered" in expressions
    # every state machine (the full rebuild) alarms when an execution does not succeed
    machines = _of_type(synth, "AWS::StepFunctions::StateMachine")
    assert machines and expressions.count("failed + timedout + aborted") == len(machines)
    (subscription,) = _of_type(synth, "AWS::SNS::Subscription").values()
    assert subscription["Properties"] == {
        "Protocol": "email",
        "TopicArn": {"Ref": topic},
        "Endpoint": stage.alarm_email,
    }
    (budget,) = _of_type(synth, "AWS::Budgets::Budget").values()
    assert budget["Properties"]["Budget"]["BudgetLimit"] == {
        "Amount": stage.monthly_budget_usd,
        "Unit": "USD",
    }
    assert _of_type(synth, "AWS::CloudWatch::Dashboard")


def test_each_route_is_throttled_by_its_class_with_the_stage_limits(
    staged: tuple[Synthesized, Stage],
) -> None:
    synth, stage = staged
    (api_stage,) = _of_type(synth, "AWS::ApiGatewayV2::Stage").values()
    settings = api_stage["Properties"]["RouteSettings"]
    routes = [r for f in synth.functions for r in f.routes()]
    assert set(settings) == {f"{r.method} {r.path}" for r in routes}
    for route in routes:
        limits = stage.throttle(route_class(route.method, route.public))
        assert settings[f"{route.method} {route.path}"] == {
            "ThrottlingRateLimit": limits.rate,
            "ThrottlingBurstLimit": limits.burst,
        }
    default = api_stage["Properties"]["DefaultRouteSettings"]
    assert default["ThrottlingRateLimit"] == stage.throttle("default").rate


@pytest.mark.parametrize("name", ["dev", "prod"])
def test_cloudfront_sits_behind_the_us_east_1_web_acl_with_the_stage_rate_limit(
    synthesis: Synthesis, name: str
) -> None:
    deployment = synthesis.deployments[name]
    edge = synthesis.every[f"{name}-edge"]
    assert deployment.edge.region == "us-east-1"
    (acl,) = [r for r in edge.resources.values() if r["Type"] == "AWS::WAFv2::WebACL"]
    assert acl["Properties"]["Scope"] == "CLOUDFRONT"
    rules = {r["Name"]: r for r in acl["Properties"]["Rules"]}
    assert rules[RATE_RULE]["Statement"]["RateBasedStatement"]["Limit"] == STAGES[name].waf_rate_limit
    assert set(MANAGED_RULE_GROUPS) <= set(rules)
    main = synthesis.regional["real" if name == "dev" else "prod"]
    (distribution,) = _of_type(main, "AWS::CloudFront::Distribution").values()
    assert "WebACLId" in distribution["Properties"]["DistributionConfig"]


def test_a_stage_with_a_domain_serves_it_with_its_certificate_and_tls_1_2(prod: Synthesized) -> None:
    (distribution,) = _of_type(prod, "AWS::CloudFront::Distribution").values()
    config = distribution["Properties"]["DistributionConfig"]
    assert config["Aliases"] == [PROD_DOMAIN]
    assert config["ViewerCertificate"]["AcmCertificateArn"] == PROD_CERTIFICATE
    assert config["ViewerCertificate"]["MinimumProtocolVersion"].startswith("TLSv1.2")


def test_a_stage_missing_a_setting_or_with_an_unknown_one_is_refused() -> None:
    import json

    from infra.stages import CDK_JSON

    context = json.loads(CDK_JSON.read_text())["context"]
    del context["stages"]["dev"]["alarm_email"]
    with pytest.raises(ValueError, match="alarm_email"):
        from_context(context)
    context = json.loads(CDK_JSON.read_text())["context"]
    context["stages"]["prod"]["domain"] = "tavla.example"  # without its certificate
    with pytest.raises(ValueError, match="certificate"):
        from_context(context)


def test_make_destroy_refuses_prod() -> None:
    import subprocess

    from infra.assets import ROOT

    result = subprocess.run(
        ["make", "--no-print-directory", "destroy", "STAGE=prod", "CDK=false"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0 and "protected" in result.stderr
