"""EventBridge schedule expressions: `cron(minutes hours day-of-month month day-of-week year)`
(UTC) and `rate(N minutes|hours|days)`.

Enough of the syntax for the registry's cron triggers: `*`, `?`, lists, ranges, `/` steps,
month and weekday names (day-of-week 1-7 is SUN-SAT, as in EventBridge). `L`, `W` and `#`
are refused loudly rather than guessed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
    )
}
_DAYS = {d: i + 1 for i, d in enumerate(["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"])}
_FIELDS: tuple[tuple[str, int, int, dict[str, int]], ...] = (
    ("minute", 0, 59, {}),
    ("hour", 0, 23, {}),
    ("day", 1, 31, {}),
    ("month", 1, 12, _MONTHS),
    ("weekday", 1, 7, _DAYS),
    ("year", 1970, 2199, {}),
)


def _values(field: str, low: int, high: int, names: dict[str, int]) -> frozenset[int] | None:
    """The values a field allows; None for `*` / `?` (anything)."""
    if field in ("*", "?"):
        return None
    unnamed = field.upper()
    for name in names:
        unnamed = unnamed.replace(name, "")
    if any(mark in unnamed for mark in "LW#"):
        raise ValueError(f"cron field {field!r}: L, W and # are not supported locally")
    allowed: set[int] = set()
    for part in field.split(","):
        base, _, step = part.partition("/")
        if base == "*":
            start, end = low, high
        elif "-" in base:
            first, last = base.split("-")
            start, end = names.get(first.upper()) or int(first), names.get(last.upper()) or int(last)
        else:
            start = names.get(base.upper()) or int(base)
            end = high if step else start
        allowed.update(range(start, end + 1, int(step) if step else 1))
    return frozenset(allowed)


@dataclass(frozen=True)
class Cron:
    fields: tuple[frozenset[int] | None, ...]

    @classmethod
    def parse(cls, expression: str) -> Cron:
        body = expression.strip()
        if body.startswith("cron(") and body.endswith(")"):
            body = body[5:-1]
        parts = body.split()
        if len(parts) != len(_FIELDS):
            raise ValueError(f"{expression!r}: EventBridge cron has six fields")
        return cls(
            tuple(_values(p, lo, hi, names) for p, (_, lo, hi, names) in zip(parts, _FIELDS, strict=True))
        )

    def matches(self, moment: datetime) -> bool:
        weekday = (moment.isoweekday() % 7) + 1  # SUN=1 ... SAT=7
        actual = (moment.minute, moment.hour, moment.day, moment.month, weekday, moment.year)
        return all(
            allowed is None or value in allowed for allowed, value in zip(self.fields, actual, strict=True)
        )

    def between(self, after: datetime, until: datetime) -> Iterator[datetime]:
        """Every matching minute in (after, until], both UTC."""
        moment = after.replace(second=0, microsecond=0) + timedelta(minutes=1)
        while moment <= until:
            if self.matches(moment):
                yield moment
            moment += timedelta(minutes=1)


@dataclass(frozen=True)
class Rate:
    """`rate(N unit)`: every N units, counted from `since` (the rule's creation)."""

    period: timedelta
    since: datetime

    def between(self, after: datetime, until: datetime) -> Iterator[datetime]:
        count = max(0, (after - self.since) // self.period)
        moment = self.since + self.period * count
        while moment <= until:
            if moment > after:
                yield moment
            moment += self.period


class Trigger(Protocol):
    def between(self, after: datetime, until: datetime) -> Iterator[datetime]: ...


def parse_trigger(expression: str, since: datetime) -> Trigger:
    """A registry `cron` value (cron with or without its wrapper, or rate) as a trigger."""
    body = expression.strip()
    if body.startswith("rate(") and body.endswith(")"):
        amount, _, unit = body[5:-1].strip().partition(" ")
        units = {
            "minute": "minutes",
            "minutes": "minutes",
            "hour": "hours",
            "hours": "hours",
            "day": "days",
            "days": "days",
        }
        if unit.strip() not in units or not amount.isdigit() or int(amount) < 1:
            raise ValueError(f"{expression!r}: rate(N minutes|hours|days) expected")
        return Rate(timedelta(**{units[unit.strip()]: int(amount)}), since)
    return Cron.parse(expression)
