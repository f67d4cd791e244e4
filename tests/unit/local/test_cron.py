"""The local stack fires the registry's cron triggers as EventBridge would (UTC, SUN=1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from local.cron import Cron, Rate, parse_trigger

SUNDAY = datetime(2026, 11, 29, 17, 0, tzinfo=UTC)


def test_daily_cron_fires_once_per_day_passed():
    fired = list(Cron.parse("cron(0 3 * * ? *)").between(SUNDAY, SUNDAY + timedelta(days=3)))
    assert fired == [datetime(2026, 11, d, 3, 0, tzinfo=UTC) for d in (30,)] + [
        datetime(2026, 12, d, 3, 0, tzinfo=UTC) for d in (1, 2)
    ]


def test_weekday_names_and_ranges_follow_eventbridge():
    fired = list(Cron.parse("cron(15 10 ? * MON-FRI *)").between(SUNDAY, SUNDAY + timedelta(days=7)))
    assert [m.strftime("%a") for m in fired] == ["Mon", "Tue", "Wed", "Thu", "Fri"]
    sundays = list(Cron.parse("cron(0 12 ? * 1 *)").between(SUNDAY, SUNDAY + timedelta(days=8)))
    assert [m.date().isoformat() for m in sundays] == ["2026-12-06"]


def test_steps_lists_and_month_names():
    cron = Cron.parse("0/20 8,20 1 JUL,DEC ? *")
    fired = list(cron.between(SUNDAY, SUNDAY + timedelta(days=3)))
    assert [m.strftime("%m-%d %H:%M") for m in fired] == [
        "12-01 08:00",
        "12-01 08:20",
        "12-01 08:40",
        "12-01 20:00",
        "12-01 20:20",
        "12-01 20:40",
    ]


def test_a_window_is_open_at_the_start_and_closed_at_the_end():
    cron = Cron.parse("cron(0 18 * * ? *)")
    assert list(cron.between(SUNDAY.replace(hour=18), SUNDAY.replace(hour=18) + timedelta(hours=1))) == []
    assert list(cron.between(SUNDAY, SUNDAY.replace(hour=18))) == [SUNDAY.replace(hour=18)]


@pytest.mark.parametrize("expression", ["cron(0 3 L * ? *)", "cron(0 3 ? * 6#3 *)", "cron(0 3 * *)"])
def test_unsupported_or_malformed_expressions_are_refused(expression):
    with pytest.raises(ValueError):
        Cron.parse(expression)


def test_rate_triggers_count_from_the_rules_creation():
    trigger = parse_trigger("rate(6 hours)", since=SUNDAY)
    assert isinstance(trigger, Rate)
    fired = list(trigger.between(SUNDAY + timedelta(hours=1), SUNDAY + timedelta(hours=19)))
    assert fired == [SUNDAY + timedelta(hours=h) for h in (6, 12, 18)]
    assert isinstance(parse_trigger("0 3 * * ? *", since=SUNDAY), Cron)
    with pytest.raises(ValueError):
        parse_trigger("rate(0 minutes)", since=SUNDAY)
