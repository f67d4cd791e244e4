"""Cost model of watching a tournament day: what 100 phones polling the
public board every 10 s for 6 hours cost in AWS requests, with CloudFront in front of the
HTTP API and without it; and what the same day costs on the live channel (AppSync Events:
connection-minutes, published hints and deltas, their deliveries, and the refetches hints
cause), notices by Web Push and the outbox that carries the day's events to the bus
included. Goal: at most USD 0.05 in requests at list prices (SMS priced apart, per player
who opted in).

Run from the repository root: `PYTHONPATH=shared:. .venv/bin/python -m bench.bench_cost`.
It prints each line item and the totals; it asserts nothing (the inputs are estimates).

Prices are AWS list prices as of 2026, and they are inputs (`Prices`), not facts checked
here: CloudFront HTTPS requests USD 0.0100 per 10,000 and data transfer out USD 0.085/GB
(Europe, first 10 TB); HTTP API USD 1.00 per million requests (first 300 million, us-east-1
and eu-central-1 alike); Lambda USD 0.20 per million requests plus USD 0.0000166667 per
GB-second (x86 list price; arm64 is 20 % less, so this errs high); DynamoDB on-demand USD
0.25 per million read request units; data transfer out from API Gateway to the internet
USD 0.09/GB (EC2's first 10 TB tier, which API Gateway bills at). CloudFront's always-free
tier (10 million requests and 1 TB a month) is ignored in the totals: it is shared by
everything on the account, and a busy month uses it up.

The model: every poll is a request to CloudFront (the phone's own cache does not answer it:
with max-age <= the poll interval its copy has expired by the next poll). Each edge that
serves viewers keeps one copy; it refetches from the origin when its copy is older than
max-age, i.e. once per (max-age + the gap until the next viewer's request) seconds, so
the origin's load depends on max-age and the number of edges, not on the number of viewers.
A refetch is a conditional request; even when the origin answers 304 it costs one HTTP API
request, one Lambda invocation and the board's reads. The response size is an assumption
to be replaced by a measurement.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

GOAL_USD = 0.05
MILLION = 1_000_000
GB = 1024**3


@dataclass(frozen=True)
class Prices:
    """USD, AWS list prices as of 2026 (see the module's docstring for which region and tier)."""

    cloudfront_per_10k_requests: float = 0.0100  # HTTPS, Europe
    cloudfront_transfer_per_gb: float = 0.085  # to the internet, Europe, first 10 TB

    http_api_per_million: float = 1.00  # first 300 million a month
    api_transfer_per_gb: float = 0.09  # API Gateway to the internet, first 10 TB

    lambda_per_million: float = 0.20
    lambda_per_gb_second: float = 0.0000166667  # x86; arm64 is 20 % less

    dynamodb_per_million_rru: float = 0.25  # on-demand reads
    dynamodb_per_million_wru: float = 1.25  # on-demand writes
    scheduler_per_million: float = 1.00  # EventBridge Scheduler invocations
    eventbridge_per_million_events: float = 1.00  # custom events put (each 64 KB chunk)

    # AppSync Events: each published event and each delivery is an operation
    appsync_per_million_operations: float = 1.00
    appsync_per_million_connection_minutes: float = 0.08
    # SNS SMS to a Greek mobile: an assumption (SNS prices SMS per country and carrier)
    sms_each: float = 0.06


LIST_PRICES = Prices()


@dataclass(frozen=True)
class Scenario:
    viewers: int = 100
    interval_s: float = 10.0
    hours: float = 6.0
    max_age_s: float = 5.0
    edges: int = 2  # CloudFront edge locations the viewers are spread over (one venue, one city)
    response_bytes: int = 4 * 1024  # the board, gzip; assumed until measured
    lambda_memory_mb: int = 512
    lambda_ms: float = 20.0  # assumed duration of a board render
    rru_per_render: float = 8.0  # DynamoDB read request units per board render (assumed)
    cloudfront: bool = True

    @property
    def seconds(self) -> float:
        return self.hours * 3600

    @property
    def viewer_requests(self) -> float:
        return self.viewers * self.seconds / self.interval_s


def origin_requests(s: Scenario) -> float:
    """Requests that reach the HTTP API: every poll without CloudFront, the edges' refetches with it."""
    if not s.cloudfront:
        return s.viewer_requests
    viewers_per_edge = s.viewers / s.edges
    gap = s.interval_s / viewers_per_edge  # mean wait for the next request after a copy expires
    per_edge = s.seconds / (s.max_age_s + gap)
    return min(s.viewer_requests, s.edges * per_edge)


def line_items(s: Scenario, p: Prices = LIST_PRICES) -> list[tuple[str, float, str]]:
    """(item, USD, how it was computed)."""
    origin = origin_requests(s)
    gb_seconds = origin * (s.lambda_memory_mb / 1024) * (s.lambda_ms / 1000)
    rrus = origin * s.rru_per_render
    transfer_gb = s.viewer_requests * s.response_bytes / GB
    items: list[tuple[str, float, str]] = []
    if s.cloudfront:
        items.append(
            (
                "CloudFront requests",
                s.viewer_requests / 10_000 * p.cloudfront_per_10k_requests,
                f"{s.viewer_requests:,.0f} x USD {p.cloudfront_per_10k_requests}/10k",
            )
        )
    items += [
        (
            "HTTP API requests",
            origin / MILLION * p.http_api_per_million,
            f"{origin:,.0f} x USD {p.http_api_per_million}/M",
        ),
        (
            "Lambda requests",
            origin / MILLION * p.lambda_per_million,
            f"{origin:,.0f} x USD {p.lambda_per_million}/M",
        ),
        (
            "Lambda compute",
            gb_seconds * p.lambda_per_gb_second,
            f"{gb_seconds:,.1f} GB-s ({s.lambda_memory_mb} MB x {s.lambda_ms:.0f} ms)",
        ),
        (
            "DynamoDB reads",
            rrus / MILLION * p.dynamodb_per_million_rru,
            f"{rrus:,.0f} RRU ({s.rru_per_render:g} per render)",
        ),
    ]
    transfer_price = p.cloudfront_transfer_per_gb if s.cloudfront else p.api_transfer_per_gb
    items.append(
        (
            "data transfer out",
            transfer_gb * transfer_price,
            f"{transfer_gb:.2f} GB ({s.response_bytes / 1024:g} KB a response) x USD {transfer_price}/GB",
        )
    )
    return items


def report(title: str, s: Scenario) -> tuple[float, float]:
    """Print one scenario; returns (requests total, total with transfer)."""
    items = line_items(s)
    requests_usd = sum(usd for name, usd, _ in items if name != "data transfer out")
    total = sum(usd for _, usd, _ in items)
    print(f"-- {title}")
    print(
        f"   {s.viewers} viewers every {s.interval_s:g} s for {s.hours:g} h = "
        f"{s.viewer_requests:,.0f} polls; origin requests {origin_requests(s):,.0f}"
    )
    for name, usd, how in items:
        print(f"   {name:<20} USD {usd:8.4f}   {how}")
    verdict = "within" if requests_usd <= GOAL_USD else "over"
    print(f"   {'requests total':<20} USD {requests_usd:8.4f}   ({verdict} the USD {GOAL_USD} goal)")
    print(f"   {'total with transfer':<20} USD {total:8.4f}")
    return requests_usd, total


BOARD = Scenario()


@dataclass(frozen=True)
class LiveDay:
    """A 64-player, 6-round Swiss day watched on the live channel instead of by polling."""

    screens: int = 101  # 100 phones and the TV, all on the tournament's channel
    hours: float = 6.0
    players: int = 64
    rounds: int = 6
    # writes of a match its screens are told of: the call, two reports, the confirmation
    # (MatchChanged, MatchesCalled, ResultConfirmed); live scores would add one each
    hints_per_match: float = 4.0
    match_listeners: float = 2.0  # the two players' phones on the match's channel
    staff_listeners: int = 3  # organiser and referees on the staff channel
    # the tournament channel: a hint per change, each refetched by every screen (as 0025 built
    # it), or a delta per public change applied in memory (0041: a result, a draw or a call)
    deltas: bool = False
    # a table call apart from its round's draw (a queued match put on a freed table)
    late_calls_per_round: float = 4.0
    # deltas that are a refetch: late entries and withdrawals during the day (check-ins are not
    # on the public channel), the finish, a redelivered event now and then
    refetch_deltas: float = 10.0
    # screens kept by deltas read the board once per this many seconds as a safety net (0: never)
    safety_poll_s: float = 0.0
    edges: int = 2  # a refetch with the hint's version is one origin request per edge
    notices_per_player: float = 8.0  # table calls (6), a result or two: Web Push, no AWS price
    lambda_ms: float = 50.0  # the live function per event (256 MB)
    # a delta renders the board in the live function (the board function's time and reads)
    board_ms: float = 20.0
    # notify per event (512 MB): the feed's writes, then each browser's push over HTTPS
    # (~0.1 s each, 16 at once); a round's calls are one event per table call
    notify_ms_per_push: float = 100.0 / 16
    notify_wru_per_notice: float = 4.0  # the feed item and its once-marker (a transaction: x2)
    # the outbox: each domain event is an item written in its change's transaction (x2 WRU),
    # read once by the publisher (consistent, 1 RRU), put on the bus and deleted (1 WRU); the
    # stream's reads are free to a Lambda trigger, and with no batching window every
    # change's events are one publisher invocation (256 MB)
    publisher_ms: float = 30.0

    @property
    def matches(self) -> int:
        return self.players // 2 * self.rounds

    @property
    def board_messages(self) -> float:
        """Messages on the tournament channel: hints (one per change) or deltas."""
        if not self.deltas:
            return self.matches * self.hints_per_match + self.rounds
        return self.matches + self.rounds * (1 + self.late_calls_per_round) + self.refetch_deltas

    @property
    def board_refetches(self) -> float:
        """Tournament-channel messages that send every screen to the board."""
        return self.refetch_deltas if self.deltas else self.board_messages


def live_items(d: LiveDay, p: Prices = LIST_PRICES, board: Scenario = BOARD) -> list[tuple[str, float, str]]:
    """(item, USD, how): the live channel's own bill and the refetches its messages cause."""
    connection_minutes = d.screens * d.hours * 60
    match_hints = d.matches * d.hints_per_match
    staff_hints = match_hints
    published = d.board_messages + match_hints + staff_hints
    deliveries = (
        d.board_messages * d.screens + match_hints * d.match_listeners + staff_hints * d.staff_listeners
    )
    safety = d.screens * d.hours * 3600 / d.safety_poll_s if d.safety_poll_s else 0.0
    # every told screen asks for what it shows, If-None-Match: the match and staff screens per
    # hint; every screen per board hint (or refetch delta); the safety net's reads
    refetches = (
        d.board_refetches * d.screens + match_hints * d.match_listeners + staff_hints * d.staff_listeners
    )
    refetches += safety
    polled = replace(board, viewers=d.screens, interval_s=d.safety_poll_s, hours=d.hours) if safety else None
    # a refetch told by a message: a new ?v= key, once per edge; the safety reads as polls
    origin = (d.board_refetches + match_hints) * d.edges + (origin_requests(polled) if polled else 0.0)
    events = d.matches * d.hints_per_match + d.rounds
    lambda_gb_s = events * 0.25 * d.lambda_ms / 1000
    # a delta: the board rendered in the live function, one counter write (UpdateItem ADD)
    renders = d.board_messages - d.board_refetches if d.deltas else 0.0
    counter_wru = d.board_messages if d.deltas else 0.0
    pushes = d.players * d.notices_per_player
    # every change that tells a screen is a domain event (a round's draw, a match's call,
    # reports, confirmation), and so is every entry (registered, promoted, withdrawn)
    domain_events = events + d.players
    outbox_wru = domain_events * (2 + 1)
    notify_gb_s = pushes * 0.5 * d.notify_ms_per_push / 1000
    kind = "deltas" if d.deltas else "hints"
    return [
        (
            "AppSync connections",
            connection_minutes / MILLION * p.appsync_per_million_connection_minutes,
            f"{connection_minutes:,.0f} connection-minutes ({d.screens} screens x {d.hours:g} h)",
        ),
        (
            "AppSync publishes",
            published / MILLION * p.appsync_per_million_operations,
            f"{published:,.0f} hints and deltas posted",
        ),
        (
            "AppSync deliveries",
            deliveries / MILLION * p.appsync_per_million_operations,
            f"{deliveries:,.0f} = {d.board_messages:,.0f} board {kind} x {d.screens} + match and staff",
        ),
        (
            "refetches (CloudFront)",
            refetches / 10_000 * p.cloudfront_per_10k_requests,
            f"{refetches:,.0f} conditional GETs ({d.board_refetches:,.0f} board refetches x {d.screens}, "
            f"{safety:,.0f} safety polls, match and staff hints)",
        ),
        (
            "refetches (origin)",
            origin / MILLION * (p.http_api_per_million + p.lambda_per_million)
            + origin * board.rru_per_render / MILLION * p.dynamodb_per_million_rru
            + origin * (board.lambda_memory_mb / 1024) * (board.lambda_ms / 1000) * p.lambda_per_gb_second,
            f"{origin:,.0f} (a new ?v= key per refetch, once per edge; the safety reads' misses)",
        ),
        (
            "live function",
            events / MILLION * p.lambda_per_million
            + (lambda_gb_s + renders * 0.25 * d.board_ms / 1000) * p.lambda_per_gb_second
            + renders * board.rru_per_render / MILLION * p.dynamodb_per_million_rru
            + counter_wru / MILLION * p.dynamodb_per_million_wru,
            f"{events:,.0f} events, {renders:,.0f} board renders, {counter_wru:,.0f} counter writes",
        ),
        (
            "outbox and publisher",
            domain_events / MILLION * (p.eventbridge_per_million_events + p.lambda_per_million)
            + domain_events * 0.25 * d.publisher_ms / 1000 * p.lambda_per_gb_second
            + outbox_wru / MILLION * p.dynamodb_per_million_wru
            + domain_events / MILLION * p.dynamodb_per_million_rru,
            f"{domain_events:,.0f} domain events: written with their change, put on the bus, "
            f"deleted ({outbox_wru:,.0f} WRU)",
        ),
        (
            "Web Push notices",
            pushes / MILLION * p.lambda_per_million
            + notify_gb_s * p.lambda_per_gb_second
            + pushes * d.notify_wru_per_notice / MILLION * p.dynamodb_per_million_wru,
            f"{pushes:,.0f} pushes (the feed's writes, notify's time; push services charge nothing)",
        ),
    ]


def report_live(title: str, d: LiveDay) -> float:
    items = live_items(d)
    total = sum(usd for _, usd, _ in items)
    print(f"-- {title}")
    for name, usd, how in items:
        print(f"   {name:<22} USD {usd:8.4f}   {how}")
    top = max(items, key=lambda i: i[1])
    verdict = "within" if total <= GOAL_USD else "over"
    print(f"   {'total':<22} USD {total:8.4f}   ({verdict} the USD {GOAL_USD} goal; most: {top[0]})")
    return total


def main() -> int:
    base = Scenario()
    print("Cost of watching a 64-player day (list prices, CloudFront free tier ignored; SMS aside)")
    for max_age in (5.0, 10.0):
        report(
            f"CloudFront, board max-age {max_age:g} s, {base.edges} edges", replace(base, max_age_s=max_age)
        )
    report("without CloudFront (every poll reaches the HTTP API)", replace(base, cloudfront=False))
    # What the origin alone costs behind CloudFront: the bill while the free tier lasts.
    origin_only = sum(
        usd for name, usd, _ in line_items(base) if name not in ("CloudFront requests", "data transfer out")
    )
    print(
        f"-- origin requests alone behind CloudFront, max-age 5 s: USD {origin_only:.4f} "
        "(the bill while CloudFront's free 10 M requests a month last)"
    )
    per_poll = LIST_PRICES.cloudfront_per_10k_requests / 10_000
    budget_polls = (GOAL_USD - origin_only) / per_poll
    print(
        f"-- the goal's budget pays for {budget_polls:,.0f} CloudFront requests at list price: "
        f"{base.viewers} phones every {base.seconds * base.viewers / budget_polls:.0f} s"
    )
    print()
    print("The same day on the live channel (AppSync Events), hints instead of polls")
    day = LiveDay()
    report_live("a hint per change on every channel (every screen refetches the board each time)", day)
    built = replace(day, deltas=True)
    report_live(
        "deltas, and a safety read per screen every 300 s (not built)", replace(built, safety_poll_s=300.0)
    )
    total = report_live(
        "AS BUILT: deltas on the tournament channel (applied in memory; a refetch only for "
        "entries, the finish or a gap; no periodic read while the socket is heard), "
        "match and staff hints at once, notices by Web Push",
        built,
    )
    print(f"-- the watched day as built: USD {total:.4f} (goal USD {GOAL_USD})")
    print(
        f"-- SMS, priced apart: USD {day.notices_per_player * LIST_PRICES.sms_each:.2f} a day for each "
        f"player who opted in and has no working push subscription ({day.notices_per_player:g} notices "
        f"x USD {LIST_PRICES.sms_each} assumed)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
