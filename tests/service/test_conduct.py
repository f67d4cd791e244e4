"""Conduct (R8.1-R8.4): penalties by the ladder, withdrawal during the day, disqualification."""

from __future__ import annotations

from typing import Any

import pytest

from tavla.errors import StaleMatch
from tavla.rules import day as rules_day
from tavla.services import day
from tavla.store import draws as draw_store
from tavla.store import matches as match_store
from tavla.store.records import FixtureRecord
from tests.service.conftest import Api, Reply
from tests.service.day_helpers import audit_trail, checked_in_field, draw, official, records
from tests.service.helpers import ORGANISER, create_tournament


def _post(api: Api, what: str, tournament_id: str, body: dict[str, Any], user: str = ORGANISER) -> Reply:
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/" + what,
        params={"tournament_id": tournament_id},
        body=body,
        user=user,
        groups=("organisers",) if user == ORGANISER else (),
    )


def _day(api: Api, players: int) -> tuple[str, list[str]]:
    tournament_id, ids = checked_in_field(api, players)
    assert draw(api, tournament_id).status == 201
    return tournament_id, ids


def test_a_warning_is_recorded_and_changes_nothing_else(api: Api) -> None:
    """R8.4: a warning is in the audit trail with its reason; the match is as it was."""
    tournament_id, ids = _day(api, 4)
    before = records(tournament_id)
    reply = _post(
        api, "penalties", tournament_id, {"tavla_id": ids[0], "kind": "warning", "reason": "Slow play"}
    )
    assert reply.status == 201, reply.body
    assert records(tournament_id) == before
    penalty = next(e for e in audit_trail(api, tournament_id) if e["action"] == "penalty")
    assert penalty["details"] == {"tavla_id": ids[0], "kind": "warning", "reason": "Slow play"}


def _penalise_home(api: Api, kind: str, reason: str) -> tuple[str, FixtureRecord, Reply]:
    """A penalty for the home player of R1.1, which is being played."""
    tournament_id, _ = _day(api, 4)
    match = records(tournament_id)["main.R1.1"]
    body = {"tavla_id": match.home, "kind": kind, "reason": reason}
    reply = _post(api, "penalties", tournament_id, body)
    assert reply.status == 201, reply.body
    return tournament_id, match, reply


def test_the_loss_of_the_match_forfeits_it_and_the_opponent_advances(api: Api) -> None:
    """R8.4, R8.1: a match penalty: length to nil for the opponent, who goes on in the bracket."""
    tournament_id, match, _ = _penalise_home(api, "match", "Serious misconduct")
    after = records(tournament_id)
    result = after["main.R1.1"].result
    assert result is not None and result.winner == match.away and result.how == "penalty"
    assert (result.home_points, result.away_points) == (0, match.length)
    assert after["main.R2.1"].home == match.away


def test_only_staff_give_penalties(api: Api) -> None:
    """R8.4: a player cannot penalise their opponent."""
    tournament_id, ids = _day(api, 4)
    reply = _post(
        api, "penalties", tournament_id, {"tavla_id": ids[1], "kind": "warning", "reason": "x"}, "player-0"
    )
    assert (reply.status, reply.error) == (403, "not_staff")


def test_a_withdrawal_forfeits_the_current_match_and_every_later_one(api: Api) -> None:
    """R8.2: the player withdraws themself during R1.1: it is forfeited now; the opponent
    advances; a later match of theirs would be forfeited too (their place is empty)."""
    tournament_id, ids = _day(api, 8)
    match = records(tournament_id)["main.R1.1"]
    assert match.home is not None
    user = f"player-{ids.index(match.home)}"
    reply = _post(api, "withdrawals", tournament_id, {"tavla_id": match.home}, user)
    assert reply.status == 201, reply.body
    assert reply.body["forfeited"] == [day.match_id(tournament_id, "main.R1.1")]
    assert reply.body["refund"] == "none"
    after = records(tournament_id)
    result = after["main.R1.1"].result
    assert result is not None and result.winner == match.away and result.forfeit is True
    assert after["main.R2.1"].home == match.away
    again = _post(api, "withdrawals", tournament_id, {"tavla_id": match.home})
    assert (again.status, again.error) == (409, "already_out")
    assert any(e["action"] == "withdrawal" for e in audit_trail(api, tournament_id))


