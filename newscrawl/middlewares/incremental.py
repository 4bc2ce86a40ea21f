"""Skip article pages the store already holds, before they are downloaded.

Only requests the spider marks as article requests (``request.meta[ARTICLE_META]``) are
checked; listing pages, feeds and APIs are always fetched since they are how new articles are
found. A redirect comes back through the downloader middlewares as a new request with the
same meta, so a redirect to a stored URL is skipped too.

Each request is one indexed lookup (article or alias by canonical URL) instead of a set of
known URLs loaded at start: memory stays flat however large the store grows, and articles
stored earlier in the same crawl, or by another worker on a shared PostgreSQL, count as well.
``bench/bench_store.py`` measures the lookup.

A replay (``NEWSCRAWL_REPLAY``) re-runs what was recorded, so it skips nothing: every
archived article page is extracted into the store again. ``-a recrawl=true`` turns the skip
off for a live run; `NEWSCRAWL_RECRAWL_AGE` (seconds, or a
number with s/m/h/d such as ``2d``) fetches again articles younger than that age.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import CloseSpider, NotConfigured

from newscrawl.crawl_contract import (
    ARTICLE_META,
    CLOSE_REASON,
    SeenArticle,
    store_failure,
    store_unavailable,
)
from newscrawl.durations import parse_duration
from newscrawl.store import STATS_PREFIX, Store, StoreError, database_url, open_store
from newscrawl.urls import Canonicalizer

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.spiders import Spider

logger = logging.getLogger(__name__)


def parse_age(value: Any) -> timedelta | None:
    """`NEWSCRAWL_RECRAWL_AGE` as a timedelta (None when unset or zero); a ValueError that
    names the setting when it is not a duration."""
    try:
        return parse_duration(value)
    except ValueError as error:
        raise ValueError(f"NEWSCRAWL_RECRAWL_AGE: {error}") from None


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")


class IncrementalMiddleware:
    """Downloader middleware raising `SeenArticle` for article requests already stored."""

    def __init__(self, crawler: Crawler, db_url: str, recrawl_age: timedelta | None) -> None:
        self._crawler = crawler
        self._db_url = db_url
        self._recrawl_age = recrawl_age
        self._canonicalize = Canonicalizer.from_settings(crawler.settings)
        self._store: Store | None = None
        self._lookup_failed = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not (
            settings.getbool("NEWSCRAWL_DB_ENABLED") and settings.getbool("NEWSCRAWL_INCREMENTAL")
        ):
            raise NotConfigured("the store or the incremental skip is off")
        if settings.getlist("NEWSCRAWL_REPLAY"):
            logger.info("Replay: the incremental skip is off, every recorded article is extracted")
            raise NotConfigured  # no message: Scrapy would log it as a warning
        middleware = cls(
            crawler,
            database_url(settings.get("NEWSCRAWL_DB_URL")),
            parse_age(settings.get("NEWSCRAWL_RECRAWL_AGE")),
        )
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider: Spider) -> None:
        """Open the store for the lookups; if it cannot be opened, close the spider cleanly
        (`CloseSpider`, one error line shared with the store pipeline)."""
        if _truthy(getattr(spider, "recrawl", False)):
            logger.info("recrawl=true: stored articles are fetched again")
            return
        if store_failure(self._crawler):  # the pipeline could not open it and said so
            raise CloseSpider(CLOSE_REASON)
        try:
            self._store = open_store(self._db_url)
        except StoreError as error:
            raise store_unavailable(self._crawler, error) from None

    def spider_closed(self, spider: Spider) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def process_request(self, request: Request) -> None:
        if self._store is None or not request.meta.get(ARTICLE_META):
            return
        url = self._canonicalize(request.url)
        older_than = datetime.now(UTC) - self._recrawl_age if self._recrawl_age else None
        try:
            known = self._store.is_known(url, older_than=older_than)
        except StoreError as exc:  # fetching again is safe; the store pipeline reports the outage
            if not self._lookup_failed:
                logger.warning("Incremental skip off, the store cannot be read: %s", exc)
            self._lookup_failed = True
            return
        if known:
            assert self._crawler.stats is not None
            self._crawler.stats.inc_value(f"{STATS_PREFIX}skipped_seen")
            raise SeenArticle(f"already stored: {url}")
