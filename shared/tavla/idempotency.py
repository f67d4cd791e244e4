"""A retried request answers like the first one (Powertools idempotency).

Phones on a venue's Wi-Fi lose responses. A client that sends an `Idempotency-Key` header
with a create request gets, on a retry with the same key, the response of the first
attempt instead of a second tournament or a 409 "already registered". Without the header a
request runs as usual. Records live in the idempotency table for a day.

A key names one request: the same key with another body (or for another tournament) is a
client bug, refused with 422 `idempotency_key_reused` instead of being served the first
answer. The record keeps a hash of the request for that (Powertools' payload validation).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, TypeAlias, TypeVar

from pydantic import BaseModel

from tavla import params
from tavla.errors import IdempotencyKeyReused, RequestInProgress
from tavla.store.dynamo import client, table_name
from tavla.store.schema import IDEMPOTENCY

# The optional header of create requests, as a handler parameter (validated, documented).
# A string (see tavla.params), read in the handler's module: it imports `params` and `Annotated`.
IdempotencyKey: TypeAlias = (
    'Annotated[str | None, params.Header(alias="Idempotency-Key", min_length=8, max_length=128)]'
)
KEPT_SECONDS = 24 * 3600

Result = TypeVar("Result", bound=BaseModel)


@cache
def _persistence() -> Any:
    from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

    return DynamoDBPersistenceLayer(table_name=table_name(IDEMPOTENCY), boto3_client=client())


def once(
    action: str,
    caller: str,
    key: str | None,
    request: dict[str, Any],
    run: Callable[[], Result],
    result: type[Result],
    context: Any = None,
) -> Result:
    """Run `run` once per (action, caller, key); a repeat of the same `request` returns the
    first result, a different `request` under the same key is refused.

    `request` is what the call asks for (path parameters and body, JSON values).
    `context` is the Lambda context: with it, an attempt cut off by the function's timeout
    does not block a retry until the record expires.
    """
    if not key:
        return run()
    # imported here: the idempotency package costs ~0.1 s, paid only by requests that use it
    from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
    from aws_lambda_powertools.utilities.idempotency.exceptions import (
        IdempotencyAlreadyInProgressError,
        IdempotencyValidationError,
    )

    config = IdempotencyConfig(
        event_key_jmespath="[caller, key]",
        payload_validation_jmespath="request",
        expires_after_seconds=KEPT_SECONDS,
    )
    if context is not None:
        config.register_lambda_context(context)

    def execute(call: dict[str, Any]) -> dict[str, Any]:
        return run().model_dump(mode="json")

    guarded = idempotent_function(
        execute,
        data_keyword_argument="call",
        persistence_store=_persistence(),
        config=config,
        key_prefix=f"tavla.{action}",
    )
    try:
        answer = guarded(call={"caller": caller, "key": key, "request": request})
    except IdempotencyAlreadyInProgressError as error:
        raise RequestInProgress("The same request is still being processed; retry shortly.") from error
    except IdempotencyValidationError as error:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used for a different request: use a new key."
        ) from error
    return result.model_validate(answer)
