"""Double elimination (R5.4): winners' and losers' brackets linked match by match, and the grand final.

The bracket is a fixed list of matches, each saying where its players come from and where its
winner and loser go, so a service can advance it one confirmed result at a time. Round one of
the winners' bracket is the single elimination draw (seeding, BYEs, club protection). Losers of
winners' round 1 meet each other in losers' round 1; losers of winners' round r >= 2 drop into
losers' round 2(r-1) in a chart order (reversed first, then shifted by half, reversed halves
... as `drop_orders` picks), so that a dropping player does not meet again, early, the players
they have already beaten: in a full bracket of 2^k there is no rematch before losers' round k
(measured, see the tests). Losers' round 2d+1 pairs the winners of round 2d. BYEs flow
through: a player facing a BYE advances, and the BYE drops as a BYE. The grand final pits the
winners' bracket winner (home) against the losers' bracket winner; with `bracket_reset` a
second grand final is played when the losers' bracket winner wins the first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import ConfigDict

from tavla.rules.entrants import Entrant
from tavla.rules.errors import RuleViolation
from tavla.rules.seeding import SeedingMode
from tavla.rules.single_elimination import ClubClash, draw_single_elimination
from tavla.rules.value import RuleModel

Side = Literal["home", "away"]
BracketName = Literal["winners", "losers", "final"]
Status = Literal["waiting", "ready", "walkover", "void", "played", "not_needed"]


class IllegalBracketResult(RuleViolation):
    """A result for a match that does not exist, is not ready, or names a winner who is not in it."""


class Source(RuleModel):
    """Where one side of a match comes from: a drawn entry (None = BYE), or a match's winner or loser."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["entry", "winner", "loser"]
    player: str | None = None
    match: str | None = None


class Link(RuleModel):
    """The match and side a winner or loser goes to."""

    model_config = ConfigDict(frozen=True)

    match: str
    side: Side


class BracketMatch(RuleModel):
    """One match of the structure; `loser_to` None means the loser is out.

    `stage` is a round number across both brackets that grows with time (winners' round r >= 2
    is stage 2(r-1), losers' round r is stage r+1, the grand final comes last): use it as the
    MatchRecord round so standings see the order players went out in (R10.1).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    bracket: BracketName
    round: int
    stage: int
    home: Source
    away: Source
    winner_to: Link | None = None
    loser_to: Link | None = None


class DoubleEliminationBracket(RuleModel):
    """A drawn double elimination bracket (R5.1, R5.4); `matches` are in an order safe to evaluate."""

    model_config = ConfigDict(frozen=True)

    seed: int
    mode: SeedingMode
    size: int
    bracket_reset: bool
    seed_list: tuple[str, ...]
    club_clashes: tuple[ClubClash, ...] = ()
    matches: tuple[BracketMatch, ...]

    def match(self, match_id: str) -> BracketMatch:
        """The match with this id."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise IllegalBracketResult(f"there is no match {match_id} in this bracket")


def _orderings(count: int) -> list[list[int]]:
    half = count // 2
    reverse = [count - 1 - i for i in range(count)]
    shift = [(i + half) % count for i in range(count)]
    reverse_shift = [(half - 1 - i) % count if i < half else count - 1 - (i - half) for i in range(count)]
    pair_flip = [i ^ 1 if count > 1 else i for i in range(count)]
    return [reverse, shift, reverse_shift, pair_flip, list(range(count))]


