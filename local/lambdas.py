"""Lambda execution environments: worker processes that each run one invocation at a time.

Lambda never runs two invocations in one process, and the handlers rely on it: Powertools'
resolver keeps the current event in class-level state, so two requests served by threads
of one process would see each other's caller (measured: 49 of 50 concurrent requests
answered as the wrong user). Each worker here is a separate process, like a warm Lambda
environment: modules are imported once and reused, one event at a time. The platform's
clock offset travels with every invocation, so `tavla.clock` agrees across processes.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import traceback
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from infra.registry import FUNCTIONS, Function
from local.env import function_arn, function_name
from local.faults import FaultSwitch
from tavla import clock

log = logging.getLogger("local.lambdas")


class HandlerError(Exception):
    """A handler raised: in the cloud a failed invocation (and an API Gateway 500)."""

    def __init__(self, function: str, trace: str) -> None:
        super().__init__(f"{function} failed:\n{trace}")
        self.function = function
        self.trace = trace


@dataclass
class LambdaContext:
    """What Lambda passes as `context`, with the attributes Powertools reads."""

    function_name: str
    function_version: str
    invoked_function_arn: str
    memory_limit_in_mb: int
    aws_request_id: str
    log_group_name: str
    log_stream_name: str
    deadline_ms: int

    def get_remaining_time_in_millis(self) -> int:
        return max(0, self.deadline_ms - int(time.time() * 1000))


def _context(function: Function) -> LambdaContext:
    name = function_name(function.name)
    return LambdaContext(
        function_name=name,
        function_version="$LATEST",
        invoked_function_arn=function_arn(function.name),
        memory_limit_in_mb=function.memory_mb,
        aws_request_id=str(uuid.uuid4()),
        log_group_name=f"/aws/lambda/{name}",
        log_stream_name=f"local/{os.getpid()}",
        deadline_ms=int(time.time() * 1000) + function.timeout_seconds * 1000,
    )


# ---- inside a worker process ----

_applied_offset = timedelta(0)
_faults: FaultSwitch | None = None


def _sync_clock(offset: timedelta) -> None:
    global _applied_offset
    if offset != _applied_offset:
        clock.reset()
        clock.advance(offset)
        _applied_offset = offset


def _invoke_here(name: str, event: dict[str, Any], offset: timedelta) -> tuple[bool, Any, float]:
    """Run one invocation; (True, result, seconds) or (False, traceback text, seconds)."""
    function = next(f for f in FUNCTIONS if f.name == name)
    _sync_clock(offset)
    if _faults is not None:
        _faults.invoking = name
    started = time.monotonic()
    try:
        module = importlib.import_module(function.module)
        return True, module.handler(event, _context(function)), time.monotonic() - started
    except Exception:
        return False, traceback.format_exc(), time.monotonic() - started


def _worker_setup(faults: FaultSwitch | None) -> None:
    """Leave Ctrl-C to the stack (it stops the pool), and exit when the stack's process is
    gone (even killed), as its sandboxes would; hook the DynamoDB writes to the fault switch."""
    global _faults
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if faults is not None:
        faults.install()
        _faults = faults
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


def _warm(modules: list[str]) -> int:
    for module in modules:
        importlib.import_module(module)
    time.sleep(0.2)  # stay busy so the next warm-up lands on another worker
    return os.getpid()


# ---- in the stack's process ----


class Environments:
    """A pool of execution environments shared by all functions (each imports every module)."""

    def __init__(self, size: int, faults: FaultSwitch | None = None) -> None:
        self.size = size
        self.faults = faults
        self._offset = timedelta(0)
        self._lock = threading.Lock()
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: this process runs threads (moto, HTTP) whose locks fork would copy.
        return ProcessPoolExecutor(
            max_workers=self.size,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_setup,
            initargs=(self.faults,),
        )

    def warm(self) -> None:
        """Start every environment and import the handlers now, not on the first request."""
        modules = [f.module for f in FUNCTIONS]
        futures = [self._pool.submit(_warm, modules) for _ in range(self.size)]
        for future in futures:
            future.result()

    def advance_clock(self, delta: timedelta) -> None:
        """Shift the platform's clock here and, with the next invocation, in every environment."""
        with self._lock:
            self._offset += delta
            clock.advance(delta)

    def invoke(self, function: str, event: dict[str, Any]) -> Any:
        """Invoke a registry function's handler with `event`, as Lambda would; raises HandlerError."""
        pool = self._pool
        try:
            ok, value, seconds = pool.submit(_invoke_here, function, event, self._offset).result()
        except BrokenProcessPool:
            with self._lock:  # an environment died (as a Lambda sandbox may): start afresh, once
                if self._pool is pool:
                    self._pool = self._new_pool()
            raise HandlerError(function, "the execution environment died") from None
        except Exception:  # e.g. a result that cannot leave the environment
            raise HandlerError(function, traceback.format_exc()) from None
        limit = next(f.timeout_seconds for f in FUNCTIONS if f.name == function)
        if seconds > limit:
            log.warning(
                "%s ran %.1f s, over its %d s Lambda timeout: in the cloud it would fail",
                function,
                seconds,
                limit,
            )
        if not ok:
            raise HandlerError(function, value)
        return value

    def stop(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
