"""The live channel's hints: which channels each domain event touches, coalesced bursts, and
the channel paths AppSync Events takes (R-live)."""

from __future__ import annotations

from collections.abc import Mapping

from tavla import events, live

TID = "0123456789abcdef"


def _channels(detail_type: str, detail: Mapping[str, object]) -> list[str]:
    return [h.channel for h in live.hints(detail_type, detail)]


def test_a_call_tells_each_called_match_and_leaves_the_board_to_its_deltas() -> None:
    """Matches put on tables: each match's screen refetches; the tournament's channel carries
    deltas, never hints (tavla.live_delta)."""
    detail = {"tournament_id": TID, "codes": ["main.R1.1", "main.R1.2"], "at": "2026-05-01T10:00:00+00:00"}
    assert _channels(events.MATCHES_CALLED, detail) == [
        f"match/{TID}.main.R1.1",
        f"match/{TID}.main.R1.2",
    ]
    assert {h.version for h in live.hints(events.MATCHES_CALLED, detail)} == {"2026-05-01T10:00:00+00:00"}


def test_a_written_match_tells_its_screen_and_the_staff_desk_never_the_public_board() -> None:
    """A declaration or a dispute reaches the match and the staff channel, with the match's
    version; not the tournament's public channel (declarations and scores in progress stay off it)."""
    detail = {"tournament_id": TID, "code": "main.R2.4", "version": 7, "state": "disputed"}
    hints = live.hints(events.MATCH_CHANGED, detail)
    assert [h.channel for h in hints] == [f"match/{TID}.main.R2.4", f"staff/{TID}"]
    assert hints[0].message() == {
        "channel": f"match/{TID}.main.R2.4",
        "type": "MatchChanged",
        "version": 7,
    }


def test_hints_carry_no_private_data() -> None:
    """A hint is channel, type and version: never a name, a score or a phone."""
    detail = {
        "tournament_id": TID,
        "code": "main.R1.1",
        "version": 3,
        "home": "P-alice",
        "home_points": 7,
        "phone": "+306900000000",
    }
    for hint in live.hints(events.RESULT_CONFIRMED, detail):
        assert set(hint.message()) == {"channel", "type", "version"}


def test_promotions_reach_the_desk_and_unshown_events_nothing() -> None:
    assert _channels(events.REGISTRATION_PROMOTED, {"tournament_id": TID, "tavla_id": "P1"}) == [
        f"staff/{TID}"
    ]
    assert _channels(events.TOURNAMENT_FINISHED, {"tournament_id": TID}) == []
    assert live.hints(events.PLAYERS_MERGED, {"kept": "P1"}) == []
    assert live.hints(events.ORGANISER_REQUESTED, {"tavla_id": "P1"}) == []


def test_a_burst_posts_each_channel_once_with_its_newest_version() -> None:
    """Coalescing: ten writes of one match, one hint per channel and type, the highest version
    (a number by value, not as text)."""
    burst = [
        h
        for v in range(1, 11)
        for h in live.hints(events.MATCH_CHANGED, {"tournament_id": TID, "code": "main.R1.1", "version": v})
    ]
    kept = live.coalesce(burst)
    assert len(kept) == 2
    assert {h.version for h in kept} == {10}


def test_channel_names_travel_as_appsync_paths_and_back() -> None:
    assert live.path(f"match/{TID}.main.R1.3") == f"/match/{TID}/main/R1/3"
    assert live.name(f"/match/{TID}/main/R1/3") == f"match/{TID}.main.R1.3"
    assert live.tournament_of(f"/staff/{TID}") == TID
    assert live.tournament_of(f"match/{TID}.main.R1.3") == TID
    assert live.namespace(f"/staff/{TID}") == "staff"


def test_season_changes_reach_the_season_channel_only() -> None:
    """A season's events tell its page and the final's replies screen, on a channel AppSync
    takes (no "_", 50 characters at most); the player's id stays out of the hint."""
    at = "2026-11-02T10:00:00+00:00"
    for kind in live.SEASON_EVENTS:
        [hint] = live.hints(kind, {"season_id": "fed_2026", "tavla_id": "P1", "at": at})
        assert hint.message() == {"channel": "season/fed-2026", "type": kind, "version": at}
    assert live.path(live.season_channel("s" * 64)) == "/season/" + "s" * 50
    assert live.hints(events.SEASON_STANDINGS_CHANGED, {"version": 3}) == []
