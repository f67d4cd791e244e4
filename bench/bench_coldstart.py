"""Cold start: what a new Lambda execution environment pays before its first answer.

Each function is timed in fresh interpreters, twice: importing its handler module (Lambda's
init phase), and importing it then resolving one typical request against AWS clients that
replay answers recorded on moto (`bench.typical_requests`), so work a module defers to its
first request still counts. Every such run is paired with a run of the floor,
`import boto3; boto3.client("dynamodb")`, in the same loop, and the ratio is taken pair by
pair: the machine's drift cancels out. The environment is the cloud's, tracing included.

By default the HTTP functions (the target's) in 5 rounds, a few minutes on a shared machine;
BENCH_FULL=1 adds the event functions, the layer compiled without bytecode and 9 rounds.
COLDSTART_ROUNDS sets the rounds either way.
"""

from __future__ import annotations

import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import FULL, size
from bench.typical_requests import record_all
from infra.assets import dependencies_dir
from infra.registry import FUNCTIONS

ROUNDS = int(os.environ.get("COLDSTART_ROUNDS", size(5, 9)))
TARGET_RATIO = 1.25
Series = dict[str, list[list[float]]]  # name -> for each of its programs, one value per round
FLOOR = "import boto3; boto3.client('dynamodb')"
# Where the time goes: what the libraries every HTTP function imports cost on their own
# (like a handler's import, without creating a client).
REFERENCES = {
    "Powertools resolver with validation": (
        "import boto3;"
        " from aws_lambda_powertools.event_handler import APIGatewayHttpResolver as R;"
        " R(enable_validation=True)"
    ),
}
# The fresh interpreter's first request: AWS answers replayed in the order they were given.
FIRST_REQUEST = """
import pickle, sys, types
from botocore.client import BaseClient
module, event, answers, made_at = pickle.load(open(sys.argv[1], "rb"))
if made_at is not None:
    from tavla import clock
    clock.advance(made_at - clock.now())
def replay(client, operation, params):
    service = client.meta.service_model.service_name
    for i, (s, o, _) in enumerate(answers):
        if (s, o) == (service, operation):
            return answers.pop(i)[2]
    raise AssertionError(f"no recorded answer for {service}.{operation}")
BaseClient._make_api_call = replay
import importlib
handler = importlib.import_module(module).handler
context = types.SimpleNamespace(function_name="bench", memory_limit_in_mb=512, aws_request_id="bench",
    invoked_function_arn="arn:aws:lambda:eu-central-1:123456789012:function:bench",
    get_remaining_time_in_millis=lambda: 10000)
result = handler(event, context)
assert not isinstance(result, dict) or int(result.get("statusCode", 200)) < 400, result
"""


def _layer_without_bytecode(folder: Path) -> Path | None:
    """The layer's packages (its dependencies and `tavla`) taken from this interpreter's
    installation, linked file by file into `folder` with no `__pycache__`: imported from
    there with PYTHONDONTWRITEBYTECODE, they compile from source on every run, as a layer
    shipped without bytecode does on Lambda's read-only /opt."""
    from infra.lambdas import runtime_python_version  # the CDK: loaded only for this

    layer = dependencies_dir(runtime_python_version())
    if not layer.is_dir():
        return None
    roots = [Path(p) for p in sys.path if p and Path(p).is_dir()]
    for entry in [*layer.iterdir(), Path("tavla")]:
        if entry.name.endswith(".dist-info") or entry.name in {"bin", "share", "__pycache__"}:
            continue
        source = next((root / entry.name for root in roots if (root / entry.name).exists()), None)
        if source is None:
            continue
        if source.is_file():
            (folder / entry.name).symlink_to(source.resolve())
            continue
        for path in source.rglob("*"):
            if "__pycache__" in path.parts or path.is_dir():
                continue
            link = folder / entry.name / path.relative_to(source)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(path.resolve())
    return folder


def _cloud_like_env(recorded_env: dict[str, str]) -> dict[str, str]:
    """The handler's environment as Lambda sets it: active tracing, metrics namespace."""
    env = {**os.environ, **recorded_env, "PYTHONDONTWRITEBYTECODE": "0"}
    env.update(
        {
            "LAMBDA_TASK_ROOT": str(Path.cwd()),
            "AWS_LAMBDA_FUNCTION_NAME": "bench",
            "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
            "AWS_XRAY_CONTEXT_MISSING": "IGNORE_ERROR",
        }
    )
    return env


