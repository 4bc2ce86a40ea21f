"""The scheduler loop: sleep until the next due time, start the due jobs, stop on request.

Each due job runs in a thread of its own (a run blocks on its crawls for up to its time
limit, and other jobs must still start on time). A job still running when it falls due
again is skipped, as its lock would skip it anyway; missed times are not made up, as cron.
When `stop` is set the loop starts nothing more and waits for the runs, which stop their
crawls cleanly (see `newscrawl.schedule.runner`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from newscrawl.schedule.cron import next_due
from newscrawl.schedule.jobs import Job

logger = logging.getLogger(__name__)

MAX_SLEEP_SECONDS = 60.0
"""Wake at least this often, so a changed system clock is noticed."""


def serve(
    jobs: Iterable[Job],
    run: Callable[[Job], object],
    stop: threading.Event,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> None:
    """Run `jobs` when their cron expressions fall due until `stop` is set."""
    jobs = list(jobs)
    due = {job.name: next_due(job.cron, clock(), job.timezone) for job in jobs}
    runs: dict[str, threading.Thread] = {}
    for job in jobs:
        logger.info("job %s: next run %s", job.name, due[job.name].isoformat())
    while not stop.is_set():
        now = clock()
        for job in jobs:
            if due[job.name] > now:
                continue
            due[job.name] = next_due(job.cron, now, job.timezone)
            if job.name in runs and runs[job.name].is_alive():
                logger.warning("job %s is still running; this run is skipped", job.name)
                continue
            runs[job.name] = threading.Thread(target=run, args=(job,), name=f"job-{job.name}")
            runs[job.name].start()
            logger.info("job %s: next run %s", job.name, due[job.name].isoformat())
        wake = min(due.values(), default=now)
        stop.wait(min(max((wake - clock()).total_seconds(), 0.0), MAX_SLEEP_SECONDS))
    logger.info("stopping: waiting for %d running job(s)", sum(t.is_alive() for t in runs.values()))
    for thread in runs.values():
        thread.join()
