"""The live channel: the live function posts change hints on match and staff channels and
numbered deltas of the board on the tournament's public channel to AppSync Events' publish
endpoint (here the local stack's, `local.live`, in this process); a staff channel is listened
to only by the tournament's staff, as the live authorizer function decides (R-live, R1.3)."""

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
from tavla import events, live, live_delta
from tavla.services import live as live_service
from tavla.services import live_access
from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw, official, records
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


def _heard(socket: ClientConnection) -> dict[str, Any]:
    """The next message published on the socket's channel (keep-alives skipped)."""
    while True:
        data = json.loads(socket.recv(timeout=2))
        if data["type"] != "ka":
            assert data["type"] == "data", data
            return dict(json.loads(data["event"]))


def test_a_written_match_reaches_its_listeners_as_a_small_hint_and_not_the_public_board(
    listen: Listen,
) -> None:
    """A match's change (a declaration, a live score) reaches whoever listens on the match: the
    hint names channel, type and version, nothing else; the public board hears nothing of it."""
    tid = "0123456789abcdef"
    board, ok = listen(f"/tournament/{tid}")
    match, ok_match = listen(live.path(f"match/{tid}.main.R1.1"))
    assert ok["type"] == ok_match["type"] == "subscribe_success"
    event = _bus_event(events.MATCH_CHANGED, {"tournament_id": tid, "code": "main.R1.1", "version": 4})
    assert live_service.deliver(event) == 2  # match, staff
    assert _heard(match) == {"channel": f"match/{tid}.main.R1.1", "type": "MatchChanged", "version": 4}
    assert live_service.deliver(event) == 2  # at least once: a second copy is one more 304
    with pytest.raises(TimeoutError):
        board.recv(timeout=0.3)


def test_the_board_hears_numbered_deltas_a_draw_a_result_a_call_and_a_repeat_keeps_its_number(
    api: Api, listen: Listen
) -> None:
    """R-live: the round's draw with its tables, then an official result with the winner and the
    standings rows it moved, each numbered by the tournament's counter; the same event delivered
    again gets its number back (a refetch delta screens that have it skip), not a new one. The
    board's GET says the last delta it holds, so a screen that reads it applies the next."""
    tid, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2, tables=2)
    assert draw(api, tid).status == 201
    assert _board_seq(api, tid) == 0  # nothing told yet
    board, _ = listen(f"/tournament/{tid}")
    codes = sorted(records(tid))  # round 1's
    called = _bus_event(events.MATCHES_CALLED, {"tournament_id": tid, "codes": codes, "event_id": "call-1"})
    assert live_service.deliver(called) == 1 + len(codes)  # the board's delta, each match's hint
    drawn = _heard(board)
    assert (drawn["seq"], drawn["kind"], drawn["rounds"]) == (1, "draw", ["main.S1"])
    assert sorted(t["match"]["code"] for t in drawn["tables"]) == codes
    assert _board_seq(api, tid) == 1

    decided = official(tid, codes[0])
    confirmed = {"tournament_id": tid, "code": codes[0], "match_id": f"{tid}.{codes[0]}", "event_id": "res-1"}
    live_service.deliver(_bus_event(events.RESULT_CONFIRMED, confirmed))
    result = _heard(board)
    assert (result["seq"], result["kind"]) == (2, "result")
    assert result["match"]["result"]["winner"] == decided.home and "declared" not in result["match"]
    (standings,) = result["standings"]
    assert standings["order"][0] == decided.home
    assert {r["player"]["tavla_id"] for r in standings["rows"]} >= {decided.home}

    # EventBridge delivers the same event again (another id on the bus, the outbox's the same)
    live_service.deliver(_bus_event(events.RESULT_CONFIRMED, confirmed))
    assert _heard(board) == {"seq": 2, "kind": "refetch", "reason": "repeat"}

    # the same round called again (a table freed): a call, numbered next
    again = _bus_event(
        events.MATCHES_CALLED, {"tournament_id": tid, "codes": codes[1:], "event_id": "call-2"}
    )
    live_service.deliver(again)
    call = _heard(board)
    assert (call["seq"], call["kind"]) == (3, "call")
    assert [c["match"]["code"] for c in call["calls"]] == codes[1:]
    assert _board_seq(api, tid) == 3  # a repeat spends no number


def _batch(*bus_events: dict[str, Any]) -> dict[str, Any]:
    """Bus events as the live function's queue hands them over: one SQS batch."""
    return {
        "Records": [
            {"messageId": f"m{i}", "body": json.dumps(e), "eventSource": "aws:sqs"}
            for i, e in enumerate(bus_events)
        ]
    }


