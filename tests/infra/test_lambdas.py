"""One Lambda per registry function: arm64, the current Python runtime, JSON logs into its
own retained log group, active tracing, sized as the registry says."""

from __future__ import annotations

import pytest

from infra.lambdas import RUNTIME
from tests.infra.helpers import Synthesized, as_list, statements

pytestmark = pytest.mark.infra


# CDK's own custom resource providers (the cross-region reference reader of the edge
# stack, the site upload's BucketDeployment) are functions of the stack but not of the platform.
CDK_PROVIDERS = ("CustomResourceProviderHandler", "CustomCDKBucketDeployment")


def test_one_function_per_registry_entry(each_stack: Synthesized) -> None:
    count = sum(
        1
        for logical_id, r in each_stack.resources.items()
        if r["Type"] == "AWS::Lambda::Function" and not any(p in logical_id for p in CDK_PROVIDERS)
    )
    assert count == len(each_stack.functions)


def test_functions_run_on_arm64_python_with_json_logs_into_their_own_log_group(
    each_stack: Synthesized,
) -> None:
    layer_id = each_stack.logical_id(each_stack.stack.lambdas.layer)
    log_groups = set()
    for spec in each_stack.functions:
        props = each_stack.resources[each_stack.logical_id(each_stack.stack.lambdas.by_name[spec.name])][
            "Properties"
        ]
        assert props["Architectures"] == ["arm64"]
        assert props["Runtime"] == RUNTIME.name and RUNTIME.name.startswith("python3.")
        assert props["Handler"] == spec.handler
        assert props["MemorySize"] == spec.memory_mb and props["Timeout"] == spec.timeout_seconds
        assert props["TracingConfig"] == {"Mode": "Active"}
        assert props["Layers"] == [{"Ref": layer_id}]
        assert props["LoggingConfig"]["LogFormat"] == "JSON"
        log_group = props["LoggingConfig"]["LogGroup"]["Ref"]
        assert each_stack.resources[log_group]["Type"] == "AWS::Logs::LogGroup"
        assert each_stack.resources[log_group]["Properties"]["RetentionInDays"] > 0
        assert props["Environment"]["Variables"]["POWERTOOLS_SERVICE_NAME"] == "tavla"
        assert props["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"] == "Tavla"
        assert "POWERTOOLS_TRACE_DISABLED" not in props["Environment"]["Variables"]
        log_groups.add(log_group)
    assert len(log_groups) == len(each_stack.functions)


def test_every_function_may_send_its_traces_to_x_ray(real: Synthesized) -> None:
    for spec in real.functions:
        assert {"xray:PutTraceSegments", "xray:PutTelemetryRecords"} <= {
            action for statement in statements(real, spec.name) for action in as_list(statement["Action"])
        }
