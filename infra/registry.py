"""The one description of the system: every function, what triggers it, what it may touch.

The CDK app builds Lambdas, routes, triggers and least-privilege grants from this module;
the local stack routes HTTP requests, bus events and due schedules from it; the OpenAPI
document comes from the same routers. HTTP routes are not listed here: each function's
routes (and whether they are public) are read from its Powertools resolver, where they are
declared once, next to the code that serves them.

This module is plain Python: it imports neither aws_cdk nor boto3.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from tavla.events import (
    ENTRIES_CHANGED,
    EVENT_SOURCE,
    MATCH_CHANGED,
    MATCHES_CALLED,
    NOSHOW_RULED,
    ORGANISER_REQUEST_DECIDED,
    ORGANISER_REQUESTED,
    PLAYERS_MERGED,
    REGISTRATION_PROMOTED,
    RESULT_CONFIRMED,
    SEASON_CHANGED,
    SEASON_STANDINGS_CHANGED,
    STATEMENT_UPLOADED,
    SUPER_FINAL_ACCEPTED,
    SUPER_FINAL_INVITED,
    SUPER_FINAL_SEAT_PASSED,
    TOURNAMENT_CANCELLED,
    TOURNAMENT_FINISHED,
    TOURNAMENT_POSTPONED,
    TOURNAMENT_UNRATED,
)
from tavla.schedules import arn_env_var
from tavla.store.keys import OUTBOX_PREFIX

if TYPE_CHECKING:
    from tavla.contract import Resolver
from tavla.store.schema import CONTACTS, IDEMPOTENCY, MAIN, TABLES, TableSpec

Access = Literal["read", "read_write"]
# the statement store (S3): "put" stores an upload, "read" reads and deletes one once imported
StatementFiles = Literal["put", "read"]
HttpMethod = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]

__all__ = [
    "EVENT_BATCH_SIZE",
    "EVENT_SOURCE",
    "FUNCTIONS",
    "OUTBOX_PREFIX",
    "OUTBOX_TABLE",
    "WORKFLOWS",
    "Function",
    "Route",
    "Step",
    "Workflow",
    "function",
    "workflow",
]

# Services write their domain events into this table with their change; its stream feeds the
# publisher (`drains_outbox`), which alone puts them on the bus
OUTBOX_TABLE = MAIN
PASS_KEY_SECRET = "pass-signing-key"  # logical name of the check-in pass signing secret
PAYMENT_PROVIDER_SECRET = "payment-provider"  # the card provider's API key and webhook secret
PUSH_KEY_SECRET = "push-key"  # the Web Push (VAPID) key pair's seed (tavla.webpush)
# bus events per invocation of a function that takes them in batches (`batch_seconds`): a
# nationwide Saturday mixes 20 tournaments' events in one queue, so a batch of 100 still holds
# several of each
EVENT_BATCH_SIZE = 100


@dataclass(frozen=True)
class Route:
    method: HttpMethod
    path: str  # API Gateway syntax: /tournaments/{id}
    public: bool


@dataclass(frozen=True)
class Function:
    """One Lambda function per use case."""

    name: str
    module: str  # dotted module holding `handler` (and `app`, the resolver, for HTTP ones)
    description: str
    tables: dict[str, Access] = field(default_factory=dict)  # logical table name -> access
    http: bool = True  # serves HTTP routes through its module's `app`
    events: tuple[str, ...] = ()  # bus detail-types that trigger it
    # its events reach it through a queue, gathered for up to this many seconds (or
    # EVENT_BATCH_SIZE events), so one invocation handles what arrived together (an SQS
    # batch); 0: one event per invocation
    batch_seconds: int = 0
    cron: str | None = None  # EventBridge cron expression that triggers it
    scheduled: bool = False  # target of one-time EventBridge Scheduler schedules
    publishes_events: bool = False  # puts domain events on the bus (the outbox's publisher alone)
    # triggered by the outbox table's stream, new outbox items only (`store.outbox`)
    drains_outbox: bool = False
    schedules: tuple[str, ...] = ()  # names of functions it creates one-time schedules for
    sends_sms: bool = False
    sends_email: bool = False  # SES, to players who chose e-mail (sender: context `email_from`)
    publishes_live: bool = False  # posts change hints on the live channel (AppSync Events)
    authorizes_live: bool = False  # the live channel's authorizer for staff channels
    reads_pass_key: bool = False
    # reads the Web Push key pair's secret: to send notices by push, or to give its public half
    reads_push_key: bool = False
    # changes the user pool's platform groups (AdminAdd/RemoveUserFromGroup; env USER_POOL_ID)
    manages_roles: bool = False
    # deletes an erased player's user (AdminDeleteUser on the pool only; env USER_POOL_ID)
    erases_users: bool = False
    card_payments: bool = False  # reads the card payment provider's secret
    statement_files: StatementFiles | None = None  # large bank statements' uploads (S3)
    # the adjourned positions' photos, in the statement bucket under their own prefix: presigned
    # POSTs to upload one and presigned GETs to show one (s3:PutObject, s3:GetObject there)
    position_photos: bool = False
    idempotent: bool = False  # uses the Powertools idempotency table
    timeout_seconds: int = 10
    memory_mb: int = 512
    # at most this many at once (ratings: 1, so that replays never interleave)
    reserved_concurrency: int | None = None

    @property
    def handler(self) -> str:
        return f"{self.module}.handler"

    @property
    def arn_env_var(self) -> str:
        """The variable that tells a scheduling function this one's ARN: NOSHOW_FUNCTION_ARN."""
        return arn_env_var(self.name)

    def table_specs(self) -> list[tuple[TableSpec, Access]]:
        specs = {t.name: t for t in TABLES}
        granted = [(specs[name], access) for name, access in self.tables.items()]
        if self.idempotent:
            granted.append((IDEMPOTENCY, "read_write"))
        return granted

    def app(self) -> Resolver:
        """This HTTP function's resolver, told whether it uses DynamoDB: then each of its
        routes may answer 503 `busy` (AWS's "not now"), and its OpenAPI document says so."""
        app: Resolver = importlib.import_module(self.module).app
        app.answers_busy = bool(self.table_specs())
        return app

    def routes(self) -> list[Route]:
        """The HTTP routes this function serves, read from its resolver's OpenAPI schema."""
        if not self.http:
            return []
        schema = self.app().get_openapi_schema()
        routes: list[Route] = []
        for path, item in (schema.paths or {}).items():
            for method in ("get", "post", "put", "patch", "delete"):
                operation = getattr(item, method, None)
                if operation is not None:
                    routes.append(Route(method.upper(), path, public=not operation.security))  # type: ignore[arg-type]
        return sorted(routes, key=lambda r: (r.path, r.method))


