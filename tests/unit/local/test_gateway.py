"""The local stack's API Gateway: routing, payload v2.0, responses, table creation (no AWS)."""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace
from typing import Any

import pytest

from infra.registry import FUNCTIONS
from local.apigw import RouteEntry, RouteTable, decoded_path, http_event, http_response
from local.auth import Authority, InvalidToken, authorizer_context
from local.lambdas import HandlerError
from local.server import Gateway
from tavla.store.schema import TABLES, create_table_args

ROUTES = RouteTable(
    [
        RouteEntry("DELETE", "/tournaments/{id}/registrations/me", "registrations", False),
        RouteEntry("DELETE", "/tournaments/{id}/registrations/{player}", "staff", False),
        RouteEntry("GET", "/tournaments/{id}", "tournaments", True),
        RouteEntry("GET", "/tournaments/{id}/entries", "registrations", True),
        RouteEntry("GET", "/tournaments/{id}/entries/contacts", "checkin", False),
        RouteEntry("GET", "/files/{path+}", "files", True),
    ]
)


def match(method: str, path: str) -> tuple[RouteEntry, dict[str, str]]:
    found = ROUTES.match(method, path)
    assert found is not None, f"{method} {path} matched no route"
    return found


def test_literal_segment_wins_over_a_parameter():
    route, params = match("DELETE", "/tournaments/t1/registrations/me")
    assert route.function == "registrations"
    assert params == {"id": "t1"}
    route, params = match("DELETE", "/tournaments/t1/registrations/ABC1234")
    assert (route.function, params) == ("staff", {"id": "t1", "player": "ABC1234"})


def test_paths_match_whole_segments_and_the_method():
    assert match("GET", "/tournaments/t1/entries/contacts")[0].function == "checkin"
    assert match("GET", "/tournaments/t1/entries")[0].function == "registrations"
    assert ROUTES.match("GET", "/tournaments") is None
    assert ROUTES.match("GET", "/tournaments/t1/unknown") is None
    assert ROUTES.match("POST", "/tournaments/t1") is None
    assert ROUTES.match("GET", "/tournaments//entries") is None


def test_path_parameters_come_from_the_decoded_path_and_greedy_parameters_take_the_rest():
    assert match("GET", decoded_path("/tournaments/a%20b"))[1] == {"id": "a b"}
    assert match("GET", "/files/a/b/c.txt")[1] == {"path": "a/b/c.txt"}


def test_a_route_served_twice_is_refused():
    with pytest.raises(ValueError, match="more than one function"):
        RouteTable([RouteEntry("GET", "/x", "a", True), RouteEntry("GET", "/x", "b", True)])


def test_registry_routes_are_unique_and_owned_by_http_functions():
    table = RouteTable.from_registry()
    http_functions = {f.name for f in FUNCTIONS if f.http}
    assert table.entries
    assert {e.function for e in table.entries} <= http_functions
    found = table.match("GET", "/openapi.json")
    assert found is not None and found[0].public


def test_event_is_api_gateway_payload_v2():
    route, params = match("GET", "/tournaments/t1/entries")
    event = http_event(
        route=route,
        path_parameters=params,
        method="GET",
        raw_path="/tournaments/t1/entries",
        raw_query="a=1&a=2&b=",
        headers=[("Host", "localhost:8000"), ("X-Multi", "1"), ("x-multi", "2"), ("Cookie", "s=1; t=2")],
        body=b"",
        source_ip="127.0.0.1",
        authorizer=None,
    )
    assert event["version"] == "2.0"
    assert event["routeKey"] == "GET /tournaments/{id}/entries"
    assert event["rawQueryString"] == "a=1&a=2&b="
    assert event["queryStringParameters"] == {"a": "1,2", "b": ""}
    assert event["pathParameters"] == {"id": "t1"}
    assert event["headers"] == {
        "host": "localhost:8000",
        "x-multi": "1,2",
        "x-forwarded-for": "127.0.0.1",
        "x-forwarded-proto": "http",
    }
    assert event["cookies"] == ["s=1", "t=2"]
    assert "body" not in event and event["isBase64Encoded"] is False
    context = event["requestContext"]
    assert context["stage"] == "$default"
    assert context["routeKey"] == event["routeKey"]
    assert context["http"]["method"] == "GET" and context["http"]["sourceIp"] == "127.0.0.1"
    assert "authorizer" not in context


def test_json_bodies_stay_text_and_binary_bodies_are_base64():
    route, params = match("GET", "/tournaments/t1")
    common: dict[str, Any] = dict(
        route=route,
        path_parameters=params,
        method="POST",
        raw_path="/",
        raw_query="",
        source_ip="127.0.0.1",
        authorizer=None,
    )
    text = http_event(headers=[("content-type", "application/json")], body=b'{"a": 1}', **common)
    assert (text["body"], text["isBase64Encoded"]) == ('{"a": 1}', False)
    binary = http_event(headers=[("content-type", "image/png")], body=b"\x89PNG", **common)
    assert binary["isBase64Encoded"] is True
    assert base64.b64decode(binary["body"]) == b"\x89PNG"


