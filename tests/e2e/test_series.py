"""A cnb best-of-three series of 7-point matches over HTTP on a local stack of its own (its clock
moves): a break between games is refused, one between the first and the second match is
allowed, its overrun costs a penalty point in the second match by the schedule alone, and the
series ends 2-0 in matches won (cnb 2.2.2, R7.6, R7.7)."""

from __future__ import annotations

from typing import Any

from tests.e2e.client import Client
from tests.e2e.test_adjournment import _match, away_overruns_a_break, cnb_pair_at_table


def test_a_cnb_series_breaks_only_between_matches_and_an_overrun_costs_a_point(fresh_stack_factory) -> None:
    stack = fresh_stack_factory()
    client = Client(stack)
    tid, match, by_id = cnb_pair_at_table(client, stack, "series", series=True)
    h, a = match["home"]["tavla_id"], match["away"]["tavla_id"]
    org = "org-series"

    def game(winner: str, result: str = "single") -> dict[str, Any]:
        version = _match(client, tid, match["code"])["version"]
        body = {"version": version, "game": {"winner": winner, "result": result}}
        reply = client.call("PUT", f"/matches/{match['id']}/score", body, user=by_id[winner])
        assert reply.status == 200, reply.body
        return dict(reply.body)

    game(h, "gammon")  # 2-0 in the first match
    refused = client.call("POST", f"/matches/{match['id']}/breaks", {}, user=by_id[a])
    assert refused.status == 409 and "break_not_between_legs" in str(refused.body), refused.body
    for _ in range(5):
        game(h)
    shown = _match(client, tid, match["code"])
    assert (shown["best_of"], shown["legs"], shown["state"]) == (3, [[7, 0]], "playing"), shown
    assert shown["breaks"]["allowed_now"] is True

    # between the first and the second match: one break each; ends at +5 min, a point 5 min later
    after = away_overruns_a_break(client, tid=tid, match=match, user=by_id[a], stack=stack)
    # the second match starts 1-0 to home: the point the overrun cost away
    assert (after["legs"], after["score"]) == ([[7, 0]], [1, 0]), after
    assert after["breaks"]["overrun_points"] == {"away": 1}
    assert client.call("POST", f"/matches/{match['id']}/breaks/back", {}, user=by_id[a]).status == 200
    for _ in range(3):
        game(h, "gammon")
    final = _match(client, tid, match["code"])
    assert (final["legs"], final["state"]) == ([[7, 0], [7, 0]], "finished"), final
    for who in (h, a):
        body = {"home_points": 2, "away_points": 0}
        reply = client.call("POST", f"/matches/{match['id']}/report", body, user=by_id[who])
        assert reply.status == 200, reply.body
    confirmed = client.call("POST", f"/matches/{match['id']}/confirm", None, user=org)
    assert confirmed.status == 200, confirmed.body
    result = _match(client, tid, match["code"])["result"]
    assert (result["winner"], result["home_points"], result["away_points"]) == (h, 2, 0)
