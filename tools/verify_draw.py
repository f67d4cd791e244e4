"""Recompute a tournament's published draws from public data alone, and say whether they match (R5.1).

    python -m tools.verify_draw https://api.example/ <tournament_id> [round ...]
    make verify-draw API=http://localhost:8000 TOURNAMENT=<id>

For every published draw it reads, without a token, the round (`GET /tournaments/{id}/rounds/{n}`:
seed, digest, inputs, pairings) and checks:
1. the digest is the SHA-256 of the inputs (nobody changed the inputs after the fact);
2. the rules layer, given those inputs and that seed, gives exactly the published pairings;
3. the inputs agree with the rest of the public record: every draw's field comes from the
   first draw's field (side brackets: from its losers), and the earlier results a Swiss or
   lives round was paired from are the official results published on the earlier rounds.
4. the seed was committed to (R5.1): the tournament page's `draw_commitment.hash` is the
   SHA-256 of the secret the draw reveals, and the seed follows from that secret, the draw's
   number and its attempt (a redraw is attempt 2..; each draw it replaced is checked so too);
   a late entrant in the field is one the draw's inputs name as late.
It prints `round n: identical` or each difference, and exits 1 when any round differs.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Sequence
from typing import Any

from tavla.rules.commitment import draw_seed, matches
from tavla.rules.day import DrawInputs, compute_draw, digest
from tavla.rules.entrants import MatchRecord


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base.rstrip("/") + path, timeout=60) as response:
        return json.load(response)


def _side(match: dict[str, Any], side: str) -> str | None:
    player = match.get(side)
    return player["tavla_id"] if player else None


def _published_records(rounds: Sequence[dict[str, Any]]) -> set[MatchRecord]:
    """The official results and BYEs of the given published rounds, as the rules record them."""
    records = set()
    for rnd in rounds:
        for m in rnd["pairings"]:
            home, away, result = _side(m, "home"), _side(m, "away"), m.get("result")
            if m["state"] == "official" and result and home and away:
                records.add(
                    MatchRecord(
                        round=m["round"],
                        home=home,
                        away=away,
                        home_points=result["home_points"],
                        away_points=result["away_points"],
                        winner=result["winner"],
                        forfeit=result["forfeit"],
                    )
                )
            elif m["state"] == "bye" and result and m.get("home_from") is None and m.get("away_from") is None:
                records.add(MatchRecord(round=m["round"], home=result["winner"], winner=result["winner"]))
    return records


def check_commitment(published: dict[str, Any], committed: str | None) -> list[str]:
    """The draw's seed came from the secret the page committed to before the draw (R5.1)."""
    secret = published.get("revealed_seed")
    if secret is None:
        return [] if committed is None else ["the page committed to a seed this draw does not reveal"]
    if committed is None:
        return ["the draw reveals a seed the page never committed to"]
    problems = [] if matches(secret, committed) else [f"the revealed seed's SHA-256 is not {committed}"]
    number = published["number"]
    for shown in [*published.get("earlier", []), published]:
        attempt = shown.get("attempt", 1)
        if int(shown["seed"]) != draw_seed(secret, number, attempt):
            problems.append(f"attempt {attempt}'s seed does not follow from the committed seed")
    return problems


def check_round(
    published: dict[str, Any], earlier: Sequence[dict[str, Any]], committed: str | None = None
) -> list[str]:
    """Every difference between a published draw and its recomputation (empty: identical);
    given `committed` (the page's commitment hash, "" when the page shows none), its seed is
    checked against it too."""
    problems: list[str] = [] if committed is None else check_commitment(published, committed or None)
    inputs = DrawInputs.model_validate(published["inputs"])
    if digest(inputs) != published["digest"]:
        problems.append(f"digest {published['digest']} is not the digest of the inputs ({digest(inputs)})")
    again = compute_draw(inputs, int(published["seed"]))
    shown = {m["code"]: m for m in published["pairings"]}
    for fixture in again.fixtures:
        match = shown.pop(fixture.code, None)
        if match is None:
            problems.append(f"{fixture.code} is in the recomputed draw but was not published")
            continue
        for side, source in (("home", fixture.home), ("away", fixture.away)):
            if source.kind == "entry" and source.player != _side(match, side) and match["state"] != "void":
                shown_player = _side(match, side) or "BYE"
                problems.append(
                    f"{fixture.code} {side}: recomputed {source.player or 'BYE'}, published {shown_player}"
                )
    problems += [f"{code} was published but is not in the recomputed draw" for code in shown]
    if earlier:
        first = DrawInputs.model_validate(earlier[0]["inputs"])
        field = {e.player_id: e for e in first.field}
        late = {e.player_id for e in inputs.late}
        strangers = [
            e.player_id for e in inputs.field if field.get(e.player_id) != e and e.player_id not in late
        ]
        if strangers:
            problems.append(f"players not in the first draw's field (or with other ratings): {strangers}")
        if inputs.history:
            claimed, official = set(inputs.history), _published_records(earlier)
            if claimed != official:
                problems.append(
                    f"paired from results that differ from the published ones: "
                    f"{len(claimed - official)} not published, {len(official - claimed)} left out"
                )
    return problems


def verify(base: str, tournament_id: str, numbers: Sequence[int] = ()) -> dict[int, list[str]]:
    """Check the chosen published draws (all by default); the problems of each, by number."""
    summary = _get(base, f"/tournaments/{tournament_id}/rounds")["rounds"]
    wanted = set(numbers) or {r["number"] for r in summary}
    rounds = [_get(base, f"/tournaments/{tournament_id}/rounds/{r['number']}") for r in summary]
    page = _get(base, f"/tournaments/{tournament_id}")
    committed = (page.get("draw_commitment") or {}).get("hash") or ""
    return {n: problems for n, problems in check_rounds(rounds, committed).items() if n in wanted}


def check_rounds(rounds: Sequence[dict[str, Any]], committed: str | None = None) -> dict[int, list[str]]:
    """Every published draw against its recomputation and the earlier draws of its division
    (R3.7: a division's field is its own), and against the page's commitment, by number."""
    return {
        r["number"]: check_round(
            r, [e for e in rounds[:i] if e.get("division") == r.get("division")], committed
        )
        for i, r in enumerate(rounds)
    }


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    base, tournament_id, *numbers = argv
    results = verify(base, tournament_id, [int(n) for n in numbers])
    for number, problems in sorted(results.items()):
        if problems:
            print(f"round {number}: DIFFERENT")
            for problem in problems:
                print(f"  - {problem}")
        else:
            print(f"round {number}: identical")
    return 1 if any(results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
