"""A whole tournament day over HTTP, the way an organiser, a referee and the players run it.

`TournamentDay` enters a field (accounts, registrations, check-ins at the referee table),
draws every round through the API, plays every match that is called (the players report,
the referee confirms), and finishes the tournament. `pick` decides who wins each match, so
a test can steer a day (e.g. into the reset final).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.e2e.client import Client, players, tournament, until

Pick = Callable[[dict[str, Any]], str]  # a match (as published) -> the winner's Tavla ID
SEVEN_POINTS = {"default": 7, "semi_final": 7, "final": 7}


def checked_in_field(
    client: Client, organiser: str, prefix: str, count: int, **settings: Any
) -> tuple[str, dict[str, str]]:
    """A platform-profile knockout of 7-point matches with `count` players registered and
    checked in, not drawn yet; (its id, user by Tavla ID). `settings`: more of the page's."""
    tid = tournament(
        client, organiser, capacity=count, rule_profile="platform", match_lengths=SEVEN_POINTS, **settings
    )
    entrants = players(client, prefix, count)
    for user, tavla_id in entrants.items():
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
        reply = client.call("POST", f"/tournaments/{tid}/checkins", {"tavla_id": tavla_id}, user=organiser)
        assert reply.status == 200, reply.body
    return tid, {t: u for u, t in entrants.items()}


class TournamentDay:
    def __init__(self, client: Client, name: str, players: int, seed: int = 7, **settings: Any) -> None:
        self.client, self.name, self.rng = client, name, random.Random(seed)
        self.organiser = f"{name}-organiser"
        self.referee = f"{name}-referee"
        self.players: dict[str, str] = {}  # Tavla ID -> user
        self.ratings: dict[str, int] = {}
        self.settings = settings
        self.size = players
        self.id = ""
        self.draws: list[dict[str, Any]] = []

    # -- before the day ---------------------------------------------------------------------

    def enter_field(self) -> None:
        self.id = tournament(
            self.client, self.organiser, capacity=self.size, name=f"{self.name} open", **self.settings
        )
        referee_id = self._account(self.referee, "Referee", None)
        self._account(self.organiser, "Organiser", None)
        staff = {"staff": [{"tavla_id": referee_id, "role": "referee"}]}
        reply = self.client.call("PUT", f"/tournaments/{self.id}/staff", staff, user=self.organiser)
        assert reply.status == 200, reply.body

        def enter(i: int) -> None:
            user = f"{self.name}-player-{i}"
            tavla_id = self._account(user, f"Player {i}", f"Club {i % 5}")
            reply = self.client.call("POST", f"/tournaments/{self.id}/registrations", user=user)
            assert reply.status == 201, reply.body
            reply = self.client.call(
                "POST", f"/tournaments/{self.id}/checkins", {"tavla_id": tavla_id}, user=self.referee
            )
            assert reply.status == 200, reply.body
            self.players[tavla_id] = user

        with ThreadPoolExecutor(max_workers=6) as pool:
            list(pool.map(enter, range(self.size)))

    def _account(self, user: str, name: str, club: str | None) -> str:
        body = {"name": name, **({"club": club} if club else {})}
        reply = self.client.call("POST", "/players", body, user=user)
        assert reply.status == 201, reply.body
        return str(reply.body["tavla_id"])

    # -- the day ----------------------------------------------------------------------------

    def draw(self) -> Any:
        return self._retried("POST", f"/tournaments/{self.id}/rounds", None, self.organiser)

    def round(self, number: int) -> dict[str, Any]:
        reply = self.client.call("GET", f"/tournaments/{self.id}/rounds/{number}")
        assert reply.status == 200, reply.body
        return dict(reply.body)

    def matches(self) -> list[dict[str, Any]]:
        count = len(self.client.call("GET", f"/tournaments/{self.id}/rounds").body["rounds"])
        return [m for n in range(1, count + 1) for m in self.round(n)["pairings"]]

    def play(self, match: dict[str, Any], winner: str) -> None:
        """The result reaches the referee table (R7.5): every fourth match both players report it
        and the referee confirms; the others the referee records and confirms at once."""
        home, away = match["home"]["tavla_id"], match["away"]["tavla_id"]
        length = match["length"]
        score = {
            "home_points": length if winner == home else self.rng.randrange(length),
            "away_points": length if winner == away else self.rng.randrange(length),
        }
        if match["board"] % 4 == 1:
            for player in (home, away):
                reply = self._retried("POST", f"/matches/{match['id']}/report", score, self.players[player])
                assert reply.status == 200, reply.body
            reply = self._retried("POST", f"/matches/{match['id']}/confirm", None, self.referee)
        else:
            reply = self._retried("POST", f"/matches/{match['id']}/confirm", score, self.referee)
        assert reply.status == 200, reply.body

    def _retried(self, method: str, path: str, body: Any, user: str) -> Any:
        """A phone's call: a 503 (busy venue) is retried after its Retry-After, as clients do."""
        for _ in range(5):
            reply = self.client.call(method, path, body, user=user)
            if reply.status != 503:
                return reply
            time.sleep(1.0)  # the Retry-After the API sends with a 503
        return reply

    def run(self, pick: Pick | None = None) -> None:
        """Draw when a draw is due; play what is called; until nothing is left to draw or play."""
        choose = pick or (lambda m: self.rng.choice([m["home"]["tavla_id"], m["away"]["tavla_id"]]))
        while True:
            reply = self.draw()
            if reply.status == 201:
                self.draws.append(reply.body)
            else:
                assert reply.status == 409, reply.body
                assert reply.error in ("round_in_progress", "nothing_to_draw"), reply.body
            called = [m for m in self.matches() if m["state"] == "called"]
            if not called:
                if reply.status == 409 and reply.error == "nothing_to_draw":
                    return
                if reply.status != 201:
                    raise AssertionError(f"nothing called and nothing drawn: {reply.body}")
                continue
            with ThreadPoolExecutor(max_workers=4) as pool:
                list(pool.map(lambda m: self.play(m, choose(m)), called))

    def finish(self) -> dict[str, Any]:
        reply = self.client.call("POST", f"/tournaments/{self.id}/finish", user=self.organiser)
        assert reply.status == 200, reply.body
        return dict(reply.body)


def played_in_season(client: Client, name: str, season_id: str) -> tuple[TournamentDay, list[dict[str, Any]]]:
    """A knockout of four declaring the season, played and finished: the day, and the season
    standings once its points are in (the season function counts them off the bus)."""
    day = TournamentDay(client, name, 4, season_id=season_id)
    day.enter_field()
    day.run()
    day.finish()
    rows = lambda: client.call("GET", f"/seasons/{season_id}/standings").body["rows"]  # noqa: E731
    standings = until(lambda: len(rows()) == 4 and rows())
    assert standings, rows()
    return day, list(standings)
