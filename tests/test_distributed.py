"""Distributed crawls for real: `scrapy crawl` worker processes sharing Redis and PostgreSQL.

Redis on 127.0.0.1:6379 (a key prefix of its own per test, deleted afterwards), PostgreSQL
on 127.0.0.1:5432 (a schema of its own per test, dropped afterwards) and a generated site on
127.0.0.1 (`distributed_support.NewsSite`). Each worker sends its name as User-Agent, so the
site knows who fetched what.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import skip_or_fail
from distributed_support import SPIDER, NewsSite, Worker, redis_keys, write_site
from local_server import wait_for
from scrapy.utils.test import get_crawler, get_reactor_settings
from store_support import pg_schema

from newscrawl import settings as project_module
from newscrawl.distributed.config import RunKeys, display_url
from newscrawl.distributed.workers import WorkerRegistry
from newscrawl.store import open_store

REDIS_URL = "redis://127.0.0.1:6379/0"
IDLE_SECONDS = 1
WORKER_TIMEOUT = 3


def redis_client(url: str) -> Any:
    """A client for `url`, or skip/fail when redis-py or the server is missing."""
    try:
        import redis
    except ImportError:
        skip_or_fail("redis is not installed (pip install -e '.[test]')")
    client = redis.Redis.from_url(url, socket_connect_timeout=5)
    try:
        client.ping()
    except redis.RedisError as error:
        skip_or_fail(f"Redis not reachable at {url}: {error}")
    return client


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the shared Redis; its keys are deleted after."""
    client = redis_client(REDIS_URL)
    prefix = f"nctest-{uuid.uuid4().hex[:10]}"
    yield prefix
    for key in list(redis_keys(client, prefix)):
        client.delete(key)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A store URL on a PostgreSQL schema of this test's own."""
    with pg_schema() as url:
        yield url


def settings(db_url: str, redis_url: str, prefix: str = "newscrawl", **more: Any) -> dict[str, Any]:
    return {
        "NEWSCRAWL_DB_URL": db_url,
        "NEWSCRAWL_REDIS_URL": redis_url,
        "NEWSCRAWL_REDIS_KEY_PREFIX": prefix,
        "NEWSCRAWL_REDIS_IDLE_SECONDS": IDLE_SECONDS,
        "NEWSCRAWL_REDIS_WORKER_TIMEOUT": WORKER_TIMEOUT,
        "NEWSCRAWL_DB_BATCH_SIZE": 10,
        "NEWSCRAWL_DEFAULT_FEED": "",
        "ROBOTSTXT_OBEY": False,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 8,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
        **more,
    }


def stat(log: str, name: str) -> int:
    match = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(match[1]) if match else 0


def store_stats(log: str) -> dict[str, int]:
    """Every ``newscrawl/store/*`` counter of a worker's stats dump (for assertion messages)."""
    return {m[1]: int(m[2]) for m in re.finditer(r"'newscrawl/store/([\w/]+)': (\d+)", log)}


def stored_paths(db_url: str) -> list[str]:
    """The URL paths of the stored articles, one per row."""
    try:
        with open_store(db_url) as store:
            return [
                re.sub(r"^https?://[^/]+", "", row["canonical_url"])
                for row in store.iter_articles()
            ]
    except Exception:  # the first worker may not have created the tables yet
        return []


def test_display_url_masks_only_the_password() -> None:
    assert display_url("redis://:s3cret@db:6379/2") == "redis://:***@db:6379/2"
    assert display_url("redis://user:s3cret@db/0") == "redis://user:***@db/0"
    assert display_url("unix:///run/redis.sock") == "unix:///run/redis.sock"


def test_addon_is_off_without_a_url_and_sets_scrapy_redis_with_one() -> None:
    # settings.py's own values (as `scrapy crawl` layers them over Scrapy's defaults)
    project = {name: value for name, value in vars(project_module).items() if name.isupper()}
    project.update(get_reactor_settings(), NEWSCRAWL_REDIS_URL="")
    plain = get_crawler(settings_dict=project).settings
    assert plain["SCHEDULER"] == "scrapy.core.scheduler.Scheduler"
    redis_client(REDIS_URL)
    configured = get_crawler(settings_dict={**project, "NEWSCRAWL_REDIS_URL": REDIS_URL}).settings
    assert configured["SCHEDULER"] == "newscrawl.distributed.scheduler.RedisScheduler"
    assert configured["DUPEFILTER_CLASS"] == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert configured["REDIS_URL"] == REDIS_URL and configured.getbool("SCHEDULER_PERSIST")
    assert configured["SCHEDULER_DUPEFILTER_KEY"] % {"spider": "x"} == "newscrawl:x:seen"
    assert "newscrawl.distributed.idle.IdleClose" in configured.getdict("EXTENSIONS")


