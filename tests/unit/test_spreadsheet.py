"""CSV cells are text a spreadsheet never runs (R2.3, R3.3): a formula start is neutralised at
the beginning and after any separator a spreadsheet's locale could split on."""

from __future__ import annotations

import pytest

from tavla.spreadsheet import cell


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("Eve;=1+2", "Eve;'=1+2"),
        ("R,@SUM(A1)", "R,'@SUM(A1)"),
        ("a; -2+3", "a; '-2+3"),
        ("x\t+1", "x\t'+1"),
        ("line\n=cmd|' /C calc'!A0", "line\n'=cmd|' /C calc'!A0"),
        ("Jean-Luc Dupont", "Jean-Luc Dupont"),
        ("Athens Open 2026", "Athens Open 2026"),
    ],
)
def test_no_cell_can_start_a_formula(value: str, written: str) -> None:
    assert cell(value) == written


def test_numbers_stay_numbers_and_none_is_empty() -> None:
    """A refund's -500 cents is a number in the export, not text."""
    assert (cell(-500), cell(0), cell(None), cell(True)) == (-500, 0, "", "yes")
