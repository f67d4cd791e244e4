"""Clubs as the federation's records (R1.2, R5.2, R10.3): admins keep them, players choose one,
free-text clubs are mapped once by merging near-duplicates, and lists go by the club's id."""

from __future__ import annotations

from typing import Any

from tavla.store import keys
from tavla.store.dynamo import client, table_name
from tavla.store.schema import MAIN
from tests.service.conftest import Api
from tests.service.helpers import create_player

ADMIN = {"user": "club-admin", "groups": ("admins",)}


def add_club(api: Api, name: str, city: str = "Athens", short: str = "CLB", **extra: Any) -> dict[str, Any]:
    reply = api.call(
        "POST", "/admin/clubs", body={"name": name, "city": city, "short_name": short, **extra}, **ADMIN
    )
    assert reply.status == 201, reply.body
    return dict(reply.body)


def rated(tavla_id: str, rating: float) -> None:
    """As the first official match leaves a profile: on the rating lists."""
    client().update_item(
        TableName=table_name(MAIN),
        Key=keys.profile(tavla_id),
        UpdateExpression="SET rating = :r, rating_key = :k, rating_list = :l",
        ExpressionAttributeValues={
            ":r": {"N": str(rating)},
            ":k": {"S": keys.rating_sort(rating, tavla_id)},
            ":l": {"S": keys.NATIONAL},
        },
    )


def test_admins_keep_clubs_and_the_public_list_hides_the_contact(api: Api) -> None:
    """R1.2, R12.1: anyone reads the clubs to choose one; only admins see who to call."""
    plakas = add_club(api, "O.A. Plakas", short="OAP", contact="+30 210 000 0000")
    add_club(api, "Athens Backgammon Club", short="ABC")
    public = api.call("GET", "/clubs").body
    assert [c["name"] for c in public] == ["Athens Backgammon Club", "O.A. Plakas"]
    assert all("contact" not in c for c in public)
    admin_view = api.call("GET", "/admin/clubs", **ADMIN).body
    assert {c["id"]: c.get("contact") for c in admin_view}[plakas["id"]] == "+30 210 000 0000"
    edited = api.call(
        "PATCH", "/admin/clubs/{club_id}", params={"club_id": plakas["id"]}, body={"contact": None}, **ADMIN
    )
    assert edited.status == 200 and edited.body["contact"] is None and edited.body["name"] == "O.A. Plakas"
    missing = api.call("PATCH", "/admin/clubs/{club_id}", params={"club_id": "NOPE123"}, body={}, **ADMIN)
    assert missing.status == 404 and missing.error == "no_such_club"


def test_a_player_chooses_a_club_and_its_renamed_name_follows(api: Api) -> None:
    """R1.2: the profile keeps the club's id; the name shown is the club's, even after a rename."""
    club = add_club(api, "OA Plakas")
    me = create_player(api, "chooser", club_id=club["id"].lower())
    profile = api.call("GET", "/me", user="chooser").body
    assert (profile["club_id"], profile["club"]) == (club["id"], "OA Plakas")
    api.call(
        "PATCH",
        "/admin/clubs/{club_id}",
        params={"club_id": club["id"]},
        body={"name": "O.A. Plakas"},
        **ADMIN,
    )
    assert api.call("GET", "/players/{tavla_id}", params={"tavla_id": me}).body["club"] == "O.A. Plakas"
    unknown = api.call("PATCH", "/me", body={"club_id": "NOCLUB1"}, user="chooser")
    assert unknown.status == 422 and unknown.error == "club_not_found"
    assert api.call("GET", "/me", user="chooser").body["club_id"] == club["id"]  # nothing changed
    # the old way still works until mapped: free text, no club id
    typed = api.call("PATCH", "/me", body={"club": "Club 3"}, user="chooser").body
    assert (typed["club"], typed.get("club_id")) == ("Club 3", None)


def test_near_duplicates_are_merged_into_one_club_and_the_club_list_goes_by_its_id(api: Api) -> None:
    """R1.2, R10.3: the one-time mapping: spellings grouped, merged by an admin, players moved
    once; the club's rating list names its members by id, a same-named club elsewhere apart."""
    typed = {"p1": "OA Plakas", "p2": "O.A. Plakas", "p3": "oa plakas", "p4": "Club 3"}
    ids = {user: create_player(api, user, club=club) for user, club in typed.items()}
    for n, tavla_id in enumerate(ids.values()):
        rated(tavla_id, 1500.0 + n)
    club = add_club(api, "O.A. Plakas")
    groups = api.call("GET", "/admin/clubs/near-duplicates", **ADMIN).body
    plakas = next(g for g in groups if len(g["spellings"]) == 3)
    assert plakas["players"] == 3 and plakas["club_id"] == club["id"]
    spellings = [s["name"] for s in plakas["spellings"]]
    merged = api.call(
        "POST",
        "/admin/clubs/{club_id}/merge",
        params={"club_id": club["id"]},
        body={"spellings": spellings},
        **ADMIN,
    )
    assert merged.status == 200, merged.body
    assert (merged.body["moved"], merged.body["changed_meanwhile"]) == (3, 0)
    again = api.call(
        "POST",
        "/admin/clubs/{club_id}/merge",
        params={"club_id": club["id"]},
        body={"spellings": spellings},
        **ADMIN,
    )
    assert again.body["moved"] == 0
    for user in ("p1", "p2", "p3"):
        profile = api.call("GET", "/me", user=user).body
        assert (profile["club_id"], profile["club"]) == (club["id"], "O.A. Plakas")
    left = api.call("GET", "/admin/clubs/near-duplicates", **ADMIN).body
    assert [[s["name"] for s in g["spellings"]] for g in left] == [["Club 3"]]
    listed = api.call("GET", "/ratings", query={"club_id": club["id"]}).body
    assert [p["tavla_id"] for p in listed["players"]] == [ids["p3"], ids["p2"], ids["p1"]]
    assert listed["which"] == "club"
    # the free-text list still answers for a spelling not mapped yet
    assert [p["tavla_id"] for p in api.call("GET", "/ratings", query={"club": "Club 3"}).body["players"]] == [
        ids["p4"]
    ]


def test_a_duplicate_club_record_is_merged_and_leaves_the_list(api: Api) -> None:
    kept = add_club(api, "Piraeus Tavli")
    duplicate = add_club(api, "Pireaus Tavli")
    member = create_player(api, "dup-member", club_id=duplicate["id"])
    merged = api.call(
        "POST",
        "/admin/clubs/{club_id}/merge",
        params={"club_id": kept["id"]},
        body={"clubs": [duplicate["id"]]},
        **ADMIN,
    )
    assert merged.body["moved"] == 1
    assert [c["id"] for c in api.call("GET", "/clubs").body] == [kept["id"]]
    assert api.call("GET", "/players/{tavla_id}", params={"tavla_id": member}).body["club_id"] == kept["id"]
    # a player still naming the old record lands in the one kept
    chose_old = api.call("PATCH", "/me", body={"club_id": duplicate["id"]}, user="dup-member").body
    assert chose_old["club_id"] == kept["id"]
