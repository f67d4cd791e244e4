"""The HTTP API: every route the registry's functions declare, and nothing else.

A route that its resolver marks as signed-in gets the Cognito JWT authorizer; a public one
gets none. The stage logs every request as JSON and throttles by default.
"""

from __future__ import annotations

import json

import jsii
from aws_cdk import aws_apigateway as apigateway
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_authorizers as authorizers
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_logs as logs
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.auth import Auth
from infra.lambdas import LOG_RETENTION, Lambdas

RATE_LIMIT = 200  # requests per second across the API, steady state
# What a page on another origin may read of an answer beyond the CORS-safelisted headers
# (Last-Modified and Cache-Control are among those): the ETag to revalidate with, the Date the
# screens keep as the platform's clock, how long a 503 `busy` asks to wait.
EXPOSED_HEADERS = ["Date", "ETag", "Retry-After"]
ALLOWED_HEADERS = ["Authorization", "Content-Type"]
BURST_LIMIT = 400

# HTTP API access log fields ($context variables HTTP APIs support).
ACCESS_LOG_FIELDS = {
    "requestId": "$context.requestId",
    "ip": "$context.identity.sourceIp",
    "requestTime": "$context.requestTime",
    "routeKey": "$context.routeKey",
    "status": "$context.status",
    "protocol": "$context.protocol",
    "responseLength": "$context.responseLength",
    "latency": "$context.responseLatency",
    "integrationError": "$context.integrationErrorMessage",
    "authorizerError": "$context.authorizer.error",
}


@jsii.implements(apigwv2.IAccessLogSettings)
class _AccessLog:
    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigateway.AccessLogFormat:
        return apigateway.AccessLogFormat.custom(json.dumps(ACCESS_LOG_FIELDS))


class Api(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        lambdas: Lambdas,
        auth: Auth,
    ) -> None:
        super().__init__(scope, construct_id)
        functions, by_name = lambdas.specs, lambdas.by_name
        self.http_api = apigwv2.HttpApi(
            self,
            "Http",
            api_name="tavla",
            description="Tavla HTTP API",
            create_default_stage=False,
            cors_preflight=apigwv2.CorsPreflightOptions(
                allow_origins=["*"],  # bearer tokens, no cookies: any origin may call
                allow_headers=ALLOWED_HEADERS,
                allow_methods=[apigwv2.CorsHttpMethod.ANY],
                expose_headers=EXPOSED_HEADERS,
            ),
        )
        access_logs = logs.LogGroup(self, "AccessLogs", retention=LOG_RETENTION)
        self.stage = apigwv2.HttpStage(
            self,
            "DefaultStage",
            http_api=self.http_api,
            stage_name="$default",
            auto_deploy=True,
            access_log_settings=_AccessLog(access_logs),
            throttle=apigwv2.ThrottleSettings(rate_limit=RATE_LIMIT, burst_limit=BURST_LIMIT),
        )
        signed_in = authorizers.HttpUserPoolAuthorizer(
            "Jwt", auth.user_pool, user_pool_clients=list(auth.clients)
        )
        public = apigwv2.HttpNoneAuthorizer()
        for spec in functions:
            routes = spec.routes()
            if not routes:
                continue
            # one invoke permission per function for this API, not one per route: 100 routes
            # would otherwise be 100 resources of the stack's 500
            integration = integrations.HttpLambdaIntegration(
                f"{spec.name.capitalize()}", by_name[spec.name], scope_permission_to_route=False
            )
            for route in routes:
                added = self.http_api.add_routes(
                    path=route.path,
                    methods=[apigwv2.HttpMethod(route.method)],
                    integration=integration,
                    authorizer=public if route.public else signed_in,
                )
                if route.public:
                    for public_route in added:
                        NagSuppressions.add_resource_suppressions(
                            public_route,
                            [
                                {
                                    "id": "AwsSolutions-APIG4",
                                    "reason": f"{route.method} {route.path} is public by the API "
                                    "contract: its handler declares no sign-in, serves anonymous "
                                    "callers and never returns private fields.",
                                }
                            ],
                            apply_to_children=True,
                        )

    @property
    def url(self) -> str:
        return self.stage.url
