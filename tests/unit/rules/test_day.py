"""The tournament day engine: every format drawn, played forward and finished (R5, R10.1, R10.2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.day import (
    DaySettings,
    Draw,
    DrawInputs,
    EventName,
    NothingToDraw,
    RoundInProgress,
    compute_draw,
    digest,
    event_finished,
    event_standings,
    flow,
    plan_next_draw,
    records_of,
)
from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.errors import RuleViolation
from tests.unit.rules.test_lives import FIVE, TWO_ROUNDS


def _field(n: int, seed: int = 1) -> list[Entrant]:
    rng = random.Random(seed)
    return [
        Entrant(player_id=f"P{i:02d}", rating=1500 + rng.randint(-200, 200), club=f"C{i % 4}")
        for i in range(n)
    ]


class Day:
    """A day played through the engine alone: draw when due, decide what is ready."""

    def __init__(self, settings: DaySettings, n: int, seed: int = 1, division: str | None = None) -> None:
        self.settings, self.rng, self.division = settings, random.Random(seed), division
        self.field = _field(n, seed)
        self.draws: list[Draw] = []
        self.winners: dict[str, str] = {}
        self.scores: dict[str, MatchRecord] = {}

    @property
    def fixtures(self):
        return [f for d in self.draws for f in d.fixtures]

    def play_ready(self, pick=None) -> int:
        states = flow(self.fixtures, self.winners)
        ready = [s for s in states.values() if s.status == "ready"]
        by_code = {f.code: f for f in self.fixtures}
        for s in ready:
            assert s.home and s.away
            winner = pick(s) if pick else self.rng.choice([s.home, s.away])
            self.winners[s.code] = winner
            self.scores[s.code] = MatchRecord(
                round=by_code[s.code].round,
                home=s.home,
                away=s.away,
                winner=winner,
                home_points=7 if winner == s.home else 3,
                away_points=7 if winner == s.away else 3,
            )
        return len(ready)

    def run(self, pick=None) -> None:
        while True:
            try:
                inputs = plan_next_draw(self.settings, self.field, self.draws, self.winners, self.scores)
            except NothingToDraw:
                return
            except RoundInProgress:
                assert self.play_ready(pick), "a round in progress must have a match to play"
                continue
            inputs = inputs.model_copy(update={"division": self.division})
            self.draws.append(compute_draw(inputs, self.rng.getrandbits(32)))
            while self.play_ready(pick):
                pass

    def standings(self, event: EventName = "main"):
        draws = [d for d in self.draws if d.inputs.event == event]
        fixtures = [f for d in draws for f in d.fixtures]
        states = flow(self.fixtures, self.winners)
        players = [e.player_id for e in draws[0].inputs.field]
        return event_standings(self.settings, event, players, records_of(fixtures, states, self.scores))


FORMATS = [
    DaySettings(format="single_elimination", club_protection=True),
    DaySettings(format="single_elimination", consolation=True, last_chance=True),
    DaySettings(format="double_elimination"),
    DaySettings(format="swiss", swiss_rounds=5),
    DaySettings(format="lives", lives=3),
    DaySettings(format="lives", lives=3, lives_pairing="equal_lives_first"),
    DaySettings(format="round_robin"),
]


@settings(max_examples=25, deadline=None)
@given(fmt=st.sampled_from(FORMATS), n=st.integers(min_value=4, max_value=24), seed=st.integers(0, 10**6))
def test_every_format_plays_to_a_finish_with_everyone_placed(fmt: DaySettings, n: int, seed: int) -> None:
    """R5.3-R5.8, R10.1, R10.2: any field of any format is drawn, played out and ranked."""
    day = Day(fmt, n, seed)
    day.run()
    assert event_finished(fmt, day.draws, day.winners, day.scores)
    rows = day.standings()
    assert sorted(r.player_id for r in rows) == sorted(e.player_id for e in day.field)
    assert min(r.place for r in rows) == 1
    for draw in day.draws:  # nobody plays twice in one round of a draw
        seen: dict[int, list[str]] = {}
        for f in draw.fixtures:
            for src in (f.home, f.away):
                if src.kind == "entry" and src.player:
                    seen.setdefault(f.round, []).append(src.player)
        for players in seen.values():
            assert len(players) == len(set(players))


@settings(max_examples=20, deadline=None)
@given(fmt=st.sampled_from(FORMATS), n=st.integers(min_value=4, max_value=20), seed=st.integers(0, 10**6))
def test_a_draw_recomputed_from_its_inputs_and_seed_is_identical(fmt: DaySettings, n: int, seed: int) -> None:
    """R5.1: the published inputs and seed give the same fixtures and the same digest to anyone."""
    day = Day(fmt, n, seed)
    day.run()
    for draw in day.draws:
        again = compute_draw(draw.inputs.model_validate_json(draw.inputs.model_dump_json()), draw.seed)
        assert again.fixtures == draw.fixtures
        assert digest(again.inputs) == digest(draw.inputs)


@settings(max_examples=20, deadline=None)
@given(fmt=st.sampled_from(FORMATS), n=st.integers(min_value=4, max_value=16), seed=st.integers(0, 10**6))
def test_a_division_plays_the_same_day_under_its_own_codes(fmt: DaySettings, n: int, seed: int) -> None:
    """R3.7: a division's draws pair exactly as an undivided day would, every code carries
    the division in front, and two divisions flowing together never touch each other."""
    alone, open_, novice = Day(fmt, n, seed), Day(fmt, n, seed, "open"), Day(fmt, n, seed, "novice")
    for day in (alone, open_, novice):
        day.run(pick=lambda s: min(s.home, s.away))
    assert len(open_.draws) == len(alone.draws)
    for plain, divided in zip(alone.draws, open_.draws, strict=True):
        assert [f.code for f in divided.fixtures] == [f"open.{f.code}" for f in plain.fixtures]
        assert [(f.home.player, f.away.player) for f in divided.fixtures] == [
            (f.home.player, f.away.player) for f in plain.fixtures
        ]
        assert all(
            src.match is None or src.match.startswith("open.")
            for f in divided.fixtures
            for src in (f.home, f.away)
        )
    both = flow(open_.fixtures + novice.fixtures, {**open_.winners, **novice.winners})
    assert {c: s for c, s in both.items() if c.startswith("open.")} == flow(open_.fixtures, open_.winners)
    assert [(r.player_id, r.place) for r in open_.standings()] == [
        (r.player_id, r.place) for r in alone.standings()
    ]


def test_a_draw_without_a_division_keeps_its_digest() -> None:
    """R5.1: a draw published before divisions existed still matches its digest."""
    inputs = plan_next_draw(DaySettings(format="swiss"), _field(8), [], {}, {})
    stored = inputs.model_dump(mode="json")
    del stored["division"]  # what a round published before divisions holds
    assert digest(DrawInputs.model_validate(stored)) == digest(inputs)
    assert digest(inputs) != digest(inputs.model_copy(update={"division": "open"}))


def test_a_lives_draw_published_before_the_pairing_order_was_recorded_still_verifies() -> None:
    """R5.1, R5.7: a lives round published without `lives_pairing` keeps its digest (the
    SHA-256 of the JSON it was published with) and recomputes under the older order; a new
    round records the order, so its digest covers it."""
    import hashlib
    import json

    new = DrawInputs(
        number=3,
        round=3,
        settings=DaySettings(format="lives", lives=2, lives_pairing="equal_lives_first"),
        field=tuple(FIVE),
        history=tuple(TWO_ROUNDS),
    )
    # what a round published then holds: neither the pairing order nor per-player lives existed
    published = new.model_dump(
        mode="json",
        exclude={"division": True, "late": True, "settings": {"lives_pairing", "lives_by_player"}},
    )
    old = DrawInputs.model_validate(published)
    as_published = json.dumps(published, sort_keys=True, separators=(",", ":"))
    assert digest(old) == hashlib.sha256(as_published.encode()).hexdigest()
    assert digest(new) != digest(old)

    def pairs(inputs: DrawInputs) -> set[frozenset[str | None]]:
        return {frozenset((f.home.player, f.away.player)) for f in compute_draw(inputs, 0).fixtures}

    assert pairs(old) == {frozenset({"P0", "P2"}), frozenset({"P1", "P4"})}
    assert pairs(new) == {frozenset({"P1", "P2"}), frozenset({"P0", "P4"})}


def test_the_digest_changes_with_any_input() -> None:
    """R5.1: a changed rating, field or setting gives another fingerprint."""
    inputs = plan_next_draw(DaySettings(format="swiss"), _field(8), [], {}, {})
    changed = inputs.model_copy(
        update={"field": (inputs.field[0].model_copy(update={"rating": 1.0}), *inputs.field[1:])}
    )
    assert digest(inputs) != digest(changed)
    assert digest(inputs) != digest(
        inputs.model_copy(update={"settings": DaySettings(format="swiss", seeding="random")})
    )


def test_swiss_next_round_waits_for_every_result() -> None:
    """R5.5: the next Swiss round is drawn only when every result of the current one is official."""
    day = Day(DaySettings(format="swiss", swiss_rounds=3), 8)
    day.draws.append(compute_draw(plan_next_draw(day.settings, day.field, [], {}, {}), 7))
    first = day.draws[0].fixtures[0]
    day.winners[first.code] = str(first.home.player)
    with pytest.raises(RoundInProgress):
        plan_next_draw(day.settings, day.field, day.draws, day.winners, day.scores)


def test_elimination_is_drawn_once() -> None:
    """R5.3: a single elimination bracket is drawn whole; there is no second draw."""
    day = Day(DaySettings(format="single_elimination"), 8)
    day.run()
    assert len(day.draws) == 1
    with pytest.raises(NothingToDraw):
        plan_next_draw(day.settings, day.field, day.draws, day.winners, day.scores)


def test_byes_go_through_at_once_and_the_next_match_waits_for_its_feeders() -> None:
    """R5.3: 6 players in a bracket of 8: the top two seeds' BYEs are walkovers; round 2 waits."""
    settings_ = DaySettings(format="single_elimination")
    draw = compute_draw(plan_next_draw(settings_, _field(6), [], {}, {}), 3)
    states = flow(draw.fixtures, {})
    assert sorted(s.status for s in states.values() if s.code.startswith("main.R1")) == [
        "ready",
        "ready",
        "walkover",
        "walkover",
    ]
    assert {states[c].status for c in ("main.R3.1",)} == {"waiting"}
    seeds = draw.seed_list
    assert {states[f.code].winner for f in draw.fixtures if states[f.code].status == "walkover"} == set(
        seeds[:2]
    )


