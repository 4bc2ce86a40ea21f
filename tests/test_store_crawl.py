"""Crawls against a local site, each in a subprocess (one Twisted reactor per process).

They cover what only a real crawl shows: batches flushed on close, a SIGKILL between
batches, the database failing mid-crawl, and a second crawl fetching no article again.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from local_server import wait_for
from store_support import Site, db_url_fixture, pg_connect, pg_schema_url  # noqa: F401 (fixture)

from newscrawl.store import open_store

SPIDER = Path(__file__).with_name("store_spider.py")
PROJECT = Path(__file__).resolve().parents[1]


def crawl_command(site: Site, db_url: str, *settings: str) -> list[str]:
    base = {
        "NEWSCRAWL_DB_URL": db_url,
        "NEWSCRAWL_DB_BATCH_SIZE": "3",
        "NEWSCRAWL_DB_BATCH_SECONDS": "0",
        "ROBOTSTXT_OBEY": "False",
        "DOWNLOAD_DELAY": "0",
        "AUTOTHROTTLE_ENABLED": "False",
        "CONCURRENT_REQUESTS": "2",
        "NEWSCRAWL_DEFAULT_FEED": "",
        "LOG_LEVEL": "INFO",
    }
    base.update(dict(s.split("=", 1) for s in settings))
    command = [sys.executable, "-m", "scrapy", "runspider", str(SPIDER)]
    command += ["-a", f"start={site.url}/list.html"]
    for name, value in base.items():
        command += ["-s", f"{name}={value}"]
    return command


def environment() -> dict[str, str]:
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH")]))
    return env


def run_crawl(site: Site, db_url: str, cwd: Path, *settings: str) -> str:
    """Run a crawl to its end; its log."""
    done = subprocess.run(
        crawl_command(site, db_url, *settings),
        cwd=cwd,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


def stat(log: str, name: str) -> int:
    match = re.search(rf"'newscrawl/store/{re.escape(name)}': (\d+)", log)
    return int(match[1]) if match else 0


def stored_urls(db_url: str) -> list[str]:
    with open_store(db_url) as store:
        return [row["canonical_url"] for row in store.iter_articles()]


def count_rows(db_url: str) -> int:
    try:
        with open_store(db_url) as store:
            return store.count_articles()
    except Exception:  # the crawl may not have created the schema yet
        return 0


def article_urls(site: Site, numbers: range) -> set[str]:
    host = site.url.split("://", 1)[1]
    return {f"https://{host}/a/{i}.html" for i in numbers}


def test_flushed_on_close_and_second_crawl_fetches_no_article(db_url: str, tmp_path: Path) -> None:
    with Site(articles=5) as site:
        site.extra_links = ["/a/2.html?spm=home.1", "/moved/1"]
        site.redirects["/moved/1"] = "/a/1.html"
        first = run_crawl(site, db_url, tmp_path, "NEWSCRAWL_DB_BATCH_SIZE=100")
        assert sorted(stored_urls(db_url)) == sorted(article_urls(site, range(1, 6)))
        assert stat(first, "new") == 5
        hits_after_first = site.article_hits()

        site.extra_links = ["/moved/2"]  # a new link redirecting to a stored article
        site.redirects["/moved/2"] = "/a/3.html?from=moved"  # not dupe-filtered
        second = run_crawl(site, db_url, tmp_path)
        assert site.article_hits() == hits_after_first  # no article page fetched again
        assert site.hits["/list.html"] == 2 and site.hits["/moved/2"] == 1
        assert stat(second, "skipped_seen") == 6
        assert stat(second, "new") == 0

        third = run_crawl(site, db_url, tmp_path, "NEWSCRAWL_RECRAWL_AGE=1d")
        assert stat(third, "unchanged") == 6  # all younger than a day: 5 + the redirect
        assert site.article_hits() > hits_after_first


def test_recrawl_argument_fetches_everything_again(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    with Site(articles=3) as site:
        run_crawl(site, db_url, tmp_path)
        log = subprocess.run(
            [*crawl_command(site, db_url), "-a", "recrawl=true"],
            cwd=tmp_path,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=180,
        ).stderr
        assert stat(log, "unchanged") == 3 and stat(log, "skipped_seen") == 0
        assert site.article_hits() == 6


def test_sigkill_between_batches_leaves_whole_batches(db_url: str, tmp_path: Path) -> None:
    with Site(articles=12, open_articles=6) as site:
        crawl = subprocess.Popen(
            crawl_command(site, db_url),
            cwd=tmp_path,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(lambda: count_rows(db_url) >= 3, "the first batch")
        finally:
            crawl.send_signal(signal.SIGKILL)
            crawl.wait(timeout=30)
        assert count_rows(db_url) % 3 == 0  # whole batches only
        stored_before = set(stored_urls(db_url))

        site.gate.set()
        run_crawl(site, db_url, tmp_path)
        urls = stored_urls(db_url)
        assert len(urls) == len(set(urls)) == 12
        assert set(urls) == article_urls(site, range(1, 13))
        host = site.url.split("://", 1)[1]
        for url in stored_before:  # stored before the kill: not fetched by the restart
            assert site.hits[url.split(host, 1)[1]] == 1


@pytest.fixture
def sqlite_locker() -> Iterator[Callable[[str], None]]:
    """Takes SQLite's write lock from another connection, as a stuck writer would."""
    holders: list[sqlite3.Connection] = []

    def lock(db_url: str) -> None:
        conn = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        holders.append(conn)

    yield lock
    for conn in holders:
        conn.rollback()
        conn.close()


