"""The download stack for real (issue 3): one `scrapy crawl` against a misbehaving local site.

A threaded server on 127.0.0.1 serves a generated site through a user TOML config: UTF-8
and GBK pages (charset in the header, in ``<meta>`` only, nowhere), gzip, a same-site and an
offsite redirect, 404/500/503 (one 503 recovers on the retry), a page slower than
``DOWNLOAD_TIMEOUT``, PNG bytes served as ``text/html`` and a 20 MB page (past
``DOWNLOAD_WARNSIZE``, under ``DOWNLOAD_MAXSIZE``). The crawl must finish, store every good
article once with its Chinese intact, and count every bad response with its reason.
"""

from __future__ import annotations

import gzip
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from archive_fixtures.server import Page
from local_server import LocalServer, QuietHandler, send_page
from scrapy.http import HtmlResponse
from store_support import article_text
from test_site_crawl import PARAGRAPH, read_jsonl, scrapy_crawl

from newscrawl.spiders.site import _not_html
from newscrawl.store import open_store
from newscrawl.urls import Canonicalizer

TIMEOUT_SECONDS = 3
"""The crawl's DOWNLOAD_TIMEOUT: at 1 s the 20 MB page itself timed out on a loaded machine."""
SLOW_SECONDS = TIMEOUT_SECONDS + 2
"""How long the slow page sleeps: past the timeout, short enough for the handler thread to
end soon after (the server joins its threads on close)."""
HUGE_BYTES = 20 * 1024 * 1024

HTML = "text/html"
UTF8 = (("Content-Type", "text/html; charset=utf-8"),)
Route = Callable[[int], Page]
"""A path's answer given how many times it was asked (1 for the first request)."""


@dataclass(frozen=True)
class Good:
    """An article the crawl must store: its title, body seed and the page it is served as."""

    title: str
    seed: int
    content_type: str = "text/html; charset=utf-8"
    charset: str = "utf-8"
    meta: bool = True


GOOD = {
    "/a/utf8.html": Good("统计局发布十月数据", 1),
    "/a/gbk-header.html": Good("国务院常务会议召开", 2, "text/html; charset=gbk", "gbk", False),
    "/a/gbk-meta.html": Good("全国秋粮收获过半", 3, HTML, "gbk"),
    "/a/gbk-sniffed.html": Good("高铁新线开通运营", 4, HTML, "gbk", False),
    "/a/gzip.html": Good("冬季供暖准备就绪", 5),
    "/a/moved-target.html": Good("城市更新稳步推进", 6),
    "/a/busy-once.html": Good("外贸进出口保持增长", 7),
    "/a/huge.html": Good("数字经济规模扩大", 8),
}
"""Served as articles, keyed by the path they end up at (the redirect's target included)."""
LINKED_BAD = [
    "/a/moved.html",  # 301 to /a/moved-target.html, which no page links to
    "/a/offsite.html",  # 301 to localhost: another host name, outside allowed_domains
    "/a/missing.html",
    "/a/error.html",
    "/a/busy.html",
    "/a/slow.html",
    "/a/png.html",
]

SITE = """\
allowed_domains = ["127.0.0.1"]

[politeness]
download_delay = 0
concurrency = 8

[urls]
article = ['^http://127\\.0\\.0\\.1:\\d+/a/[\\w-]+\\.html$']

[[entry]]
kind = "html"
url = "{base_url}/index.html"
"""


def article_html(good: Good, padding: str = "") -> bytes:
    """An article page in its charset; `PARAGRAPH` is the phrase checked for mojibake."""
    meta = f"<meta charset='{good.charset}'>" if good.meta else ""
    html = (
        f"<html><head>{meta}<title>{good.title}_示例网</title></head><body>"
        f"<div>首页 新闻</div><div><p>{PARAGRAPH}</p><p>{article_text(good.seed, 300)}</p></div>"
        f"{padding}</body></html>"
    )
    return html.encode(good.charset)


