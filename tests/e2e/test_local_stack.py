"""The local stack plays API Gateway, the JWT authorizer, EventBridge and Scheduler faithfully."""

from __future__ import annotations

import json
import time
import uuid
from datetime import datetime, timedelta

import boto3
import jwt
import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa

from local.auth import AUDIENCE, ISSUER, Authority
from local.env import (
    EVENT_BUS,
    REGION,
    SCHEDULER_GROUP,
    SCHEDULER_ROLE_ARN,
    function_arn,
    handler_environment,
)
from tavla import schedules

pytestmark = pytest.mark.e2e


def aws(stack, service):
    return boto3.client(
        service,
        endpoint_url=stack.endpoints["moto"],
        region_name=REGION,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def create_profile(stack, user, name, phone=None):
    body = {"name": name, **({"phone": phone} if phone else {})}
    response = requests.post(f"{stack.url}/players", json=body, headers=stack.headers(user), timeout=30)
    assert response.status_code == 201, response.text
    return response.json()["tavla_id"]


def notifications(stack, user):
    response = requests.get(f"{stack.url}/me/notifications", headers=stack.headers(user), timeout=30)
    assert response.status_code == 200, response.text
    body = response.json()
    return body if isinstance(body, list) else body.get("notifications", body.get("items", []))


def test_openapi_document_is_served_through_its_function(stack):
    response = requests.get(f"{stack.url}/openapi.json", timeout=30)
    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert "/tournaments/{tournament_id}/registrations" in document["paths"]


def test_a_phone_with_the_current_copy_of_a_public_page_gets_a_bodiless_304(stack):
    """If-None-Match reaches the function and its 304 reaches the phone."""
    organiser = stack.headers(f"org-{uuid.uuid4().hex[:8]}", ["organisers"])
    body = {
        "name": "Cache Cup",
        "venue": "Kafeneio",
        "city": "Patras",
        "starts_at": (datetime.now().astimezone() + timedelta(days=10)).isoformat(),
        "registration_closes_at": (datetime.now().astimezone() + timedelta(days=9)).isoformat(),
        "capacity": 8,
        "entry_fee": {"amount": 1000, "currency": "EUR"},
        "format": "single_elimination",
    }
    created = requests.post(f"{stack.url}/tournaments", json=body, headers=organiser, timeout=30)
    assert created.status_code == 201, created.text
    page = f"{stack.url}/tournaments/{created.json()['id']}"
    phone = requests.Session()  # one kept-alive connection, as a phone polls
    first = phone.get(page, timeout=30)
    assert first.status_code == 200 and first.headers["cache-control"] == "public, max-age=5"
    again = phone.get(page, headers={"If-None-Match": first.headers["etag"]}, timeout=30)
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"] and "content-length" not in again.headers
    after = phone.get(page, timeout=30)  # the connection still works after a bodiless answer
    assert after.status_code == 200 and after.json() == first.json()


def test_docs_serve_swagger_ui_from_node_modules(stack):
    page = requests.get(f"{stack.url}/docs", timeout=30)
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "/openapi.json" in page.text
    bundle = requests.get(f"{stack.url}/docs/swagger-ui-bundle.js", timeout=30)
    assert bundle.status_code == 200
    assert len(bundle.content) > 100_000


def test_unknown_route_is_api_gateways_own_404(stack):
    """API Gateway answers an unknown route itself, in its own body (API.md)."""
    response = requests.get(f"{stack.url}/no/such/route", timeout=30)
    assert response.status_code == 404
    assert response.json() == {"message": "Not Found"}


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "QUERY"])
def test_a_method_no_route_serves_is_a_404_json_error_not_a_server_error(stack, method):
    """As API Gateway answers it; http.server alone would send a 501 HTML page."""
    response = requests.request(method, f"{stack.url}/privacy", timeout=30)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()


def test_signed_in_route_without_token_is_refused_before_the_handler(stack):
    """The JWT authorizer refuses in API Gateway's own body (API.md)."""
    response = requests.get(f"{stack.url}/me", timeout=30)
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized"}


def test_path_parameters_reach_the_handler_decoded(stack):
    """`/tournaments/%C3%A9` asks for tournament "é", as API Gateway hands it on."""
    response = requests.get(f"{stack.url}/tournaments/%C3%A9", timeout=30)
    assert response.status_code == 404
    assert response.json()["error"] == {"code": "tournament_not_found", "message": "No tournament é."}


