"""What the tournament day reads of a tournament's settings, typed and parsed in one place.

The stored settings are the page as the organiser set it (JSON values) plus the effective
rules the profile resolved (`rules`, R2.2). The day's use cases read them through this value,
so a default (7 points, the platform profile, one table for every two players) is decided
once.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tavla.frozen import Frozen

DEFAULT_LENGTH = 7
PLATFORM = "platform"


@dataclass(frozen=True, eq=False, repr=False)
class PlaySettings(Frozen):
    format: str = "single_elimination"
    seeding: str = "rating"
    club_protection: bool = False
    lives: int = 2
    lives_by_player: Mapping[str, int] | None = None  # a season final's lives by place (R5.7)
    swiss_rounds: int | None = None
    side_events: frozenset[str] = frozenset()
    tables: int | None = None  # the venue's tables; unset: one for every two players
    lengths: Mapping[str, int] = field(default_factory=dict)  # stage -> points to win
    cube_used: bool = True
    crawford: bool = True
    rule_profile: str = PLATFORM
    results_official_without_referee: bool = False
    divisions: tuple[str, ...] = ("main",)
    match_points: Mapping[str, int] | None = None  # win / loss / forfeit of a table (R5.6)
    best_of: int = 1  # 3: every match a best-of-three series of its length (cnb 2.2.2)

    @classmethod
    def parse(cls, s: Mapping[str, Any]) -> PlaySettings:
        rules: Mapping[str, Any] = s.get("rules") or {}
        lengths = {
            stage: int(value)
            for stage, value in (
                ("default", rules.get("match_length")),
                ("semi_final", rules.get("semi_final_length")),
                ("final", rules.get("final_length")),
            )
            if value
        }
        return cls(
            format=str(s.get("format") or "single_elimination"),
            seeding=str(s.get("seeding") or "rating"),
            club_protection=bool(s.get("club_protection", False)),
            lives=int(s.get("lives") or rules.get("lives") or 2),
            lives_by_player={str(p): int(n) for p, n in s["lives_by_player"].items()}
            if s.get("lives_by_player")
            else None,
            swiss_rounds=int(s["swiss_rounds"]) if s.get("swiss_rounds") else None,
            side_events=frozenset(str(e.get("kind")) for e in s.get("side_events") or ()),
            tables=int(s["tables"]) if s.get("tables") else None,
            lengths=lengths,
            cube_used=bool(rules.get("cube_used", True)),
            crawford=bool(rules.get("crawford", True)),
            rule_profile=str(s.get("rule_profile") or PLATFORM),
            results_official_without_referee=bool(s.get("results_official_without_referee", False)),
            divisions=tuple(str(d["id"]) for d in s.get("divisions") or ()) or ("main",),
            match_points=s.get("match_points") or None,
            best_of=3 if rules.get("series") else 1,
        )

    def table_count(self, players: int) -> int:
        """The venue's tables: the page's number, else one for every two players of the field."""
        return self.tables or max(1, math.ceil(players / 2))

    def match_length(self, stage: str) -> int:
        """Points to win at this stage (R7.3): semi-finals and final may be longer."""
        return self.lengths.get(stage) or self.lengths.get("default") or DEFAULT_LENGTH
