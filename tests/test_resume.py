"""A scheduled crawl cut midway and run again: resumed from its JOBDIR, or redone safely.

SIGTERM: the scheduler tells the crawl to stop, Scrapy closes cleanly and keeps its queue,
and the next run resumes it (the listing is not fetched again, no article twice). SIGKILL of
scheduler and crawl: the JOBDIR is discarded, and the store's upserts and incremental skip
still leave every article stored exactly once.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections import Counter
from pathlib import Path

from local_server import wait_for
from schedule_support import (
    SlowSite,
    article_urls,
    count_rows,
    run_schedule,
    schedule_command,
    stored_urls,
    write_job,
)

from newscrawl.schedule import StateDir, read_runs
from newscrawl.schedule.runner import RUNNING_MARKER

ARTICLES = 200


def start_job(tmp_path: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        schedule_command(tmp_path, "--once", "local-news"),
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )


def article_hits(site: SlowSite) -> Counter[str]:
    return Counter({path: n for path, n in site.hits.items() if path.startswith("/a/")})


def test_sigterm_midway_then_the_next_run_resumes(tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    with SlowSite(ARTICLES, delay=0.02) as site:
        write_job(tmp_path, site, concurrency=4)
        first = start_job(tmp_path)
        try:
            wait_for(lambda: count_rows(tmp_path) >= 20, "the first articles stored")
            first.send_signal(signal.SIGTERM)
            assert first.wait(timeout=60) == 0
        finally:
            first.kill()
        jobdir = state.jobdir("local-news", "local")
        assert (jobdir / "requests.queue").is_dir() and not (jobdir / RUNNING_MARKER).exists()
        fetched_first = article_hits(site)
        assert 20 <= sum(fetched_first.values()) < ARTICLES

        second = run_schedule(tmp_path, "--once", "local-news")
        assert second.returncode == 0, second.stderr[-3000:]
        fetched = article_hits(site)
    assert site.hits["/list.html"] == 1  # resumed from the queue, not started over
    assert set(fetched) == {f"/a/{i}.html" for i in range(1, ARTICLES + 1)}
    assert max(fetched.values()) == 1  # the second run fetched nothing the first did
    urls = stored_urls(tmp_path)
    assert len(urls) == len(set(urls)) and set(urls) == article_urls(site)
    assert [run.outcome for run in read_runs(state.history)] == ["stopped", "ok"]
    assert not jobdir.exists()


def test_sigkill_midway_then_every_article_is_stored_once(tmp_path: Path) -> None:
    state = StateDir(tmp_path / "state")
    with SlowSite(ARTICLES, delay=0.02) as site:
        write_job(tmp_path, site, concurrency=4)
        first = start_job(tmp_path)
        try:
            assert first.stderr is not None
            crawl_pid = next(
                int(match[1])
                for line in first.stderr
                if (match := re.search(r"crawling local \(pid (\d+)\)", line))
            )
            wait_for(lambda: count_rows(tmp_path) >= 20, "the first articles stored")
            os.kill(crawl_pid, signal.SIGKILL)  # a crash: scheduler and crawl die at once
            first.kill()
            first.wait(timeout=30)
        finally:
            first.kill()
        jobdir = state.jobdir("local-news", "local")
        assert (jobdir / RUNNING_MARKER).exists()  # left behind: the JOBDIR is not to be trusted
        stored_before = set(stored_urls(tmp_path))

        second = run_schedule(tmp_path, "--once", "local-news")
        assert second.returncode == 0, second.stderr[-3000:]
        assert "did not stop cleanly; its JOBDIR is discarded" in second.stderr
    urls = stored_urls(tmp_path)
    assert len(urls) == len(set(urls)) == ARTICLES
    assert set(urls) == article_urls(site)
    host = site.url.split("://", 1)[1]
    for url in stored_before:  # stored before the kill: not fetched again
        assert site.hits[url.split(host, 1)[1]] == 1