def site_routes(port: int) -> dict[str, Route]:
    """Every path of the site; the 20 MB page is generated here, once per test module."""

    def fixed(page: Page) -> Route:
        return lambda _: page

    def slow(_: int) -> Page:
        time.sleep(SLOW_SECONDS)
        return Page(200, UTF8, b"<html><body>too late</body></html>")

    routes: dict[str, Route] = {
        path: fixed(Page(200, (("Content-Type", good.content_type),), article_html(good)))
        for path, good in GOOD.items()
    }
    gzipped = gzip.compress(article_html(GOOD["/a/gzip.html"]))
    routes["/a/gzip.html"] = fixed(Page(200, (*UTF8, ("Content-Encoding", "gzip")), gzipped))
    entry = '{"id":1,"v":"' + "x" * 86 + '"},'  # 100 bytes of an inline JSON state
    state = f"<script>window.__STATE__=[{entry * (HUGE_BYTES // len(entry))}];</script>"
    huge = article_html(GOOD["/a/huge.html"], state)
    assert len(huge) > HUGE_BYTES
    routes["/a/huge.html"] = fixed(Page(200, UTF8, huge))
    busy = Page(503, (("Content-Type", "text/plain"),), b"busy")
    recovered = routes["/a/busy-once.html"]
    routes["/a/busy-once.html"] = lambda hit: busy if hit == 1 else recovered(hit)
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + random.Random(3).randbytes(8192)
    offsite = f"http://localhost:{port}/a/utf8.html"
    linked = [path for path in GOOD if path != "/a/moved-target.html"] + LINKED_BAD
    links = "".join(f'<a href="{path}">{path}</a>\n' for path in linked)
    routes |= {
        "/robots.txt": fixed(Page(200, (("Content-Type", "text/plain"),), b"User-agent: *\n")),
        "/index.html": fixed(Page(200, UTF8, f"<html><body>{links}</body></html>".encode())),
        "/a/moved.html": fixed(Page(301, (("Location", "/a/moved-target.html"),))),
        "/a/offsite.html": fixed(Page(301, (("Location", offsite),))),
        "/a/error.html": fixed(Page(500, (("Content-Type", "text/plain"),), b"error")),
        "/a/busy.html": fixed(busy),
        "/a/slow.html": slow,
        "/a/png.html": fixed(Page(200, (("Content-Type", HTML),), png)),
    }
    return routes


class StackSite(LocalServer):
    """The site on 127.0.0.1 (ephemeral port), counting requests per (Host header, path).

    The crawler gives up on the slow page (writing to its closed socket fails, quietly).
    """

    daemon_threads = False  # server_close() waits for the slow page's thread

    def __init__(self) -> None:
        self.hits: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()
        super().__init__(self._handler())
        self.routes = site_routes(self.port)

    def host_hits(self, host: str) -> int:
        """Requests whose Host header names `host` (any port)."""
        return sum(n for (name, _), n in self.hits.items() if name.split(":")[0] == host)

    def path_hits(self) -> dict[str, int]:
        """Requests per path, through this site's own host name."""
        own = f"127.0.0.1:{self.port}"
        return {path: n for (host, path), n in self.hits.items() if host == own}

    def _answer(self, host: str, path: str) -> Page:
        with self._lock:
            self.hits[host, path] += 1
            hit = self.hits[host, path]
        route = self.routes.get(path)
        return route(hit) if route else Page(404, (("Content-Type", "text/plain"),), b"nope")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                page = site._answer(self.headers.get("Host", ""), self.path)
                send_page(self, page.status, page.headers, page.body)

        return Handler


@dataclass(frozen=True)
class Crawl:
    """What one crawl left: the server's counts, stats, log, ``-O`` feed and store rows."""

    site: StackSite
    stats: dict[str, int]
    log: str
    feed: list[dict[str, Any]]
    stored: list[dict[str, Any]]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Crawl]:
    """One crawl of the whole site, shared by the assertions below.

    `scrapy_crawl` asserts exit 0 and no traceback, and sets RETRY_TIMES=1 (each retried
    page is asked twice) and no incremental skip; the store is switched back on here.
    """
    workdir = tmp_path_factory.mktemp("stack")
    sites_dir = workdir / "sites"
    sites_dir.mkdir()
    db_url = f"sqlite:///{workdir}/store.db"
    with StackSite() as site:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=site.url), encoding="utf-8")
        stats, log = scrapy_crawl(
            workdir,
            sites_dir,
            "-O",
            "out.jsonl",
            *("-s", f"DOWNLOAD_TIMEOUT={TIMEOUT_SECONDS}", "-s", "DOWNLOAD_DELAY=0"),
            *("-s", "NEWSCRAWL_DB_ENABLED=True", "-s", f"NEWSCRAWL_DB_URL={db_url}"),
            *("-s", "NEWSCRAWL_BACKOFF_START_DELAY=0.1", "-s", "NEWSCRAWL_BACKOFF_MAX_DELAY=0.2"),
        )
        with open_store(db_url) as store:
            stored = list(store.iter_articles())
        yield Crawl(site, stats, log, read_jsonl(workdir / "out.jsonl"), stored)


