"""Retention periods and pseudonyms (R12, GDPR Art. 5(1)(e) and 17)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tavla.rules import privacy

NOW = datetime(2026, 12, 2, 3, 45, tzinfo=UTC)


def test_periods_come_from_one_place_and_each_can_be_set_per_deployment() -> None:
    """R12: the defaults, and `RETENTION_<NAME>` (days) overriding only the one it names."""
    assert privacy.Periods.from_env({}) == privacy.Periods()
    set_ = privacy.Periods.from_env({"RETENTION_NOTIFICATIONS": "30", "RETENTION_OTHER": "1"})
    assert set_ == privacy.Periods(notifications=30)
    cutoffs = set_.cutoffs(NOW)
    assert cutoffs.notified_before == NOW - timedelta(days=30)
    assert cutoffs.last_entry_before == NOW - timedelta(days=3 * 365)
    assert cutoffs.matched_before == NOW  # a matched payer's name is due at once


def test_money_records_are_kept_by_the_federations_law() -> None:
    """Greece 5 years, Italy 10, anything else the longer until the federation sets its own."""
    assert privacy.money_kept_until("2026-11-30", "hbf") == "2031-12-31"
    assert privacy.money_kept_until("2026-11-30", "cnb") == "2036-12-31"
    assert privacy.money_kept_until("2026-11-30", "platform") == "2036-12-31"
    assert privacy.money_kept_until(None, "cnb") is None


@given(st.randoms(use_true_random=False))
def test_a_pseudonym_is_drawn_from_the_typable_alphabet_and_says_it_is_one(rng: random.Random) -> None:
    name = privacy.pseudonym(rng)
    assert privacy.is_pseudonym(name) and name.startswith("Player ")
    assert not set(name.removeprefix("Player ")) & set("01ILOU")
    assert not privacy.is_pseudonym("Player 7") and not privacy.is_pseudonym("Eleni Papadaki")


_ids = st.sampled_from(["AAA", "BBB", "CCC"])
_leaf = st.one_of(st.none(), st.integers(), st.text(max_size=3))
_docs = st.recursive(
    _leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.fixed_dictionaries(
            {"tavla_id": _ids, "name": st.text(max_size=4)}, optional={"club": st.text(), "x": inner}
        ),
        st.dictionaries(st.sampled_from(["rows", "player", "events", "player_id"]), inner, max_size=3),
    ),
    max_leaves=12,
)


def _get(doc: object, path: privacy.Path) -> object:
    for part in path:
        doc = doc[part]  # type: ignore[index]
    return doc


@given(_docs)
def test_every_name_and_club_of_the_player_is_found_and_nothing_of_anyone_else(doc: object) -> None:
    """Each path found is the player's name or club, beside the player's own id; every name the
    player has in the document is found."""
    found = privacy.name_paths(doc, "AAA")
    for path, owner in found:
        assert _get(doc, owner) == "AAA" and path[:-1] == owner[:-1]
        assert path[-1] in (*privacy.NAME_FIELDS, *privacy.DROPPED_FIELDS)

    def names_of_aaa(value: object, at: privacy.Path = ()) -> set[privacy.Path]:
        out: set[privacy.Path] = set()
        if isinstance(value, dict):
            if value.get("tavla_id") == "AAA" or value.get("player_id") == "AAA":
                out |= {(*at, k) for k in value if k in ("name", "club")}
            for k, v in value.items():
                if (*at, k) not in out:
                    out |= names_of_aaa(v, (*at, k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                out |= names_of_aaa(v, (*at, i))
        return out

    assert {p for p, _ in found} == names_of_aaa(doc)
