"""Appeal finality (R9.3, R9.5): a decided appeal ends that side's grievance against that result.

Pure: a match's result and who has been heard in, whether a side may still appeal out.

On this platform each appeal is heard once, by the last step the profile has: the referee
(`platform`, final) or the committee above the referee (`hbf` 6.3 "exhausts the appeal",
`cnb` 5.2 "final"). So after a decision:

- the appellant may not appeal the same result again (dismissed: the result stands);
- when the decision set a new result, that result is itself a final decision: neither side
  may appeal it.

A result that changes by other means later (not by an appeal) is a new decision: whoever it
wrongs may appeal it, once. Results are compared by `fingerprint`.
"""

from __future__ import annotations

from collections.abc import Mapping

from tavla.rules.results import Result


def fingerprint(result: Result | None) -> str:
    """What a result says, as one comparable string ("" for no result yet: a pairing appeal)."""
    if result is None:
        return ""
    return "|".join(
        str(v) for v in (result.winner, result.home_points, result.away_points, result.forfeit, result.how)
    )


def may_appeal(side: str, result: Result | None, heard: Mapping[str, str]) -> bool:
    """True unless `side`'s grievance against this very result has been decided already."""
    return heard.get(side) != fingerprint(result)


def heard_after(
    heard: Mapping[str, str],
    appellant: str,
    players: tuple[str, str],
    result_after: Result | None,
    changed: bool,
) -> dict[str, str]:
    """Who has been heard once the appeal of `appellant` is decided (see the module)."""
    done = dict(heard)
    mark = fingerprint(result_after)
    for side in players if changed else (appellant,):
        done[side] = mark
    return done