@pytest.mark.parametrize("kind", ["forged", "expired", "wrong_audience", "wrong_issuer", "garbage"])
def test_invalid_tokens_are_refused_with_401(stack, kind):
    now = int(time.time())
    claims = {"sub": "mallory", "iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + 3600}
    real_key = Authority(stack.data_dir)._private  # the stack's own signing key
    if kind == "forged":
        other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        token = jwt.encode(claims, other, algorithm="RS256")
    elif kind == "expired":
        token = jwt.encode({**claims, "exp": now - 60}, real_key, algorithm="RS256")
    elif kind == "wrong_audience":
        token = jwt.encode({**claims, "aud": "someone-else"}, real_key, algorithm="RS256")
    elif kind == "wrong_issuer":
        token = jwt.encode({**claims, "iss": "https://evil.example"}, real_key, algorithm="RS256")
    else:
        token = "not.a.jwt"
    response = requests.get(f"{stack.url}/me", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert response.status_code == 401, response.text
    assert response.json() == {"message": "Unauthorized"}


def test_minted_token_reaches_the_handler_as_the_caller(stack):
    user = f"user-{uuid.uuid4().hex[:8]}"
    tavla_id = create_profile(stack, user, "Eleni Papadopoulou")
    me = requests.get(f"{stack.url}/me", headers=stack.headers(user, ["organisers"]), timeout=30)
    assert me.status_code == 200
    assert me.json()["tavla_id"] == tavla_id


def test_concurrent_requests_each_see_their_own_caller(stack):
    """Lambda runs one event per environment: 40 users at once each get their own profile."""
    from concurrent.futures import ThreadPoolExecutor

    users = [f"par-{uuid.uuid4().hex[:8]}" for _ in range(40)]

    def create(user):
        return user, requests.post(
            f"{stack.url}/players", json={"name": user}, headers=stack.headers(user), timeout=60
        )

    with ThreadPoolExecutor(max_workers=40) as pool:
        results = list(pool.map(create, users))
    assert all(r.status_code == 201 for _, r in results), [r.text for _, r in results if r.status_code != 201]
    for user, _ in results[:10]:
        me = requests.get(f"{stack.url}/me", headers=stack.headers(user), timeout=30).json()
        assert me["name"] == user


def test_bus_event_reaches_the_function_listening_for_it(stack):
    user = f"bus-{uuid.uuid4().hex[:8]}"
    tavla_id = create_profile(stack, user, "Bus Rider")
    detail = {"tavla_id": tavla_id, "tournament_id": "t-bus", "tournament_name": "Bus Cup"}
    aws(stack, "events").put_events(
        Entries=[
            {
                "Source": "tavla",
                "DetailType": "RegistrationPromoted",
                "Detail": json.dumps(detail),
                "EventBusName": EVENT_BUS,
            }
        ]
    )
    stack.drain()
    assert any("Bus Cup" in n["message"] for n in notifications(stack, user))


def test_events_from_another_source_are_not_delivered(stack):
    user = f"nobus-{uuid.uuid4().hex[:8]}"
    tavla_id = create_profile(stack, user, "Not Promoted")
    detail = {"tavla_id": tavla_id, "tournament_id": "t-x", "tournament_name": "Spoof Cup"}
    aws(stack, "events").put_events(
        Entries=[
            {
                "Source": "spoof",
                "DetailType": "RegistrationPromoted",
                "Detail": json.dumps(detail),
                "EventBusName": EVENT_BUS,
            }
        ]
    )
    stack.drain()
    assert not any("Spoof Cup" in n["message"] for n in notifications(stack, user))


def test_one_time_schedule_fires_when_the_clock_reaches_it(stack):
    user = f"sched-{uuid.uuid4().hex[:8]}"
    tavla_id = create_profile(stack, user, "Scheduled Player")
    now = datetime.fromisoformat(stack.now())
    at = (now + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M:%S")
    name = f"test-{uuid.uuid4().hex[:8]}"
    event = {
        "id": str(uuid.uuid4()),
        "detail-type": "RegistrationPromoted",
        "source": "tavla",
        "time": now.isoformat(),
        "detail": {"tavla_id": tavla_id, "tournament_id": "t-s", "tournament_name": "Scheduled Cup"},
    }
    scheduler = aws(stack, "scheduler")
    scheduler.create_schedule(
        Name=name,
        GroupName=SCHEDULER_GROUP,
        ScheduleExpression=f"at({at})",
        ScheduleExpressionTimezone="UTC",
        FlexibleTimeWindow={"Mode": "OFF"},
        Target={"Arn": function_arn("notify"), "RoleArn": SCHEDULER_ROLE_ARN, "Input": json.dumps(event)},
        ActionAfterCompletion="DELETE",
    )
    assert name not in stack.tick()
    # other tests' schedules on this shared stack may fall due meanwhile: only this one is asked after
    assert name not in stack.advance(9 * 60)["fired"]
    assert name in stack.advance(61)["fired"]
    assert any("Scheduled Cup" in n["message"] for n in notifications(stack, user))
    with pytest.raises(scheduler.exceptions.ResourceNotFoundException):
        scheduler.get_schedule(Name=name, GroupName=SCHEDULER_GROUP)


@pytest.fixture
def as_a_handler(stack, monkeypatch):
    """This process, with the environment the stack gives its handlers (to call tavla modules)."""
    for name, value in handler_environment(
        stack.endpoints["DynamoDB Local"], stack.endpoints["moto"]
    ).items():
        monkeypatch.setenv(name, value)
    schedules._client.cache_clear()
    yield
    schedules._client.cache_clear()


def _promoted(stack, tavla_id, tournament, time):
    return {
        "id": str(uuid.uuid4()),
        "detail-type": "RegistrationPromoted",
        "source": "tavla",
        "time": time,
        "detail": {"tavla_id": tavla_id, "tournament_id": "t-s", "tournament_name": tournament},
    }


def test_a_schedule_made_by_tavla_schedules_fires_by_the_platform_clock(stack, as_a_handler):
    """a deadline scheduled through tavla.schedules fires locally once the
    clock (/dev/clock) reaches it, once, and is gone afterwards."""
    user = f"sched-{uuid.uuid4().hex[:8]}"
    tavla_id = create_profile(stack, user, "Scheduled Player")
    now = datetime.fromisoformat(stack.now())
    name = schedules.schedule_name("e2e", uuid.uuid4().hex)
    event = _promoted(stack, tavla_id, "Module Cup", now.isoformat())
    schedules.create_once(name, now + timedelta(minutes=10), "notify", event)
    schedules.create_once(name, now + timedelta(minutes=10), "notify", event)  # a retried caller
    # other tests' schedules on this shared stack may fall due meanwhile: only this one is counted
    assert name not in stack.advance(9 * 60)["fired"]
    assert [f for f in stack.advance(61)["fired"] if f == name] == [name]
    assert [n["message"] for n in notifications(stack, user) if "Module Cup" in n["message"]]
    assert name not in stack.advance(600)["fired"]
    schedules.delete(name)  # already gone: fine


def test_a_schedule_whose_target_keeps_failing_is_parked_in_view(stack, as_a_handler):
    """retried, then parked where an operator sees it (GET /dev/dead-letters)."""
    now = datetime.fromisoformat(stack.now())
    name = schedules.schedule_name("e2e-failing", uuid.uuid4().hex)
    event = _promoted(stack, "AAAAAAA", "Broken Cup", "not a time")
    schedules.create_once(name, now + timedelta(seconds=30), "notify", event)
    for _ in range(5):
        stack.advance(31)
    parked = requests.get(f"{stack.url}/dev/dead-letters", timeout=10).json()["parked"]
    (entry,) = [p for p in parked if p["name"] == name]
    assert entry["source"] == "schedule" and entry["function"] == "notify" and entry["attempts"] >= 2
    assert entry["event"] == event
    assert "DEAD LETTER" in stack.log()


def test_data_and_tokens_survive_a_restart(fresh_stack_factory, tmp_path):
    first = fresh_stack_factory(tmp_path / "data")
    token = first.token("restart-user")
    tavla_id = create_profile(first, "restart-user", "Nikos Restart")
    first.stop()
    second = fresh_stack_factory(tmp_path / "data")
    me = requests.get(f"{second.url}/me", headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert me.status_code == 200, me.text
    assert me.json()["tavla_id"] == tavla_id
