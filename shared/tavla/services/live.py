"""Domain events -> change hints on the venue's live channel (AppSync Events).

Each event gives the hints `tavla.live.hints` names; a burst is coalesced to one hint per
channel and type, and each channel's hints go in one publish request (five at most).
Delivering an event twice posts its hints twice, which costs a screen one conditional
refetch answered 304: hints are idempotent by nature, so no record of sent ones is kept.
Late or reordered delivery is harmless too: a hint only says "refetch", never what changed.

A tournament's channel is watched by every phone at the venue and the TV, so each hint there
costs a hundred refetches: its hints go out at most once per `live.TOURNAMENT_WINDOW`
(`store.live_gate`); one that comes sooner is held and posted by a one-off schedule when the
window opens (docs/decisions: live hints held per tournament). Match and staff hints, each
watched by two players or a few staff, go out at once.

The publish is AppSync Events' HTTP endpoint (`POST /event`), signed with the function's
role (SigV4, service `appsync`); the local stack serves the same endpoint.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from tavla import aws, live, schedules
from tavla.store import live_gate, outbox

TARGET = "live"  # this function, as its own schedules' target
RELEASE = "release_tournament"  # a schedule's payload: post the tournament's held hint


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


def publish(hints: Iterable[live.Hint]) -> int:
    """Post the hints, one request per channel and five events each; how many were posted.
    Raises when the endpoint refuses (the event is then retried, then dead-lettered)."""
    base = os.environ.get(live.HTTP_URL_ENV)
    if not base:
        return 0  # a stage without a live channel
    by_channel: dict[str, list[str]] = defaultdict(list)
    for hint in hints:
        by_channel[hint.channel].append(json.dumps(hint.message()))
    posted = 0
    for channel, messages in by_channel.items():
        for start in range(0, len(messages), live.PUBLISH_BATCH):
            chunk = messages[start : start + live.PUBLISH_BATCH]
            body = json.dumps({"channel": live.path(channel), "events": chunk}).encode()
            with urllib.request.urlopen(_signed(f"{base.rstrip('/')}/event", body), timeout=5) as answer:
                answer.read()
            posted += len(chunk)
    return posted


def _gated(hints: list[live.Hint], now: datetime) -> list[live.Hint]:
    """The hints to post now: match and staff hints all; a tournament's hint only when its
    window is open, else it is held and a one-off schedule posts it when the window opens."""
    passed: list[live.Hint] = []
    for hint in hints:
        if live.namespace(hint.channel) != live.TOURNAMENT_NAMESPACE:
            passed.append(hint)
            continue
        tournament_id = live.tournament_of(hint.channel)
        opens = live_gate.admit(
            tournament_id, now, live.TOURNAMENT_WINDOW, live_gate.Held(hint.type, hint.version)
        )
        if opens is None:
            passed.append(hint)
        else:  # one schedule per window, whatever number of hints it holds
            name = schedules.schedule_name(TARGET, tournament_id, opens.strftime("%Y%m%dT%H%M%S"))
            schedules.create_once(name, opens, TARGET, {RELEASE: tournament_id})
    return passed


def release(tournament_id: str, now: datetime) -> int:
    """The window opened: the hint held for it is posted (nothing held: nothing posted)."""
    held = live_gate.release(tournament_id, now, live.TOURNAMENT_WINDOW)
    if held is None:
        return 0
    return publish([live.Hint(f"{live.TOURNAMENT_NAMESPACE}/{tournament_id}", held.type, held.version)])


def deliver(event: dict[str, Any], now: datetime) -> int:
    """One bus event -> its hints posted (or held); how many posted now. A schedule's event
    releases the tournament hint it was made for."""
    if RELEASE in event:
        return release(str(event[RELEASE]), now)
    detail = event.get("detail") or {}
    _ = detail.get(outbox.ID_FIELD)
    hints = hints_of([event])
    return publish(_gated(hints, now))
