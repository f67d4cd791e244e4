"""The e2e tests run against the local stack over real HTTP, on DynamoDB Local.

`stack` starts `python -m local --port 0 --no-demo` once per session in a temporary data
folder (a subprocess, so the HTTP server, the Lambda environments and the JVM all stop
with it), and stops it afterwards. Mark e2e tests `@pytest.mark.e2e`.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 180  # includes `npm ci` on a fresh clone
# a drain (or a clock move) delivers every event pending on the stack, also the backlog an earlier
# test on it left (a day of hundreds of results: minutes on a loaded 2-core machine)
BACKLOG_SECONDS = 300


class Stack:
    """A running local stack: its URL, tokens, and the levers tests pull (clock, bus)."""

    def __init__(self, data_dir: Path, workers: int = 6) -> None:
        self.data_dir = data_dir
        self.workers = workers
        self.log_path = data_dir / "stack.log"
        self.url = ""
        self.endpoints: dict[str, str] = {}
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> Stack:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0  # a restart appends
        log = self.log_path.open("ab")
        command = [
            sys.executable,
            "-m",
            "local",
            "--port",
            "0",
            "--no-demo",
            "--data-dir",
            str(self.data_dir),
        ]
        self._process = subprocess.Popen(
            [*command, "--workers", str(self.workers)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            banner = self.log_path.read_bytes()[offset:].decode(errors="replace")
            if match := re.search(r"^\s+API:\s+(\S+)", banner, re.M):
                self.url = match.group(1)
                self.endpoints = dict(
                    re.findall(r"^\s+(DynamoDB Local|moto|fake card provider):\s+(\S+)", banner, re.M)
                )
                return self
            if self._process.poll() is not None:
                raise RuntimeError(f"the local stack exited during start:\n{banner[-4000:]}")
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the local stack did not start within {STARTUP_SECONDS} s")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def token(self, user: str, groups: Sequence[str] = ()) -> str:
        response = requests.post(
            f"{self.url}/dev/token", json={"user": user, "groups": list(groups)}, timeout=10
        )
        response.raise_for_status()
        return str(response.json()["token"])

    def headers(self, user: str, groups: Sequence[str] = ()) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user, groups)}"}

    def advance(self, seconds: float) -> dict[str, Any]:
        """Move the platform's clock forward, fire due schedules and deliver bus events."""
        response = requests.post(
            f"{self.url}/dev/clock", json={"advance_seconds": seconds}, timeout=BACKLOG_SECONDS
        )
        response.raise_for_status()
        return dict(response.json())

    def advance_to(self, moment: datetime) -> dict[str, Any]:
        """Move the platform's clock on to `moment`, or not at all when an earlier test on this
        stack already moved it past (the clock only goes forward)."""
        return self.advance(max(0.0, (moment - datetime.fromisoformat(self.now())).total_seconds()))

    def now(self) -> str:
        return str(self.advance(0)["now"])

    def tick(self) -> list[str]:
        response = requests.post(f"{self.url}/dev/tick", timeout=BACKLOG_SECONDS)
        response.raise_for_status()
        return list(response.json()["fired"])

    def drain(self) -> int:
        """Deliver every pending bus event now; returns how many were delivered."""
        response = requests.post(f"{self.url}/dev/drain", timeout=BACKLOG_SECONDS)
        response.raise_for_status()
        return int(response.json()["delivered"])

    def faults(self, **fault: Any) -> dict[str, Any]:
        """Switch the DynamoDB write faults (`local.faults`); no argument: off. Returns the
        switch's state as it was, with how many writes it saw and failed."""
        was = requests.get(f"{self.url}/dev/faults", timeout=10).json()
        response = requests.post(f"{self.url}/dev/faults", json=fault, timeout=10)
        response.raise_for_status()
        return dict(was)

    def sms(self) -> list[dict[str, str]]:
        response = requests.get(f"{self.url}/dev/sms", timeout=10)
        response.raise_for_status()
        return list(response.json()["messages"])


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("local-stack")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def fresh_stack_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Start extra stacks (e.g. to restart one on the same data folder); all are stopped at the end
    of the test (an idle stack still polls: kept for the session they slowed everything else)."""
    started: list[Stack] = []

    def make(data_dir: Path | None = None, workers: int = 2) -> Stack:
        stack = Stack(data_dir or tmp_path_factory.mktemp("extra-stack"), workers=workers).start()
        started.append(stack)
        return stack

    yield make
    for stack in started:
        stack.stop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything in tests/e2e is an e2e test, whether or not it says so."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.e2e)
