"""The run history: one JSON line per crawl run (or scrapyd submission), appended.

Each line is written with a single ``write`` on an ``O_APPEND`` descriptor, so runs of
several jobs (threads or processes) never interleave within a line.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

RunOutcome = Literal["ok", "degraded", "failed", "stopped", "timed_out", "submitted", "rejected"]
"""How a crawl ended (`newscrawl.schedule.verdict`); ``submitted``/``rejected`` for scrapyd."""
OLD_OUTCOMES: dict[str, RunOutcome] = {"finished": "ok"}
"""Outcomes of earlier releases' history lines, by what they mean now."""


@dataclass(frozen=True, slots=True)
class RunRecord:
    """How one crawl of a job's run ended."""

    job: str
    run_id: str
    site: str
    started: str
    """ISO 8601, UTC."""
    ended: str
    outcome: RunOutcome
    exit_code: int | None
    """The crawl's exit status (128+N when killed by signal N); None for scrapyd submissions."""
    log: str
    """The crawl's log file, or the scrapyd job id."""
    summary: dict[str, Any] | None = None
    """The crawl's run summary (`newscrawl.monitoring.summary.RunSummary.to_dict`), when it
    wrote one."""
    reasons: list[str] = field(default_factory=list)
    """Why the outcome is failed or degraded, one line each."""


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
        return [_record(json.loads(line)) for line in handle if line.strip()]


def _record(data: dict[str, Any]) -> RunRecord:
    data["outcome"] = OLD_OUTCOMES.get(data["outcome"], data["outcome"])
    return RunRecord(**data)


def new_run_id(now: datetime) -> str:
    """A run's id: its UTC start to the millisecond, sortable (``20240501T120000.123Z``)."""
    return now.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%f")[:-3] + "Z"


def utc_iso(now: datetime) -> str:
    return now.astimezone(UTC).isoformat(timespec="seconds")