def test_every_good_article_is_stored_once_with_its_chinese_intact(crawl: Crawl) -> None:
    canonical = Canonicalizer()
    expected = {canonical(crawl.site.url + path): good for path, good in GOOD.items()}
    stored = Counter(row["canonical_url"] for row in crawl.stored)
    assert stored == Counter(expected.keys())  # each once, nothing else
    for row in crawl.stored:
        good = expected[row["canonical_url"]]
        assert row["title"] == good.title
        assert PARAGRAPH in row["body"] and article_text(good.seed, 300)[:100] in row["body"]
        assert "\ufffd" not in row["body"]
    assert crawl.stats["newscrawl/store/new"] == len(GOOD)

    fed = Counter(str(item["final_url"]) for item in crawl.feed)
    assert fed == Counter(crawl.site.url + path for path in GOOD)
    titles = {str(item["final_url"]): item["title"] for item in crawl.feed}
    assert all(titles[crawl.site.url + path] == good.title for path, good in GOOD.items())


def test_encodings_and_the_redirect_as_read(crawl: Crawl) -> None:
    """GBK is read as GB18030 (its superset) whichever evidence declared it."""
    items = {str(item["final_url"]).removeprefix(crawl.site.url): item for item in crawl.feed}
    assert {path: items[path]["encoding"] for path in GOOD} == {
        path: "gb18030" if good.charset == "gbk" else "utf-8" for path, good in GOOD.items()
    }
    moved = items["/a/moved-target.html"]
    assert moved["url"] == crawl.site.url + "/a/moved.html"
    assert crawl.site.path_hits()["/a/moved-target.html"] == 1
    assert len(items["/a/huge.html"]["body"]) < 2000  # the inline script is not article text
    assert "larger than download warn size" in crawl.log  # 20 MB > WARNSIZE, < MAXSIZE


def test_every_bad_response_is_counted_with_its_reason(crawl: Crawl) -> None:
    stats = crawl.stats
    assert stats["newscrawl/failed/http_404"] == 1
    assert stats["newscrawl/failed/http_500"] == 1
    assert stats["newscrawl/failed/http_503"] == 1
    assert stats["newscrawl/failed/DownloadTimeoutError"] == 1
    failed = {k: v for k, v in stats.items() if k.startswith("newscrawl/failed/")}
    assert sum(failed.values()) == 4, failed
    # RETRY_TIMES=1: the 500, the lasting 503 and the slow page were each asked twice.
    assert stats["retry/max_reached"] == 3
    assert stats["newscrawl/backoff/503"] == 3  # busy-once once, busy twice
    # The PNG served as text/html is skipped by the spider, never extracted nor stored.
    assert stats["newscrawl/skipped/not_html/png"] == 1
    assert not any(k.startswith("newscrawl/dropped/") for k in stats)
    assert stats["newscrawl/extracted"] == len(GOOD) == stats["item_scraped_count"]
    # The offsite redirect is filtered when scheduled: never requested.
    assert stats["offsite/filtered"] == 1
    assert crawl.site.host_hits("localhost") == 0
    # Each page asked once, but the retried ones (RETRY_TIMES=1); 404 and 3xx not retried.
    retried = {"/a/busy-once.html", "/a/busy.html", "/a/error.html", "/a/slow.html"}
    assert crawl.site.path_hits() == {
        path: 2 if path in retried else 1
        for path in ["/robots.txt", "/index.html", *GOOD, *LINKED_BAD]
    }


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "png"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", "jpeg"),
        (b"\x00\x01\x02 no known format \x00", "binary"),
        ("<html><title>标题</title></html>".encode("utf-16"), None),  # BOM, then NULs
        ("<html><title>标题</title>\x0b</html>".encode("gbk"), None),  # a stray control
    ],
)
def test_a_binary_body_served_as_html_is_not_html(body: bytes, why: str | None) -> None:
    response = HtmlResponse("http://127.0.0.1/a/1.html", body=body, headers={"Content-Type": HTML})
    assert _not_html(response) == why
