"""The live channel on localhost: AppSync Events' WebSocket protocol and publish endpoint.

Screens connect to `ws://127.0.0.1:<port>/event/realtime` with the subprotocol
`aws-appsync-event-ws`, send `connection_init` (answered `connection_ack`), then `subscribe`
to channel paths (`/tournament/T1`) with an `authorization` object; each message published on
a path reaches its subscribers as `{"type": "data", "id": <subscription>, "event": "<json>"}`.
As AppSync Events does, every connection hears `{"type": "ka"}` every `ka_ms` (the
`connection_ack` says `connectionTimeoutMs`: a screen that hears nothing for that long counts
its socket as lost).
A subscription to a staff channel is put to the registry's live authorizer function (the one
that `authorizes_live`) with the subscriber's token, as AppSync Events puts it to the Lambda
authorizer; public channels are open, as the cloud's API key (public in /config.json) makes them.

The live function publishes as in the cloud: `POST /event` on the publish endpoint with
`{"channel": <path>, "events": [<json text>, ...]}` (the signature is not checked here).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import defaultdict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from infra.registry import FUNCTIONS
from local.lambdas import Environments, HandlerError
from tavla import live

Authorize = Callable[[dict[str, Any]], Any]  # the authorizer's event -> its verdict

log = logging.getLogger("local.live")
SUBPROTOCOL = "aws-appsync-event-ws"
CONNECTION_TIMEOUT_MS = 300_000
KA_MS = 60_000  # AppSync Events sends a keep-alive about once a minute


class Hub:
    """Who listens on which channel path; publishes to them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, dict[tuple[int, str], ServerConnection]] = defaultdict(dict)
        self._connections: set[ServerConnection] = set()
        self.published = 0

    def connected(self, connection: ServerConnection) -> None:
        with self._lock:
            self._connections.add(connection)

    def keep_alive(self) -> None:
        """A `ka` to every connection, as AppSync Events sends them."""
        with self._lock:
            connections = list(self._connections)
        for connection in connections:
            try:
                connection.send(json.dumps({"type": "ka"}))
            except ConnectionClosed:
                self.remove(connection)

    def add(self, channel_path: str, connection: ServerConnection, subscription: str) -> None:
        with self._lock:
            self._listeners[channel_path][(id(connection), subscription)] = connection

    def remove(self, connection: ServerConnection, subscription: str | None = None) -> None:
        with self._lock:
            if subscription is None:
                self._connections.discard(connection)
            for listeners in self._listeners.values():
                for key in [k for k in listeners if k[0] == id(connection)]:
                    if subscription is None or key[1] == subscription:
                        del listeners[key]

    def publish(self, channel_path: str, events: list[str]) -> None:
        with self._lock:
            listeners = list(self._listeners.get(channel_path, {}).items())
        for (_, subscription), connection in listeners:
            for event in events:
                try:
                    connection.send(json.dumps({"type": "data", "id": subscription, "event": event}))
                except ConnectionClosed:
                    self.remove(connection)
        self.published += len(events)


