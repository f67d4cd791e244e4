"""What Lambda will actually load: the rules layer (arm64 wheels for the runtime's Python,
the tavla package, no second AWS SDK) and per-function code folders that import on their own."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from infra.assets import ROOT, RUNTIME_PROVIDED, runtime_dependencies, runtime_python
from infra.lambdas import runtime_python_version
from tests.infra.helpers import Synthesized

pytestmark = pytest.mark.infra

ELF_MACHINE_AARCH64 = 0xB7

# Python code that leaves only the current folder (a function's code asset) and the
# installed packages (standing in for the layer) on the path: never the repository root.
ONLY_CODE_AND_LAYER = (
    f"import sys, importlib; sys.path[:] = ['.'] + [p for p in sys.path if p not in ('', {str(ROOT)!r})]"
)


def _asset(synth: Synthesized, logical_id: str) -> Path:
    props = synth.resources[logical_id]["Properties"]
    key = (props.get("Content") or props.get("Code"))["S3Key"]
    return synth.outdir / f"asset.{key.removesuffix('.zip')}"


@pytest.fixture(scope="module")
def layer(real: Synthesized) -> Path:
    return _asset(real, real.logical_id(real.stack.lambdas.layer)) / "python"


def _distribution(requirement: str) -> str:
    name = re.split(r"[\[=<>!~; ]", requirement, maxsplit=1)[0]
    return re.sub(r"[-_.]+", "_", name).lower()


def test_layer_holds_every_runtime_dependency_and_tavla(layer: Path) -> None:
    installed = {re.sub(r"[-_.]+", "_", p.name.split("-")[0]).lower() for p in layer.glob("*.dist-info")}
    for requirement in runtime_dependencies():
        assert _distribution(requirement) in installed, requirement
    assert (layer / "tavla" / "__init__.py").is_file()
    assert (layer / "tavla" / "store" / "schema.py").is_file()


def test_every_module_ships_bytecode_the_runtime_will_use(real: Synthesized, layer: Path) -> None:
    """/opt and /var/task are read-only: a module without a `.pyc` of the runtime's own
    Python version (an unchecked hash-based one: the zip keeps no modification times) is
    compiled from source at every cold start."""
    version = runtime_python_version()
    tag = "cpython-" + version.replace(".", "")
    magic = bytes.fromhex(
        subprocess.run(
            [runtime_python(version), "-c", "import importlib.util as u; print(u.MAGIC_NUMBER.hex())"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    code = [_asset(real, real.logical_id(real.stack.lambdas.by_name[spec.name])) for spec in real.functions]
    sources = [source for folder in (layer, *code) for source in folder.rglob("*.py")]
    assert len(sources) > 1000  # the dependencies are there, not just tavla
    for source in sources:
        header = (source.parent / "__pycache__" / f"{source.stem}.{tag}.pyc").read_bytes()[:8]
        assert header[:4] == magic, source
        assert int.from_bytes(header[4:], "little") == 0b01, source  # hash-based, not checked


def test_layer_does_not_shadow_the_runtimes_aws_sdk(layer: Path) -> None:
    for name in RUNTIME_PROVIDED:
        assert not (layer / name).exists()
        assert not list(layer.glob(f"{name}-*.dist-info"))


def test_pydantic_core_binary_is_aarch64_for_the_runtime_python(layer: Path) -> None:
    tag = "cpython-" + runtime_python_version().replace(".", "")
    (binary,) = list((layer / "pydantic_core").glob("_pydantic_core.*.so"))
    assert f"{tag}-aarch64-linux-gnu" in binary.name
    header = binary.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[4] == 2  # 64-bit ELF
    (machine,) = struct.unpack_from("<H", header, 18)
    assert machine == ELF_MACHINE_AARCH64


def test_function_code_holds_only_its_own_package(real: Synthesized) -> None:
    for spec in real.functions:
        code = _asset(real, real.logical_id(real.stack.lambdas.by_name[spec.name]))
        package = spec.module.split(".")[1]
        assert sorted(p.name for p in code.iterdir()) == ["functions"]
        listed = sorted(p.name for p in (code / "functions").iterdir() if p.name != "__pycache__")
        assert listed == sorted(["__init__.py", package])  # (the bytecode is checked below)
        assert (code / Path(*spec.module.split("."))).with_suffix(".py").is_file()


def test_each_handler_imports_from_its_code_and_the_layer_alone(real: Synthesized) -> None:
    """On Lambda only the function's folder and the layer are on the path: a handler that
    imports another function's package would fail there, so it fails here first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["AWS_DEFAULT_REGION"] = "eu-central-1"
    for spec in real.functions:
        code = _asset(real, real.logical_id(real.stack.lambdas.by_name[spec.name]))
        check = f"{ONLY_CODE_AND_LAYER}; importlib.import_module({spec.module!r}).handler"
        result = subprocess.run(
            [sys.executable, "-c", check], cwd=code, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"{spec.name}: {result.stderr[-800:]}"


def test_openapi_function_serves_the_document_from_its_deployed_code(real: Synthesized) -> None:
    """GET /openapi.json works on Lambda: the document ships inside the function's folder."""
    spec = next(f for f in real.functions if any(r.path == "/openapi.json" for r in f.routes()))
    code = _asset(real, real.logical_id(real.stack.lambdas.by_name[spec.name]))
    event = {
        "version": "2.0", "routeKey": "GET /openapi.json", "rawPath": "/openapi.json", "rawQueryString": "",
        "headers": {}, "isBase64Encoded": False,
        "requestContext": {"http": {"method": "GET", "path": "/openapi.json", "sourceIp": "127.0.0.1"},
                           "stage": "$default"},
    }  # fmt: skip
    check = (
        f"{ONLY_CODE_AND_LAYER}; import json, types; "
        "context = types.SimpleNamespace(function_name='openapi', memory_limit_in_mb=128,"
        " invoked_function_arn='arn:aws:lambda:eu-central-1:1:function:openapi', aws_request_id='r'); "
        f"r = importlib.import_module({spec.module!r}).handler(json.loads(sys.argv[1]), context); "
        "assert r['statusCode'] == 200, r; assert json.loads(r['body'])['paths']"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", check, json.dumps(event)],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-800:]


def _install_in_a_process(build: str, calls: str) -> str:
    """One synth's first step, in a process of its own: the layer's dependencies, with pip
    replaced by a slow stand-in that notes each install in `calls`."""
    import time

    from infra import assets

    def slow_pip(folder: Path, python_version: str) -> None:
        with open(calls, "a") as log:
            log.write(f"{os.getpid()}\n")
        (folder / "python").mkdir(parents=True)
        time.sleep(0.5)
        (folder / "python" / "installed.txt").write_text("ok")

    assets.BUILD = Path(build)
    assets._pip_install = slow_pip
    target = assets._install_dependencies("3.13")
    return (target / "python" / "installed.txt").read_text()


def test_synths_started_together_install_the_dependencies_once(tmp_path: Path) -> None:
    """Test workers on a fresh clone all synthesize at once: none may find, or remove, a
    dependency folder another is still building."""
    from concurrent.futures import ProcessPoolExecutor

    calls = tmp_path / "calls.txt"
    with ProcessPoolExecutor(max_workers=3) as pool:
        found = list(pool.map(_install_in_a_process, [str(tmp_path / "build")] * 3, [str(calls)] * 3))
    assert found == ["ok", "ok", "ok"]
    assert len(calls.read_text().splitlines()) == 1
    left = sorted(p.name for p in (tmp_path / "build" / "pip").iterdir())
    assert len(left) == 2 and left[1] == f"{left[0]}.lock", left  # no half-built folder stays
