"""The venue's live channel: an AppSync Events API (docs/decisions/0025-live-appsync-events.md).

Namespaces `tournament` and `match` are public: screens connect and subscribe with the API
key that /config.json names (a public key, like the site; it grants listening to change
hints and nothing else). `staff` is subscribed to only through the registry's authorizer
function (`authorizes_live`), which checks the subscriber's token and their place on the
tournament's staff. Only IAM may publish: the functions marked `publishes_live`.
"""

from __future__ import annotations

from aws_cdk import Duration, Expiration, Stack
from aws_cdk import aws_appsync as appsync
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.auth import Auth
from infra.lambdas import Lambdas
from tavla import live

# what `grant_publish` names: every channel namespace of the live Event API
_CHANNEL_NAMESPACES = (
    r"/^Resource::arn:<AWS::Partition>:appsync:.*:apis/<LiveApi[0-9A-F]+\.ApiId>/channelNamespace/\*$/g"
)

AuthType = appsync.AppSyncAuthorizationType
# an AppSync API key lives at most 365 days: each deploy renews it, so a stage deployed at
# least once a year keeps its key (the runbook says so)
API_KEY_DAYS = 365
API_KEY_NAME = "Screens"


class LiveChannel(Construct):
    def __init__(self, scope: Construct, construct_id: str, lambdas: Lambdas, auth: Auth) -> None:
        super().__init__(scope, construct_id)
        by_name = lambdas.by_name
        authorizer = next(by_name[f.name] for f in lambdas.specs if f.authorizes_live)
        self.api = appsync.EventApi(
            self,
            "Api",
            api_name=f"{Stack.of(self).stack_name}-live",
            authorization_config=appsync.EventApiAuthConfig(
                auth_providers=[
                    appsync.AppSyncAuthProvider(
                        authorization_type=AuthType.API_KEY,
                        api_key_config=appsync.AppSyncApiKeyConfig(
                            name=API_KEY_NAME, expires=Expiration.after(Duration.days(API_KEY_DAYS))
                        ),
                    ),
                    appsync.AppSyncAuthProvider(authorization_type=AuthType.IAM),
                    appsync.AppSyncAuthProvider(
                        authorization_type=AuthType.LAMBDA,
                        lambda_authorizer_config=appsync.AppSyncLambdaAuthorizerConfig(
                            handler=authorizer, results_cache_ttl=Duration.seconds(0)
                        ),
                    ),
                ],
                connection_auth_mode_types=[AuthType.API_KEY],
                default_publish_auth_mode_types=[AuthType.IAM],
                default_subscribe_auth_mode_types=[AuthType.API_KEY],
            ),
        )
        for name in live.PUBLIC_NAMESPACES:
            self.api.add_channel_namespace(name.capitalize(), channel_namespace_name=name)
        self.api.add_channel_namespace(
            "Staff",
            channel_namespace_name=live.STAFF_NAMESPACE,
            authorization_config=appsync.NamespaceAuthConfig(
                publish_auth_mode_types=[AuthType.IAM], subscribe_auth_mode_types=[AuthType.LAMBDA]
            ),
        )
        for spec in lambdas.specs:
            if spec.publishes_live:
                self.api.grant_publish(by_name[spec.name])
                NagSuppressions.add_resource_suppressions(
                    by_name[spec.name].role,  # type: ignore[arg-type]
                    [
                        {
                            "id": "AwsSolutions-IAM5",
                            "reason": "The publisher posts change hints to every channel of this one "
                            "Event API (channels are per tournament and match, made at run time); "
                            "the grant is limited to this API's channel namespaces.",
                            "appliesTo": [{"regex": _CHANNEL_NAMESPACES}],
                        }
                    ],
                    apply_to_children=True,
                )
                by_name[spec.name].add_environment(live.HTTP_URL_ENV, f"https://{self.api.http_dns}")
        stack = Stack.of(self)
        issuer = f"https://cognito-idp.{stack.region}.amazonaws.com/{auth.user_pool.user_pool_id}"
        authorizer.add_environment(live.JWKS_URL_ENV, f"{issuer}/.well-known/jwks.json")
        authorizer.add_environment(live.ISSUER_ENV, issuer)
        authorizer.add_environment(live.AUDIENCE_ENV, ",".join(c.user_pool_client_id for c in auth.clients))

    @property
    def url(self) -> str:
        """Where screens connect."""
        return f"wss://{self.api.realtime_dns}/event/realtime"

    @property
    def host(self) -> str:
        """The host the connection's authorization header names (AppSync's HTTP domain)."""
        return self.api.http_dns

    @property
    def api_key(self) -> str:
        return self.api.api_keys[API_KEY_NAME].attr_api_key
