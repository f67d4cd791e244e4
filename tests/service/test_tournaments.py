"""Tournament pages and per-tournament staff on moto (R2.1, R2.2, R1.3)."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta

import pytest

from tavla import clock
from tests.service.conftest import Api
from tests.service.helpers import (
    ORGANISER,
    appoint_referee,
    create_player,
    create_tournament,
    future,
    tournament_body,
)


def get(api: Api, tid: str):
    return api.call("GET", "/tournaments/{tournament_id}", params={"tournament_id": tid})


def test_organiser_creates_a_tournament_that_anyone_can_read(api: Api) -> None:
    tid = create_tournament(api, name="Thessaloniki Cup", capacity=32)
    reply = get(api, tid)
    assert reply.status == 200
    assert reply.body["name"] == "Thessaloniki Cup"
    assert reply.body["capacity"] == 32
    assert reply.body["entry_fee"] == {"amount": 2000, "currency": "EUR"}
    assert "staff" not in reply.body
    listing = api.call("GET", "/tournaments").body
    assert [t["id"] for t in listing["tournaments"]] == [tid]


def test_only_organisers_create_tournaments(api: Api) -> None:
    reply = api.call("POST", "/tournaments", body=tournament_body(), user="player")
    assert (reply.status, reply.error) == (403, "forbidden")
    assert api.call("GET", "/tournaments").body["tournaments"] == []


def test_inconsistent_settings_are_refused(api: Api) -> None:
    body = tournament_body()
    body["registration_closes_at"], body["starts_at"] = body["starts_at"], body["registration_closes_at"]
    reply = api.call("POST", "/tournaments", body=body, user=ORGANISER, groups=("organisers",))
    assert reply.status == 422
    for bad in (
        {"capacity": "many"},
        {"capacity": 100000},
        {"entry_fee": {"amount": 12.5}},
        {"name": "x" * 200},
        {"format": "chess"},
        {"starts_at": "tomorrow"},
    ):
        reply = api.call(
            "POST", "/tournaments", body=tournament_body(**bad), user=ORGANISER, groups=("organisers",)
        )
        assert reply.status == 422, bad
    assert api.call("GET", "/tournaments").body["tournaments"] == []


def test_calendar_pages_through_tournaments(api: Api) -> None:
    ids = {create_tournament(api, name=f"T{i}") for i in range(3)}
    first = api.call("GET", "/tournaments", query={"limit": "2"}).body
    assert len(first["tournaments"]) == 2 and first["next"]
    second = api.call("GET", "/tournaments", query={"limit": "2", "after": first["next"]}).body
    assert {t["id"] for t in first["tournaments"] + second["tournaments"]} == ids


def test_organiser_changes_settings_and_the_whole_page_is_revalidated(api: Api) -> None:
    """R2.2: the page's own rules (match length, clock, lives) are stored and validated."""
    tid = create_tournament(api)
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"match_lengths": {"default": 7, "final": 11}, "rule_profile": "cnb", "capacity": 16},
    )
    assert reply.status == 200, reply.body
    assert reply.body["match_lengths"]["final"] == 11 and reply.body["rule_profile"] == "cnb"
    bad = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"format": "lives"},
    )
    assert bad.status == 422
    assert get(api, tid).body["format"] == "single_elimination"


def test_capacity_cannot_drop_below_the_registered_count(api: Api) -> None:
    tid = create_tournament(api, capacity=4)
    for i in range(3):
        create_player(api, f"u{i}")
        api.call(
            "POST", "/tournaments/{tournament_id}/registrations", params={"tournament_id": tid}, user=f"u{i}"
        )
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"capacity": 2},
    )
    assert reply.status == 409
    assert get(api, tid).body["capacity"] == 4


def test_referee_of_one_tournament_has_no_power_in_another(api: Api) -> None:
    """R1.3: staff roles are per tournament."""
    mine, other = create_tournament(api), create_tournament(api)
    referee = create_player(api, "ref")
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/staff",
        params={"tournament_id": mine},
        user=ORGANISER,
        body={"staff": [{"tavla_id": referee, "role": "referee"}]},
    )
    assert reply.status == 200, reply.body
    patch = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": other},
        user="ref",
        body={"capacity": 8},
    )
    assert (patch.status, patch.error) == (403, "not_organiser")
    staff = api.call(
        "PUT",
        "/tournaments/{tournament_id}/staff",
        params={"tournament_id": mine},
        user="ref",
        body={"staff": []},
    )
    assert staff.status == 403


