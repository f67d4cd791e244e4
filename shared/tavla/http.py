"""What every HTTP function shares: the resolver, who is calling, and the API's error body.

Handlers stay thin: they parse with pydantic (through Powertools' validation), ask
`caller()` who is calling, call a service and return its result. Every DomainError and
every validation failure becomes `{"error": {"code", "message"}}` with its 4xx here, in
one place; nothing a client sends reaches the caller as a 500.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from botocore.exceptions import ClientError, ConnectionClosedError, ConnectTimeoutError, ReadTimeoutError

from tavla.caller import Caller
from tavla.contract import CACHE_MAX_AGE, MALFORMED_JSON, ROUTE_NOT_FOUND, VALIDATION_ERROR, Resolver
from tavla.errors import Busy, DomainError, RuleBroken, Unauthorized, UnsupportedMediaType
from tavla.rules.errors import RuleViolation

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

# Marks a route as needing a signed-in user (the API Gateway JWT authorizer in the cloud,
# the local stack's check of the same token locally). Routes without it are public.
SIGNED_IN: list[dict[str, list[str]]] = [{"bearerAuth": []}]
# A plain mapping, not Powertools' `HTTPBearer`: importing its OpenAPI models costs every
# cold start ~0.1 s, and only the document's generation (never a request) reads them.
SECURITY_SCHEMES: Any = {
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "Cognito ID token (locally: POST /dev/token)",
    }
}


def error_response(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> Response[str]:
    body = json.dumps({"error": {"code": code, "message": message}})
    return Response(
        status_code=status, content_type="application/json", body=body, headers=dict(headers or {})
    )


# Deeper than any body of this API; json.loads would otherwise recurse until RecursionError.
MAX_JSON_DEPTH = 32
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def parse_json(text: str) -> Any:
    """json.loads with an explicit nesting limit: a 1,000-level body is malformed JSON, not a crash."""
    depth = 0
    for bracket in _JSON_BRACKET.finditer(_JSON_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_JSON_DEPTH:
            raise json.JSONDecodeError(f"nested deeper than {MAX_JSON_DEPTH} levels", text, bracket.start())
    return json.loads(text)


def is_json(content_type: str) -> bool:
    """application/json, with any parameters (a charset); no type at all is read as JSON too."""
    return content_type.split(";")[0].strip().lower() in ("", "application/json")


class JsonResolver(Resolver):
    """The resolver of a JSON API: a body of any other media type is refused before parsing.

    Powertools would otherwise parse form and multipart bodies (and, for multipart without
    a boundary, raise a ValueError: a 500). Refused here, every route answers 415 alike.
    """

    def resolve(self, event: Mapping[str, Any], context: LambdaContext) -> dict[str, Any]:
        content_type = str((event.get("headers") or {}).get("content-type", ""))
        if event.get("body") and not is_json(content_type):
            refused = UnsupportedMediaType(f"Send the body as application/json, not {content_type}.")
            body = json.dumps({"error": {"code": refused.code, "message": refused.message}})
            return {
                "statusCode": refused.status,
                "headers": {"Content-Type": "application/json"},
                "body": body,
                "isBase64Encoded": False,
            }
        return super().resolve(event, context)


def etag(body: str) -> str:
    """A strong entity tag: the same JSON text, the same tag, on every instance."""
    return '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'


def etag_matches(if_none_match: str | None, current: str) -> bool:
    """If-None-Match's weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches.

    CloudFront weakens an ETag when it compresses a response, so a phone may send it back so.
    """
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or current in tags


class CacheFor:
    """Route middleware of a public GET: `ETag` and `Cache-Control: public, max-age=<n>` on a
    200, and 304 with no body when the request's If-None-Match names the current tag.

    It runs after Powertools validated and encoded the handler's result, so the tag is a
    hash of exactly the JSON sent; the handler stays as it is. Use it through `cached`.
    """

    def __init__(self, max_age: int, *, private: bool = False) -> None:
        if max_age < 0:
            raise ValueError("max-age is a number of seconds, 0 or more")
        # read by tavla.contract for the document: -1 for a private answer revalidated each time
        setattr(self, CACHE_MAX_AGE, -1 if private else max_age)
        self.max_age = max_age
        self.cache_control = "private, no-cache" if private else f"public, max-age={max_age}"
        self.__name__ = f"cache_for_{max_age}s"  # Powertools names middlewares in its debug output

    def __call__(
        self, app: APIGatewayHttpResolver, next_middleware: Callable[..., Response[Any]]
    ) -> Response[Any]:
        response = next_middleware(app)
        if response.status_code != 200:
            return response
        body = (
            response.body
            if isinstance(response.body, str)
            else json.dumps(response.body, separators=(",", ":"))
        )
        tag = etag(body)
        headers = {"ETag": tag, "Cache-Control": self.cache_control}
        if etag_matches(app.current_event.headers.get("if-none-match"), tag):
            return Response(status_code=304, body="", headers=headers)
        response.body = body
        response.headers.update(headers)
        return response


# how long a public answer a live hint makes screens refetch may be kept: a screen refetches
# with the hint's version in the query (`?v=`), a new key for the CDN, so the age bounds only
# what a screen without the live channel sees (docs/live.md)
LIVE_MAX_AGE = 5


def cached(max_age: int) -> list[Callable[..., Response[Any]]]:
    """The middlewares of a public GET that CloudFront and phones may cache for `max_age` s:

        @app.get("/tournaments/<tournament_id>/board", middlewares=cached(max_age=5), ...)

    The OpenAPI document then lists the ETag and Cache-Control headers and the 304.
    """
    return [CacheFor(max_age)]


def revalidated() -> list[Callable[..., Response[Any]]]:
    """The middlewares of a signed-in GET a screen refetches on a live hint (the desk's lists):
    an ETag and a 304 when nothing changed, `Cache-Control: private, no-cache` so that no
    shared cache keeps it and the browser asks every time."""
    return [CacheFor(0, private=True)]


# AWS's "not now", once botocore's own retries (`store.dynamo.ATTEMPTS`) are spent: nothing
# was written (a write is one call, a change one transaction), so the client is told to send
# the same request again after Retry-After rather than shown a 500.
TEMPORARY_AWS_ERRORS = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "TransactionConflictException",
        "TransactionInProgressException",
        "InternalServerError",
        "ServiceUnavailable",
    }
)
# The request or its answer was lost on the way: the write may have landed. Every write of the
# API is idempotent (a condition, a version, an Idempotency-Key), so sending it again is safe.
LOST_ON_THE_WAY: list[type[Exception]] = [ReadTimeoutError, ConnectTimeoutError, ConnectionClosedError]
AWS_BUSY_MESSAGE = "The platform is very busy right now: try again in a moment."


def _busy() -> Response[str]:
    busy = Busy(AWS_BUSY_MESSAGE)
    return error_response(busy.status, busy.code, busy.message, busy.headers)


def _describe(errors: Any) -> str:
    parts = []
    for error in errors:
        where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body",))
        parts.append(f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg")))
    return "; ".join(parts) or "The request is not valid."


API_TITLE = "Tavla API"
API_VERSION = "0.1.0"


def make_resolver() -> JsonResolver:
    """A resolver with validation on, the API's error mapping and its OpenAPI identity.

    Validation is switched on after construction: constructed with it, Powertools imports
    its validation middleware (and with it its OpenAPI params and pydantic models, ~0.15 s)
    at init; switched on so, the first request builds it (Powertools' own path for a
    resolver that has none), and every route is validated all the same.
    """
    app = JsonResolver(enable_validation=False, json_body_deserializer=parse_json)
    app._enable_validation = True
    app.configure_openapi(
        title=API_TITLE,
        version=API_VERSION,
        description="Tavla: physical backgammon tournaments, from registration to the Super Final.",
        security_schemes=SECURITY_SCHEMES,
    )

    @app.exception_handler(DomainError)
    def _domain(error: DomainError) -> Response[str]:
        return error_response(error.status, error.code, error.message, error.headers)

    @app.exception_handler(ClientError)
    def _aws(error: ClientError) -> Response[str]:
        if str(error.response.get("Error", {}).get("Code")) in TEMPORARY_AWS_ERRORS:
            return _busy()
        raise error  # anything else is a bug: a 500 with its trace in the log

    @app.exception_handler(LOST_ON_THE_WAY)
    def _lost(_: Exception) -> Response[str]:
        return _busy()

    @app.exception_handler(RuleViolation)
    def _rule(error: RuleViolation) -> Response[str]:
        # Services turn a violation that is about the input into Invalid (422) themselves.
        refused = RuleBroken(str(error))
        return error_response(refused.status, refused.code, refused.message)

    @app.exception_handler(RequestValidationError)
    def _validation(error: RequestValidationError) -> Response[str]:
        errors = error.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, MALFORMED_JSON, "The request body is not valid JSON.")
        return error_response(422, VALIDATION_ERROR, _describe(errors))

    @app.exception_handler(json.JSONDecodeError)
    def _json(_: json.JSONDecodeError) -> Response[str]:
        return error_response(400, MALFORMED_JSON, "The request body is not valid JSON.")

    @app.not_found
    def _not_found(_: Exception) -> Response[str]:
        return error_response(404, ROUTE_NOT_FOUND, "No such route.")

    return app


def _groups(raw: Any) -> frozenset[str]:
    # HTTP API JWT authorizers pass array claims as "[a b]"; tests may pass real lists.
    if isinstance(raw, list):
        return frozenset(str(g) for g in raw)
    if isinstance(raw, str):
        return frozenset(g for g in raw.strip("[]").replace(",", " ").split() if g)
    return frozenset()


def caller(app: APIGatewayHttpResolver) -> Caller:
    """Who is calling: the verified JWT's subject and Cognito groups."""
    context = app.current_event.raw_event.get("requestContext", {})
    claims = ((context.get("authorizer") or {}).get("jwt") or {}).get("claims") or {}
    sub = claims.get("sub")
    if not sub:
        raise Unauthorized("Sign in first: this route needs a valid token.")
    return Caller(sub=str(sub), groups=_groups(claims.get("cognito:groups")))
