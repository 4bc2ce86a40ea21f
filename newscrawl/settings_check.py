"""`check_settings`: newscrawl's settings checked before a crawl starts, each bad value one line.

A ``-s NEWSCRAWL_*`` value the crawl cannot use otherwise fails inside the started crawl:
a traceback through Scrapy's and asyncio's frames, exit status 1, and a store already
created; or worse, it is taken silently (a batch size of -5 ran as 1). Every setting is
read here as its component reads it, by Scrapy's typed getter for the type of its default
in `newscrawl.settings` and by the component's own parser where it has one, so a value that
passes here is one the crawl takes. ``scrapy crawl`` runs this before it opens the store.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from redis.connection import parse_url as parse_redis_url
from scrapy.settings import BaseSettings

from newscrawl import settings as defaults
from newscrawl.archive.parts import split_warc_name
from newscrawl.archive.reader import readable_archive_files
from newscrawl.extract import Options
from newscrawl.items import confidence_threshold
from newscrawl.middlewares.incremental import parse_age
from newscrawl.monitoring.monitors import Thresholds
from newscrawl.spiders.errors import CrawlUsageError

PREFIX = "NEWSCRAWL_"


class SettingValueError(CrawlUsageError):
    """A ``NEWSCRAWL_*`` setting whose value the crawl cannot use."""


_READERS: dict[type, tuple[str, Callable[[BaseSettings, str], Any]]] = {
    bool: ("true or false", BaseSettings.getbool),
    int: ("a whole number", BaseSettings.getint),
    float: ("a number", BaseSettings.getfloat),
    list: ("a list", BaseSettings.getlist),
    dict: ("a JSON object", BaseSettings.getdict),
}
"""How a setting is read, by the type of its default: what it must be, Scrapy's getter."""


def _as_written(settings: BaseSettings, name: str) -> Any:
    return settings.get(name)


def _at_least(minimum: float) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if value < minimum:
            raise ValueError(f"must be {minimum:g} or more")

    return check


def _http_codes(codes: list[Any]) -> None:
    if not all(str(code).strip().isdecimal() for code in codes):
        raise ValueError("must be HTTP status codes")


def _warc_name(path: str) -> None:
    if split_warc_name(Path(path).name) is None:
        raise ValueError("must name a *.warc or *.warc.gz file")


def _replay_archives(value: Any) -> None:
    """The archives a replay reads exist and begin as WARC files (read as the replay
    middleware does, a list)."""
    sources = BaseSettings({"NEWSCRAWL_REPLAY": value}).getlist("NEWSCRAWL_REPLAY")
    if sources:
        readable_archive_files(sources)


def _optional(parse: Callable[[Any], Any]) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        if value not in (None, ""):
            parse(value)

    return check


PARSED: dict[str, Callable[[Any], Any]] = {
    "NEWSCRAWL_RECRAWL_AGE": parse_age,
    "NEWSCRAWL_MIN_CONFIDENCE": _optional(confidence_threshold),
    "NEWSCRAWL_EXTRACT_METHOD": lambda method: Options(method=method or "default"),
    "NEWSCRAWL_REDIS_URL": _optional(parse_redis_url),
    "NEWSCRAWL_ARCHIVE": _optional(_warc_name),
    "NEWSCRAWL_REPLAY": _replay_archives,
}
"""Settings their component parses itself, from the value as written: that parser decides."""
CHECKED: dict[str, Callable[[Any], Any]] = {
    "NEWSCRAWL_DB_BATCH_SIZE": _at_least(1),
    "NEWSCRAWL_DB_BATCH_SECONDS": _at_least(0),
    "NEWSCRAWL_NEAR_DUPLICATE_BITS": _at_least(0),
    "NEWSCRAWL_EXTRACT_PROCESSES": _at_least(0),
    "NEWSCRAWL_FAIL_MIN_REQUESTS": _at_least(0),
    "NEWSCRAWL_BACKOFF_HTTP_CODES": _http_codes,
    "NEWSCRAWL_BACKOFF_START_DELAY": _at_least(0),
    "NEWSCRAWL_BACKOFF_MAX_DELAY": _at_least(0),
    "NEWSCRAWL_ARCHIVE_MAX_BYTES": _at_least(0),
    "NEWSCRAWL_REDIS_IDLE_SECONDS": _at_least(0),
    "NEWSCRAWL_REDIS_WORKER_TIMEOUT": _at_least(0),
}
"""What a setting read by type must be beyond its type (its component takes any value)."""


def check_settings(settings: BaseSettings) -> None:
    """Raise `SettingValueError` (one line: the setting, its value, what it must be) for the
    first ``NEWSCRAWL_*`` setting the crawl could not use."""
    for name in vars(defaults):
        if name.startswith(PREFIX):
            read_setting(settings, name)
    try:
        Thresholds.from_settings(settings)
    except ValueError as error:
        raise SettingValueError(str(error)) from None


def read_setting(settings: BaseSettings, name: str) -> Any:
    """The value of the ``NEWSCRAWL_*`` setting `name` as its component reads it; a
    `SettingValueError` (one line: the setting, its value, what it must be) where the crawl
    could not use it."""
    try:
        return setting_value(settings, name)
    except ValueError as error:
        raise SettingValueError(f"{name}={settings.get(name)!r}: {error}") from None


def setting_value(settings: BaseSettings, name: str) -> Any:
    """`read_setting` for callers that say where the value came from: a `ValueError` saying
    only what it must be."""
    read: Callable[[BaseSettings, str], Any]
    if name in PARSED:
        kind, read, check = "", _as_written, PARSED[name]
    else:
        kind, read = _READERS.get(type(getattr(defaults, name)), ("", _as_written))
        check = CHECKED.get(name, lambda _: None)
    try:
        value = read(settings, name)
    except (TypeError, ValueError):
        raise ValueError(f"must be {kind}") from None
    try:
        check(value)
    except ValueError as error:
        raise ValueError(str(error).removeprefix(f"{name}: ").removeprefix(f"{name} ")) from None
    return value
