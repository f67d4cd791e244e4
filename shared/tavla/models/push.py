"""A browser's Web Push subscription as `PushSubscription.toJSON()` gives it, and the key to
subscribe with."""

from __future__ import annotations

import base64
import os
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from tavla.models.common import ApiModel, StrictModel
from tavla.rules import push as push_rules

# the base64url text of the browser's keys: p256dh a 65-byte point, auth 16 bytes
_Base64Url = Annotated[str, StringConstraints(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+=*$")]


def _decoded(text: str) -> bytes:
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def _point(text: str) -> str:
    """The browser's public key, a P-256 point: one that is not could never be written to."""
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _decoded(text))
    except ValueError:
        raise ValueError("p256dh: not a P-256 public key") from None
    return text


def _secret(text: str) -> str:
    if len(_decoded(text)) != AUTH_BYTES:
        raise ValueError(f"auth: {AUTH_BYTES} bytes, base64url")
    return text


AUTH_BYTES = 16


EXTRA_ORIGINS_ENV = "PUSH_EXTRA_ORIGINS"  # the local stack's stand-in push service (comma separated)


def _checked_endpoint(url: str) -> str:
    extra = [o for o in os.environ.get(EXTRA_ORIGINS_ENV, "").split(",") if o]
    if not push_rules.endpoint_allowed(url, extra):
        raise ValueError("not the URL of a known push service over HTTPS")
    return url


Endpoint = Annotated[
    str,
    StringConstraints(min_length=12, max_length=1000),
    AfterValidator(_checked_endpoint),
    Field(description="the push service's URL for this browser (a known push service, over HTTPS)"),
]


class PushKeys(StrictModel):
    p256dh: Annotated[_Base64Url, AfterValidator(_point)]
    auth: Annotated[_Base64Url, AfterValidator(_secret)]


class PushSubscriptionBody(StrictModel):
    endpoint: Endpoint
    keys: PushKeys
    expirationTime: int | None = Field(default=None, description="as the browser gives it; not used")


class PushSubscriptionId(ApiModel):
    id: str = Field(description="the subscription's id (DELETE /me/push-subscriptions/{id})")


class PushKey(ApiModel):
    public_key: str = Field(description="the stage's VAPID public key (base64url), the applicationServerKey")