def test_the_staff_list_shows_who_is_staff_now(api: Api) -> None:
    """R1.3 (the staff screen): GET .../staff lists the referees and organisers by Tavla
    ID as the last PUT left them, the organiser who set it included; a member removed is gone.
    The PUT answers with that same list."""
    tid = create_tournament(api)
    organiser = create_player(api, ORGANISER)
    referee, helper = create_player(api, "ref"), create_player(api, "helper")
    params = {"tournament_id": tid}

    def put(staff: list[dict[str, str]]) -> None:
        reply = api.call(
            "PUT", "/tournaments/{tournament_id}/staff", params=params, user=ORGANISER, body={"staff": staff}
        )
        assert reply.status == 200, reply.body
        assert (
            reply.body
            == api.call("GET", "/tournaments/{tournament_id}/staff", params=params, user=ORGANISER).body
        )

    def listed(user: str = ORGANISER) -> list[tuple[str, str]]:
        reply = api.call("GET", "/tournaments/{tournament_id}/staff", params=params, user=user)
        assert reply.status == 200, reply.body
        return [(m["tavla_id"], m["role"]) for m in reply.body["staff"]]

    put([{"tavla_id": referee, "role": "referee"}, {"tavla_id": helper, "role": "organiser"}])
    assert sorted(listed("ref")) == sorted(
        [(organiser, "organiser"), (helper, "organiser"), (referee, "referee")]
    )
    put([{"tavla_id": helper, "role": "organiser"}])
    assert sorted(listed()) == sorted([(organiser, "organiser"), (helper, "organiser")])
    refused = api.call("GET", "/tournaments/{tournament_id}/staff", params=params, user="ref")
    assert (refused.status, refused.error) == (403, "not_staff")


def test_staff_must_be_existing_players(api: Api) -> None:
    tid = create_tournament(api)
    reply = api.call(
        "PUT",
        "/tournaments/{tournament_id}/staff",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"staff": [{"tavla_id": "ZZZZZZZ", "role": "referee"}]},
    )
    assert reply.status == 404


def test_unknown_tournament_is_404(api: Api) -> None:
    reply = get(api, "nope")
    assert (reply.status, reply.error) == (404, "tournament_not_found")


