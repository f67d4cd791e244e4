"""Notices in the player's language: every kind in el, en and it, filled from its fields."""

from __future__ import annotations

import re

import pytest

from tavla import notices

FIELDS = {
    "tournament": "Athens Open",
    "table": 4,
    "match": "R1",
    "opponent": "Nikos",
    "absent": "Nikos",
    "outcome": "upheld",
    "reasoning": "…",
    "deadline": "2026-05-01",
    "season": "2026",
    "place": 3,
    "lives": 2,
    "reply_by": "2027-01-13 06:15",
    "who": "Nikos",
    "club": "OA Plakas",
    "reason": "…",
    "starts": "2027-01-20 10:00",
    "closes": "2027-01-18 20:00",
}
# words any English notice uses, none of which a Greek or Italian one may hold
ENGLISH = re.compile(r"\b(the|your|you|table|match|please|place|pay|appeal|nobody|invited)\b", re.I)


@pytest.mark.parametrize("kind", sorted(notices.CATALOGUE))
def test_every_notice_kind_has_all_three_languages(kind: str) -> None:
    assert set(notices.CATALOGUE[kind]) == set(notices.LANGUAGES)
    for language in notices.LANGUAGES:
        assert notices.render(kind, language, FIELDS).strip()


@pytest.mark.parametrize("kind", sorted(notices.CATALOGUE))
def test_a_greek_players_notice_has_no_english_sentence(kind: str) -> None:
    text = notices.render(kind, "el", FIELDS)
    assert not ENGLISH.search(text.replace("Athens Open", "")), text
    assert re.search("[\u0370-\u03ff]", text)  # Greek letters


def test_the_language_is_the_players_else_the_federations() -> None:
    assert notices.language_of("en", "cnb") == "en"
    assert notices.language_of(None, "hbf") == "el"
    assert notices.language_of(None, "cnb") == "it"
    assert notices.language_of(None, "platform") == "el"
    assert notices.language_of("fr", "cnb") == "it"  # not one of ours: the federation's
    assert notices.render("appeal_decided", "it", FIELDS).startswith("Il ricorso") and "accolto" in (
        notices.render("appeal_decided", "it", FIELDS)
    )


def test_a_deadline_reads_as_the_venues_clock_shows_it_never_as_a_utc_stamp() -> None:
    """R3.3, R10.4: 22:01 UTC on 3 December is 00:01 on the 4th in Athens and 23:01 in Rome; a
    player reads the deadline of their own hall, 24-hour, with no ISO "T" or offset."""
    invitation = {**FIELDS, "reply_by": "2026-12-03T22:01:00+00:00"}
    assert "04/12/2026 00:01" in notices.render("super_final_by", "el", invitation)
    assert "03/12/2026 23:01" in notices.render("super_final_by", "it", invitation, rule_profile="cnb")
    payment = {**FIELDS, "deadline": "2026-12-03T22:00:00+00:00"}
    text = notices.render("payment_due", "el", payment, "Europe/Athens")
    assert "04/12/2026 00:00" in text and "T22" not in text and "+00:00" not in text
    assert "UTC" not in notices.render("super_final_by", "en", invitation)
