"""The live channel's Lambda authorizer: AppSync Events asks it on each subscription to a staff
channel (`staff/{tid}`), with the subscriber's token; the local stack asks it too."""

from __future__ import annotations

from typing import Any

from tavla.observability import event_entry, logger
from tavla.services import live_access

# AppSync caches a verdict per token, not per channel: a staff token allowed on one tournament
# must not be let into another's channel, so nothing is cached (staff subscribe rarely)
NO_CACHE = 0


def authorize(event: dict[str, Any]) -> dict[str, Any]:
    request = event.get("requestContext") or {}
    channel = str(request.get("channel") or "")
    allowed = bool(channel) and live_access.may_subscribe(channel, event.get("authorizationToken"))
    logger.info("live subscription", extra={"channel": channel, "allowed": allowed})
    return {"isAuthorized": allowed, "ttlOverride": NO_CACHE}


handler = event_entry(authorize)
