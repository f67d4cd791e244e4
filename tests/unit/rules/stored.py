"""A draw's fixtures as the store first writes them, for the day aggregate's unit tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tavla.rules.day import Fixture
from tavla.rules.model import FixtureRecord
from tavla.rules.states import State


def stored_fixtures(
    fixtures: Iterable[Fixture],
    tournament: str = "T1",
    number: int = 1,
    feeds: Mapping[str, tuple[str, ...]] | None = None,
) -> list[FixtureRecord]:
    """Every fixture waiting, 7 points long, in the draw's order; `feeds`: what each one feeds."""
    return [
        FixtureRecord(
            tournament_id=tournament,
            code=f.code,
            draw=number,
            event=f.event,
            round=f.round,
            label=f.label,
            board=f.board,
            stage=f.stage,
            length=7,
            home_source=f.home.model_dump(exclude_none=True),
            away_source=f.away.model_dump(exclude_none=True),
            state=State.WAITING,
            position=i,
            unless_home_wins=f.unless_home_wins,
            feeds=None if feeds is None else feeds[f.code],
        )
        for i, f in enumerate(fixtures)
    ]
