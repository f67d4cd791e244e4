"""Registration, withdrawal and check-in under concurrency, over HTTP on DynamoDB Local (R3.2, R4.3)."""

from __future__ import annotations

from collections import Counter

from tests.e2e.client import Client, players, tournament


def test_200_simultaneous_registrations_for_64_places(stack) -> None:
    """R3.2: capacity is never exceeded; the waiting list is first come, first served.

    Then 30 simultaneous withdrawals promote exactly the first 30 waiting players, and the
    rest of the waiting list moves up in order.
    """
    client = Client(stack)
    tid = tournament(client, "org-load", capacity=64)
    field = players(client, "load", 200)
    path = f"/tournaments/{tid}/registrations"
    replies = client.parallel([("POST", path, None, {"user": u}) for u in field], workers=100)

    assert Counter(r.status for r in replies) == {201: 200}
    statuses = Counter(r.body["status"] for r in replies)
    assert statuses == {"registered": 64, "waitlisted": 136}
    positions = sorted(r.body["position"] for r in replies if r.body["status"] == "waitlisted")
    assert positions == list(range(1, 137))

    entries = client.call("GET", f"/tournaments/{tid}/entries").body
    main, waiting = entries["main"], entries["waiting"]
    assert len(main) == 64 and len(waiting) == 136
    assert [e["position"] for e in waiting] == list(range(1, 137))
    everyone = [e["tavla_id"] for e in main + waiting]
    assert sorted(everyone) == sorted(field.values())  # nobody twice, nobody lost
    by_user = {field[u]: r.body for u, r in zip(field, replies, strict=True)}
    assert all(by_user[e["tavla_id"]]["position"] == e["position"] for e in waiting)
    counters = client.call("GET", f"/tournaments/{tid}").body
    assert (counters["registered"], counters["waiting"]) == (64, 136)

    user_of = {t: u for u, t in field.items()}
    leavers = [user_of[e["tavla_id"]] for e in main[:30]]
    first_30 = [e["tavla_id"] for e in waiting[:30]]
    withdrawals = client.parallel([("DELETE", f"{path}/me", None, {"user": u}) for u in leavers], workers=30)
    assert Counter(r.status for r in withdrawals) == {200: 30}
    assert sorted(r.body["promoted"] for r in withdrawals) == sorted(first_30)

    after = client.call("GET", f"/tournaments/{tid}/entries").body
    assert len(after["main"]) == 64
    assert {e["tavla_id"] for e in after["main"]} == {e["tavla_id"] for e in main[30:]} | set(first_30)
    assert [e["tavla_id"] for e in after["waiting"]] == [e["tavla_id"] for e in waiting[30:]]
    assert [e["position"] for e in after["waiting"]] == list(range(1, 107))

    stack.drain()
    promoted_user = user_of[first_30[0]]
    feed = client.call("GET", "/me/notifications", user=promoted_user).body
    assert [n["kind"] for n in feed] == ["promoted"]


def test_100_simultaneous_checkins_with_repeats(stack) -> None:
    """R4.3: scanning twice is fine; every player ends checked in exactly once."""
    client = Client(stack)
    tid = tournament(client, "org-checkin", capacity=64)
    referee = players(client, "ref-checkin", 1)
    field = players(client, "present", 60)
    client.call(
        "PUT",
        f"/tournaments/{tid}/staff",
        {"staff": [{"tavla_id": t, "role": "referee"} for t in referee.values()]},
        user="org-checkin",
    )
    regs = client.parallel([("POST", f"/tournaments/{tid}/registrations", None, {"user": u}) for u in field])
    assert all(r.status == 201 for r in regs)
    ids = list(field.values())
    scans = ids + ids[:40]  # 40 players scanned twice, at the same time as everyone else
    referee_user = next(iter(referee))
    replies = client.parallel(
        [("POST", f"/tournaments/{tid}/checkins", {"tavla_id": t}, {"user": referee_user}) for t in scans],
        workers=100,
    )
    assert Counter(r.status for r in replies) == {200: 100}
    first_time = Counter(r.body["tavla_id"] for r in replies if not r.body["already_checked_in"])
    assert first_time == Counter(ids)  # each player checked in once, whatever the interleaving
    entries = client.call("GET", f"/tournaments/{tid}/entries").body
    assert all(e["checked_in"] for e in entries["main"])
    trail = client.call("GET", f"/tournaments/{tid}/audit?limit=500", user="org-checkin").body["records"]
    assert Counter(r["details"]["tavla_id"] for r in trail if r["action"] == "checked_in") == Counter(ids)


def test_places_added_by_the_organiser_go_to_the_waiting_list_in_order(stack) -> None:
    """R3.2: raising capacity promotes the first waiting players; a newcomer still queues."""
    client = Client(stack)
    tid = tournament(client, "org-raise", capacity=4)
    field = players(client, "raise", 9)
    users = list(field)
    for user in users[:8]:
        assert client.call("POST", f"/tournaments/{tid}/registrations", user=user).status == 201
    raised = client.call("PATCH", f"/tournaments/{tid}", {"capacity": 7}, user="org-raise")
    assert raised.status == 200, raised.body
    assert (raised.body["registered"], raised.body["waiting"]) == (7, 1)
    entries = client.call("GET", f"/tournaments/{tid}/entries").body
    assert [e["tavla_id"] for e in entries["main"]] == [field[u] for u in users[:7]]
    late = client.call("POST", f"/tournaments/{tid}/registrations", user=users[8]).body
    assert (late["status"], late["position"]) == ("waitlisted", 2)
    # a withdrawal with nobody to promote frees a place, which the next newcomer may take
    solo = tournament(client, "org-raise", capacity=2)
    assert client.call("POST", f"/tournaments/{solo}/registrations", user=users[0]).status == 201
    left = client.call("DELETE", f"/tournaments/{solo}/registrations/me", user=users[0])
    assert (left.status, left.body["promoted"]) == (200, None)
    assert client.call("GET", f"/tournaments/{solo}").body["registered"] == 0


def test_simultaneous_retries_with_one_idempotency_key_register_once(stack) -> None:
    """A phone that retries a lost registration 5 times at once gets one place, not a 409."""
    client = Client(stack)
    tid = tournament(client, "org-retry", capacity=8)
    (user,) = players(client, "retry", 1)
    key = {"Idempotency-Key": "retry-registration-1"}
    replies = client.parallel(
        [("POST", f"/tournaments/{tid}/registrations", None, {"user": user, "headers": key})] * 5, workers=5
    )
    assert {r.status for r in replies} <= {201, 409}
    done = [r for r in replies if r.status == 201]
    assert done and all(r.body == done[0].body for r in done)
    assert all(r.error == "request_in_progress" for r in replies if r.status == 409)
    again = client.call("POST", f"/tournaments/{tid}/registrations", user=user, headers=key)
    assert (again.status, again.body) == (201, done[0].body)
    assert len(client.call("GET", f"/tournaments/{tid}/entries").body["main"]) == 1
