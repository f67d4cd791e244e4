"""The hall over HTTP on the local stack: a player who needs an accessible table across a whole
day, and a jackpot pool beside the Main with its holds (a hold, the call when the player is
free, a hold the staff release; no no-show clock for a held match)."""

from __future__ import annotations

from typing import Any

from tests.e2e.client import Client, players
from tests.e2e.day import SEVEN_POINTS, TournamentDay
from tests.e2e.hall import beside, hall_tournament, match_of, win


def test_an_accessible_table_player_sits_only_at_the_accessible_table_all_day(stack) -> None:
    """8 players, 3 tables, table 3 accessible: the player sets his need himself (private:
    another player cannot read it, the public board does not show it); every match he plays,
    round after round, is at table 3 (the others sit there only when it is free)."""
    client = Client(stack)
    day = TournamentDay(client, "hall-access", 8, tables=3, match_lengths=SEVEN_POINTS)
    day.enter_field()
    reply = client.call("PUT", f"/tournaments/{day.id}/tables/3", {"accessible": True}, user=day.organiser)
    assert reply.status == 200, reply.body
    assert [t["accessible"] for t in reply.body["tables"]] == [False, False, True]
    needy = sorted(day.players)[0]
    own = day.players[needy]
    reply = client.call("PUT", f"/tournaments/{day.id}/needs/{needy}", {"accessible": True}, user=own)
    assert reply.status == 200 and reply.body == {"accessible": True}, reply.body
    other = next(u for t, u in day.players.items() if t != needy)
    assert client.call("GET", f"/tournaments/{day.id}/needs/{needy}", user=other).status == 403
    assert client.call("GET", f"/tournaments/{day.id}/needs/{needy}", user=own).body == {"accessible": True}

    seen: list[tuple[str, int]] = []

    def pick(match: dict[str, Any]) -> str:
        sides = (str(match["home"]["tavla_id"]), str(match["away"]["tavla_id"]))
        seen.append((match["code"], match["table"]))
        if needy in sides:
            assert match["table"] == 3, match
            return needy  # he plays the whole day
        return sides[0]

    day.run(pick)
    mine = [m for m in day.matches() if needy in (m["home"]["tavla_id"], m["away"]["tavla_id"])]
    assert [m["round"] for m in mine] == [1, 2, 3] and all(m["state"] == "official" for m in mine)
    assert len(seen) == 7
    board = client.call("GET", f"/tournaments/{day.id}/board")
    assert board.status == 200 and "accessible" not in str(board.body) and "needs" not in str(board.body)


def test_a_jackpot_beside_the_main_holds_a_player_until_he_is_free_or_staff_release_him(stack) -> None:
    """The Main (4 players) and a jackpot (2) share the hall; X plays both. X's jackpot match is
    held while he plays his Main semi-final (not called, so the no-show deadline never comes),
    the desk says by which match, and it is called the moment that semi-final ends. Then X's
    Main final is held by his jackpot match, and the staff release it."""
    client = Client(stack)
    organiser = "hall-organiser"
    everyone = players(client, "hall-beside", 5)
    users = list(everyone)
    x = everyone[users[0]]
    main = hall_tournament(client, organiser, {u: everyone[u] for u in users[:4]}, tables=2)
    jackpot = hall_tournament(client, organiser, {users[0]: x, users[4]: everyone[users[4]]}, tables=1)
    beside(client, organiser, main, jackpot)
    assert client.call("POST", f"/tournaments/{main}/rounds", user=organiser).status == 201
    semi = match_of(client, main, x)
    assert semi["state"] == "called"
    assert client.call("POST", f"/tournaments/{jackpot}/rounds", user=organiser).status == 201

    held = match_of(client, jackpot, x)
    assert held["state"] == "queued" and held["called_at"] is None and held["table"] is None
    desk = client.call("GET", f"/tournaments/{jackpot}/hall", user=organiser).body
    assert desk["queue"] == [{"match": held["code"], "reason": "held"}]
    assert [(h["match"], h["tavla_id"], h["by_tournament"], h["by_match"]) for h in desk["holds"]] == [
        (held["code"], x, main, semi["code"])
    ]
    stack.advance(15 * 60)  # past any no-show deadline: a held match has none
    stack.drain()
    assert match_of(client, jackpot, x)["state"] == "queued"

    win(client, semi, x, organiser)  # X is free: his jackpot match is called at once
    called = match_of(client, jackpot, x)
    assert called["state"] == "called" and called["table"] == 1
    assert client.call("GET", f"/tournaments/{jackpot}/hall", user=organiser).body["holds"] == []

    other_semi = next(
        p
        for p in client.call("GET", f"/tournaments/{main}/rounds/1").body["pairings"]
        if p["round"] == 1 and p["id"] != semi["id"]
    )
    win(client, other_semi, other_semi["home"]["tavla_id"], organiser)
    final = match_of(client, main, x, round_=2)
    assert final["state"] == "queued"  # X plays his jackpot match: the final is held
    desk = client.call("GET", f"/tournaments/{main}/hall", user=organiser).body
    assert [(h["match"], h["by_tournament"], h["by_match"]) for h in desk["holds"]] == [
        (final["code"], jackpot, called["code"])
    ]
    refused = client.call("POST", f"/tournaments/{main}/holds/{semi['code']}/release", user=organiser)
    assert refused.status == 409 and refused.error == "not_held", refused.body
    player = client.call("POST", f"/tournaments/{main}/holds/{final['code']}/release", user=users[1])
    assert player.status == 403
    released = client.call("POST", f"/tournaments/{main}/holds/{final['code']}/release", user=organiser)
    assert released.status == 200 and released.body["holds"] == [], released.body
    assert match_of(client, main, x, round_=2)["state"] == "called"