FUNCTIONS: tuple[Function, ...] = (
    Function(
        name="players",
        module="functions.players.handler",
        description="Player accounts: Tavla ID, profile, check-in pass, notifications, my data, "
        "erasure, merge",
        tables={MAIN.name: "read_write", CONTACTS.name: "read_write"},
        reads_pass_key=True,
        erases_users=True,
        reads_push_key=True,  # GET /push/key
    ),
    Function(
        name="federation",
        module="functions.federation.handler",
        description="The federation's own records: platform roles its admins grant, requests to "
        "organise, clubs",
        tables={MAIN.name: "read_write"},
        manages_roles=True,
    ),
    Function(
        name="tournaments",
        module="functions.tournaments.handler",
        description="Tournament pages, settings and per-tournament staff; cancelled or postponed",
        tables={MAIN.name: "read_write"},
        idempotent=True,
        card_payments=True,  # a cancellation's card refunds go back through the provider
        schedules=("unpaid",),  # the payment deadline's schedules (set, moved) and refund retries
    ),
    Function(
        name="registrations",
        module="functions.registrations.handler",
        description="Registration, waiting list, withdrawal with promotion, public entry list",
        tables={MAIN.name: "read_write"},
        idempotent=True,
        card_payments=True,  # R3.5: a withdrawal's card refund goes back at once
        schedules=("unpaid",),  # ... and is retried by schedules if the provider fails
    ),
    Function(
        name="checkin",
        module="functions.checkin.handler",
        description="Check-in at the referee table and the staff's contact list",
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
        reads_pass_key=True,
    ),
    Function(
        name="draw",
        module="functions.draw.handler",
        description="Draws: the next round through the API, published atomically; the public rounds",
        tables={MAIN.name: "read_write"},
        timeout_seconds=29,
        memory_mb=1024,
    ),
    Function(
        name="result",
        module="functions.result.handler",
        description="Live score, declared and confirmed results; the public match",
        tables={MAIN.name: "read_write"},
    ),
    Function(
        name="notify",
        module="functions.notify.handler",
        description="Turns domain events into the in-app feed, SMS and e-mail (table calls too)",
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
        http=False,
        events=(
            REGISTRATION_PROMOTED,
            MATCHES_CALLED,
            NOSHOW_RULED,
            SUPER_FINAL_INVITED,
            SUPER_FINAL_SEAT_PASSED,
            ORGANISER_REQUESTED,
            ORGANISER_REQUEST_DECIDED,
            TOURNAMENT_CANCELLED,
            TOURNAMENT_POSTPONED,
        ),
        sends_sms=True,
        sends_email=True,
        reads_push_key=True,
        timeout_seconds=29,  # a round's table calls: every player's browsers by push
    ),
    # the venue's live channel: change hints to the screens (docs/live.md)
    Function(
        name="live",
        module="functions.live.handler",
        description="Domain events -> change hints and the board's deltas on the live channel",
        http=False,
        events=(
            MATCHES_CALLED,
            MATCH_CHANGED,
            RESULT_CONFIRMED,
            NOSHOW_RULED,
            REGISTRATION_PROMOTED,
            ENTRIES_CHANGED,
            TOURNAMENT_FINISHED,
            SEASON_CHANGED,
            SEASON_STANDINGS_CHANGED,
            SUPER_FINAL_INVITED,
            SUPER_FINAL_ACCEPTED,
            SUPER_FINAL_SEAT_PASSED,
        ),
        publishes_live=True,
        # a busy venue's results arrive several a second: the board is read once per batch
        batch_seconds=1,
        # the tournament channel's deltas: the board read, its counter item written
        tables={MAIN.name: "read_write"},
        memory_mb=256,
    ),
    Function(
        name="liveauth",
        module="functions.liveauth.handler",
        description="Who may listen on a staff channel of the live channel: the tournament's staff",
        tables={MAIN.name: "read"},
        http=False,
        authorizes_live=True,
        memory_mb=256,
    ),
    Function(
        name="publisher",
        module="functions.publisher.handler",
        description="Domain events written with their change, moved from the table's stream to the bus",
        tables={MAIN.name: "read_write"},  # reads whether an event is still pending, deletes it once sent
        http=False,
        drains_outbox=True,
        publishes_events=True,
        timeout_seconds=60,
        memory_mb=256,
    ),
    # table call and no-show (R6)
    Function(
        name="presence",
        module="functions.presence.handler",
        description="At the table: presence, calls, adjourned matches, breaks (R6, R7.7)",
        tables={MAIN.name: "read_write"},
        # deletes a match's deadline once nobody is awaited; an adjournment's and a break's deadlines
        schedules=("noshow",),
        position_photos=True,
    ),
    Function(
        name="tablecall",
        module="functions.tablecall.handler",
        description="Matches called -> their no-show deadline schedules",
        tables={MAIN.name: "read"},
        http=False,
        events=(MATCHES_CALLED,),
        schedules=("noshow",),
    ),
    Function(
        name="noshow",
        module="functions.noshow.handler",
        description="A no-show deadline: penalty points or forfeit for absent players (R6.1, R7.6)",
        tables={MAIN.name: "read_write"},
        http=False,
        scheduled=True,
        timeout_seconds=29,
        memory_mb=1024,
    ),
    Function(
        name="board",
        module="functions.board.handler",
        description="The public venue board and standings: tables, live scores, brackets, places",
        tables={MAIN.name: "read"},
    ),
    Function(
        name="finish",
        module="functions.finish.handler",
        description="Finishing a tournament (final standings, TournamentFinished) and the federation report",
        # R11.4: CONTACTS read: the finish freezes category-prize eligibility
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
    ),
    # --- appeals and conduct
    Function(
        name="appeal",
        module="functions.appeal.handler",
        description="Appeals: lodged by a player within the window, decided by the referee or a committee",
        # the decision told to both players in their language (push, SMS if chosen)
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
        sends_sms=True,
        sends_email=True,
        reads_push_key=True,
    ),
    Function(
        name="conduct",
        module="functions.conduct.handler",
        description="Conduct: penalties by the ladder, withdrawal during the day, disqualification",
        tables={MAIN.name: "read_write"},
    ),
    # --- money (R3.3-R3.6)
    Function(
        name="payments",
        module="functions.payments.handler",
        description="Entry-fee money: ledgers, venue payments, card checkout, refunds, prizes, statements",
        # CONTACTS read: gender and birth year decide category-prize eligibility (R11.4)
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
        card_payments=True,
        schedules=("unpaid",),  # the payment deadline's notice and release
        statement_files="put",  # a large statement is stored for the statements job
        timeout_seconds=29,  # a statement of a few hundred lines is imported within the request
    ),
    Function(
        name="statements",
        module="functions.statements.handler",
        description="A large bank statement imported in the background, its progress written as it goes",
        tables={MAIN.name: "read_write"},
        http=False,
        events=(STATEMENT_UPLOADED,),
        statement_files="read",
        # the size limit's ~45,000 lines (bench/bench_statements.py), with room; a run cut short
        # is delivered again and goes on from its progress
        timeout_seconds=900,
        memory_mb=1769,
    ),
    Function(
        name="paywebhook",
        module="functions.paywebhook.handler",
        description="The card payment provider's signed webhook: each payment recorded once",
        tables={MAIN.name: "read_write"},
        card_payments=True,
    ),
    Function(
        name="unpaid",
        module="functions.unpaid.handler",
        description="A payment deadline: unpaid players told, then their places released to the "
        "waiting list; card refunds the provider did not take retried",
        # the reminder told to each player in their language (push, SMS if chosen)
        tables={MAIN.name: "read_write", CONTACTS.name: "read"},
        http=False,
        scheduled=True,
        sends_sms=True,
        sends_email=True,
        reads_push_key=True,
        card_payments=True,  # R3.5: retries a card refund through the provider
        timeout_seconds=29,
    ),
    Function(
        name="retention",
        module="functions.retention.handler",
        description="The retention periods (R12): contacts of inactive players, matched payers' "
        "names, old notices and audit details purged daily",
        tables={MAIN.name: "read_write", CONTACTS.name: "read_write"},
        http=False,
        cron="cron(45 3 * * ? *)",  # daily, after the nightly ratings compare at 02:30
        timeout_seconds=900,
    ),
    # --- ratings, the season, the Super Final (R10.3-R10.5, R1.1)
    Function(
        name="ratings",
        module="functions.ratings.handler",
        description="Ratings: each official result once, in official order; merges; a cancelled "
        "tournament's results taken out; the nightly rebuild",
        tables={MAIN.name: "read_write"},
        http=False,
        events=(RESULT_CONFIRMED, PLAYERS_MERGED, TOURNAMENT_UNRATED),
        cron="cron(30 2 * * ? *)",  # the nightly compare-and-repair (an EventBridge Scheduler cron)
        reserved_concurrency=1,  # replays never interleave; EventBridge's async queue holds the rest
        timeout_seconds=900,
        memory_mb=1769,  # one full vCPU for the rebuild
    ),
    Function(
        name="season",
        module="functions.season.handler",
        description="Season points of each finished tournament, once; merges move them; "
        "a changed season recounted; the season closed at its end date; the Super Final's "
        "invitations: deadlines, seats passed down the list, its champion",
        tables={MAIN.name: "read_write"},
        http=False,
        events=(
            TOURNAMENT_FINISHED,
            PLAYERS_MERGED,
            SEASON_CHANGED,
            SUPER_FINAL_INVITED,
            SUPER_FINAL_SEAT_PASSED,
        ),
        # one-time schedules: the season's close at its end date, each invitation's deadline
        scheduled=True,
        schedules=("season",),  # ... which it creates when the season is set, and on each invitation
        # each finished tournament re-ranks the season into its standings snapshot: at
        # national size ~16 MB of entries parsed and ranked (~30 s on a loaded core), one at a
        # time (two at once would only collide on the snapshot's version and rank again)
        reserved_concurrency=1,
        timeout_seconds=300,
        memory_mb=1769,
    ),
    Function(
        name="rankings",
        module="functions.rankings.handler",
        description="The public rating list, seasons, season standings, the Super Final's "
        "invitations and its tournament",
        # writes: an admin sets a season; invited players answer; the final is created
        tables={MAIN.name: "read_write"},
        schedules=("season",),  # deletes an invitation's deadline once the player answered
    ),
    # the full rebuild's steps (WORKFLOWS "rebuild"), partitioned to fit Lambda
    Function(
        name="rebuild",
        module="functions.rebuild.handler",
        description="The full rebuild of ratings and season standings, one partitioned step at a time",
        tables={MAIN.name: "read_write"},
        http=False,
        timeout_seconds=900,
        memory_mb=1769,  # one full vCPU: each step replays or parses tens of thousands of items
    ),
    Function(
        name="openapi",
        module="functions.openapi.handler",
        description="The OpenAPI document of the whole HTTP API",
    ),
)


