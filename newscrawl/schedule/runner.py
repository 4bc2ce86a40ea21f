"""Running a job now: one ``scrapy crawl`` subprocess per site (a reactor cannot restart).

Under the job's lock, every site's crawl starts at once (each site is its own host, so
politeness is per crawl) with the job's ``-a``/``-s``, its own log file and, when the job
resumes, its own JOBDIR. At the time limit, or when the scheduler is told to stop, each
crawl gets one SIGTERM (Scrapy then closes cleanly and keeps its JOBDIR; a second signal
would force an unclean stop, scrapy#2399) and is killed if still running `kill_after` later.

JOBDIR bookkeeping: a marker file is written before a crawl starts and removed only when
the crawl exits 0 after being told to stop, so the next run resumes from the JOBDIR. A crawl
that ran to its end leaves nothing to resume: its JOBDIR is removed (its seen-set would
otherwise filter the next run's listing pages). A marker left behind means the crawl died
(SIGKILL, crash): its queue may be lost or torn, so the next run discards the JOBDIR and
starts afresh; the store's incremental skip keeps it from fetching stored articles again.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from newscrawl.monitoring.summary import RunSummary
from newscrawl.schedule.history import (
    RunOutcome,
    RunRecord,
    append_run,
    new_run_id,
    read_runs,
    utc_iso,
)
from newscrawl.schedule.jobs import Job
from newscrawl.schedule.layout import StateDir
from newscrawl.schedule.lock import job_lock
from newscrawl.schedule.verdict import EXIT_STATUS, Stop, judge, worst

logger = logging.getLogger(__name__)

ALREADY_RUNNING = 75
"""Exit status when the job's lock is taken (EX_TEMPFAIL: try again later)."""
RUNNING_MARKER = "newscrawl.running"
POLL_SECONDS = 0.2


@dataclass(slots=True)
class _Crawl:
    """One site's crawl process of a run, and whether (and when) it was told to stop."""

    site: str
    process: subprocess.Popen[bytes]
    log: Path
    summary: Path
    jobdir: Path | None
    stop_reason: RunOutcome | None = None
    signalled_at: float | None = None
    killed: bool = False


def run_job(job: Job, state: StateDir, stop: threading.Event) -> int:
    """Run every site of `job` now and wait; the exit status of the worst outcome of its
    crawls (`verdict.EXIT_STATUS`: 0 ok or stopped, 1 failed, 3 degraded, 4 timed out).

    Returns `ALREADY_RUNNING` without starting anything when another run holds the lock.
    """
    with job_lock(state.lock(job.name)) as lock_fd:
        if lock_fd is None:
            logger.warning("job %s is already running; this run is skipped", job.name)
            return ALREADY_RUNNING
        started = datetime.now(UTC)
        run_id = new_run_id(started)
        logger.info("job %s: run %s starts %s", job.name, run_id, ", ".join(job.sites))
        crawls = [_start(job, site, state, run_id, lock_fd) for site in job.sites]
        deadline = time.monotonic() + job.time_limit.total_seconds()
        _supervise(crawls, deadline, job.kill_after.total_seconds(), stop)
        earlier = [run for run in read_runs(state.history) if run.job == job.name]
        outcomes = [_finish(job, crawl, run_id, started, state, earlier) for crawl in crawls]
    return EXIT_STATUS[worst(outcomes)]


def crawl_command(
    job: Job, site: str, jobdir: Path | None, summary: Path | None = None
) -> list[str]:
    """``scrapy crawl <site>`` with the job's spider arguments and settings."""
    command = [sys.executable, "-m", "scrapy", "crawl", site]
    for name, value in job.args.items():
        command += ["-a", f"{name}={value}"]
    settings = {
        **job.settings,
        **({"JOBDIR": str(jobdir)} if jobdir else {}),
        **({"NEWSCRAWL_SUMMARY_FILE": str(summary)} if summary else {}),
    }
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    return command


