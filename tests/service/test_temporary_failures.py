"""A throttled or conflicting DynamoDB write ends in a retry or a clean 503 with Retry-After,
never a 500 and never half a change (API.md's 503; the write here: R1.1's profile).

In-process moto answers every request whatever a hook says (it runs as a before-send hook
itself), so here the faults replace the store's client; the local stack's fault switch
(`local.faults`, DynamoDB Local) is exercised over HTTP in tests/e2e/test_faults.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError, ReadTimeoutError

from infra.registry import FUNCTIONS
from local.faults import FaultSwitch
from tavla.store import dynamo, transactions
from tests.service.conftest import Api


def _error(code: str, items: int = 0) -> ClientError:
    response: dict[str, Any] = {"Error": {"Code": code, "Message": "injected"}}
    if code == "TransactionCanceledException":
        response["CancellationReasons"] = [{"Code": "TransactionConflict"}] * items
    return ClientError(response, "TransactWriteItems")  # type: ignore[arg-type]


class _Faulty:
    """The store's client, with its next `count` transactions failing with `failure`."""

    def __init__(self, count: int, failure: Exception | str) -> None:
        self.count, self.failure, self.calls = count, failure, 0

    def transact_write_items(self, **request: Any) -> Any:
        self.calls += 1
        if self.calls <= self.count:
            failure = self.failure
            raise _error(failure, len(request["TransactItems"])) if isinstance(failure, str) else failure
        return dynamo.client().transact_write_items(**request)


def _faulty(monkeypatch: pytest.MonkeyPatch, count: int, failure: Exception | str) -> _Faulty:
    faulty = _Faulty(count, failure)
    monkeypatch.setattr(transactions, "client", lambda: faulty)
    return faulty


def _create(api: Api) -> Any:
    return api.call("POST", "/players", body={"name": "Eleni Papadopoulou"}, user="eleni")


@pytest.mark.parametrize(
    "failure",
    [
        "TransactionCanceledException",  # a conflict on every one of the transaction's attempts
        "ProvisionedThroughputExceededException",  # botocore's own retries spent
        "ThrottlingException",
        "TransactionConflictException",
        ReadTimeoutError(endpoint_url="http://dynamodb"),
    ],
)
def test_a_write_failing_past_every_retry_is_a_503_with_retry_after_and_nothing_written(
    api: Api, monkeypatch: pytest.MonkeyPatch, failure: Exception | str
) -> None:
    """503 `busy` with Retry-After; the profile is not there; the same request sent again succeeds."""
    faulty = _faulty(monkeypatch, 100, failure)
    reply = _create(api)
    assert (reply.status, reply.error) == (503, "busy")
    assert int(reply.headers["retry-after"]) >= 1
    expected_calls = transactions.CONFLICT_RETRIES + 1 if failure == "TransactionCanceledException" else 1
    assert faulty.calls == expected_calls
    assert api.call("GET", "/me", user="eleni").status == 404
    faulty.count = 0
    assert _create(api).status == 201


def test_a_transaction_that_meets_a_conflict_twice_succeeds_on_its_own_retry(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    faulty = _faulty(monkeypatch, 2, "TransactionCanceledException")
    assert _create(api).status == 201
    assert faulty.calls == 3
    assert api.call("GET", "/me", user="eleni").status == 200


def test_an_error_that_is_nobodys_momentary_load_stays_a_failure(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ValidationException is a bug: never passed off as "try again"."""
    _faulty(monkeypatch, 1, "ValidationException")
    with pytest.raises(ClientError):
        _create(api)


def test_the_switch_refuses_what_it_does_not_know() -> None:
    switch = FaultSwitch()
    bad: Any
    for bad in (
        {"kind": "meteor", "next": 1},
        {"kind": "throttle"},
        {"kind": "throttle", "share": 2},
        {"kind": "throttle", "next": -1},
        {"kind": "throttle", "next": 1, "operations": ["Query"]},
        {"kind": "throttle", "next": 1, "function": "nothing"},
        {"kind": "throttle", "next": 1, "touching": "MATCH#main.F1"},
        {"kind": "throttle", "next": 1, "touching": [""]},
        {"kind": "throttle", "next": 1, "touching": ["x" * 600]},
        [],
    ):
        with pytest.raises(ValueError):
            switch.set(bad)
    assert switch.describe() == {"kind": None, "seen": 0, "injected": 0}


def test_a_share_fails_that_share_of_the_writes_deterministically() -> None:
    switch = FaultSwitch()
    switch.set({"kind": "throttle", "share": 0.25, "skip": 2, "operations": ["PutItem"]})
    taken = [switch.take("PutItem") for _ in range(42)]
    assert taken[:2] == [None, None]  # skipped
    assert taken.count("throttle") == 10  # 40 counted, one in four
    assert switch.take("UpdateItem") is None  # not a chosen operation


def test_faults_for_one_function_leave_the_others_alone() -> None:
    switch = FaultSwitch()
    switch.set({"kind": "conflict", "next": 1, "function": "draw"})
    switch.invoking = "notify"
    assert switch.take("PutItem") is None
    switch.invoking = "draw"
    assert switch.take("PutItem") == "conflict"
    assert switch.take("PutItem") is None  # the next 1, spent


def test_faults_touching_one_match_leave_other_writes_alone() -> None:
    """A schedule of another tournament, or of another match, firing meanwhile takes no fault."""
    switch = FaultSwitch()
    switch.set({"kind": "conflict", "next": 1, "touching": ["TOURNAMENT#t1", "MATCH#main.F1"]})
    assert switch.describe()["touching"] == ["TOURNAMENT#t1", "MATCH#main.F1"]
    assert switch.take("TransactWriteItems", b'{"pk": "TOURNAMENT#t2", "sk": "MATCH#main.F1"}') is None
    assert switch.take("TransactWriteItems", b'{"pk": "TOURNAMENT#t1", "sk": "MATCH#main.S1.1"}') is None
    assert switch.take("TransactWriteItems", b'{"pk": "TOURNAMENT#t1", "sk": "MATCH#main.F1"}') == "conflict"


def test_botocores_retries_give_up_inside_every_http_functions_timeout() -> None:
    """Throttled past its retries, a write must still leave time to answer the 503: botocore's
    standard backoff sleeps at most 1, 2, 4 ... s before the 2nd, 3rd, 4th ... attempt."""
    retries = dynamo.client().meta.config.retries
    assert retries == {"mode": "standard", "total_max_attempts": dynamo.ATTEMPTS}
    worst_sleep = sum(2**n for n in range(dynamo.ATTEMPTS - 1))
    assert worst_sleep < min(f.timeout_seconds for f in FUNCTIONS if f.http) - 2
