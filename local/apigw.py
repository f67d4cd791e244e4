"""What API Gateway's HTTP API does between a client and a Lambda: routing and payload v2.0.

The route table comes from the registry (each function's routes, read from its resolver);
a request becomes the exact v2.0 event API Gateway would send, and the handler's result
becomes the HTTP response the same way API Gateway turns it into one.
"""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, unquote

from infra.registry import FUNCTIONS
from local.env import ACCOUNT

API_ID = "tavlalocal"
_TEXT_TYPES = ("text/", "application/json", "application/javascript", "application/xml")


@dataclass(frozen=True)
class RouteEntry:
    """One route of the API and the function that owns it."""

    method: str
    path: str  # API Gateway syntax: /tournaments/{id}
    function: str
    public: bool

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def segments(self) -> tuple[str, ...]:
        return tuple(self.path.strip("/").split("/")) if self.path.strip("/") else ()

    def bind(self, path: str) -> dict[str, str] | None:
        """The path parameters if `path` (already decoded, see `decoded_path`) fits this route's template."""
        parts = path.strip("/").split("/") if path.strip("/") else []
        template = self.segments
        greedy = bool(template) and template[-1].endswith("+}")
        if len(parts) != len(template) and not (greedy and len(parts) >= len(template)):
            return None
        params: dict[str, str] = {}
        for i, segment in enumerate(template):
            if segment.startswith("{") and segment.endswith("}"):
                name = segment[1:-1]
                if name.endswith("+"):
                    params[name[:-1]] = "/".join(parts[i:])
                    return params
                if not parts[i]:
                    return None
                params[name] = parts[i]
            elif segment != parts[i]:
                return None
        return params

    def specificity(self) -> tuple[int, ...]:
        """Literal segments win over parameters, earlier segments first (API Gateway's rule)."""
        return tuple(1 if s.startswith("{") else 0 for s in self.segments)


class RouteTable:
    def __init__(self, entries: Iterable[RouteEntry]) -> None:
        self.entries = sorted(entries, key=lambda e: (e.path, e.method))
        keys = [e.key for e in self.entries]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise ValueError(f"routes served by more than one function: {duplicates}")

    @classmethod
    def from_registry(cls) -> RouteTable:
        return cls(RouteEntry(r.method, r.path, f.name, r.public) for f in FUNCTIONS for r in f.routes())

    def match(self, method: str, path: str) -> tuple[RouteEntry, dict[str, str]] | None:
        found = [(e, p) for e in self.entries if e.method == method for p in [e.bind(path)] if p is not None]
        if not found:
            return None
        return min(found, key=lambda pair: pair[0].specificity())


def decoded_path(raw: str) -> str:
    """The path as an HTTP API hands it on: percent-decoded before routing, so `%2F` is a `/`.

    Both `rawPath` and the path parameters hold the decoded text.
    """
    return unquote(raw)


def is_text(content_type: str | None) -> bool:
    kind = (content_type or "").split(";")[0].strip().lower()
    return kind.startswith(_TEXT_TYPES) or kind.endswith(("+json", "+xml"))


def http_event(
    *,
    route: RouteEntry,
    path_parameters: dict[str, str],
    method: str,
    raw_path: str,
    raw_query: str,
    headers: Iterable[tuple[str, str]],
    body: bytes,
    source_ip: str,
    authorizer: dict[str, Any] | None,
) -> dict[str, Any]:
    """The payload format 2.0 event API Gateway sends for this request."""
    merged: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        merged[key] = f"{merged[key]},{value}" if key in merged else value
    cookies = [c.strip() for c in merged.pop("cookie", "").split(";") if c.strip()]
    forwarded = merged.get("x-forwarded-for")
    merged["x-forwarded-for"] = f"{forwarded}, {source_ip}" if forwarded else source_ip
    merged.setdefault("x-forwarded-proto", "http")
    query: dict[str, str] = {}
    for name, value in parse_qsl(raw_query, keep_blank_values=True):
        query[name] = f"{query[name]},{value}" if name in query else value
    now = time.time()
    host = merged.get("host", "localhost")
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route.key,
        "rawPath": raw_path,
        "rawQueryString": raw_query,
        "headers": merged,
        "requestContext": {
            "accountId": ACCOUNT,
            "apiId": API_ID,
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "http": {
                "method": method,
                "path": raw_path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": merged.get("user-agent", ""),
            },
            "requestId": str(uuid.uuid4()),
            "routeKey": route.key,
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = cookies
    if query:
        event["queryStringParameters"] = query
    if path_parameters:
        event["pathParameters"] = path_parameters
    if authorizer is not None:
        event["requestContext"]["authorizer"] = authorizer
    if body:
        if is_text(merged.get("content-type")):
            event["body"] = body.decode("utf-8", errors="replace")
        else:
            event["body"] = base64.b64encode(body).decode("ascii")
            event["isBase64Encoded"] = True
    return event


@dataclass
class HttpResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def http_response(result: Any) -> HttpResponse:
    """How API Gateway turns a v2.0 Lambda result into the HTTP response."""
    if not (isinstance(result, dict) and "statusCode" in result):
        # No statusCode: API Gateway assumes 200 and a JSON body of whatever came back.
        text = result if isinstance(result, str) else json.dumps(result)
        return HttpResponse(200, [("content-type", "application/json")], text.encode())
    headers = [(str(k), str(v)) for k, v in (result.get("headers") or {}).items()]
    for name, values in (result.get("multiValueHeaders") or {}).items():
        headers.extend((str(name), str(v)) for v in values)
    headers.extend(("set-cookie", str(c)) for c in result.get("cookies") or [])
    raw = result.get("body") or ""
    body = base64.b64decode(raw) if result.get("isBase64Encoded") else str(raw).encode()
    return HttpResponse(int(result["statusCode"]), headers, body)


def error(status: int, code: str, message: str) -> HttpResponse:
    """The API's error body (tavla.http's shape), for the local-only routes."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return HttpResponse(status, [("content-type", "application/json")], body)


def gateway_error(status: int) -> HttpResponse:
    """What API Gateway itself answers (no route: 404, no or bad token: 401): `{"message": ...}`.

    An HTTP API cannot change these bodies, so the local stack does not either (API.md).
    """
    body = json.dumps({"message": HTTPStatus(status).phrase}).encode()
    return HttpResponse(status, [("content-type", "application/json")], body)
