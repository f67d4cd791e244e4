"""The local stack's card payment provider: Stripe's API as far as Tavla uses it, a checkout
page, and webhooks signed exactly as Stripe signs them (`t=<unix>,v1=<HMAC-SHA256>`).

- `POST /v1/checkout/sessions` (form-encoded, as the `stripe` SDK sends it) -> a session
  with a `url` to this server's checkout page.
- `GET /checkout/<id>`: the page, with a Pay button; `POST /checkout/<id>/pay` pays it and
  delivers `checkout.session.completed` to the platform's webhook, signed with the webhook
  secret from the platform's Secrets Manager. `?amount=<cents>` pays another amount (a
  provider-side difference the platform must flag); `?deliver=0` only answers the signed
  event (`{"payload", "signature"}`), for tests that deliver it themselves (replays,
  simultaneous deliveries).
- `POST /v1/refunds` with an `Idempotency-Key`: one refund per key, as Stripe does.

`FakeStripeHttp` serves the same API in-process, as the SDK's HTTP client, for tests.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import stripe


def signature(payload: str, secret: str, timestamp: int | None = None) -> str:
    """Stripe's `Stripe-Signature` header for a payload."""
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def _form(body: str) -> dict[str, Any]:
    """Stripe's form encoding (a[b][0][c]=x) back into nested values (lists as dicts by index)."""
    out: dict[str, Any] = {}
    for name, value in parse_qsl(body, keep_blank_values=True):
        parts = name.replace("]", "").split("[")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


@dataclass
class FakeProvider:
    """Sessions and refunds in memory; the page's base URL and the webhook to deliver to."""

    base_url: str = "http://fake-provider.local"
    sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    refunds: dict[str, dict[str, Any]] = field(default_factory=dict)  # by idempotency key
    refunds_down: bool = False  # tests: the refund API answers 503 (the provider is failing)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def api(
        self, method: str, path: str, body: str, headers: Mapping[str, str]
    ) -> tuple[int, dict[str, Any]]:
        """One call of the provider's API: (status, JSON object)."""
        if method == "POST" and path == "/v1/checkout/sessions":
            return 200, self.create_session(_form(body))
        if method == "POST" and path == "/v1/refunds" and self.refunds_down:
            return 503, {"error": {"type": "api_error", "message": "the provider is failing (fake)"}}
        if method == "POST" and path == "/v1/refunds":
            key = {k.lower(): v for k, v in headers.items()}.get("idempotency-key") or uuid.uuid4().hex
            return 200, self.refund(_form(body), key)
        return 404, {"error": {"type": "invalid_request_error", "message": f"no route {method} {path}"}}

    def create_session(self, form: dict[str, Any]) -> dict[str, Any]:
        price = form["line_items"]["0"]["price_data"]
        session_id = f"cs_test_{uuid.uuid4().hex}"
        session = {
            "id": session_id,
            "object": "checkout.session",
            "amount_total": int(price["unit_amount"]) * int(form["line_items"]["0"].get("quantity", 1)),
            "currency": price["currency"],
            "metadata": form.get("metadata", {}),
            "payment_status": "unpaid",
            "status": "open",
            "payment_intent": f"pi_test_{uuid.uuid4().hex[:24]}",
            "success_url": form.get("success_url"),
            "url": f"{self.base_url}/checkout/{session_id}",
        }
        with self.lock:
            self.sessions[session_id] = session
        return session

    def refund(self, form: dict[str, Any], key: str) -> dict[str, Any]:
        with self.lock:
            if key not in self.refunds:
                self.refunds[key] = {
                    "id": f"re_test_{uuid.uuid4().hex[:24]}",
                    "object": "refund",
                    "amount": int(form["amount"]),
                    "payment_intent": form.get("payment_intent"),
                    "status": "succeeded",
                }
            return self.refunds[key]

    def completed_event(self, session_id: str, amount: int | None = None) -> str:
        """The `checkout.session.completed` payload for a paid session (the provider's amount)."""
        with self.lock:
            session = dict(self.sessions[session_id])
            session.update(payment_status="paid", status="complete")
            if amount is not None:
                session["amount_total"] = amount
            self.sessions[session_id] = session
        event = {
            "id": f"evt_test_{uuid.uuid4().hex[:24]}",
            "object": "event",
            "type": "checkout.session.completed",
            "created": int(time.time()),
            "data": {"object": session},
        }
        return json.dumps(event)


