"""Faults injected into the handlers' DynamoDB writes, switched by `POST /dev/faults` (local only).

The platform promises that a throttled or conflicting write ends in a retry or a clean 503,
never in half a change. To show it over HTTP, the Lambda environments carry a botocore hook
(`before-send` on their DynamoDB client, so botocore's own retries see each fault as they
would see DynamoDB's) that fails a chosen share, or the next N, of the writes (PutItem,
UpdateItem, DeleteItem, TransactWriteItems, BatchWriteItem) with:

- `throttle`: ProvisionedThroughputExceededException; `throttling`: ThrottlingException;
- `conflict`: a transaction cancelled by TransactionConflict (every item), a single write's
  TransactionConflictException, a batch write with every item left unprocessed;
- `timeout`: the request never reached DynamoDB (botocore's ReadTimeoutError);
- `kill`: the execution environment dies at that write (`os._exit`), as a Lambda sandbox
  killed mid-invocation would: the writes before it stand, the ones after never happen.

The switch is state shared by every environment (spawned processes), set from the stack's
process. `function` limits the faults to one registry function's invocations (so a bus
consumer running meanwhile does not take them); `skip` lets the first K matching writes
through (`{"kind": "kill", "next": 1, "skip": 1, "operations": ["TransactWriteItems"],
"function": "draw"}` kills a draw between its matches and its publication); `touching` limits
them to writes whose request names every one of the given strings (a tournament's and a match's
keys: so a schedule of another tournament, or of another match, firing meanwhile takes none).
`share` is deterministic: of every 1/share matching writes, one fails.
The cloud has no such route and no such hook: nothing here is imported by a handler.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
from functools import partial
from typing import Any

from botocore.awsrequest import AWSPreparedRequest, AWSResponse, HTTPHeaders
from botocore.exceptions import ReadTimeoutError

from infra.registry import FUNCTIONS

FUNCTION_NAMES = tuple(f.name for f in FUNCTIONS)
WRITES = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")
KINDS = ("throttle", "throttling", "conflict", "timeout", "kill")
_ERROR_TYPE = "com.amazonaws.dynamodb.v20120810#"
# slots of the shared array
_KIND, _SHARE, _REMAINING, _SKIP, _OPERATIONS, _SEEN, _INJECTED, _FUNCTION = range(8)
_UNLIMITED = -1.0
_TOUCHING_BYTES = 512


class FaultRequestError(ValueError):
    """The body of `POST /dev/faults` does not say a fault the switch knows."""


class FaultSwitch:
    """The faults to inject, shared by the stack's process and every Lambda environment."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._lock = context.Lock()
        self._state = context.RawArray("d", 8)
        self._touching = context.RawArray("c", _TOUCHING_BYTES)  # a JSON list of strings
        self.invoking: str | None = None  # the registry function this environment is running

    # -- the stack's side --------------------------------------------------------------

    def set(self, request: Any) -> dict[str, Any]:
        """Switch to the fault `request` describes (`{}` or `{"kind": null}`: off); counters restart."""
        if not isinstance(request, dict):
            raise FaultRequestError("Send a JSON object.")
        kind = request.get("kind")
        share, count, skip = request.get("share"), request.get("next"), request.get("skip", 0)
        operations = request.get("operations", list(WRITES))
        function = request.get("function")
        touching = request.get("touching", [])
        if function is not None and function not in FUNCTION_NAMES:
            raise FaultRequestError(
                f"function: one of the registry's functions ({', '.join(FUNCTION_NAMES)})."
            )
        if kind is not None and kind not in KINDS:
            raise FaultRequestError(f"kind: one of {', '.join(KINDS)} (or null: no fault).")
        if kind is not None and (share is None) == (count is None):
            raise FaultRequestError('Say which writes fail: "share" (0 to 1) or "next" (a count).')
        if share is not None and not (_number(share) and 0 < share <= 1):
            raise FaultRequestError("share: a number above 0, at most 1.")
        for name, value in (("next", count), ("skip", skip)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise FaultRequestError(f"{name}: a whole number, 0 or more.")
        if not isinstance(operations, list) or not operations or any(o not in WRITES for o in operations):
            raise FaultRequestError(f"operations: a list of {', '.join(WRITES)}.")
        if not isinstance(touching, list) or not all(isinstance(t, str) and t for t in touching):
            raise FaultRequestError("touching: a list of strings every faulted write must name.")
        encoded = json.dumps(touching).encode()
        if len(encoded) >= _TOUCHING_BYTES:
            raise FaultRequestError(f"touching: at most {_TOUCHING_BYTES - 1} bytes as JSON.")
        with self._lock:
            self._touching.value = encoded
            self._state[_KIND] = 0 if kind is None else KINDS.index(kind) + 1
            self._state[_SHARE] = float(share or 0)
            self._state[_REMAINING] = _UNLIMITED if count is None else float(count)
            self._state[_SKIP] = float(skip)
            self._state[_OPERATIONS] = float(sum(1 << WRITES.index(o) for o in operations))
            self._state[_FUNCTION] = 0 if function is None else FUNCTION_NAMES.index(function) + 1
            self._state[_SEEN] = self._state[_INJECTED] = 0
        return self.describe()

    def describe(self) -> dict[str, Any]:
        with self._lock:
            state = list(self._state)
            touching = json.loads(self._touching.value or b"[]")
        kind = KINDS[int(state[_KIND]) - 1] if state[_KIND] else None
        described: dict[str, Any] = {
            "kind": kind,
            "seen": int(state[_SEEN]),
            "injected": int(state[_INJECTED]),
        }
        if kind is not None:
            described["operations"] = [o for i, o in enumerate(WRITES) if int(state[_OPERATIONS]) >> i & 1]
            described["skip"] = int(state[_SKIP])
            if state[_FUNCTION]:
                described["function"] = FUNCTION_NAMES[int(state[_FUNCTION]) - 1]
            if touching:
                described["touching"] = touching
            if state[_REMAINING] == _UNLIMITED:
                described["share"] = state[_SHARE]
            else:
                described["next"] = int(state[_REMAINING])
        return described

    # -- an environment's side ---------------------------------------------------------

    def take(self, operation: str, body: bytes = b"") -> str | None:
        """The fault this write (its request `body`) gets, if any (counted once, whichever
        environment asks)."""
        with self._lock:
            state = self._state
            if not state[_KIND] or not int(state[_OPERATIONS]) >> WRITES.index(operation) & 1:
                return None
            if state[_FUNCTION] and self.invoking != FUNCTION_NAMES[int(state[_FUNCTION]) - 1]:
                return None
            if not all(t.encode() in body for t in json.loads(self._touching.value or b"[]")):
                return None
            if state[_SKIP] > 0:
                state[_SKIP] -= 1
                return None
            seen = state[_SEEN]
            state[_SEEN] = seen + 1
            if state[_REMAINING] == _UNLIMITED:
                hit = math.floor((seen + 1) * state[_SHARE]) > math.floor(seen * state[_SHARE])
            else:
                hit = state[_REMAINING] > 0
                state[_REMAINING] -= hit
            if not hit:
                return None
            state[_INJECTED] += 1
            return KINDS[int(state[_KIND]) - 1]

    def install(self, events: Any = None) -> None:
        """Hook the DynamoDB writes of every client this process creates from now on (from
        `tavla.aws`'s one session, as every handler's client is), or of the client whose
        `meta.events` is given; first in line, so no other before-send handler (moto's)
        answers before the fault."""
        if events is None:
            from tavla import aws

            events = aws.session().events
        for operation in WRITES:
            events.register_first(f"before-send.dynamodb.{operation}", partial(self._on_send, operation))

    def _on_send(self, operation: str, request: AWSPreparedRequest, **_: Any) -> AWSResponse | None:
        sent = request.body if isinstance(request.body, bytes) else str(request.body or "{}").encode()
        kind = self.take(operation, sent)
        if kind is None:
            return None
        if kind == "kill":
            os._exit(137)  # the point: no cleanup, no finally, as a killed sandbox
        if kind == "timeout":
            raise ReadTimeoutError(endpoint_url=request.url)
        body = json.loads(sent)
        if kind == "conflict":
            return _conflict(request.url, operation, body)
        code = "ProvisionedThroughputExceededException" if kind == "throttle" else "ThrottlingException"
        return _answer(request.url, 400, {"__type": _ERROR_TYPE + code, "message": "Injected by /dev/faults"})


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _conflict(url: str, operation: str, body: dict[str, Any]) -> AWSResponse:
    """What DynamoDB answers a write that met another transaction on one of its items."""
    if operation == "BatchWriteItem":  # nothing written, everything to send again
        return _answer(url, 200, {"UnprocessedItems": body.get("RequestItems", {})})
    if operation == "TransactWriteItems":
        reasons = [{"Code": "TransactionConflict", "Message": "Injected by /dev/faults"}] * len(
            body.get("TransactItems", [])
        )
        return _answer(
            url,
            400,
            {
                "__type": _ERROR_TYPE + "TransactionCanceledException",
                "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons "
                f"[{', '.join('TransactionConflict' for _ in reasons)}]",
                "CancellationReasons": reasons,
            },
        )
    return _answer(
        url,
        400,
        {
            "__type": _ERROR_TYPE + "TransactionConflictException",
            "message": "Transaction is ongoing for the item",
        },
    )


class _Raw:
    """The urllib3 response botocore would read the body from."""

    def __init__(self, body: bytes) -> None:
        self._body = body

    def stream(self, **_: Any) -> Any:
        yield self._body


def _answer(url: str, status: int, body: dict[str, Any]) -> AWSResponse:
    data = json.dumps(body).encode()
    headers = HTTPHeaders()
    headers["content-type"] = "application/x-amz-json-1.0"
    headers["x-amzn-requestid"] = "injected-fault"
    return AWSResponse(url, status, headers, _Raw(data))
