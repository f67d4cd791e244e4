"""The local identity provider and the check API Gateway's JWT authorizer makes.

Tokens are RS256 JWTs shaped like Cognito ID tokens (`sub`, `cognito:groups`), signed
with a key pair made on first start and kept in the data folder, so a token survives a
restart. A route that needs a signed-in user gets the token's claims in
`requestContext.authorizer.jwt`, stringified as API Gateway does ("[a b]" for arrays).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

ISSUER = "https://idp.tavla.local"
AUDIENCE = "tavla-local"
KEY_ID = "tavla-local-1"
TOKEN_LIFETIME_SECONDS = 12 * 3600


class InvalidToken(Exception):
    """The authorizer refuses the request (API Gateway answers 401)."""


StoredRoles = Callable[[str], set[str]]


class Authority:
    """Mints and verifies the local stack's tokens.

    A token carries the groups asked for (the local stand-in for adding a user to a Cognito
    group by hand) and the platform roles the federation's admins granted, read from the
    platform's role records when it is minted: as in the cloud, a grant reaches the next token.
    """

    def __init__(self, data_dir: Path, stored_roles: StoredRoles | None = None) -> None:
        self._private = _load_or_create_key(data_dir / "jwt-signing-key.pem")
        self._public = self._private.public_key()
        self._stored_roles = stored_roles or (lambda _user: set())

    def mint(self, user: str, groups: Iterable[str] = (), lifetime: int = TOKEN_LIFETIME_SECONDS) -> str:
        groups = set(groups) | self._stored_roles(user)
        now = int(time.time())
        claims = {
            "sub": user,
            "iss": ISSUER,
            "aud": AUDIENCE,
            "iat": now,
            "auth_time": now,
            "exp": now + lifetime,
            "token_use": "id",
            "cognito:username": user,
            "cognito:groups": sorted(set(groups)),
        }
        return jwt.encode(claims, self._private, algorithm="RS256", headers={"kid": KEY_ID})

    def verify(self, authorization: str | None) -> dict[str, Any]:
        """The token's claims if signature, issuer, audience and expiry hold; else InvalidToken."""
        if not authorization:
            raise InvalidToken("Missing token: send `Authorization: Bearer <token>`.")
        token = authorization.strip()
        if token[:7].lower() == "bearer ":
            token = token[7:].strip()
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self._public,
                algorithms=["RS256"],
                audience=AUDIENCE,
                issuer=ISSUER,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.ExpiredSignatureError:
            raise InvalidToken("The token has expired.") from None
        except jwt.InvalidAudienceError:
            raise InvalidToken("The token is not meant for this API (audience).") from None
        except jwt.InvalidTokenError as error:
            raise InvalidToken(f"The token is not valid: {error}.") from None
        return claims

    def write_jwks(self, data_dir: Path) -> Path:
        """The public keys as a file, for code that fetches them by URL (the live authorizer)."""
        path = data_dir / "jwks.json"
        path.write_text(json.dumps(self.jwks()))
        return path

    def jwks(self) -> dict[str, Any]:
        """The public key as a JWKS document, as Cognito publishes it."""
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self._public))
        jwk.update({"kid": KEY_ID, "alg": "RS256", "use": "sig"})
        return {"keys": [jwk]}


def authorizer_context(claims: dict[str, Any]) -> dict[str, Any]:
    """`requestContext.authorizer` as API Gateway's JWT authorizer fills it."""
    scope = claims.get("scope")
    return {
        "jwt": {
            "claims": {name: _stringify(value) for name, value in claims.items()},
            "scopes": scope.split() if isinstance(scope, str) else None,
        }
    }


def _stringify(value: Any) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def _load_or_create_key(path: Path) -> rsa.RSAPrivateKey:
    if path.exists():
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if isinstance(key, rsa.RSAPrivateKey):
            return key
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.write_bytes(pem)
    path.chmod(0o600)
    return key


def role_records(dynamodb: Any) -> StoredRoles:
    """The platform roles a user holds, read from the main table of DynamoDB Local."""
    from local.dynamodb import physical_name
    from tavla.caller import ADMINS, ORGANISERS
    from tavla.store import keys
    from tavla.store.schema import MAIN

    def held(user: str) -> set[str]:
        roles = (ORGANISERS, ADMINS)
        request = {
            physical_name(MAIN): {"Keys": [keys.role_grant(r, user) for r in roles], "ConsistentRead": True}
        }
        found = dynamodb.batch_get_item(RequestItems=request)["Responses"].get(physical_name(MAIN), [])
        return {str(item["role"]["S"]) for item in found}

    return held
