"""The error contract: one body for every refusal, and an OpenAPI document that tells the truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, TypeAlias

import pytest

from infra import openapi
from tavla import params
from tavla.contract import errors
from tavla.errors import Busy, TournamentNotFound
from tavla.http import MAX_JSON_DEPTH, make_resolver, parse_json
from tavla.rules.errors import RuleViolation

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads(openapi.build())
OPERATIONS = [
    (method, path, operation)
    for path, item in DOCUMENT["paths"].items()
    for method, operation in item.items()
]


def event(method: str, path: str, body: str | None = None) -> dict[str, Any]:
    return {
        "version": "2.0",
        "rawPath": path,
        "headers": {"content-type": "application/json"},
        "body": body,
        "isBase64Encoded": False,
        "requestContext": {"http": {"method": method, "path": path}, "stage": "$default"},
    }


def resolve(app: Any, method: str, path: str, body: str | None = None) -> tuple[int, dict[str, str], Any]:
    reply = app.resolve(event(method, path, body), None)
    return reply["statusCode"], reply.get("headers") or {}, json.loads(reply["body"])


ShortId: TypeAlias = "Annotated[str, params.Path(max_length=4)]"  # as the handlers write them


def test_the_first_request_of_a_new_resolver_is_validated() -> None:
    """Validation is switched on after the resolver is built (its middleware comes with the
    first request, not the import): the very first request is still checked, path and query."""
    app = make_resolver()

    @app.get("/things/<thing_id>")
    def thing(thing_id: ShortId, limit: Annotated[int, params.Query(ge=1, le=9)] = 1) -> dict[str, Any]:
        return {"id": thing_id, "limit": limit}

    status, _, body = resolve(app, "GET", "/things/toolong")
    assert (status, body["error"]["code"]) == (422, "validation_error")
    status, _, body = resolve(app, "GET", "/things/ok")
    assert (status, body) == (200, {"id": "ok", "limit": 1})


def test_contention_is_a_temporary_503_with_retry_after() -> None:
    app = make_resolver()

    @app.post("/busy", responses=errors(Busy))
    def busy() -> None:
        raise Busy("Many players are registering right now; please try again.")

    status, headers, body = resolve(app, "POST", "/busy")
    assert (status, body["error"]["code"]) == (503, "busy")
    assert int(headers["Retry-After"]) >= 1


def test_a_rule_refusal_is_a_409_never_a_500() -> None:
    app = make_resolver()

    @app.post("/rule")
    def rule() -> None:
        raise RuleViolation("The Crawford game allows no double.")

    status, _, body = resolve(app, "POST", "/rule")
    assert (status, body) == (
        409,
        {"error": {"code": "rule_violation", "message": "The Crawford game allows no double."}},
    )


def test_json_nested_past_the_limit_is_malformed_not_a_crash() -> None:
    assert isinstance(parse_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH), list)
    assert parse_json('{"name": "[[[[{{{{"}') == {"name": "[[[[{{{{"}  # brackets in strings do not count
    with pytest.raises(json.JSONDecodeError):
        parse_json("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(json.JSONDecodeError):
        parse_json('{"a": ' * 1000 + "1" + "}" * 1000)


def test_every_operation_has_a_summary_and_a_description() -> None:
    for method, path, operation in OPERATIONS:
        assert operation.get("summary") and operation["summary"] != f"{method.upper()} {path}", path
        assert "\n" not in operation["summary"], path
        assert operation.get("description"), f"{method.upper()} {path} has no description"


def error_codes(schema: dict[str, Any]) -> set[str]:
    """The codes an error schema allows; fails unless it is the API's body (or API Gateway's)."""
    shapes = schema.get("anyOf", [schema])
    ours = [s for s in shapes if "error" in s.get("properties", {})]
    assert len(ours) == 1 and ours[0]["required"] == ["error"]
    assert all(s in ours or s["required"] == ["message"] for s in shapes)
    error = ours[0]["properties"]["error"]
    assert error["required"] == ["code", "message"]
    return set(error["properties"]["code"]["enum"])


def test_every_error_is_documented_in_the_real_body_with_its_codes() -> None:
    for method, path, operation in OPERATIONS:
        responses = operation["responses"]
        for status, response in responses.items():
            if int(status) < 400:
                continue
            codes = error_codes(response["content"]["application/json"]["schema"])
            assert codes, f"{method} {path} {status}"
            if status == "503":
                assert "Retry-After" in response["headers"]
        if "requestBody" in operation:
            assert "malformed_json" in error_codes(responses["400"]["content"]["application/json"]["schema"])
        if operation.get("security"):
            assert "anyOf" in responses["401"]["content"]["application/json"]["schema"], "API Gateway's 401"
        if operation.get("parameters") or "requestBody" in operation:
            assert "validation_error" in error_codes(
                responses["422"]["content"]["application/json"]["schema"]
            )
        else:
            assert "422" not in responses, f"{method} {path} has no input to refuse"
    assert "HTTPValidationError" not in DOCUMENT["components"]["schemas"]


def test_a_route_documents_the_codes_its_use_case_gives() -> None:
    registration = DOCUMENT["paths"]["/tournaments/{tournament_id}/registrations"]["post"]["responses"]
    conflicts = error_codes(registration["409"]["content"]["application/json"]["schema"])
    assert {"already_registered", "registration_closed"} <= conflicts
    assert "busy" in error_codes(registration["503"]["content"]["application/json"]["schema"])
    page = DOCUMENT["paths"]["/tournaments/{tournament_id}"]["get"]["responses"]
    assert {TournamentNotFound.code, "route_not_found"} <= error_codes(
        page["404"]["content"]["application/json"]["schema"]
    )


def test_the_document_is_the_same_however_often_it_is_built() -> None:
    """The registry reads routes from the same resolvers before the document is built."""
    from infra.registry import FUNCTIONS

    for function in FUNCTIONS:
        function.routes()
    assert json.loads(openapi.build()) == DOCUMENT


def _error_codes(node: Any) -> set[str]:
    """Every error code the document says some route can answer."""
    if isinstance(node, list):
        return set().union(*(_error_codes(n) for n in node))
    if not isinstance(node, dict):
        return set()
    found: set[str] = set()
    if node.get("title") == "Error":
        found = set(node["properties"]["error"]["properties"]["code"]["enum"])
    return found.union(*(_error_codes(v) for v in node.values()))


def test_every_refusal_the_api_can_give_has_a_sentence_in_each_language_of_the_front_end() -> None:
    """Greek first, then English and Italian: the API explains in English; a screen shows the
    front end's own text for the error's code in its language (web/src/i18n/errors.<lang>.json),
    so a new refusal needs its sentence in each."""
    codes = _error_codes(DOCUMENT)
    assert len(codes) > 40
    for lang in ("el", "en", "it"):
        catalogue = json.loads((ROOT / f"web/src/i18n/errors.{lang}.json").read_text(encoding="utf-8"))
        assert sorted(codes - catalogue.keys()) == [], lang
        assert all(text.strip() and text == text.strip() for text in catalogue.values()), lang
