"""The tournament day as one aggregate: its matches, the venue's tables, the field, and the
operations that move it on, each returning one `DayChange` for a service to save at once.

Every change that can decide a match (a confirmed result, a forfeit at the no-show deadline,
an appeal decision, a withdrawal) and every draw go through here: the rules play the draws
forward (`rules.day.flow`: next matches filled, BYEs walked over, the reset final dropped),
the matches of players out of play are forfeited as soon as they are due (R8.2, R8.3), the
matches that wait for an open appeal are held back (R9.2), the tables of matches that are
over are freed and what can be played next is seated (R6). The change says what to write
(each match with the version it was read at, the table plan with its version), what to
record (audit) and what to announce (`ResultConfirmed`, `MatchesCalled`). No I/O here:
a service loads the day, applies one operation, saves the change, and retries on conflict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from tavla.errors import AlreadyOut
from tavla.frozen import Frozen
from tavla.rules.event_names import MATCHES_CALLED, RESULT_CONFIRMED
from tavla.rules.results import Result
from tavla.rules.score_entries import ScoreEntry
from tavla.rules.states import AT_TABLE, OFF_TABLE, STARTED, UNDECIDED, State
from tavla.rules.tables import TablePlan, release, seat

if TYPE_CHECKING:  # the draws' rules load with the first change that moves the day on
    from tavla.rules import day as rules_day
    from tavla.rules.operations import Operation

MATCH_ID_SEPARATOR = "."


def match_id(tournament_id: str, code: str) -> str:
    """The public id of a match: its tournament and its code (main.R2.3), so one read finds it."""
    return f"{tournament_id}{MATCH_ID_SEPARATOR}{code}"


Bracket = Literal["main", "winners", "losers", "final", "final_reset", "consolation", "last_chance"]


def bracket_of(event: str, label: str) -> tuple[Bracket, int]:
    """Which bracket a match is in and its round there, from its event and label: R2 (main),
    W3 / L4 (winners / losers), GF1 / GF2 (final / final reset), S3, RR5, V2 (main)."""
    digits = "".join(ch for ch in label if ch.isdigit())
    number = int(digits) if digits else 1
    if event == "consolation":
        return "consolation", number
    if event == "last_chance":
        return "last_chance", number
    if label == "GF1":
        return "final", 1
    if label == "GF2":
        return "final_reset", 1
    if label.startswith("W"):
        return "winners", number
    if label.startswith("L"):
        return "losers", number
    return "main", number


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, eq=False, repr=False)
class Actor(Frozen):
    """Who made a change: the sub stays internal; readers see the Tavla ID and the role."""

    role: str  # "organiser" | "referee" | "admin" | "player" | "system"
    tavla_id: str | None = None
    sub: str | None = None


SYSTEM = Actor(role="system")


@dataclass(frozen=True, eq=False, repr=False)
class AuditRecord(Frozen):
    at: str
    action: str
    actor: Actor
    details: Mapping[str, Any] = field(default_factory=dict)


def audit_entry(actor: Actor, action: str, at: datetime, **details: Any) -> AuditRecord:
    """An audit record to write with a change (details that are None are left out)."""
    return AuditRecord(
        at=at.isoformat(),
        action=action,
        actor=actor,
        details={k: v for k, v in details.items() if v is not None},
    )


@dataclass(frozen=True, eq=False, repr=False)
class FieldRecord(Frozen):
    """The players in the draw, fixed by the first draw (R4.2): the public inputs of every draw.

    `entrants` are {player_id, rating, club} in entry order; `withdrawn` and `disqualified`
    grow during the day (R8.2, R8.3).
    """

    tournament_id: str
    fixed_at: str
    entrants: tuple[Mapping[str, Any], ...]
    withdrawn: tuple[str, ...] = ()
    disqualified: tuple[str, ...] = ()

    @property
    def out_of_play(self) -> set[str]:
        """Players no longer paired: withdrawn or disqualified (R8.2, R8.3)."""
        return set(self.withdrawn) | set(self.disqualified)


@dataclass(frozen=True, eq=False, repr=False)
class TablesRecord(Frozen):
    """The venue's tables (R6): which match holds each one, the queue, and a version to write by."""

    tournament_id: str
    count: int
    occupied: Mapping[str, str] = field(default_factory=dict)  # table number (as text) -> match code
    queue: tuple[str, ...] = ()
    version: int = 0
    # the matches under an open appeal (R9.2), kept here so a change that reads only its own
    # matches knows whether anything it would call is held; None: not recorded yet (older plans)
    appeals: tuple[str, ...] | None = None
    # constraints (rules.venue): table number (as text) -> its attributes; Tavla ID -> needs
    # (private: never on a public route); matches marked for streaming, or the Main's board 1;
    # matches whose hold staff released; the tournaments sharing the hall
    attributes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    needs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    streamed: tuple[str, ...] = ()
    stream_top: bool = False
    released: tuple[str, ...] = ()
    beside: tuple[str, ...] = ()
    # each queued or seated match's demand, so a change that reads part of the day seats any
    # queued match by its constraints; None: not recorded yet (older plans: the whole day is read)
    demands: Mapping[str, Mapping[str, Any]] | None = None
    # each player at a table -> his match, as written (derived from `occupied` and `demands`):
    # a tournament beside conditions its calls on it; None: a plan written before it was kept
    seated: Mapping[str, str] | None = None


