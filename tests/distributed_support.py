"""Helpers of the distributed-crawl tests: a generated news site, workers, Redis keys.

`NewsSite` serves ``/index.html`` -> ``/list/<k>.html`` -> ``/a/<n>.html`` on 127.0.0.1
(ephemeral port), counts every hit per path and per User-Agent (each worker sends its own),
and can hold chosen requests until `release` is set, so a test can freeze a worker with
requests in flight.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from local_server import LocalServer, QuietHandler
from store_support import article_text

PROJECT = Path(__file__).resolve().parents[1]
SPIDER = "distnews"
SITE_TOML = """\
allowed_domains = ["127.0.0.1"]

[politeness]
download_delay = 0
concurrency = 8

[urls]
article = ['^https?://127\\.0\\.0\\.1:\\d+/a/\\d+\\.html$']
follow = ['^https?://127\\.0\\.0\\.1:\\d+/list/\\d+\\.html$']

[[entry]]
kind = "html"
url = "{base}/index.html"
"""
Hold = Callable[[str, str], bool]
"""(path, user agent) -> whether to hold the request until `NewsSite.release` is set."""


class NewsSite(LocalServer):
    """`articles` article pages spread over listing pages of `per_listing` links each."""

    def __init__(self, articles: int, per_listing: int = 100) -> None:
        self.articles = articles
        self.listings = -(-articles // per_listing)
        self.per_listing = per_listing
        self.hits: Counter[str] = Counter()
        self.agents: Counter[str] = Counter()
        self.fetched_by: dict[str, set[str]] = {}
        self.held: set[str] = set()
        self.hold: Hold | None = None
        self.release = threading.Event()
        self.lock = threading.Lock()
        super().__init__(self._handler())

    def release_held(self) -> None:
        self.release.set()

    def article_paths(self) -> set[str]:
        return {f"/a/{n}.html" for n in range(1, self.articles + 1)}

    def all_paths(self) -> set[str]:
        listings = {f"/list/{k}.html" for k in range(1, self.listings + 1)}
        return {"/index.html"} | listings | self.article_paths()

    def page(self, path: str) -> bytes | None:
        if path == "/index.html":
            links = [f"/list/{k}.html" for k in range(1, self.listings + 1)]
        elif path.startswith("/list/"):
            first = (int(path[6:-5]) - 1) * self.per_listing + 1
            last = min(first + self.per_listing, self.articles + 1)
            links = [f"/a/{n}.html" for n in range(first, last)]
        elif path.startswith("/a/"):
            number = int(path[3:-5])
            return (
                f"<html><head><title>第{number}篇</title></head><body><h1>第{number}篇</h1>"
                f"<p>{article_text(number, 240)}</p></body></html>"
            ).encode()
        else:
            return None
        items = "".join(f'<li><a href="{link}">新闻 {link}</a></li>' for link in links)
        return f"<html><body><ul>{items}</ul></body></html>".encode()

    def _serve(self, path: str, agent: str) -> bytes | None:
        with self.lock:
            self.hits[path] += 1
            self.agents[agent] += 1
            self.fetched_by.setdefault(agent, set()).add(path)
            held = self.hold is not None and self.hold(path, agent)
            if held:
                self.held.add(path)
        if held:
            self.release.wait(timeout=120)
        return self.page(path)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                body = site._serve(self.path, self.headers.get("User-Agent", ""))
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

        return Handler


def write_site(site: NewsSite, directory: Path) -> Path:
    """A user site directory with the site's config (`SPIDER`.toml)."""
    directory.mkdir(exist_ok=True)
    (directory / f"{SPIDER}.toml").write_text(SITE_TOML.format(base=site.url), encoding="utf-8")
    return directory


class Worker:
    """One ``scrapy crawl`` process; its log goes to a file the test can read while it runs."""

    def __init__(self, name: str, workdir: Path, sites_dir: Path, settings: dict[str, Any]) -> None:
        self.name = name
        self.log_path = workdir / f"{name}.log"
        command = [sys.executable, "-m", "scrapy", "crawl", SPIDER]
        for key, value in {**settings, "USER_AGENT": name}.items():
            command += ["-s", f"{key}={value}"]
        env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newscrawl.settings"}
        env["NEWSCRAWL_SITES_DIR"] = str(sites_dir)
        env.pop("NEWSCRAWL_REDIS_URL", None)
        with self.log_path.open("w", encoding="utf-8") as log:
            self.process = subprocess.Popen(
                command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT
            )

    @property
    def log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")

    def wait(self, timeout: float = 120) -> int:
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def redis_keys(server: Any, prefix: str) -> Iterator[str]:
    """Every key under `prefix` (what a test deletes after itself)."""
    yield from server.scan_iter(match=f"{prefix}:*")
