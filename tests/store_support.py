"""Shared helpers of the store tests: a database URL per backend, records, a local site.

The `db_url` fixture (import `db_url_fixture`) is parametrised over SQLite (a temp file)
and PostgreSQL (a schema of its own on 127.0.0.1:5432, dropped afterwards); PostgreSQL
skips where absent and fails under CI.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from conftest import skip_or_fail
from local_server import LocalServer, QuietHandler
from sqlalchemy import Engine, event

from newscrawl.store import ArticleRecord

PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"


def pg_connect() -> Any:
    """A psycopg connection to the test database, or skip/fail when there is none."""
    try:
        import psycopg
    except ImportError:
        skip_or_fail("psycopg is not installed (pip install -e '.[test]')")
    try:
        return psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        skip_or_fail(f"PostgreSQL not reachable at 127.0.0.1:5432: {exc}")


@contextmanager
def pg_schema() -> Iterator[str]:
    """A store URL on a fresh PostgreSQL schema of its own, dropped afterwards."""
    with pg_connect() as admin:
        schema = f"nc_test_{uuid.uuid4().hex[:10]}"
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield pg_schema_url(schema)
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def pg_schema_url(schema: str, user: str = "postgres") -> str:
    """A store URL confined to `schema` through libpq's search_path option."""
    return f"postgresql://{user}@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"], name="db_url")
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """A fresh, empty store URL for each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/store.db"
        return
    with pg_schema() as url:
        yield url


def article_text(seed: int, chars: int = 600) -> str:
    """A deterministic Chinese-looking body, different for each seed."""
    alphabet = (
        "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可"
        "主发年动同工也能下过子说产种面而方后多定行学法所民得经"
    )
    state = seed * 7919 + 17
    out = []
    for i in range(chars):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append(alphabet[state % len(alphabet)])
        if i % 37 == 36:
            out.append("。")
    return "".join(out)


def record(url: str, body: str, *, at: datetime | None = None, **fields: Any) -> ArticleRecord:
    """An article record with defaults for everything but URL and body."""
    values: dict[str, Any] = {
        "canonical_url": url,
        "final_url": url,
        "site": "example",
        "status": 200,
        "title": f"title of {url}",
        "body": body,
        "fetched_at": at or datetime.now(UTC),
    }
    values.update(fields)
    return ArticleRecord.of(**values)


class Site(LocalServer):
    """A news site on 127.0.0.1 with an ephemeral port, counting hits per path.

    `/list.html` links to `/a/1.html` … `/a/<n>.html` (plus `extra_links`). Once
    `open_articles` article pages were served, the next ones wait for `gate` (whatever order
    the crawler asks in), so a test can hold a crawl mid-way.
    """

    def __init__(self, articles: int, open_articles: int | None = None) -> None:
        self.articles = articles
        self.open_articles = open_articles
        self.gate = threading.Event()
        self.hits: Counter[str] = Counter()
        self.extra_links: list[str] = []
        self.redirects: dict[str, str] = {}
        self._lock = threading.Lock()
        self._served = 0
        super().__init__(self._handler())

    def release_held(self) -> None:
        self.gate.set()

    def article_hits(self) -> int:
        with self._lock:
            return sum(n for path, n in self.hits.items() if path.startswith("/a/"))

    def page(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body for a path."""
        if path in self.redirects:
            return 301, {"Location": self.redirects[path]}, b""
        if path == "/list.html":
            links = [f"/a/{i}.html" for i in range(1, self.articles + 1)] + self.extra_links
            html = "".join(
                f'<li><a href="{link}">今日要闻：新闻标题 {link}</a></li>' for link in links
            )
            return 200, {}, f"<html><body>{html}</body></html>".encode()
        if path.startswith("/a/") and path.endswith(".html"):
            number = int(path[3:-5])
            with self._lock:
                self._served += 1
                held = self.open_articles is not None and self._served > self.open_articles
            if held:
                self.gate.wait(timeout=60)
            body = f"<html><body><h1>第{number}篇</h1><p>{article_text(number)}</p></body></html>"
            return 200, {}, body.encode()
        return 404, {}, b"not found"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                with site._lock:
                    site.hits[path] += 1
                status, headers, body = site.page(path)
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        return Handler


@contextmanager
def statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements (with their parameters) run on `engine` meanwhile."""
    seen: list[tuple[str, Any]] = []

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)
