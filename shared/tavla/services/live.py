"""Domain events -> the venue's live channel (AppSync Events).

Match, staff and season channels get change hints (`tavla.live.hints`): two players or a few
staff listen on each, and a hint makes them refetch. The tournament's public channel, which
every phone at the venue and the TV listen on, gets deltas instead (`tavla.live_delta`): what
changed on the board, so a hundred screens update without a hundred refetches. Each delta is
numbered by the tournament's counter (`store.live_seq`): a screen that sees a gap refetches.

A redelivered event gets its number back, not a new one; its delta goes out again as a
`refetch` with that number (which screens that already had it skip), since the standings it
was compared with are gone. A hint delivered twice costs one more 304.

The publish is AppSync Events' HTTP endpoint (`POST /event`), signed with the function's
role (SigV4, service `appsync`); the local stack serves the same endpoint.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tavla import aws, events, live, live_delta
from tavla.store import live_seq, outbox

# the events that change the public board, and so give a delta on the tournament's channel
BOARD_EVENTS = (
    events.RESULT_CONFIRMED,
    events.MATCHES_CALLED,
    events.ENTRIES_CHANGED,
    events.REGISTRATION_PROMOTED,
    events.TOURNAMENT_FINISHED,
)


def hints_of(batch: Iterable[dict[str, Any]]) -> list[live.Hint]:
    found: list[live.Hint] = []
    for event in batch:
        found.extend(live.hints(str(event.get("detail-type", "")), event.get("detail") or {}))
    return live.coalesce(found)


def _signed(url: str, body: bytes) -> urllib.request.Request:
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest

    session = aws.session()
    request = AWSRequest(method="POST", url=url, data=body, headers={"content-type": "application/json"})
    credentials = session.get_credentials()
    if credentials is None:
        raise RuntimeError("no AWS credentials to sign the live channel's publish with")
    SigV4Auth(credentials.get_frozen_credentials(), "appsync", session.region_name or "").add_auth(request)
    return urllib.request.Request(url, data=body, headers=dict(request.headers.items()), method="POST")


def publish(messages: Iterable[tuple[str, Mapping[str, Any]]]) -> int:
    """Post (channel, message) pairs, one request per channel and five events each; how many
    were posted. Raises when the endpoint refuses (the event is then retried, then dead-lettered)."""
    base = os.environ.get(live.HTTP_URL_ENV)
    if not base:
        return 0  # a stage without a live channel
    by_channel: dict[str, list[str]] = defaultdict(list)
    for channel, message in messages:
        by_channel[channel].append(json.dumps(message, separators=(",", ":")))
    posted = 0
    for channel, texts in by_channel.items():
        for start in range(0, len(texts), live.PUBLISH_BATCH):
            chunk = texts[start : start + live.PUBLISH_BATCH]
            body = json.dumps({"channel": live.path(channel), "events": chunk}).encode()
            with urllib.request.urlopen(_signed(f"{base.rstrip('/')}/event", body), timeout=5) as answer:
                answer.read()
            posted += len(chunk)
    return posted


def board_delta(
    detail_type: str,
    detail: Mapping[str, Any],
    event_id: str,
    board_of: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The delta an event gives on its tournament's channel, numbered (None: the board did not
    change); `board_of`: the tournament's board as it stands (read afresh when not given)."""
    tid = str(detail.get("tournament_id") or "")
    if detail_type not in BOARD_EVENTS or not tid:
        return None
    if detail_type not in (events.RESULT_CONFIRMED, events.MATCHES_CALLED):
        counted = live_seq.count(tid, event_id)
        finished = detail_type == events.TOURNAMENT_FINISHED
        return live_delta.refetch(counted.seq, "finished" if finished else "entries")
    board = (board_of or _board)(tid)
    if detail_type == events.RESULT_CONFIRMED:
        counted = live_seq.count(tid, event_id, standings=live_delta.rows_by_key(board))
        if counted.repeat:
            return live_delta.refetch(counted.seq, "repeat")
        match_id = str(detail.get("match_id") or f"{tid}.{detail.get('code', '')}")
        return live_delta.result(counted.seq, board, match_id, counted.standings)
    codes = [str(c) for c in detail.get("codes") or ()]
    rounds = {live_delta.round_key(c) for c in codes}
    counted = live_seq.count(tid, event_id, rounds=rounds)
    if counted.repeat:
        return live_delta.refetch(counted.seq, "repeat")
    if rounds - counted.rounds:
        return live_delta.draw(counted.seq, board, rounds - counted.rounds)
    return live_delta.call(counted.seq, board, codes)


def _board(tournament_id: str) -> dict[str, Any]:
    from tavla.services import board as boards

    return boards.board(tournament_id).model_dump(mode="json")


def deliver(event: dict[str, Any]) -> int:
    """One bus event -> its hints, then its tournament's delta, posted; how many were posted."""
    return deliver_batch([event])


def deliver_batch(batch: Sequence[dict[str, Any]]) -> int:
    """Bus events that arrived together -> their hints, then each event's delta on its
    tournament's channel, in order; how many were posted. The hints go first: they need no
    read, and a match's two phones wait for them. A tournament's board is read once for the
    batch: each delta shows the board as it stands, as it would when read for each event, and
    a screen that applies them in order ends on that board."""
    posted = publish((h.channel, h.message()) for h in hints_of(batch))
    if not os.environ.get(live.HTTP_URL_ENV):
        return posted
    boards: dict[str, dict[str, Any]] = {}

    def board_of(tournament_id: str) -> dict[str, Any]:
        if tournament_id not in boards:
            boards[tournament_id] = _board(tournament_id)
        return boards[tournament_id]

    deltas = []
    for event in batch:
        detail = event.get("detail") or {}
        event_id = str(detail.get(outbox.ID_FIELD) or event.get("id") or "")
        delta = board_delta(str(event.get("detail-type", "")), detail, event_id, board_of)
        if delta is not None:
            deltas.append((f"{live.TOURNAMENT_NAMESPACE}/{detail['tournament_id']}", delta))
    return posted + publish(deltas)
