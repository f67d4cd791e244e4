"""The rules of tavla tournaments: pure functions, values in, values out.

No I/O, no clock, no global randomness: a draw takes a seed and records it, a deadline
takes the time as an argument. The public surface at a glance:

- draws (R5): `seed_order`, `draw_single_elimination`, `draw_double_elimination`,
  `pair_swiss_round`, `draw_round_robin`, `pair_lives_round`, Main / Consolation /
  Last Chance through `SideBracketPlan` and `draw_side_bracket`
- results (R10, R11): `knockout_standings`, `table_standings`, `rate_match`,
  `replay_player`, `add_tournament`, `super_final_invitations`, `award_prizes`
- the match and the day (R7, R8): `start_match`, `apply_action` (cube, Crawford, dead
  cube, forfeit), `check_final_score`, `late_arrival`, `break_decision`, clocks
- rule profiles (R2.2, R9.5): `PROFILES`, `get_profile`, `decide_committee_appeal`
- money (R3.3-R3.6): `refund_due`, `fee_due`, `is_early`, `summarise`
Every refusal is a `RuleViolation` with a message a referee understands.
"""

from __future__ import annotations

import importlib
from typing import Any

# Public name -> the module that defines it. Loaded on first use, so a Lambda that needs
# one rule does not pay at cold start for every draw algorithm (and networkx).
_EXPORTS = {
    "MatchPoints": "tavla.rules.points",
    "LEAGUE_POINTS": "tavla.rules.points",
    "SWISS_POINTS": "tavla.rules.points",
    "start_match": "tavla.rules.match",
    "apply_action": "tavla.rules.match",
    "replay": "tavla.rules.match",
    "withdraw": "tavla.rules.match",
    "check_final_score": "tavla.rules.match",
    "is_possible_final_score": "tavla.rules.match",
    "MatchState": "tavla.rules.match",
    "MatchResult": "tavla.rules.match",
    "to_match_record": "tavla.rules.match",
    "ClockSettings": "tavla.rules.clock",
    "cnb_default_clock": "tavla.rules.clock",
    "clock_for_match_in_progress": "tavla.rules.clock",
    "time_loser": "tavla.rules.clock",
    "late_arrival": "tavla.rules.lateness",
    "LatenessVerdict": "tavla.rules.lateness",
    "break_decision": "tavla.rules.breaks",
    "breaks_allowed": "tavla.rules.breaks",
    "RuleProfile": "tavla.rules.profiles",
    "RuleOverrides": "tavla.rules.profiles",
    "PROFILES": "tavla.rules.profiles",
    "get_profile": "tavla.rules.profiles",
    "decide_committee_appeal": "tavla.rules.profiles",
    "DoubleEliminationBracket": "tavla.rules.double_elimination",
    "draw_double_elimination": "tavla.rules.double_elimination",
    "resolve": "tavla.rules.double_elimination",
    "Entrant": "tavla.rules.entrants",
    "MatchRecord": "tavla.rules.entrants",
    "Pairing": "tavla.rules.entrants",
    "RuleViolation": "tavla.rules.errors",
    "lives_remaining": "tavla.rules.lives",
    "lives_winner": "tavla.rules.lives",
    "pair_lives_round": "tavla.rules.lives",
    "players_still_in": "tavla.rules.lives",
    "PrizeAnnouncement": "tavla.rules.prizes",
    "award_prizes": "tavla.rules.prizes",
    "finalise_money": "tavla.rules.prizes",
    "split_cents": "tavla.rules.prizes",
    "RatingState": "tavla.rules.rating",
    "display_rating": "tavla.rules.rating",
    "rate_match": "tavla.rules.rating",
    "replay_player": "tavla.rules.rating",
    "refund_due": "tavla.rules.refunds",
    # the entry-fee ledger
    "fee_due": "tavla.rules.money",
    "is_early": "tavla.rules.money",
    "summarise": "tavla.rules.money",
    "draw_round_robin": "tavla.rules.round_robin",
    "league_points": "tavla.rules.round_robin",
    "SeasonSettings": "tavla.rules.season",
    "SeasonStandings": "tavla.rules.season",
    "add_tournament": "tavla.rules.season",
    "final_starting_lives": "tavla.rules.season",
    "super_final_invitations": "tavla.rules.season",
    "tournament_points": "tavla.rules.season",
    "seed_order": "tavla.rules.seeding",
    "SideBracketPlan": "tavla.rules.side_brackets",
    "draw_side_bracket": "tavla.rules.side_brackets",
    "progressive_round": "tavla.rules.side_brackets",
    "SingleEliminationDraw": "tavla.rules.single_elimination",
    "draw_single_elimination": "tavla.rules.single_elimination",
    "fill_late_arrivals": "tavla.rules.single_elimination",
    "next_round": "tavla.rules.single_elimination",
    "play_out": "tavla.rules.single_elimination",
    "Standing": "tavla.rules.standings",
    "knockout_standings": "tavla.rules.standings",
    "table_standings": "tavla.rules.standings",
    "SwissRound": "tavla.rules.swiss",
    "pair_swiss_round": "tavla.rules.swiss",
    "swiss_ranking": "tavla.rules.swiss",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)


def __dir__() -> list[str]:
    return __all__
