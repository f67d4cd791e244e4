"""`make synth` / cdk.json's app: synthesizes quietly into the output folder, or fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infra.assets import ROOT
from infra.stages import from_cdk_json

pytestmark = pytest.mark.infra


def test_cdk_json_app_synthesizes_quietly(tmp_path: Path) -> None:
    app = json.loads((ROOT / "cdk.json").read_text())["app"]
    assert app.endswith("-m infra.app")
    env = {**os.environ, "CDK_OUTDIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "infra.app"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == "" and result.stderr == ""
    for stage in from_cdk_json().values():
        assert (tmp_path / f"{stage.stack_name}.template.json").is_file()
        assert (tmp_path / f"{stage.edge_stack_name}.template.json").is_file()
