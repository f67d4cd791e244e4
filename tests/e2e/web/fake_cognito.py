"""A stand-in for Cognito's hosted UI, for the cloud sign-in browser test only.

It plays the two endpoints the site uses, as Cognito documents them, and is strict where
Cognito is strict, so the site's PKCE code really runs and is really checked:

- `GET /oauth2/authorize`: `response_type=code`, the registered `client_id` and
  `redirect_uri`, `code_challenge_method=S256` and a `code_challenge`, a `state`; answers a
  sign-in form (a user name); the form's POST redirects to the `redirect_uri` with a one-time
  `code` and the `state` unchanged (or, when the test sets `tamper_state`, a different one,
  as an attacker's forged redirect would carry).
- `POST /oauth2/token` (form encoded, CORS for the site's origin like Cognito's):
  `grant_type=authorization_code`, the code once only, the same `client_id` and
  `redirect_uri` as at the authorize step, and a `code_verifier` whose SHA-256, base64url
  without padding, is the `code_challenge` (RFC 7636 S256); answers `id_token` (minted by
  the local stack's issuer, which the local API trusts), or 400 `invalid_grant` /
  `invalid_request` and no token.
- `GET /logout`: back to `logout_uri`.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

VERIFIER = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")  # RFC 7636 section 4.1


def s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


@dataclass
class Grant:
    client_id: str
    redirect_uri: str
    challenge: str
    state: str
    user: str = ""
    used: bool = False


@dataclass
class FakeHostedUI:
    client_id: str
    redirect_uri: str
    mint: Callable[[str], str]  # user name -> an ID token the API accepts
    tamper_state: bool = False
    exchanges: list[dict[str, str]] = field(default_factory=list)  # every token request
    issued: list[str] = field(default_factory=list)  # users given a token
    refused: list[str] = field(default_factory=list)  # why requests were refused
    _pending: dict[str, Grant] = field(default_factory=dict)  # sign-in form id -> grant
    _codes: dict[str, Grant] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeHostedUI:
        ui = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                ui._handle(self, "GET")

            def do_POST(self) -> None:
                ui._handle(self, "POST")

            def do_OPTIONS(self) -> None:
                ui._handle(self, "OPTIONS")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # -- the endpoints -----------------------------------------------------------------------

    def _handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        url = urlsplit(request.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if method == "POST":
            length = int(request.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(request.rfile.read(length).decode()).items()}
        else:
            form = {}
        if method == "OPTIONS":
            self._send(request, 204, b"", "text/plain")
        elif (method, url.path) == ("GET", "/oauth2/authorize"):
            self._authorize(request, query)
        elif (method, url.path) == ("POST", "/login"):
            self._login(request, form)
        elif (method, url.path) == ("POST", "/oauth2/token"):
            self._token(request, form)
        elif (method, url.path) == ("GET", "/logout"):
            self._redirect(request, query.get("logout_uri", self.redirect_uri))
        else:
            self._send(request, 404, b"not found", "text/plain")

    def _authorize(self, request: BaseHTTPRequestHandler, query: dict[str, str]) -> None:
        problem = (
            "response_type must be code"
            if query.get("response_type") != "code"
            else "unknown client_id"
            if query.get("client_id") != self.client_id
            else "redirect_uri is not registered"
            if query.get("redirect_uri") != self.redirect_uri
            else "code_challenge_method must be S256"
            if query.get("code_challenge_method") != "S256"
            else "code_challenge missing"
            if not re.fullmatch(r"[A-Za-z0-9_-]{43}", query.get("code_challenge", ""))
            else "state missing"
            if not query.get("state")
            else ""
        )
        if problem:
            self.refused.append(f"authorize: {problem}")
            self._send(request, 400, f"<h1>{html.escape(problem)}</h1>".encode(), "text/html")
            return
        form_id = secrets.token_urlsafe(16)
        with self._lock:
            self._pending[form_id] = Grant(
                query["client_id"], query["redirect_uri"], query["code_challenge"], query["state"]
            )
        page = (
            '<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">'
            "<title>Sign in</title></head><body><main><h1>Sign in (test hosted UI)</h1>"
            '<form method="post" action="/login">'
            f'<input type="hidden" name="form" value="{form_id}">'
            '<label>Username <input name="username" autocomplete="username" required></label>'
            '<button type="submit">Sign in</button></form></main></body></html>'
        )
        self._send(request, 200, page.encode(), "text/html; charset=utf-8")

    def _login(self, request: BaseHTTPRequestHandler, form: dict[str, str]) -> None:
        with self._lock:
            grant = self._pending.pop(form.get("form", ""), None)
        if grant is None or not form.get("username"):
            self._send(request, 400, b"no such sign-in", "text/plain")
            return
        grant.user = form["username"]
        code = secrets.token_urlsafe(24)
        with self._lock:
            self._codes[code] = grant
        state = grant.state + "-forged" if self.tamper_state else grant.state
        self._redirect(request, f"{grant.redirect_uri}?{urlencode({'code': code, 'state': state})}")

    def _token(self, request: BaseHTTPRequestHandler, form: dict[str, str]) -> None:
        self.exchanges.append(dict(form))
        with self._lock:
            grant = self._codes.get(form.get("code", ""))
            problem = (
                "invalid_request"
                if form.get("grant_type") != "authorization_code"
                else "invalid_grant"
                if grant is None or grant.used
                else "invalid_client"
                if form.get("client_id") != grant.client_id
                else "invalid_grant"
                if form.get("redirect_uri") != grant.redirect_uri
                else "invalid_grant"
                if not VERIFIER.fullmatch(form.get("code_verifier", ""))
                else "invalid_grant"
                if s256(form["code_verifier"]) != grant.challenge
                else ""
            )
            if grant is not None:
                grant.used = True  # a code is good once, even when the exchange fails
        if problem or grant is None:
            self.refused.append(f"token: {problem}")
            self._send(request, 400, json.dumps({"error": problem}).encode(), "application/json")
            return
        self.issued.append(grant.user)
        tokens = {
            "id_token": self.mint(grant.user),
            "access_token": secrets.token_urlsafe(32),
            "token_type": "Bearer",
            "expires_in": 3600,
        }
        self._send(request, 200, json.dumps(tokens).encode(), "application/json")

    # -- HTTP ----------------------------------------------------------------------------------

    def _origin(self) -> str:
        parts = urlsplit(self.redirect_uri)
        return f"{parts.scheme}://{parts.netloc}"

    def _send(self, request: BaseHTTPRequestHandler, status: int, body: bytes, kind: str) -> None:
        request.send_response(status)
        request.send_header("Content-Type", kind)
        request.send_header("Content-Length", str(len(body)))
        request.send_header("Cache-Control", "no-store")
        request.send_header("Access-Control-Allow-Origin", self._origin())
        request.send_header("Access-Control-Allow-Headers", "content-type")
        request.end_headers()
        request.wfile.write(body)

    def _redirect(self, request: BaseHTTPRequestHandler, location: str) -> None:
        request.send_response(302)
        request.send_header("Location", location)
        request.send_header("Content-Length", "0")
        request.end_headers()
