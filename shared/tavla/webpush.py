"""Web Push (RFC 8030 with VAPID, RFC 8292): the stage's key pair and one notice to a browser.

The key pair comes from one Secrets Manager secret, a generated random string: the private
key is its SHA-256 read as a P-256 scalar, so CloudFormation makes the key with the stack (no
custom resource, nothing to paste) and every function reading the secret gets the same pair.
Browsers are given the public half (GET /push/key) to subscribe with.

pywebpush (and the cryptography it needs) is imported by the first notice sent, not by a cold
start that sends none.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tavla import aws
from tavla.frozen import Frozen

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePrivateKey

    from tavla.store.push import PushSubscriptionRecord

SECRET_ENV = "PUSH_KEY_SECRET_ID"  # the secret's ARN (or the local stack's name)
SUBJECT_ENV = "PUSH_SUBJECT"  # who push services may contact about our notices (mailto: or https:)
DEFAULT_SUBJECT = "mailto:notices@tavla.gr"
# P-256's group order: a private key is an integer in [1, ORDER - 1]
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
TTL_SECONDS = 15 * 60  # a table call still waiting in a push service after this is worthless
TIMEOUT_SECONDS = 5
GONE = (404, 410)  # the push service forgot the subscription: it is deleted


def private_value(secret: str) -> int:
    """The private scalar of the secret string: never 0, always below the group order."""
    return int.from_bytes(hashlib.sha256(secret.encode()).digest(), "big") % (ORDER - 1) + 1


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _private_key(secret: str) -> EllipticCurvePrivateKey:
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.derive_private_key(private_value(secret), ec.SECP256R1())


def public_key_of(secret: str) -> str:
    """The public key as browsers take it (`applicationServerKey`): the uncompressed point,
    base64url without padding."""
    from cryptography.hazmat.primitives import serialization

    point = (
        _private_key(secret)
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return _b64url(point)


def _secret() -> str:
    return aws.secret(os.environ[SECRET_ENV])


def public_key() -> str:
    return public_key_of(_secret())


@dataclass(frozen=True, eq=False, repr=False)
class Sent(Frozen):
    """What the push service answered: `delivered` (2xx), `gone` (404/410: forget it)."""

    status: int

    @property
    def delivered(self) -> bool:
        return 200 <= self.status < 300

    @property
    def gone(self) -> bool:
        return self.status in GONE


def signing_key() -> EllipticCurvePrivateKey:
    """The private key, read once per batch of notices (before any thread posts one)."""
    return _private_key(_secret())


def send(
    subscription: PushSubscriptionRecord, payload: Mapping[str, Any], key: EllipticCurvePrivateKey
) -> Sent:
    """One encrypted notice to one browser; a refusal is an answer, not an exception (the other
    players' notices still go out). Touches no AWS client: safe on several threads at once."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        response = webpush(
            info,
            data=json.dumps(dict(payload), ensure_ascii=False),
            vapid_private_key=Vapid(private_key=key),
            vapid_claims={"sub": os.environ.get(SUBJECT_ENV, DEFAULT_SUBJECT)},
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
        )
    except WebPushException as refused:
        status = refused.response.status_code if refused.response is not None else 0
        return Sent(status)
    except OSError:  # unreachable push service (requests' errors are OSErrors)
        return Sent(0)
    return Sent(int(response.status_code))