def test_worker_registry_scopes_the_seen_set_to_a_run(redis_prefix: str) -> None:
    client = redis_client(REDIS_URL)
    keys = RunKeys.of(redis_prefix, "site")
    a, b = (WorkerRegistry(client, keys, name, timeout=1.0) for name in ("a", "b"))
    client.sadd(keys.seen, "fingerprint of an old, finished run")
    assert a.join()  # nobody alive, queue empty: a new run, the old seen-set goes
    assert not client.exists(keys.seen)
    client.sadd(keys.seen, "fingerprint")
    assert not b.join()  # a is alive: b joins a's run
    assert a.beat(busy=True) == 0 and b.beat(busy=False) == 1  # b sees a busy
    assert a.beat(busy=False) == 0 and b.beat(busy=False) == 0
    assert not a.leave() and client.exists(keys.seen)  # b is still there
    assert b.leave() and not client.exists(keys.seen)  # the last one out deletes it


def test_a_silent_worker_stops_counting_after_the_timeout(redis_prefix: str) -> None:
    client = redis_client(REDIS_URL)
    keys = RunKeys.of(redis_prefix, "site")
    killed, survivor = (WorkerRegistry(client, keys, n, timeout=0.5) for n in ("k", "s"))
    killed.join()
    survivor.join()
    killed.beat(busy=True)  # and then nothing: SIGKILL
    client.zadd(keys.requests, {"a queued request": 0})
    assert survivor.beat(busy=False) == 1
    wait_for(lambda: survivor.beat(busy=False) == 0, "the killed worker's heartbeat to expire")
    assert not survivor.leave()  # requests still queued: the seen-set stays for a resume


def test_two_workers_fetch_every_page_once_and_store_every_article_once(
    tmp_path: Path, redis_prefix: str, pg_url: str
) -> None:
    with NewsSite(articles=2000) as site:
        sites = write_site(site, tmp_path / "sites")
        crawl = settings(pg_url, REDIS_URL, redis_prefix)
        site.hold = lambda path, agent: path == "/index.html"
        a = Worker("worker-a", tmp_path, sites, crawl)
        try:
            wait_for(lambda: "/index.html" in site.held, "worker-a to request the entry point")
            b = Worker("worker-b", tmp_path, sites, crawl)
            try:
                # b's own entry request is in the seen-set already (seeded once). The queue is
                # empty but a's request is in flight: b must stay open through more than one
                # idle check (each is > IDLE_SECONDS apart), not close.
                waiting = "waiting while 1 other worker(s) are busy"
                wait_for(lambda: b.log.count(waiting) >= 2, "worker-b to wait twice")
                assert b.process.poll() is None
                site.release.set()
                assert a.wait() == 0, a.log[-3000:]
                assert b.wait() == 0, b.log[-3000:]
            finally:
                b.kill()
        finally:
            a.kill()

        assert set(site.hits) == site.all_paths()
        assert set(site.hits.values()) == {1}  # every page fetched once across both workers
    stored = stored_paths(pg_url)
    assert len(stored) == 2000 and set(stored) == site.article_paths()
    logs = (a.log, b.log)
    new = [stat(log, "newscrawl/store/new") for log in logs]
    counts = {name: store_stats(log) for name, log in zip(("a", "b"), logs, strict=True)}
    assert sum(new) == 2000 and min(new) > 0, counts  # both stored; no article written twice
    assert all(stat(log, "item_scraped_count") > 0 for log in logs)
    client = redis_client(REDIS_URL)
    keys = RunKeys.of(redis_prefix, SPIDER)
    assert not client.exists(keys.requests, keys.seen, keys.workers, keys.busy)  # last out