class LiveChannel:
    """The WebSocket server and the publish endpoint, each on a port of its own (bound at once,
    so that the handlers' environment can name the publish URL before they start)."""

    def __init__(self, timeout_ms: int = CONNECTION_TIMEOUT_MS, ka_ms: int = KA_MS) -> None:
        self.hub = Hub()
        self.timeout_ms = timeout_ms
        self.ka_ms = ka_ms
        self._stopped = threading.Event()
        self.authorize: Authorize | None = None  # set once the authorizer can run (`through`)
        self._ws: Server = serve(
            self._serve,
            "127.0.0.1",
            0,
            subprotocols=[Subprotocol(SUBPROTOCOL)],
            process_request=_only_realtime,
        )
        self._http = _PublishServer(self.hub)
        self._threads = [
            threading.Thread(target=self._ws.serve_forever, name="live-ws", daemon=True),
            threading.Thread(target=self._http.serve_forever, name="live-publish", daemon=True),
            threading.Thread(target=self._keep_alive, name="live-ka", daemon=True),
        ]

    @property
    def url(self) -> str:
        """Where screens connect (the /config.json `live` of this stack)."""
        return f"ws://127.0.0.1:{self._ws.socket.getsockname()[1]}/event/realtime"

    @property
    def publish_url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._ws.shutdown()
        self._http.shutdown()
        self._http.server_close()

    def _keep_alive(self) -> None:
        while not self._stopped.wait(self.ka_ms / 1000):
            self.hub.keep_alive()

    def _allowed(self, channel_path: str, authorization: dict[str, Any]) -> bool:
        if live.namespace(channel_path) in live.PUBLIC_NAMESPACES:
            return True
        if live.namespace(channel_path) != live.STAFF_NAMESPACE or self.authorize is None:
            return False
        token = authorization.get("Authorization") or authorization.get("authorization")
        if not token:
            return False
        event = {
            "authorizationToken": token,
            "requestContext": {
                "operation": "EVENT_SUBSCRIBE",
                "channelNamespaceName": live.STAFF_NAMESPACE,
                "channel": channel_path,
            },
        }
        try:
            verdict = self.authorize(event)
        except HandlerError as failure:
            log.error("the live authorizer failed:\n%s", failure.trace)
            return False
        return bool((verdict or {}).get("isAuthorized"))

    def _serve(self, connection: ServerConnection) -> None:
        try:
            for raw in connection:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "connection_init":
                    self.hub.connected(connection)
                    reply = {"type": "connection_ack", "connectionTimeoutMs": self.timeout_ms}
                elif kind == "subscribe":
                    reply = self._subscribe(connection, message)
                elif kind == "unsubscribe":
                    self.hub.remove(connection, str(message.get("id")))
                    reply = {"type": "unsubscribe_success", "id": message.get("id")}
                else:
                    reply = {"type": "error", "errors": [{"errorType": "UnsupportedOperation"}]}
                connection.send(json.dumps(reply))
        except (ConnectionClosed, json.JSONDecodeError):
            pass
        finally:
            self.hub.remove(connection)

    def _subscribe(self, connection: ServerConnection, message: dict[str, Any]) -> dict[str, Any]:
        subscription = str(message.get("id") or "")
        channel_path = str(message.get("channel") or "")
        if not subscription or not channel_path.startswith("/"):
            return {"type": "subscribe_error", "id": subscription, "errors": [{"errorType": "BadRequest"}]}
        if not self._allowed(channel_path, message.get("authorization") or {}):
            errors = [{"errorType": "UnauthorizedException", "message": "You are not authorized."}]
            return {"type": "subscribe_error", "id": subscription, "errors": errors}
        self.hub.add(channel_path, connection, subscription)
        return {"type": "subscribe_success", "id": subscription}


def through(environments: Environments) -> Authorize:
    """The registry's live authorizer function, run in the Lambda environments."""
    name = next(f.name for f in FUNCTIONS if f.authorizes_live)
    return lambda event: environments.invoke(name, event)


def _only_realtime(connection: ServerConnection, request: Any) -> Any:
    if request.path.split("?", 1)[0] != "/event/realtime":
        return connection.respond(404, "No such endpoint: connect to /event/realtime.\n")
    return None


class _PublishServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        super().__init__(("127.0.0.1", 0), _PublishHandler)


class _PublishHandler(BaseHTTPRequestHandler):
    server: _PublishServer

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            request = json.loads(body)
            channel_path, events = str(request["channel"]), [str(e) for e in request["events"]]
        except (ValueError, KeyError, TypeError):
            self._answer(400, {"errors": [{"errorType": "BadRequestException"}]})
            return
        if self.path != "/event" or live.namespace(channel_path) not in live.NAMESPACES:
            self._answer(404, {"errors": [{"errorType": "NotFoundException"}]})
            return
        self.server.hub.publish(channel_path, events)
        successful = [{"identifier": str(i), "index": i} for i in range(len(events))]
        self._answer(200, {"successful": successful, "failed": []})

    def _answer(self, status: int, value: dict[str, Any]) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass
