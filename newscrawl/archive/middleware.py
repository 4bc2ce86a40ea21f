"""Downloader middlewares that record a crawl to WARC and replay a crawl from WARC.

Both sit on the downloader side of Scrapy's built-in middlewares (their orders are set in
`newscrawl.addon`), so the recorder sees each response as the
server sent it (before HttpCompressionMiddleware decompresses it and before
RedirectMiddleware follows a 3xx) and each request with every header the other
middlewares added; replay hands back those same bytes, and the built-in middlewares then
decompress and redirect exactly as they did live.

Each response record also says what the crawl knew of the page, in WARC fields of our own
(WARC 1.1 reserves ``WARC-`` names for the standard and tells readers to ignore fields they
do not know, so other tools read these archives unchanged):

- ``Newscrawl-Site``: the spider's name, which for a site spider is its site config's name;
- ``Newscrawl-Page-Kind``: why the page was requested (`PageKind`): ``article`` for the
  requests the spider marks as article pages (``ARTICLE_META``; a redirect keeps the mark),
  else by the callback the spider gave the request: ``listing`` (`SiteSpider.parse`),
  ``feed``, ``sitemap``, ``api``; anything else (robots.txt, a ``-a start_urls`` page whose
  kind is sniffed from its body, other spiders' callbacks) is ``other``;
- ``Newscrawl-Found-On``: the listing, feed, sitemap or API URL an article link was found on
  (the item's ``referer``), when the spider recorded one.

``newscrawl reextract`` reads them to re-extract article pages only, as their site did.
"""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from pathlib import Path

import scrapy
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Headers, Response
from scrapy.responsetypes import responsetypes
from scrapy.statscollectors import StatsCollector
from warcio.exceptions import ArchiveLoadFailed

from newscrawl.archive.index import ArchiveIndex
from newscrawl.archive.model import ArchivedRequest, ArchivedResponse, HeaderPairs
from newscrawl.archive.page_kind import PageKind
from newscrawl.archive.parts import split_warc_name
from newscrawl.archive.reader import readable_archive_files
from newscrawl.archive.writer import RotatingArchiveWriter
from newscrawl.crawl_contract import ARTICLE_META, FOUND_ON, SettingError

CALLBACK_KINDS = {
    "parse": PageKind.LISTING,
    "parse_feed": PageKind.FEED,
    "parse_sitemap": PageKind.SITEMAP,
    "parse_api": PageKind.API,
}
"""`SiteSpider` callbacks by name -> the kind of page they read."""

logger = logging.getLogger(__name__)


class ArchiveRecorderMiddleware:
    """Writes every downloaded response, and the request behind it, to NEWSCRAWL_ARCHIVE's
    parts (`newscrawl.archive.parts`): a new one per crawl and per NEWSCRAWL_ARCHIVE_MAX_BYTES.

    The body is kept as received: still compressed when the server sent Content-Encoding.
    Only chunked transfer coding is gone (Twisted removes it), so Transfer-Encoding is
    dropped from the recorded headers to keep them true to the stored body.
    """

    def __init__(self, writer: RotatingArchiveWriter, stats: StatsCollector, site: str) -> None:
        self._writer = writer
        self._stats = stats
        self._site = site

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArchiveRecorderMiddleware:
        path = crawler.settings.get("NEWSCRAWL_ARCHIVE")
        if not path:
            raise NotConfigured  # no message: Scrapy would log a warning on every crawl
        if split_warc_name(Path(path).name) is None:
            raise SettingError(
                f"NEWSCRAWL_ARCHIVE must name a *.warc or *.warc.gz file, not {path!r}"
            )
        max_bytes = _max_bytes(crawler.settings.get("NEWSCRAWL_ARCHIVE_MAX_BYTES"))
        assert crawler.stats is not None
        info = {
            "software": f"newscrawl (Scrapy {scrapy.__version__})",
            "format": "WARC File Format 1.0",
            "isPartOf": crawler.spidercls.name,
        }
        writer = RotatingArchiveWriter(Path(path), info, max_bytes)
        middleware = cls(writer, crawler.stats, crawler.spidercls.name)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def process_response(self, request: Request, response: Response) -> Response:
        archived = _archived_response(request, response, self._site)
        self._writer.write(_archived_request(request), archived)
        self._stats.inc_value("newscrawl/archive/records")
        return response

    def spider_closed(self) -> None:
        self._writer.close()