def test_a_withdrawal_that_cannot_be_written_leaves_the_player_in(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R8.2: putting the player out and forfeiting their match are one write: when the day's
    write keeps failing (a busy venue), the referee gets 503 and the player is still in play,
    with their match as it was (no half-withdrawn player for the next change to find)."""
    tournament_id, _ = _day(api, 4)
    match = records(tournament_id)["main.R1.1"]
    before = draw_store.day(tournament_id).field

    def always_stale(*_: Any, **__: Any) -> None:
        raise StaleMatch("The day changed meanwhile.")

    monkeypatch.setattr(match_store, "settle", always_stale)
    monkeypatch.setattr("tavla.services.progress.time.sleep", lambda _s: None)
    reply = _post(api, "withdrawals", tournament_id, {"tavla_id": match.home})
    assert (reply.status, reply.error) == (503, "busy"), reply.body
    assert draw_store.day(tournament_id).field == before
    assert records(tournament_id)["main.R1.1"] == match
    assert not any(e["action"] == "withdrawal" for e in audit_trail(api, tournament_id))


def test_a_player_who_withdraws_after_winning_forfeits_the_next_match_when_it_is_due(api: Api) -> None:
    """R8.2: R1.1's winner withdraws; when R1.2 is decided the second-round match is forfeited."""
    tournament_id, _ = _day(api, 8)
    official(tournament_id, "main.R1.1")
    winner = records(tournament_id)["main.R1.1"].home
    assert winner is not None
    reply = _post(api, "withdrawals", tournament_id, {"tavla_id": winner})
    assert reply.status == 201 and reply.body["forfeited"] == []
    official(tournament_id, "main.R1.2")
    next_match = records(tournament_id)["main.R2.1"]
    assert next_match.state == "official" and next_match.result is not None
    assert next_match.result.winner != winner and next_match.result.how == "withdrawal"


def test_withdrawing_someone_else_is_refused_and_nothing_is_withdrawn_before_the_draw(api: Api) -> None:
    """R8.2, R3.5: only staff or the player themself; before the draw it is the registration's
    withdrawal: a player with no entry there has nothing to withdraw (409 not_registered),
    whether they ask or staff ask for them."""
    tournament_id, ids = _day(api, 4)
    reply = _post(api, "withdrawals", tournament_id, {"tavla_id": ids[1]}, "player-0")
    assert (reply.status, reply.error) == (403, "not_staff")
    undrawn = create_tournament(api, name="Patras Open")
    reply = _post(api, "withdrawals", undrawn, {"tavla_id": ids[0]}, "player-0")
    assert (reply.status, reply.error) == (409, "not_registered")
    reply = _post(api, "withdrawals", undrawn, {"tavla_id": ids[0]})
    assert (reply.status, reply.error) == (409, "not_registered")


def test_a_disqualified_player_loses_their_matches_and_gets_no_place(api: Api) -> None:
    """R8.3: staff disqualify R1.1's winner: the next match is forfeited when due and the
    standings give them no place."""
    tournament_id, _ = _day(api, 4)
    official(tournament_id, "main.R1.1")
    cheat = records(tournament_id)["main.R1.1"].home
    assert cheat is not None
    refused = _post(api, "disqualifications", tournament_id, {"tavla_id": cheat, "reason": "x"}, "player-1")
    assert (refused.status, refused.error) == (403, "not_staff")
    reply = _post(api, "disqualifications", tournament_id, {"tavla_id": cheat, "reason": "Loaded dice"})
    assert reply.status == 201, reply.body
    official(tournament_id, "main.R1.2")
    after = records(tournament_id)
    assert after["main.R2.1"].result is not None and after["main.R2.1"].result.winner != cheat
    current = draw_store.day(tournament_id)
    assert current.field is not None and cheat in current.field.disqualified
    assert current.tournament is not None
    _, scores = day.results_of(after.values())
    standings = rules_day.event_standings(
        day.settings_of(current.tournament),
        "main",
        [e["player_id"] for e in current.field.entrants],
        list(scores.values()),
        set(current.field.disqualified),
    )
    assert cheat not in {s.player_id for s in standings}
    audit = next(e for e in audit_trail(api, tournament_id) if e["action"] == "disqualification")
    assert audit["details"]["reason"] == "Loaded dice"
