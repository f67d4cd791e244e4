"""The check-in pass signing key: a generated secret, readable by `reads_pass_key` functions."""

from __future__ import annotations

from aws_cdk import aws_secretsmanager as secretsmanager
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from infra.registry import PASS_KEY_SECRET

KEY_LENGTH = 64


class PassKey(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        lambdas: Lambdas,
    ) -> None:
        super().__init__(scope, construct_id)
        functions, by_name = lambdas.specs, lambdas.by_name
        self.secret = secretsmanager.Secret(
            self,
            PASS_KEY_SECRET,
            description="HMAC key that signs players' check-in passes",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=KEY_LENGTH, exclude_punctuation=True
            ),
        )
        NagSuppressions.add_resource_suppressions(
            self.secret,
            [
                {
                    "id": "AwsSolutions-SMG4",
                    "reason": "Rotating the signing key would void every check-in pass already "
                    "issued for upcoming tournaments; it is rotated by hand between seasons.",
                }
            ],
        )
        for spec in functions:
            if spec.reads_pass_key:
                function = by_name[spec.name]
                self.secret.grant_read(function)
                function.add_environment("PASS_KEY_SECRET_ID", self.secret.secret_arn)
