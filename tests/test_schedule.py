"""`newscrawl schedule` end to end: jobs crawl a local site in subprocesses.

Covers a run to its end (store, log, history, JOBDIR dropped), the time limit (SIGTERM,
then SIGKILL for a crawl that cannot close), the lock, the loop stopping on SIGTERM, and
a bad job file reported with file, key and problem.
"""

from __future__ import annotations

import signal
import subprocess
from datetime import timedelta
from pathlib import Path

from schedule_support import (
    article_urls,
    run_schedule,
    schedule_command,
    stored_urls,
    write_job,
)
from store_support import Site

from newscrawl.schedule import ALREADY_RUNNING, StateDir, read_runs
from newscrawl.schedule.lock import job_lock
from newscrawl.schedule.verdict import EXIT_STATUS, Stop, judge


def test_once_runs_the_job_to_its_end(tmp_path: Path) -> None:
    with Site(articles=6) as site:
        write_job(tmp_path, site)
        done = run_schedule(tmp_path, "--once", "local-news")
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(stored_urls(tmp_path)) == sorted(article_urls(site))
    state = StateDir(tmp_path / "state")
    [run] = read_runs(state.history)
    assert (run.job, run.site, run.outcome, run.exit_code) == ("local-news", "local", "ok", 0)
    assert run.summary is not None and run.summary["stored"] == {"new": 6}
    assert run.reasons == []
    assert "Spider closed (finished)" in Path(run.log).read_text(encoding="utf-8")
    assert not state.jobdir("local-news", "local").exists()  # nothing to resume


def test_time_limit_terminates_then_kills(tmp_path: Path) -> None:
    with Site(articles=6, open_articles=2) as site:  # the rest hang: the crawl cannot close
        # The limit must leave time for the crawl to start and reach the hanging pages even
        # on a loaded machine: SIGTERM before that lets Scrapy close cleanly (exit 0).
        write_job(tmp_path, site, time_limit=8, kill_after="1s")
        done = run_schedule(tmp_path, "--once", "local-news")
        [run] = read_runs(StateDir(tmp_path / "state").history)
    assert run.outcome == "timed_out"
    assert run.exit_code == 128 + signal.SIGKILL
    assert run.reasons == ["time limit 8s reached: SIGTERM, then SIGKILL 1s later"]
    assert done.returncode == EXIT_STATUS["timed_out"]
    assert "shutting down gracefully" in Path(run.log).read_text(encoding="utf-8")


def test_a_stopped_run_says_why_and_how() -> None:
    timed_out = Stop("timed_out", timedelta(minutes=50))
    assert judge(None, 0, timed_out, []) == (
        "timed_out",
        ["time limit 50m reached: stopped with SIGTERM"],
    )
    stopped = Stop("stopped", timedelta(hours=2), kill_after=timedelta(seconds=30))
    assert judge(None, 137, stopped, []) == (
        "stopped",
        ["the scheduler was told to stop: SIGTERM, then SIGKILL 30s later"],
    )


def test_a_locked_job_is_skipped(tmp_path: Path) -> None:
    with Site(articles=2) as site:
        write_job(tmp_path, site)
        with job_lock(StateDir(tmp_path / "state").lock("local-news")) as held:
            assert held is not None
            done = run_schedule(tmp_path, "--once", "local-news")
        assert done.returncode == ALREADY_RUNNING
        assert "already running" in done.stderr
        assert site.hits["/list.html"] == 0


def test_the_loop_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    with Site(articles=1) as site:
        write_job(tmp_path, site)
        scheduler = subprocess.Popen(
            schedule_command(tmp_path), cwd=tmp_path, stderr=subprocess.PIPE, text=True
        )
        try:
            assert scheduler.stderr is not None
            first = scheduler.stderr.readline()
            assert "job local-news: next run" in first and "03:00:00" in first
            scheduler.send_signal(signal.SIGTERM)
            assert scheduler.wait(timeout=30) == 0
        finally:
            scheduler.kill()
        assert site.hits["/list.html"] == 0


def test_a_bad_job_file_names_file_key_and_problem(tmp_path: Path) -> None:
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "broken.toml").write_text('sites = ["sina"]\ncron = "61 * * * *"\n', encoding="utf-8")
    done = run_schedule(tmp_path, "--once", "broken")
    assert done.returncode == 2
    assert "broken.toml: cron: '61 * * * *' is not a cron expression: Bad minute" in done.stderr
