"""Who may listen on which live channel: anyone on the public ones; on `staff/{tid}` only that
tournament's referees and organisers and the platform's admins (R1.3), with a valid token.

AppSync Events asks the live authorizer function on every connection and subscription of the
staff namespace; the local stack asks the same function."""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING, Any

from tavla import live
from tavla.caller import Caller
from tavla.errors import NotFound, NotStaff
from tavla.services.access import require_staff
from tavla.store import tournaments as tournament_store

if TYPE_CHECKING:
    import jwt


@cache
def _keys() -> jwt.PyJWKClient:
    import jwt

    return jwt.PyJWKClient(os.environ[live.JWKS_URL_ENV], cache_keys=True)


def caller_of(token: str) -> Caller | None:
    """The token's caller if signature, issuer, audience and expiry hold, else None."""
    import jwt

    bearer = token.removeprefix("Bearer ").strip()
    try:
        key = _keys().get_signing_key_from_jwt(bearer)
        claims: dict[str, Any] = jwt.decode(
            bearer,
            key.key,
            algorithms=["RS256"],
            audience=[a for a in os.environ.get(live.AUDIENCE_ENV, "").split(",") if a],
            issuer=os.environ.get(live.ISSUER_ENV),
            options={"require": ["exp", "iss", "aud", "sub"]},
        )
    except jwt.PyJWTError:
        return None
    groups = claims.get("cognito:groups") or []
    return Caller(sub=str(claims["sub"]), groups=frozenset(str(g) for g in groups))


def may_subscribe(channel: str, token: str | None) -> bool:
    """True when the token's holder may listen on the channel (a path or a name)."""
    if live.namespace(channel) in live.PUBLIC_NAMESPACES:
        return True
    if live.namespace(channel) != live.STAFF_NAMESPACE or not token:
        return False
    caller = caller_of(token)
    if caller is None:
        return False
    try:
        require_staff(tournament_store.get(live.tournament_of(channel)), caller)
    except (NotFound, NotStaff):
        return False
    return True
