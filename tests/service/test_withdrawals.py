"""One withdrawal (R3.2, R3.5, R8.2) by either route, and the withdrawn and refused players'
ledgers kept on the treasurer's payments list (R3.3)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.conftest import Api, Stream
from tests.service.day_helpers import checked_in_field, draw, records
from tests.service.helpers import ORGANISER, create_player, create_tournament, entries, register
from tests.service.payment_helpers import pay_cash


def _delete(api: Api, tid: str, user: str) -> Any:
    return api.call(
        "DELETE", "/tournaments/{tournament_id}/registrations/me", params={"tournament_id": tid}, user=user
    )


def _post(api: Api, tid: str, tavla_id: str, user: str) -> Any:
    return api.call(
        "POST",
        "/tournaments/{tournament_id}/withdrawals",
        params={"tournament_id": tid},
        body={"tavla_id": tavla_id},
        user=user,
    )


def _ledgers(api: Api, tid: str) -> dict[str, Any]:
    reply = api.call(
        "GET", "/tournaments/{tournament_id}/payments", params={"tournament_id": tid}, user=ORGANISER
    )
    assert reply.status == 200, reply.body
    return {lg["tavla_id"]: lg for lg in reply.body["ledgers"]}


def test_after_the_draw_both_routes_withdraw_the_player_alike(api: Api) -> None:
    """R8.2, R3.5: after the draw `DELETE .../registrations/me` no longer sends the player to
    the referee table: like `POST .../withdrawals` for oneself it forfeits their match now, no
    refund; the two answers have the same shape and say the same; a second try by either route
    is the same 409 already_out."""
    tid, ids = checked_in_field(api, 4)
    assert draw(api, tid).status == 201
    first, second = records(tid)["main.R1.1"].home, records(tid)["main.R1.2"].home
    assert first is not None and second is not None
    one, other = f"player-{ids.index(first)}", f"player-{ids.index(second)}"
    by_delete, by_post = _delete(api, tid, one), _post(api, tid, second, other)
    assert (by_delete.status, by_post.status) == (200, 201), (by_delete.body, by_post.body)
    for reply, who in ((by_delete, first), (by_post, second)):
        assert (reply.body["tavla_id"], reply.body["stage"], reply.body["refund"]) == (
            who,
            "after_draw",
            "none",
        )
        assert reply.body["refund_due"]["amount"] == 0 and len(reply.body["forfeited"]) == 1
    assert set(by_delete.body) == set(by_post.body)
    assert records(tid)["main.R1.1"].result.forfeit is True  # type: ignore[union-attr]
    again = (_delete(api, tid, one), _post(api, tid, first, one))
    assert [(r.status, r.error, r.body["error"]["message"]) for r in again] == [
        (409, "already_out", again[0].body["error"]["message"])
    ] * 2


def test_before_the_draw_both_routes_withdraw_the_entry_with_its_refund(api: Api) -> None:
    """R3.2, R3.5: before the draw `POST .../withdrawals` is the registration's withdrawal
    (refund by the policy, first waiting player promoted), like the DELETE, whether the player
    asks or staff ask for them (recorded as the organiser's); a stranger is refused."""
    tid = create_tournament(api, capacity=2, refund_policy={"kind": "full"})
    leaver, waiting = create_player(api, "leaver"), create_player(api, "waiting")
    create_player(api, "stays")
    assert register(api, tid, "stays").status == 201
    assert register(api, tid, "leaver").status == 201
    assert register(api, tid, "waiting").status == 201
    pay_cash(api, tid, leaver)
    stranger = _post(api, tid, leaver, "stays")
    assert (stranger.status, stranger.error) == (403, "not_staff")
    reply = _post(api, tid, leaver, ORGANISER)
    assert reply.status == 201, reply.body
    body = reply.body
    assert (body["stage"], body["refund"], body["refund_due"]["amount"], body["promoted"]) == (
        "before_draw",
        "policy",
        2000,
        waiting,
    )
    audit = api.call(
        "GET", "/tournaments/{tournament_id}/audit", params={"tournament_id": tid}, user=ORGANISER
    )
    [withdrawn] = [e for e in audit.body["records"] if e["action"] == "withdrawn"]
    assert withdrawn["actor"]["role"] == "organiser"
    again = _delete(api, tid, "leaver")
    assert (again.status, again.error) == (409, "not_registered")
    assert (_post(api, tid, leaver, "leaver").status, _post(api, tid, leaver, "leaver").error) == (
        409,
        "not_registered",
    )


def test_after_the_draw_a_waiting_player_leaves_the_list_with_all_they_paid(api: Api) -> None:
    """R3.2, R3.5: the draw leaves the waiting list as it is; a player on it may leave it by
    either route (they are in no match), with all they paid refunded: they never had a place."""
    tid, _ = checked_in_field(api, 4, refund_policy={"kind": "none"})
    w1, w2 = create_player(api, "w1"), create_player(api, "w2")
    assert [register(api, tid, u).body["status"] for u in ("w1", "w2")] == ["waitlisted"] * 2
    pay_cash(api, tid, w1)
    assert draw(api, tid).status == 201
    reply = _delete(api, tid, "w1")
    assert reply.status == 200, reply.body
    assert (reply.body["stage"], reply.body["refund_due"]["amount"], reply.body["promoted"]) == (
        "before_draw",
        2000,
        None,
    )
    by_staff = _post(api, tid, w2, ORGANISER)
    assert by_staff.status == 201, by_staff.body
    assert [e["tavla_id"] for e in entries(api, tid)["waiting"]] == []
    assert _ledgers(api, tid)[w1]["refund_due"]["amount"] == 2000
    again = _delete(api, tid, "w1")
    assert (again.status, again.error) == (409, "not_in_field")


def test_withdrawn_and_refused_players_stay_on_the_payments_list(api: Api) -> None:
    """R3.3, R3.5: the treasurer's list keeps every entry that ever was: a withdrawn player who
    never paid (status withdrawn, nothing owed), one who paid (their refund due), a refused one."""
    tid = create_tournament(api, capacity=4, requires_approval=True, refund_policy={"kind": "full"})
    never, paid, refused = (create_player(api, u) for u in ("never", "paid", "refused"))
    for user, tavla_id in (("never", never), ("paid", paid), ("refused", refused)):
        assert register(api, tid, user).status == 201
        if user != "refused":
            approve = "/tournaments/{tournament_id}/registrations/{tavla_id}/approve"
            assert (
                api.call(
                    "POST", approve, params={"tournament_id": tid, "tavla_id": tavla_id}, user=ORGANISER
                ).status
                == 200
            )
    refuse = "/tournaments/{tournament_id}/registrations/{tavla_id}/refuse"
    assert (
        api.call("POST", refuse, params={"tournament_id": tid, "tavla_id": refused}, user=ORGANISER).status
        == 200
    )
    pay_cash(api, tid, paid)
    assert _delete(api, tid, "never").status == 200
    assert _delete(api, tid, "paid").status == 200
    ledgers = _ledgers(api, tid)
    assert {t: ledgers[t]["status"] for t in (never, paid, refused)} == {
        never: "withdrawn",
        paid: "withdrawn",
        refused: "refused",
    }
    assert (ledgers[never]["due"]["amount"], ledgers[never]["outstanding"]["amount"]) == (0, 0)
    assert (ledgers[paid]["paid"]["amount"], ledgers[paid]["refund_due"]["amount"]) == (2000, 2000)


def test_a_withdrawal_with_a_promotion_reads_once_and_writes_once(api: Api, stream: Stream) -> None:
    """R3.2, R3.5: the tournament and the caller in one read, the waiting list's head, the
    player's payments only where the policy could give something back, one transaction:
    4 DynamoDB calls with a refund policy, 3 without one (6 before)."""
    from tests.service.helpers import dynamodb_calls

    stream.paused = True  # the publisher's calls are the stream's, not the request's
    for policy, expected in (
        ("full", ["BatchGetItem", "Query", "Query", "TransactWriteItems"]),
        ("none", ["BatchGetItem", "Query", "TransactWriteItems"]),
    ):
        tid = create_tournament(api, capacity=2, refund_policy={"kind": policy}, name=f"Calls {policy}")
        for user in (f"{policy}-stays", f"{policy}-leaver", f"{policy}-waiting"):
            create_player(api, user)
            assert register(api, tid, user).status == 201
        calls = dynamodb_calls(lambda tid=tid, policy=policy: _delete(api, tid, f"{policy}-leaver"))  # type: ignore[misc]
        assert calls == expected, (policy, calls)
        assert f"Player {policy}-waiting" in str(entries(api, tid))


def test_a_withdrawal_with_nobody_waiting_does_not_read_the_waiting_list(
    api: Api, stream: Stream, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R3.2, R3.5: the tournament just read says nobody waits: the snapshot, the player's
    payments, the transaction (3 calls). The transaction is conditioned on nobody waiting, so
    a player who joins the list meanwhile is still promoted (the withdrawal reads it then)."""
    from tavla.store import registrations as registration_store
    from tests.service.helpers import dynamodb_calls

    stream.paused = True
    tid = create_tournament(api, capacity=2, refund_policy={"kind": "full"}, name="Nobody waits")
    for user in ("alone-stays", "alone-leaver", "alone-late"):
        create_player(api, user)
    for user in ("alone-stays", "alone-leaver"):
        assert register(api, tid, user).status == 201
    calls = dynamodb_calls(lambda: _delete(api, tid, "alone-leaver"))
    assert calls == ["BatchGetItem", "Query", "TransactWriteItems"], calls
    assert register(api, tid, "alone-leaver").status == 201  # back on the main list: it is full

    # a player joins the waiting list between the withdrawal's read and its transaction
    original = registration_store.withdraw
    joined: list[int] = []

    def join_first(*args: Any, **kwargs: Any) -> None:
        if not joined:
            joined.append(register(api, tid, "alone-late").status)
        original(*args, **kwargs)

    monkeypatch.setattr(registration_store, "withdraw", join_first)
    assert _delete(api, tid, "alone-leaver").status == 200
    listed = entries(api, tid)
    assert joined == [201]
    assert [e["name"] for e in listed["main"]] == ["Player alone-stays", "Player alone-late"]
    assert listed["waiting"] == []
