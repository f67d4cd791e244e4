"""Start the whole platform on localhost, print how to use it, stop it cleanly on Ctrl-C / SIGTERM."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from local import aws, npm
from local.dynamodb import DynamoDBLocal, StaleTable, ensure_tables
from local.env import REGION, handler_environment, live_environment

DEFAULT_WORKERS = 6
log = logging.getLogger("local")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m local", description=__doc__)
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (0: any free port)")
    parser.add_argument(
        "--data-dir", type=Path, default=npm.ROOT / ".local", help="where data and keys are kept"
    )
    parser.add_argument("--no-demo", action="store_true", help="do not load the demo tournament")
    parser.add_argument(
        "--workers", type=int, default=DEFAULT_WORKERS, help="Lambda environments (concurrent invocations)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    for noisy in ("werkzeug", "botocore", "boto3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if str(npm.ROOT) not in sys.path:
        sys.path.insert(0, str(npm.ROOT))  # functions/ and infra/ live at the repository root
    data_dir = args.data_dir.resolve()
    cleanups: list[Callable[[], None]] = []
    signal.signal(signal.SIGTERM, _interrupt)  # while starting, SIGTERM stops like Ctrl-C
    try:
        url, demo_token, endpoints = start(args, data_dir, cleanups)
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        print_banner(url, data_dir, demo_token, endpoints)
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        print("Stopping ...", flush=True)
        for cleanup in reversed(cleanups):
            try:
                cleanup()
            except Exception:
                logging.exception("while stopping")


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def start(
    args: argparse.Namespace, data_dir: Path, cleanups: list[Callable[[], None]]
) -> tuple[str, str | None, dict[str, str]]:
    """Start every part in dependency order; `cleanups` collects how to stop each."""
    started = time.monotonic()
    npm.ensure_installed()
    dynamodb = DynamoDBLocal(data_dir / "dynamodb")
    dynamodb.launch()
    cleanups.append(dynamodb.stop)
    moto = aws.MotoServer()
    moto.start()
    cleanups.append(moto.stop)

    # the card payment provider, played locally; its webhooks come back to the server
    from local.fake_provider import FakeProviderServer
    from tavla.card_payments import API_BASE_ENV, RETURN_URL_ENV

    provider = FakeProviderServer(lambda: json.loads(aws.provider_secret(data_dir))["webhook_secret"])
    provider.start()
    cleanups.append(provider.stop)

    # browsers' push service, played locally: notices are posted there, never to the internet
    from local.push_service import FakePushService
    from tavla.models.push import EXTRA_ORIGINS_ENV

    push_service = FakePushService()
    push_service.start()
    cleanups.append(push_service.stop)

    # the live channel's ports are bound now: the handlers' environment names its publish URL
    from local.auth import Authority, role_records
    from local.live import LiveChannel, through

    # a token carries the roles the federation's admins granted (read when it is minted)
    authority = Authority(data_dir, role_records(aws.client("dynamodb", dynamodb.url)))
    live_channel = LiveChannel()

    # The handlers read these at import time: set them before anything imports a handler
    # (the Lambda environments are spawned with this environment).
    os.environ.update(handler_environment(dynamodb.url, moto.url))
    os.environ.update({API_BASE_ENV: provider.url, RETURN_URL_ENV: f"http://127.0.0.1:{args.port}"})
    os.environ[EXTRA_ORIGINS_ENV] = push_service.url
    os.environ.update(live_environment(live_channel.publish_url, authority.write_jwks(data_dir)))

    from local.apigw import RouteTable
    from local.bus import Bus
    from local.deadletters import DeadLetters
    from local.faults import FaultSwitch
    from local.lambdas import Environments
    from local.scheduler import Scheduler
    from local.server import Gateway, LocalServer, Platform
    from tavla import webpush

    environments = Environments(args.workers, FaultSwitch())
    cleanups.append(environments.stop)
    warming = threading.Thread(target=environments.warm, name="warm")
    warming.start()  # importing the handlers in every environment overlaps the JVM's start
    dynamodb.wait_until_up()
    try:
        ensure_tables(aws.client("dynamodb", dynamodb.url))
    except StaleTable as stale:
        raise SystemExit(str(stale)) from None
    log.info("DynamoDB Local up with its tables after %.1f s", time.monotonic() - started)
    queues = aws.provision(moto.url, data_dir)
    routes = RouteTable.from_registry()
    dead_letters = DeadLetters()
    scheduler = Scheduler(moto.url, environments, dead_letters=dead_letters)
    from local.outbox import OutboxStream

    outbox = OutboxStream(dynamodb.url, environments, dead_letters)
    bus = Bus(moto.url, queues, environments, dead_letters=dead_letters, outbox=outbox)
    live_channel.authorize = through(environments)
    live_channel.start()
    cleanups.append(live_channel.stop)
    platform = Platform(
        routes,
        authority,
        environments,
        scheduler,
        bus,
        live_url=live_channel.url,
        push_service=push_service.url,
        push_key=webpush.public_key_of(aws.push_key(data_dir)),
    )
    try:
        server = LocalServer(args.port, Gateway(platform))
    except OSError as error:
        raise SystemExit(f"Port {args.port} is taken ({error}); try --port 0 for any free port") from None
    threading.Thread(target=server.serve_forever, name="http", daemon=True).start()
    provider.webhook_url = f"{server.url}/webhooks/payments"
    cleanups.append(server.server_close)
    cleanups.append(server.shutdown)
    warming.join()
    log.info("%d Lambda environments warm after %.1f s", args.workers, time.monotonic() - started)
    scheduler.start()
    cleanups.append(scheduler.stop)
    outbox.start()
    cleanups.append(outbox.stop)
    bus.start()
    cleanups.append(bus.stop)
    demo_token = None
    if not args.no_demo:
        from local.demo import load_demo

        demo_token = load_demo(server.url, platform.authority, data_dir)
    endpoints = {
        "live channel": live_channel.url,
        "DynamoDB Local": dynamodb.url,
        "moto": moto.url,
        "fake card provider": provider.url,
    }
    return server.url, demo_token, endpoints


def print_banner(url: str, data_dir: Path, demo_token: str | None, endpoints: dict[str, str]) -> None:
    curl = (
        f"curl -s -X POST {url}/dev/token -H 'content-type: application/json' "
        """-d '{"user": "alice", "groups": ["organisers"]}'"""
    )
    lines = [
        "",
        "Tavla local stack is running.",
        f"  API:    {url}",
        f"  Docs:   {url}/docs",
        f"  Token:  {curl}",
        f"  Demo organiser token: {demo_token}" if demo_token else "  Demo: off",
        f"  Data:   {data_dir} (DynamoDB Local, keys; region {REGION})",
        *(f"  {name}: {endpoint}" for name, endpoint in endpoints.items()),
        "  Stop:   Ctrl-C",
        "",
    ]
    print("\n".join(lines), flush=True)
