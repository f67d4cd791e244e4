"""A browser's side of Web Push, for tests: its key pair and auth secret, the subscription it
would hand the API, and the decryption of what a push service delivers to it (RFC 8291)."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Browser:
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        """`PushSubscription.toJSON()`, as push.ts sends it."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": _b64url(point), "auth": _b64url(self.auth)},
        }

    def read(self, body: bytes) -> dict[str, Any]:
        """The notice as the service worker gets it (aes128gcm, decrypted with our keys)."""
        import http_ece

        return dict(
            json.loads(
                http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
            )
        )
