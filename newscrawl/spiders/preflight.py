"""What ``scrapy crawl`` checks before it starts, so a user's mistake is one line, not a
traceback from inside a started crawl (or a crawl that runs and does the wrong thing).

`check_crawl` runs every check; each raises a `CrawlUsageError`, a Scrapy `UsageError`
that Scrapy's command line prints as ``scrapy crawl: error: <message>`` with exit status 2.
After the crawl, `store_failure` tells whether the store stopped it (Scrapy exits 0 for a
spider closed by `CloseSpider`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from newscrawl.crawl_contract import store_failure
from newscrawl.settings_check import check_settings
from newscrawl.spiders.errors import CrawlUsageError, UnknownSpiderError
from newscrawl.spiders.loader import check_sites_dir
from newscrawl.spiders.site import check_spider_arguments
from newscrawl.store import StoreError, check_store_url, database_url

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings
    from scrapy.spiderloader import SpiderLoaderProtocol

__all__ = ["CrawlUsageError", "check_crawl", "check_crawl_store", "store_failure"]


def check_crawl(
    spider_loader: SpiderLoaderProtocol,
    settings: BaseSettings,
    spider_name: str,
    arguments: Mapping[str, Any],
) -> None:
    """Everything that can be checked before crawling `spider_name` with `arguments` (the
    ``-a`` values): ``NEWSCRAWL_SITES_DIR``, the spider (a site with an invalid config, an
    unknown name), the arguments, the ``NEWSCRAWL_*`` settings, and last the store
    (``NEWSCRAWL_DB_URL``, unless the store is off), which creates it. Raises
    `CrawlUsageError` (one line) at the first problem."""
    check_sites_dir(settings)
    try:
        spider_cls = spider_loader.load(spider_name)
    except CrawlUsageError:
        raise
    except KeyError:  # a spider loader other than ours
        raise UnknownSpiderError(f"no spider named {spider_name!r}") from None
    check_spider_arguments(spider_cls, arguments)
    check_settings(settings)
    check_crawl_store(settings)


def check_crawl_store(settings: BaseSettings) -> None:
    """Open and close the store the crawl would write to (creating it, as the crawl would);
    raises `CrawlUsageError` (the store's one-line error) if it cannot be opened."""
    if not settings.getbool("NEWSCRAWL_DB_ENABLED"):
        return
    try:
        check_store_url(database_url(settings.get("NEWSCRAWL_DB_URL")))
    except StoreError as error:
        raise CrawlUsageError(str(error)) from None