@dataclass(frozen=True, eq=False, repr=False)
class FixtureRecord(Frozen):
    """A match: where it sits in its draw, who plays, and everything of its day (R6-R9).

    `state` is the match's life (`rules.states.State`); `result` its official result once
    decided (`rules.results.Result`).
    """

    tournament_id: str
    code: str
    draw: int
    event: str
    round: int
    label: str
    board: int
    stage: str
    length: int
    home_source: Mapping[str, Any]
    away_source: Mapping[str, Any]
    state: State
    position: int = 0  # its place in its draw's order (feeders before the matches they feed)
    version: int = 0
    unless_home_wins: str | None = None
    home: str | None = None
    away: str | None = None
    table: int | None = None
    called_at: str | None = None
    present: Mapping[str, str] = field(default_factory=dict)  # side -> when
    excused: Mapping[str, str] = field(default_factory=dict)  # side -> when
    late_points: Mapping[str, int] = field(default_factory=dict)  # side -> points given away
    flags: tuple[str, ...] = ()  # for the referee: both_absent, reports_differ, ...
    games: tuple[ScoreEntry, ...] = ()  # the live score's log (R7.2-R7.6)
    score: tuple[int, int] = (0, 0)
    reports: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # side -> declared score
    result: Result | None = None
    finished_at: str | None = None
    official_at: str | None = None
    appeal: str | None = None  # the open appeal's id: the result is frozen (R9.2)
    # Tavla ID -> the result (fingerprint) that player's decided appeal ended (R9.3, R9.5)
    appeals_heard: Mapping[str, str] = field(default_factory=dict)
    started_at: str | None = None
    division: str | None = None  # of a tournament of several divisions (R3.7)
    # the matches of its draw its result decides (a side, or whether the reset is needed): what
    # a change of this match reads besides it; None: drawn before this was stored
    feeds: tuple[str, ...] | None = None
    # the last adjournment: the state it left its table in (`rules.adjournment`)
    adjournment: Mapping[str, Any] | None = None
    breaks: tuple[Mapping[str, Any], ...] = ()  # the breaks taken, the running one last (R7.7)
    attempt: int = 1  # the attempt of its draw it belongs to (2.. once redrawn, R5.1)
    # 1: a match of `length` points; 3: a best-of-three series of `length`-point legs (cnb 2.2.2)
    best_of: int = 1
    legs: tuple[tuple[int, int], ...] = ()  # a series' finished legs, official scores home first

    @property
    def won_at(self) -> int:
        """What the winner's side of the official result holds: the match length, or the
        legs a series is won with (2 of 3)."""
        return self.length if self.best_of == 1 else self.best_of // 2 + 1


@dataclass(frozen=True, eq=False, repr=False)
class DomainEvent(Frozen):
    """An event to announce once the change is saved: its detail type and detail."""

    detail_type: str
    detail: Mapping[str, Any]


@dataclass(frozen=True, eq=False, repr=False)
class DayChange(Frozen):
    """Everything one operation changes, to be written at once.

    `matches`: each match as changed with the version it was read at (None: a new match);
    `tables`: the plan with the version it was read at (None: no plan yet), or no plan change.
    """

    matches: tuple[tuple[FixtureRecord, int | None], ...] = ()
    tables: tuple[TablesRecord, int | None] | None = None
    audit: tuple[AuditRecord, ...] = ()
    events: tuple[DomainEvent, ...] = ()
    confirmed: tuple[FixtureRecord, ...] = ()  # results that became official (or changed)
    called: tuple[FixtureRecord, ...] = ()  # matches put on a table

    def with_audit(self, records: Iterable[AuditRecord]) -> DayChange:
        return replace(self, audit=(*self.audit, *records))

    def after(self, code: str) -> FixtureRecord | None:
        """Match `code` as this change leaves it (None: unchanged)."""
        return next((r for r, _ in self.matches if r.code == code), None)


