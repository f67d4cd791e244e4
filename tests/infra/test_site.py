"""The web front end in the cloud: a private bucket behind the distribution (Origin
Access Control), the site as the default behavior with its security headers, the API's paths
still at API Gateway, /config.json per stage, and the hosted UI's PKCE-capable web client.

Synthesis is offline: web/dist when built, else infra/site_placeholder (infra/site.py)."""

from __future__ import annotations

import fnmatch
from typing import Any

import pytest

from infra.cdn import example_path
from infra.site import SHELL
from tests.infra.conftest import PROD_DOMAIN
from tests.infra.helpers import Synthesized, render
from tests.infra.test_cdn import _behavior_for, _distribution

pytestmark = pytest.mark.infra

SITE_FILES = ["/", "/index.html", "/assets/index-abc123.js", *(f"/{name}" for name in SHELL)]


def _origin(synth: Synthesized, behavior: dict[str, Any]) -> dict[str, Any]:
    (origin,) = [o for o in _distribution(synth)["Origins"] if o["Id"] == behavior["TargetOriginId"]]
    return dict(origin)


def _site_bucket(synth: Synthesized) -> str:
    return synth.logical_id(synth.stack.cdn.site.bucket)


def test_the_site_bucket_blocks_every_public_access(each_stack: Synthesized) -> None:
    bucket = each_stack.resources[_site_bucket(each_stack)]["Properties"]
    assert bucket["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert "WebsiteConfiguration" not in bucket  # served by CloudFront only, never as a website


def test_only_this_distribution_reads_the_site_bucket_through_oac(real: Synthesized) -> None:
    bucket = _site_bucket(real)
    default = _distribution(real)["DefaultCacheBehavior"]
    origin = _origin(real, default)
    assert origin["DomainName"] == {"Fn::GetAtt": [bucket, "RegionalDomainName"]}
    assert origin["S3OriginConfig"].get("OriginAccessIdentity", "") == ""  # OAC, not the legacy OAI
    control = real.resources[origin["OriginAccessControlId"]["Fn::GetAtt"][0]]
    assert control["Type"] == "AWS::CloudFront::OriginAccessControl"
    assert control["Properties"]["OriginAccessControlConfig"]["SigningBehavior"] == "always"
    assert control["Properties"]["OriginAccessControlConfig"]["OriginAccessControlOriginType"] == "s3"
    (policy,) = [
        r["Properties"]["PolicyDocument"]["Statement"]
        for r in real.resources.values()
        if r["Type"] == "AWS::S3::BucketPolicy" and r["Properties"]["Bucket"] == {"Ref": bucket}
    ]
    allows = [s for s in policy if s["Effect"] == "Allow"]
    assert allows and all(s["Principal"] == {"Service": "cloudfront.amazonaws.com"} for s in allows)
    distribution = real.logical_id(real.stack.cdn.distribution)
    for statement in allows:
        assert "s3:GetObject" in statement["Action"]
        source = render(statement["Condition"]["StringEquals"]["AWS:SourceArn"])
        assert distribution in source and ":distribution/" in source
    denies = [s for s in policy if s["Effect"] == "Deny"]
    assert any(s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} for s in denies)


def test_the_site_is_the_default_behavior_with_its_security_headers(each_stack: Synthesized) -> None:
    """R-web: /, index.html, the built files and /config.json come from the bucket over HTTPS."""
    distribution = _distribution(each_stack)
    assert distribution["DefaultRootObject"] == "index.html"
    headers = each_stack.logical_id(each_stack.stack.cdn.site.headers)
    for path in SITE_FILES:
        behavior = _behavior_for(each_stack, path)
        assert "PathPattern" not in behavior, path  # the default behavior
        assert "S3OriginConfig" in _origin(each_stack, behavior), path
        assert behavior["ViewerProtocolPolicy"] == "redirect-to-https"
        assert set(behavior["AllowedMethods"]) == {"GET", "HEAD"}
        assert behavior["ResponseHeadersPolicyId"] == {"Ref": headers}
    security = each_stack.resources[headers]["Properties"]["ResponseHeadersPolicyConfig"][
        "SecurityHeadersConfig"
    ]
    csp = render(security["ContentSecurityPolicy"]["ContentSecurityPolicy"])
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert ".amazoncognito.com" in csp  # the token endpoint the sign-in calls
    # the adjourned position's photo: posted to the upload store, viewed by a presigned link
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert "https://*.s3.amazonaws.com" in directives["connect-src"]
    assert "https://*.s3.amazonaws.com" in directives["img-src"]
    assert security["StrictTransportSecurity"]["AccessControlMaxAgeSec"] >= 31536000
    assert security["FrameOptions"]["FrameOption"] == "DENY"
    assert security["ReferrerPolicy"]["ReferrerPolicy"] == "strict-origin-when-cross-origin"
    assert security["ContentTypeOptions"]["Override"] is True