def test_every_staff_action_is_in_the_audit_trail(api: Api) -> None:
    """Who did what, when: settings, staff changes and check-ins are recorded."""
    tid = create_tournament(api)
    referee = create_player(api, "ref")
    appoint_referee(api, tid, referee)
    api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"capacity": 8},
    )
    player = create_player(api, "p")
    api.call("POST", "/tournaments/{tournament_id}/registrations", params={"tournament_id": tid}, user="p")
    api.call(
        "POST",
        "/tournaments/{tournament_id}/checkins",
        params={"tournament_id": tid},
        user="ref",
        body={"tavla_id": player},
    )
    trail = api.call("GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user="ref")
    assert trail.status == 200
    actions = [(r["action"], r["actor"]) for r in trail.body["records"]]
    organiser = {"role": "organiser", "tavla_id": None}  # this organiser has no player profile
    assert actions == [
        ("checked_in", {"role": "referee", "tavla_id": referee}),
        ("registered", {"role": "player", "tavla_id": player}),
        ("settings_changed", organiser),
        ("staff_changed", organiser),
        ("tournament_created", organiser),
    ]
    assert trail.body["records"][0]["details"] == {"tavla_id": player}
    assert all(r["at"] for r in trail.body["records"])
    refused = api.call("GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user="p")
    assert refused.status == 403


def test_page_settings_override_the_rule_profile(api: Api) -> None:
    """R2.2: the profile supplies defaults; the page's match lengths and lives win."""
    plain = get(api, create_tournament(api, rule_profile="hbf")).body["rules"]
    assert plain["profile"] == "hbf"
    assert plain["appeal_above_referee"] == "committee"
    assert plain["appeal_committee_sizes"] == [3] and plain["appeal_overturn_rule"] == "unanimous"
    own = get(api, create_tournament(api, rule_profile="cnb", match_lengths={"default": 9, "final": 13})).body
    assert (own["rules"]["match_length"], own["rules"]["final_length"]) == (9, 13)
    assert own["rules"]["appeal_overturn_rule"] == "simple_majority"
    platform = get(api, create_tournament(api)).body["rules"]
    assert platform["appeal_above_referee"] == "none" and platform["table_call_minutes"] == 10


def test_a_setting_that_breaks_a_rule_of_the_game_is_refused(api: Api) -> None:
    reply = api.call(
        "POST",
        "/tournaments",
        body=tournament_body(match_lengths={"default": 8}),
        user=ORGANISER,
        groups=("organisers",),
    )
    assert reply.status == 422
    assert "odd" in reply.body["error"]["message"]
    assert api.call("GET", "/tournaments").body["tournaments"] == []


def test_calendar_is_in_time_order_whatever_the_offset_and_hides_the_past(api: Api) -> None:
    """A tournament at 10:00+03:00 starts before one at 08:00+00:00; past ones are not upcoming."""
    past = create_tournament(api, starts_at=future(1), registration_closes_at=future(0.5))
    later = create_tournament(
        api, starts_at="2030-05-01T08:00:00+00:00", registration_closes_at="2030-04-30T08:00:00+00:00"
    )
    earlier = create_tournament(
        api, starts_at="2030-05-01T10:00:00+03:00", registration_closes_at="2030-04-30T08:00:00+00:00"
    )
    clock.advance(timedelta(days=3))  # a page cannot be created in the past: let it become past
    upcoming = [t["id"] for t in api.call("GET", "/tournaments").body["tournaments"]]
    assert upcoming == [earlier, later]
    everything = api.call("GET", "/tournaments", query={"upcoming": "false"}).body["tournaments"]
    assert [t["id"] for t in everything] == [past, earlier, later]


def test_a_malformed_page_cursor_is_a_validation_error(api: Api) -> None:
    reply = api.call("GET", "/tournaments", query={"after": "garbage"})
    assert reply.status == 422
    assert api.call("GET", "/tournaments", query={"after": "x" * 600}).status == 422


def test_a_stale_foreign_or_forged_page_cursor_is_refused(api: Api) -> None:
    """Cursors are opaque: one from another query, from before the upcoming window, or made
    up by the client is 422 invalid_cursor, never a 500 (DynamoDB refuses such start keys)."""
    for days in (2, 3, 4):
        create_tournament(
            api,
            starts_at=(datetime.now(UTC) + timedelta(days=days)).isoformat(),
            registration_closes_at=future(1),
        )
    upcoming = api.call("GET", "/tournaments", query={"limit": "1"}).body["next"]
    everything = api.call("GET", "/tournaments", query={"limit": "1", "upcoming": "false"}).body["next"]
    assert api.call("GET", "/tournaments", query={"after": upcoming}).status == 200
    forged = [
        everything,  # from the other query
        "2020-05-01T07:00:00+00:00#0123456789abcdef",  # a raw sort key from before the window
        base64.urlsafe_b64encode(
            b'{"q": "upcoming", "k": "2020-01-01T00:00:00+00:00#0123456789abcdef"}'
        ).decode(),
        base64.urlsafe_b64encode(b"not json").decode(),
        "garbage",
    ]
    for cursor in forged:
        reply = api.call("GET", "/tournaments", query={"after": cursor})
        assert (reply.status, reply.error) == (422, "invalid_cursor"), cursor
    clock.advance(timedelta(days=3))  # the first page's last tournament is now in the past
    try:
        stale = api.call("GET", "/tournaments", query={"after": upcoming})
    finally:
        clock.reset()
    assert (stale.status, stale.error) == (422, "invalid_cursor")


def _trail(api: Api, tid: str) -> list[dict]:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return list(reversed(reply.body["records"]))


def test_registrations_withdrawals_and_promotions_are_in_the_audit_trail(api: Api) -> None:
    """Every change of the lists is auditable, by the actor's Tavla ID and role, never a user id."""
    tid = create_tournament(api, capacity=2)
    ids = {u: create_player(api, u) for u in ("p0", "p1", "p2", "p3", "p4")}
    for user in ids:
        api.call(
            "POST", "/tournaments/{tournament_id}/registrations", params={"tournament_id": tid}, user=user
        )
    leave = "/tournaments/{tournament_id}/registrations/me"
    assert api.call("DELETE", leave, params={"tournament_id": tid}, user="p0").status == 200  # p2 promoted
    assert api.call("DELETE", leave, params={"tournament_id": tid}, user="p4").status == 200  # waiting list
    raised = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        user=ORGANISER,
        body={"capacity": 3},
    )
    assert raised.status == 200  # p3 promoted
    player = {u: {"role": "player", "tavla_id": t} for u, t in ids.items()}
    system = {"role": "system", "tavla_id": None}
    lists = [
        (r["action"], r["actor"], r["details"])
        for r in _trail(api, tid)[1:]
        if r["action"] != "settings_changed"
    ]
    assert lists == [
        ("registered", player["p0"], {"tavla_id": ids["p0"], "list": "main", "division": "main"}),
        ("registered", player["p1"], {"tavla_id": ids["p1"], "list": "main", "division": "main"}),
        (
            "registered",
            player["p2"],
            {"tavla_id": ids["p2"], "list": "waiting", "position": 1, "division": "main"},
        ),
        (
            "registered",
            player["p3"],
            {"tavla_id": ids["p3"], "list": "waiting", "position": 2, "division": "main"},
        ),
        (
            "registered",
            player["p4"],
            {"tavla_id": ids["p4"], "list": "waiting", "position": 3, "division": "main"},
        ),
        ("withdrawn", player["p0"], {"tavla_id": ids["p0"], "list": "main"}),
        ("promoted", system, {"tavla_id": ids["p2"], "reason": "withdrawal", "place_of": ids["p0"]}),
        ("withdrawn", player["p4"], {"tavla_id": ids["p4"], "list": "waiting"}),
        ("promoted", system, {"tavla_id": ids["p3"], "reason": "capacity_raised"}),
    ]
    assert all(set(r["actor"]) == {"role", "tavla_id"} for r in _trail(api, tid))  # no user ids


def test_my_data_names_the_referee_who_checked_me_in_by_tavla_id(api: Api) -> None:
    tid = create_tournament(api)
    referee = create_player(api, "ref")
    appoint_referee(api, tid, referee)
    player = create_player(api, "p")
    api.call("POST", "/tournaments/{tournament_id}/registrations", params={"tournament_id": tid}, user="p")
    api.call(
        "POST",
        "/tournaments/{tournament_id}/checkins",
        params={"tournament_id": tid},
        user="ref",
        body={"tavla_id": player},
    )
    [entry] = api.call("GET", "/me/data", user="p").body["registrations"]
    assert entry["checked_in_by"] == referee


TEN_DAYS = future(10)


@pytest.mark.parametrize(
    "bad",
    [
        {"name": "\u200b\u200b\u200b"},  # zero-width spaces only
        {"name": "Athens\u0000Open"},
        {"venue": "Caf\u00e9\u0007"},
        {"name": "\u202eneposnehtA"},  # a right-to-left override
        {"description": "\u3164"},  # a Hangul filler shows nothing
        {"starts_at": "2020-05-01T10:00:00+03:00", "registration_closes_at": "2020-04-30T10:00:00+03:00"},
        {"registration_closes_at": "0607-01-01T10:00:00+00:00"},
        {"starts_at": "2999-05-01T10:00:00+00:00", "registration_closes_at": "2999-04-30T10:00:00+00:00"},
        {"starts_at": future(10).replace("+00:00", "+23:00")},
        {"starts_at": TEN_DAYS, "registration_closes_at": TEN_DAYS},  # closes when it starts
        {"time_zone": "Mars/Olympus_Mons"},
        {"time_zone": "../../etc/passwd"},
        {"time_zone": ""},
    ],
)
def test_unreadable_text_and_impossible_times_are_refused(api: Api, bad: dict[str, str]) -> None:
    """Names people can read, and times a tournament can really have (a venue's IANA zone)."""
    reply = api.call(
        "POST", "/tournaments", body=tournament_body(**bad), user=ORGANISER, groups=("organisers",)
    )
    assert (reply.status, reply.error) == (422, "validation_error"), reply.body
    assert api.call("GET", "/tournaments").body["tournaments"] == []


def test_text_and_times_a_real_page_has_are_accepted(api: Api) -> None:
    tid = create_tournament(
        api,
        name="Τάβλι Open \u200d\U0001f3b2",
        description="Line one\n\tLine two",
        starts_at=future(10).replace("+00:00", "+14:00"),
    )
    page = get(api, tid).body
    assert page["time_zone"] == "Europe/Athens"
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        body={"time_zone": "Asia/Nicosia"},
        user=ORGANISER,
    )
    assert (reply.status, reply.body["time_zone"]) == (200, "Asia/Nicosia")