def test_double_elimination_plays_the_reset_when_the_losers_bracket_winner_wins() -> None:
    """R5.4: the winners' bracket winner who loses the grand final plays a second one."""
    day = Day(DaySettings(format="double_elimination"), 16, seed=5)
    top = day.field[0].player_id

    def pick(s):
        if s.code == "main.GF1":
            return s.away  # the losers' bracket winner takes the first final
        return s.home if s.home == top else (s.away if s.away == top else s.home)

    day.run(pick)
    states = flow(day.fixtures, day.winners)
    assert states["main.GF1"].status == "played" and states["main.GF2"].status == "played"
    assert event_finished(day.settings, day.draws, day.winners, day.scores)


def test_double_elimination_needs_no_reset_when_the_winners_bracket_winner_wins() -> None:
    """R5.4: no second final when the unbeaten player wins the first."""
    day = Day(DaySettings(format="double_elimination"), 16, seed=5)
    day.run(lambda s: s.home)
    assert flow(day.fixtures, day.winners)["main.GF2"].status == "not_needed"


def test_side_brackets_wait_for_their_feeding_rounds_and_take_their_losers() -> None:
    """R5.8: the Consolation takes the losers of Main rounds 1 and 2, once both are decided."""
    fmt = DaySettings(format="single_elimination", consolation=True, last_chance=True)
    day = Day(fmt, 32, seed=2)
    day.draws.append(compute_draw(plan_next_draw(fmt, day.field, [], {}, {}), 9))
    day.play_ready()  # round 1 only
    with pytest.raises(RoundInProgress):
        plan_next_draw(fmt, day.field, day.draws, day.winners, day.scores)
    day.play_ready()  # round 2
    consolation = plan_next_draw(fmt, day.field, day.draws, day.winners, day.scores)
    states = flow(day.fixtures, day.winners)
    losers = {s.loser for c, s in states.items() if c.startswith(("main.R1.", "main.R2.")) and s.loser}
    assert consolation.event == "consolation" and {e.player_id for e in consolation.field} == losers
    assert len(losers) == 24


def test_a_result_for_someone_not_in_the_match_is_refused() -> None:
    draw = compute_draw(plan_next_draw(DaySettings(format="round_robin"), _field(4), [], {}, {}), 1)
    with pytest.raises(RuleViolation):
        flow(draw.fixtures, {draw.fixtures[0].code: "nobody"})


def test_withdrawn_players_are_not_paired_again() -> None:
    """R8.2: after a withdrawal the Swiss and lives rounds pair the others only."""
    for fmt in (DaySettings(format="swiss", swiss_rounds=3), DaySettings(format="lives", lives=2)):
        day = Day(fmt, 8)
        day.draws.append(compute_draw(plan_next_draw(fmt, day.field, [], {}, {}), 4))
        day.play_ready()
        gone = {"P00"}
        nxt = plan_next_draw(fmt, day.field, day.draws, day.winners, day.scores, gone)
        draw = compute_draw(nxt, 5)
        assert all("P00" not in (f.home.player, f.away.player) for f in draw.fixtures)
