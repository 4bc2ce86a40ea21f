"""What the crawl's Scrapy components agree on: request meta keys, the exceptions one
raises and another catches, and the store's failure report in the crawl's stats.

Spiders, downloader middlewares, item pipelines and the archive middleware each import
from here and from the layers below (store, extract, sites), never from one another, so
that each can be read, tested and replaced on its own.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import CloseSpider, IgnoreRequest

from newscrawl.store import STATS_PREFIX, StoreError

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

ARTICLE_META = "newscrawl_article"
"""Request meta key a spider sets to True on requests for article pages."""
FOUND_ON = "newscrawl_found_on"
"""Request meta key: the URL of the page, feed or API response a link was found on."""


class SeenArticle(IgnoreRequest):
    """The article is already stored; errbacks can tell this apart from a real failure."""


class SettingError(SystemExit):
    """A setting the crawl cannot start with.

    A SystemExit, not a ValueError: ``scrapy crawl`` then stops with this one line and status
    1, where any Exception raised while Scrapy builds its pipelines is logged with a
    traceback through Scrapy's and asyncio's frames.
    """


CLOSE_REASON = "store_unavailable"
"""The crawl's finish reason when the store cannot be opened or fails midway."""
ERROR_STAT = f"{STATS_PREFIX}error"
"""Stats key: the store error that stopped the crawl (one line), absent when none did."""


def store_failure(crawler: Crawler) -> str | None:
    """The store error that stopped `crawler`'s crawl (could not open, or failed midway), or
    None. ``scrapy crawl`` exits non-zero on it: Scrapy itself exits 0 for a crawl closed by
    `CloseSpider`."""
    if crawler.stats is None:
        return None
    error = crawler.stats.get_value(ERROR_STAT)
    return str(error) if error else None


def store_unavailable(crawler: Crawler, error: StoreError) -> CloseSpider:
    """Log, once per crawl, that the store cannot be opened; the `CloseSpider` to raise.

    Both the store pipeline and the incremental middleware open the store: whichever fails
    first reports it, the other only closes. Raised from ``open_spider`` or a
    ``spider_opened`` handler, `CloseSpider` makes Scrapy close the spider cleanly before
    any request (any other exception gives tracebacks and a half-opened spider).
    """
    stats = crawler.stats
    assert stats is not None
    if not stats.get_value(ERROR_STAT):
        stats.set_value(ERROR_STAT, str(error))
        logger.error("The crawl stops: %s", error)
    return CloseSpider(CLOSE_REASON)
