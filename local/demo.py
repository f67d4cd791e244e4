"""The demo tournament, loaded through the HTTP API itself so that it exercises the real code.

An organiser, a tournament two days ahead with 32 places, and 36 players with profiles:
32 on the main list, 4 on the waiting list, 12 already checked in. A marker in the data
folder makes it idempotent across restarts; every step tolerates having been done before,
so an interrupted load completes on the next start.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import requests

from local.auth import Authority

log = logging.getLogger("local.demo")
ORGANISER = "demo-organiser"
CHECKED_IN = 12

FIRST = [
    "Giorgos",
    "Maria",
    "Nikos",
    "Eleni",
    "Kostas",
    "Katerina",
    "Dimitris",
    "Sofia",
    "Yannis",
    "Anna",
    "Panagiotis",
    "Despina",
    "Christos",
    "Ioanna",
    "Vasilis",
    "Georgia",
    "Marco",
    "Giulia",
]
LAST = [
    "Papadopoulos",
    "Georgiou",
    "Nikolaou",
    "Ioannou",
    "Konstantinou",
    "Dimitriou",
    "Vlachos",
    "Angelopoulos",
    "Makris",
    "Rossi",
    "Bianchi",
    "Christodoulou",
]
CLUBS = [
    ("Athens Backgammon Club", "Athens"),
    ("Thessaloniki Tavli Society", "Thessaloniki"),
    ("Piraeus Portes", "Piraeus"),
    ("Patras Plakoto", "Patras"),
    ("Heraklion Fevga", "Heraklion"),
]


def demo_players(count: int = 36) -> list[dict[str, Any]]:
    """Deterministic players: the same names, clubs and phones on every machine."""
    players = []
    for i in range(count):
        club, city = CLUBS[i % len(CLUBS)]
        players.append(
            {
                "user": f"demo-player-{i + 1:02d}",
                "profile": {
                    "name": f"{FIRST[i % len(FIRST)]} {LAST[(i * 5) % len(LAST)]}",
                    "club": club,
                    "city": city,
                    "phone": f"+30 694 {100 + i:03d} {2000 + i * 37:04d}",
                },
            }
        )
    return players


class _Api:
    def __init__(self, url: str, authority: Authority) -> None:
        self.url = url
        self.authority = authority
        self.session = requests.Session()

    def call(self, user: str, method: str, path: str, body: Any = None, groups: tuple[str, ...] = ()) -> Any:
        headers = {"Authorization": f"Bearer {self.authority.mint(user, groups)}"}
        response = self.session.request(method, self.url + path, json=body, headers=headers, timeout=60)
        if response.status_code >= 400 and response.status_code != 409:
            raise RuntimeError(f"{method} {path} -> {response.status_code} {response.text}")
        return response.json() if response.content else None


def load_demo(url: str, authority: Authority, data_dir: Path) -> str:
    """Load the demo unless it is already there; returns a token for its organiser."""
    organiser_groups = ("organisers",)
    marker = data_dir / "demo.json"
    state: dict[str, Any] = json.loads(marker.read_text()) if marker.exists() else {}
    if state.get("complete"):
        return authority.mint(ORGANISER, organiser_groups)
    api = _Api(url, authority)
    try:
        api.call(ORGANISER, "POST", "/players", {"name": "Demo Organiser", "club": "Athens Backgammon Club"})
        if "tournament_id" not in state:
            start = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=0, second=0, microsecond=0)
            tournament = api.call(
                ORGANISER,
                "POST",
                "/tournaments",
                {
                    "name": "Athens Spring Open",
                    "venue": "Kafeneio To Tavli, Plaka",
                    "city": "Athens",
                    "description": "Demo tournament of the local stack: 32 places, Swiss, 7-point matches.",
                    "starts_at": start.isoformat(),
                    "registration_closes_at": (start - timedelta(hours=1)).isoformat(),
                    "capacity": 32,
                    "entry_fee": {"amount": 2000, "currency": "EUR"},
                    "format": "swiss",
                    "swiss_rounds": 5,
                    "level": "regional",
                },
                groups=organiser_groups,
            )
            state["tournament_id"] = tournament["id"]
            marker.write_text(json.dumps(state))
        tournament_id = state["tournament_id"]
        players = demo_players()
        tavla_ids = []
        for player in players:
            api.call(player["user"], "POST", "/players", player["profile"])
            tavla_ids.append(api.call(player["user"], "GET", "/me")["tavla_id"])
            api.call(player["user"], "POST", f"/tournaments/{tournament_id}/registrations")
        for tavla_id in tavla_ids[:CHECKED_IN]:
            api.call(
                ORGANISER,
                "POST",
                f"/tournaments/{tournament_id}/checkins",
                {"tavla_id": tavla_id},
                groups=organiser_groups,
            )
    except (RuntimeError, requests.RequestException, KeyError) as failure:
        log.error("the demo could not be loaded (it is retried on the next start): %s", failure)
        return authority.mint(ORGANISER, organiser_groups)
    state["complete"] = True
    marker.write_text(json.dumps(state))
    log.info("demo loaded: tournament %s with %d players", tournament_id, len(players))
    return authority.mint(ORGANISER, organiser_groups)
