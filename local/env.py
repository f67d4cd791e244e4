"""The environment the handlers run in: the contract between infra, the local stack and the code.

Every name is derived from the registry and the schema, as the CDK stack derives them;
boto3 finds the local endpoints through the standard AWS_ENDPOINT_URL_* variables.
"""

from __future__ import annotations

from pathlib import Path

from infra.registry import FUNCTIONS, PASS_KEY_SECRET, PAYMENT_PROVIDER_SECRET, PUSH_KEY_SECRET
from local.auth import AUDIENCE, ISSUER
from local.dynamodb import physical_name
from tavla import live, statement_files
from tavla.aws import AWS_CALL_LOG_LEVEL
from tavla.schedules import DEAD_LETTER_ENV, GROUP_ENV, ROLE_ENV
from tavla.store.schema import TABLES

REGION = "eu-central-1"
ACCOUNT = "123456789012"
EVENT_BUS = "tavla-local"
SCHEDULER_GROUP = "tavla-local"
SCHEDULER_ROLE_ARN = f"arn:aws:iam::{ACCOUNT}:role/tavla-local-scheduler"
DEAD_LETTER_QUEUE = "tavla-local-dead-letters"
DEAD_LETTER_QUEUE_ARN = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{DEAD_LETTER_QUEUE}"
STATEMENTS_BUCKET = "tavla-local-statements"  # the statement store, in moto's S3


def function_name(name: str) -> str:
    """The deployed name of a registry function, as Lambda would report it."""
    return f"tavla-{name}"


def function_arn(name: str) -> str:
    return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{function_name(name)}"


def handler_environment(dynamodb_url: str, moto_url: str) -> dict[str, str]:
    env = {
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        # Anything not named below goes to moto too, never to a real AWS account.
        "AWS_ENDPOINT_URL": moto_url,
        "AWS_ENDPOINT_URL_DYNAMODB": dynamodb_url,
        "AWS_ENDPOINT_URL_EVENTBRIDGE": moto_url,
        "AWS_ENDPOINT_URL_SCHEDULER": moto_url,
        "AWS_ENDPOINT_URL_SNS": moto_url,
        "AWS_ENDPOINT_URL_SECRETS_MANAGER": moto_url,
        "EVENT_BUS_NAME": EVENT_BUS,
        GROUP_ENV: SCHEDULER_GROUP,
        ROLE_ENV: SCHEDULER_ROLE_ARN,
        DEAD_LETTER_ENV: DEAD_LETTER_QUEUE_ARN,
        "PASS_KEY_SECRET_ID": PASS_KEY_SECRET,
        "PUSH_KEY_SECRET_ID": PUSH_KEY_SECRET,
        "PAYMENT_PROVIDER_SECRET_ID": PAYMENT_PROVIDER_SECRET,  # the fake provider's keys
        statement_files.BUCKET_ENV: STATEMENTS_BUCKET,
        "POWERTOOLS_SERVICE_NAME": "tavla",
        # Each AWS call's timing line at DEBUG: not shown unless POWERTOOLS_LOG_LEVEL=DEBUG.
        AWS_CALL_LOG_LEVEL: "DEBUG",
        "POWERTOOLS_METRICS_NAMESPACE": "Tavla",
    }
    env.update({spec.env_var: physical_name(spec) for spec in TABLES})
    env.update({f.arn_env_var: function_arn(f.name) for f in FUNCTIONS})
    return env


def live_environment(publish_url: str, jwks: Path) -> dict[str, str]:
    """The live channel's publish endpoint, and the local issuer's keys for its authorizer."""
    return {
        live.HTTP_URL_ENV: publish_url,
        live.JWKS_URL_ENV: jwks.resolve().as_uri(),
        live.ISSUER_ENV: ISSUER,
        live.AUDIENCE_ENV: AUDIENCE,
    }
