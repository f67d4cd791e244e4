"""The live channel: the live function posts change hints to AppSync Events' publish endpoint
(here the local stack's, `local.live`, in this process), and a staff channel is listened to
only by the tournament's staff, as the live authorizer function decides (R-live, R1.3)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from functions.liveauth import handler as liveauth
from local.auth import Authority
from local.live import SUBPROTOCOL, LiveChannel
from tavla import clock, events, live
from tavla.services import live as live_service
from tavla.services import live_access
from tests.service.conftest import Api
from tests.service.helpers import ORGANISER, create_player, create_tournament


@pytest.fixture
def authority(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Authority:
    from local import auth

    issuer = Authority(tmp_path)
    monkeypatch.setenv(live.JWKS_URL_ENV, issuer.write_jwks(tmp_path).as_uri())
    monkeypatch.setenv(live.ISSUER_ENV, auth.ISSUER)
    monkeypatch.setenv(live.AUDIENCE_ENV, auth.AUDIENCE)
    live_access._keys.cache_clear()
    return issuer


@pytest.fixture
def channel(monkeypatch: pytest.MonkeyPatch, authority: Authority) -> Iterator[LiveChannel]:
    started = LiveChannel()
    started.authorize = liveauth.authorize
    started.start()
    monkeypatch.setenv(live.HTTP_URL_ENV, started.publish_url)
    yield started
    started.stop()


Listen = Callable[..., tuple[ClientConnection, dict[str, Any]]]


@pytest.fixture
def listen(channel: LiveChannel) -> Iterator[Listen]:
    """A screen: connects, subscribes to one channel path, and says how the subscription went."""
    with ExitStack() as sockets:

        def subscribe(path: str, token: str | None = None) -> tuple[ClientConnection, dict[str, Any]]:
            socket = sockets.enter_context(connect(channel.url, subprotocols=[Subprotocol(SUBPROTOCOL)]))
            socket.send(json.dumps({"type": "connection_init"}))
            assert json.loads(socket.recv(timeout=2))["type"] == "connection_ack"
            authorization = {"Authorization": token} if token else {"x-api-key": "public"}
            subscription = {"type": "subscribe", "id": str(uuid.uuid4()), "channel": path}
            socket.send(json.dumps({**subscription, "authorization": authorization}))
            return socket, json.loads(socket.recv(timeout=2))

        yield subscribe


def _bus_event(detail_type: str, detail: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "detail-type": detail_type, "source": "tavla", "detail": detail}


def test_a_written_match_reaches_its_listeners_as_a_small_hint(listen: Listen) -> None:
    """A match's change reaches whoever listens on the match and on the tournament: the hint
    names channel, type and version, nothing else; a repeat of the event is harmless."""
    tid = "0123456789abcdef"
    board, ok = listen(f"/tournament/{tid}")
    match, ok_match = listen(live.path(f"match/{tid}.main.R1.1"))
    assert ok["type"] == ok_match["type"] == "subscribe_success"
    event = _bus_event(events.MATCH_CHANGED, {"tournament_id": tid, "code": "main.R1.1", "version": 4})
    assert live_service.deliver(event, clock.now()) == 3  # board, match, staff
    for socket, name in ((board, f"tournament/{tid}"), (match, f"match/{tid}.main.R1.1")):
        data = json.loads(socket.recv(timeout=2))
        assert data["type"] == "data"
        assert json.loads(data["event"]) == {"channel": name, "type": "MatchChanged", "version": 4}
    # at least once: a second copy is one more refetch of the match now; the board's waits
    assert live_service.deliver(event, clock.now()) == 2


def test_a_staff_channel_refuses_a_player_and_a_stranger_and_admits_the_organiser(
    api: Api, listen: Listen, authority: Authority
) -> None:
    """R1.3: declarations, disputes and no-shows of a tournament are heard by its staff only."""
    tid = create_tournament(api)
    create_player(api, "pl-1")
    staff_path = f"/staff/{tid}"
    _, player = listen(staff_path, authority.mint("pl-1"))
    _, anonymous = listen(staff_path)
    _, forged = listen(staff_path, authority.mint(ORGANISER)[:-4] + "AAAA")
    _, other_organiser = listen(staff_path, authority.mint("org-2", ["organisers"]))
    for refused in (player, anonymous, forged, other_organiser):
        assert refused["type"] == "subscribe_error"
        assert refused["errors"][0]["errorType"] == "UnauthorizedException"
    socket, organiser = listen(staff_path, authority.mint(ORGANISER, ["organisers"]))
    _, admin = listen(staff_path, authority.mint("admin-1", ["admins"]))
    assert organiser["type"] == admin["type"] == "subscribe_success"
    live_service.deliver(
        _bus_event(events.NOSHOW_RULED, {"tournament_id": tid, "code": "main.R1.2"}), clock.now()
    )
    assert json.loads(json.loads(socket.recv(timeout=2))["event"])["channel"] == f"staff/{tid}"


def test_a_stage_without_a_live_channel_posts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(live.HTTP_URL_ENV, raising=False)
    event = _bus_event(events.MATCH_CHANGED, {"tournament_id": "t", "code": "main.R1.1", "version": 1})
    assert live_service.deliver(event, clock.now()) == 0


def test_a_tournaments_hints_go_out_once_per_window_and_a_held_one_when_it_opens(
    listen: Listen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-live, cost: the tournament channel (every phone and the TV) hears at most one hint per
    180 s; a burst of entries in that window is one hint, held and posted by a one-off schedule
    when the window opens (never lost), while the staff channel hears each at once."""
    from tests.service.payment_helpers import planned_schedules

    tid = "fedcba9876543210"
    board, _ = listen(f"/tournament/{tid}")
    entries = [
        _bus_event(events.ENTRIES_CHANGED, {"tournament_id": tid, "at": f"2026-12-01T10:00:0{i}"})
        for i in range(3)
    ]
    assert live_service.deliver(entries[0], clock.now()) == 2  # board and staff
    assert json.loads(json.loads(board.recv(timeout=2))["event"])["type"] == "EntriesChanged"
    assert live_service.deliver(entries[1], clock.now()) == 1  # staff only: the board's is held
    assert live_service.deliver(entries[2], clock.now()) == 1
    (release,) = [p for p in planned_schedules().values() if "release_tournament" in p]
    assert live_service.deliver(release, clock.now()) == 1  # the window opened: the held one
    held = json.loads(json.loads(board.recv(timeout=2))["event"])
    assert held == {
        "channel": f"tournament/{tid}",
        "type": "EntriesChanged",
        "version": "2026-12-01T10:00:02",
    }
    assert live_service.deliver(release, clock.now()) == 0  # the schedule again: nothing held
    clock.advance(live.TOURNAMENT_WINDOW)
    assert live_service.deliver(entries[0], clock.now()) == 2  # a quiet window: at once again
