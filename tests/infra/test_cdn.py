"""CloudFront in front of the HTTP API: public GET routes cached at the edge by the origin's
Cache-Control, every other API path passed through untouched (the origin's
load does not grow with the number of viewers); the site is the default (test_site.py)."""

from __future__ import annotations

import fnmatch
from typing import Any

import pytest

from infra.cdn import Behavior, example_path, first_match, path_pattern, plan
from infra.registry import Route
from tests.infra.helpers import Synthesized

pytestmark = pytest.mark.infra

CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"  # AWS managed cache policy
ALL_VIEWER_EXCEPT_HOST = "b689b0a8-53d0-40ab-baf2-68738e2966ac"  # AWS managed origin request policy
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
BOARD = Route("GET", "/tournaments/{tournament_id}/board", public=True)


def _distribution(synth: Synthesized) -> dict[str, Any]:
    (distribution,) = [
        r["Properties"]["DistributionConfig"]
        for r in synth.resources.values()
        if r["Type"] == "AWS::CloudFront::Distribution"
    ]
    return dict(distribution)


def _cache_policy(synth: Synthesized, behavior: dict[str, Any]) -> dict[str, Any] | None:
    """The behavior's cache key settings; None for AWS's CachingDisabled."""
    policy = behavior["CachePolicyId"]
    if policy == CACHING_DISABLED:
        return None
    config: dict[str, Any] = synth.resources[policy["Ref"]]["Properties"]["CachePolicyConfig"]
    return config


def _behavior_for(synth: Synthesized, path: str) -> dict[str, Any]:
    """What CloudFront does with `path`: the first behavior whose pattern matches, else the default."""
    distribution = _distribution(synth)
    for behavior in distribution.get("CacheBehaviors", []):
        if fnmatch.fnmatchcase(path, behavior["PathPattern"]):
            return dict(behavior)
    return dict(distribution["DefaultCacheBehavior"])


def _forwards_authorization(synth: Synthesized, behavior: dict[str, Any]) -> bool:
    policy = _cache_policy(synth, behavior)
    if policy is None:
        return behavior.get("OriginRequestPolicyId") == ALL_VIEWER_EXCEPT_HOST
    headers = policy["ParametersInCacheKeyAndForwardedToOrigin"]["HeadersConfig"]
    return "Authorization" in headers.get("Headers", [])


def test_the_distribution_fronts_the_http_api_over_https_and_logs_access(real: Synthesized) -> None:
    distribution = _distribution(real)
    (origin,) = [o for o in distribution["Origins"] if "CustomOriginConfig" in o]  # the other: the site
    api = real.logical_id(real.stack.api.http_api)
    assert origin["DomainName"]["Fn::Join"][1][0] == {"Ref": api}
    assert origin["CustomOriginConfig"]["OriginProtocolPolicy"] == "https-only"
    assert origin["CustomOriginConfig"]["OriginSSLProtocols"] == ["TLSv1.2"]
    bucket = distribution["Logging"]["Bucket"]["Fn::GetAtt"][0]
    assert real.resources[bucket]["Type"] == "AWS::S3::Bucket"
    outputs = real.json["Outputs"]
    assert outputs["CdnDomain"]["Value"] == {
        "Fn::GetAtt": [real.logical_id(real.stack.cdn.distribution), "DomainName"]
    }


def test_api_paths_outside_the_cached_patterns_pass_through_uncached(each_stack: Synthesized) -> None:
    """The site is the default behavior (tests/infra/test_site.py): every other API
    path goes through a behavior per first segment that passes everything through, uncached."""
    behaviors = each_stack.stack.cdn.behaviors
    for route in (r for spec in each_stack.functions for r in spec.routes()):
        planned = first_match(behaviors, example_path(route.path))
        assert planned is not None, route
        if planned.kind != "private":
            continue
        behavior = _behavior_for(each_stack, example_path(route.path))
        assert behavior["CachePolicyId"] == CACHING_DISABLED
        assert behavior["OriginRequestPolicyId"] == ALL_VIEWER_EXCEPT_HOST
        assert WRITES | {"GET", "HEAD", "OPTIONS"} == set(behavior["AllowedMethods"])


def test_every_public_get_route_is_cached_by_path_and_query_for_at_most_a_minute(real: Synthesized) -> None:
    """R12.1 / public pages are cached at the edge; Cache-Control decides how long."""
    public = [r for spec in real.functions for r in spec.routes() if r.public and r.method == "GET"]
    assert public
    for route in public:
        behavior = _behavior_for(real, example_path(route.path))
        assert behavior.get("PathPattern") == path_pattern(route.path), route
        policy = _cache_policy(real, behavior)
        assert policy is not None, route
        assert policy["MinTTL"] == 0 and 0 < policy["DefaultTTL"] <= policy["MaxTTL"] <= 60
        key = policy["ParametersInCacheKeyAndForwardedToOrigin"]
        assert key["QueryStringsConfig"]["QueryStringBehavior"] == "all"
        assert key["CookiesConfig"]["CookieBehavior"] == "none"
        assert set(key["HeadersConfig"].get("Headers", [])) <= {"Authorization"}
        assert set(behavior["CachedMethods"]) == {"GET", "HEAD"}


