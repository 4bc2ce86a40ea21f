"""Close a worker once the whole distributed run is done, not when its own work runs out.

scrapy-redis's own answers do not fit: ``SCHEDULER_IDLE_BEFORE_CLOSE`` is a blocking
BRPOP that stalls the reactor and is ignored by the default priority queue, and
``MAX_IDLE_TIME_BEFORE_CLOSE`` only exists for ``RedisSpider``. This extension keeps the
worker open (``DontCloseSpider``) while the shared queue is empty but another worker still
has requests in flight, since their responses may bring more requests; it lets the worker
close after ``NEWSCRAWL_REDIS_IDLE_SECONDS`` with the queue empty and nobody busy. A killed
worker stops being "busy" once its heartbeat is ``NEWSCRAWL_REDIS_WORKER_TIMEOUT`` old.

While idle, a worker looks at the shared queue at Scrapy's engine heartbeat (every 5 s).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import TYPE_CHECKING

from redis.exceptions import RedisError
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy_redis.connection import get_redis_from_settings
from twisted.internet.task import LoopingCall

from newscrawl.distributed.config import RedisConfig, RunKeys
from newscrawl.distributed.workers import WorkerRegistry

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

BEATS_PER_TIMEOUT = 3
"""Heartbeats per worker timeout: a live worker misses two before it counts as gone."""


class IdleClose:
    """Heartbeat this worker into the run's registry and hold its close while others work."""

    def __init__(self, crawler: Crawler, config: RedisConfig) -> None:
        self.crawler = crawler
        self.config = config
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.registry: WorkerRegistry | None = None
        self.idle_since: float | None = None
        self.heartbeat = LoopingCall(self.beat)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        config = RedisConfig.from_settings(crawler.settings)
        if not config.url:
            raise NotConfigured
        extension = cls(crawler, config)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        """Join the run before the entry points are scheduled (a new run clears the seen-set)."""
        server = get_redis_from_settings(self.crawler.settings)
        keys = RunKeys.of(self.config.key_prefix, spider.name)
        self.registry = WorkerRegistry(server, keys, self.worker, self.config.worker_timeout)
        new_run = self.registry.join()
        logger.info(
            "Worker %s %s the run at %s (queue %s)",
            self.worker,
            "starts" if new_run else "joins",
            self.config.display_url,
            keys.requests,
        )
        self.heartbeat.start(self.config.worker_timeout / BEATS_PER_TIMEOUT, now=False)

    def beat(self) -> None:
        """Tell the run that this worker is alive and whether it has requests in flight."""
        assert self.registry is not None and self.crawler.engine is not None
        busy = not self.crawler.engine.spider_is_idle()
        if busy:
            self.idle_since = None
        try:
            self.registry.beat(busy=busy)
        except RedisError as error:  # the scheduler reports a lost Redis and stops the crawl
            logger.debug("heartbeat failed: %s", error)

    def spider_idle(self, spider: Spider) -> None:
        """Stay open while another worker is busy or until idle long enough."""
        assert self.registry is not None
        try:
            others_busy = self.registry.beat(busy=False)
        except RedisError:
            raise DontCloseSpider from None  # the scheduler is stopping the crawl
        now = time.monotonic()
        if others_busy:
            logger.info("Queue empty; waiting while %d other worker(s) are busy", others_busy)
            self.idle_since = None
            raise DontCloseSpider
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.config.idle_seconds:
            raise DontCloseSpider
        logger.info("Queue empty and no worker busy for %.0f s; closing", now - self.idle_since)

    def spider_closed(self, spider: Spider) -> None:
        """Leave the run; the last worker out deletes the finished run's seen-set."""
        if self.heartbeat.running:
            self.heartbeat.stop()
        if self.registry is None:
            return
        try:
            if self.registry.leave():
                logger.info("Last worker out: the run's seen-set is deleted")
        except RedisError as error:
            logger.warning("Could not leave the run at %s: %s", self.config.display_url, error)
