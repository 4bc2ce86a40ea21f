"""The run history: one JSON line per crawl run (or scrapyd submission), appended.

Each line is written with a single ``write`` on an ``O_APPEND`` descriptor, so runs of
several jobs (threads or processes) never interleave within a line.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

Outcome = Literal["finished", "failed", "stopped", "timed_out", "submitted", "rejected"]


@dataclass(frozen=True, slots=True)
class RunRecord:
    """How one crawl of a job's run ended."""

    job: str
    run_id: str
    site: str
    started: str
    """ISO 8601, UTC."""
    ended: str
    outcome: Outcome
    exit_code: int | None
    """The crawl's exit status (128+N when killed by signal N); None for scrapyd submissions."""
    log: str
    """The crawl's log file, or the scrapyd job id."""


def append_run(path: Path, record: RunRecord) -> None:
    """Add `record` to the history file at `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(asdict(record), ensure_ascii=False) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def read_runs(path: Path) -> list[RunRecord]:
    """Every record in the history file (none when it does not exist)."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as handle:
        return [RunRecord(**json.loads(line)) for line in handle if line.strip()]


def new_run_id(now: datetime) -> str:
    """A run's id: its UTC start to the millisecond, sortable (``20240501T120000.123Z``)."""
    return now.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%f")[:-3] + "Z"


def utc_iso(now: datetime) -> str:
    return now.astimezone(UTC).isoformat(timespec="seconds")
