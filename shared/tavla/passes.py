"""Check-in passes (R4.1): a signed, expiring token naming the player, never a bare id.

The pass is a JWT (HS256) whose key lives in Secrets Manager; a referee's scan is checked
for signature, expiry and purpose before anyone is checked in.
"""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from tavla import aws
from tavla.errors import ForgedPass

PASS_LIFETIME = timedelta(days=30)
_PURPOSE = "tavla-checkin"


def signing_key() -> str:
    """The HMAC key, fetched from Secrets Manager and cached for five minutes."""
    return aws.secret(os.environ["PASS_KEY_SECRET_ID"])


def issue(tavla_id: str, now: datetime, key: str) -> tuple[str, datetime]:
    import jwt  # imported where used: only the pass routes pay for it at cold start

    expires = now + PASS_LIFETIME
    claims = {"sub": tavla_id, "aud": _PURPOSE, "iat": int(now.timestamp()), "exp": int(expires.timestamp())}
    return jwt.encode(claims, key, algorithm="HS256"), expires


def verify(token: str, now: datetime, key: str) -> str:
    """The Tavla ID the pass names; ForgedPass when it is forged, altered or expired."""
    import jwt

    try:
        claims = jwt.decode(
            token,
            key,
            algorithms=["HS256"],
            audience=_PURPOSE,
            # Time is the platform's clock (checked below), never the machine's: a pass issued
            # while the platform clock runs ahead (the local stack's /dev/clock) is not
            # "not yet valid" by its iat (found from the browser).
            options={"require": ["sub", "exp", "aud"], "verify_exp": False, "verify_iat": False},
        )
    except jwt.PyJWTError as error:
        raise ForgedPass("This check-in pass is not valid.") from error
    if int(claims["exp"]) <= now.timestamp():
        raise ForgedPass("This check-in pass has expired: open a fresh one in the app.")
    return str(claims["sub"])


def qr_svg(token: str) -> str:
    """The pass as a QR code, an SVG document the phone shows at the referee table."""
    import segno

    return str(segno.make(token, error="m").svg_inline(scale=4))