def test_handler_results_become_responses_as_api_gateway_makes_them():
    response = http_response(
        {
            "statusCode": 201,
            "headers": {"Content-Type": "application/json"},
            "body": '{"ok": true}',
            "cookies": ["a=1"],
            "isBase64Encoded": False,
        }
    )
    assert response.status == 201 and response.body == b'{"ok": true}'
    assert ("set-cookie", "a=1") in response.headers
    png = http_response(
        {"statusCode": 200, "body": base64.b64encode(b"\x89PNG").decode(), "isBase64Encoded": True}
    )
    assert png.body == b"\x89PNG"
    inferred = http_response({"hello": "world"})
    assert inferred.status == 200 and json.loads(inferred.body) == {"hello": "world"}


def test_authorizer_claims_are_stringified_like_api_gateway(tmp_path):
    authority = Authority(tmp_path)
    claims = authority.verify("Bearer " + authority.mint("u1", ["organisers", "admins"]))
    context = authorizer_context(claims)["jwt"]
    assert context["claims"]["sub"] == "u1"
    assert context["claims"]["cognito:groups"] == "[admins organisers]"
    assert context["claims"]["exp"].isdigit()
    with pytest.raises(InvalidToken, match="expired"):
        authority.verify(authority.mint("u1", lifetime=-5))
    with pytest.raises(InvalidToken):
        Authority(tmp_path / "other").verify(authority.mint("u1"))


def test_signing_key_is_kept_across_restarts(tmp_path):
    token = Authority(tmp_path).mint("u1")
    assert Authority(tmp_path).verify(token)["sub"] == "u1"


def test_a_handler_exception_is_a_500_json_error_and_logged(tmp_path, caplog):
    class Failing:
        def invoke(self, function, event):
            raise HandlerError(function, "Traceback ... ZeroDivisionError")

    platform = SimpleNamespace(routes=ROUTES, authority=Authority(tmp_path), environments=Failing())
    response = Gateway(platform).handle("GET", "/tournaments/t1", [], b"", "127.0.0.1")  # type: ignore[arg-type]
    assert response.status == 500
    assert json.loads(response.body)["error"]["code"] == "internal_error"
    assert "ZeroDivisionError" in caplog.text


@pytest.mark.parametrize("spec", TABLES, ids=lambda t: t.name)
def test_create_table_args_follow_the_schema(spec):
    args = create_table_args(spec, f"tavla-{spec.name}")
    assert args["KeySchema"][0] == {"AttributeName": spec.partition, "KeyType": "HASH"}
    assert len(args["KeySchema"]) == (2 if spec.sort else 1)
    indexes = {
        i["IndexName"]: (i, kind)
        for kind in ("Global", "Local")
        for i in args.get(f"{kind}SecondaryIndexes", [])
    }
    assert set(indexes) == {index.name for index in spec.indexes}
    for index in spec.indexes:
        declared, kind = indexes[index.name]
        assert kind == ("Local" if index.local else "Global")
        assert [k["AttributeName"] for k in declared["KeySchema"]] == [
            index.partition,
            *([index.sort] if index.sort else []),
        ]
        assert declared["Projection"] == {"ProjectionType": "ALL"}
    defined = {a["AttributeName"] for a in args["AttributeDefinitions"]}
    keys = {spec.partition, spec.sort, *(i.partition for i in spec.indexes), *(i.sort for i in spec.indexes)}
    assert defined == keys - {None}


class Recording:
    """A stand-in for the Lambda environments: records the event, answers 200."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def invoke(self, function: str, event: dict[str, Any]) -> dict[str, Any]:
        self.events.append(event)
        return {"statusCode": 200, "body": "{}"}


def gateway(tmp_path: Any, environments: Any = None) -> Gateway:
    platform = SimpleNamespace(
        routes=ROUTES, authority=Authority(tmp_path), environments=environments or Recording()
    )
    return Gateway(platform)  # type: ignore[arg-type]


def test_the_path_reaches_the_handler_decoded_as_api_gateway_sends_it(tmp_path):
    """API Gateway's HTTP API decodes the path before routing: rawPath and parameters alike."""
    recording = Recording()
    reply = gateway(tmp_path, recording).handle("GET", "/tournaments/%C3%A9t%C3%A9?x=1", [], b"", "127.0.0.1")
    assert reply.status == 200
    event = recording.events[0]
    assert event["rawPath"] == "/tournaments/été"
    assert event["requestContext"]["http"]["path"] == "/tournaments/été"
    assert event["pathParameters"] == {"id": "été"}
    assert event["rawQueryString"] == "x=1"


def test_an_encoded_slash_is_a_path_separator_after_decoding(tmp_path):
    """`%2F` decodes to `/` before routing, so it cannot smuggle a slash into a parameter."""
    recording = Recording()
    reply = gateway(tmp_path, recording).handle("GET", "/tournaments/t1%2Fentries", [], b"", "127.0.0.1")
    assert reply.status == 200
    assert recording.events[0]["routeKey"] == "GET /tournaments/{id}/entries"