def test_every_api_route_still_reaches_api_gateway(each_stack: Synthesized) -> None:
    for route in (r for spec in each_stack.functions for r in spec.routes()):
        behavior = _behavior_for(each_stack, example_path(route.path))
        assert "CustomOriginConfig" in _origin(each_stack, behavior), route
        assert route.method in behavior["AllowedMethods"], route


def test_no_api_behavior_takes_a_file_of_the_site(each_stack: Synthesized) -> None:
    for behavior in _distribution(each_stack).get("CacheBehaviors", []):
        taken = [p for p in SITE_FILES if fnmatch.fnmatchcase(p, behavior["PathPattern"])]
        assert taken == [], behavior["PathPattern"]


def _web_client(synth: Synthesized) -> dict[str, Any]:
    client: dict[str, Any] = synth.resources[synth.logical_id(synth.stack.auth.web_client)]["Properties"]
    return client


def test_the_web_client_signs_in_with_the_code_flow_and_pkce_on_the_site(real: Synthesized) -> None:
    client = _web_client(real)
    assert client["AllowedOAuthFlows"] == ["code"]  # no implicit grant
    assert client["AllowedOAuthFlowsUserPoolClient"] is True
    assert client["GenerateSecret"] is False  # a browser cannot keep one: PKCE instead
    assert set(client["AllowedOAuthScopes"]) >= {"openid"}
    assert client["SupportedIdentityProviders"] == ["COGNITO"]
    distribution = real.logical_id(real.stack.cdn.distribution)
    for urls in (client["CallbackURLs"], client["LogoutURLs"]):
        (url,) = urls
        assert url == {"Fn::Join": ["", ["https://", {"Fn::GetAtt": [distribution, "DomainName"]}, "/"]]}


def test_a_stage_with_a_domain_signs_in_on_that_domain(prod: Synthesized) -> None:
    client = _web_client(prod)
    assert client["CallbackURLs"] == [f"https://{PROD_DOMAIN}/"]
    assert client["LogoutURLs"] == [f"https://{PROD_DOMAIN}/"]


def test_the_api_accepts_the_web_clients_tokens(real: Synthesized) -> None:
    (authorizer,) = [
        r["Properties"] for r in real.resources.values() if r["Type"] == "AWS::ApiGatewayV2::Authorizer"
    ]
    audience = authorizer["JwtConfiguration"]["Audience"]
    assert {"Ref": real.logical_id(real.stack.auth.web_client)} in audience


def test_config_json_tells_the_build_its_stage(real: Synthesized) -> None:
    """One build serves every stage: the deployment writes /config.json beside it, naming the
    site's API, the stage's hosted UI and the web client; browsers revalidate it every load."""
    (shell,) = [
        r["Properties"]
        for r in real.resources.values()
        if r["Type"] == "Custom::CDKBucketDeployment" and "Include" in r["Properties"]
    ]
    assert "config.json" in shell["Include"] and "index.html" in shell["Include"]
    (key,) = [k for k, m in zip(shell["SourceObjectKeys"], shell["SourceMarkers"], strict=True) if m]
    (config_file,) = (real.outdir / f"asset.{key.removesuffix('.zip')}").glob("config.json")
    (markers,) = [m for m in shell["SourceMarkers"] if m]
    written = config_file.read_text(encoding="utf-8")
    for marker, value in markers.items():
        written = written.replace(marker, render(value))
    assert written.startswith('{"mode":"cognito"'), written
    distribution = real.logical_id(real.stack.cdn.distribution)
    assert f'"api":"https://<{distribution}.DomainName>"' in written
    assert '"sign_in":"https://<' in written and '.amazoncognito.com"' in written
    assert f'"client_id":"<{real.logical_id(real.stack.auth.web_client)}>"' in written
    assert shell["SystemMetadata"]["cache-control"] == "no-cache"
    assert "/config.json" in shell["DistributionPaths"] and "/index.html" in shell["DistributionPaths"]
    (assets,) = [
        r["Properties"]
        for r in real.resources.values()
        if r["Type"] == "Custom::CDKBucketDeployment" and "Include" not in r["Properties"]
    ]
    assert assets["Prune"] is False  # a tab on the previous build still finds its chunks
    assert "immutable" in assets["SystemMetadata"]["cache-control"]
