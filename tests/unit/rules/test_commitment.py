"""Committing to the draw's seed before check-in closes, revealing it with the draw (R5.1)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavla.rules.commitment import commitment, draw_seed, matches, new_secret


def test_the_secret_comes_from_the_injected_randomness_and_replays() -> None:
    """R5.1: the same generator gives the same secret (tests replay a day), 64 hex digits."""
    first, again = new_secret(random.Random(7)), new_secret(random.Random(7))
    assert first == again and len(first) == 64
    assert new_secret(random.Random(8)) != first


@given(secret=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64))
def test_only_the_committed_secret_matches_its_hash(secret: str) -> None:
    """R5.1: the published hash checks the revealed secret, and no other."""
    published = commitment(secret)
    assert matches(secret, published)
    other = ("1" if secret[0] == "0" else "0") + secret[1:]
    assert not matches(other, published)


@given(number=st.integers(1, 500), attempt=st.integers(1, 5))
def test_each_draw_and_attempt_has_its_own_seed_and_anyone_recomputes_it(number: int, attempt: int) -> None:
    """R5.1: a draw's seed follows from the secret alone; a redraw is a new, different attempt."""
    secret = new_secret(random.Random(number))
    seed = draw_seed(secret, number, attempt)
    assert seed == draw_seed(secret, number, attempt)
    assert 0 <= seed < 2**63
    assert seed != draw_seed(secret, number, attempt + 1)
    assert seed != draw_seed(secret, number + 1, attempt)


def test_draws_and_attempts_are_numbered_from_one() -> None:
    with pytest.raises(ValueError):
        draw_seed("ab", 0)
    with pytest.raises(ValueError):
        draw_seed("ab", 1, 0)
