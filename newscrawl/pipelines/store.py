"""Write article items to the store in batches, one transaction per batch.

A batch is committed when it holds `NEWSCRAWL_DB_BATCH_SIZE` articles or is
`NEWSCRAWL_DB_BATCH_SECONDS` old, whichever comes first, and when the spider closes. Writes
run in a worker thread, one batch at a time, so the crawl keeps downloading meanwhile.

If the database fails, the crawl stops (close reason ``store_unavailable``) with one
warning line (the driver's traceback at DEBUG: a lost database is an expected failure, not
a bug), and the failed batch plus every article still arriving is spooled to a JSONL file:
nothing is dropped silently. When the spider closes, the store error (`store_failure`)
becomes one line of what happened and what was kept, the count of articles spooled and how
to load them, which the crawl's verdict ends the log with. If the store cannot even be
opened, the spider closes before its first request with the same reason and one error
line, no traceback; `store_failure` tells ``scrapy crawl`` either way, for its exit status.
"""

from __future__ import annotations

import logging
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet import task, threads
from twisted.internet.defer import Deferred, DeferredLock, succeed
from twisted.python.failure import Failure

from newscrawl.crawl_contract import CLOSE_REASON, ERROR_STAT, store_unavailable
from newscrawl.store import (
    STATS_PREFIX,
    ArticleRecord,
    Store,
    StoreError,
    WriteOutcome,
    database_url,
    each_record_outcome,
    open_store,
)
from newscrawl.store.records import record_from_item
from newscrawl.store.spool import Spool
from newscrawl.urls import Canonicalizer

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class StorePipeline:
    """Batch article items into the store; see the module docstring for failure handling."""

    def __init__(
        self,
        crawler: Crawler,
        *,
        db_url: str,
        batch_size: int,
        batch_seconds: float,
        spool_dir: Path,
        near_duplicate_bits: int,
    ) -> None:
        self._crawler = crawler
        self._db_url = db_url
        self._batch_size = max(1, batch_size)
        self._batch_seconds = batch_seconds
        self._spool_dir = spool_dir
        self._near_bits = near_duplicate_bits
        self._canonicalize = Canonicalizer.from_settings(crawler.settings)
        self._store: Store | None = None
        self._batch: list[ArticleRecord] = []
        self._batch_started = monotonic()
        self._lock = DeferredLock()
        self._timer: task.LoopingCall | None = None
        self._spool: Spool | None = None
        """Set once the store has failed: from then on every batch goes here."""
        self._error = ""
        """Why the store failed (one line), once it has."""
        self._unspooled = 0
        """Articles the spool could not take either (a full disk): lost, and said so."""
        self._spool_error = ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_DB_ENABLED"):
            raise NotConfigured("NEWSCRAWL_DB_ENABLED is off")
        return cls(
            crawler,
            db_url=database_url(settings.get("NEWSCRAWL_DB_URL")),
            batch_size=settings.getint("NEWSCRAWL_DB_BATCH_SIZE"),
            batch_seconds=settings.getfloat("NEWSCRAWL_DB_BATCH_SECONDS"),
            spool_dir=Path(settings.get("NEWSCRAWL_DB_SPOOL_DIR")),
            near_duplicate_bits=settings.getint("NEWSCRAWL_NEAR_DUPLICATE_BITS"),
        )

    @property
    def _spider_name(self) -> str:
        spider = self._crawler.spider
        return spider.name if spider is not None else "crawl"

    async def open_spider(self) -> None:
        try:
            self._store = await maybe_deferred_to_future(
                threads.deferToThread(open_store, self._db_url, near_duplicate_bits=self._near_bits)
            )
        except StoreError as error:
            raise store_unavailable(self._crawler, error) from None
        if self._batch_seconds > 0:
            self._timer = task.LoopingCall(self._flush_if_due)
            self._timer.start(self._batch_seconds, now=False)

    async def process_item(self, item: Any) -> Any:
        record = record_from_item(
            ItemAdapter(item), self._canonicalize, default_site=self._spider_name
        )
        if record is None:
            return item
        if not self._batch:
            self._batch_started = monotonic()
        self._batch.append(record)
        if len(self._batch) >= self._batch_size or self._due():
            await self._flush()
        return item

    async def close_spider(self) -> None:
        if self._timer is not None and self._timer.running:
            self._timer.stop()
        await self._flush()
        if self._store is not None:
            self._store.close()
        if self._spool is not None:
            assert self._crawler.stats is not None
            self._crawler.stats.set_value(ERROR_STAT, self._what_was_kept(self._spool))

    def _due(self) -> bool:
        return self._batch_seconds > 0 and monotonic() - self._batch_started >= self._batch_seconds

    def _flush_if_due(self) -> Deferred[None] | None:
        return deferred_from_coro(self._flush()) if self._batch and self._due() else None

    async def _flush(self) -> None:
        """Write the pending batch, and wait for the batches queued before it too.

        Even with nothing pending this waits for the lock: a timer flush nobody awaits may be
        writing, and `close_spider` must not return before its outcomes are counted, or they
        would miss the stats Scrapy dumps right after the pipelines close.
        """
        batch, self._batch = self._batch, []
        await maybe_deferred_to_future(self._lock.run(self._write, batch))

    def _write(self, batch: list[ArticleRecord]) -> Deferred[None]:
        """Write one batch (called under the lock, so batches commit in order)."""
        if not batch:
            return succeed(None)
        if self._spool is not None or self._store is None:
            self._to_spool(batch)
            return succeed(None)
        written = threads.deferToThread(self._store.write, batch)
        return written.addCallbacks(
            self._count, self._fail, callbackArgs=(batch,), errbackArgs=(batch,)
        )

    def _count(self, outcomes: dict[str, WriteOutcome], batch: list[ArticleRecord]) -> None:
        stats = self._crawler.stats
        assert stats is not None
        for outcome in each_record_outcome(batch, outcomes):
            stats.inc_value(f"{STATS_PREFIX}{outcome}")

    def _fail(self, failure: Failure, batch: list[ArticleRecord]) -> None:
        """Spool the batch, say once that the store failed, and stop the crawl.

        What was kept is counted when the spider closes, once every article still in flight
        has arrived (`close_spider`)."""
        self._spool = Spool(self._spool_dir, self._spider_name)
        self._error = failure.getErrorMessage()
        if isinstance(failure.value, StoreError):
            logger.debug("The article store failed", exc_info=failure.value)
            logger.warning(
                "The article store failed; stopping the crawl, spooling what is left to %s. %s",
                self._spool.path,
                self._error,
            )
        else:  # not the database: a bug, whose traceback is wanted
            logger.error("The article store broke; stopping the crawl", exc_info=failure.value)
        self._to_spool(batch)
        assert self._crawler.stats is not None
        self._crawler.stats.set_value(f"{STATS_PREFIX}spool", str(self._spool.path))
        self._crawler.stats.set_value(ERROR_STAT, self._error)
        if self._crawler.engine is not None:
            closing = deferred_from_coro(
                self._crawler.engine.close_spider_async(reason=CLOSE_REASON)
            )
            closing.addErrback(lambda f: logger.error("Closing the spider failed: %s", f.value))

    def _to_spool(self, batch: list[ArticleRecord]) -> None:
        if self._spool is None:  # the store was never opened
            self._spool = Spool(self._spool_dir, self._spider_name)
        stats = self._crawler.stats
        assert stats is not None
        try:
            written = self._spool.append(batch)
        except OSError as error:
            logger.debug("Spooling to %s failed", self._spool.path, exc_info=True)
            self._unspooled += len(batch)
            self._spool_error = error.strerror or str(error)
            stats.inc_value(f"{STATS_PREFIX}dropped/unspooled", len(batch))
            return
        stats.inc_value(f"{STATS_PREFIX}dropped/spooled", written)

    def _what_was_kept(self, spool: Spool) -> str:
        """The store's failure in one line: why, how many articles the spool holds and how
        to load them, and how many were lost when the spool could not be written."""
        kept = []
        if spool.count:
            kept.append(
                f"{spool.count} articles spooled to {spool.path}; "
                f"`newscrawl import-spool {spool.path}` loads them"
            )
        if self._unspooled:
            kept.append(
                f"{self._unspooled} articles lost, the spool could not be written "
                f"({self._spool_error})"
            )
        return f"the article store failed ({self._error or 'never opened'}): " + "; ".join(kept)
