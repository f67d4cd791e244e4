"""The HTTP server on localhost: API Gateway for the registry's routes, plus the local-only routes.

Requests are served concurrently, one thread each; the handlers themselves run in the
Lambda environments (`local.lambdas`). Local-only routes: `POST /dev/token` (mint a JWT),
`POST /dev/tick` (fire due schedules), `POST /dev/clock` (advance the platform's clock, then
tick and deliver), `POST /dev/drain` (publish the outbox, deliver pending bus events),
`POST /dev/bus` (the fault switch: the bus refuses every put), `GET /dev/sms` (what SNS sent),
`GET /config.json` (the local sign-in, the live channel's URL, `local.live`, the push key
and the stand-in push service, `local.push_service`),
`GET /dev/dead-letters` (schedules and events parked after their retries), `POST /dev/faults`
and `GET /dev/faults` (DynamoDB write faults, `local.faults`), `GET /docs`
(Swagger UI from node_modules) and the JWKS of the local token issuer. `GET /` and the built
files beside it (`web/dist/`: index.html, sw.js, the manifest, `/assets/...`) are the mobile web
front end, built by `make run`; the API's paths never collide with them.
"""

from __future__ import annotations

import json
import logging
import math
import mimetypes
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from local import aws, npm
from local.apigw import (
    HttpResponse,
    RouteTable,
    decoded_path,
    error,
    gateway_error,
    http_event,
    http_response,
)
from local.auth import Authority, InvalidToken, authorizer_context
from local.bus import Bus
from local.faults import FaultRequestError, FaultSwitch
from local.lambdas import Environments, HandlerError
from local.scheduler import Scheduler
from tavla import clock
from tavla.http import parse_json

log = logging.getLogger("local.server")
MAX_CLOCK_ADVANCE = timedelta(days=3653)
DOCS_PAGE = Path(__file__).with_name("docs.html")
SITE = npm.ROOT / "web" / "dist"  # the front end, built by `npm run web:build`
BODILESS = (204, 304)  # answered with neither a body nor a Content-Length


@dataclass
class Platform:
    """What the server routes to."""

    routes: RouteTable
    authority: Authority
    environments: Environments
    scheduler: Scheduler
    bus: Bus
    live_url: str | None = None  # the live channel's WebSocket endpoint
    push_service: str | None = None  # the stand-in push service (`local.push_service`)
    push_key: str | None = None  # the stage's VAPID public key


def _json(status: int, value: Any) -> HttpResponse:
    return HttpResponse(status, [("content-type", "application/json")], json.dumps(value).encode())


