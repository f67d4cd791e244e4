"""Double elimination: linked winners' and losers' brackets, grand final, bracket reset (R5.1, R5.4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.double_elimination import (
    DoubleEliminationBracket,
    IllegalBracketResult,
    draw_double_elimination,
    drop_orders,
    resolve,
)
from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.standings import elimination_rounds


def field(n: int) -> list[Entrant]:
    return [Entrant(player_id=f"p{i:03d}", rating=2000 - i) for i in range(n)]


def play(bracket: DoubleEliminationBracket, rng: random.Random, pick=None):
    """Play every ready match until none is left; return (final state, results, meetings in order)."""
    winners: dict[str, str] = {}
    meetings: list[tuple[str, frozenset[str]]] = []
    while True:
        state = resolve(bracket, winners)
        ready = state.ready()
        if not ready:
            return state, winners, meetings
        busy = Counter(p for m in ready for p in (m.home, m.away))
        assert max(busy.values()) == 1, "a player is placed in two matches at once"
        for m in ready:
            assert m.home is not None and m.away is not None
            meetings.append((m.id, frozenset((m.home, m.away))))
            winners[m.id] = pick(m) if pick else rng.choice([m.home, m.away])


def test_a_full_bracket_has_the_standard_number_of_matches():
    """R5.4: 16 players: 15 winners' matches, 14 losers' matches, grand final and reset."""
    bracket = draw_double_elimination(field(16), seed=1)
    kinds = Counter(m.bracket for m in bracket.matches)
    assert kinds == {"winners": 15, "losers": 14, "final": 2}
    assert [m.id for m in bracket.matches[-2:]] == ["GF1", "GF2"]
    no_reset = draw_double_elimination(field(16), seed=1, bracket_reset=False)
    assert [m.id for m in no_reset.matches if m.bracket == "final"] == ["GF1"]


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=2**31), st.booleans())
def test_winner_and_loser_links_match_the_sources(n, seed, reset):
    """R5.4: every 'winner goes to / loser goes to' link is the source the next match reads."""
    bracket = draw_double_elimination(field(n), seed=seed, bracket_reset=reset)
    ids = {m.id for m in bracket.matches}
    fed: Counter[tuple[str, str]] = Counter()
    for m in bracket.matches:
        for side, src in (("home", m.home), ("away", m.away)):
            if src.kind == "entry":
                continue
            assert src.match in ids
            feeder = bracket.match(src.match)
            link = feeder.winner_to if src.kind == "winner" else feeder.loser_to
            assert link is not None and (link.match, link.side) == (m.id, side)
            fed[(src.match, src.kind)] += 1
    assert set(fed.values()) == {1}
    entries = [m.home.player for m in bracket.matches if m.home.kind == "entry"] + [
        m.away.player for m in bracket.matches if m.away.kind == "entry"
    ]
    assert sorted(p for p in entries if p is not None) == sorted(e.player_id for e in field(n))
    for m in bracket.matches:
        for src in (m.home, m.away):
            if src.match is not None:
                assert bracket.match(src.match).stage < m.stage
    champion_feed = bracket.match("GF2" if reset else "GF1")
    assert champion_feed.winner_to is None and champion_feed.loser_to is None


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=2**31))
def test_everyone_but_the_champion_is_out_after_exactly_two_losses(n, seed):
    """R5.4: out after two losses; byes are no losses; nobody plays two matches at once."""
    bracket = draw_double_elimination(field(n), seed=seed, mode="random", bracket_reset=True)
    state, winners, _ = play(bracket, random.Random(seed))
    assert state.champion is not None
    assert state.losses[state.champion] <= 1
    assert all(v == 2 for p, v in state.losses.items() if p != state.champion)
    assert set(state.knocked_out_in) == set(state.losses) - {state.champion}
    reset_played = state.matches["GF2"].status == "played"
    assert len(winners) == 2 * (n - 1) + (1 if reset_played else 0)
    assert all(m.status in ("played", "walkover", "void", "not_needed") for m in state.matches.values())


def test_the_bracket_resets_when_the_losers_bracket_winner_takes_the_first_final():
    """R5.4: with the reset on, a first loss for the winners' bracket winner forces a second final."""
    bracket = draw_double_elimination(field(8), seed=3)
    state, _, _ = play(bracket, random.Random(0), pick=lambda m: m.away if m.id == "GF1" else m.home)
    gf1, gf2 = state.matches["GF1"], state.matches["GF2"]
    assert gf1.winner == gf1.away
    assert gf2.status == "played"
    assert {gf2.home, gf2.away} == {gf1.home, gf1.away}
    assert state.champion == gf2.winner


def test_no_second_final_when_the_winners_bracket_winner_wins_the_first():
    """R5.4: the unbeaten player takes the title by winning the first grand final."""
    bracket = draw_double_elimination(field(8), seed=3)
    state, _, _ = play(bracket, random.Random(0), pick=lambda m: m.home)
    assert state.matches["GF2"].status == "not_needed"
    assert state.champion == state.matches["GF1"].winner == state.matches["GF1"].home
    assert state.losses[state.champion] == 0


