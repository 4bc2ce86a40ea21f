"""Meta-refresh redirects (`middlewares.meta_refresh`): the crawl's middleware must redirect
exactly where Scrapy's does, on pages with a refresh written every way w3lib reads one
and on pages without, and must read (decode) only the pages whose first bytes may hold
one."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import pytest
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.http import HtmlResponse, Request, TextResponse
from scrapy.utils.test import get_crawler

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.middlewares.meta_refresh import (
    REFRESH_WINDOW_BYTES,
    UNREADABLE_REFRESH_STAT,
    QuickMetaRefreshMiddleware,
    may_refresh,
)

URL = "http://news.example.cn/a/1.html"
REFRESH = '<meta http-equiv="{}" content="0;url=/b/2.html">'
PAGES = [
    f"<html><head>{REFRESH.format('refresh')}</head><body>x</body></html>".encode(),
    f"<html><head>{REFRESH.format('REFRESH')}</head><body>x</body></html>".encode(),
    f"<html><head>{REFRESH.format('&#82;efresh')}</head><body>x</body></html>".encode(),
    f"<html><head>{REFRESH.format('Refresh')}</head><body>中文</body></html>".encode("utf-16"),
    f"<html><head><title>{'长' * 3000}</title>{REFRESH.format('refresh')}</head></html>".encode(
        "gb18030"
    ),
    f"<html><head><title>{'长' * 5000}</title>{REFRESH.format('refresh')}</head></html>".encode(),
    b"<html><head><title>no refresh</title></head><body>refreshments</body></html>",
    b"<html><head><script>var r='<meta http-equiv=refresh content=0;url=/x>'</script></head>",
    "<html><head><title>新闻</title></head><body>正文</body></html>".encode("gb18030"),
    b"",
]
"""A refresh in each case, as a character reference (which some w3lib versions decode),
in UTF-16, after 3,000 two-byte and 5,000 three-byte characters (past Scrapy's 4,096: no
redirect), in a script's string (Scrapy's verdict, whatever it is), and pages without one."""


def outcome(middleware: MetaRefreshMiddleware, body: bytes) -> str | None:
    """The URL the middleware redirects to, or None when it passes the page on."""
    response = HtmlResponse(URL, body=body, request=Request(URL))
    result = middleware.process_response(Request(URL), response)
    return result.url if isinstance(result, Request) else None


@pytest.fixture(scope="module")
def middlewares() -> tuple[MetaRefreshMiddleware, QuickMetaRefreshMiddleware]:
    crawler = get_crawler()
    return MetaRefreshMiddleware.from_crawler(crawler), QuickMetaRefreshMiddleware.from_crawler(
        crawler
    )


@pytest.mark.parametrize("body", PAGES)
def test_it_redirects_where_scrapys_middleware_does(
    middlewares: tuple[MetaRefreshMiddleware, QuickMetaRefreshMiddleware], body: bytes
) -> None:
    scrapys, ours = middlewares
    assert outcome(ours, body) == outcome(scrapys, body)


def test_the_refreshes_are_found_and_the_late_one_is_not(
    middlewares: tuple[MetaRefreshMiddleware, QuickMetaRefreshMiddleware],
) -> None:
    found = [outcome(middlewares[1], body) for body in PAGES]
    assert [found[at] for at in (0, 1, 3, 4)] == ["http://news.example.cn/b/2.html"] * 4
    assert [found[at] for at in (5, 6, 8, 9)] == [None] * 4


def test_a_page_without_refresh_is_not_decoded(
    middlewares: tuple[MetaRefreshMiddleware, QuickMetaRefreshMiddleware],
) -> None:
    with patch.object(TextResponse, "text", new_callable=lambda: property(_no_decoding)):
        assert outcome(middlewares[1], PAGES[-2]) is None
        with pytest.raises(AssertionError, match="decoded"):
            outcome(middlewares[1], PAGES[0])


def _no_decoding(response: TextResponse) -> str:
    raise AssertionError("decoded")


def test_may_refresh_reads_the_window_only() -> None:
    assert not may_refresh(b"x" * REFRESH_WINDOW_BYTES + b"refresh")
    assert may_refresh(b"x" * (REFRESH_WINDOW_BYTES - 7) + b"ReFrEsH")


def test_it_redirects_where_scrapys_does_on_the_dataset_pages(
    shared_dir: Path, middlewares: tuple[MetaRefreshMiddleware, QuickMetaRefreshMiddleware]
) -> None:
    scrapys, ours = middlewares
    for name in NAMED_DATASETS:
        for page in load_dataset(name, shared_dir=shared_dir).pages:
            body = page.html if isinstance(page.html, bytes) else page.html.encode()
            assert outcome(ours, body) == outcome(scrapys, body), (name, page)


@pytest.mark.parametrize(
    "target", ["http://[news.example.cn/b", "http://x.cn:99999/", "javascript:go()"]
)
def test_a_refresh_to_no_requestable_url_keeps_the_page(target: str) -> None:
    """Scrapy's middleware raises on such a refresh, and the page was lost as a failed
    download; a browser ignores the refresh and shows the page."""
    crawler = get_crawler()
    middleware = QuickMetaRefreshMiddleware.from_crawler(crawler)
    body = f'<html><head><meta http-equiv="refresh" content="0;url={target}"></head></html>'
    response = HtmlResponse(URL, body=body.encode(), request=Request(URL))
    assert middleware.process_response(Request(URL), response) is response
    assert crawler.stats.get_value(UNREADABLE_REFRESH_STAT) == 1
