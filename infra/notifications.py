"""SMS to players' phones: direct SNS publishing for the functions marked `sends_sms`."""

from __future__ import annotations

from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas


class Notifications(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        lambdas: Lambdas,
    ) -> None:
        super().__init__(scope, construct_id)
        functions, by_name = lambdas.specs, lambdas.by_name
        for spec in functions:
            if spec.sends_sms:
                self._allow_sms(spec.name, by_name[spec.name])

    def _allow_sms(self, name: str, function: lambda_.Function) -> None:
        assert function.role is not None
        policy = iam.Policy(
            self,
            f"{name.capitalize()}Sms",
            statements=[iam.PolicyStatement(actions=["sns:Publish"], resources=["*"])],
            roles=[function.role],
        )
        NagSuppressions.add_resource_suppressions(
            policy,
            [
                {
                    "id": "AwsSolutions-IAM5",
                    "reason": "SMS is published straight to a phone number (sns:Publish with "
                    "PhoneNumber), which has no resource ARN; IAM accepts only '*' for it.",
                    "appliesTo": ["Resource::*"],
                }
            ],
        )
