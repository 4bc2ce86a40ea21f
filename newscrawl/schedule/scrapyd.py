"""Submitting a job to scrapyd instead of starting crawls here (``--scrapyd URL``).

Each site becomes a ``schedule.json`` call with the job's settings (``setting=K=V``) and
spider arguments; scrapyd runs and logs the crawls. The job's time limit travels as
``CLOSESPIDER_TIMEOUT`` (scrapyd has no per-job timer of its own), and a job whose earlier
submission is still pending or running in scrapyd (``listjobs.json``) is not submitted
again. JOBDIRs are not set here: paths on the scrapyd host are not ours (scrapyd's own
``jobs_dir`` gives each of its jobs one).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any
from urllib.error import URLError
from urllib.parse import urlencode
from urllib.request import urlopen

from newscrawl.schedule.history import RunOutcome, RunRecord, append_run, new_run_id, utc_iso
from newscrawl.schedule.jobs import Job
from newscrawl.schedule.layout import StateDir
from newscrawl.schedule.runner import ALREADY_RUNNING

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 30


class ScrapydError(Exception):
    """scrapyd could not be reached or answered with an error."""


def submit_job(job: Job, state: StateDir, base_url: str, project: str) -> int:
    """Schedule every site of `job` in scrapyd; 0 when all were accepted, else 1."""
    try:
        active = _active(job, base_url, project)
    except ScrapydError as error:
        logger.error("job %s not submitted: %s", job.name, error)
        return 1
    if active:
        logger.warning("job %s still pending or running in scrapyd; not submitted", job.name)
        return ALREADY_RUNNING
    now = datetime.now(UTC)
    run_id = new_run_id(now)
    status = 0
    for site in job.sites:
        jobid = scrapyd_job_id(job.name, site, run_id)
        outcome: RunOutcome
        try:
            _call(base_url, "schedule.json", _schedule_form(job, site, project, jobid))
            outcome = "submitted"
        except ScrapydError as error:
            logger.error("job %s: scrapyd refused %s: %s", job.name, site, error)
            outcome, status = "rejected", 1
        logger.info("job %s: %s %s as scrapyd job %s", job.name, outcome, site, jobid)
        append_run(
            state.history,
            RunRecord(job.name, run_id, site, utc_iso(now), utc_iso(now), outcome, None, jobid),
        )
    return status


def scrapyd_job_id(job: str, site: str, run_id: str) -> str:
    """The scrapyd job id of one site of a run; it starts with the job name plus a dot."""
    return f"{job}.{site}.{run_id}"


def _schedule_form(job: Job, site: str, project: str, jobid: str) -> list[tuple[str, str]]:
    settings = {"CLOSESPIDER_TIMEOUT": str(int(job.time_limit.total_seconds())), **job.settings}
    form = [("project", project), ("spider", site), ("jobid", jobid)]
    form += [("setting", f"{name}={value}") for name, value in settings.items()]
    return form + list(job.args.items())


def _active(job: Job, base_url: str, project: str) -> bool:
    """Whether scrapyd has a pending or running job of an earlier run of `job`."""
    jobs = _call(base_url, f"listjobs.json?{urlencode({'project': project})}", None)
    prefix = f"{job.name}."
    return any(
        str(entry.get("id", "")).startswith(prefix)
        for state in ("pending", "running")
        for entry in jobs.get(state, [])
    )


def _call(base_url: str, endpoint: str, form: list[tuple[str, str]] | None) -> dict[str, Any]:
    """GET (no form) or POST one scrapyd endpoint; its JSON answer, status ``ok``."""
    url = f"{base_url.rstrip('/')}/{endpoint}"
    data = urlencode(form).encode() if form is not None else None
    try:
        with urlopen(url, data=data, timeout=TIMEOUT_SECONDS) as response:
            answer: dict[str, Any] = json.load(response)
    except (URLError, OSError, ValueError) as error:
        raise ScrapydError(f"{url}: {error}") from None
    if answer.get("status") != "ok":
        raise ScrapydError(f"{url}: {answer.get('message', answer)}")
    return answer
