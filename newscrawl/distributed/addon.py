"""The switch: with ``NEWSCRAWL_REDIS_URL`` set, a crawl runs on scrapy-redis.

Without it the add-on is inert (``NotConfigured``) and the crawl keeps Scrapy's in-memory
scheduler; scrapy-redis and redis (the ``distributed`` extra) are then not even imported.
The settings are applied at add-on priority, so ``-s`` and a project's own settings still win.
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from newscrawl.distributed.config import RedisConfig, key_patterns

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

IDLE_CLOSE = "newscrawl.distributed.idle.IdleClose"
IDLE_CLOSE_PRIORITY = 0


class DistributedAddon:
    """Shared queue and seen-set in Redis, persistent across workers, closed by `IdleClose`."""

    def __init__(self, config: RedisConfig) -> None:
        self.config = config

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        config = RedisConfig.from_settings(crawler.settings)
        if not config.url:
            raise NotConfigured
        if find_spec("scrapy_redis") is None:
            raise RuntimeError(
                "NEWSCRAWL_REDIS_URL is set but scrapy-redis is not installed: "
                "pip install 'newscrawl[distributed]'"
            )
        # Checked here, before the engine exists: a scheduler failing to open leaves Scrapy
        # a half-built engine whose close adds a second, misleading traceback.
        from newscrawl.distributed.scheduler import check_reachable

        check_reachable(crawler.settings)
        return cls(config)

    def update_settings(self, settings: BaseSettings) -> None:
        keys = key_patterns(self.config.key_prefix)
        values: dict[str, Any] = {
            "SCHEDULER": "newscrawl.distributed.scheduler.RedisScheduler",
            "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
            "REDIS_URL": self.config.url,
            # Persist: a worker that closes must not delete the queue others still read;
            # the seen-set is cleared per run by the worker registry instead.
            "SCHEDULER_PERSIST": True,
            "SCHEDULER_QUEUE_KEY": keys["requests"],
            "SCHEDULER_DUPEFILTER_KEY": keys["seen"],
        }
        for name, value in values.items():
            settings.set(name, value, priority="addon")
        extensions = settings.getdict("EXTENSIONS")
        extensions[IDLE_CLOSE] = IDLE_CLOSE_PRIORITY
        settings.set("EXTENSIONS", extensions, priority=settings.getpriority("EXTENSIONS") or 0)
