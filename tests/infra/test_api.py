"""The HTTP API serves exactly the registry's routes, signed-in ones behind the Cognito JWT."""

from __future__ import annotations

import pytest

from infra.registry import FUNCTIONS
from tests.infra.helpers import Synthesized, render

pytestmark = pytest.mark.infra


def _authorizer_id(real: Synthesized) -> str:
    (authorizer_id,) = [k for k, r in real.resources.items() if r["Type"] == "AWS::ApiGatewayV2::Authorizer"]
    return authorizer_id


def test_every_registry_route_exists_with_its_authorization_and_no_other(real: Synthesized) -> None:
    authorizer = _authorizer_id(real)
    expected = {
        f"{route.method} {route.path}": "NONE" if route.public else "JWT"
        for spec in FUNCTIONS
        for route in spec.routes()
    }
    actual = {}
    for resource in real.resources.values():
        if resource["Type"] != "AWS::ApiGatewayV2::Route":
            continue
        props = resource["Properties"]
        actual[props["RouteKey"]] = props["AuthorizationType"]
        if props["AuthorizationType"] == "JWT":
            assert props["AuthorizerId"] == {"Ref": authorizer}
        else:
            assert "AuthorizerId" not in props
    assert actual == expected
    assert "JWT" in actual.values() and "NONE" in actual.values()


def test_the_local_stacks_own_routes_do_not_exist_in_the_cloud(real: Synthesized) -> None:
    """`/dev/...` (tokens, the clock, DynamoDB write faults) are the local stack's alone."""
    keys = [
        r["Properties"]["RouteKey"]
        for r in real.resources.values()
        if r["Type"] == "AWS::ApiGatewayV2::Route"
    ]
    assert keys and not [k for k in keys if k.split(" ")[-1].startswith("/dev/")]
    assert "POST /dev/faults" not in keys and "$default" not in keys  # nothing catches it either


def test_each_route_invokes_the_function_that_declares_it(real: Synthesized) -> None:
    integration_target = {
        key: render(r["Properties"]["IntegrationUri"])
        for key, r in real.resources.items()
        if r["Type"] == "AWS::ApiGatewayV2::Integration"
    }
    routes = {
        r["Properties"]["RouteKey"]: r["Properties"]["Target"]["Fn::Join"][1][1]["Ref"]
        for r in real.resources.values()
        if r["Type"] == "AWS::ApiGatewayV2::Route"
    }
    for spec in FUNCTIONS:
        function_arn = f"<{real.logical_id(real.stack.lambdas.by_name[spec.name])}.Arn>"
        for route in spec.routes():
            assert integration_target[routes[f"{route.method} {route.path}"]] == function_arn


def test_jwt_authorizer_trusts_the_user_pool_and_its_app_clients(real: Synthesized) -> None:
    """The app client (SRP, the smoke test) and the web client (hosted UI), no other."""
    props = real.resources[_authorizer_id(real)]["Properties"]
    pool = real.logical_id(real.stack.auth.user_pool)
    client = real.logical_id(real.stack.auth.client)
    web = real.logical_id(real.stack.auth.web_client)
    assert props["AuthorizerType"] == "JWT"
    assert props["IdentitySource"] == ["$request.header.Authorization"]
    assert pool in render(props["JwtConfiguration"]["Issuer"])
    assert props["JwtConfiguration"]["Audience"] == [{"Ref": client}, {"Ref": web}]


def test_stage_logs_access_and_throttles(real: Synthesized) -> None:
    (stage,) = [r["Properties"] for r in real.resources.values() if r["Type"] == "AWS::ApiGatewayV2::Stage"]
    assert stage["StageName"] == "$default" and stage["AutoDeploy"] is True
    assert "$context.requestId" in stage["AccessLogSettings"]["Format"]
    log_group = stage["AccessLogSettings"]["DestinationArn"]["Fn::GetAtt"][0]
    assert real.resources[log_group]["Properties"]["RetentionInDays"] > 0
    throttle = stage["DefaultRouteSettings"]
    assert throttle["ThrottlingRateLimit"] > 0 and throttle["ThrottlingBurstLimit"] > 0


def test_user_pool_signs_up_by_email_with_strong_passwords_and_has_platform_groups(real: Synthesized) -> None:
    pool = real.resources[real.logical_id(real.stack.auth.user_pool)]["Properties"]
    assert pool["AdminCreateUserConfig"]["AllowAdminCreateUserOnly"] is False
    assert pool["UsernameAttributes"] == ["email"]
    policy = pool["Policies"]["PasswordPolicy"]
    assert policy["MinimumLength"] >= 12
    assert all(
        policy[k] for k in ("RequireLowercase", "RequireUppercase", "RequireNumbers", "RequireSymbols")
    )
    assert pool["UserPoolAddOns"]["AdvancedSecurityMode"] == "ENFORCED"
    client = real.resources[real.logical_id(real.stack.auth.client)]["Properties"]
    assert client["GenerateSecret"] is False and "AllowedOAuthFlows" not in client
    groups = {
        r["Properties"]["GroupName"]
        for r in real.resources.values()
        if r["Type"] == "AWS::Cognito::UserPoolGroup"
    }
    assert groups == {"organisers", "admins"}


def test_api_gateway_may_invoke_each_function_from_this_api_only_with_one_permission(
    real: Synthesized,
) -> None:
    """One invoke permission per function with routes, for this API alone: a permission per
    route would spend a resource of the stack's 500 on every route."""
    api_id = next(k for k, r in real.resources.items() if r["Type"] == "AWS::ApiGatewayV2::Api")
    permissions = [r["Properties"] for r in real.resources.values() if r["Type"] == "AWS::Lambda::Permission"]
    from_api = [p for p in permissions if p["Principal"] == "apigateway.amazonaws.com"]
    with_routes = [spec for spec in FUNCTIONS if spec.routes()]
    assert len(from_api) == len(with_routes)
    for permission in from_api:
        assert f"<{api_id}>/*/*" in render(permission["SourceArn"])


def test_the_stack_keeps_a_tenth_of_cloudformations_500_resources_free(real: Synthesized) -> None:
    """CloudFormation refuses a stack of more than 500 resources: growth must see the wall coming."""
    assert len(real.resources) <= 450, len(real.resources)


def test_a_page_on_another_origin_reads_the_etag_the_date_and_retry_after(real: Synthesized) -> None:
    """CORS: any origin calls with a bearer token (no cookies), and reads the headers the screens
    use beyond the safelisted ones: the ETag to revalidate, the Date as the platform's clock,
    Retry-After on a 503."""
    (api,) = [r["Properties"] for r in real.resources.values() if r["Type"] == "AWS::ApiGatewayV2::Api"]
    cors = api["CorsConfiguration"]
    assert cors["AllowOrigins"] == ["*"] and not cors.get("AllowCredentials")
    assert {"Authorization", "Content-Type"} <= set(cors["AllowHeaders"])
    assert {"ETag", "Date", "Retry-After"} <= set(cors["ExposeHeaders"])
