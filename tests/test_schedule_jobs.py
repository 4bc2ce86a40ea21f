"""Job files (validation, values as Scrapy reads them), cron due times and the loop, in-process."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from newscrawl.config_table import ConfigError
from newscrawl.schedule import Job, JobConfigError, find_jobs, load_job, serve
from newscrawl.schedule.cron import next_due
from newscrawl.schedule.runner import crawl_command
from newscrawl.sites import SiteConfigError

GOOD = """\
sites = ["sina", "netease"]
cron = "5 * * * *"
timezone = "Asia/Shanghai"
time_limit = "50m"
resume = false

[args]
max_pages = 20
since = "2024-05-01"

[settings]
ROBOTSTXT_OBEY = false
DOWNLOAD_DELAY = 0.5
NEWSCRAWL_TRACKING_PARAMS = ["spm", "from"]
NEWSCRAWL_HOST_TWINS = { "m.sohu.com" = "www.sohu.com" }
"""


def write(tmp_path: Path, text: str, name: str = "hourly") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_job_file_becomes_a_job(tmp_path: Path) -> None:
    job = load_job(write(tmp_path, GOOD))
    assert (job.name, job.sites, job.cron) == ("hourly", ("sina", "netease"), "5 * * * *")
    assert job.time_limit == timedelta(minutes=50) and job.kill_after == timedelta(seconds=30)
    assert job.timezone == ZoneInfo("Asia/Shanghai") and job.resume is False
    assert dict(job.args) == {"max_pages": "20", "since": "2024-05-01"}
    assert dict(job.settings) == {
        "ROBOTSTXT_OBEY": "False",
        "DOWNLOAD_DELAY": "0.5",
        "NEWSCRAWL_TRACKING_PARAMS": "spm,from",  # Settings.getlist splits on commas
        "NEWSCRAWL_HOST_TWINS": '{"m.sohu.com": "www.sohu.com"}',  # getdict reads JSON
    }
    assert crawl_command(job, "sina", None)[3:] == [
        "crawl", "sina", "-a", "max_pages=20", "-a", "since=2024-05-01",
        "-s", "ROBOTSTXT_OBEY=False", "-s", "DOWNLOAD_DELAY=0.5",
        "-s", "NEWSCRAWL_TRACKING_PARAMS=spm,from",
        "-s", 'NEWSCRAWL_HOST_TWINS={"m.sohu.com": "www.sohu.com"}',
    ]  # fmt: skip


def test_the_shipped_example_jobs_are_valid() -> None:
    jobs = find_jobs(Path(__file__).resolve().parents[1] / "configs" / "jobs")
    assert jobs and all(job.sites and job.time_limit for job in jobs.values())


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ('cron = "0 * * * *"\ntime_limit = 60', "sites", "list at least one site"),
        ('sites = ["sina"]\ntime_limit = 60', "cron", "required key is missing"),
        ('sites = ["sina"]\ncron = "0 25 * * *"\ntime_limit = 60', "cron", "Bad hour"),
        ('sites = ["sina"]\ncron = "* * * *"\ntime_limit = 60', "cron", "five fields"),
        ('sites = ["sina"]\ncron = "0 * * * *"', "time_limit", "required key is missing"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = "soon"', "time_limit", "duration"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = 0', "time_limit", "duration"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = 9\ntimezone = "Mars/Base"',
         "timezone", "unknown time zone"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = 9\ncorn = "0 * * * *"',
         "corn", "unknown key"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = 9\n[settings]\nJOBDIR = "x"',
         "settings.JOBDIR", "set by the scheduler"),
        ('sites = ["sina"]\ncron = "0 * * * *"\ntime_limit = 9\n[args]\nx = [[1]]',
         "args.x", "cannot pass"),
        ('sites = "sina"\ncron = "0 * * * *"\ntime_limit = 9', "sites", "expected a list"),
        ('sites = ["sina"\n', "(syntax)", ""),
    ],
)  # fmt: skip
def test_errors_name_the_file_key_and_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(JobConfigError) as caught:
        load_job(path)
    assert (caught.value.path, caught.value.key) == (path, key)
    assert problem in caught.value.problem
    assert str(caught.value).startswith(f"{path}: {key}: ")


def test_a_bad_job_is_not_a_site_config_error(tmp_path: Path) -> None:
    """Catching a bad site config (`SiteConfigError`) does not catch a bad job."""
    with pytest.raises(JobConfigError) as caught:
        load_job(write(tmp_path, 'sites = "sina"\ncron = "0 * * * *"\ntime_limit = 9'))
    assert isinstance(caught.value, ConfigError)
    assert not isinstance(caught.value, SiteConfigError)


def test_next_due_reads_the_cron_in_the_job_zone() -> None:
    after = datetime(2024, 5, 1, 23, 30, tzinfo=UTC)  # 07:30 in Shanghai
    due = next_due("0 8 * * *", after, ZoneInfo("Asia/Shanghai"))
    assert due == datetime(2024, 5, 2, 0, 0, tzinfo=UTC)
    assert next_due("*/15 * * * *", after, None) == after + timedelta(minutes=15)


def test_the_loop_runs_due_jobs_and_skips_one_still_running(tmp_path: Path) -> None:
    job = load_job(write(tmp_path, 'sites = ["sina"]\ncron = "* * * * *"\ntime_limit = 9'))
    times = iter(datetime(2024, 5, 1, 12, minute, 30, tzinfo=UTC) for minute in range(60))
    started: list[str] = []
    release, stop = threading.Event(), threading.Event()

    def run(due_job: Job) -> None:
        started.append(due_job.name)
        release.wait(10)  # still running through the next due times

    def clock() -> datetime:
        now = next(times)
        if now.minute >= 4:
            stop.set()
            release.set()
        return now

    serve([job], run, stop, clock)
    assert started == ["hourly"]  # due at 12:01, then skipped while running
