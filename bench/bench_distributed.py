"""Distributed crawl speed (1 vs 2 workers) and Redis memory per 100,000 seen URLs.

Throughput: the real site spider (a generated site config in ``NEWSCRAWL_SITES_DIR``)
crawls a local HTTP site of synthetic portal pages (``synthetic_site``: 30-80 KB articles)
with 1 and then 2 ``scrapy crawl`` workers sharing one Redis queue and one PostgreSQL store
(a fresh key prefix and schema per run). Pages/s is the site's own count: pages served over
the time from the first request to the last (worker start-up and the idle wait before
closing are not crawl work; the wall time with them is shown too). Target: 2
workers >= 1.6x one worker on a 2-core machine. The workers' CPU seconds tell the
coordination overhead (pages per CPU second, 1 vs 2 workers) apart from CPU the machine's
other processes take (the load average is printed before and after).

Memory: a seen-set key filled with 100,000 fingerprints exactly as scrapy-redis's
``RFPDupeFilter.request_seen`` adds them (SADD of its SHA1 hex fingerprint), measured with
``MEMORY USAGE`` and the change in ``INFO memory`` used_memory.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg
import redis
from recorded import recorded
from scrapy import Request
from scrapy_redis.dupefilter import RFPDupeFilter
from synthetic_site import Page, site_pages

from newscrawl.distributed.config import RunKeys

PROJECT_ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(__file__).with_name("results") / "distributed.json"
SITE = "benchdist"
SITE_CONFIG = """\
description = "Synthetic portal for bench/bench_distributed.py"
allowed_domains = ["127.0.0.1"]

[[entry]]
kind = "html"
url = "{base}/roll/{{page}}.shtml"
pages = {listings}

