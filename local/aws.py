"""moto, serving EventBridge, EventBridge Scheduler, SNS, Secrets Manager, SQS and S3 over HTTP.

moto is not thread-safe, so its WSGI app sits behind one lock: every request into moto,
from the handlers' processes or from the stack's own threads, runs alone. At start the
stack provisions what the CDK stack would: the bus, one rule per event-triggered function
(its SQS queue is the stand-in for the Lambda target), the scheduler group and the
check-in pass signing secret, and the statement store's bucket.
"""

from __future__ import annotations

import importlib
import json
import secrets
import threading
import time
import warnings
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3

from infra.registry import EVENT_SOURCE, FUNCTIONS, PASS_KEY_SECRET, PAYMENT_PROVIDER_SECRET, PUSH_KEY_SECRET
from local.env import (
    ACCOUNT,
    DEAD_LETTER_QUEUE,
    EVENT_BUS,
    REGION,
    SCHEDULER_GROUP,
    STATEMENTS_BUCKET,
    function_name,
)

if TYPE_CHECKING:
    from mypy_boto3_sqs import SQSClient

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # "install moto[server]": flask is all the server part needs
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import BaseWSGIServer, make_server


def _compile_paths_once() -> None:
    """moto's EventBridge compiles each target's input paths (eight JSONPaths, a parser built
    from its grammar tables each time) for every event it routes: 56 of the 66 samples of its
    PutEvents while 64 results were confirmed at once, under the lock every moto request waits on. A path
    compiles to the same expression every time, so each is compiled once."""
    paths: Any = importlib.import_module("jsonpath_ng.ext")
    paths.parse = lru_cache(maxsize=256)(paths.parse)


def _quick_queue_clock() -> None:
    """moto's SQS asks the time twice for every message of a queue it looks through (is it
    visible, is it delayed), each time as a datetime taken apart again: with a Saturday's
    backlog of hundreds of events in a queue, about 600 of 1,005 samples of the stack while the
    bus drained, all under the moto lock. The same seconds since the epoch, read directly."""
    queues: Any = importlib.import_module("moto.sqs.models")
    to_seconds = queues.unix_time

    def unix_time(dt: Any = None) -> float:
        return time.time() if dt is None else float(to_seconds(dt))

    queues.unix_time = unix_time
    queues.unix_time_millis = lambda dt=None: unix_time(dt) * 1000.0


_compile_paths_once()
_quick_queue_clock()

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

MOTO_LOCK = threading.Lock()
# local-only fault switch (`POST /dev/bus`): while set, EventBridge refuses every entry put on it
BUS_REFUSING = threading.Event()
_PUT_EVENTS = "AWSEvents.PutEvents"


def _refused(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    """PutEvents answered as EventBridge answers an entry it could not take (FailedEntryCount)."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    entries = json.loads(environ["wsgi.input"].read(length) or b"{}").get("Entries", [])
    failed = [{"ErrorCode": "InternalFailure", "ErrorMessage": "refused (POST /dev/bus)"} for _ in entries]
    start_response("200 OK", [("Content-Type", "application/x-amz-json-1.1")])
    return [json.dumps({"FailedEntryCount": len(failed), "Entries": failed}).encode()]


def serialized(app: Wsgi) -> Wsgi:
    """The WSGI app, one request at a time (the body is read out under the lock too)."""

    def locked(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if BUS_REFUSING.is_set() and environ.get("HTTP_X_AMZ_TARGET") == _PUT_EVENTS:
            return _refused(environ, start_response)
        with MOTO_LOCK:
            result = app(environ, start_response)
            try:
                return [b"".join(result)]
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()

    return locked


class MotoServer:
    """moto's server app on a free localhost port, in a thread of this process."""

    def __init__(self) -> None:
        app = serialized(DomainDispatcherApplication(create_backend_app))
        self._server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="moto", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._thread.join(timeout=5)


def client(service: str, endpoint_url: str) -> Any:
    return boto3.client(
        service,  # type: ignore[call-overload]
        endpoint_url=endpoint_url,
        region_name=REGION,
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )


def _kept_random(data_dir: Path, name: str) -> str:
    """A random key made on first start, then kept in the data folder (owner-readable only)."""
    path = data_dir / name
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def pass_key(data_dir: Path) -> str:
    """The check-in pass signing key: kept, so passes survive restarts."""
    return _kept_random(data_dir, "pass-key")


def push_key(data_dir: Path) -> str:
    """The Web Push key's seed: kept, so browsers stay subscribed across restarts."""
    return _kept_random(data_dir, "push-key")


def provider_secret(data_dir: Path) -> str:
    """The fake card provider's keys: the webhook secret random on first start, then kept."""
    path = data_dir / "payment-provider-webhook-secret"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text("whsec_" + secrets.token_hex(24))
        path.chmod(0o600)
    return json.dumps({"api_key": "sk_test_local", "webhook_secret": path.read_text().strip()})


def queue_name(function: str) -> str:
    return f"{function_name(function)}-events"


def provision(moto_url: str, data_dir: Path) -> dict[str, str]:
    """Create the bus, its rules and queues, the scheduler group, the dead-letter queue and the secret.

    Returns the queue URL of each event-triggered function, by function name.
    """
    events = client("events", moto_url)
    sqs: SQSClient = client("sqs", moto_url)
    events.create_event_bus(Name=EVENT_BUS)
    queues: dict[str, str] = {}
    for function in FUNCTIONS:
        if not function.events:
            continue
        url = sqs.create_queue(QueueName=queue_name(function.name))["QueueUrl"]
        queue_arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{queue_name(function.name)}"
        rule = function_name(function.name)
        pattern = {"source": [EVENT_SOURCE], "detail-type": list(function.events)}
        events.put_rule(Name=rule, EventBusName=EVENT_BUS, EventPattern=json.dumps(pattern))
        events.put_targets(Rule=rule, EventBusName=EVENT_BUS, Targets=[{"Id": "target", "Arn": queue_arn}])
        queues[function.name] = url
    client("scheduler", moto_url).create_schedule_group(Name=SCHEDULER_GROUP)
    client("s3", moto_url).create_bucket(
        Bucket=STATEMENTS_BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION}
    )
    sqs.create_queue(QueueName=DEAD_LETTER_QUEUE)  # what schedules' DeadLetterConfig names
    client("secretsmanager", moto_url).create_secret(Name=PASS_KEY_SECRET, SecretString=pass_key(data_dir))
    client("secretsmanager", moto_url).create_secret(Name=PUSH_KEY_SECRET, SecretString=push_key(data_dir))
    client("secretsmanager", moto_url).create_secret(
        Name=PAYMENT_PROVIDER_SECRET, SecretString=provider_secret(data_dir)
    )
    return queues


def sms_messages() -> list[dict[str, str]]:
    """The SMS that SNS would have sent (read from moto's backend, under its lock)."""
    from moto.sns.models import sns_backends

    with MOTO_LOCK:
        sent = sns_backends[ACCOUNT][REGION].sms_messages
        return [{"id": mid, "phone": phone, "message": text} for mid, (phone, text) in sent.items()]