def test_killed_worker_loses_its_in_flight_requests_and_a_rerun_fetches_them(
    tmp_path: Path, redis_prefix: str, pg_url: str
) -> None:
    """scrapy-redis pops a request off the queue for good. A worker killed with requests
    popped (downloading, or not yet sent) and pages fetched but not yet committed by the
    store pipeline loses them:
    no other worker gets them, and their fingerprints stay in the run's seen-set, so the
    survivor cannot reschedule them. The survivor finishes the rest. The last worker out
    deletes the seen-set, so the next run fetches the entry point and listings again; the
    incremental skip passes over the stored articles and only the lost ones are fetched."""
    with NewsSite(articles=400) as site:
        sites = write_site(site, tmp_path / "sites")
        crawl = settings(pg_url, REDIS_URL, redis_prefix)

        def hold_a(path: str, agent: str) -> bool:  # a freezes with downloads in flight
            return agent == "worker-a" and path.startswith("/a/") and site.agents[agent] > 30

        site.hold = hold_a
        a = Worker("worker-a", tmp_path, sites, crawl)
        b = None
        try:
            wait_for(lambda: site.hits["/index.html"], "worker-a to seed the run")
            b = Worker("worker-b", tmp_path, sites, crawl)
            wait_for(lambda: len(site.held) >= 4, "worker-a to have requests in flight")
            a.kill()  # SIGKILL
            site.release.set()
            assert b.wait() == 0, b.log[-3000:]
        finally:
            a.kill()
            if b is not None:
                b.kill()
        assert max(site.hits.values()) == 1  # nothing fetched twice, even around the kill
        after_kill = set(stored_paths(pg_url))
        lost = site.article_paths() - after_kill
        fetched_by_a = site.fetched_by["worker-a"]
        fetched_by_b = site.fetched_by["worker-b"] & site.article_paths()
        assert site.held <= lost  # popped by a, downloading when it died: lost
        # The rest of the lost: fetched by a but not yet committed by its store pipeline, or
        # popped by a but not yet sent (the site never saw them). None was ever b's.
        assert all(path in fetched_by_a or not site.hits[path] for path in lost)
        assert fetched_by_b <= after_kill  # the survivor stored all it fetched, lost nothing
        assert stat(b.log, "newscrawl/store/new") == len(fetched_by_b)

        c = Worker("worker-c", tmp_path, sites, crawl)  # the rerun
        assert c.wait() == 0, c.log[-3000:]
        assert "starts the run" in c.log  # the finished run's seen-set was deleted
        refetched = site.fetched_by["worker-c"] & site.article_paths()
        assert refetched == lost  # exactly the lost articles, nothing stored is fetched again
        assert stat(c.log, "newscrawl/store/skipped_seen") == len(after_kill)
    stored = stored_paths(pg_url)
    assert len(stored) == 400 and set(stored) == site.article_paths()  # each stored once


def test_redis_unreachable_at_start_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"redis://:hunter2@127.0.0.1:{port}/0"
    with NewsSite(articles=1) as site:
        worker = Worker(
            "worker",
            tmp_path,
            write_site(site, tmp_path / "sites"),
            settings(f"sqlite:///{tmp_path}/store.db", url),
        )
        assert worker.wait(timeout=60) != 0
    assert f"Redis is not reachable at redis://:***@127.0.0.1:{port}/0" in worker.log
    assert "hunter2" not in worker.log
    assert not site.hits


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of this test's own on a Unix socket (no port to race for)."""
    binary = shutil.which("redis-server")
    if binary is None:
        skip_or_fail("redis-server is not installed")
    path = tmp_path / "redis.sock"
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(path), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        url = f"unix://{path}"
        wait_for(path.exists, "the private redis-server", timeout=20)
        redis_client(url)
        yield url, server
    finally:
        server.kill()
        server.wait(timeout=10)


def test_redis_lost_mid_crawl_stops_the_worker_and_keeps_what_was_stored(
    tmp_path: Path, pg_url: str, private_redis: tuple[str, subprocess.Popen[bytes]]
) -> None:
    url, server = private_redis
    with NewsSite(articles=300) as site:
        site.hold = lambda path, agent: path.startswith("/a/") and len(site.hits) > 60
        worker = Worker(
            "worker", tmp_path, write_site(site, tmp_path / "sites"), settings(pg_url, url)
        )
        try:
            wait_for(lambda: len(stored_paths(pg_url)) >= 40, "articles to be stored")
            stored_before = set(stored_paths(pg_url))
            server.terminate()  # Redis goes away mid-crawl
            server.wait(timeout=10)
            site.release.set()
            worker.wait(timeout=90)
        finally:
            worker.kill()
    log = worker.log
    assert f"Lost Redis at {url}; stopping the crawl" in log
    assert "'finish_reason': 'redis_unavailable'" in log
    assert "spooled" not in log  # the store itself never failed
    stored_after = set(stored_paths(pg_url))
    assert stored_before <= stored_after  # nothing already stored was lost
    assert len(stored_after) < 300
