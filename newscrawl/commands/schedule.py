"""``newscrawl schedule``: run the crawl jobs of ``configs/jobs/`` by their cron times.

Without ``--once`` it stays up, sleeping until the next job falls due, and stops cleanly
on SIGTERM or Ctrl-C (running crawls are told to stop and keep their JOBDIR to resume).
``--once JOB`` runs one job now and exits with the status of its worst crawl
(`newscrawl.schedule.verdict.EXIT_STATUS`), for system cron and systemd timers.
``--scrapyd URL`` hands the crawls to scrapyd instead of starting them.
"""

from __future__ import annotations

import argparse
import logging
import signal
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path

from scrapy.utils.project import get_project_settings

from newscrawl.commands import UsageError
from newscrawl.schedule import (
    Job,
    JobConfigError,
    StateDir,
    find_jobs,
    run_job,
    serve,
    submit_job,
)
from newscrawl.spiders.loader import SiteSpiderLoader


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``schedule`` parser and its handler."""
    parser = subparsers.add_parser(
        "schedule",
        help="run the crawl jobs of configs/jobs by their cron times",
        description="Run scheduled crawl jobs (configs/jobs/*.toml): as a long-running "
        "scheduler, or one job now with --once (for cron or systemd timers).",
    )
    parser.add_argument(
        "--jobs",
        type=Path,
        default=Path("configs/jobs"),
        metavar="DIR",
        help="directory of job files (default: configs/jobs)",
    )
    parser.add_argument(
        "--once",
        metavar="JOB",
        help="run this job now; exit status of its worst crawl: 0 ok, 1 failed, 3 degraded, "
        "4 timed out, 75 already running",
    )
    parser.add_argument(
        "--scrapyd", metavar="URL", help="submit the crawls to this scrapyd (schedule.json) instead"
    )
    parser.add_argument(
        "--project",
        default="newscrawl",
        help="the scrapyd project the egg was deployed as (default: newscrawl)",
    )
    add_state_dir_argument(parser)
    parser.set_defaults(func=run)


def add_state_dir_argument(parser: argparse.ArgumentParser) -> None:
    """``--state-dir``: where the scheduler keeps its files (``schedule`` and ``health``)."""
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=Path("data/schedule"),
        metavar="DIR",
        help="the scheduler's locks, JOBDIRs, logs and run history (default: data/schedule)",
    )


def run(args: argparse.Namespace) -> int:
    """Load and check the jobs, then run one now (``--once``) or serve them all."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s [%(name)s] %(levelname)s: %(message)s"
    )
    try:
        jobs = find_jobs(args.jobs)
    except JobConfigError as error:
        raise UsageError(str(error)) from None
    if args.once and args.once not in jobs:
        raise UsageError(f"no job {args.once!r} in {args.jobs} (jobs: {', '.join(jobs) or 'none'})")
    selected = [jobs[args.once]] if args.once else list(jobs.values())
    if not selected:
        raise UsageError(f"no job files (*.toml) in {args.jobs}")
    if not args.scrapyd:  # scrapyd checks spider names itself, against the deployed egg
        for job in selected:
            check_sites(job)
    stop = threading.Event()
    state = StateDir(args.state_dir)
    runner: Callable[[Job], int] = (
        partial(submit_job, state=state, base_url=args.scrapyd, project=args.project)
        if args.scrapyd
        else partial(run_job, state=state, stop=stop)
    )
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    if args.once:
        return runner(selected[0])
    serve(selected, runner, stop)
    return 0


def check_sites(job: Job) -> None:
    """Raise `UsageError` when `job` names a site ``scrapy crawl`` would not find."""
    settings = get_project_settings()
    if "NEWSCRAWL_SITES_DIR" in job.settings:
        settings.set("NEWSCRAWL_SITES_DIR", job.settings["NEWSCRAWL_SITES_DIR"], "cmdline")
    known = SiteSpiderLoader(settings).list()
    unknown = [site for site in job.sites if site not in known]
    if unknown:
        problem = f"unknown site {unknown[0]!r} (known: {', '.join(known)})"
        raise UsageError(f"{job.path}: sites: {problem}")
