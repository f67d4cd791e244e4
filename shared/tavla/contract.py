"""What the OpenAPI document says each route answers: its result and every refusal, in the real body.

A route declares only the refusals of its own use case, in Powertools' `responses=`:
`responses=errors(TournamentNotFound, NotStaff)`. What follows from the route's shape is
added here, once, when the document is built: 400 `malformed_json` and 415
`unsupported_media_type` for a JSON body, 422 `validation_error` for any input, 401 for a
signed-in route, 404 `route_not_found` for a path parameter. Where API Gateway itself
answers (a missing or invalid token, a path that fits no route once decoded) the document
gives its `{"message": ...}` body as well, since an HTTP API cannot change it. Summaries
and descriptions come from the handlers' docstrings.

Nothing here runs while a request is served: only `infra.openapi` and the registry build
the document.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

from tavla.errors import DomainError, Unauthorized, Unavailable, UnsupportedMediaType

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.api_gateway import Route
    from aws_lambda_powertools.event_handler.openapi.models import OpenAPI
    from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

# The attribute by which a route middleware (tavla.http's `cached`) says how long the route's
# answer may be cached; the document then lists ETag, Cache-Control and the 304.
CACHE_MAX_AGE = "cache_max_age"

MALFORMED_JSON = "malformed_json"
VALIDATION_ERROR = "validation_error"
ROUTE_NOT_FOUND = "route_not_found"
JSON = "application/json"

# API Gateway's own answers, e.g. {"message": "Unauthorized"} and {"message": "Not Found"}.
GATEWAY_BODY: dict[str, Any] = {
    "type": "object",
    "title": "GatewayError",
    "description": "API Gateway's own answer (a missing or invalid token, a path that fits no route).",
    "required": ["message"],
    "properties": {"message": {"type": "string"}},
    "additionalProperties": False,
}


def error_body(codes: Iterable[str]) -> dict[str, Any]:
    """The API's error body, `{"error": {"code", "message"}}`, with the codes a route can give."""
    return {
        "type": "object",
        "title": "Error",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "enum": sorted(set(codes))},
                    "message": {"type": "string", "description": "a sentence for people"},
                },
                "additionalProperties": False,
            }
        },
        "additionalProperties": False,
    }


class Errors(dict[int, "OpenAPIResponse"]):
    """A route's documented refusals by status, as Powertools' `responses=` takes them.

    Keeps the codes too, so the resolver can add what the route's shape implies.
    `gateway`: the statuses API Gateway may answer itself, in its own body.
    """

    def __init__(self, codes: Mapping[int, Iterable[str]], gateway: Iterable[int] = ()) -> None:
        self.codes = {status: frozenset(found) for status, found in codes.items()}
        shared = set(gateway)
        super().__init__(
            {status: _response(status, found, status in shared) for status, found in self.codes.items()}
        )


def errors(*raised: type[DomainError]) -> Errors:
    """The refusals a route's use case can give: each DomainError's status and code."""
    codes: dict[int, set[str]] = {}
    for error in raised:
        codes.setdefault(error.status, set()).add(error.code)
    return Errors(codes)


def _response(status: int, codes: Iterable[str], gateway: bool = False) -> OpenAPIResponse:
    listed = sorted(set(codes))
    ours = error_body(listed)
    response: OpenAPIResponse = {
        "description": f"{HTTPStatus(status).phrase}: " + ", ".join(f"`{code}`" for code in listed),
        "content": {JSON: {"schema": {"anyOf": [ours, GATEWAY_BODY]} if gateway else ours}},
    }
    if status == Unavailable.status:
        response["headers"] = {
            "Retry-After": {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}
        }
    return response


def _implied(route: Route) -> dict[int, set[str]]:
    """The refusals that follow from the route's shape, whatever its use case."""
    dependant = route.dependant
    implied: dict[int, set[str]] = {}
    if route.body_field is not None:
        implied[400] = {MALFORMED_JSON}
        implied[UnsupportedMediaType.status] = {UnsupportedMediaType.code}
    inputs = (dependant.path_params, dependant.query_params, dependant.header_params, dependant.body_params)
    if any(inputs):
        implied[422] = {VALIDATION_ERROR}
    if dependant.path_params:
        implied[404] = {ROUTE_NOT_FOUND}
    if route.security:
        implied[401] = {Unauthorized.code}
    return implied


def _max_age(route: Route) -> int | None:
    ages = [getattr(m, CACHE_MAX_AGE) for m in route.middlewares if hasattr(m, CACHE_MAX_AGE)]
    return ages[0] if ages else None


def _caching_headers(max_age: int) -> dict[str, Any]:
    control = (
        "`private, no-cache`: no shared cache keeps it; the browser revalidates it every time"
        if max_age < 0
        else f"`public, max-age={max_age}`: shared caches and the CDN may keep it that long"
    )
    return {
        "ETag": {
            "description": "a strong tag of this JSON; send it back as If-None-Match",
            "schema": {"type": "string"},
        },
        "Cache-Control": {"description": control, "schema": {"type": "string"}},
    }


def _has_input(route: Route) -> bool:
    return 422 in _implied(route)


def complete(route: Route) -> None:
    """Give the route its summary, description and every answer (idempotent)."""
    doc = inspect.getdoc(route.func) or ""
    first, _, rest = doc.partition("\n\n")
    route.summary = route.summary or " ".join(first.split()) or None
    route.description = route.description or rest.strip() or None
    declared = route.responses.codes if isinstance(route.responses, Errors) else {}
    codes = {status: set(found) for status, found in declared.items()}
    for status, found in _implied(route).items():
        codes.setdefault(status, set()).update(found)
    # Without "content" Powertools documents the handler's return type.
    default: OpenAPIResponse = {"description": route.response_description or "Success"}
    success = (route.responses or {}).get(route.status_code) or default
    # API Gateway answers 401 itself for a signed-in route, and 404 when a decoded path
    # parameter holds a "/" and the path fits no route.
    completed = Errors(codes, gateway={401, 404} if route.dependant.path_params else {401})
    max_age = _max_age(route)
    if max_age is not None:
        success = {**success, "headers": _caching_headers(max_age)}
        completed[304] = {
            "description": "Not Modified: the If-None-Match header names the current ETag; no body.",
            "headers": _caching_headers(max_age),
            "content": {},
        }
    completed[route.status_code] = success
    route.responses = completed


class Resolver(APIGatewayHttpResolver):
    """Powertools' HTTP API resolver whose OpenAPI document tells the truth about errors."""

    def get_openapi_schema(self, **kwargs: Any) -> OpenAPI:
        routes = self._static_routes + self._dynamic_routes
        for route in routes:
            complete(route)
        schema = super().get_openapi_schema(**kwargs)
        # Powertools documents a 422 `{"detail": [...]}` on every route; ours replaced it
        # where a route has input, and a route without input cannot answer 422 at all.
        without_input = {(r.openapi_path, r.method.lower()) for r in routes if not _has_input(r)}
        for path, item in (schema.paths or {}).items():
            for method in ("get", "post", "put", "patch", "delete"):
                operation = getattr(item, method, None)
                if operation is not None and (path, method) in without_input and operation.responses:
                    operation.responses.pop(422, None)
        if schema.components and schema.components.schemas:
            for unused in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):
                schema.components.schemas.pop(unused, None)
        return schema