# --------------------------------------------------------------------------- dependencies


def depends_on(record: FixtureRecord, target: FixtureRecord) -> bool:
    """`record` depends on `target`'s result: a match fed by it (its winner or loser), or a
    later draw's match of one of its players (the next Swiss or lives round was paired from it)."""
    if record.code == target.code:
        return False
    players = {target.home, target.away} - {None}
    fed = target.code in (record.home_source.get("match"), record.away_source.get("match"))
    later = record.draw > target.draw and bool(players & {record.home, record.away})
    return fed or later


def locked(target: FixtureRecord, records: Iterable[FixtureRecord]) -> bool:
    """R9.4: a result no longer changes once a match that depends on it has started."""
    return any(r.state in STARTED and depends_on(r, target) for r in records)


def held(records: Mapping[str, FixtureRecord]) -> set[str]:
    """R9.2: the matches that wait for an open appeal's decision (they depend on an appealed match)."""
    appealed = [r for r in records.values() if r.appeal]
    if not appealed:
        return set()
    return {c for c, r in records.items() if any(depends_on(r, a) for a in appealed)}


def forfeit_result(match: FixtureRecord, loser: str, how: Any) -> Result:
    """A forfeit: match length to nil for the opponent (R8.1)."""
    assert match.home is not None and match.away is not None
    return Result.forfeited(match.home, match.away, match.won_at, loser, how)


# --------------------------------------------------------------------------- the rules' view


_SETTLED_SLOT = {
    "waiting": State.WAITING,
    "walkover": State.BYE,
    "void": State.VOID,
    "not_needed": State.NOT_NEEDED,
    "played": State.OFFICIAL,
}


def state_after_flow(slot: rules_day.SlotState, current: State | None) -> State:
    """A stored match's state once the rules have said where its slot stands."""
    settled = _SETTLED_SLOT.get(slot.status)
    if settled is not None:
        return settled
    if current is not None and current in UNDECIDED:
        return current
    return State.QUEUED


_STORED_SLOT: dict[State, rules_day.SlotStatus] = {
    State.VOID: "void",
    State.NOT_NEEDED: "not_needed",
    State.WAITING: "waiting",
}


def slot_of(record: FixtureRecord) -> rules_day.SlotState:
    """A stored match as the rules' slot: how a match outside the part of the day being played
    forward stands for the matches it feeds."""
    from tavla.rules.day import SlotState

    home, away, state, result = record.home, record.away, record.state, record.result
    if state == State.OFFICIAL and result is not None:
        loser = away if result.winner == home else home
        return SlotState(
            code=record.code, status="played", home=home, away=away, winner=result.winner, loser=loser
        )
    if state == State.BYE:
        winner = result.winner if result is not None else (home or away)
        return SlotState(code=record.code, status="walkover", home=home, away=away, winner=winner)
    status = _STORED_SLOT.get(state, "ready")
    return SlotState(code=record.code, status=status, home=home, away=away)


def sources_of(record: FixtureRecord) -> set[str]:
    """The matches whose results decide this one's sides (or whether it is played at all)."""
    found = {record.home_source.get("match"), record.away_source.get("match"), record.unless_home_wins}
    return {c for c in found if c}


def feeds_of(fixtures: Iterable[rules_day.Fixture]) -> dict[str, tuple[str, ...]]:
    """For each fixture of a draw, the fixtures its result decides (in draw order)."""
    fed: dict[str, list[str]] = {}
    for f in fixtures:
        fed.setdefault(f.code, [])
        for source in {f.home.match, f.away.match, f.unless_home_wins} - {None}:
            assert source is not None
            fed.setdefault(source, []).append(f.code)
    return {code: tuple(codes) for code, codes in fed.items()}


def winners_of(records: Iterable[FixtureRecord]) -> dict[str, str]:
    """The official results' winners by match code (what `flow` needs)."""
    return {
        r.code: r.result.winner
        for r in records
        if r.state == State.OFFICIAL and r.result is not None and r.home is not None and r.away is not None
    }


# --------------------------------------------------------------------------- the aggregate


class Unread(Exception):
    """A partial day's change calls queued matches it did not read (`codes`): read them, again."""

    def __init__(self, codes: set[str]) -> None:
        super().__init__(", ".join(sorted(codes)))
        self.codes = codes