def test_without_reset_the_first_grand_final_decides():
    """R5.4: with the reset off, the losers' bracket winner who wins the grand final is champion."""
    bracket = draw_double_elimination(field(8), seed=3, bracket_reset=False)
    state, _, _ = play(bracket, random.Random(0), pick=lambda m: m.away if m.id == "GF1" else m.home)
    gf1 = state.matches["GF1"]
    assert state.champion == gf1.away
    assert state.losses[gf1.home] == 1


def test_byes_flow_through_both_brackets():
    """R5.4: the top seeds' BYEs walk over, and the BYE that drops gives a walkover in the losers' side."""
    bracket = draw_double_elimination(field(5), seed=1)  # 8 lines: seeds 1-3 have BYEs
    state = resolve(bracket, {})
    walkovers = [m for m in state.matches.values() if m.status == "walkover"]
    assert {m.winner for m in walkovers if m.id.startswith("W1")} == {"p000", "p001", "p002"}
    assert any(m.status == "void" for m in state.matches.values())  # two BYEs meet in losers' round 1


@pytest.mark.parametrize("size", [8, 16, 32, 64, 128])
def test_no_rematch_in_the_early_losers_rounds(size):
    """R5.4: dropping players never meet again, early, anyone they have played: no rematch before
    losers' round log2(size) in a full bracket."""
    bracket = draw_double_elimination(field(size), seed=size)
    last_early = size.bit_length() - 2
    for trial in range(15):
        _, _, meetings = play(bracket, random.Random(trial))
        seen: set[frozenset[str]] = set()
        for match_id, pair in meetings:
            if match_id.startswith("L") and int(match_id[1:].split("-")[0]) <= last_early:
                assert pair not in seen, f"rematch in {match_id}"
            seen.add(pair)


def test_losers_of_winners_round_two_drop_in_reverse_order():
    """R5.4: the first drop is reversed, as on standard charts."""
    assert drop_orders(16)[0] == [3, 2, 1, 0]
    assert drop_orders(2) == []


def test_the_draw_is_recomputable_from_its_seed():
    """R5.1: same players and seed, same bracket."""
    first = draw_double_elimination(field(11), seed=9, mode="random")
    assert draw_double_elimination(list(reversed(field(11))), seed=9, mode="random") == first


def test_two_players_meet_in_the_winners_match_then_the_grand_final():
    """R5.4: with two players the loser of the only winners' match goes straight to the grand final."""
    bracket = draw_double_elimination(field(2), seed=1)
    assert [m.id for m in bracket.matches] == ["W1-1", "GF1", "GF2"]
    assert bracket.match("W1-1").loser_to is not None
    state, _, _ = play(bracket, random.Random(1))
    assert state.champion is not None


def test_a_result_for_an_unknown_match_is_refused():
    """R5.4: results belong to drawn matches."""
    bracket = draw_double_elimination(field(4), seed=1)
    with pytest.raises(IllegalBracketResult, match="no match"):
        resolve(bracket, {"W9-9": "p000"})
    with pytest.raises(IllegalBracketResult, match="no match"):
        bracket.match("W9-9")


def test_a_result_for_a_match_not_ready_is_refused():
    """R5.4: a match takes a result only once both its players are known."""
    bracket = draw_double_elimination(field(4), seed=1)
    with pytest.raises(IllegalBracketResult, match="waiting"):
        resolve(bracket, {"W2-1": "p000"})


def test_a_result_for_a_walkover_is_refused():
    """R5.4: a BYE is not a match to win."""
    bracket = draw_double_elimination(field(3), seed=1)
    with pytest.raises(IllegalBracketResult, match="walkover"):
        resolve(bracket, {"W1-1": "p000"})


def test_a_winner_who_is_not_in_the_match_is_refused():
    """R5.4: the winner is one of the two players."""
    bracket = draw_double_elimination(field(4), seed=1)
    with pytest.raises(IllegalBracketResult, match="not a player"):
        resolve(bracket, {"W1-1": "p001"})


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=2, max_value=24), st.integers(min_value=0, max_value=2**31))
def test_stages_give_standings_the_order_players_went_out_in(n, seed):
    """R5.4, R10.1: match records numbered by stage give the standings the same knock-out rounds."""
    bracket = draw_double_elimination(field(n), seed=seed)
    state, _, _ = play(bracket, random.Random(seed))
    records = [
        MatchRecord(round=bracket.match(m.id).stage, home=m.home, away=m.away, winner=m.winner)
        for m in state.matches.values()
        if m.status == "played" and m.home is not None and m.away is not None and m.winner is not None
    ]
    out, _ = elimination_rounds([e.player_id for e in field(n)], records, lives=2)
    assert out == {p: state.knocked_out_in.get(p) for p in out}


def test_without_reset_the_beaten_finalist_is_out_after_one_loss():
    """R5.4: with no reset, the losing finalist is out at the grand final even with one loss."""
    bracket = draw_double_elimination(field(4), seed=3, bracket_reset=False)
    state, _, _ = play(bracket, random.Random(0), pick=lambda m: m.away if m.id == "GF1" else m.home)
    gf1 = state.matches["GF1"]
    assert gf1.home is not None
    assert state.knocked_out_in[gf1.home] == bracket.match("GF1").stage
