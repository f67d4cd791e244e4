"""A stand-in push service (what FCM or Mozilla's autopush is to a browser) on a free localhost
port: it takes each encrypted notice the platform posts, keeps it, and answers 201; a path
that ends in `/gone` answers 410, as a service does for a browser that unsubscribed. `GET /`
lists what it took (headers, and the body as base64: it is encrypted for the browser alone).

The platform is told to post here by `PUSH_EXTRA_ORIGINS` (no real push service is reached
from a developer's machine)."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakePushService:
    def __init__(self) -> None:
        self.taken: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with service._lock:
                    body = json.dumps({"taken": service.taken}).encode()
                self._answer(200, body)

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                gone = self.path.rstrip("/").endswith("/gone")
                with service._lock:
                    service.taken.append(
                        {
                            "path": self.path,
                            "encoding": self.headers.get("content-encoding"),
                            "ttl": self.headers.get("ttl"),
                            "vapid": (self.headers.get("authorization") or "").startswith("vapid "),
                            "body": base64.b64encode(body).decode(),
                            "status": 410 if gone else 201,
                        }
                    )
                self._answer(410 if gone else 201, b"")

            def _answer(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-push", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
