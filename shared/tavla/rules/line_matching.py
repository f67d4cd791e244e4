"""Minimum-cost perfect matching when the cost of a pair is the distance of two levels on a line.

The pairing engine shared by Swiss (levels = points, R5.5) and Lives (levels = lives, R5.7).
Every player has an integer level; pairing players `i` and `j` costs `|level_i - level_j|`;
some pairs are forbidden (players who already met). `min_cost_line_matching` returns a
perfect matching of the allowed pairs whose total cost is the minimum possible, or raises
`NoPerfectMatching` when no perfect matching avoids the forbidden pairs.

How it stays exact and fast. Sort the distinct levels `L_0 > L_1 > ... > L_{k-1}` into
groups; gap `g` lies between group `g` and `g+1` and has length `L_g - L_{g+1}`. The cost of
any perfect matching is `sum_g length_g * crossing_g`, where `crossing_g` counts pairs with
one player above the gap and one below; `crossing_g` has the parity of the number of players
above the gap, so it is at least that parity. That gives a lower bound. Tight spots (small
groups at the top or bottom whose players have already met) are covered by two exact
"windows" solved with a general weighted matching on their few players, each relaxed so
that its value is a lower bound for the gaps inside it. The middle groups, where nearly all
players are, are paired group by group with at most one float per gap (the parity bound).
When that succeeds, the matching's cost equals the lower bound, so it is optimal; when a
group cannot be paired so, its group joins the nearer window and the whole is tried again.
If the windows meet, the whole field is solved by the exact general algorithm (small,
pathological fields only). The tests check exactness against networkx's blossom algorithm.

Secondary preference (does not change the cost): inside a group, the top half is paired
against the bottom half (1 v h+1, 2 v h+2, ...), and the player who floats down from an
odd group is the lowest-ranked one who can.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import networkx as nx

from tavla.rules.errors import RuleViolation

__all__ = ["NoPerfectMatching", "matching_cost", "min_cost_line_matching"]

Pair = tuple[int, int]
Forbidden = dict[int, set[int]]
# What pairing two players of a window saves against floating both out of it, by level.
_Saving = Callable[[int, int], int]

# Above this size a pool that simple repairs cannot pair is handed to the exact windows
# instead of a cardinality check (the check is cubic).
_EXACT_POOL_LIMIT = 64


class NoPerfectMatching(RuleViolation):
    """No pairing of everybody avoids the pairs that are not allowed (players who met)."""


def matching_cost(levels: Sequence[int], pairs: Collection[Pair]) -> int:
    """Total `|level_i - level_j|` over the pairs."""
    return sum(abs(levels[i] - levels[j]) for i, j in pairs)


def min_cost_line_matching(levels: Sequence[int], forbidden: Collection[tuple[int, int]]) -> list[Pair]:
    """Pair players `0..n-1` so that the total level difference is the minimum possible.

    `levels[i]` is player `i`'s level; a lower index means a better-ranked player among equal
    levels. No pair in `forbidden` is used. Returns pairs `(i, j)` with `i < j`, sorted. The
    result is deterministic and its total cost equals that of an exact minimum-cost perfect
    matching. Raises `NoPerfectMatching` when the number of players is odd or when every
    perfect matching uses a forbidden pair.
    """
    n = len(levels)
    if n % 2:
        raise NoPerfectMatching(f"{n} players cannot all be paired: the number is odd")
    banned: Forbidden = {i: set() for i in range(n)}
    for a, b in forbidden:
        if a != b and 0 <= a < n and 0 <= b < n:
            banned[a].add(b)
            banned[b].add(a)
    solver = _Solver(list(levels), banned)
    return sorted((min(a, b), max(a, b)) for a, b in solver.solve())


class _GroupFailed(Exception):
    def __init__(self, group: int) -> None:
        super().__init__(group)
        self.group = group


class _Solver:
    def __init__(self, levels: list[int], banned: Forbidden) -> None:
        self.levels = levels
        self.banned = banned
        distinct = sorted(set(levels), reverse=True)
        index = {lv: g for g, lv in enumerate(distinct)}
        self.group_levels = distinct
        self.groups: list[list[int]] = [[] for _ in distinct]
        for i, lv in enumerate(levels):
            self.groups[index[lv]].append(i)

    # -- driver -------------------------------------------------------------------------
    def solve(self) -> list[Pair]:
        k = len(self.groups)
        top, bottom = 0, k  # top window: groups [0, top); bottom window: groups [bottom, k)
        while top < bottom:
            try:
                return self._attempt(top, bottom)
            except _GroupFailed as failed:
                g = failed.group
                # Grow the window nearer to the failing group so that it covers it.
                if g - top < bottom - 1 - g:
                    top = g + 1
                else:
                    bottom = g
        return self._exact(list(range(len(self.levels))))

    def _attempt(self, top: int, bottom: int) -> list[Pair]:
        pairs: list[Pair] = []
        floaters_top: list[int] = []
        if top > 0:
            members = [i for g in range(top) for i in self.groups[g]]
            base = self.group_levels[top]
            matched = self._window(members, lambda a, b: 2 * (min(a, b) - base))
            pairs.extend(matched)
            floaters_top = _unmatched(members, matched)
        floaters_bottom: list[int] = []
        if bottom < len(self.groups):
            members = [i for g in range(bottom, len(self.groups)) for i in self.groups[g]]
            ceiling = self.group_levels[bottom - 1]
            matched = self._window(members, lambda a, b: 2 * (ceiling - max(a, b)))
            pairs.extend(matched)
            floaters_bottom = _unmatched(members, matched)
        carried = floaters_top
        for g in range(top, bottom):
            last = g == bottom - 1
            incoming = carried + (floaters_bottom if last else [])
            nxt = None if last else self.groups[g + 1]
            group_pairs, carried = self._pair_pool(g, incoming, nxt)
            pairs.extend(group_pairs)
        return pairs

    # -- exact pieces ----------------------------------------------------------------------
    def _window(self, members: list[int], saving: _Saving) -> list[Pair]:
        """Exact relaxed matching of a window: pairing inside it saves `saving`, else float out."""
        graph = nx.Graph()
        graph.add_nodes_from(members)
        for x, a in enumerate(members):
            for b in members[x + 1 :]:
                w = saving(self.levels[a], self.levels[b])
                if w > 0 and b not in self.banned[a]:
                    graph.add_edge(a, b, weight=w)
        return _as_pairs(nx.max_weight_matching(graph))

    def _exact(self, members: list[int]) -> list[Pair]:
        """Exact minimum-cost perfect matching of `members` (cubic: small fields only)."""
        graph = nx.Graph()
        graph.add_nodes_from(members)
        spread = max(self.levels) - min(self.levels) + 1
        for x, a in enumerate(members):
            for b in members[x + 1 :]:
                if b not in self.banned[a]:
                    graph.add_edge(a, b, weight=spread - abs(self.levels[a] - self.levels[b]))
        pairs = _as_pairs(nx.max_weight_matching(graph, maxcardinality=True))
        if 2 * len(pairs) != len(members):
            raise NoPerfectMatching(
                "no pairing of all players avoids a rematch: every way of pairing them repeats a match"
            )
        return pairs

    # -- one middle group ----------------------------------------------------------------
    def _pair_pool(self, g: int, incoming: list[int], nxt: list[int] | None) -> tuple[list[Pair], list[int]]:
        """Pair group `g` with the players floating into it, leaving at most one to float on."""
        group = self.groups[g]
        pool = incoming + group
        if len(pool) % 2 == 0:
            found = self._perfect(pool)
            if found is None:
                raise _GroupFailed(g)
            return found, []
        if nxt is None:  # pragma: no cover - parity makes the last pool even
            raise _GroupFailed(g)
        # Lowest-ranked group member first, then the players who floated in.
        for candidate in [*reversed(group), *incoming]:
            if all(j in self.banned[candidate] for j in nxt):
                continue
            rest = [i for i in pool if i != candidate]
            found = self._perfect(rest)
            if found is not None:
                return found, [candidate]
        raise _GroupFailed(g)

    def _perfect(self, pool: list[int]) -> list[Pair] | None:
        """A perfect matching of `pool`: top half v bottom half, repaired where they met."""
        if not pool:
            return []
        half = len(pool) // 2
        pairs = [[pool[x], pool[x + half]] for x in range(half)]
        banned = self.banned
        for x in range(half):
            a, b = pairs[x]
            if b not in banned[a]:
                continue
            if not self._repair(pairs, x):
                return self._cardinality(pool)
        return [(a, b) for a, b in pairs]

    def _repair(self, pairs: list[list[int]], x: int) -> bool:
        """Swap partners between pair `x` and another pair so that no pair repeats a match."""
        banned = self.banned
        a, b = pairs[x]
        order = [*range(x + 1, len(pairs)), *range(x - 1, -1, -1)]
        for y in order:
            c, d = pairs[y]
            if d not in banned[a] and c not in banned[b]:
                pairs[x], pairs[y] = [a, d], [c, b]
                return True
            if c not in banned[a] and d not in banned[b]:
                pairs[x], pairs[y] = [a, c], [b, d]
                return True
        return False

    def _cardinality(self, pool: list[int]) -> list[Pair] | None:
        if len(pool) > _EXACT_POOL_LIMIT:
            return None
        graph = nx.Graph()
        graph.add_nodes_from(pool)
        for x, a in enumerate(pool):
            for b in pool[x + 1 :]:
                if b not in self.banned[a]:
                    graph.add_edge(a, b)
        pairs = _as_pairs(nx.max_weight_matching(graph, maxcardinality=True))
        return pairs if 2 * len(pairs) == len(pool) else None


def _as_pairs(matching: set[tuple[int, int]]) -> list[Pair]:
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def _unmatched(members: list[int], pairs: list[Pair]) -> list[int]:
    used = {i for p in pairs for i in p}
    return [i for i in members if i not in used]