@dataclass(frozen=True)
class Step:
    """One step of a workflow: the function's handler gets {"step": name, "item": one element of
    the plan's `map_over` list} for a map step, else {"step": name, "state": everything so far}."""

    name: str
    map_over: str | None = None  # a list in the first step's output: a Distributed Map over it
    max_concurrency: int = 1  # a map's items in flight at once


@dataclass(frozen=True)
class Workflow:
    """A Step Functions state machine of one function's steps (the local stack runs them in order).

    The first step is the plan; each step's output is kept in the state under its name."""

    name: str
    function: str  # the registry function that runs every step
    description: str
    steps: tuple[Step, ...]
    cron: str | None = None  # an EventBridge Scheduler cron that starts an execution (UTC)
    timeout_minutes: int = 120


WORKFLOWS: tuple[Workflow, ...] = (
    # the full rebuild (services.full_rebuild says what runs in parallel and why)
    Workflow(
        name="rebuild",
        function="rebuild",
        description="Ratings and season standings rebuilt from the record: ledger by tournament "
        "chunks, histories by player shards, standings by season",
        steps=(
            Step("plan"),
            Step("ledger", map_over="chunks", max_concurrency=10),
            Step("check"),
            Step("players", map_over="shards", max_concurrency=8),
            Step("seasons", map_over="seasons", max_concurrency=4),
        ),
        cron="cron(0 4 ? * SUN *)",  # weekly, away from the nightly compare at 02:30
    ),
)


def workflow(name: str) -> Workflow:
    return next(w for w in WORKFLOWS if w.name == name)


def function(name: str) -> Function:
    return next(f for f in FUNCTIONS if f.name == name)
