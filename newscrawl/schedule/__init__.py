"""Scheduled crawls: jobs from ``configs/jobs/*.toml`` run by cron time, here or in scrapyd.

`jobs` reads and validates job files, `cron` computes due times, `lock` keeps one run per
job, `runner` runs a job's crawls as subprocesses, `scrapyd` submits them to scrapyd
instead, `history` records how each ended, and `loop` is the long-running scheduler.
"""

from newscrawl.schedule.history import RunRecord, read_runs
from newscrawl.schedule.jobs import Job, JobConfigError, find_jobs, load_job
from newscrawl.schedule.layout import StateDir
from newscrawl.schedule.loop import serve
from newscrawl.schedule.runner import ALREADY_RUNNING, run_job
from newscrawl.schedule.scrapyd import submit_job

__all__ = [
    "ALREADY_RUNNING",
    "Job",
    "JobConfigError",
    "RunRecord",
    "StateDir",
    "find_jobs",
    "load_job",
    "read_runs",
    "run_job",
    "serve",
    "submit_job",
]