def test_sqlite_locked_mid_crawl_stops_and_spools(
    tmp_path: Path, sqlite_locker: Callable[[str], None]
) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db?timeout=1"
    assert_stops_and_spools(tmp_path, db_url, lambda: sqlite_locker(db_url.split("?")[0]))


def test_postgresql_gone_mid_crawl_stops_and_spools(tmp_path: Path) -> None:
    with pg_connect() as admin:
        name = f"nc_test_{uuid.uuid4().hex[:10]}"
        admin.execute(f'CREATE SCHEMA "{name}"')
        admin.execute(f'CREATE ROLE "{name}" LOGIN SUPERUSER')
        try:

            def cut_off() -> None:  # no new logins, and the crawl's sessions are killed
                admin.execute(f'ALTER ROLE "{name}" NOLOGIN')
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s",
                    (name,),
                )

            assert_stops_and_spools(tmp_path, pg_schema_url(name, user=name), cut_off)
        finally:
            admin.execute(f'DROP SCHEMA "{name}" CASCADE')
            admin.execute(f'DROP ROLE "{name}"')


def assert_stops_and_spools(
    tmp_path: Path, db_url: str, break_database: Callable[[], None]
) -> None:
    """Crawl until two batches are in, break the database, let the rest arrive: the crawl
    must stop by itself, say so, and have every fetched article in the store or the spool."""
    spool_dir = tmp_path / "spool"
    with Site(articles=12, open_articles=6) as site:
        crawl = subprocess.Popen(
            crawl_command(site, db_url, f"NEWSCRAWL_DB_SPOOL_DIR={spool_dir}"),
            cwd=tmp_path,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for(lambda: count_rows(db_url) >= 6, "the first two batches")
            stored = set(stored_urls(db_url))
            break_database()
            site.gate.set()
            _, log = crawl.communicate(timeout=120)
        finally:
            if crawl.poll() is None:
                crawl.kill()
        assert "'finish_reason': 'store_unavailable'" in log
        spools = list(spool_dir.glob("*.jsonl"))
        assert len(spools) == 1
        spooled = [json.loads(line) for line in spools[0].read_text("utf-8").splitlines()]
        # One error line, the log's last: what failed, and every spooled article counted
        # (not only the batch the database failed on); the driver's traceback is at DEBUG.
        assert "Traceback" not in log
        [error] = [line for line in log.splitlines() if "] ERROR: " in line]
        assert error == log.splitlines()[-1]
        assert error.split("] ERROR: ", 1)[1].startswith("crawl failed: the article store failed (")
        assert error.endswith(
            f"): {len(spooled)} articles spooled to {spools[0]}; "
            f"`newscrawl import-spool {spools[0]}` loads them"
        )
        assert all(row["body"] for row in spooled)
        fetched = {
            url
            for url in article_urls(site, range(1, 13))
            if site.hits[url.split(site.url.split("://")[1], 1)[1]]
        }
        assert fetched <= stored | {row["canonical_url"] for row in spooled}
        assert len(spooled) >= 1


def test_a_batch_is_committed_when_old_enough(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    with Site(articles=6, open_articles=3) as site:
        crawl = subprocess.Popen(
            crawl_command(
                site, db_url, "NEWSCRAWL_DB_BATCH_SIZE=100", "NEWSCRAWL_DB_BATCH_SECONDS=0.5"
            ),
            cwd=tmp_path,
            env=environment(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:  # three articles can never fill a batch of 100: only the timer commits them
            wait_for(lambda: count_rows(db_url) == 3, "the timed commit")
            site.gate.set()
            assert crawl.wait(timeout=120) == 0
        finally:
            if crawl.poll() is None:
                crawl.kill()
    assert count_rows(db_url) == 6