def test_a_public_only_path_neither_forwards_authorization_nor_varies_by_it(real: Synthesized) -> None:
    """Every anonymous phone shares one cached copy of e.g. /privacy or a player's page."""
    routes = [r for spec in real.functions for r in spec.routes()]
    only_public = {
        path_pattern(r.path)
        for r in routes
        if all(o.public for o in routes if path_pattern(o.path) == path_pattern(r.path))
    }
    # a public path that takes no GET (the payment provider's webhook) is nothing to share: it
    # passes through with its body and its signature header (test_api_paths_outside...)
    readable = {path_pattern(r.path) for r in routes if r.method == "GET"}
    assert only_public & readable
    for pattern in only_public - readable:
        behavior = _behavior_for(real, pattern.replace("*", "x"))
        assert behavior["OriginRequestPolicyId"] == ALL_VIEWER_EXCEPT_HOST, pattern
        assert _cache_policy(real, behavior) is None, pattern
    for pattern in only_public & readable:
        behavior = _behavior_for(real, pattern.replace("*", "x"))
        assert not _forwards_authorization(real, behavior), pattern
        assert "OriginRequestPolicyId" not in behavior
        assert set(behavior["AllowedMethods"]) == {"GET", "HEAD"}


def test_every_signed_in_route_reaches_the_origin_with_its_token_and_is_never_shared(
    real: Synthesized,
) -> None:
    for route in (r for spec in real.functions for r in spec.routes() if not r.public):
        behavior = _behavior_for(real, example_path(route.path))
        assert route.method in behavior["AllowedMethods"], route
        assert _forwards_authorization(real, behavior), route
        if route.method == "GET":
            assert _cache_policy(real, behavior) is None, route  # a private page is never cached
        else:
            assert behavior["OriginRequestPolicyId"] == ALL_VIEWER_EXCEPT_HOST, route  # body, headers


def test_the_board_route_will_be_cached_and_the_routes_beside_it_stay_right() -> None:
    """GET /tournaments/{id}/board (public) gets its own cached pattern; a signed-in GET that
    the general /tournaments/* pattern would also match keeps an uncached one, listed first."""
    routes = [
        Route("GET", "/tournaments", public=True),
        Route("POST", "/tournaments", public=False),
        Route("GET", "/tournaments/{tournament_id}", public=True),
        Route("PATCH", "/tournaments/{tournament_id}", public=False),
        Route("GET", "/tournaments/{tournament_id}/audit", public=False),
        Route("POST", "/tournaments/{tournament_id}/rounds", public=False),
        BOARD,
        Route("GET", "/matches/{match_id}", public=True),
        Route("POST", "/matches/{match_id}/games", public=False),
    ]
    behaviors = plan(routes)
    assert first_match(behaviors, "/tournaments/t1/board") == Behavior("/tournaments/*/board", "public")
    assert first_match(behaviors, "/tournaments/t1/audit") == Behavior("/tournaments/*/audit", "private")
    assert first_match(behaviors, "/tournaments/t1") == Behavior("/tournaments/*", "shared")
    assert first_match(behaviors, "/tournaments/t1/rounds") == Behavior("/tournaments/*", "shared")
    assert first_match(behaviors, "/tournaments") == Behavior("/tournaments", "shared")
    assert first_match(behaviors, "/matches/m1/games") == Behavior("/matches/*/games", "private")
    assert first_match(behaviors, "/me") is None  # no such route here: the site's (the default)
    assert len(behaviors) == 6  # only what keeps every route right: CloudFront allows 25
    with_me = plan([*routes, Route("GET", "/me", public=False), Route("PUT", "/me/profile", public=False)])
    assert first_match(with_me, "/me") == first_match(with_me, "/me/profile") == Behavior("/me*", "private")
    assert with_me[-1] == Behavior("/me*", "private") and len(with_me) == 7


def test_the_template_lists_the_behaviors_in_the_planned_order(each_stack: Synthesized) -> None:
    listed = [b["PathPattern"] for b in _distribution(each_stack).get("CacheBehaviors", [])]
    assert listed == [b.pattern for b in each_stack.stack.cdn.behaviors]


def test_a_cached_public_answer_exposes_the_same_headers_as_the_api(real: Synthesized) -> None:
    """A public GET answered from the edge's cache carries the API's CORS: the cache key holds
    no Origin, so the edge adds it, exposing the ETag, the Date and Retry-After, and keeps what
    the API said when it said something."""
    public = [r for spec in real.functions for r in spec.routes() if r.public and r.method == "GET"]
    policies = set()
    for route in public:
        behavior = _behavior_for(real, example_path(route.path))
        policies.add(behavior["ResponseHeadersPolicyId"]["Ref"])
    (policy,) = policies
    cors = real.resources[policy]["Properties"]["ResponseHeadersPolicyConfig"]["CorsConfig"]
    assert cors["AccessControlAllowOrigins"]["Items"] == ["*"]
    assert cors["AccessControlAllowCredentials"] is False and cors["OriginOverride"] is False
    assert {"ETag", "Date", "Retry-After"} <= set(cors["AccessControlExposeHeaders"]["Items"])
