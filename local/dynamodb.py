"""Amazon's DynamoDB Local as a child process, and the tables of `tavla.store.schema` in it.

DynamoDB Local is the real engine (transactions, conditions, names validated as in the
cloud), so concurrency invariants are tested against it, never against moto. `-sharedDb`
makes every region and credential see the same tables; `-dbPath` keeps them across runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from local import npm
from tavla.store.schema import TABLES, TableSpec, create_table_args

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """Linux: the JVM gets SIGTERM when the stack's process dies, even by SIGKILL."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class DynamoDBLocal:
    """One DynamoDB Local JVM on a free port, its data in `data_dir`."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 150.0) -> None:
        self.launch()
        self.wait_until_up(timeout)

    def launch(self) -> None:
        """Start the JVM without waiting for it (it takes seconds; other parts start meanwhile)."""
        java = shutil.which("java")
        if java is None:
            raise SystemExit("DynamoDB Local needs Java 17 (apt-get install openjdk-17-jre-headless)")
        jar = npm.dynamodb_jar()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            java,
            # C1 only, one GC thread: C2's compiler threads and a parallel GC took most of the JVM's
            # CPU on a 2-core machine shared with the stack's workers (per confirmation 250 ms of
            # JVM CPU while C2 warmed up, 100 ms with these; decision 0045)
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
            "-jar",
            str(jar),
            "-sharedDb",
            "-dbPath",
            str(self.data_dir),
            "-port",
            str(self.port),
        ]
        log = (self.data_dir / "dynamodb-local.log").open("ab")
        self._process = subprocess.Popen(
            command,
            cwd=jar.parent,
            stdout=log,
            stderr=subprocess.STDOUT,
            process_group=0,  # Ctrl-C reaches the stack, which stops the JVM after the rest
            preexec_fn=_die_with_parent,
        )
        log.close()

    def wait_until_up(self, timeout: float = 150.0) -> None:  # a JVM on a busy 2-core machine
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise SystemExit(f"DynamoDB Local exited early; see {self.data_dir / 'dynamodb-local.log'}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"DynamoDB Local did not answer within {timeout:.0f} s")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def physical_name(spec: TableSpec) -> str:
    return f"tavla-{spec.name}"


class StaleTable(Exception):
    """A table kept in the data folder was made from an older declaration of its keys."""


def _key_shape(description: Mapping[str, Any]) -> tuple[Any, ...]:
    """What decides whether stored items still fit: the keys and the indexes' keys."""

    def keys(schema: Any) -> tuple[tuple[str, str], ...]:
        return tuple((k["AttributeName"], k["KeyType"]) for k in schema)

    indexes = [
        *description.get("GlobalSecondaryIndexes", []),
        *description.get("LocalSecondaryIndexes", []),
    ]
    return keys(description["KeySchema"]), sorted((i["IndexName"], keys(i["KeySchema"])) for i in indexes)


def ensure_tables(client: DynamoDBClient) -> list[str]:
    """Create every declared table that does not exist yet; returns the ones created.

    A kept table whose keys no longer match the declaration is refused with what to do,
    rather than failing later on the first request that touches it.
    """
    existing = set(client.list_tables()["TableNames"])
    created = []
    for spec in TABLES:
        name = physical_name(spec)
        if name in existing:
            kept = client.describe_table(TableName=name)["Table"]
            if _key_shape(kept) != _key_shape(create_table_args(spec, name)):
                raise StaleTable(
                    f"The table {name} kept in the data folder has the keys of an older version."
                    " Run `make clean` (or delete the data folder) to start afresh."
                )
            continue
        client.create_table(**create_table_args(spec, name))
        client.get_waiter("table_exists").wait(TableName=name)
        if spec.ttl_attribute:
            client.update_time_to_live(
                TableName=name, TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute}
            )
        created.append(name)
    return created
