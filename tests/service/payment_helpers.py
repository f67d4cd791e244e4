"""Building blocks for money tests: the fake card provider in-process, signed webhooks."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from infra.registry import function
from local.fake_provider import FakeProvider, FakeStripeHttp, signature
from tavla import card_payments
from tests.service.conftest import PAYMENT_PROVIDER_SECRET, SCHEDULER_GROUP, Api, LambdaContext, Reply
from tests.service.helpers import ORGANISER

WEBHOOK_SECRET = json.loads(PAYMENT_PROVIDER_SECRET)["webhook_secret"]
# a Greek bank's CSV export: `;` between cells, decimal commas, day/month/year
MAPPING = {
    "value_date": "Date",
    "amount": "Amount",
    "reference": "Description",
    "payer": "Payer",
    "decimal_comma": True,
    "date_format": "31/12/2026",
    "delimiter": ";",
}


@pytest.fixture
def provider() -> Iterator[FakeProvider]:
    """The provider's API answered in-process; the real `stripe` SDK and verification run."""
    fake = FakeProvider()
    card_payments.use_http_client(FakeStripeHttp(fake))
    yield fake
    card_payments.use_http_client(None)


def deliver(api: Api, payload: str, signed: str | None) -> Reply:
    headers = {"stripe-signature": signed} if signed is not None else {}
    return api.call("POST", "/webhooks/payments", raw_body=payload, headers=headers)


def signed(payload: str, timestamp: int | None = None) -> str:
    return signature(payload, WEBHOOK_SECRET, timestamp)


def ledger_of(api: Api, tournament_id: str, tavla_id: str, user: str) -> dict[str, Any]:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tournament_id}, user=user
    )
    assert reply.status == 200, reply.body
    return next(lg for lg in reply.body["ledgers"] if lg["tavla_id"] == tavla_id)


def pay_cash(api: Api, tournament_id: str, tavla_id: str, amount: int = 2000) -> None:
    """The organiser records cash paid at the venue (R3.3)."""
    reply = api.call(
        "POST",
        "/tournaments/{tournament_id}/payments",
        params={"tournament_id": tournament_id},
        body={"tavla_id": tavla_id, "method": "cash", "amount": {"amount": amount}},
        user=ORGANISER,
    )
    assert reply.status == 201, reply.body


def fire_unpaid(payload: dict[str, Any]) -> dict[str, Any]:
    """The unpaid function, invoked as Scheduler invokes it."""
    module = importlib.import_module(function("unpaid").module)
    result: dict[str, Any] = module.handler(payload, LambdaContext("unpaid"))
    return result


def planned_schedules() -> dict[str, dict[str, Any]]:
    scheduler = boto3.client("scheduler")
    names = [s["Name"] for s in scheduler.list_schedules(GroupName=SCHEDULER_GROUP)["Schedules"]]
    return {
        n: json.loads(scheduler.get_schedule(Name=n, GroupName=SCHEDULER_GROUP)["Target"]["Input"])
        for n in names
    }
