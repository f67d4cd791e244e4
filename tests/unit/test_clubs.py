"""Free-text clubs grouped for the one-time mapping (R1.2): one club typed several ways is one group."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tavla.rules.clubs import folded, near, near_duplicates


def test_the_federations_three_spellings_make_two_clubs() -> None:
    """R1.2: "OA Plakas" and "O.A. Plakas" are one club; "Club 3" is another."""
    groups = near_duplicates({"Club 3": 4, "OA Plakas": 7, "O.A. Plakas": 2, "club 3 ": 1})
    assert [[s.name for s in g.spellings] for g in groups] == [
        ["OA Plakas", "O.A. Plakas"],
        ["Club 3", "club 3 "],
    ]
    assert [g.players for g in groups] == [9, 5]


def test_accents_case_and_a_typo_do_not_split_a_club_but_other_clubs_stay_apart() -> None:
    groups = near_duplicates({"Όμιλος Τάβλι Πειραιά": 3, "ομιλος ταβλι πειραια": 1, "Omilos Tavli Pireas": 1})
    assert [s.name for s in groups[0].spellings] == ["Όμιλος Τάβλι Πειραιά", "ομιλος ταβλι πειραια"]
    assert near(folded("Backgammon Club Athens"), folded("Backgamon Club Athens"))
    assert not near(folded("Club 3"), folded("Club 4 Patras"))


def test_a_name_with_nothing_to_compare_is_left_out() -> None:
    assert near_duplicates({"...": 2, "-": 1}) == []


names = st.text(alphabet=st.sampled_from("ab .-\u00c1\u00e1\u0391\u03b13"), min_size=1, max_size=12)


@settings(deadline=None)  # a loaded machine's pause is no failure
@given(st.dictionaries(names, st.integers(min_value=1, max_value=50), max_size=12))
def test_every_spelling_lands_in_exactly_one_group_with_its_count(counts: dict[str, int]) -> None:
    """Nothing is lost or counted twice: the admin's worklist covers every player."""
    groups = near_duplicates(counts)
    listed = [s for g in groups for s in g.spellings]
    assert sorted(s.name for s in listed) == sorted(n for n in counts if folded(n))
    assert all(s.players == counts[s.name] for s in listed)


@given(names)
def test_folding_is_idempotent_and_blind_to_punctuation_and_case(name: str) -> None:
    assert folded(folded(name)) == folded(name)
    assert folded(name.upper().replace(" ", ".")) == folded(name)


def test_club_protection_compares_the_club_records_not_their_spellings() -> None:
    """R5.2: two members of one club typed differently are clubmates; two clubs sharing a name
    are not; a club still typed as text is compared as typed."""
    from tavla.services.day import entrants
    from tavla.store.records import FieldRecord

    field = FieldRecord(
        tournament_id="t",
        fixed_at="2026-12-01T10:00:00+00:00",
        entrants=(
            {"player_id": "A", "club": "OA Plakas", "club_id": "CLUB111"},
            {"player_id": "B", "club": "O.A. Plakas", "club_id": "CLUB111"},
            {"player_id": "C", "club": "Club 3", "club_id": "CLUB222"},
            {"player_id": "D", "club": "Club 3", "club_id": "CLUB333"},
            {"player_id": "E", "club": "Club 9"},
        ),
    )
    clubs = {e.player_id: e.club for e in entrants(field)}
    assert clubs["A"] == clubs["B"] and clubs["C"] != clubs["D"] and clubs["E"] == "Club 9"
