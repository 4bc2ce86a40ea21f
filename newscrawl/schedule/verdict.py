"""How a scheduled crawl went: ok, degraded, failed, timed out or stopped, and why.

The crawl itself says when it failed (its exit status, `newscrawl.monitoring.monitors`).
What one crawl cannot see is that it did much worse than the same site usually does: a
layout change that leaves a few pages readable, a site that now serves error pages with
status 200. The scheduler holds the site's earlier runs, so it judges that here:

- ``degraded``: the articles stored fall under `MIN_YIELD_SHARE` of the median of the
  site's last `RECENT_RUNS` good runs (a re-crawl that found every article page it asked
  for already stored is not judged by its yield, nor counted in the usual one); or most
  pages were dropped (`MAX_DROPPED_SHARE`) and one reason holds most of them; or the share
  of articles with a publish time falls under half its median (the dates' markup changed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from statistics import median

from newscrawl.monitoring.summary import RunSummary
from newscrawl.schedule.history import RunOutcome, RunRecord

RECENT_RUNS = 10
"""How many of the site's earlier ok or degraded runs its usual yield is the median of."""
MIN_RUNS = 3
"""Fewer earlier runs than this give no usual yield to compare with."""
MIN_YIELD_SHARE = 0.25
"""A run yielding less than this share of the usual is degraded."""
MAX_DROPPED_SHARE = 0.5
"""A run that dropped more than this share of its article pages, most for one reason, is
degraded (the issue's "most pages dropped for one reason")."""
MIN_COVERAGE_SHARE = 0.5
"""A run whose share of articles with a publish time falls under this share of the usual
share is degraded."""

EXIT_STATUS: dict[RunOutcome, int] = {
    "ok": 0,
    "stopped": 0,
    "failed": 1,
    "degraded": 3,
    "timed_out": 4,
}
"""``newscrawl schedule --once``'s exit status for the worst outcome of its crawls."""
SEVERITY: tuple[RunOutcome, ...] = ("failed", "degraded", "timed_out", "stopped", "ok")
"""Outcomes from worst to best."""


@dataclass(frozen=True, slots=True)
class Stop:
    """Why the scheduler stopped a crawl, and how: SIGTERM, then SIGKILL if it did not close."""

    outcome: RunOutcome
    """``timed_out`` (the job's time limit) or ``stopped`` (the scheduler was told to stop)."""
    time_limit: timedelta
    kill_after: timedelta | None = None
    """Set when the crawl was still running this long after SIGTERM and was killed."""

    @property
    def reason(self) -> str:
        """E.g. ``time limit 50m reached: stopped with SIGTERM``."""
        why = (
            f"time limit {_duration(self.time_limit)} reached"
            if self.outcome == "timed_out"
            else "the scheduler was told to stop"
        )
        if self.kill_after is None:
            return f"{why}: stopped with SIGTERM"
        return f"{why}: SIGTERM, then SIGKILL {_duration(self.kill_after)} later"


def judge(
    summary: RunSummary | None,
    exit_code: int,
    stop: Stop | None,
    earlier: Sequence[RunRecord],
) -> tuple[RunOutcome, list[str]]:
    """The outcome of one crawl and the reasons for it (`earlier`: the same job and site's
    earlier runs, oldest first)."""
    if stop is not None:
        return stop.outcome, [stop.reason]
    if exit_code != 0:
        reasons = list(summary_reasons(summary)) or [f"the crawl exited with status {exit_code}"]
        return "failed", reasons
    if summary is None:
        return "failed", ["the crawl wrote no run summary"]
    reasons = degraded_reasons(summary, _usual(earlier))
    return ("degraded" if reasons else "ok"), reasons


def summary_reasons(summary: RunSummary | None) -> list[str]:
    """The failure reasons the crawl's own monitors recorded in its summary."""
    return list(summary.failed_run) if summary is not None else []


def degraded_reasons(summary: RunSummary, usual: Sequence[RunSummary]) -> list[str]:
    """Why `summary` is far from the `usual` runs of its site (empty: it is not)."""
    reasons = []
    if len(usual) >= MIN_RUNS and not summary.nothing_new:
        typical = median(run.articles for run in usual)
        if typical and summary.articles < MIN_YIELD_SHARE * typical:
            reasons.append(
                f"{summary.articles} articles, under {MIN_YIELD_SHARE:.0%} of the usual "
                f"{typical:g} (median of the last {len(usual)} runs)"
            )
        dated = [run.coverage["published_at"] for run in usual if "published_at" in run.coverage]
        now = summary.coverage.get("published_at")
        if now is not None and len(dated) >= MIN_RUNS and now < MIN_COVERAGE_SHARE * median(dated):
            reasons.append(
                f"{now:.0%} of articles have a publish time, usually {median(dated):.0%}"
            )
    dropped = sum(summary.dropped.values())
    handled = dropped + summary.articles
    if handled and dropped > MAX_DROPPED_SHARE * handled:
        reason, count = max(summary.dropped.items(), key=lambda item: item[1])
        if count > dropped / 2:
            reasons.append(f"{dropped} of {handled} article pages dropped, {count} for {reason!r}")
    return reasons


def _usual(earlier: Sequence[RunRecord]) -> list[RunSummary]:
    """The summaries of the last `RECENT_RUNS` earlier runs that were ok or degraded and
    found something new (a re-crawl that found nothing new says nothing of the yield)."""
    good = [
        RunSummary.from_dict(run.summary)
        for run in earlier
        if run.outcome in ("ok", "degraded") and run.summary is not None
    ]
    return [summary for summary in good if not summary.nothing_new][-RECENT_RUNS:]


def worst(outcomes: Sequence[RunOutcome]) -> RunOutcome:
    """The worst of `outcomes` by `SEVERITY` (ok for none)."""
    return min(outcomes, key=SEVERITY.index, default="ok")


def _duration(value: timedelta) -> str:
    """`value` as a job file writes it: ``50m``, ``2h``, ``90s``."""
    seconds = value.total_seconds()
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g}{unit}"
    return f"{seconds:g}s"
