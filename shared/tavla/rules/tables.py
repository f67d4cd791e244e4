"""The venue's tables (R6): each match to be played gets a numbered table; when there are more
matches than tables, the rest queue and are called, in order, as tables free up.

A `TablePlan` is the whole venue at one moment; every change returns a new plan and the
calls it makes (match code -> table), so a service stores the plan with one conditional
write and calls exactly the matches this change put on a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import ConfigDict, Field

from tavla.rules.value import RuleModel
from tavla.rules.venue import Demand, TableAttributes, fill

Calls = dict[str, int]


class TablePlan(RuleModel):
    """Tables 1..count, which match holds each occupied one, and the matches waiting in order."""

    model_config = ConfigDict(frozen=True)

    count: int = Field(ge=1)
    occupied: Mapping[int, str] = Field(default_factory=dict)
    queue: tuple[str, ...] = ()
    # constraints (rules.venue): the tables' attributes, each queued or seated match's demand,
    # and the players at a table of another tournament of the hall (-> where)
    attributes: Mapping[int, TableAttributes] = Field(default_factory=dict)
    demands: Mapping[str, Demand] = Field(default_factory=dict)
    elsewhere: Mapping[str, str] = Field(default_factory=dict)

    def table_of(self, code: str) -> int | None:
        return next((t for t, c in self.occupied.items() if c == code), None)

    def _fill(self) -> tuple[TablePlan, Calls]:
        occupied, queue, calls = fill(
            self.count, self.occupied, self.queue, self.attributes, self.demands, self.elsewhere
        )
        return self.model_copy(update={"occupied": occupied, "queue": queue}), calls


def seat(plan: TablePlan, codes: Iterable[str]) -> tuple[TablePlan, Calls]:
    """Queue matches that can now be played (in the order given) and call what fits on free tables.

    A match already seated or queued is not added twice (a retried change calls nobody twice).
    """
    known = set(plan.occupied.values()) | set(plan.queue)
    new = [c for c in dict.fromkeys(codes) if c not in known]
    return plan.model_copy(update={"queue": (*plan.queue, *new)})._fill()


def release(plan: TablePlan, codes: Iterable[str]) -> tuple[TablePlan, Calls]:
    """Matches that no longer need a table (played, forfeited, decided by a referee) give it up,
    or leave the queue; the first queued matches take the freed tables."""
    gone = set(codes)
    occupied = {t: c for t, c in plan.occupied.items() if c not in gone}
    queue = tuple(c for c in plan.queue if c not in gone)
    return plan.model_copy(update={"occupied": occupied, "queue": queue})._fill()
