"""The mobile web front end in the cloud: web/dist in a private bucket that only the
distribution reads (Origin Access Control), its security headers, and /config.json, which
tells the one build which stage it runs in (API base, Cognito domain, web client id).

Two deployments into the one bucket: the hashed build files (`/assets/...`, cached for a
year, never pruned, so a tab still running the previous build can load its chunks) and the
shell (`/`, index.html, sw.js, the manifest, the icon, config.json), which browsers
revalidate on every load and each deployment invalidates at the edge.

Synthesis stays offline: when web/dist has not been built (a fresh checkout running the
infrastructure tests), a placeholder page stands in and the stack carries a warning;
`make deploy` and `make diff` build the front end first, so a stage never gets the placeholder.
"""

from __future__ import annotations

from pathlib import Path

from aws_cdk import Annotations, Duration, RemovalPolicy, Stack
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from cdk_nag import NagSuppressions
from constructs import Construct

ROOT = Path(__file__).resolve().parent.parent
WEB_DIST = ROOT / "web" / "dist"
PLACEHOLDER = Path(__file__).resolve().parent / "site_placeholder"
# Not content-hashed: the browser revalidates them (and the service worker updates itself)
SHELL = ("index.html", "sw.js", "manifest.webmanifest", "icon.svg", "config.json")
HSTS_AGE = Duration.days(730)
CDK_ASSETS = "/^Resource::arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-.+/\\*$/"  # bootstrap bucket


def build_dir() -> Path:
    """web/dist when it is built, else the placeholder (see the module's docstring)."""
    return WEB_DIST if (WEB_DIST / "index.html").is_file() else PLACEHOLDER


def uploads_origins(region: str) -> str:
    """Where the private upload store's presigned forms and links point (S3, virtual-hosted)."""
    return f"https://*.s3.amazonaws.com https://*.s3.{region}.amazonaws.com"


def content_security_policy(sign_in_origin: str, uploads: str) -> str:
    """Scripts, styles and everything fetched come from the site itself (the API shares the
    distribution); the only other origins are Cognito's token endpoint and the upload store
    (a phone posts an adjourned position's photo there, staff and players view it by a
    presigned link). No inline script."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src 'self' data: blob: {uploads}",
            f"connect-src 'self' {sign_in_origin} {uploads}",
            "worker-src 'self'",
            "manifest-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "upgrade-insecure-requests",
        ]
    )


class Site(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        sign_in_origin: str,
    ) -> None:
        super().__init__(scope, construct_id)
        self.bucket = s3.Bucket(
            self,
            "Files",
            encryption=s3.BucketEncryption.S3_MANAGED,
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            enforce_ssl=True,
            object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
            # kept when a stage goes (CloudFormation cannot delete a bucket with objects in it;
            # emptying it would take another custom resource): a few hundred KB, delete by hand
            removal_policy=RemovalPolicy.RETAIN,
        )
        NagSuppressions.add_resource_suppressions(
            self.bucket,
            [
                {
                    "id": "AwsSolutions-S1",
                    "reason": "Only the distribution reads this bucket (Origin Access Control), and "
                    "CloudFront's standard logs already record every request for the site.",
                }
            ],
        )
        self.headers = cloudfront.ResponseHeadersPolicy(
            self,
            "SecurityHeaders",
            comment="Tavla web front end: CSP, HSTS, no framing, no referrer across origins",
            security_headers_behavior=cloudfront.ResponseSecurityHeadersBehavior(
                content_security_policy=cloudfront.ResponseHeadersContentSecurityPolicy(
                    content_security_policy=content_security_policy(
                        sign_in_origin, uploads_origins(Stack.of(self).region)
                    ),
                    override=True,
                ),
                strict_transport_security=cloudfront.ResponseHeadersStrictTransportSecurity(
                    access_control_max_age=HSTS_AGE, include_subdomains=True, override=True
                ),
                frame_options=cloudfront.ResponseHeadersFrameOptions(
                    frame_option=cloudfront.HeadersFrameOption.DENY, override=True
                ),
                content_type_options=cloudfront.ResponseHeadersContentTypeOptions(override=True),
                referrer_policy=cloudfront.ResponseHeadersReferrerPolicy(
                    referrer_policy=cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
                    override=True,
                ),
            ),
        )
        self.placeholder = build_dir() == PLACEHOLDER
        if self.placeholder:
            Annotations.of(self).add_warning_v2(
                "tavla:site-not-built",
                "web/dist is not built: the site is a placeholder page (run `make web`).",
            )

    def deploy(self, distribution: cloudfront.IDistribution, config: dict[str, str]) -> None:
        """The build and /config.json into the bucket; the shell invalidated at the edge."""
        source = s3deploy.Source.asset(str(build_dir()))
        assets = s3deploy.BucketDeployment(
            self,
            "Assets",
            destination_bucket=self.bucket,
            sources=[source],
            exclude=list(SHELL),
            prune=False,  # a tab on the previous build still loads its chunks
            cache_control=[
                s3deploy.CacheControl.from_string("public, max-age=31536000, immutable"),
            ],
            memory_limit=256,
        )
        shell = s3deploy.BucketDeployment(
            self,
            "Shell",
            destination_bucket=self.bucket,
            sources=[source, s3deploy.Source.json_data("config.json", config)],
            exclude=["*"],
            include=list(SHELL),
            cache_control=[s3deploy.CacheControl.no_cache()],
            distribution=distribution,
            distribution_paths=["/", *(f"/{name}" for name in SHELL)],
            memory_limit=256,
        )
        shell.node.add_dependency(assets)  # the new shell only once its files are there
        self._acknowledge_deployment_handler()

    def _acknowledge_deployment_handler(self) -> None:
        stack = Stack.of(self)
        for child in stack.node.children:
            if child.node.id.startswith("Custom::CDKBucketDeployment"):
                NagSuppressions.add_resource_suppressions(
                    child,
                    [
                        {
                            "id": "AwsSolutions-IAM4",
                            "reason": "CDK's BucketDeployment handler logs with AWS's basic Lambda "
                            "execution policy; it runs only while a stage is deployed.",
                            "appliesTo": [
                                "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                                "AWSLambdaBasicExecutionRole"
                            ],
                        },
                        {
                            "id": "AwsSolutions-IAM5",
                            "reason": "BucketDeployment copies every object of the build: it needs "
                            "the site bucket's and the CDK asset bucket's objects by wildcard, and "
                            "CDK grants the shell's CloudFront invalidation on every distribution.",
                            "appliesTo": [
                                "Action::s3:GetObject*",
                                "Action::s3:GetBucket*",
                                "Action::s3:List*",
                                "Action::s3:DeleteObject*",
                                "Action::s3:Abort*",
                                {"regex": CDK_ASSETS},
                                {"regex": "/^Resource::<CdnSiteFiles[A-F0-9]+\\.Arn>/\\*$/"},
                                "Resource::*",  # CDK's cloudfront:CreateInvalidation/GetInvalidation
                            ],
                        },
                        {
                            "id": "AwsSolutions-L1",
                            "reason": "CDK's BucketDeployment handler picks its own Python runtime; "
                            "it is CDK's code, upgraded with aws-cdk-lib, not ours.",
                        },
                    ],
                    apply_to_children=True,
                )