[urls]
article = ['^http://127\\.0\\.0\\.1:\\d+/\\d{{4}}-\\d{{2}}-\\d{{2}}/doc-i[0-9a-f]+\\.shtml$']
follow = ['^http://127\\.0\\.0\\.1:\\d+/roll/\\d+\\.shtml$']
"""
SEEN_URLS = 100_000
TARGET_RATIO = 1.6


@dataclass(frozen=True, slots=True)
class Run:
    workers: int
    pages: int
    stored: int
    crawl_seconds: float
    wall_seconds: float
    pages_per_second: float
    pages_per_worker: list[int]
    worker_cpu_seconds: float


class Site:
    """The pages on 127.0.0.1 (ephemeral port); counts hits and times the first and last."""

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.hits = 0
        self.first = self.last = 0.0
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                page = site.pages.get(self.path)
                with site.lock:
                    site.hits += 1
                    site.last = time.monotonic()
                    site.first = site.first or site.last
                self.send_response(200 if page else 404)
                body = page.body if page else b""
                self.send_header("Content-Type", page.content_type if page else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def build(self, articles: int, per_listing: int) -> int:
        """Generate the site; the number of listing pages."""
        listings = -(-articles // per_listing)
        article_urls = [
            f"{self.base}/2024-05-{1 + n % 28:02d}/doc-i{n:08x}.shtml" for n in range(articles)
        ]
        listing_urls = [f"{self.base}/roll/{k}.shtml" for k in range(1, listings + 1)]
        for page in site_pages(article_urls, listing_urls, self.base):
            self.pages[page.url.removeprefix(self.base)] = page
        return listings

    def reset(self) -> None:
        with self.lock:
            self.hits, self.first, self.last = 0, 0.0, 0.0


@contextmanager
def pg_schema(admin_url: str) -> Any:
    """A store URL on a fresh PostgreSQL schema, dropped afterwards."""
    schema = f"nc_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield f"{admin_url}?options=-csearch_path%3D{schema}"
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def worker_command(db_url: str, redis_url: str, prefix: str, name: str) -> list[str]:
    settings = {
        "NEWSCRAWL_DB_URL": db_url,
        "NEWSCRAWL_REDIS_URL": redis_url,
        "NEWSCRAWL_REDIS_KEY_PREFIX": prefix,
        "NEWSCRAWL_REDIS_IDLE_SECONDS": 1,
        "NEWSCRAWL_REDIS_WORKER_TIMEOUT": 3,
        "NEWSCRAWL_DEFAULT_FEED": "",
        "ROBOTSTXT_OBEY": False,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
        "TELNETCONSOLE_ENABLED": False,
        "USER_AGENT": name,
        "LOG_LEVEL": "INFO",
    }
    command = [sys.executable, "-m", "scrapy", "crawl", SITE]
    for key, value in settings.items():
        command += ["-s", f"{key}={value}"]
    return command


def crawl(site: Site, workers: int, sites_dir: Path, args: argparse.Namespace) -> Run:
    """One crawl of the whole site by `workers` processes started together."""
    site.reset()
    prefix = f"ncbench-{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "NEWSCRAWL_SITES_DIR": str(sites_dir)}
    env["SCRAPY_SETTINGS_MODULE"] = "newscrawl.settings"
    with pg_schema(args.pg_url) as db_url, tempfile.TemporaryDirectory() as workdir:
        log_paths = [Path(workdir, f"worker-{i}.log") for i in range(workers)]
        cpu_before = children_cpu()
        started = time.monotonic()
        processes = []
        for i, log_path in enumerate(log_paths):
            with log_path.open("w") as log_file:
                command = worker_command(db_url, args.redis_url, prefix, f"worker-{i}")
                processes.append(
                    subprocess.Popen(
                        command, cwd=workdir, env=env, stdout=log_file, stderr=subprocess.STDOUT
                    )
                )
        for process in processes:
            process.wait()
        wall = time.monotonic() - started
        cpu = children_cpu() - cpu_before
        logs = [path.read_text("utf-8", errors="replace") for path in log_paths]
        for process, log in zip(processes, logs, strict=True):
            if process.returncode != 0 or "log_count/ERROR" in log:
                sys.exit(f"worker failed ({process.returncode}):\n{log[-3000:]}")
        with psycopg.connect(db_url) as conn:
            stored = conn.execute("SELECT count(*) FROM articles").fetchone()[0]
    per_worker = [int(re.search(r"'response_received_count': (\d+)", log)[1]) for log in logs]
    seconds = site.last - site.first
    return Run(workers, site.hits, stored, seconds, wall, site.hits / seconds, per_worker, cpu)


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def seen_set_memory(redis_url: str, count: int) -> dict[str, float]:
    """Bytes a seen-set of `count` request fingerprints takes in Redis."""
    client = redis.Redis.from_url(redis_url)
    key = RunKeys.of(f"ncbench-{uuid.uuid4().hex[:10]}", SITE).seen
    dupefilter = RFPDupeFilter(client, key)
    before = client.info("memory")["used_memory"]
    try:
        for start in range(0, count, 5000):
            pipe = client.pipeline(transaction=False)
            for n in range(start, min(start + 5000, count)):
                url = f"https://news.example.cn/2024-05-10/doc-i{n:08x}.shtml"
                pipe.sadd(key, dupefilter.request_fingerprint(Request(url)))
            pipe.execute()
        assert client.scard(key) == count
        usage = client.memory_usage(key, samples=0)
        grown = client.info("memory")["used_memory"] - before
    finally:
        client.delete(key)
    return {
        "urls": count,
        "memory_usage_bytes": usage,
        "used_memory_growth_bytes": grown,
        "bytes_per_url": usage / count,
        "mib_per_100k_urls": usage / count * 100_000 / 2**20,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=3000)
    parser.add_argument("--per-listing", type=int, default=50)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}, load average at start: {os.getloadavg()}")

    site = Site()
    listings = site.build(args.articles, args.per_listing)
    with tempfile.TemporaryDirectory() as sites_dir:
        config = SITE_CONFIG.format(base=site.base, listings=listings)
        (Path(sites_dir) / f"{SITE}.toml").write_text(config, encoding="utf-8")
        runs = [crawl(site, workers, Path(sites_dir), args) for workers in (1, 2)]
    memory = seen_set_memory(args.redis_url, SEEN_URLS)

    ratio = runs[1].pages_per_second / runs[0].pages_per_second
    print(f"\n{args.articles} articles + {listings} listings (30-80 KB pages), PostgreSQL store")
    print(
        "| workers | pages | stored | per worker | crawl s | wall s | pages/s "
        "| worker CPU s | pages per CPU s |"
    )
    print("| ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for run in runs:
        print(
            f"| {run.workers} | {run.pages} | {run.stored} | {run.pages_per_worker} | "
            f"{run.crawl_seconds:.1f} | {run.wall_seconds:.1f} | {run.pages_per_second:.1f} | "
            f"{run.worker_cpu_seconds:.1f} | {run.pages / run.worker_cpu_seconds:.1f} |"
        )
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    print(f"\n2 workers / 1 worker: {ratio:.2f}x ({verdict} the {TARGET_RATIO}x target)")
    print(f"load average at end: {os.getloadavg()} (other processes share the cores)")
    print(
        f"\nRedis seen-set, {memory['urls']:,} URLs: MEMORY USAGE "
        f"{memory['memory_usage_bytes'] / 2**20:.2f} MiB ({memory['bytes_per_url']:.0f} B/URL), "
        f"used_memory grew {memory['used_memory_growth_bytes'] / 2**20:.2f} MiB"
    )
    RESULTS.write_text(
        json.dumps(
            {"runs": [asdict(run) for run in runs], "ratio": ratio, "seen_set": memory},
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"written: {RESULTS.relative_to(PROJECT_ROOT)}")
    return 0


if __name__ == "__main__":
    with recorded("distributed", "Distributed crawling: one worker against two, Redis memory"):
        sys.exit(main())
