"""Lighthouse on a phone profile against a running platform (`make run`), in Debian's Chromium.

    python -m tools.lighthouse http://127.0.0.1:8000 '#/' '#/t/<id>' '#/t/<id>/board'

Lighthouse comes from npm on first use (`npx --yes`): it is a measuring tool, not part of the
product or of `make test`. Prints each page's category scores and the audits it failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

LIGHTHOUSE = "lighthouse@12"
TIMINGS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
)


def audit(url: str) -> dict[str, object]:
    """One page's report: category scores (0-1), the phone timings, the binary audits failed."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        command = ["npx", "--yes", LIGHTHOUSE, url, "--quiet", "--form-factor=mobile", "--output=json"]
        command += [f"--output-path={out}", "--chrome-flags=--headless=new --no-sandbox"]
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        subprocess.run(command, check=True, env=env)
        report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "scores": {name: c["score"] for name, c in report["categories"].items()},
        "timings": {name: audits[name]["displayValue"] for name in TIMINGS},
        "failed": sorted(name for name, a in audits.items() if _failed(a)),
    }


def _failed(audit: dict[str, object]) -> bool:
    return audit.get("scoreDisplayMode") == "binary" and audit.get("score") == 0


def main(argv: list[str]) -> int:
    base, pages = argv[0].rstrip("/"), argv[1:] or ["#/"]
    for page in pages:
        print(page, json.dumps(audit(f"{base}/{page}"), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