def test_results_arriving_together_read_the_board_once_and_each_keeps_its_delta(
    api: Api, listen: Listen
) -> None:
    """Several results of a busy venue reach the live function in one batch: the board is read
    once for them all, and the screen still hears one numbered delta per result, in order (a
    repeat gets its number back), ending on the board as it stands."""
    from functions.live import handler
    from tests.service.helpers import dynamodb_calls

    tid, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2, tables=2)
    assert draw(api, tid).status == 201
    board, _ = listen(f"/tournament/{tid}")
    first, second = sorted(records(tid))
    official(tid, first)
    official(tid, second, home_wins=False)

    def confirmed(code: str) -> dict[str, Any]:
        detail = {"tournament_id": tid, "code": code, "match_id": f"{tid}.{code}", "event_id": f"res-{code}"}
        return _bus_event(events.RESULT_CONFIRMED, detail)

    batch = _batch(confirmed(first), confirmed(second), confirmed(second))  # the last one twice
    answers: list[dict[str, Any]] = []
    calls = dynamodb_calls(lambda: answers.append(handler.deliver(batch)))
    assert answers[0]["batchItemFailures"] == []
    assert calls.count("Query") == 2, calls  # one board: the rounds and the matches
    heard = [_heard(board) for _ in range(3)]
    assert [(h["seq"], h["kind"]) for h in heard] == [(1, "result"), (2, "result"), (2, "refetch")]
    assert [h["match"]["code"] for h in heard[:2]] == [first, second]
    assert _board_seq(api, tid) == 2


def test_an_event_that_cannot_be_delivered_fails_alone_not_its_batch(api: Api, listen: Listen) -> None:
    """One event of a batch whose board cannot be read (a tournament that does not exist) is
    reported failed alone, to be received again and in the end dead-lettered; the others of its
    batch reach their screens."""
    from functions.live import handler

    tid, _ = checked_in_field(api, 4, format="swiss", swiss_rounds=2, tables=2)
    assert draw(api, tid).status == 201
    board, _ = listen(f"/tournament/{tid}")
    code = sorted(records(tid))[0]
    official(tid, code)
    good = {"tournament_id": tid, "code": code, "match_id": f"{tid}.{code}", "event_id": "res-good"}
    bad = {"tournament_id": "ffffffffffffffff", "code": code, "match_id": f"ffffffffffffffff.{code}"}
    answer = handler.deliver(
        _batch(_bus_event(events.RESULT_CONFIRMED, bad), _bus_event(events.RESULT_CONFIRMED, good))
    )
    assert answer["batchItemFailures"] == [{"itemIdentifier": "m0"}]
    result = _heard(board)
    assert (result["seq"], result["kind"], result["match"]["code"]) == (1, "result", code)


def _board_seq(api: Api, tid: str) -> int:
    reply = api.call("GET", "/tournaments/{tournament_id}/board", params={"tournament_id": tid})
    assert reply.status == 200, reply.body
    return int(reply.body["seq"])


def test_a_draw_too_big_for_one_event_is_a_refetch_delta(
    api: Api, listen: Listen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draw whose tables and pairings would pass AppSync's 240 KB event limit goes out as
    "round drawn, refetch", still numbered."""
    tid, _ = checked_in_field(api, 2)
    assert draw(api, tid).status == 201
    board, _ = listen(f"/tournament/{tid}")
    monkeypatch.setattr(live_delta, "MAX_EVENT_BYTES", 200)
    codes = sorted(records(tid))
    live_service.deliver(_bus_event(events.MATCHES_CALLED, {"tournament_id": tid, "codes": codes}))
    rounds = sorted({live_delta.round_key(c) for c in codes})
    assert _heard(board) == {"seq": 1, "kind": "refetch", "reason": "draw", "rounds": rounds}


def test_every_connection_hears_keep_alives(authority: Authority) -> None:
    """As AppSync Events: `ka` messages within the connection_ack's connectionTimeoutMs."""
    quick = LiveChannel(timeout_ms=1000, ka_ms=100)
    quick.start()
    try:
        with connect(quick.url, subprotocols=[Subprotocol(SUBPROTOCOL)]) as socket:
            socket.send(json.dumps({"type": "connection_init"}))
            assert json.loads(socket.recv(timeout=2)) == {
                "type": "connection_ack",
                "connectionTimeoutMs": 1000,
            }
            assert json.loads(socket.recv(timeout=1)) == {"type": "ka"}
    finally:
        quick.stop()


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
    live_service.deliver(_bus_event(events.NOSHOW_RULED, {"tournament_id": tid, "code": "main.R1.2"}))
    assert _heard(socket)["channel"] == f"staff/{tid}"


def test_a_stage_without_a_live_channel_posts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(live.HTTP_URL_ENV, raising=False)
    event = _bus_event(events.MATCH_CHANGED, {"tournament_id": "t", "code": "main.R1.1", "version": 1})
    assert live_service.deliver(event) == 0
