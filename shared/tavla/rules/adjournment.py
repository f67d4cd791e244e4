"""Adjourned matches: staff stop a match mid-play (the hall closes, a player is taken ill) and it
resumes later, from the same state, at whichever table is free then.

The adjournment records what the players leave on the board besides the live score: the
cube's value and owner, each player's clock, a photo of the position (a private object, by
key) and the deadline by which it must resume. An adjourned match gives its table up and is
not seated again until staff resume it; it counts as started (R9.4: what it depends on no
longer changes) and undecided, so everything that depends on its result waits, as for an open
appeal. Resumed, it queues for the first free table with both players marked present (they
were at the table when it stopped): no no-show clock runs on a resumed match. Not resumed by
its deadline, it goes to the referee (`Overdue`: flagged, the staff told).

No I/O here; the refusals are the API's errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from tavla.errors import AppealOpen, MatchNotInPlay, PhotoNotOfMatch, ResumeByPast
from tavla.frozen import Frozen
from tavla.rules.model import Actor, AuditRecord, DomainEvent, FixtureRecord, audit_entry
from tavla.rules.operations import SIDES, Operation, Unchanged, with_flags
from tavla.rules.states import AT_TABLE, State

if TYPE_CHECKING:
    from tavla.rules.model import Day

OVERDUE = "adjournment_overdue"  # the flag the referee sees on a match not resumed in time
PHOTO_PREFIX = "adjournments/"  # the photos' keys in the private store
CubeOwner = Literal["centre", "home", "away"]


def photo_prefix(tournament_id: str, code: str) -> str:
    """Where the photos of one match's adjournments are kept (a key names its match)."""
    return f"{PHOTO_PREFIX}{tournament_id}/{code}/"


@dataclass(frozen=True, eq=False, repr=False)
class Board(Frozen):
    """What the players leave on the table: the cube and the clocks (seconds left, R7.4)."""

    cube_value: int = 1
    cube_owner: CubeOwner = "centre"
    clock_home: int | None = None
    clock_away: int | None = None
    photo: str | None = None  # the photo's key in the private store


@dataclass(frozen=True, eq=False, repr=False)
class Adjourn(Operation):
    """Staff adjourn a match that is at its table (called or being played): its state is kept
    as it stands, its table freed, its deadline to resume recorded."""

    reason: str
    board: Board
    resume_by: datetime
    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if before.appeal is not None:
            raise AppealOpen("An appeal on this match is open: it is decided first (R9.2).")
        if before.state not in AT_TABLE or before.home is None or before.away is None:
            raise MatchNotInPlay(f"The match is {before.state}: only a match at its table is adjourned.")
        photo = self.board.photo
        if photo is not None and not photo.startswith(photo_prefix(before.tournament_id, before.code)):
            raise PhotoNotOfMatch("The photo was not uploaded for this match.")
        if self.resume_by <= self.at:
            raise ResumeByPast("resume_by: the deadline to resume must be later than now.")
        adjournment = {
            "at": self.at.isoformat(),
            "by": self.actor.tavla_id or self.actor.sub,
            "reason": self.reason,
            "table": before.table,
            "state": str(before.state),
            "score": list(before.score),
            "games": len(before.games),
            "cube_value": self.board.cube_value,
            "cube_owner": self.board.cube_owner,
            "clock_home": self.board.clock_home,
            "clock_away": self.board.clock_away,
            "photo": photo,
            "resume_by": self.resume_by.isoformat(),
        }
        return replace(
            before,
            state=State.ADJOURNED,
            adjournment={k: v for k, v in adjournment.items() if v is not None},
            flags=with_flags(before, drop=(OVERDUE,)),
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        assert after.adjournment is not None
        kept = {k: v for k, v in after.adjournment.items() if k not in ("at", "by")}
        return [audit_entry(self.actor, "match_adjourned", self.at, match=after.code, **kept)]


@dataclass(frozen=True, eq=False, repr=False)
class Resume(Operation):
    """Staff resume an adjourned match: it queues for the first free table (another one if its
    own is taken), its score, cube and clocks as recorded, both players present."""

    actor: Actor
    at: datetime

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        if before.state != State.ADJOURNED or before.adjournment is None:
            raise MatchNotInPlay(f"The match is {before.state}: only an adjourned match is resumed.")
        now = self.at.isoformat()
        return replace(
            before,
            state=State.QUEUED,
            table=None,
            called_at=None,
            present={side: now for side in SIDES},
            excused={},
            adjournment={**before.adjournment, "resumed_at": now},
            flags=with_flags(before, drop=(OVERDUE,)),
        )

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return [audit_entry(self.actor, "match_resumed", self.at, match=after.code)]


@dataclass(frozen=True, eq=False, repr=False)
class Overdue(Operation):
    """The deadline of the adjournment made at `adjourned_at` passed: a match still adjourned
    from then goes to the referee (flagged once, `ruled` told); resumed, re-adjourned or
    decided meanwhile, nothing changes."""

    adjourned_at: str
    actor: Actor
    at: datetime
    ruled: tuple[DomainEvent, ...] = ()

    def after(self, before: FixtureRecord, day: Day) -> FixtureRecord:
        current = before.adjournment or {}
        if (
            before.state != State.ADJOURNED
            or current.get("at") != self.adjourned_at
            or OVERDUE in before.flags
        ):
            raise Unchanged
        return replace(before, flags=with_flags(before, add=(OVERDUE,)))

    def audit(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[AuditRecord]:
        return [audit_entry(self.actor, OVERDUE, self.at, match=after.code)]

    def events(self, before: FixtureRecord, after: FixtureRecord) -> Sequence[DomainEvent]:
        return self.ruled


def resume_by(adjournment: Mapping[str, Any] | None) -> datetime | None:
    """The deadline of a match's current adjournment (None: never adjourned, or resumed)."""
    if not adjournment or "resumed_at" in adjournment:
        return None
    return datetime.fromisoformat(str(adjournment["resume_by"]))
