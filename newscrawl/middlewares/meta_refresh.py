"""Scrapy's meta-refresh redirects, without decoding every page to look for one.

Scrapy's `MetaRefreshMiddleware` reads the first 4,096 characters of every HTML page's
``response.text``: the whole body decoded (w3lib's way), which the extract pipeline then
decodes again its own way, from the bytes. A refresh is written ``http-equiv="refresh"``
in those characters, so a page whose first bytes hold no "refresh" in any case, no
character reference (``&#82;efresh``, which some w3lib versions decode first) and no NUL
byte (UTF-16 and UTF-32, whose ASCII letters are not single bytes) has none: it is passed
on undecoded. Every other page goes to Scrapy's middleware, which decides as before.
(Measured: BENCHMARKS.md, "Crawl speed".) Pages in an encoding that writes ASCII letters
as other bytes without a NUL (EBCDIC) are not read for a refresh; our extraction does not
read them either (`newscrawl.extract.decode`).
"""

from __future__ import annotations

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.http import HtmlResponse, Request, Response

UNREADABLE_REFRESH_STAT = "newscrawl/meta_refresh/unreadable"
"""Pages whose meta refresh names no URL a request can have: the refresh is ignored, the
page kept."""
REFRESH_WINDOW_BYTES = 4 * 4096
"""The bytes that can hold Scrapy's 4,096 characters: a character of an ASCII-compatible
encoding takes at most four."""


def may_refresh(body: bytes) -> bool:
    """Whether the start of `body` may hold a meta refresh (see the module docstring)."""
    head = body[:REFRESH_WINDOW_BYTES]
    return b"\0" in head or b"&#" in head or b"refresh" in head.lower()


class QuickMetaRefreshMiddleware(MetaRefreshMiddleware):
    """`MetaRefreshMiddleware` for the pages that `may_refresh`; the others pass as they
    are. The add-on puts it in the built-in's place (``DOWNLOADER_MIDDLEWARES_BASE``, 580);
    ``METAREFRESH_ENABLED`` and ``METAREFRESH_*`` settings apply to it as to Scrapy's."""

    def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        """The redirect Scrapy's middleware makes, or `response`. A refresh to no URL a
        request can have (an unclosed IPv6 bracket, a port out of range, ``javascript:``)
        made Scrapy's raise, and the page was lost as a failed download; a browser ignores
        such a refresh and shows the page, and so does this (counted)."""
        if isinstance(response, HtmlResponse) and not may_refresh(response.body):
            return response
        try:
            return super().process_response(request, response)
        except ValueError:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(UNREADABLE_REFRESH_STAT)
            return response
