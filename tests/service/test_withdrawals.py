"""One withdrawal (R3.2, R3.5, R8.2) by either route, and the withdrawn and refused players'
ledgers kept on the treasurer's payments list (R3.3)."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Api
from tests.service.day_helpers import checked_in_field, draw, records
from tests.service.helpers import ORGANISER, create_player, create_tournament, register
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
    """R3.2, R3.5: before the draw `POST .../withdrawals` for oneself is the registration's
    withdrawal (refund by the policy, first waiting player promoted), like the DELETE; staff
    naming someone else then get 409 not_drawn, and nothing is withdrawn."""
    tid = create_tournament(api, capacity=2, refund_policy={"kind": "full"})
    leaver, waiting = create_player(api, "leaver"), create_player(api, "waiting")
    create_player(api, "stays")
    assert register(api, tid, "stays").status == 201
    assert register(api, tid, "leaver").status == 201
    assert register(api, tid, "waiting").status == 201
    pay_cash(api, tid, leaver)
    staff = _post(api, tid, leaver, ORGANISER)
    assert (staff.status, staff.error) == (409, "not_drawn")
    reply = _post(api, tid, leaver, "leaver")
    assert reply.status == 201, reply.body
    body = reply.body
    assert (body["stage"], body["refund"], body["refund_due"]["amount"], body["promoted"]) == (
        "before_draw",
        "policy",
        2000,
        waiting,
    )
    again = _delete(api, tid, "leaver")
    assert (again.status, again.error) == (409, "not_registered")


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