class ReplayMiddleware:
    """Answers every request from NEWSCRAWL_REPLAY: WARC files or directories of them, or
    a crawl's NEWSCRAWL_ARCHIVE name for all its parts (`archive_files`).

    No request reaches the network: a URL the archive lacks gets a 404, counted as
    ``newscrawl/replay/missing`` (a missing robots.txt thus means "allowed", as live).
    Requests are matched by canonical URL only, whatever their method.
    """

    def __init__(self, index: ArchiveIndex, stats: StatsCollector) -> None:
        self._index = index
        self._stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ReplayMiddleware:
        sources = crawler.settings.getlist("NEWSCRAWL_REPLAY")
        if not sources:
            raise NotConfigured
        try:  # checked before the crawl starts (settings_check); here for Scrapy's API
            files = readable_archive_files(sources)
        except ValueError as error:  # switching off would turn the replay into a live crawl
            raise SettingError(f"NEWSCRAWL_REPLAY: {error}") from None
        assert crawler.stats is not None
        # Scrapy's 0 (no limit) as "any size"; a larger record would be refused live too.
        limit = crawler.settings.getint("DOWNLOAD_MAXSIZE") or sys.maxsize
        try:
            index = ArchiveIndex(files, limit=limit)
        except ArchiveLoadFailed as error:
            raise SettingError(f"NEWSCRAWL_REPLAY: {error}") from None
        logger.info("Replaying %d URLs from %d WARC file(s)", len(index), len(files))
        if index.skipped:
            logger.info("Replay archive: skipped records: %s", index.skipped.summary())
            for kind, count in index.skipped.items():
                crawler.stats.set_value(f"newscrawl/replay/skipped_records/{kind}", count)
        middleware = cls(index, crawler.stats)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def process_request(self, request: Request) -> Response:
        recorded = self._index.get(request.url)
        if recorded is None:
            self._stats.inc_value("newscrawl/replay/missing")
            logger.debug("Not in the replay archive: %s", request.url)
            return Response(request.url, status=404, request=request, flags=["replay-missing"])
        self._stats.inc_value("newscrawl/replay/served")
        headers = Headers()
        for name, value in recorded.headers:
            headers.appendlist(name, value)
        response_class = responsetypes.from_args(
            headers=headers, url=request.url, body=recorded.body
        )
        return response_class(
            url=request.url,
            status=recorded.status,
            headers=headers,
            body=recorded.body,
            request=request,
            protocol=recorded.protocol,
            flags=["replay"],
        )

    def spider_closed(self) -> None:
        missing = self._stats.get_value("newscrawl/replay/missing", 0)
        if missing:
            logger.warning("%d request(s) were not in the replay archive (answered 404)", missing)
        self._index.close()


def _max_bytes(value: object) -> int:
    """``NEWSCRAWL_ARCHIVE_MAX_BYTES``: a whole number of bytes, 0 or more (a float or a
    sign would be a guess at what was meant)."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdecimal():
        raise SettingError(
            f"NEWSCRAWL_ARCHIVE_MAX_BYTES must be a whole number of bytes (0: no limit), "
            f"not {value!r}"
        )
    return int(text)


def _header_pairs(headers: Headers, *, drop: frozenset[bytes] = frozenset()) -> HeaderPairs:
    """Scrapy's bytes headers as text pairs (latin-1 round-trips any byte), repeats kept."""
    return tuple(
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, values in headers.items()
        if name.lower() not in drop
        for value in values
    )


def _archived_request(request: Request) -> ArchivedRequest:
    return ArchivedRequest(
        method=request.method,
        url=request.url,
        headers=_header_pairs(request.headers),
        body=request.body,
    )


def page_kind(request: Request) -> PageKind:
    """Why `request` was made (see the module docstring)."""
    if request.meta.get(ARTICLE_META):
        return PageKind.ARTICLE
    return CALLBACK_KINDS.get(getattr(request.callback, "__name__", ""), PageKind.OTHER)


def _archived_response(request: Request, response: Response, site: str) -> ArchivedResponse:
    # An HTTP/2 response ("h2") is stored with an HTTP/1.1 status line, the form WARC
    # readers parse.
    protocol = response.protocol or ""
    return ArchivedResponse(
        url=request.url,
        status=response.status,
        headers=_header_pairs(response.headers, drop=frozenset({b"transfer-encoding"})),
        body=response.body,
        fetched=datetime.now(UTC),
        protocol=protocol if protocol.startswith("HTTP/") else "HTTP/1.1",
        site=site,
        page_kind=page_kind(request),
        found_on=request.meta.get(FOUND_ON),
    )
