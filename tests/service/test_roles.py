"""Platform roles granted by the federation's admins through the API, and requests to organise
(R1.3): the user pool's group follows the record, every change is audited, the last admin stays."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from tavla import events
from tavla.caller import USER_POOL_ENV
from tavla.errors import LastAdmin
from tavla.store import keys
from tavla.store.dynamo import client, table_name
from tavla.store.schema import MAIN
from tests.service.conftest import Api
from tests.service.helpers import bus_taking, create_player

notify = importlib.import_module("functions.notify.handler")

ADMIN = ("first-admin", ("admins",))


class Context:
    function_name = "notify"
    memory_limit_in_mb = 512
    invoked_function_arn = "arn:aws:lambda:eu-central-1:123456789012:function:notify"
    aws_request_id = "req-1"


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> str:
    """A moto user pool with the two groups; users are named by their sub, as e-mail sign-in names them."""
    cognito = boto3.client("cognito-idp")
    pool_id = str(cognito.create_user_pool(PoolName="tavla-test")["UserPool"]["Id"])
    for group in ("organisers", "admins"):
        cognito.create_group(UserPoolId=pool_id, GroupName=group)
    for user in ("first-admin", "u1", "u2", "u3"):
        cognito.admin_create_user(UserPoolId=pool_id, Username=user)
    cognito.admin_add_user_to_group(UserPoolId=pool_id, Username="first-admin", GroupName="admins")
    monkeypatch.setenv(USER_POOL_ENV, pool_id)
    from tavla.services import roles

    roles._cognito.cache_clear()
    return pool_id


def groups_of(pool_id: str, user: str) -> set[str]:
    found = boto3.client("cognito-idp").admin_list_groups_for_user(UserPoolId=pool_id, Username=user)
    return {g["GroupName"] for g in found["Groups"]}


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Events the publisher put on the bus, as EventBridge events for notify."""
    sent: list[dict[str, Any]] = []

    def put(kind: str, detail: dict[str, Any]) -> None:
        sent.append(
            {"id": f"e{len(sent)}", "detail-type": kind, "time": "2026-12-01T10:00:00Z", "detail": detail}
        )

    monkeypatch.setattr(events, "put_on_bus", bus_taking(put))
    yield sent


def federation_audit() -> list[dict[str, Any]]:
    items = client().query(
        TableName=table_name(MAIN),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": keys.FEDERATION_AUDIT}},
    )["Items"]
    return [{"action": i["action"]["S"], **{k: v["S"] for k, v in i["details"]["M"].items()}} for i in items]


def test_an_admin_grants_the_organisers_role_and_the_user_pool_group_follows(api: Api, pool: str) -> None:
    """R1.3: granted from the API, audited, in the Cognito group (the next token carries it)."""
    create_player(api, "first-admin")
    player = create_player(api, "u1")
    reply = api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": player, "role": "organisers"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert reply.status == 200, reply.body
    assert reply.body == {"tavla_id": player, "role": "organisers", "held": True, "changed": True}
    assert groups_of(pool, "u1") == {"organisers"}
    assert {"action": "role granted", "role": "organisers", "tavla_id": player} in federation_audit()
    again = api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": player, "role": "organisers"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert again.body["changed"] is False
    holders = api.call(
        "GET", "/admin/roles/{role}", params={"role": "organisers"}, user=ADMIN[0], groups=ADMIN[1]
    ).body
    assert [h["tavla_id"] for h in holders] == [player]


def test_revoking_takes_the_group_away(api: Api, pool: str) -> None:
    create_player(api, "first-admin")
    player = create_player(api, "u1")
    params = {"tavla_id": player, "role": "organisers"}
    api.call("PUT", "/admin/roles/{tavla_id}/{role}", params=params, user=ADMIN[0], groups=ADMIN[1])
    reply = api.call(
        "DELETE", "/admin/roles/{tavla_id}/{role}", params=params, user=ADMIN[0], groups=ADMIN[1]
    )
    assert reply.status == 200, reply.body
    assert reply.body["held"] is False and reply.body["changed"] is True
    assert groups_of(pool, "u1") == set()
    assert {"action": "role revoked", "role": "organisers", "tavla_id": player} in federation_audit()


def test_the_last_admin_cannot_be_revoked(api: Api, pool: str) -> None:
    """R1.3: the federation always keeps one admin; the count's condition refuses, nothing changes."""
    me = create_player(api, "first-admin")
    other = create_player(api, "u1")
    params = {"tavla_id": me, "role": "admins"}
    refused = api.call(
        "DELETE", "/admin/roles/{tavla_id}/{role}", params=params, user=ADMIN[0], groups=ADMIN[1]
    )
    assert refused.status == 409 and refused.error == "last_admin"
    assert "at least one admin" in refused.body["error"]["message"]
    assert groups_of(pool, "first-admin") == {"admins"}
    # with a second admin, the first may go; then the second is the last one
    api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": other, "role": "admins"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert groups_of(pool, "u1") == {"admins"}
    gone = api.call("DELETE", "/admin/roles/{tavla_id}/{role}", params=params, user=ADMIN[0], groups=ADMIN[1])
    assert gone.status == 200, gone.body
    last = api.call(
        "DELETE",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": other, "role": "admins"},
        user="u1",
        groups=("admins",),
    )
    assert last.status == 409 and last.error == "last_admin"
    assert groups_of(pool, "u1") == {"admins"}


