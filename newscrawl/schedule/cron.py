"""When a job is due: cron expressions evaluated by cronsim (Debian cron's rules, DST included)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from cronsim import CronSim, CronSimError

_PROBE = datetime(2000, 1, 1)


def check_cron(expression: str) -> None:
    """Raise ValueError when `expression` is not a five-field cron expression."""
    if len(expression.split()) != 5:
        raise ValueError("expected five fields: minute hour day-of-month month day-of-week")
    try:
        CronSim(expression, _PROBE)
    except CronSimError as error:
        raise ValueError(str(error)) from None


def next_due(expression: str, after: datetime, zone: ZoneInfo | None) -> datetime:
    """The first time after `after` (aware) that `expression` matches, read in `zone`.

    With no zone the machine's local time is used, as cron does; the result is aware.
    """
    local = after.astimezone(zone) if zone else after.astimezone()
    return next(CronSim(expression, local))
