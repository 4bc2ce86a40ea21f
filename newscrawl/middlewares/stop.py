"""Stopping within seconds: after Ctrl-C or SIGTERM, pages still waiting for the item pipelines
once `NEWSCRAWL_STOP_DRAIN_SECONDS` have passed go back to the request queue instead.

Scrapy's graceful stop fetches nothing new but takes every page already fetched through the
spider and the item pipelines before the spider closes. A stage that holds the crawl's thread
(extraction of a large page, a project's own pipeline) does so for each of them; worse, the
stop itself is a callback queued behind the pages the event loop already had ready, so a
backlog of pages ran through the stage before Scrapy even began to stop. A second Ctrl-C
(Scrapy's forced stop) skips the close: the store's last batch, the run summary and the feed
are lost.

Here the signal's time is noted when it arrives (a Python signal handler runs between two
bytecodes of the stage, without waiting for the event loop), and the pages that leave the
spider for the pipelines once the drain time has passed are given back to the scheduler: a
JOBDIR keeps them for the resumed crawl; without one the next crawl fetches them again, as
they were never stored. Nothing new is fetched meanwhile (the engine is paused until
Scrapy's stop reaches it), the spider closes normally and the crawl exits with everything it
stored committed. An item already inside a stage when the time is up finishes there.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

REQUEUED_STAT = "newscrawl/stop/requeued"
"""Fetched pages given back to the request queue because the crawl was told to stop."""
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_Handler = Callable[[int, FrameType | None], Any]


class StopDrainMiddleware(BaseSpiderMiddleware):
    """Outermost spider middleware: it sees the spider's items as they go to the pipelines."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.drain_seconds = crawler.settings.getfloat("NEWSCRAWL_STOP_DRAIN_SECONDS")
        self._stop_at: float | None = None
        crawler.signals.connect(self._note_stop_signals, signal=signals.engine_started)
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        """`item`, or once the drain time of a stopping crawl is over its page's request
        again (not filtered as seen, so a resumed crawl fetches it)."""
        request = response.request if response is not None else None
        if request is None or not self._drain_over():
            return item
        if not self.crawler.stats.get_value(REQUEUED_STAT):
            logger.info(
                "stopping: fetched pages still waiting for the pipelines after %gs go back "
                "to the request queue",
                self.drain_seconds,
            )
            self.crawler.engine.pause()  # Scrapy's own stop may still be queued behind them
        self.crawler.stats.inc_value(REQUEUED_STAT)
        return request.replace(dont_filter=True)

    def _drain_over(self) -> bool:
        """Whether the crawl was told to stop at least the drain time ago: by a signal, or
        else (a stop without one) counted from the first item seen once it stopped."""
        now = time.monotonic()
        if self._stop_at is None:
            if self.crawler.crawling:
                return False
            self._stop_at = now
        return now - self._stop_at >= self.drain_seconds

    def _note_stop_signals(self) -> None:
        """Wrap the handlers `scrapy crawl` installed for SIGINT and SIGTERM so that each
        notes the time first; signals nobody handles in Python are left alone."""
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in STOP_SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler):
                signal.signal(signum, self._noting(handler))

    def _noting(self, handler: _Handler) -> _Handler:
        def note_then_handle(signum: int, frame: FrameType | None) -> Any:
            if self._stop_at is None:
                self._stop_at = time.monotonic()
            return handler(signum, frame)

        return note_then_handle

    def _spider_closed(self) -> None:
        if requeued := self.crawler.stats.get_value(REQUEUED_STAT):
            logger.info(
                "stopped: %d fetched pages were put back in the request queue, not extracted",
                requeued,
            )
