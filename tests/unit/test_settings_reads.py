"""The services read a tournament's settings through the typed values the store parses once
(`TournamentRecord.play`, `money`, `registration`, `prizes`, `page`, `lifecycle`), never the
stored dict: a default or a stored format is then decided in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICES = Path(__file__).resolve().parents[2] / "shared" / "tavla" / "services"


def _is_settings(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "settings") or (
        isinstance(node, ast.Name) and node.id == "settings"
    )


def _reads_by_key(node: ast.Subscript | ast.Call) -> bool:
    if isinstance(node, ast.Subscript):
        return _is_settings(node.value)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and _is_settings(node.func.value)
    )


def raw_reads(source: str) -> list[int]:
    """Lines reading a `settings` dict by key: `….settings.get(…)` or `….settings[…]`."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript | ast.Call) and _reads_by_key(node)
    )


@pytest.mark.parametrize(
    "source",
    [
        'x = t.settings.get("city")',
        'x = t.settings["name"]',
        'x = settings.get("level") or "local"',
        'def f(t):\n    return str(t.settings["cancelled_at"])',
    ],
)
def test_the_scan_finds_a_raw_read(source: str) -> None:
    assert raw_reads(source)


def test_the_scan_leaves_typed_reads_and_whole_dict_uses_alone() -> None:
    source = "a = t.page.city\nb = t.lifecycle.unrated_at\nc = {**t.settings}\nd = t.settings.items()\n"
    assert raw_reads(source) == []


def test_no_service_reads_the_raw_settings_dict() -> None:
    found = {
        f"{path.name}:{line}"
        for path in sorted(SERVICES.rglob("*.py"))
        for line in raw_reads(path.read_text(encoding="utf-8"))
    }
    assert not found, f"read the typed settings (TournamentRecord.play/money/page/lifecycle ...): {found}"
