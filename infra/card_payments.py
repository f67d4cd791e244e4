"""The card payment provider's secret: its API key and webhook signing secret.

One JSON secret, `{"api_key": ..., "webhook_secret": ...}`, created with placeholders that
the operator replaces with the provider's keys; readable by the `card_payments` functions
only, which also learn where the provider sends a player back after a checkout.
"""

from __future__ import annotations

from aws_cdk import aws_secretsmanager as secretsmanager
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from infra.registry import PAYMENT_PROVIDER_SECRET
from tavla.card_payments import RETURN_URL_ENV, SECRET_ENV


class CardPayments(Construct):
    def __init__(self, scope: Construct, construct_id: str, lambdas: Lambdas, return_url: str) -> None:
        super().__init__(scope, construct_id)
        self.secret = secretsmanager.Secret(
            self,
            PAYMENT_PROVIDER_SECRET,
            description="The card payment provider's API key and webhook signing secret (JSON)",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                secret_string_template='{"api_key": "set-me"}',
                generate_string_key="webhook_secret",
                exclude_punctuation=True,
            ),
        )
        NagSuppressions.add_resource_suppressions(
            self.secret,
            [
                {
                    "id": "AwsSolutions-SMG4",
                    "reason": "The provider issues and rotates these keys in its dashboard; the "
                    "operator copies the new ones in. Secrets Manager cannot rotate them itself.",
                }
            ],
        )
        for spec in lambdas.specs:
            if spec.card_payments:
                function = lambdas.by_name[spec.name]
                self.secret.grant_read(function)
                function.add_environment(SECRET_ENV, self.secret.secret_arn)
                function.add_environment(RETURN_URL_ENV, return_url)
