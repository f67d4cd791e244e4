"""Late arrival at the table (R7.6, R6.1): penalty points, forfeit, and when that changes next.

The three profiles, as their seeds word them:

- `platform` (seed 002, 3): be at the table within 10 minutes of the call; whoever is not there
  when the 10 minutes run out loses by forfeit. Arriving at exactly 10:00 is in time.
- `hbf` (seed 000, 2.3): the first penalty point to the opponent is awarded 15 minutes after the
  scheduled start (at 15:00 itself), then one more per further 5 minutes (20:00, 25:00, ...).
- `cnb` (seed 001, 2.2.4): a player who has not started within five minutes of the scheduled
  time gets a penalty point (so 5:00 is still in time, a moment later is not), then one more per
  further 5 minutes (after 10:00, after 15:00, ...).
- `hbf` and `cnb`: when the penalty points exceed (not reach) half the match length, the absent
  player loses the match: a forfeit, length-0.

"Arrived" versus "still absent": a player who arrives at exactly a boundary that is in time
("within five minutes") owes nothing for it; a player still absent at that instant can no
longer arrive in time, so the penalty falls due at that instant. That is what lets a scheduler
fire at `next_change_at` and find the new verdict. A referee's excuse is the caller's business.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import ConfigDict, Field, model_validator

from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel


class LatenessError(RuleViolation):
    """A lateness question the rules cannot answer (bad policy or match length)."""


class LatenessPolicy(RuleModel):
    """When lateness costs penalty points, and when it costs the match.

    `first_point_after`: lateness at which the first penalty point falls due (None: no penalty
    points). `point_every`: one more point per this much further lateness. `boundary_in_time`:
    True when arriving exactly at a boundary is still in time (cnb "entro", platform "εντός").
    `forfeit_after`: lateness after which the absent player forfeits outright (platform).
    """

    model_config = ConfigDict(frozen=True)

    first_point_after: timedelta | None = None
    point_every: timedelta = timedelta(minutes=5)
    boundary_in_time: bool = True
    forfeit_after: timedelta | None = None
    forfeit_when_points_exceed_half: bool = True

    @model_validator(mode="after")
    def _sane(self) -> LatenessPolicy:
        if self.first_point_after is None and self.forfeit_after is None:
            raise LatenessError("A lateness policy needs penalty points or a forfeit time")
        if self.point_every <= timedelta(0):
            raise LatenessError("Penalty points must come at a positive interval")
        for limit in (self.first_point_after, self.forfeit_after):
            if limit is not None and limit < timedelta(0):
                raise LatenessError("Lateness limits cannot be negative")
        return self


PLATFORM_LATENESS = LatenessPolicy(forfeit_after=timedelta(minutes=10), boundary_in_time=True)
HBF_LATENESS = LatenessPolicy(
    first_point_after=timedelta(minutes=15), point_every=timedelta(minutes=5), boundary_in_time=False
)
CNB_LATENESS = LatenessPolicy(
    first_point_after=timedelta(minutes=5), point_every=timedelta(minutes=5), boundary_in_time=True
)

LATENESS_POLICIES: dict[str, LatenessPolicy] = {
    "platform": PLATFORM_LATENESS,
    "hbf": HBF_LATENESS,
    "cnb": CNB_LATENESS,
}


def lateness_policy(policy: LatenessPolicy | str) -> LatenessPolicy:
    """A policy given as itself or by profile name (platform, hbf, cnb)."""
    if isinstance(policy, LatenessPolicy):
        return policy
    try:
        return LATENESS_POLICIES[policy]
    except KeyError:
        raise LatenessError(f"There is no lateness policy for profile '{policy}'") from None


class LatenessVerdict(RuleModel):
    """Penalty points owed to the opponent, whether the absent player has lost, and what is next.

    `next_change_at` is the instant at which the verdict for a still-absent player changes
    (None once the player has arrived or has forfeited).
    """

    model_config = ConfigDict(frozen=True)

    late_by: timedelta
    penalty_points: int = Field(ge=0)
    forfeit: bool
    next_change_at: datetime | None


def _passed(late: timedelta, boundary: timedelta, policy: LatenessPolicy, arrived: bool) -> bool:
    if late > boundary:
        return True
    return late == boundary and not (arrived and policy.boundary_in_time)


def _points(late: timedelta, policy: LatenessPolicy, arrived: bool) -> int:
    first = policy.first_point_after
    if first is None or late < first:
        return 0
    k = (late - first) // policy.point_every
    boundary = first + k * policy.point_every
    return k + 1 if _passed(late, boundary, policy, arrived) else k


def points_to_lose(match_length: int) -> int:
    """The fewest penalty points that exceed half the match length (the absent player loses)."""
    return match_length // 2 + 1


def late_arrival(
    policy: LatenessPolicy | str,
    match_length: int,
    scheduled_start: datetime,
    at: datetime,
    *,
    arrived: bool,
) -> LatenessVerdict:
    """The lateness verdict at `at` for a player due at `scheduled_start` (R7.6, R6.1).

    `policy` is a profile's policy or its name. For `platform`, `scheduled_start` is the moment the
    table call went out (R6.1). `arrived=True`: the player arrived at `at` - the verdict is final.
    `arrived=False`: the player is still absent at `at` (pass the current time) - `next_change_at`
    says when to look again.
    Guarantees: penalty points never exceed the number that makes the player lose; a forfeit
    verdict never changes again.
    """
    policy = lateness_policy(policy)
    if match_length < 1:
        raise LatenessError(f"A match is at least 1 point long, not {match_length}")
    late = max(timedelta(0), at - scheduled_start)
    limit = points_to_lose(match_length)
    points = _points(late, policy, arrived)
    forfeit = False
    if policy.forfeit_after is not None and _passed(late, policy.forfeit_after, policy, arrived):
        forfeit = True
    if policy.forfeit_when_points_exceed_half and points >= limit:
        forfeit = True
        points = limit
    next_change: datetime | None = None
    if not arrived and not forfeit:
        candidates: list[timedelta] = []
        if policy.first_point_after is not None:
            candidates.append(policy.first_point_after + points * policy.point_every)
        if policy.forfeit_after is not None:
            candidates.append(policy.forfeit_after)
        next_change = scheduled_start + min(candidates)
    return LatenessVerdict(late_by=late, penalty_points=points, forfeit=forfeit, next_change_at=next_change)
