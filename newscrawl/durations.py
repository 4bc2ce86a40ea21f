"""Durations as people write them in settings and configs: seconds, or a number with s, m,
h or d (``90``, ``"50m"``, ``"1.5h"``, ``"2d"``). Read by the incremental skip
(`NEWSCRAWL_RECRAWL_AGE`) and the scheduled jobs (``time_limit``, ``kill_after``)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

_DURATION_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(value: Any) -> timedelta | None:
    """`value` as a timedelta; None when it is unset (None, empty) or zero. Raises
    ValueError for anything else that is not a duration."""
    if value in (None, "", 0, "0"):
        return None
    match = _DURATION_RE.match(str(value).lower())
    if match is None:
        raise ValueError(f"expected seconds or e.g. 2d/12h, got {value!r}")
    seconds = float(match[1]) * _UNIT_SECONDS[match[2]]
    return timedelta(seconds=seconds) if seconds else None