class FakeStripeHttp(stripe.HTTPClient):
    """The SDK's HTTP client answering from a FakeProvider, in-process (service tests)."""

    name = "fake-provider"

    def __init__(self, provider: FakeProvider) -> None:
        super().__init__()
        self.provider = provider

    def request(self, method: str, url: str, headers: Any, post_data: Any = None, **_: Any) -> Any:
        body = post_data.decode() if isinstance(post_data, bytes) else (post_data or "")
        status, answer = self.provider.api(method.upper(), urlsplit(url).path, body, headers or {})
        # the SDK would retry a 503 after a pause; told not to, a failure test stays fast
        retry = {"stripe-should-retry": "false"} if status >= 500 else {}
        return json.dumps(answer), status, {"request-id": "req_fake", **retry}

    def close(self) -> None:
        pass


class FakeProviderServer:
    """The fake provider over HTTP on a free localhost port (the local stack)."""

    def __init__(self, webhook_secret: Callable[[], str]) -> None:
        self.provider = FakeProvider()
        self.webhook_secret = webhook_secret
        self.webhook_url = ""  # set once the platform's server is up
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                fake._serve(self, "GET")

            def do_POST(self) -> None:
                fake._serve(self, "POST")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.provider.base_url = self.url
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-provider", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        url = urlsplit(handler.path)
        body = handler.rfile.read(int(handler.headers.get("content-length") or 0)).decode()
        query = dict(parse_qsl(url.query))
        parts = url.path.strip("/").split("/")
        status, kind, answer = 404, "application/json", json.dumps({"error": "no such page"})
        if url.path.startswith("/v1/"):
            code, obj = self.provider.api(method, url.path, body, dict(handler.headers.items()))
            status, answer = code, json.dumps(obj)
        elif (
            parts[0] == "checkout"
            and len(parts) == 2
            and method == "GET"
            and parts[1] in self.provider.sessions
        ):
            status, kind, answer = 200, "text/html; charset=utf-8", self._page(parts[1])
        elif (
            parts[0] == "checkout"
            and len(parts) == 3
            and parts[2] == "pay"
            and parts[1] in self.provider.sessions
        ):
            amount = int(query["amount"]) if query.get("amount", "").isdigit() else None
            payload = self.provider.completed_event(parts[1], amount)
            signed = signature(payload, self.webhook_secret())
            if query.get("deliver") == "0":
                status, answer = 200, json.dumps({"payload": payload, "signature": signed})
            else:
                delivered = self._deliver(payload, signed)
                status, answer = 200, json.dumps({"delivered": delivered})
        data = answer.encode()
        handler.send_response(status)
        handler.send_header("content-type", kind)
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _deliver(self, payload: str, signed: str) -> int:
        import requests

        reply = requests.post(
            self.webhook_url,
            data=payload.encode(),
            headers={"content-type": "application/json; charset=utf-8", "stripe-signature": signed},
            timeout=30,
        )
        return reply.status_code

    def _page(self, session_id: str) -> str:
        session = self.provider.sessions[session_id]
        amount = f"{int(session['amount_total']) / 100:.2f} {str(session['currency']).upper()}"
        return (
            "<!doctype html><html lang=en><meta charset=utf-8><title>Fake card checkout</title>"
            f"<h1>Pay {html.escape(amount)}</h1><p>Local stack: no real card is charged.</p>"
            f"<form method=post action=/checkout/{html.escape(session_id)}/pay><button>Pay</button></form>"
        )