class Gateway:
    """Turns one HTTP request into a response: local-only routes first, then the API's."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform
        self.local_routes: dict[tuple[str, str], Callable[[bytes], HttpResponse]] = {
            ("POST", "/dev/token"): self._token,
            ("POST", "/dev/tick"): lambda _: _json(200, {"fired": platform.scheduler.tick()}),
            ("POST", "/dev/clock"): self._clock,
            ("POST", "/dev/drain"): lambda _: _json(200, {"delivered": platform.bus.drain()}),
            ("POST", "/dev/bus"): self._bus,
            ("GET", "/dev/sms"): lambda _: _json(200, {"messages": aws.sms_messages()}),
            ("GET", "/dev/dead-letters"): lambda _: _json(
                200, {"parked": platform.scheduler.dead_letters.list()}
            ),
            ("POST", "/dev/faults"): self._faults,
            ("GET", "/dev/faults"): lambda _: _json(200, self._switch().describe()),
            ("GET", "/.well-known/jwks.json"): lambda _: _json(200, platform.authority.jwks()),
            # what the deployment's /config.json tells the web in the cloud: here the local sign-in
            # and the local live channel; the push key too (the cloud's comes from GET /push/key)
            ("GET", "/config.json"): lambda _: _json(
                200,
                {
                    "mode": "local",
                    "live": platform.live_url,
                    "push_key": platform.push_key,
                    "push_service": platform.push_service,
                },
            ),
            ("GET", "/docs"): lambda _: self._file(DOCS_PAGE),
            ("GET", "/"): lambda _: self._site("index.html"),
        }

    def handle(
        self, method: str, target: str, headers: list[tuple[str, str]], body: bytes, source_ip: str
    ) -> HttpResponse:
        url = urlsplit(target)
        local = self.local_routes.get((method, url.path))
        if local is not None:
            return local(body)
        if method == "GET" and url.path.startswith("/docs/"):
            return self._asset(url.path.removeprefix("/docs/"))
        site_file = _site_file(url.path) if method in ("GET", "HEAD") else None
        if site_file is not None:  # only files that exist: /openapi.json stays the API's
            return self._site(site_file)
        path = decoded_path(url.path)
        matched = self.platform.routes.match(method, path)
        if matched is None:
            return gateway_error(404)
        route, parameters = matched
        authorizer = None
        if not route.public:
            authorization = next((v for k, v in headers if k.lower() == "authorization"), None)
            try:
                authorizer = authorizer_context(self.platform.authority.verify(authorization))
            except InvalidToken as refused:
                log.info("401 on %s %s: %s", method, url.path, refused)
                return gateway_error(401)
        event = http_event(
            route=route,
            path_parameters=parameters,
            method=method,
            raw_path=path,
            raw_query=url.query,
            headers=headers,
            body=body,
            source_ip=source_ip,
            authorizer=authorizer,
        )
        try:
            return http_response(self.platform.environments.invoke(route.function, event))
        except HandlerError as failure:
            log.error("500 on %s %s: BUG in %s\n%s", method, url.path, failure.function, failure.trace)
            return error(500, "internal_error", "Something went wrong on our side.")

    def _token(self, body: bytes) -> HttpResponse:
        try:
            request = parse_json(body.decode("utf-8", errors="replace") or "{}")
        except json.JSONDecodeError:
            return error(400, "malformed_json", "The request body is not valid JSON.")
        user = request.get("user") if isinstance(request, dict) else None
        groups = request.get("groups", []) if isinstance(request, dict) else []
        if not isinstance(user, str) or not user.strip() or not isinstance(groups, list):
            return error(422, "validation_error", 'Send {"user": "<id>", "groups": ["organisers", ...]}.')
        if not all(isinstance(g, str) for g in groups):
            return error(422, "validation_error", "groups must be a list of strings.")
        return _json(200, {"token": self.platform.authority.mint(user.strip(), groups)})

    def _bus(self, body: bytes) -> HttpResponse:
        """The fault switch: {"refuse": true} makes EventBridge refuse every put until
        {"refuse": false}; events wait in the outbox meanwhile."""
        try:
            request = parse_json(body.decode("utf-8", errors="replace") or "{}")
        except json.JSONDecodeError:
            return error(400, "malformed_json", "The request body is not valid JSON.")
        refuse = request.get("refuse") if isinstance(request, dict) else None
        if not isinstance(refuse, bool):
            return error(422, "validation_error", 'Send {"refuse": true} or {"refuse": false}.')
        if refuse:
            aws.BUS_REFUSING.set()
        else:
            aws.BUS_REFUSING.clear()
        return _json(200, {"refusing": refuse})

    def _clock(self, body: bytes) -> HttpResponse:
        try:
            request = parse_json(body.decode("utf-8", errors="replace") or "{}")
        except json.JSONDecodeError:
            return error(400, "malformed_json", "The request body is not valid JSON.")
        seconds = request.get("advance_seconds", 0) if isinstance(request, dict) else None
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
            return error(422, "validation_error", 'Send {"advance_seconds": <number of seconds>}.')
        if not 0 <= seconds <= MAX_CLOCK_ADVANCE.total_seconds():
            return error(422, "validation_error", "The clock moves forward, by at most ten years at a time.")
        fired = self.platform.scheduler.advance(timedelta(seconds=seconds))
        delivered = self.platform.bus.drain()
        return _json(200, {"now": clock.now().isoformat(), "fired": fired, "delivered": delivered})

    def _switch(self) -> FaultSwitch:
        switch = self.platform.environments.faults
        if switch is None:
            raise RuntimeError("the Lambda environments were started without a fault switch")
        return switch

    def _faults(self, body: bytes) -> HttpResponse:
        try:
            request = parse_json(body.decode("utf-8", errors="replace") or "{}")
            return _json(200, self._switch().set(request))
        except json.JSONDecodeError:
            return error(400, "malformed_json", "The request body is not valid JSON.")
        except FaultRequestError as refused:
            return error(422, "validation_error", str(refused))

    def _asset(self, name: str) -> HttpResponse:
        path = npm.SWAGGER_UI / name
        if "/" in name or not path.is_file():
            return error(404, "route_not_found", f"No such file {name}.")
        return self._file(path)

    @staticmethod
    def _site(name: str) -> HttpResponse:
        """A file of the built front end: hashed assets cached for good, the rest revalidated."""
        path = SITE / name
        if not path.is_file():
            if name == "index.html":  # not built: say how, and keep the docs one click away
                return HttpResponse(302, [("location", "/docs")], b"")
            return error(404, "route_not_found", f"No such file {name}.")
        response = Gateway._file(path)
        immutable = name.startswith("assets/")  # hashed names: a new build has new names
        cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
        response.headers.append(("cache-control", cache))
        return response

    @staticmethod
    def _file(path: Path) -> HttpResponse:
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return HttpResponse(200, [("content-type", kind)], path.read_bytes())


def _site_file(path: str) -> str | None:
    """The built file `path` names (`/sw.js`, `/assets/index-abc.js` ...) if it exists: one name
    below / or /assets, never a hidden one, so no path leaves the site's folder."""
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "assets":
        name = parts[1]
    elif len(parts) == 1:
        name = parts[0]
    else:
        return None
    if not name or name.startswith(".") or "\\" in name:
        return None
    relative = "/".join(parts)
    return relative if (SITE / relative).is_file() else None


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    wbufsize = 64 * 1024  # headers and body leave in one segment: no 40 ms delayed-ACK stalls
    disable_nagle_algorithm = True
    server: LocalServer

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The `Date` header in the platform's time, so a client that reads it (`make smoke`)
        agrees with the stack after `/dev/clock` moved it on."""
        return super().date_time_string(clock.now().timestamp() if timestamp is None else timestamp)

    def _serve(self) -> None:
        started = time.monotonic()
        body = self._read_body()
        headers = list(self.headers.items())
        try:
            response = self.server.gateway.handle(
                self.command, self.path, headers, body, self.client_address[0]
            )
        except Exception:  # the local stack's own bug: loud, and still an answer
            log.exception("500 on %s %s: BUG in the local stack", self.command, self.path)
            response = error(500, "internal_error", "The local stack failed; see its log.")
        self.send_response(response.status)
        for name, value in response.headers:
            if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                self.send_header(name, value)
        bodiless = response.status in BODILESS
        if not bodiless:  # a 304's Content-Length would have to be the 200's (RFC 9110 8.6)
            self.send_header("content-length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD" and not bodiless:
            self.wfile.write(response.body)
        log.info(
            "%s %s %d %.0f ms", self.command, self.path, response.status, (time.monotonic() - started) * 1000
        )

    def _read_body(self) -> bytes:
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int(self.rfile.readline().split(b";")[0].strip() or b"0", 16):
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            while self.rfile.readline().strip():
                pass
            return b"".join(chunks)
        return self.rfile.read(int(self.headers.get("content-length") or 0))

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = _serve

    def __getattr__(self, name: str) -> Any:
        """Any other method (TRACE, QUERY ...) reaches the gateway too, which answers 404 for a
        method no route serves, as API Gateway does, not http.server's own 501 HTML page."""
        if name.startswith("do_"):
            return self._serve
        raise AttributeError(name)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # _serve logs one line per request


class LocalServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # e2e tests open hundreds of connections at once

    def __init__(self, port: int, gateway: Gateway) -> None:
        self.gateway = gateway
        super().__init__(("127.0.0.1", port), _RequestHandler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"