class MovesOn(Exception):
    """A change applied to its match alone (`Day.alone`) moves the day on: apply it to the day."""


def moves_on(before: FixtureRecord, after: FixtureRecord) -> bool:
    """Whether a change of a match reaches beyond it: it leaves its table or is decided (what it
    feeds, the tables and the queue move), or an appeal opens or closes on it (R9.2 holds or
    frees what depends on it)."""
    left = after.state != before.state and (after.state in OFF_TABLE or after.state == State.WAITING)
    return left or after.result != before.result or after.appeal != before.appeal


@dataclass(frozen=True, eq=False, repr=False)
class Day(Frozen):
    """A tournament's day as read for one change: its field, tables, matches and their fixtures.

    `table_count` is the venue's tables, used when no table plan is stored yet; `fixtures` are
    the published draws' fixtures in draw order (feeders first), what `flow` plays forward.

    `partial`: `matches` are only the part of the day a change touches (the match, the matches
    it feeds, their other feeders); `fixtures` are then the fed matches alone, and every other
    match read stands as stored (`slot_of`). `unreached` says what a change would need besides.
    """

    tournament_id: str
    table_count: int
    field: FieldRecord | None
    tables: TablesRecord | None
    matches: Mapping[str, FixtureRecord]
    fixtures: Sequence[rules_day.Fixture] = ()
    partial: bool = False
    alone: bool = False  # one match read without the rest of the day (see `apply`)
    # player -> where he plays beside (`dataclasses.field`: `field` is the day's field here)
    elsewhere: Mapping[str, str] = dataclasses.field(default_factory=dict)

    @classmethod
    def of_match(cls, match: FixtureRecord) -> Day:
        """The day as one match sees it alone: enough for a change that stays on the match."""
        return cls(match.tournament_id, 0, None, None, {match.code: match}, partial=True, alone=True)

    def apply(self, code: str, operation: Operation, now: datetime) -> DayChange:
        """Run `operation` on match `code` (it refuses what the match's state does not allow) and
        move the day on from it (`settle`): one change with its audit records and events.

        On a day of one match (`of_match`) a change that stays on the match is the match alone,
        one that moves the day on raises `MovesOn`: the service reads the day and applies again.
        """
        before = self.matches[code]
        after = operation.after(before, self)
        if self.alone:
            if moves_on(before, after):
                raise MovesOn(code)
            change = DayChange(matches=((after, before.version),) if after != before else ())
        else:
            change = self.settle(code, after, now)
        after = change.after(code) or before
        events = tuple(operation.events(before, after))
        change = replace(change, events=(*change.events, *events))
        return change.with_audit(operation.audit(before, after))

    def put_out(self, tavla_id: str, how: str) -> Day:
        """The day once a player withdrew (`withdrawn`) or was disqualified (R8.2, R8.3); a player
        is put out once (a withdrawn player may still be disqualified)."""
        assert self.field is not None
        current = self.field
        already = current.disqualified + (current.withdrawn if how == "withdrawn" else ())
        if tavla_id in already:
            raise AlreadyOut(f"{tavla_id} has already withdrawn or been disqualified.")
        if how == "withdrawn":
            return replace(self, field=replace(current, withdrawn=(*current.withdrawn, tavla_id)))
        return replace(self, field=replace(current, disqualified=(*current.disqualified, tavla_id)))

    def settle(self, code: str, after: FixtureRecord, now: datetime) -> DayChange:
        """Match `code` becomes `after`; the day moves on from it (see the module).

        A match that depends on a match under appeal is not called while the appeal is open
        (R9.2): it stays queued, or goes back to the queue if it was called but not started.
        """
        records = dict(self.matches)
        records[code] = after
        records = self._flowed(records, now)
        frozen = held(records)
        if self.partial and frozen:
            raise ValueError("a part of the day is settled only while no appeal is open")
        for c in frozen:
            if records[c].state == State.CALLED:
                records[c] = replace(records[c], state=State.QUEUED, table=None, called_at=None)
        plan = self._plan(records.values())
        done = [
            c for c, r in records.items() if r.state in OFF_TABLE or r.state == State.WAITING or c in frozen
        ]
        plan, calls_freed = release(plan, done)
        for c in done:  # a match that gave its table up no longer shows one
            if records[c].table is not None:
                records[c] = replace(records[c], table=None)
        playable = [
            r.code
            for r in sorted(records.values(), key=lambda r: (r.draw, r.round, r.board, r.code))
            if r.state == State.QUEUED and r.code not in frozen
        ]
        plan, calls_new = seat(plan, playable)
        calls = {**calls_freed, **calls_new}
        unread = set(calls) - set(records)
        if unread:  # a part of the day calls queued matches it has not read: read them too
            raise Unread(unread)
        for c, table in calls.items():
            records[c] = replace(records[c], state=State.CALLED, table=table, called_at=now.isoformat())
        changed = tuple((r, self.matches[c].version) for c, r in records.items() if r != self.matches[c])
        confirmed = tuple(
            r
            for c, r in records.items()
            if r.state == State.OFFICIAL
            and (self.matches[c].state != State.OFFICIAL or self.matches[c].result != r.result)
        )
        called = tuple(records[c] for c in calls)
        return DayChange(
            matches=changed,
            tables=self._tables_change(plan, records),
            events=self._events(confirmed, calls, now),
            confirmed=confirmed,
            called=called,
        )

    def publish_draw(
        self, drawn: rules_day.Draw, records: Sequence[FixtureRecord], now: datetime
    ) -> DayChange:
        """A new draw's matches, as the results so far leave them, seated at free tables (R5, R6).

        `records` are the draw's matches as stored before flow (no players, no state yet); the
        change holds them as new matches (no version read), the table plan and `MatchesCalled`.
        """
        from tavla.rules.day import flow

        fixtures = [*self.fixtures, *drawn.fixtures]
        states = flow(fixtures, winners_of(self.matches.values()))
        drawn_players = [
            replace(r, home=states[r.code].home, away=states[r.code].away, state=State.QUEUED)
            for r in records
            if states[r.code].status == "ready"
        ]
        plan = self._plan([*self.matches.values(), *drawn_players])
        plan, calls = seat(plan, [f.code for f in drawn.fixtures if states[f.code].status == "ready"])
        placed = []
        for record in records:
            slot = states[record.code]
            table = calls.get(record.code)
            state = State.CALLED if table is not None else state_after_flow(slot, None)
            placed.append(
                replace(
                    record,
                    state=state,
                    home=slot.home,
                    away=slot.away,
                    table=table,
                    called_at=now.isoformat() if table is not None else None,
                    result=Result.bye(slot.winner) if state == State.BYE and slot.winner else None,
                )
            )
        tables = self._tables_change(plan, {**self.matches, **{r.code: r for r in placed}}, always=True)
        return DayChange(
            matches=tuple((r, None) for r in placed),
            tables=tables,
            events=self._events((), calls, now),
            called=tuple(r for r in placed if r.code in calls),
        )

    def unreached(self, change: DayChange) -> set[str]:
        """Matches a partial day's change decides but did not play forward: the feeds of every
        match it settled (a walkover, a forfeit) that were not read; empty when the change is whole."""
        missing: set[str] = set()
        for record, _ in change.matches:
            before = self.matches[record.code].state
            if record.state != before and (record.state in OFF_TABLE or record.state == State.WAITING):
                missing |= set(record.feeds or ()) - set(self.matches)
        return missing

    # ------------------------------------------------------------------ inside

    def _flowed(self, records: dict[str, FixtureRecord], now: datetime) -> dict[str, FixtureRecord]:
        """Every match as the rules say it stands now; forfeits for players out of play (R8.2)."""
        from tavla.rules.day import flow

        fixtures = self.fixtures
        played = {f.code for f in fixtures}
        out = self.field.out_of_play if self.field else set()
        while True:
            known = {c: slot_of(r) for c, r in records.items() if c not in played} if self.partial else None
            states = flow(fixtures, winners_of(records.values()), known)
            changed = False
            for code, slot in states.items():
                if code not in played:
                    continue  # read as it stands: only what the fixtures hold moves on
                record = records[code]
                update = _slot_update(record, slot, out, now)
                if update:
                    records[code] = replace(record, **update)
                    changed = True
            if not changed:
                return records

    def _plan(self, records: Iterable[FixtureRecord] = ()) -> TablePlan:
        """The stored plan, with the demands of the matches `records` as they stand now."""
        from tavla.rules import holds

        stored = self.tables
        if stored is None or stored.count == 0:  # no plan yet, or one set before the hall's size
            stored = replace(stored or TablesRecord(self.tournament_id, 0), count=self.table_count)
        return holds.plan_of(stored, records, self.elsewhere)

    def reseat(self, now: datetime) -> DayChange:
        """The whole day seated again under the plan as it is now (its constraints, needs or
        released holds changed): what waits and can now sit is called."""
        assert not self.partial and self.tables is not None
        records = dict(self.matches)
        plan, calls = release(self._plan(records.values()), ())
        for c, table in calls.items():
            records[c] = replace(records[c], state=State.CALLED, table=table, called_at=now.isoformat())
        return DayChange(
            matches=tuple((records[c], self.matches[c].version) for c in calls),
            tables=self._tables_change(plan, records, always=True),
            events=self._events((), calls, now),
            called=tuple(records[c] for c in calls),
        )

    def _tables_change(
        self, plan: TablePlan, records: Mapping[str, FixtureRecord], always: bool = False
    ) -> tuple[TablesRecord, int | None] | None:
        occupied = {str(t): c for t, c in plan.occupied.items()}
        stored = self.tables
        if self.partial:  # a part of the day says nothing of the appeals elsewhere
            appeals = stored.appeals if stored is not None else None
        else:
            appeals = tuple(sorted(c for c, r in records.items() if r.appeal))
        from tavla.rules import holds

        demands = holds.demands_kept(plan)
        if (
            not always
            and stored is not None
            and dict(stored.occupied) == occupied
            and tuple(stored.queue) == plan.queue
            and stored.appeals == appeals
            and stored.demands == demands
        ):
            return None
        previous = stored.version if stored else None
        base = stored or TablesRecord(tournament_id=self.tournament_id, count=plan.count)
        record = replace(
            base,
            count=plan.count,
            occupied=occupied,
            queue=plan.queue,
            version=(previous or 0) + 1,
            appeals=appeals,
            demands=demands,
            released=tuple(c for c in base.released if c in plan.queue),  # a release serves once
        )
        return record, previous

    def _events(
        self, confirmed: Iterable[FixtureRecord], calls: Mapping[str, int], now: datetime
    ) -> tuple[DomainEvent, ...]:
        events = [DomainEvent(RESULT_CONFIRMED, result_event(self.tournament_id, r)) for r in confirmed]
        if calls:
            events.append(called_event(self.tournament_id, sorted(calls, key=calls.__getitem__), now))
        return tuple(events)


