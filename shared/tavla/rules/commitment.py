"""A draw nobody can shop (R5.1): the platform commits to one secret seed before check-in closes.

The tournament page shows `commitment(secret)` (its SHA-256) from the moment of the commit;
the first draw reveals the secret. Every draw's seed follows from the secret, the draw's
number and its attempt (1, then 2.. for each redraw), so once the hash is public nobody can
pick a seed: the organiser cannot draw again and again until a draw pleases, because the same
inputs give the same draw, and each redraw is a new, public attempt with its reason.
"""

from __future__ import annotations

import hashlib
import random

SECRET_BITS = 256


def new_secret(rng: random.Random) -> str:
    """A fresh secret seed: 256 random bits as 64 hex digits (`rng` injected: tests replay it)."""
    return f"{rng.getrandbits(SECRET_BITS):064x}"


def commitment(secret: str) -> str:
    """What the page publishes before the draw: the SHA-256 of the secret's text."""
    return hashlib.sha256(secret.encode()).hexdigest()


def draw_seed(secret: str, number: int, attempt: int = 1) -> int:
    """Draw `number`'s seed at `attempt` (1: the first draw; 2..: redraws), 63 bits as before."""
    if number < 1 or attempt < 1:
        raise ValueError("draw numbers and attempts start at 1")
    digest = hashlib.sha256(f"{secret}:{number}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def matches(secret: str, published: str) -> bool:
    """The revealed secret is the one the page committed to."""
    return commitment(secret) == published
