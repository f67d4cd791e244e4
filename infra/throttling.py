"""API Gateway throttling per route class, with the limits of the stage.

Every route of the registry falls in one class (`infra.stages.route_class`): public reads
(board, standings, calendar: mostly answered by CloudFront anyway), signed-in reads, and
writes (registrations, results, draws). The stage's default applies to any route not
listed; each route gets its class's rate and burst as a route setting of the stage.
"""

from __future__ import annotations

from aws_cdk import aws_apigatewayv2 as apigwv2
from constructs import Construct

from infra.registry import Function
from infra.stages import Stage, route_class


def route_settings(stage: Stage, functions: tuple[Function, ...]) -> dict[str, dict[str, int]]:
    """Route key ("POST /tournaments") -> its class's limits, for every registry route."""
    settings = {}
    for spec in functions:
        for route in spec.routes():
            limits = stage.throttle(route_class(route.method, route.public))
            settings[f"{route.method} {route.path}"] = {
                "ThrottlingRateLimit": limits.rate,
                "ThrottlingBurstLimit": limits.burst,
            }
    return settings


def apply(http_stage: apigwv2.HttpStage, stage: Stage, functions: tuple[Function, ...]) -> None:
    """Set the stage's default limits and each route's class limits on the HTTP API stage."""
    cfn = http_stage.node.default_child
    assert isinstance(cfn, apigwv2.CfnStage)
    default = stage.throttle("default")
    cfn.default_route_settings = apigwv2.CfnStage.RouteSettingsProperty(
        throttling_rate_limit=default.rate,
        throttling_burst_limit=default.burst,
    )
    cfn.route_settings = route_settings(stage, functions)
    # A route setting may only name a route that exists: the stage waits for every route.
    api = http_stage.api
    assert isinstance(api, Construct)
    for child in api.node.children:
        if isinstance(child, apigwv2.HttpRoute):
            http_stage.node.add_dependency(child)
