"""One Lambda function per registry function, all sharing the rules layer.

Each function gets its own role (no managed policies: it may write to its own log group and
nothing else until the other constructs grant what the registry declares), its own log group
with a retention, JSON logs, active X-Ray tracing (whose role grant CDK adds) and the
Powertools settings `tavla.observability` reads; metrics go out as EMF log lines, so they
need no permission beyond writing the log group.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from cdk_nag import NagSuppressions
from constructs import Construct

from infra import assets
from infra.registry import Function

# The newest runtime whose bytecode the build can compile: a `.pyc` of another minor version
# is ignored, and then every cold start compiles the layer from source (docs/performance.md).
RUNTIME = lambda_.Runtime.PYTHON_3_13
# What cdk-nag asks for (the newest Python runtime CDK knows); see the suppression below.
NEWEST_PYTHON = getattr(
    lambda_.Runtime,
    max((n for n in dir(lambda_.Runtime) if n.startswith("PYTHON_3_")), key=lambda n: int(n.split("_")[2])),
)
ARCHITECTURE = lambda_.Architecture.ARM_64
LOG_RETENTION = logs.RetentionDays.THREE_MONTHS
SERVICE_NAME = "tavla"
METRICS_NAMESPACE = "Tavla"  # CloudWatch namespace of the EMF metrics (tavla.observability)


def runtime_python_version() -> str:
    """The Python version the layer's wheels are chosen for: 3.14 for python3.14."""
    return RUNTIME.name.removeprefix("python")


class Lambdas(Construct):
    """The functions, by registry name; triggers, grants and environment come from elsewhere."""

    def __init__(self, scope: Construct, construct_id: str, functions: tuple[Function, ...]) -> None:
        super().__init__(scope, construct_id)
        self.layer = lambda_.LayerVersion(
            self,
            "RulesLayer",
            code=lambda_.Code.from_asset(str(assets.layer_dir(runtime_python_version()))),
            compatible_runtimes=[RUNTIME],
            compatible_architectures=[ARCHITECTURE],
            description="The tavla rules library and its third-party runtime dependencies",
        )
        self.specs = functions
        self.by_name: dict[str, lambda_.Function] = {f.name: self._function(f) for f in functions}

    def _function(self, spec: Function) -> lambda_.Function:
        scope = Construct(self, spec.name.capitalize())
        log_group = logs.LogGroup(scope, "Logs", retention=LOG_RETENTION)
        role = iam.Role(
            scope,
            "Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"The {spec.name} function's role",
        )
        log_group.grant_write(role)
        function = lambda_.Function(
            scope,
            "Function",
            description=spec.description,
            runtime=RUNTIME,
            architecture=ARCHITECTURE,
            handler=spec.handler,
            code=lambda_.Code.from_asset(str(assets.function_dir(spec.module, runtime_python_version()))),
            layers=[self.layer],
            memory_size=spec.memory_mb,
            reserved_concurrent_executions=spec.reserved_concurrency,
            timeout=Duration.seconds(spec.timeout_seconds),
            tracing=lambda_.Tracing.ACTIVE,
            logging_format=lambda_.LoggingFormat.JSON,
            log_group=log_group,
            role=role,
            environment={
                "POWERTOOLS_SERVICE_NAME": SERVICE_NAME,
                "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
            },
        )
        if RUNTIME.name != NEWEST_PYTHON.name:
            NagSuppressions.add_resource_suppressions(
                function,
                [
                    {
                        "id": "AwsSolutions-L1",
                        "reason": f"{RUNTIME.name}, not {NEWEST_PYTHON.name}: the newest runtime whose "
                        "bytecode the build compiles; without it every cold start compiles the layer "
                        "from source (docs/decisions/0001-bytecode-python-3-13-runtime.md).",
                    }
                ],
            )
        NagSuppressions.add_resource_suppressions(
            role,
            [
                {
                    "id": "AwsSolutions-IAM5",
                    "reason": "X-Ray's PutTraceSegments and PutTelemetryRecords support no "
                    "resource-level permissions: active tracing needs Resource '*'.",
                    "appliesTo": ["Resource::*"],
                }
            ],
            apply_to_children=True,
        )
        return function
