"""Scheduled jobs as data: one TOML file per job in ``configs/jobs/``, validated into a `Job`.

A job names the sites to crawl, when (a cron expression), the spider arguments (``-a``) and
Scrapy settings (``-s``) of every crawl, and how long a run may take. Errors name the file,
the key and the problem, as the site configs' do (same `Table` reader).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from newscrawl.config_table import ConfigError, Table
from newscrawl.durations import parse_duration
from newscrawl.schedule.cron import check_cron

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
RESERVED_SETTINGS = frozenset({"JOBDIR", "LOG_FILE", "NEWSCRAWL_SUMMARY_FILE"})
"""Settings the scheduler sets per crawl (a JOBDIR per job and site, a log file and a run
summary per run)."""
DEFAULT_KILL_AFTER = timedelta(seconds=30)


class JobConfigError(ConfigError):
    """A job config that cannot be used; the message reads ``<file>: <key>: <problem>``."""


@dataclass(frozen=True, slots=True)
class Job:
    """A validated job config."""

    name: str
    path: Path
    description: str
    sites: tuple[str, ...]
    cron: str
    timezone: ZoneInfo | None
    """The zone the cron expression is read in; None: the machine's local time, as cron."""
    time_limit: timedelta
    kill_after: timedelta
    """How long a crawl told to stop (SIGTERM) may take to close before it is killed."""
    resume: bool
    """Give each crawl a JOBDIR so a run stopped midway resumes where it left off."""
    args: Mapping[str, str]
    settings: Mapping[str, str]


def find_jobs(directory: Path) -> dict[str, Job]:
    """Every ``*.toml`` job in `directory` by name; raises `JobConfigError` on the first bad one."""
    jobs = (load_job(path) for path in sorted(directory.glob("*.toml")))
    return {job.name: job for job in jobs}


def load_job(path: Path) -> Job:
    """Read and validate one job file (the file name is the job name)."""
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
        return parse_job(data, path)
    except tomllib.TOMLDecodeError as error:
        raise JobConfigError(path, "(syntax)", str(error)) from None
    except OSError as error:
        raise JobConfigError(path, "(file)", error.strerror or str(error)) from None


def parse_job(data: dict[str, Any], path: Path) -> Job:
    """Validate the parsed TOML `data` of the job file at `path`."""
    if not _NAME_RE.match(path.stem):
        raise JobConfigError(
            path, "(file name)", "a job name is lower-case letters, digits, _ or -"
        )
    top = Table(dict(data), path, JobConfigError)
    sites = top.str_list("sites")
    if not sites:
        raise top.error("sites", "list at least one site (a spider name, e.g. sina)")
    cron = top.require("cron", str)
    try:
        check_cron(cron)
    except ValueError as error:
        raise top.error("cron", f"{cron!r} is not a cron expression: {error}") from None
    job = Job(
        name=path.stem,
        path=path,
        description=top.get("description", str, ""),
        sites=tuple(sites),
        cron=cron,
        timezone=_timezone(top),
        time_limit=_duration(top, data, "time_limit", required=True),
        kill_after=_duration(top, data, "kill_after") or DEFAULT_KILL_AFTER,
        resume=top.get("resume", bool, True),
        args=_scalars(top, data, "args"),
        settings=_scalars(top, data, "settings"),
    )
    reserved = sorted(RESERVED_SETTINGS & set(job.settings))
    if reserved:
        raise top.error(f"settings.{reserved[0]}", "set by the scheduler for each crawl")
    top.finish()
    return job


def _timezone(top: Table) -> ZoneInfo | None:
    name = top.get("timezone", str, "")
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise top.error("timezone", f"unknown time zone {name!r} (use an IANA name)") from None


def _duration(top: Table, data: dict[str, Any], key: str, *, required: bool = False) -> timedelta:
    """Seconds, or a number with s/m/h/d (``"50m"``); must be positive when given."""
    value: Any = top.optional(key, str if isinstance(data.get(key), str) else int)
    if value is None:
        if required:
            raise top.error(key, 'required key is missing (seconds, or e.g. "50m", "2h")')
        return timedelta(0)
    try:
        duration = parse_duration(value)
    except ValueError:
        duration = None
    if duration is None:
        raise top.error(
            key, f'expected a positive duration (seconds, or e.g. "50m"), got {value!r}'
        )
    return duration


def _scalars(top: Table, data: dict[str, Any], key: str) -> Mapping[str, str]:
    """A table of ``-a``/``-s`` values as Scrapy reads them from the command line.

    Booleans become True/False, arrays comma-joined (``getlist``), tables JSON (``getdict``).
    """
    top.table(key)  # checks it is a table
    values: dict[str, str] = {}
    for name, value in data.get(key, {}).items():
        if isinstance(value, str | int | float):  # bools too: True/False
            values[name] = str(value)
        elif isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
            values[name] = ",".join(str(v) for v in value)
        elif isinstance(value, dict):
            values[name] = json.dumps(value, ensure_ascii=False)
        else:
            raise top.error(
                f"{key}.{name}", f"cannot pass {type(value).__name__} on a command line"
            )
    return MappingProxyType(values)