def _slot_update(
    record: FixtureRecord, slot: rules_day.SlotState, out: set[str], now: datetime
) -> dict[str, Any]:
    """What the rules' slot changes on a stored match (players, state, BYE or forfeit result)."""
    state = state_after_flow(slot, record.state)
    update: dict[str, Any] = {}
    if (slot.home, slot.away) != (record.home, record.away):
        update.update(home=slot.home, away=slot.away)
        if record.state in AT_TABLE:
            update.update(called_at=now.isoformat(), present={}, late_points={})
    if state != record.state:
        update["state"] = state
        if state == State.BYE:
            assert slot.winner is not None
            update["result"] = Result.bye(slot.winner)
        elif state in (State.WAITING, State.VOID, State.NOT_NEEDED):
            update.update(result=None, table=None, called_at=None)
    if state in (State.QUEUED, State.ADJOURNED) or state in AT_TABLE:
        gone = [p for p in (slot.home, slot.away) if p in out]
        if gone and record.result is None:
            playing = replace(record, home=slot.home, away=slot.away)
            result = forfeit_result(playing, gone[0], "withdrawal")
            update.update(state=State.OFFICIAL, result=result, official_at=now.isoformat())
    return update


def called_event(tournament_id: str, codes: list[str], now: datetime) -> DomainEvent:
    """`MatchesCalled`: the players are told their table, the no-show deadlines are set (R6)."""
    return DomainEvent(
        MATCHES_CALLED, {"tournament_id": tournament_id, "at": now.isoformat(), "codes": codes}
    )


def result_event(tournament_id: str, record: FixtureRecord) -> dict[str, Any]:
    """What ratings and season points need of an official result (R10.3, R10.4)."""
    result = record.result
    return {
        "tournament_id": tournament_id,
        "match_id": match_id(tournament_id, record.code),
        "code": record.code,
        "event": record.event,
        "home": record.home,
        "away": record.away,
        "length": record.length,
        "winner": result.winner if result else None,
        "home_points": result.home_points if result else None,
        "away_points": result.away_points if result else None,
        "forfeit": bool(result and result.forfeit),
        "official_at": record.official_at,
        # the match's version this change was made on: a later change of the match carries a
        # higher one, so a late copy of an overturned result can be told from its correction
        "version": record.version,
    }
