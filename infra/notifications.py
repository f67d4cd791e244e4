"""SMS to players' phones: direct SNS publishing for the functions marked `sends_sms`; e-mail
through SES for those marked `sends_email`, from the verified sender given as the CDK context
value `email_from` (without it no e-mail is sent: the function skips it)."""

from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from tavla.services.notify import EMAIL_FROM_ENV, SMS_SENDER_ID_ENV


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
            if spec.sends_email:
                self._allow_email(spec.name, by_name[spec.name])

    def _allow_sms(self, name: str, function: lambda_.Function) -> None:
        assert function.role is not None
        sender_id = self.node.try_get_context("sms_sender_id")  # the stage's
        if sender_id:
            function.add_environment(SMS_SENDER_ID_ENV, str(sender_id))
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

    def _allow_email(self, name: str, function: lambda_.Function) -> None:
        assert function.role is not None
        sender = self.node.try_get_context("email_from")
        if sender:
            function.add_environment(EMAIL_FROM_ENV, str(sender))
        stack = Stack.of(self)
        identities = stack.format_arn(service="ses", resource="identity", resource_name="*")
        policy = iam.Policy(
            self,
            f"{name.capitalize()}Email",
            statements=[iam.PolicyStatement(actions=["ses:SendEmail"], resources=[identities])],
            roles=[function.role],
        )
        NagSuppressions.add_resource_suppressions(
            policy,
            [
                {
                    "id": "AwsSolutions-IAM5",
                    "reason": "SES checks both the sender's and each recipient's identity ARN; "
                    "recipients are players' addresses, known only at run time.",
                    "appliesTo": [
                        {
                            "regex": "/^Resource::arn:<AWS::Partition>:ses:(<AWS::Region>|[a-z0-9-]+):"
                            "<AWS::AccountId>:identity/\\*$/"
                        }
                    ],
                }
            ],
        )
