"""Main / Consolation / Last Chance (R5.8, seed 001 sections 2.5 and 2.6).

Losers of chosen Main rounds feed the Consolation; losers of chosen Consolation rounds (and,
if wanted, of chosen Main rounds) feed the Last Chance. Default arrangement: the Consolation
takes the losers of Main rounds 1 and 2, the Last Chance the losers of Consolation rounds 1
and 2. BYEs are balanced: a Consolation BYE goes, as far as possible, to a player who had no
BYE in the Main, a Last Chance BYE to one who had none in the Main or the Consolation (seed
001, 2.5). Late arrivals fill the free slots in bracket order with
`single_elimination.fill_late_arrivals` (seed 001, 2.6).

Two ways to build a side bracket:
- progressive (seed 001 2.5, "il tabellone del Consolation e' progressivo"): round one is the
  losers of the Main's round one, each on the line of the Main match they lost
  (`losers_lines`); the losers of the Main's round two join in round two, one against each
  survivor (`progressive_round`), in reversed order so nobody meets again at once the player
  they have just beaten, and with the BYEs balanced;
- all at once, when the whole field is known (`draw_side_bracket`), for any feed plan.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from pydantic import ConfigDict, Field

from tavla.rules.entrants import Entrant
from tavla.rules.errors import RuleViolation
from tavla.rules.seeding import SeedingMode, seed_order
from tavla.rules.single_elimination import Line, SingleEliminationDraw, draw_from_seed_order, next_round
from tavla.rules.value import RuleModel


class SideBracketPlan(RuleModel):
    """Which rounds' losers feed which side bracket (R5.8); the default is the arrangement above."""

    model_config = ConfigDict(frozen=True)

    consolation_from_main: tuple[int, ...] = Field(default=(1, 2))
    last_chance_from_main: tuple[int, ...] = Field(default=())
    last_chance_from_consolation: tuple[int, ...] = Field(default=(1, 2))


class OverlappingFeeds(RuleViolation):
    """The same Main round cannot feed both the Consolation and the Last Chance."""


def _check_plan(plan: SideBracketPlan) -> None:
    rounds = [*plan.consolation_from_main, *plan.last_chance_from_main, *plan.last_chance_from_consolation]
    if any(r < 1 for r in rounds):
        raise RuleViolation(f"rounds are numbered from 1: {rounds}")
    both = set(plan.consolation_from_main) & set(plan.last_chance_from_main)
    if both:
        raise OverlappingFeeds(
            f"Main round(s) {sorted(both)} cannot feed both the Consolation and the Last Chance"
        )


def losers_of_rounds(
    knocked_out_in: Mapping[str, int], rounds: Iterable[int], order: Sequence[str]
) -> list[str]:
    """The players knocked out in the given rounds, by round, then in `order` (e.g. bracket order)."""
    wanted = set(rounds)
    position = {p: i for i, p in enumerate(order)}
    chosen = [p for p, r in knocked_out_in.items() if r in wanted]
    return sorted(chosen, key=lambda p: (knocked_out_in[p], position.get(p, len(position)), p))


def consolation_field(
    main_knocked_out_in: Mapping[str, int], plan: SideBracketPlan, order: Sequence[str] = ()
) -> list[str]:
    """Who plays the Consolation: the losers of the Main rounds the plan names (R5.8)."""
    _check_plan(plan)
    return losers_of_rounds(main_knocked_out_in, plan.consolation_from_main, order)


def last_chance_field(
    main_knocked_out_in: Mapping[str, int],
    consolation_knocked_out_in: Mapping[str, int],
    plan: SideBracketPlan,
    order: Sequence[str] = (),
) -> list[str]:
    """Who plays the Last Chance: losers of the named Consolation rounds, then of the named Main rounds."""
    _check_plan(plan)
    from_consolation = losers_of_rounds(consolation_knocked_out_in, plan.last_chance_from_consolation, order)
    from_main = losers_of_rounds(main_knocked_out_in, plan.last_chance_from_main, order)
    return [*from_consolation, *(p for p in from_main if p not in set(from_consolation))]


def draw_side_bracket(
    entrants: Sequence[Entrant],
    *,
    seed: int,
    had_bye: Collection[str],
    mode: SeedingMode = "random",
    club_protection: bool = False,
) -> SingleEliminationDraw:
    """Draw a Consolation or Last Chance bracket with balanced BYEs (R5.8, seed 001 2.5).

    The seed order (`mode`, `seed`) is kept within two groups: players with no earlier BYE come
    first, those with one after, so the BYEs (which go to the top seeds) reach a player with an
    earlier BYE only when everyone without one already has a BYE. Reproducible from the seed.
    """
    earlier = set(had_bye)
    ordered = seed_order(entrants, mode, seed)
    balanced = [e for e in ordered if e.player_id not in earlier] + [
        e for e in ordered if e.player_id in earlier
    ]
    return draw_from_seed_order(balanced, seed=seed, mode=mode, club_protection=club_protection)


class EntryMismatch(RuleViolation):
    """More players join a progressive round than it has survivors to meet."""


def losers_lines(lines: Sequence[Line], winners: Iterable[str]) -> tuple[Line, ...]:
    """The loser of each pair of a finished round, on that pair's line; None where the pair was a BYE.

    The first round of a progressive side bracket (R5.8). Refuses an unfinished round.
    """
    advanced = next_round(lines, winners)
    out: list[Line] = []
    for k, winner in enumerate(advanced):
        a, b = lines[2 * k], lines[2 * k + 1]
        out.append(None if a is None or b is None else (b if winner == a else a))
    return tuple(out)


def progressive_round(
    survivors: Sequence[Line], joining: Sequence[Line], had_bye: Collection[str]
) -> tuple[Line, ...]:
    """Lines of a side-bracket round that new players join (R5.8, seed 001 2.5).

    `survivors` are the side bracket's players going on (None for an empty place), `joining` the
    losers that drop in, in their bracket's order. Survivor i meets joining player n-1-i (the
    reversed order keeps a player away from the part of the bracket they came from). Then BYEs are
    balanced: where a joining player who already had a BYE (`had_bye`) would face an empty place,
    they swap with the nearest joining player who had none and faces a real opponent. A player
    who had a BYE never played the round they had it in, so the swap makes no rematch.
    """
    if len(joining) > len(survivors):
        raise EntryMismatch(f"{len(joining)} players join a round with {len(survivors)} places")
    padded = [*joining, *([None] * (len(survivors) - len(joining)))]
    order = list(reversed(padded))
    earlier = set(had_bye)
    for i, player in enumerate(order):
        if survivors[i] is not None or player is None or player not in earlier:
            continue
        candidates = [
            j
            for j, other in enumerate(order)
            if survivors[j] is not None and other is not None and other not in earlier
        ]
        if candidates:
            j = min(candidates, key=lambda j: (abs(j - i), j))
            order[i], order[j] = order[j], order[i]
    return tuple(p for i in range(len(survivors)) for p in (survivors[i], order[i]))