def test_a_change_cannot_move_a_time_into_the_past(api: Api) -> None:
    tid = create_tournament(api)
    before = get(api, tid).body
    reply = api.call(
        "PATCH",
        "/tournaments/{tournament_id}",
        params={"tournament_id": tid},
        body={"registration_closes_at": "2020-01-01T00:00:00+00:00"},
        user=ORGANISER,
    )
    assert (reply.status, reply.error) == (422, "validation_error")
    assert get(api, tid).body == before


def test_an_optional_setting_set_and_then_cleared_is_gone(api: Api) -> None:
    """R2.1: an organiser may take back an optional setting (null clears it), e.g. the season."""
    tid = create_tournament(api)
    path, params = "/tournaments/{tournament_id}", {"tournament_id": tid}
    for season in ("s2027", None):
        reply = api.call("PATCH", path, params=params, user=ORGANISER, body={"season_id": season})
        assert reply.status == 200, reply.body
        assert get(api, tid).body["season_id"] == season


def _audit_page(api: Api, tid: str, **query: str):
    return api.call(
        "GET",
        "/tournaments/{tournament_id}/audit",
        params={"tournament_id": tid},
        user=ORGANISER,
        query=query,
    )


def test_the_audit_trail_pages_beyond_500_records(api: Api) -> None:
    """R2.3: a busy day's trail (here 511 records) is read whole, a page at a time, newest first,
    each record once."""
    from tavla.store import audit
    from tavla.store.records import Actor
    from tavla.store.transactions import Transaction

    tid = create_tournament(api)
    start = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    for batch in range(0, 510, 100):
        tx = Transaction()
        for i in range(batch, min(batch + 100, 510)):
            at = start + timedelta(seconds=i)
            audit.record(tx, tid, audit.entry(Actor(role="system"), "checked_in", at, n=i))
        tx.run()
    first = _audit_page(api, tid, limit="500")
    assert first.status == 200 and len(first.body["records"]) == 500 and first.body["next"]
    rest = _audit_page(api, tid, limit="500", after=first.body["next"])
    assert rest.status == 200 and rest.body["next"] is None
    trail = first.body["records"] + rest.body["records"]
    numbers = [r["details"]["n"] for r in trail if r["action"] == "checked_in"]
    assert numbers == list(range(509, -1, -1))  # newest first, none twice, none lost
    assert [r["action"] for r in trail].count("tournament_created") == 1 and len(trail) == 511
    small = _audit_page(api, tid, limit="200")
    assert len(small.body["records"]) == 200
    following = _audit_page(api, tid, limit="200", after=small.body["next"])
    assert following.body["records"][0]["details"]["n"] == small.body["records"][-1]["details"]["n"] - 1


def test_a_bad_audit_cursor_is_refused(api: Api) -> None:
    """A forged cursor, or another tournament's, is 422 invalid_cursor, not another trail's page."""
    tid, other = create_tournament(api), create_tournament(api)
    appoint_referee(api, other, create_player(api, "cursor-ref"))
    foreign = _audit_page(api, other, limit="1").body["next"]
    assert foreign
    forged = [
        "not-a-cursor",
        base64.urlsafe_b64encode(b'{"t": "x"}').decode(),
        base64.urlsafe_b64encode(f'{{"t": "{tid}", "k": "MATCH#main.R1.1"}}'.encode()).decode(),
        foreign,
    ]
    for cursor in forged:
        reply = _audit_page(api, tid, after=cursor)
        assert (reply.status, reply.error) == (422, "invalid_cursor"), cursor
