"""The venue's live channel: which channels a domain event touches, and the hint posted on each.

A hint is a small change notice, never data: `{"channel", "type", "version"}`. A screen that
hears one refetches what it shows (with If-None-Match, so an unchanged answer is a bodiless
304). Hints are safe to repeat and to arrive out of order: the screen always fetches the
current state, and the version only lets it skip a hint older than what it has.

Channels: `tournament/{tid}` (public: the board's deltas, `tavla.live_delta`, not hints),
`match/{match_id}` (public: the match with its declarations and games), `staff/{tid}` (the
tournament's organisers, referees and admins: declarations, disputes, appeals, no-shows,
payments). On AppSync Events a channel is a path of segments (letters, digits, dashes), so
`match/T1.main.R1.3` travels as `/match/T1/main/R1/3` (`path`); the hint carries the name.
`season/{season_id}` (public: the season's page, its standings, who accepted; the Super Final's
replies screen): a changed season, standings ranked again, an invitation sent, accepted or
passed on. A hint names no player, so the public channel tells nobody who answered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tavla import events
from tavla.frozen import Frozen

TOURNAMENT_NAMESPACE = "tournament"
SEASON_NAMESPACE = "season"
PUBLIC_NAMESPACES = (TOURNAMENT_NAMESPACE, "match", SEASON_NAMESPACE)
STAFF_NAMESPACE = "staff"
NAMESPACES = (*PUBLIC_NAMESPACES, STAFF_NAMESPACE)
PUBLISH_BATCH = 5  # AppSync Events takes at most five events per publish request

# the environment of the functions that publish and authorize (infra and the local stack set it)
HTTP_URL_ENV = "LIVE_HTTP_URL"  # https://<id>.appsync-api.<region>.amazonaws.com
JWKS_URL_ENV = "LIVE_JWKS_URL"  # the user pool's keys (locally a file:// URL of the local issuer's)
ISSUER_ENV = "LIVE_ISSUER"
AUDIENCE_ENV = "LIVE_AUDIENCE"  # the app clients whose ID tokens are accepted, comma separated


# the events that change what a season's screens show (the season's own channel)
SEASON_EVENTS = (
    events.SEASON_CHANGED,
    events.SEASON_STANDINGS_CHANGED,
    events.SUPER_FINAL_INVITED,
    events.SUPER_FINAL_ACCEPTED,
    events.SUPER_FINAL_SEAT_PASSED,
)


@dataclass(frozen=True, eq=False, repr=False)
class Hint(Frozen):
    channel: str
    type: str
    version: int | str

    def message(self) -> dict[str, Any]:
        return {"channel": self.channel, "type": self.type, "version": self.version}


def season_channel(season_id: str) -> str:
    """A season's channel: AppSync segments take letters, digits and dashes, at most 50 (two
    seasons sharing one only refetch each other's screens: a hint carries no data)."""
    return f"{SEASON_NAMESPACE}/{season_id.replace('_', '-')[:50]}"


def path(channel: str) -> str:
    """The AppSync Events channel path of a channel name: `match/T1.main.R1.3` -> `/match/T1/main/R1/3`."""
    return "/" + channel.replace(".", "/")


def name(channel_path: str) -> str:
    """The channel name of an AppSync Events path (the inverse of `path` for the first two
    segments; a match's further segments are its code's parts)."""
    parts = channel_path.strip("/").split("/")
    return f"{parts[0]}/{'.'.join(parts[1:])}"


def namespace(channel: str) -> str:
    return channel.strip("/").split("/", 1)[0]


def tournament_of(channel: str) -> str:
    """The tournament a channel belongs to (a match id starts with its tournament's id)."""
    rest = name(path(channel)).split("/", 1)[1]
    return rest.split(".", 1)[0]


def _match_id(detail: Mapping[str, Any], code: str) -> str:
    return f"{detail.get('tournament_id', '')}.{code}"


def hints(detail_type: str, detail: Mapping[str, Any]) -> list[Hint]:
    """The hints one domain event gives (none for events no screen shows)."""
    version: int | str = detail.get("version") or detail.get("at") or detail.get("official_at") or 0
    if detail_type in SEASON_EVENTS and detail.get("season_id"):
        return [Hint(season_channel(str(detail["season_id"])), detail_type, version)]
    tid = str(detail.get("tournament_id") or "")
    if not tid:
        return []
    staff = f"{STAFF_NAMESPACE}/{tid}"
    channels: list[str] = []
    if detail_type == events.MATCHES_CALLED:
        channels = [*(f"match/{_match_id(detail, str(c))}" for c in detail.get("codes") or ())]
    elif detail_type in (events.RESULT_CONFIRMED, events.MATCH_CHANGED, events.NOSHOW_RULED):
        channels = [f"match/{_match_id(detail, str(detail.get('code', '')))}", staff]
    elif detail_type in (events.REGISTRATION_PROMOTED, events.ENTRIES_CHANGED):
        channels = [staff]  # the desk's lists
    return [Hint(c, detail_type, version) for c in dict.fromkeys(channels)]


def coalesce(found: Iterable[Hint]) -> list[Hint]:
    """One hint per channel and type, the highest version kept: a burst (a draw calling 32
    matches, a batch of results) posts each channel once."""
    kept: dict[tuple[str, str], Hint] = {}
    for hint in found:
        key = (hint.channel, hint.type)
        before = kept.get(key)
        if before is None or _order(hint.version) > _order(before.version):
            kept[key] = hint
    return list(kept.values())


def _order(version: int | str) -> tuple[int, int, str]:
    """Numbers by value, times (ISO text) by text, a number before any text."""
    return (0, version, "") if isinstance(version, int) else (1, 0, str(version))
