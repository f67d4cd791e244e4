"""The draw's committed seed as the public sees it (R5.1).

Its own module: the draw function answers it, and importing it from the tournament pages'
models would load their 24 models into the draw function's init (docs/decisions/0033)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from tavla.models.common import ApiModel


class DrawCommitment(ApiModel):
    """The draw's committed seed, as the public sees it before the draw (R5.1): its SHA-256
    only; the first draw reveals the seed, and `make verify-draw` checks one against the other."""

    hash: str = Field(description="SHA-256 (hex) of the secret seed's text")
    committed_at: datetime
