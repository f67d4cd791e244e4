"""SMS to players' phones: direct SNS publishing for the functions marked `sends_sms`; e-mail
through SES for those marked `sends_email`, from the verified sender given as the CDK context
value `email_from` (without it no e-mail is sent: the function skips it); Web Push signed with
the stage's VAPID key pair, a generated secret read by the functions marked `reads_push_key`
(`tavla.webpush` derives the pair from it; push services may write to the context value
`push_subject`, else `email_from`)."""

from __future__ import annotations

from aws_cdk import Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_secretsmanager as secretsmanager
from cdk_nag import NagSuppressions
from constructs import Construct

from infra.lambdas import Lambdas
from infra.registry import PUSH_KEY_SECRET
from tavla.services.notify import EMAIL_FROM_ENV, SMS_SENDER_ID_ENV
from tavla.webpush import SECRET_ENV as PUSH_KEY_ENV
from tavla.webpush import SUBJECT_ENV as PUSH_SUBJECT_ENV

SEED_LENGTH = 64  # characters of the push key's seed (tavla.webpush hashes it to the key)


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
        self._push_key([by_name[spec.name] for spec in functions if spec.reads_push_key])

    def _push_key(self, functions: list[lambda_.Function]) -> None:
        self.push_key = secretsmanager.Secret(
            self,
            PUSH_KEY_SECRET,
            description="Seed of the Web Push (VAPID) key pair that signs players' push notices",
            generate_secret_string=secretsmanager.SecretStringGenerator(
                password_length=SEED_LENGTH, exclude_punctuation=True
            ),
        )
        NagSuppressions.add_resource_suppressions(
            self.push_key,
            [
                {
                    "id": "AwsSolutions-SMG4",
                    "reason": "Browsers subscribed with the key's public half: a new key voids every "
                    "subscription until each player's browser subscribes again. Rotated by hand.",
                }
            ],
        )
        sender = self.node.try_get_context("email_from")
        subject = self.node.try_get_context("push_subject") or (f"mailto:{sender}" if sender else None)
        for function in functions:
            self.push_key.grant_read(function)
            function.add_environment(PUSH_KEY_ENV, self.push_key.secret_arn)
            if subject:
                function.add_environment(PUSH_SUBJECT_ENV, str(subject))

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
