"""The Lambda code on disk: the rules layer and one small code folder per function.

The layer is `shared/tavla` plus the third-party runtime dependencies that pyproject.toml's
`[project].dependencies` lists (read here, never copied), installed by pip as wheels for
Lambda's Linux on arm64 and the runtime's Python, without Docker. The pip result is cached
under `build/` keyed by a hash of that list and the target, so that repeated synths are fast
and need no network after the first.

Each process builds its trees in a folder of its own (`build/assets/<pid>/`, removed by the
next build once that process is gone): two synths at once, as test workers and a `cdk
synth` beside them run, never copy into each other's half-built trees.

Everything ships with bytecode compiled by the runtime's own Python version: Lambda's `/opt`
and `/var/task` are read-only, so a module without a usable `.pyc` is compiled from source
at every cold start (measured: docs/performance.md, cold start). The `.pyc` files are
hash-based and unchecked: the deployment zip does not keep modification times, which a
timestamp-based `.pyc` would be compared against, and the code never changes in place.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
PLATFORM = "manylinux2014_aarch64"  # Lambda arm64 (Graviton), glibc 2.17+ wheels

# The Lambda Python runtime ships the AWS SDK; a copy in the layer would pair the runtime's
# boto3 with a botocore of another version.
RUNTIME_PROVIDED = ("boto3", "botocore", "s3transfer")
# Pure-Python dependencies published as source only (pywebpush's http-ece): built here into a
# platform-free wheel first, since pip installs for another platform from wheels alone.
SOURCE_ONLY = ("http-ece",)

_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")
# Where a Python of the runtime's version is looked for, after $LAMBDA_PYTHON and the PATH.
PYENV_ROOT = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))


class NoRuntimePython(RuntimeError):
    """No interpreter of the runtime's version to compile the bytecode Lambda will load."""


@cache
def runtime_python(version: str) -> str:
    """An interpreter of Python `version` (3.13): $LAMBDA_PYTHON, `python3.13` on the PATH,
    or a pyenv installation; its bytecode is the only kind the runtime will use."""
    candidates = [
        os.environ.get("LAMBDA_PYTHON", ""),
        shutil.which(f"python{version}") or "",
        *sorted(glob.glob(str(PYENV_ROOT / "versions" / f"{version}.*" / "bin" / f"python{version}"))),
    ]
    for candidate in filter(None, candidates):
        found = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if found.returncode == 0 and found.stdout.strip() == version:
            return candidate
    raise NoRuntimePython(
        f"The Lambda runtime is Python {version}: install it (pyenv install {version}, or your"
        f" distribution's python{version}) or point LAMBDA_PYTHON at one, so the layer ships"
        " bytecode Lambda can use."
    )


def compile_bytecode(folder: Path, python_version: str) -> None:
    """Write `__pycache__/*.cpython-3XY.pyc` for every module under `folder`."""
    command = [
        runtime_python(python_version), "-m", "compileall", "-q", "-j", "0",
        "--invalidation-mode", "unchecked-hash", str(folder),
    ]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def runtime_dependencies() -> list[str]:
    """The requirement strings the layer installs: pyproject.toml's `[project].dependencies`."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return list(tomllib.load(file)["project"]["dependencies"])


def _pip_target(python_version: str) -> Path:
    """Where pip's result for this dependency list and target lives (its cache key)."""
    key = "\n".join([PLATFORM, python_version, "bytecode", *runtime_dependencies()])
    return BUILD / "pip" / hashlib.sha256(key.encode()).hexdigest()[:16]


def _install_dependencies(python_version: str) -> Path:
    """pip-install the runtime dependencies once per dependency list; return the folder.

    Test workers synthesize at the same moment on a fresh clone: the first takes the lock and
    installs into a folder of its own, renamed into place only once complete; the others wait
    on the lock and find the finished folder, never one being built or removed under them.
    """
    target = _pip_target(python_version)
    done = target / ".complete"
    if done.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with (target.parent / f"{target.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            building = target.with_name(f"{target.name}.{os.getpid()}")
            shutil.rmtree(building, ignore_errors=True)
            _pip_install(building, python_version)
            (building / done.name).touch()
            shutil.rmtree(target, ignore_errors=True)  # an install a killed process left unfinished
            building.rename(target)
    return target


def _pip_install(folder: Path, python_version: str) -> None:
    """Install the dependencies for Lambda's platform under `folder/python`, with bytecode."""
    wheels = folder / "wheels"
    pinned = [r for r in runtime_dependencies() if r.split("==")[0] in SOURCE_ONLY]
    if pinned:
        built = [sys.executable, "-m", "pip", "wheel", "-qq", "--disable-pip-version-check", "--no-deps"]
        subprocess.run([*built, "--wheel-dir", str(wheels), *pinned], check=True)
    command = [
        sys.executable, "-m", "pip", "install", "-qq",
        "--disable-pip-version-check", "--no-warn-conflicts", "--no-compile",
        "--platform", PLATFORM, "--implementation", "cp",
        "--python-version", python_version, "--only-binary=:all:",
        *(["--find-links", str(wheels)] if pinned else []),
        "--target", str(folder / "python"),
        *runtime_dependencies(),
    ]  # fmt: skip
    subprocess.run(command, check=True)
    for name in RUNTIME_PROVIDED:
        shutil.rmtree(folder / "python" / name, ignore_errors=True)
        for info in (folder / "python").glob(f"{name}-*.dist-info"):
            shutil.rmtree(info)
    compile_bytecode(folder / "python", python_version)


def _fresh_copy(source: Path, destination: Path) -> None:
    """Copy a tree with its bytecode, hard-linking files where possible (the pip cache is large)."""
    shutil.rmtree(destination, ignore_errors=True)

    def link_or_copy(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, destination, copy_function=link_or_copy)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@cache
def _workspace() -> Path:
    """This process's folder for the trees it builds; those of finished processes are removed."""
    root = BUILD / "assets"
    root.mkdir(parents=True, exist_ok=True)
    for other in root.iterdir():
        if other.name.isdigit() and int(other.name) != os.getpid() and not _alive(int(other.name)):
            shutil.rmtree(other, ignore_errors=True)
    mine = root / str(os.getpid())
    mine.mkdir(exist_ok=True)
    return mine


def dependencies_dir(python_version: str) -> Path:
    """The layer's third-party packages as pip installed them (shared, built once per list)."""
    return _install_dependencies(python_version) / "python"


def layer_dir(python_version: str) -> Path:
    """The layer's folder: `python/` holding the dependencies and the `tavla` package."""
    layer = _workspace() / "layer"
    _fresh_copy(dependencies_dir(python_version), layer / "python")
    shutil.copytree(ROOT / "shared" / "tavla", layer / "python" / "tavla", ignore=_IGNORED)
    compile_bytecode(layer / "python" / "tavla", python_version)
    return layer


def function_dir(module: str, python_version: str) -> Path:
    """A function's code folder: `functions/__init__.py` and its own package, nothing else.

    `module` is the handler's dotted module (functions.<name>.handler); the folder keeps
    that import path so Lambda finds `functions.<name>.handler.handler`.
    """
    package = Path(*module.split(".")[:2])  # functions/<name>
    folder = _workspace() / "functions" / package.name
    shutil.rmtree(folder, ignore_errors=True)
    (folder / package.parent).mkdir(parents=True)
    shutil.copy2(ROOT / package.parent / "__init__.py", folder / package.parent / "__init__.py")
    shutil.copytree(ROOT / package, folder / package, ignore=_IGNORED)
    compile_bytecode(folder, python_version)
    return folder
