"""Identifiers people type (Tavla IDs, check-in codes) and opaque ones, from an injected generator."""

from __future__ import annotations

import random
import uuid

# Crockford-style alphabet without 0/O, 1/I/L, U: nothing a player can misread or mistype.
TYPABLE = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
TAVLA_ID_LENGTH = 7
CHECKIN_CODE_LENGTH = 8


def tavla_id(rng: random.Random) -> str:
    """A 7-character Tavla ID (30^7, about 2.2e10 possibilities)."""
    return "".join(rng.choice(TYPABLE) for _ in range(TAVLA_ID_LENGTH))


def checkin_code(rng: random.Random) -> str:
    """A check-in code, also the bank-transfer payment reference (R3.3)."""
    return "".join(rng.choice(TYPABLE) for _ in range(CHECKIN_CODE_LENGTH))


def opaque(rng: random.Random) -> str:
    return uuid.UUID(int=rng.getrandbits(128), version=4).hex[:16]
