"""CloudFront in front of the HTTP API, so the public GET routes cost the origin little however
many phones watch a board.

Each path of a public GET route (from the registry, `{param}` as `*`) gets a behavior that
caches by the origin's own Cache-Control (bounded by `MAX_TTL`; `DEFAULT_TTL` for a route
that says nothing), keyed by the path and the query string and nothing else, so that every
anonymous viewer shares one copy and CloudFront answers `If-None-Match` itself. Where a
signed-in route shares that path (`POST /tournaments` beside `GET /tournaments`), the
caller's Authorization is part of the key (CloudFront forwards it only then) and every
other header goes through, so writes still work; anonymous viewers still share one copy.
A signed-in route whose path a cached pattern would also match (`/tournaments/*/audit`
under `/tournaments/*`) gets an uncached behavior of its own, listed first. Every other API
path goes through a behavior per first segment (`/me*`), listed last: uncached, every
method, every header but Host, the query and the body forwarded as they came. The default
behavior is the web front end (infra/site.py): a private bucket read through Origin
Access Control, with the site's security headers.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_certificatemanager as acm
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_s3 as s3
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.api import ALLOWED_HEADERS, EXPOSED_HEADERS
from infra.registry import Function, Route
from infra.site import Site
from infra.stages import Stage

MAX_TTL = Duration.seconds(60)  # the longest a board may be stale, whatever the origin says
DEFAULT_TTL = Duration.seconds(5)  # for a public route that sends no Cache-Control
LOG_EXPIRY = Duration.days(90)

Kind = Literal["public", "shared", "private"]


@dataclass(frozen=True)
class Behavior:
    pattern: str  # CloudFront path pattern: `*` matches any characters, `/` included
    kind: Kind  # public: cached, anonymous; shared: cached, per Authorization; private: uncached


def path_pattern(path: str) -> str:
    """`/tournaments/{tournament_id}/board` -> `/tournaments/*/board`."""
    return "/".join("*" if part.startswith("{") else part for part in path.split("/"))


def example_path(path: str) -> str:
    """A concrete path the route serves: `/tournaments/{tournament_id}` -> `/tournaments/x`."""
    return "/".join("x" if part.startswith("{") else part for part in path.split("/"))


def _ordered(behaviors: Iterable[Behavior]) -> list[Behavior]:
    # More segments first, then more literal text: a specific pattern precedes the general
    # one that would also match its paths.
    return sorted(
        behaviors, key=lambda b: (-b.pattern.count("/"), -len(b.pattern.replace("*", "")), b.pattern)
    )


def first_match(behaviors: Iterable[Behavior], path: str) -> Behavior | None:
    """The behavior CloudFront picks for `path` (the first that matches); None: the default."""
    return next((b for b in behaviors if fnmatch.fnmatchcase(path, b.pattern)), None)


def plan(routes: Iterable[Route]) -> list[Behavior]:
    """The behaviors in CloudFront's order, as few as keep every route right.

    A signed-in route needs a behavior of its own only where a cached one would take it and
    get it wrong: a GET (it would be cached) or any route under a `public` pattern (which
    forwards no Authorization and takes no writes). Writes under a `shared` pattern go
    through that one, with their token and body.
    """
    routes_list = list(routes)
    by_pattern: dict[str, list[Route]] = {}
    for route in routes_list:
        by_pattern.setdefault(path_pattern(route.path), []).append(route)
    cached = _ordered(
        Behavior(pattern, "shared" if any(not r.public for r in served) else "public")
        for pattern, served in by_pattern.items()
        if any(r.method == "GET" and r.public for r in served)
    )
    taken = {b.pattern for b in cached}
    private = []
    for pattern, served in by_pattern.items():
        if pattern in taken:
            continue
        for route in served:
            caught = first_match(cached, example_path(route.path))
            if caught is not None and (route.method == "GET" or caught.kind == "public"):
                private.append(Behavior(pattern, "private"))
                break
    ordered = _ordered([*cached, *private])
    # The site is the default behavior: every API path it would otherwise take goes
    # to the API by its first segment (`/me*`), one uncached pass-through behavior each.
    rest = sorted(
        {
            "/" + route.path.split("/")[1] + "*"
            for route in routes_list
            if first_match(ordered, example_path(route.path)) is None
        }
    )
    return ordered + [Behavior(pattern, "private") for pattern in rest]


class Cdn(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        functions: tuple[Function, ...],
        api_id: str,
        *,
        web_acl_arn: str | None = None,  # the edge stack's WAF web ACL
        stage: Stage | None = None,  # its domain and certificate, when it has them
        sign_in_origin: str = "",  # Cognito's hosted UI, which the site's CSP lets it call
    ) -> None:
        super().__init__(scope, construct_id)
        stack = Stack.of(self)
        origin = origins.HttpOrigin(
            f"{api_id}.execute-api.{stack.region}.{stack.url_suffix}",
            protocol_policy=cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            origin_ssl_protocols=[cloudfront.OriginSslPolicy.TLS_V1_2],
        )
        common = {
            "query_string_behavior": cloudfront.CacheQueryStringBehavior.all(),
            "cookie_behavior": cloudfront.CacheCookieBehavior.none(),
            "min_ttl": Duration.seconds(0),
            "default_ttl": DEFAULT_TTL,
            "max_ttl": MAX_TTL,
            "enable_accept_encoding_gzip": True,
            "enable_accept_encoding_brotli": True,
        }
        self.public_cache = cloudfront.CachePolicy(
            self,
            "PublicGet",
            comment="Public GET routes: by path and query only, for as long as the origin says",
            header_behavior=cloudfront.CacheHeaderBehavior.none(),
            **common,  # type: ignore[arg-type]
        )
        self.shared_cache = cloudfront.CachePolicy(
            self,
            "PublicGetBesideSignedIn",
            comment="Public GET routes whose path also takes signed-in writes: Authorization in the key",
            header_behavior=cloudfront.CacheHeaderBehavior.allow_list("Authorization"),
            **common,  # type: ignore[arg-type]
        )
        # The API's own CORS answer (infra.api) reaches a cached page only when the request that
        # filled the cache carried an Origin, which the public cache policy does not forward: the
        # edge gives the same answer, the same headers exposed, and keeps the API's when it has one.
        self.api_cors = cloudfront.ResponseHeadersPolicy(
            self,
            "ApiCors",
            comment="The API's CORS at the edge: any origin, the ETag, Date and Retry-After readable",
            cors_behavior=cloudfront.ResponseHeadersCorsBehavior(
                access_control_allow_credentials=False,
                access_control_allow_headers=ALLOWED_HEADERS,
                access_control_allow_methods=["ALL"],
                access_control_allow_origins=["*"],
                access_control_expose_headers=EXPOSED_HEADERS,
                origin_override=False,
            ),
        )
        self.log_bucket = s3.Bucket(
            self,
            "AccessLogs",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.OBJECT_WRITER,  # CloudFront's standard logs use ACLs
            lifecycle_rules=[s3.LifecycleRule(expiration=LOG_EXPIRY)],
            removal_policy=RemovalPolicy.RETAIN,
        )
        NagSuppressions.add_resource_suppressions(
            self.log_bucket,
            [
                {
                    "id": "AwsSolutions-S1",
                    "reason": "This bucket holds CloudFront's access logs; logging access to the "
                    "log bucket itself would need yet another bucket and adds nothing an operator reads.",
                }
            ],
        )
        self.site = Site(
            self,
            "Site",
            sign_in_origin=sign_in_origin,
        )
        site_behavior = cloudfront.BehaviorOptions(
            origin=origins.S3BucketOrigin.with_origin_access_control(self.site.bucket),
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            allowed_methods=cloudfront.AllowedMethods.ALLOW_GET_HEAD,
            cached_methods=cloudfront.CachedMethods.CACHE_GET_HEAD,
            cache_policy=cloudfront.CachePolicy.CACHING_OPTIMIZED,
            response_headers_policy=self.site.headers,
            compress=True,
        )
        passthrough = cloudfront.BehaviorOptions(
            origin=origin,
            viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            allowed_methods=cloudfront.AllowedMethods.ALLOW_ALL,
            cache_policy=cloudfront.CachePolicy.CACHING_DISABLED,
            origin_request_policy=cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        )
        routes = [route for spec in functions for route in spec.routes()]
        self.behaviors = plan(routes)
        additional: dict[str, cloudfront.BehaviorOptions] = {}
        for behavior in self.behaviors:
            if behavior.kind == "private":
                additional[behavior.pattern] = passthrough
                continue
            shared = behavior.kind == "shared"  # writes share the path: every method, every header
            additional[behavior.pattern] = cloudfront.BehaviorOptions(
                origin=origin,
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
                allowed_methods=(
                    cloudfront.AllowedMethods.ALLOW_ALL
                    if shared
                    else cloudfront.AllowedMethods.ALLOW_GET_HEAD
                ),
                cached_methods=cloudfront.CachedMethods.CACHE_GET_HEAD,
                cache_policy=self.shared_cache if shared else self.public_cache,
                origin_request_policy=(
                    cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER if shared else None
                ),
                response_headers_policy=self.api_cors,
                compress=True,
            )
        domain = (
            {
                "domain_names": [stage.domain],
                "certificate": acm.Certificate.from_certificate_arn(
                    self, "Certificate", stage.certificate_arn
                ),
                "minimum_protocol_version": cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            }
            if stage is not None and stage.domain
            else {}
        )
        self.distribution = cloudfront.Distribution(
            self,
            "Distribution",
            comment="Tavla: the web front end and the HTTP API, public GET routes cached at the edge",
            default_behavior=site_behavior,
            default_root_object="index.html",
            additional_behaviors=additional,
            price_class=cloudfront.PriceClass.PRICE_CLASS_100,
            http_version=cloudfront.HttpVersion.HTTP2_AND_3,
            enable_logging=True,
            log_bucket=self.log_bucket,
            log_file_prefix="cloudfront/",
            web_acl_id=web_acl_arn,
            **domain,  # type: ignore[arg-type]
        )
        NagSuppressions.add_resource_suppressions(
            self.distribution,
            [
                {
                    "id": "AwsSolutions-CFR1",
                    "reason": "No geo restriction: players, referees and viewers follow tournaments "
                    "from abroad, and the API carries no content licensed per country.",
                },
            ],
        )
        if not domain:
            NagSuppressions.add_resource_suppressions(
                self.distribution,
                [
                    {
                        "id": "AwsSolutions-CFR4",
                        "reason": "This stage has no domain of its own (cdk.json: domain) and uses the "
                        "cloudfront.net name and certificate, with which CloudFront cannot enforce TLS 1.2.",
                    }
                ],
            )
        if web_acl_arn is None:
            NagSuppressions.add_resource_suppressions(
                self.distribution,
                [
                    {
                        "id": "AwsSolutions-CFR2",
                        "reason": "Synthesized without its edge stack (a test stack of trigger-only "
                        "functions): the deployed stages always get the us-east-1 web ACL.",
                    }
                ],
            )

    @property
    def domain_name(self) -> str:
        return self.distribution.distribution_domain_name
