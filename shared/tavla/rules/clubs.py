"""Free-text club names as players typed them, grouped for the federation to map once.

"Club 3", "club 3 " and "CLUB-3" are one club written three ways; so are "OA Plakas" and
"O.A. Plakas", and "Όμιλος" with or without its accent. A name's `folded` form drops case,
accents, punctuation and spaces; names whose folded forms are equal, or close enough that a
typo explains the difference, are offered together for an admin to merge into one club
record. The grouping only proposes: nothing is merged without an admin choosing it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from difflib import SequenceMatcher

from tavla.frozen import Frozen

# two folded names this alike (difflib's ratio) are offered as one club: a letter or two apart
NEAR = 0.85


def folded(name: str) -> str:
    """Lower case, no accents, letters and digits only: how two spellings are compared."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))


def near(a: str, b: str) -> bool:
    """Two folded names that a typo or two could turn into each other (never two empty ones)."""
    if not a or not b:
        return False
    return a == b or SequenceMatcher(None, a, b).ratio() >= NEAR


@dataclass(frozen=True, eq=False, repr=False)
class Spelling(Frozen):
    """One way a club was typed, and how many players typed it so."""

    name: str
    players: int


@dataclass(frozen=True, eq=False, repr=False)
class NearDuplicates(Frozen):
    """Spellings that look like one club, most used first (the first is the likely name)."""

    spellings: tuple[Spelling, ...]

    @property
    def players(self) -> int:
        return sum(s.players for s in self.spellings)


def near_duplicates(counts: Mapping[str, int]) -> list[NearDuplicates]:
    """Group the spellings (name -> players) that look like one club; largest groups first.

    A spelling joins the first group holding a spelling near it, so the result does not
    depend on the order the names came in beyond ties (sorted by use, then by name).
    A spelling with no letter or digit is left out: there is nothing to compare.
    """
    ordered = sorted((n for n in counts if folded(n)), key=lambda n: (-counts[n], n))
    groups: list[list[str]] = []
    for name in ordered:
        key = folded(name)
        home = next((g for g in groups if any(near(key, folded(other)) for other in g)), None)
        if home is None:
            groups.append([name])
        else:
            home.append(name)
    found = [NearDuplicates(tuple(Spelling(n, counts[n]) for n in g)) for g in groups]
    return sorted(found, key=lambda g: (-len(g.spellings), -g.players, g.spellings[0].name))