def test_unknown_routes_and_missing_tokens_get_api_gateways_own_bodies(tmp_path):
    """An HTTP API answers these itself, and cannot be told otherwise (API.md)."""
    unknown = gateway(tmp_path).handle("GET", "/no/such/route", [], b"", "127.0.0.1")
    assert (unknown.status, json.loads(unknown.body)) == (404, {"message": "Not Found"})
    for authorization in ([], [("Authorization", "Bearer not.a.jwt")]):
        refused = gateway(tmp_path).handle(
            "GET", "/tournaments/t1/entries/contacts", authorization, b"", "127.0.0.1"
        )
        assert (refused.status, json.loads(refused.body)) == (401, {"message": "Unauthorized"})


@pytest.mark.parametrize("seconds", ['"1e400"', "1e400", "NaN", "Infinity", '"soon"', "true", "1e12", "-1"])
def test_the_dev_clock_refuses_what_is_not_a_sane_number_of_seconds(tmp_path, seconds):
    advanced: list[Any] = []

    def advance(delta: Any) -> list[str]:
        advanced.append(delta)
        return []

    platform = SimpleNamespace(
        routes=ROUTES,
        authority=Authority(tmp_path),
        environments=Recording(),
        scheduler=SimpleNamespace(advance=advance),
        bus=SimpleNamespace(drain=lambda: 0),
    )
    body = f'{{"advance_seconds": {seconds}}}'.encode()
    reply = Gateway(platform).handle("POST", "/dev/clock", [], body, "127.0.0.1")  # type: ignore[arg-type]
    assert reply.status == 422, reply.body
    assert json.loads(reply.body)["error"]["code"] == "validation_error"
    assert advanced == []


def test_the_dev_routes_refuse_deeply_nested_json(tmp_path):
    reply = gateway(tmp_path).handle("POST", "/dev/token", [], b"[" * 1000 + b"]" * 1000, "127.0.0.1")
    assert reply.status == 400
    assert json.loads(reply.body)["error"]["code"] == "malformed_json"


def test_the_web_front_end_is_served_at_the_root_beside_the_api(tmp_path, monkeypatch):
    """`/` and the built files are the front end's (hashed assets cached for good,
    the rest revalidated); nothing outside the site's folder, and no API path, is shadowed."""
    import local.server

    site = tmp_path / "dist"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<!doctype html><title>Tavla</title>")
    (site / "sw.js").write_text("// worker")
    (site / "assets" / "index-abc.js").write_text("console.log(1)")
    (site / ".secret").write_text("no")
    (tmp_path / "outside.txt").write_text("no")
    monkeypatch.setattr(local.server, "SITE", site)
    recording = Recording()
    serve = gateway(tmp_path, recording).handle
    home = serve("GET", "/", [], b"", "127.0.0.1")
    assert (home.status, home.body) == (200, b"<!doctype html><title>Tavla</title>")
    assert ("cache-control", "no-cache") in home.headers
    worker = serve("GET", "/sw.js", [], b"", "127.0.0.1")
    assert worker.status == 200 and ("cache-control", "no-cache") in worker.headers
    asset = serve("GET", "/assets/index-abc.js", [], b"", "127.0.0.1")
    assert ("cache-control", "public, max-age=31536000, immutable") in asset.headers
    for path in ("/.secret", "/assets/../outside.txt", "/../outside.txt", "/assets/nope.js"):
        assert serve("GET", path, [], b"", "127.0.0.1").status == 404, path
    assert serve("POST", "/sw.js", [], b"", "127.0.0.1").status == 404
    assert serve("GET", "/tournaments/t1", [], b"", "127.0.0.1").status == 200
    assert recording.events[0]["routeKey"] == "GET /tournaments/{id}"


def test_dev_faults_switches_the_environments_fault_switch_and_refuses_nonsense(tmp_path):
    """`POST /dev/faults` sets the DynamoDB write faults every environment shares; `GET` reads them."""
    from local.faults import FaultSwitch

    switch = FaultSwitch()
    front = gateway(tmp_path, SimpleNamespace(faults=switch))
    body = b'{"kind": "conflict", "next": 2, "function": "draw", "operations": ["TransactWriteItems"]}'
    reply = front.handle("POST", "/dev/faults", [], body, "127.0.0.1")
    assert reply.status == 200
    assert json.loads(reply.body) == {
        "kind": "conflict",
        "next": 2,
        "skip": 0,
        "function": "draw",
        "operations": ["TransactWriteItems"],
        "seen": 0,
        "injected": 0,
    }
    switch.invoking = "draw"
    assert switch.take("TransactWriteItems") == "conflict"
    assert json.loads(front.handle("GET", "/dev/faults", [], b"", "127.0.0.1").body)["injected"] == 1
    for bad, status in ((b'{"kind": "meteor", "next": 1}', 422), (b"{", 400), (b"[]", 422)):
        assert front.handle("POST", "/dev/faults", [], bad, "127.0.0.1").status == status
    assert json.loads(front.handle("POST", "/dev/faults", [], b"{}", "127.0.0.1").body)["kind"] is None
    assert switch.take("TransactWriteItems") is None
