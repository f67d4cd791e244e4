"""Deployment stages (dev, prod), read from CDK context (`cdk.json` -> `context.stages`).

Everything that differs between stages is a value here, never a copy of code: names, the
domain, the operators' e-mail, the SMS sender id, log retention, what happens to data when
the stack goes, throttling per route class, the WAF rate limit, the budget, backups.
`-c stage=dev` on the command line picks one stage; without it every stage is synthesized.

This module is plain Python (no aws_cdk): the Makefile and the tests read it too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

RouteClass = Literal["public_read", "signed_in_read", "write"]
ROUTE_CLASSES: tuple[RouteClass, ...] = ("public_read", "signed_in_read", "write")
EDGE_REGION = "us-east-1"  # CloudFront's WAF web ACLs and certificates live only there
CDK_JSON = Path(__file__).resolve().parent.parent / "cdk.json"


@dataclass(frozen=True)
class Throttle:
    rate: int  # requests per second, steady state
    burst: int


@dataclass(frozen=True)
class Stage:
    name: str  # dev | prod
    region: str
    stack_name: str  # the regional stack; the edge stack (us-east-1) is `<stack_name>-Edge`
    alarm_email: str  # subscribed to the operators' topic; also the budget's recipient
    sms_sender_id: str  # alphanumeric sender id shown on players' phones (where allowed)
    email_from: str  # SES-verified sender; "" = no e-mail is sent
    domain: str  # the site's own name, "" = the cloudfront.net name
    certificate_arn: str  # ACM certificate in us-east-1 covering `domain` ("" without a domain)
    sign_in_domain_prefix: str  # Cognito hosted sign-in: https://<prefix>.auth.<region>.amazoncognito.com
    log_retention_days: int
    retain_data: bool  # tables, user pool and logs kept (and protected) when the stack goes
    backup: bool  # AWS Backup plan over the tables, beyond point-in-time recovery
    monthly_budget_usd: int
    waf_rate_limit: int  # requests per 5 minutes per client IP at CloudFront
    p99_latency_ms: int  # alarm when an HTTP function's p99 duration exceeds it
    throttling: dict[str, Throttle]  # "default" and one per RouteClass

    @property
    def edge_stack_name(self) -> str:
        return f"{self.stack_name}-Edge"

    @property
    def protected(self) -> bool:
        return self.retain_data

    def throttle(self, route_class: RouteClass | Literal["default"]) -> Throttle:
        return self.throttling[route_class]


def route_class(method: str, public: bool) -> RouteClass:
    """Which throttling class a route belongs to."""
    if method == "GET":
        return "public_read" if public else "signed_in_read"
    return "write"


def parse(name: str, raw: dict[str, Any], region: str) -> Stage:
    """One stage from its context mapping; unknown or missing keys are an error."""
    known = {f.name for f in fields(Stage)} - {"name", "region"}
    missing, unknown = known - raw.keys(), raw.keys() - known
    if missing or unknown:
        raise ValueError(f"stage {name}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    throttling = {key: Throttle(**value) for key, value in raw["throttling"].items()}
    if set(throttling) != {"default", *ROUTE_CLASSES}:
        raise ValueError(f"stage {name}: throttling needs default and {ROUTE_CLASSES}")
    if bool(raw["domain"]) != bool(raw["certificate_arn"]):
        raise ValueError(f"stage {name}: a domain needs its certificate_arn, and no certificate without one")
    values = {k: v for k, v in raw.items() if k != "throttling"}
    return Stage(name=name, region=region, throttling=throttling, **values)


def from_context(context: dict[str, Any]) -> dict[str, Stage]:
    region = str(context["region"])
    return {name: parse(name, raw, region) for name, raw in context["stages"].items()}


def from_cdk_json(path: Path = CDK_JSON) -> dict[str, Stage]:
    """The stages as cdk.json declares them (for the Makefile, scripts and tests)."""
    return from_context(json.loads(path.read_text(encoding="utf-8"))["context"])


def main() -> None:
    """`python -m infra.stages <stage> <field>`: one value, for the Makefile."""
    import sys

    stage, field = sys.argv[1], sys.argv[2]
    print(getattr(from_cdk_json()[stage], field))


if __name__ == "__main__":
    main()
