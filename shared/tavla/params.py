"""Powertools' request parameter markers (`params.Path`, `Query`, `Header`), imported on first use.

Their module builds pydantic models when imported (~0.15 s of a cold start), and a handler
needs them only when a route's signature is first read: by the first request's validation,
or by the OpenAPI document. So handlers write parameter types as strings that name this
module, e.g. `MatchId: TypeAlias = "Annotated[str, params.Path(max_length=160)]"`, which
Python resolves then, and import nothing of Powertools' OpenAPI machinery at init.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.openapi.params import Header, Path, Query

__all__ = ["Header", "Path", "Query"]


def __getattr__(name: str) -> Any:
    from aws_lambda_powertools.event_handler.openapi import params

    return getattr(params, name)
