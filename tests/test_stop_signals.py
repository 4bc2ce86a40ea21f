"""Ctrl-C (SIGINT) and SIGTERM stop a crawl promptly while a slow pipeline stage holds items
back, and the store keeps exactly what the run summary says it stored, every row complete."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from local_server import wait_for
from schedule_support import count_rows
from store_support import Site
from test_store_site_crawl import local_crawl_command

from newscrawl.monitoring.summary import RunSummary
from newscrawl.store import open_store

PAGE_PADDING = 64 * 1024
"""Bytes added to each article page: the size of a real news page."""
STOP_BOUND = 45.0
"""Seconds a stop may take here; the 5 MB of pages Scrapy queues by default took 80 s."""


class NewsSite(Site):
    """The local site with article pages of a real page's size."""

    def page(self, path: str) -> tuple[int, dict[str, str], bytes]:
        status, headers, body = super().page(path)
        if path.startswith("/a/") and status == 200:
            body = body.replace(b"</body>", b"<!--" + b"x" * PAGE_PADDING + b"--></body>")
        return status, headers, body


def crawl_command(site: Site, workdir: Path) -> tuple[list[str], dict[str, str]]:
    pipelines = {
        "newscrawl.pipelines.extract.ExtractPipeline": 300,
        "slow_stage.SlowSerialStage": 500,
        "newscrawl.pipelines.store.StorePipeline": 800,
    }
    return local_crawl_command(
        site,
        workdir,
        f"NEWSCRAWL_DB_URL=sqlite:///{workdir}/store.db",
        f"NEWSCRAWL_SUMMARY_FILE={workdir}/summary.json",
        "NEWSCRAWL_DB_BATCH_SECONDS=1",
        f"ITEM_PIPELINES={json.dumps(pipelines)}",
    )


def stop_when(
    crawl: tuple[list[str], dict[str, str]],
    workdir: Path,
    ready: Callable[[], bool],
    what: str,
    signum: int,
    bound: float,
) -> str:
    """Run the crawl (command, environment) in `workdir` and send `signum` once `ready()`
    (`what`, while waiting); its log, after asserting it exited 0 within `bound` seconds (a
    guard against the old minutes-long stops, not a timing)."""
    command, env = crawl
    process = subprocess.Popen(
        command, cwd=workdir, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    try:
        wait_for(ready, what)
        process.send_signal(signum)
        sent = time.monotonic()
        _, log = process.communicate(timeout=bound)
        took = time.monotonic() - sent
    finally:
        process.kill()
    assert process.returncode == 0, log[-3000:]
    assert took < bound
    return log


def stopped_store(workdir: Path) -> tuple[RunSummary, list[dict[str, object]]]:
    """The run summary of a crawl a signal stopped, and its store's rows (every one whole)."""
    summary = RunSummary.from_dict(json.loads((workdir / "summary.json").read_text()))
    assert summary.finish_reason == "shutdown"
    with open_store(f"sqlite:///{workdir}/store.db") as store:
        rows = [dict(row) for row in store.iter_articles()]
    assert all(row["title"] and row["body"] and row["content_hash"] for row in rows)
    return summary, rows


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_the_crawl_promptly_and_the_store_matches_its_summary(
    tmp_path: Path, signum: signal.Signals
) -> None:
    with NewsSite(articles=300) as site:
        log = stop_when(
            crawl_command(site, tmp_path),
            tmp_path,
            lambda: count_rows(tmp_path) >= 3,
            "the first articles stored",
            signum,
            STOP_BOUND,
        )
    summary, rows = stopped_store(tmp_path)
    assert 3 <= summary.articles < 300  # stopped midway
    assert len(rows) == summary.stored["new"] == summary.articles
    assert f"stored {len(rows)} new" in log
