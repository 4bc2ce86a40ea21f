"""Where the scheduler keeps its files, all under one state directory.

``locks/<job>.lock``, ``jobdirs/<job>/<site>/`` (Scrapy's JOBDIR), ``logs/<job>/<run>-<site>.log``
with the crawl's ``.summary.json`` beside it, and ``history.jsonl`` (one line per crawl run
or scrapyd submission).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class StateDir:
    """The scheduler's state directory (``--state-dir``, default ``data/schedule``)."""

    root: Path

    @property
    def history(self) -> Path:
        return self.root / "history.jsonl"

    def lock(self, job: str) -> Path:
        return self.root / "locks" / f"{job}.lock"

    def jobdir(self, job: str, site: str) -> Path:
        return self.root / "jobdirs" / job / site

    def log(self, job: str, run_id: str, site: str) -> Path:
        return self.root / "logs" / job / f"{run_id}-{site}.log"

    def summary(self, job: str, run_id: str, site: str) -> Path:
        """The run summary the crawl writes (``NEWSCRAWL_SUMMARY_FILE``), beside its log."""
        return self.root / "logs" / job / f"{run_id}-{site}.summary.json"