def test_the_count_refuses_even_when_both_admins_passed_a_read(api: Api, pool: str) -> None:
    """Two admins revoking each other at once: each saw two admins, the second write is refused
    by the count's condition, not by what it read."""
    from tavla import clock
    from tavla.rules.model import Actor
    from tavla.store import audit
    from tavla.store import roles as role_store

    me = create_player(api, "first-admin")
    other = create_player(api, "u1")
    api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": other, "role": "admins"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert role_store.count("admins") == 2
    record = audit.entry(Actor(role="admin"), "role revoked", clock.now())
    assert role_store.revoke("admins", "u1", record) is True
    with pytest.raises(LastAdmin) as refused:
        role_store.revoke("admins", "first-admin", record)
    assert isinstance(refused.value, LastAdmin)
    assert role_store.count("admins") == 1 and me


def test_only_admins_change_roles(api: Api, pool: str) -> None:
    player = create_player(api, "u1")
    create_player(api, "u2")
    params = {"tavla_id": player, "role": "admins"}
    for groups in ((), ("organisers",)):
        reply = api.call("PUT", "/admin/roles/{tavla_id}/{role}", params=params, user="u2", groups=groups)
        assert reply.status == 403
    assert groups_of(pool, "u1") == set()


def test_an_unknown_role_is_refused(api: Api, pool: str) -> None:
    player = create_player(api, "u1")
    reply = api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": player, "role": "referees"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert reply.status == 422
    assert groups_of(pool, "u1") == set()


def test_a_request_to_organise_is_approved_with_notices_both_ways(
    api: Api, pool: str, published: list[dict[str, Any]]
) -> None:
    """R1.3: the player asks (club, reason), the admins hear of it, one approves, the player hears."""
    admin_id = create_player(api, "first-admin")
    api.call("GET", "/admin/organiser-requests", user=ADMIN[0], groups=ADMIN[1])  # the admin is recorded
    player = create_player(api, "u1")
    asked = api.call(
        "POST",
        "/me/organiser-request",
        body={"club": "OA Plakas", "reason": "I run our club nights."},
        user="u1",
    )
    assert asked.status == 201, asked.body
    assert asked.body["status"] == "pending"
    for event in published:
        notify.handler(event, Context())
    admin_feed = api.call("GET", "/me/notifications", user=ADMIN[0]).body
    assert [n["kind"] for n in admin_feed] == ["organiser_request"] and player in admin_feed[0]["message"]
    pending = api.call("GET", "/admin/organiser-requests", user=ADMIN[0], groups=ADMIN[1]).body
    assert [(r["tavla_id"], r["club"]) for r in pending] == [(player, "OA Plakas")]
    published.clear()
    approved = api.call(
        "POST",
        "/admin/organiser-requests/{tavla_id}/approve",
        params={"tavla_id": player},
        body={},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert approved.status == 200, approved.body
    assert approved.body["status"] == "approved"
    assert groups_of(pool, "u1") == {"organisers"}
    for event in published:
        notify.handler(event, Context())
    feed = api.call("GET", "/me/notifications", user="u1").body
    # in the player's language: Greek unless the profile says otherwise
    assert [n["kind"] for n in feed] == ["organiser_decision"] and "εγκρίθηκε" in feed[0]["message"]
    twice = api.call(
        "POST",
        "/admin/organiser-requests/{tavla_id}/refuse",
        params={"tavla_id": player},
        body={},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert twice.status == 409 and twice.error == "not_pending"
    unknown = api.call(
        "POST",
        "/admin/organiser-requests/{tavla_id}/approve",
        params={"tavla_id": "ZZZZZZZ"},
        body={},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert unknown.status == 404 and unknown.error == "request_not_found"
    assert admin_id


def test_a_refused_request_grants_nothing_and_the_player_hears_why(
    api: Api, pool: str, published: list[dict[str, Any]]
) -> None:
    create_player(api, "first-admin")
    player = create_player(api, "u1")
    api.call("POST", "/me/organiser-request", body={"club": "Club 3", "reason": "Please."}, user="u1")
    again = api.call("POST", "/me/organiser-request", body={"club": "Other", "reason": "Again."}, user="u1")
    assert again.body["club"] == "Club 3"  # the pending request stands
    published.clear()
    refused = api.call(
        "POST",
        "/admin/organiser-requests/{tavla_id}/refuse",
        params={"tavla_id": player},
        body={"note": "Ask your club's president."},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert refused.body["status"] == "refused" and refused.body["note"] == "Ask your club's president."
    assert groups_of(pool, "u1") == set()
    for event in published:
        notify.handler(event, Context())
    feed = api.call("GET", "/me/notifications", user="u1").body
    assert "απορρίφθηκε" in feed[0]["message"]  # the player's language: Greek by default


def test_the_local_token_issuer_reads_the_role_records(api: Api, tmp_path: Any) -> None:
    """The local stack has no user pool: its issuer puts the granted roles into the next token."""
    from local.auth import Authority
    from tavla.services import roles

    create_player(api, "first-admin")
    player = create_player(api, "u1")
    api.call(
        "PUT",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": player, "role": "organisers"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    authority = Authority(tmp_path, roles.token_groups)
    assert authority.verify(authority.mint("u1"))["cognito:groups"] == ["organisers"]
    api.call(
        "DELETE",
        "/admin/roles/{tavla_id}/{role}",
        params={"tavla_id": player, "role": "organisers"},
        user=ADMIN[0],
        groups=ADMIN[1],
    )
    assert authority.verify(authority.mint("u1"))["cognito:groups"] == []
