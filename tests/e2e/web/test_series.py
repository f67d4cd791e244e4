"""A cnb best-of-three series on a phone (cnb 2.2.2): the match screen says it is a series,
shows no break button between the games of a match (a note says why), shows the first match's
score and the matches won once it is over, and the break button then; 0 serious axe violations."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.client import Client
from tests.e2e.conftest import Stack
from tests.e2e.web.conftest import Phone, accessible_in_every_language, screenshot, sign_in
from tests.e2e.web.test_breaks import cnb_pair_at_table


def test_a_series_shows_its_matches_and_a_break_only_between_them(phone: Phone, stack: Stack) -> None:
    client = Client(stack)
    names = ("Άννα Σειρά", "Μπόρις Σειρά")
    tid, match, anna_id, (anna_user, _) = cnb_pair_at_table(client, stack, "series", names, series=True)

    def anna_wins(result: str) -> None:
        version = client.call("GET", f"/matches/{match['id']}").body["version"]
        game = {"version": version, "game": {"winner": anna_id, "result": result}}
        assert client.call("PUT", f"/matches/{match['id']}/score", game, user=anna_user).status == 200

    anna_wins("single")
    anna = phone()
    sign_in(anna, anna_user)
    anna.goto(f"/#/t/{tid}/match")
    expect(anna.get_by_test_id("match-state")).to_contain_text("καλύτερος στους τρεις αγώνες των 7 πόντων")
    breaks = anna.get_by_test_id("breaks")
    expect(breaks).to_contain_text("διάλειμμα μόνο ανάμεσα σε δύο αγώνες")
    expect(breaks.get_by_role("button", name="Διάλειμμα τώρα")).to_have_count(0)

    for result in ("backgammon", "gammon", "single"):  # 7-0: the first match is over
        anna_wins(result)
    anna.reload()
    legs = anna.get_by_test_id("legs")
    # home first, whichever of the two the draw made home
    anna_1, boris_0 = "Άννα Σειρά 1 – 0 Μπόρις Σειρά", "Μπόρις Σειρά 0 – 1 Άννα Σειρά"
    expect(legs).to_contain_text(re.compile(f"Αγώνες: ({anna_1}|{boris_0})"))
    expect(legs).to_contain_text(re.compile("1ος αγώνας: (7 – 0|0 – 7)"))
    live = re.compile("Άννα Σειρά 7 – 0 Μπόρις Σειρά|Μπόρις Σειρά 0 – 7 Άννα Σειρά")
    expect(anna.get_by_test_id("live-score")).to_contain_text(live)
    take = breaks.get_by_role("button", name="Διάλειμμα τώρα")
    expect(take).to_have_count(1)
    screenshot(anna, "my-match-series")
    accessible_in_every_language(anna, "[data-testid=legs]")
    take.click()
    expect(breaks.get_by_role("status")).to_contain_text(
        re.compile(r"Διάλειμμα: Άννα Σειρά, έως \d\d:\d\d:\d\d")
    )
