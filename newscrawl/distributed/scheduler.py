"""scrapy-redis's scheduler, made to fail clearly when Redis is unreachable or goes away.

As shipped, an unreachable Redis surfaces as a bare ``ConnectionError`` traceback without
the URL, and a Redis lost mid-crawl raises inside the engine's loop on every request, so the
worker neither crawls nor stops. Here the add-on pings Redis before the crawl starts
(`check_reachable`), and the first error mid-crawl stops the crawl once, with the
(password-free) URL in the message; the article store then flushes as on any close.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError
from scrapy.settings import Settings
from scrapy.utils.defer import deferred_from_coro
from scrapy_redis.connection import get_redis_from_settings
from scrapy_redis.scheduler import Scheduler

from newscrawl.distributed.config import display_url

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

CLOSE_REASON = "redis_unavailable"
STATS_PREFIX = "newscrawl/redis/"


class RedisUnavailableError(RuntimeError):
    """Redis could not be reached when the crawl started."""


def check_reachable(settings: BaseSettings) -> None:
    """Ping the ``NEWSCRAWL_REDIS_URL`` server (with scrapy-redis's connection settings)."""
    redis_settings = Settings(
        {**settings.copy_to_dict(), "REDIS_URL": settings["NEWSCRAWL_REDIS_URL"]}
    )
    try:
        get_redis_from_settings(redis_settings).ping()
    except RedisError as error:
        raise unreachable(redis_settings, error) from error


def unreachable(settings: BaseSettings, error: RedisError) -> RedisUnavailableError:
    """The error naming the (password-free) URL of the Redis that could not be reached."""
    url = display_url(settings.get("REDIS_URL") or "")
    return RedisUnavailableError(f"Redis is not reachable at {url}: {error}")


class RedisScheduler(Scheduler):  # type: ignore[misc]  # scrapy-redis ships no types
    """The shared queue and seen-set; a Redis error stops the crawl instead of looping."""

    crawler: Crawler
    url: str
    lost: bool = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        try:
            scheduler: Self = super().from_crawler(crawler)  # pings Redis
        except RedisError as error:
            raise unreachable(crawler.settings, error) from error
        scheduler.crawler = crawler
        scheduler.url = display_url(crawler.settings.get("REDIS_URL") or "")
        scheduler.stats = None  # counted here: scrapy-redis passes the deprecated spider argument
        return scheduler

    def enqueue_request(self, request: Request) -> bool:
        try:
            enqueued = bool(super().enqueue_request(request))
        except RedisError as error:
            self._stop(error)
            self._count(f"{STATS_PREFIX}requests_dropped")
            return False
        if enqueued:
            self._count("scheduler/enqueued/redis")
        return enqueued

    def next_request(self) -> Request | None:
        try:
            request: Request | None = super().next_request()
        except RedisError as error:
            self._stop(error)
            return None
        if request is not None:
            self._count("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        try:
            return bool(super().has_pending_requests())
        except RedisError as error:
            self._stop(error)
            return False

    def _count(self, key: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key)

    def _stop(self, error: Any) -> None:
        """Report the lost connection and close the spider, the first time only."""
        if self.lost:
            return
        self.lost = True
        logger.error("Lost Redis at %s; stopping the crawl. Error: %s", self.url, error)
        engine = self.crawler.engine
        if engine is not None:
            closing = deferred_from_coro(engine.close_spider_async(reason=CLOSE_REASON))
            closing.addErrback(lambda f: logger.error("Closing the spider failed: %s", f.value))