def _seconds(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


Program = tuple[list[str], dict[str, str]]  # interpreter arguments, environment


def main() -> int:
    recorded, recorded_env = record_all()
    with tempfile.TemporaryDirectory() as folder:
        env = _cloud_like_env(recorded_env)
        programs: dict[str, list[Program]] = {}
        tapes: dict[str, Path] = {}
        for f in (f for f in FUNCTIONS if f.http or FULL):
            tape = tapes[f.name] = Path(folder) / f"{f.name}.pickle"
            request = recorded[f.name]
            tape.write_bytes(pickle.dumps((request.module, request.event, request.answers, request.made_at)))
            programs[f.name] = [(["-c", f"import {f.module}"], env), (["-c", FIRST_REQUEST, str(tape)], env)]
        programs.update({name: [(["-c", code], env)] for name, code in REFERENCES.items()})
        unbuilt = _layer_without_bytecode(Path(folder) / "layer") if FULL else None
        if unbuilt is not None:
            compiling = {
                **env,
                "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONPATH": f"{unbuilt}:{env.get('PYTHONPATH', '')}",
            }
            programs[f"{FUNCTIONS[0].name}, layer without bytecode"] = [
                (["-c", f"import {FUNCTIONS[0].module}"], compiling)
            ]
        floor: Program = (["-c", FLOOR], env)

        def refresh(name: str) -> None:
            """Make the request afresh where it is valid only near its making (re-signed, untimed)."""
            again = recorded.get(name)
            if again is not None and again.fresh is not None:
                tape = (again.module, again.fresh(), again.answers, again.made_at)
                tapes[name].write_bytes(pickle.dumps(tape))

        _seconds(*floor)
        for name, runs in programs.items():
            for args, program_env in runs:
                refresh(name)
                _seconds(args, program_env)  # warm the bytecode caches (the layer ships bytecode)
        floors: list[float] = []
        times: Series = {n: [[] for _ in runs] for n, runs in programs.items()}
        ratios: Series = {n: [[] for _ in runs] for n, runs in programs.items()}
        for _ in range(ROUNDS):
            for name, runs in programs.items():
                for i, (args, program_env) in enumerate(runs):
                    refresh(name)
                    floor_seconds = _seconds(*floor)
                    seconds = _seconds(args, program_env)
                    floors.append(floor_seconds)
                    times[name][i].append(seconds)
                    ratios[name][i].append(seconds / floor_seconds)
    return _report(floors, times, ratios)


def _cell(seconds: list[float], ratios: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:5.0f} ms {statistics.median(ratios):5.2f}x"


def _report(floors: list[float], times: Series, ratios: Series) -> int:
    print(
        f"cold start, medians of {ROUNDS} rounds; ratio = run / the floor run beside it"
        f" (floor: {FLOOR}; median {statistics.median(floors) * 1000:.0f} ms,"
        f" range {min(floors) * 1000:.0f}-{max(floors) * 1000:.0f} ms)"
    )
    print(f"  {'':<44} {'import':>14}   {'import + first request':>22}")
    kinds = {f.name: "HTTP" if f.http else "events" for f in FUNCTIONS}
    for name in times:
        label = f"{name} ({kinds[name]})" if name in kinds else f"reference: {name}"
        cells = [_cell(t, r) for t, r in zip(times[name], ratios[name], strict=True)]
        print(f"  {label:<44} {cells[0]:>14}   {cells[1] if len(cells) > 1 else '':>22}")
    http = [name for name, kind in kinds.items() if kind == "HTTP" and name in times]
    worst = max(statistics.median(ratios[name][0]) for name in http)
    first = max(statistics.median(ratios[name][1]) for name in http)
    verdict = "met" if worst <= TARGET_RATIO else "MISSED"
    print(f"cold start worst HTTP import ratio {worst:.2f} (target {TARGET_RATIO}): {verdict}")
    print(f"cold start worst HTTP import + first request ratio {first:.2f} (its own AWS calls replayed)")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