def _start(job: Job, site: str, state: StateDir, run_id: str, lock_fd: int) -> _Crawl:
    jobdir = state.jobdir(job.name, site) if job.resume else None
    if jobdir:
        _prepare_jobdir(jobdir)
    log = state.log(job.name, run_id, site)
    summary = state.summary(job.name, run_id, site)
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ}
    env.setdefault("SCRAPY_SETTINGS_MODULE", "newscrawl.settings")  # run from any directory
    with log.open("ab") as output:
        process = subprocess.Popen(
            crawl_command(job, site, jobdir, summary),
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            pass_fds=(lock_fd,),  # the crawl holds the job's lock as long as it lives
            start_new_session=True,  # a terminal's Ctrl-C reaches the scheduler only
        )
    logger.info("job %s: crawling %s (pid %d), log %s", job.name, site, process.pid, log)
    return _Crawl(site, process, log, summary, jobdir)


def _supervise(
    crawls: list[_Crawl], deadline: float, kill_after: float, stop: threading.Event
) -> None:
    """Wait for every crawl; SIGTERM once at the deadline or on `stop`, SIGKILL later."""
    while running := [crawl for crawl in crawls if crawl.process.poll() is None]:
        now = time.monotonic()
        reason: RunOutcome | None = (
            "stopped" if stop.is_set() else "timed_out" if now >= deadline else None
        )
        for crawl in running:
            if crawl.signalled_at is None and reason:
                logger.info("crawl of %s: %s, sending SIGTERM", crawl.site, reason)
                crawl.stop_reason, crawl.signalled_at = reason, now
                crawl.process.terminate()
            elif crawl.signalled_at is not None and now - crawl.signalled_at >= kill_after:
                logger.warning(
                    "crawl of %s still running %.0fs after SIGTERM: SIGKILL", crawl.site, kill_after
                )
                crawl.process.kill()
                crawl.killed = True
        if stop.is_set():
            time.sleep(POLL_SECONDS)
        else:
            stop.wait(POLL_SECONDS)


def _finish(
    job: Job,
    crawl: _Crawl,
    run_id: str,
    started: datetime,
    state: StateDir,
    history: list[RunRecord],
) -> RunOutcome:
    """Settle the crawl's JOBDIR, judge and record how it ended against the job's earlier
    runs (`history`, read once per run); its outcome."""
    code = crawl.process.returncode
    exit_code = code if code >= 0 else 128 - code
    if crawl.jobdir and exit_code == 0:
        _settle_jobdir(crawl.jobdir, resumable=crawl.stop_reason is not None)
    summary = _read_summary(crawl.summary)
    earlier = [run for run in history if run.site == crawl.site]
    stop = None
    if crawl.stop_reason is not None:
        kill_after = job.kill_after if crawl.killed else None
        stop = Stop(crawl.stop_reason, job.time_limit, kill_after)
    outcome, reasons = judge(summary, exit_code, stop, earlier)
    append_run(
        state.history,
        RunRecord(
            job=job.name,
            run_id=run_id,
            site=crawl.site,
            started=utc_iso(started),
            ended=utc_iso(datetime.now(UTC)),
            outcome=outcome,
            exit_code=exit_code,
            log=str(crawl.log),
            summary=summary.to_dict() if summary else None,
            reasons=reasons,
        ),
    )
    because = f": {'; '.join(reasons)}" if reasons else ""
    log = logger.info if outcome in ("ok", "stopped") else logger.warning
    log("job %s: crawl of %s %s (exit %d)%s", job.name, crawl.site, outcome, exit_code, because)
    return outcome


def _read_summary(path: Path) -> RunSummary | None:
    """The run summary the crawl wrote, or None (it died first, or could not start)."""
    try:
        return RunSummary.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return None


def _prepare_jobdir(jobdir: Path) -> None:
    marker = jobdir / RUNNING_MARKER
    if marker.exists():
        logger.warning(
            "%s: the last crawl did not stop cleanly; its JOBDIR is discarded "
            "(the store still skips the articles it fetched)",
            jobdir,
        )
        shutil.rmtree(jobdir)
    jobdir.mkdir(parents=True, exist_ok=True)
    marker.touch()


def _settle_jobdir(jobdir: Path, *, resumable: bool) -> None:
    """After a clean exit: keep a stopped crawl's JOBDIR to resume, drop a finished one's."""
    if resumable:
        (jobdir / RUNNING_MARKER).unlink()
    else:
        shutil.rmtree(jobdir)
