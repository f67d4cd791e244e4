"""Who may call the API: a Cognito user pool, its platform-wide groups and the app client.

Players sign themselves up with their e-mail; organisers and admins are the two platform-wide
groups (tavla.caller names them); per-tournament staff live with the tournament, not here.
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from cdk_nag import NagSuppressions
from constructs import Construct

from tavla.caller import ADMINS, ORGANISERS, USER_POOL_ENV

GROUPS = (ORGANISERS, ADMINS)
# all a function that changes platform roles may do to the user pool (R1.3)
ROLE_ACTIONS = ("cognito-idp:AdminAddUserToGroup", "cognito-idp:AdminRemoveUserFromGroup")
# all a function that erases accounts may do to the user pool (R12, GDPR Art. 17)
ERASE_ACTIONS = ("cognito-idp:AdminDeleteUser",)


class Auth(Construct):
    def __init__(self, scope: Construct, construct_id: str) -> None:
        super().__init__(scope, construct_id)
        self.user_pool = cognito.UserPool(
            self,
            "Users",
            self_sign_up_enabled=True,
            sign_in_aliases=cognito.SignInAliases(email=True),
            auto_verify=cognito.AutoVerifiedAttrs(email=True),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            password_policy=cognito.PasswordPolicy(
                min_length=12,
                require_lowercase=True,
                require_uppercase=True,
                require_digits=True,
                require_symbols=True,
                temp_password_validity=Duration.days(3),
            ),
            mfa=cognito.Mfa.OPTIONAL,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            feature_plan=cognito.FeaturePlan.PLUS,
            standard_threat_protection_mode=cognito.StandardThreatProtectionMode.FULL_FUNCTION,
            deletion_protection=True,
            removal_policy=RemovalPolicy.RETAIN,
        )
        NagSuppressions.add_resource_suppressions(
            self.user_pool,
            [
                {
                    "id": "AwsSolutions-COG2",
                    "reason": "Players sign in on their phones at the venue; MFA is offered (TOTP) "
                    "but not forced, and threat protection blocks risky sign-ins instead.",
                }
            ],
        )
        for group in GROUPS:
            cognito.UserPoolGroup(
                self, f"Group{group.capitalize()}", user_pool=self.user_pool, group_name=group
            )
        self.client = self.user_pool.add_client(
            "App",
            # admin_user_password: the smoke test's users sign in with the deployer's IAM
            # credentials (tools/smoke.py); no browser can use that flow
            auth_flows=cognito.AuthFlow(user_srp=True, admin_user_password=True),
            disable_o_auth=True,  # the mobile web front end signs in with SRP, no hosted UI
            prevent_user_existence_errors=True,
            generate_secret=False,  # a public (browser) client cannot keep a secret
        )
        # The web front end's client: Cognito's hosted UI, authorization code + PKCE,
        # no secret (a browser cannot keep one). Its callback and logout URLs are the site's
        # origin, known only once the distribution is (`serve_site`).
        self.web_client = self.user_pool.add_client(
            "Web",
            auth_flows=cognito.AuthFlow(user_srp=True),
            o_auth=cognito.OAuthSettings(
                flows=cognito.OAuthFlows(authorization_code_grant=True),
                scopes=[cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
                callback_urls=["https://localhost/"],  # replaced by serve_site
                logout_urls=["https://localhost/"],
            ),
            supported_identity_providers=[cognito.UserPoolClientIdentityProvider.COGNITO],
            prevent_user_existence_errors=True,
            generate_secret=False,
            id_token_validity=Duration.hours(1),
            access_token_validity=Duration.hours(1),
            refresh_token_validity=Duration.hours(12),
        )
        self.clients = (self.client, self.web_client)  # whose tokens the API accepts

    def serve_site(self, site: str) -> None:
        """The web client's callback and logout URL: the site's origin (`https://...`)."""
        client = self.web_client.node.default_child
        assert isinstance(client, cognito.CfnUserPoolClient)
        client.callback_ur_ls = [f"{site}/"]
        client.logout_ur_ls = [f"{site}/"]

    def grant_role_changes(self, function: lambda_.Function) -> None:
        """Adding users to and removing them from this pool's groups, nothing else, nowhere else."""
        function.add_to_role_policy(
            iam.PolicyStatement(actions=list(ROLE_ACTIONS), resources=[self.user_pool.user_pool_arn])
        )
        function.add_environment(USER_POOL_ENV, self.user_pool.user_pool_id)

    def grant_erasure(self, function: lambda_.Function) -> None:
        """Deleting a user of this pool, nothing else, nowhere else."""
        function.add_to_role_policy(
            iam.PolicyStatement(actions=list(ERASE_ACTIONS), resources=[self.user_pool.user_pool_arn])
        )
        function.add_environment(USER_POOL_ENV, self.user_pool.user_pool_id)
