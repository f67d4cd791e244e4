"""Which URLs a notice may be pushed to, and when a notice goes by SMS as well.

A subscription's endpoint is a URL the browser chose, so a server that posts to it must not
become a way to reach anything else: only the browsers' own push services, over HTTPS (the
local stack adds its stand-in push service by origin)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

# the push services of Chrome/Edge/Opera/Samsung (FCM), Firefox, Safari (all Apple platforms)
# and the legacy Windows one; a browser on another one is refused, not posted to blindly
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "push.apple.com",
    "notify.windows.com",
)
MAX_SUBSCRIPTIONS = 10  # browsers per player: more is not a person's phones and laptops


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def endpoint_allowed(url: str, extra_origins: Iterable[str] = ()) -> bool:
    """An https URL at a known push service (its host or a subdomain), or at one of the origins
    named (`scheme://host:port`, exactly)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    if _origin(url) in set(extra_origins):
        return True
    host = parts.hostname or ""
    if parts.scheme != "https" or parts.username or parts.password or port not in (None, 443):
        return False
    return any(host == s or host.endswith(f".{s}") for s in PUSH_SERVICES)


def wants_sms(opted_in: bool, phone: str | None, pushed: bool) -> bool:
    """SMS only for a player who chose it, has a number, and whom no browser of theirs reached
    with this notice (an SMS costs cents; a push nothing)."""
    return opted_in and bool(phone) and not pushed