def drop_orders(size: int) -> list[list[int]]:
    """For each drop d = 1, 2, ... (losers of winners' round d+1), which winners' match drops into
    each losers' match of losers' round 2d.

    Chosen among the standard chart orderings (reversed, shifted by half, reversed halves, pairs
    flipped, natural) as the first that least often sends a dropping player against a losers'
    bracket player from their own winners' section, i.e. one they may already have beaten.
    """
    k = size.bit_length() - 1
    if k < 2:
        return []
    # the bracket lines each losers' match side may hold, as bit sets
    block = 4
    sides = [((1 << block) - 1) << (block * i) for i in range(size // 4)]
    orders: list[list[int]] = []
    for r in range(2, k + 1):
        count = size >> r
        width = 1 << r
        sections = [((1 << width) - 1) << (width * j) for j in range(count)]
        best = min(
            _orderings(count), key=lambda order: sum(1 for i in range(count) if sides[i] & sections[order[i]])
        )
        orders.append(best)
        merged = [sides[i] | sections[best[i]] for i in range(count)]
        sides = [merged[2 * i] | merged[2 * i + 1] for i in range(count // 2)]
    return orders


def _wid(r: int, i: int) -> str:
    return f"W{r}-{i + 1}"


def _lid(r: int, i: int) -> str:
    return f"L{r}-{i + 1}"


def build_structure(lines: Sequence[str | None], bracket_reset: bool) -> list[BracketMatch]:
    """The linked matches of a double elimination bracket whose winners' round 1 is `lines`."""
    size = len(lines)
    k = size.bit_length() - 1
    spec: list[tuple[str, BracketName, int, Source, Source]] = []
    for i in range(size // 2):
        spec.append(
            (
                _wid(1, i),
                "winners",
                1,
                Source(kind="entry", player=lines[2 * i]),
                Source(kind="entry", player=lines[2 * i + 1]),
            )
        )
    orders = drop_orders(size)
    last_loser: Source
    if k == 1:
        last_loser = Source(kind="loser", match=_wid(1, 0))
    else:
        for i in range(size // 4):
            spec.append(
                (
                    _lid(1, i),
                    "losers",
                    1,
                    Source(kind="loser", match=_wid(1, 2 * i)),
                    Source(kind="loser", match=_wid(1, 2 * i + 1)),
                )
            )
    for r in range(2, k + 1):
        for i in range(size >> r):
            spec.append(
                (
                    _wid(r, i),
                    "winners",
                    r,
                    Source(kind="winner", match=_wid(r - 1, 2 * i)),
                    Source(kind="winner", match=_wid(r - 1, 2 * i + 1)),
                )
            )
        drop, count = r - 1, size >> r
        order = orders[drop - 1]
        lr = 2 * drop
        for i in range(count):
            spec.append(
                (
                    _lid(lr, i),
                    "losers",
                    lr,
                    Source(kind="winner", match=_lid(lr - 1, i)),
                    Source(kind="loser", match=_wid(r, order[i])),
                )
            )
        if r < k:
            for i in range(count // 2):
                spec.append(
                    (
                        _lid(lr + 1, i),
                        "losers",
                        lr + 1,
                        Source(kind="winner", match=_lid(lr, 2 * i)),
                        Source(kind="winner", match=_lid(lr, 2 * i + 1)),
                    )
                )
    if k > 1:
        last_loser = Source(kind="winner", match=_lid(2 * (k - 1), 0))
    spec.append(("GF1", "final", 1, Source(kind="winner", match=_wid(k, 0)), last_loser))
    if bracket_reset:
        spec.append(
            ("GF2", "final", 2, Source(kind="winner", match="GF1"), Source(kind="loser", match="GF1"))
        )
    links: dict[tuple[str, str], Link] = {}
    for mid, _, _, home, away in spec:
        sides: tuple[tuple[Side, Source], ...] = (("home", home), ("away", away))
        for side, src in sides:
            if src.match is not None:
                links[(src.match, src.kind)] = Link(match=mid, side=side)

    def stage(name: BracketName, rnd: int) -> int:
        if name == "winners":
            return 1 if rnd == 1 else 2 * (rnd - 1)
        if name == "losers":
            return rnd + 1
        return 2 * k + rnd - 1

    return [
        BracketMatch(
            id=mid,
            bracket=name,
            round=rnd,
            stage=stage(name, rnd),
            home=home,
            away=away,
            winner_to=links.get((mid, "winner")),
            loser_to=links.get((mid, "loser")),
        )
        for mid, name, rnd, home, away in spec
    ]


def draw_double_elimination(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    mode: SeedingMode = "rating",
    club_protection: bool = False,
    bracket_reset: bool = True,
) -> DoubleEliminationBracket:
    """Draw a double elimination bracket (R5.4).

    Round one is the single elimination draw (BYEs to the top seeds, R5.2 club protection);
    every other match is linked so that each player is out after two losses, except that without
    `bracket_reset` the winners' bracket winner is out after losing the grand final.
    """
    first = draw_single_elimination(entrants, seed=seed, mode=mode, club_protection=club_protection)
    return DoubleEliminationBracket(
        seed=seed,
        mode=mode,
        size=first.size,
        bracket_reset=bracket_reset,
        seed_list=first.seed_list,
        club_clashes=first.club_clashes,
        matches=tuple(build_structure(first.lines, bracket_reset)),
    )


class MatchState(RuleModel):
    """A match as it stands: its players once known, its status, and its winner and loser once decided."""

    model_config = ConfigDict(frozen=True)

    id: str
    status: Status
    home: str | None = None
    away: str | None = None
    winner: str | None = None
    loser: str | None = None


class BracketState(RuleModel):
    """The whole bracket after the given results: every match, each player's losses, the champion.

    `knocked_out_in` gives the stage (see `BracketMatch.stage`) of the match that put each player
    out: their second loss, or the lost deciding grand final. Players out at the same stage share
    a place (R10.1).
    """

    model_config = ConfigDict(frozen=True)

    matches: dict[str, MatchState]
    losses: dict[str, int]
    knocked_out_in: dict[str, int]
    champion: str | None = None

    def ready(self) -> list[MatchState]:
        """The matches that can be played now (both players known, no result yet)."""
        return [m for m in self.matches.values() if m.status == "ready"]


_DECIDED = ("walkover", "void", "played")


def resolve(bracket: DoubleEliminationBracket, winners: Mapping[str, str]) -> BracketState:
    """Play the bracket forward from confirmed results (`winners`: match id -> winning player id).

    BYEs are walked over automatically. Refuses a result for an unknown match, for a match whose
    players are not both known (or that is a walkover or not needed), or naming a non-player.
    """
    states: dict[str, MatchState] = {}
    losses: dict[str, int] = {p: 0 for p in bracket.seed_list}
    out: dict[str, int] = {}

    def value(src: Source) -> tuple[bool, str | None]:
        if src.kind == "entry":
            return True, src.player
        assert src.match is not None
        state = states[src.match]
        if state.status not in _DECIDED:
            return False, None
        return True, state.winner if src.kind == "winner" else state.loser

    for m in bracket.matches:
        (home_known, home), (away_known, away) = value(m.home), value(m.away)
        if m.id == "GF2":
            gf1 = states["GF1"]
            if gf1.status == "played" and gf1.winner == gf1.home:
                states[m.id] = MatchState(id=m.id, status="not_needed")
                continue
        if not (home_known and away_known):
            states[m.id] = MatchState(id=m.id, status="waiting", home=home, away=away)
        elif home is None or away is None:
            status: Status = "void" if home is None and away is None else "walkover"
            states[m.id] = MatchState(id=m.id, status=status, home=home, away=away, winner=home or away)
        elif m.id in winners:
            winner = winners[m.id]
            if winner not in (home, away):
                raise IllegalBracketResult(f"{winner} is not a player of match {m.id} ({home} - {away})")
            loser = away if winner == home else home
            losses[loser] += 1
            if losses[loser] == 2:
                out[loser] = m.stage
            states[m.id] = MatchState(
                id=m.id, status="played", home=home, away=away, winner=winner, loser=loser
            )
        else:
            states[m.id] = MatchState(id=m.id, status="ready", home=home, away=away)
    for mid in winners:
        if mid not in states:
            raise IllegalBracketResult(f"there is no match {mid} in this bracket")
        if states[mid].status != "played":
            raise IllegalBracketResult(f"match {mid} cannot take a result: it is {states[mid].status}")
    final = states.get("GF2") if bracket.bracket_reset else None
    if final is not None and final.status == "played":
        champion = final.winner
    elif states["GF1"].status == "played" and (final is None or final.status == "not_needed"):
        champion = states["GF1"].winner
    else:
        champion = None
    if champion is not None:
        decider = final if final is not None and final.status == "played" else states["GF1"]
        assert decider.loser is not None
        out.setdefault(decider.loser, bracket.match(decider.id).stage)
    return BracketState(matches=states, losses=losses, knocked_out_in=out, champion=champion)
