"""`make smoke` walks the critical path against the local stack before it ever meets
a deployed one: it passes, says so step by step, and leaves the tournament finished. And the
restore drill of docs/restore.md, on the same local stack."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import requests

from tavla.store.schema import TABLES
from tests.e2e.conftest import ROOT, Stack
from tools import tables
from tools.smoke import DevTokens, Smoke


def test_smoke_walks_the_critical_path_and_cleans_up(stack: Stack) -> None:
    """R2-R10 in one pass: create, register, check in, draw, report + confirm, board, finish."""
    printed: list[str] = []
    smoke = Smoke(stack.url, DevTokens(stack.url), out=printed.append)
    tournament_id = smoke.run()
    assert [line.split(" (")[0] for line in printed] == [
        "ok sign in an organiser and two players",
        "ok create a tournament",
        "ok players create their profiles and register",
        "ok check in at the referee table",
        "ok draw round 1",
        "ok players report the result, the organiser confirms it",
        "ok the public board shows the result",
        "ok clean up",
    ]
    page = requests.get(f"{stack.url}/tournaments/{tournament_id}", timeout=10).json()
    assert page["status"] == "finished" and page["name"].startswith("[smoke] ")


def test_make_smoke_exits_non_zero_when_a_step_fails(stack: Stack) -> None:
    """The command CI runs: exit 0 on a pass; a URL that is not Tavla fails the first step."""
    passed = subprocess.run(
        [sys.executable, "-m", "tools.smoke", stack.url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "smoke test passed: 8 steps" in passed.stdout
    failed = subprocess.run(
        [sys.executable, "-m", "tools.smoke", f"{stack.url}/nowhere"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert failed.returncode == 1 and "FAILED sign in" in failed.stdout


def test_restore_drill_export_wipe_import_brings_the_platform_back(
    fresh_stack_factory: Any, tmp_path: Path
) -> None:
    """docs/restore.md, tried: every table exported, every item lost, the export imported:
    the tournament, its result and its board are back as they were. On a stack of its own,
    so that the disaster touches no other test's data; its clock three days ahead of this
    machine's, which the smoke's dates follow (the platform's `Date`)."""
    stack = fresh_stack_factory()
    stack.advance(3 * 24 * 3600)
    smoke = Smoke(stack.url, DevTokens(stack.url), out=lambda _: None)
    tournament_id = smoke.run()
    stack.drain()  # the live deltas the day left pending move the board's `seq` until delivered
    board_before = requests.get(f"{stack.url}/tournaments/{tournament_id}/board", timeout=10).json()
    dynamodb = tables.client(stack.endpoints["DynamoDB Local"])
    names = {spec.name: tables.local_name(spec.name) for spec in TABLES}
    exported = tables.export(dynamodb, names, tmp_path)
    assert exported["main"] > 0

    for spec in TABLES:  # the disaster: every item of every table gone
        keys = [spec.partition, *([spec.sort] if spec.sort else [])]
        for page in dynamodb.get_paginator("scan").paginate(TableName=names[spec.name]):
            for item in page["Items"]:
                dynamodb.delete_item(TableName=names[spec.name], Key={k: item[k] for k in keys})
    assert requests.get(f"{stack.url}/tournaments/{tournament_id}", timeout=10).status_code == 404

    assert tables.import_(dynamodb, names, tmp_path) == exported
    page = requests.get(f"{stack.url}/tournaments/{tournament_id}", timeout=10).json()
    assert page["status"] == "finished"
    board_after = requests.get(f"{stack.url}/tournaments/{tournament_id}/board", timeout=10).json()
    assert board_after == board_before
