"""Seed order for a draw (R5.1): by rating or at random, always reproducible from a seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from tavla.rules.entrants import Entrant

SeedingMode = Literal["rating", "random"]


def seed_order(entrants: Sequence[Entrant], mode: SeedingMode, seed: int) -> list[Entrant]:
    """Return the entrants in seed order, best seed first.

    `rating`: highest rating first; players with equal ratings are ordered by the seeded
    generator. `random`: a shuffle by the seeded generator. The same entrants (in any input
    order) and the same seed always give the same order, so anyone can recompute a draw.
    """
    ordered = sorted(entrants, key=lambda e: e.player_id)
    rng = random.Random(seed)
    tiebreak = {e.player_id: rng.random() for e in ordered}
    if mode == "random":
        return sorted(ordered, key=lambda e: tiebreak[e.player_id])
    return sorted(ordered, key=lambda e: (-e.rating, tiebreak[e.player_id]))
