"""Lenient date reading for list entries: every list format dates entries differently.

Seen in the wild (docs/sites.md): Unix seconds as int or string (Sina roll API ``ctime``),
``MM/DD/YYYY HH:MM:SS`` (NetEase JSONP), ISO 8601 (sitemaps, Atom, CSDN), RFC 822 (RSS).
Dates without an offset are taken in the site's time zone.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from email.utils import parsedate_to_datetime

_EPOCH_RE = re.compile(r"^\d{9,13}(?:\.\d+)?$")
_MILLISECONDS_FROM = 1e11
"""Epoch numbers above this are milliseconds (1e11 seconds is the year 5138)."""
_FORMATS = (
    "%m/%d/%Y %H:%M:%S",
    "%m/%d/%Y %H:%M",
    "%Y/%m/%d %H:%M:%S",
    "%Y/%m/%d %H:%M",
    "%Y/%m/%d",
)


def parse_datetime(value: object, zone: tzinfo) -> datetime | None:
    """`value` as an aware datetime, or None when it is empty or unreadable (never raises)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return _from_epoch(float(value))
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if _EPOCH_RE.match(text):
        return _from_epoch(float(text))
    parsed = _from_text(text)
    if parsed is None:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=zone)


def parse_since(text: str, zone: tzinfo) -> datetime:
    """The ``-a since=`` argument (a date or date-time); ValueError says what is accepted."""
    parsed = parse_datetime(text, zone)
    if parsed is None:
        raise ValueError(f"since={text!r} is not a date; use YYYY-MM-DD or an ISO 8601 date-time")
    return parsed


def _from_epoch(seconds: float) -> datetime | None:
    if seconds > _MILLISECONDS_FROM:
        seconds /= 1000
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _from_text(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass
    for layout in _FORMATS:
        try:
            return datetime.strptime(text, layout)
        except ValueError:
            continue
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
