"""Ctrl-C and SIGTERM stop a crawl within seconds though a pipeline stage holds the crawl's
thread for a second per page and many small pages are already fetched (Scrapy would take each
of them through the stage first): the pages still waiting after NEWSCRAWL_STOP_DRAIN_SECONDS
go back to the request queue, the store holds exactly what the run summary says, and a crawl
resumed from its JOBDIR fetches the pages put back, so none is lost."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

from store_support import Site
from test_stop_signals import stop_when, stopped_store
from test_store_site_crawl import SITE_TOML, local_crawl_command

from newscrawl.store import open_store

ARTICLES = 300
BACKLOG = 32
"""Article pages fetched before the signal: at a second each, Scrapy's own stop took a minute."""
STOP_BOUND = 30.0
"""Seconds a stop may take here (a guard against the old minute-long drain, not a timing)."""
PIPELINES = {
    "newscrawl.pipelines.extract.ExtractPipeline": 300,
    "blocking_stage.BlockingStage": 500,
    "newscrawl.pipelines.store.StorePipeline": 800,
}


def crawl_command(workdir: Path, site: Site, *settings: str) -> tuple[list[str], dict[str, str]]:
    """``scrapy crawl local`` of `site` (32 requests at a time) storing in workdir/store.db."""
    return local_crawl_command(
        site,
        workdir,
        "CONCURRENT_REQUESTS=32",
        f"NEWSCRAWL_DB_URL=sqlite:///{workdir}/store.db",
        f"NEWSCRAWL_SUMMARY_FILE={workdir}/summary.json",
        "NEWSCRAWL_STOP_DRAIN_SECONDS=2",
        *settings,
        toml=SITE_TOML.replace("concurrency = 4", "concurrency = 32"),
    )


def stop_midway(workdir: Path, site: Site, signum: int, *settings: str) -> str:
    """Crawl behind the blocking stage, send `signum` once `BACKLOG` pages are fetched; the
    crawl's log, after asserting it exited 0 within `STOP_BOUND`."""
    pipelines = f"ITEM_PIPELINES={json.dumps(PIPELINES)}"
    return stop_when(
        crawl_command(workdir, site, pipelines, *settings),
        workdir,
        lambda: site.article_hits() >= BACKLOG,
        f"{BACKLOG} article pages fetched",
        signum,
        STOP_BOUND,
    )


def stored_rows(workdir: Path) -> list[dict[str, object]]:
    with open_store(f"sqlite:///{workdir}/store.db") as store:
        return [dict(row) for row in store.iter_articles()]


def assert_store_matches_summary(workdir: Path, log: str) -> list[dict[str, object]]:
    summary, rows = stopped_store(workdir)
    assert 0 < len(rows) == summary.stored.get("new", 0) < ARTICLES
    assert "fetched pages were put back in the request queue, not extracted" in log
    return rows


def test_ctrl_c_stops_a_crawl_behind_a_blocking_stage_within_seconds(tmp_path: Path) -> None:
    with Site(articles=ARTICLES) as site:
        log = stop_midway(tmp_path, site, signal.SIGINT)
    assert_store_matches_summary(tmp_path, log)


def test_sigterm_stops_within_seconds_and_the_resumed_crawl_loses_no_page(tmp_path: Path) -> None:
    jobdir = f"JOBDIR={tmp_path}/jobdir"
    with Site(articles=ARTICLES) as site:
        log = stop_midway(tmp_path, site, signal.SIGTERM, jobdir)
        first = {row["canonical_url"] for row in assert_store_matches_summary(tmp_path, log)}
        command, env = crawl_command(tmp_path, site, jobdir)
        resumed = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180
        )
        assert resumed.returncode == 0, resumed.stderr[-3000:]
    urls = [row["canonical_url"] for row in stored_rows(tmp_path)]
    host = site.url.split("://", 1)[1]
    assert sorted(urls) == sorted(f"https://{host}/a/{i}.html" for i in range(1, ARTICLES + 1))
    assert first < set(urls)
    assert site.hits["/list.html"] == 1  # resumed from the queue, not started over
