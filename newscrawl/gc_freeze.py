"""`FreezeStartupObjects`: move what exists when the spider opens out of the collector.

A crawl builds its long-lived objects (modules, settings, middlewares, the replay index)
before the spider opens, then allocates and frees line tuples by the thousand per page.
Every full garbage collection walked all of the former: on the 5,000-page replay bench
they cost 13% of the crawl time. `gc.freeze` (after one collection, so no garbage is kept)
leaves them out of every later collection; objects made afterwards are collected as usual.

The youngest generation is then collected less often (`YOUNG_THRESHOLD`): a page's
extraction holds thousands of line tuples for a moment, and at Python's 700 the collector
walked them while they lived, then again in the older generations they were moved to.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured

YOUNG_THRESHOLD = 10_000
"""Net allocations of tracked objects between two collections of the youngest generation,
Python's 700 before the spider opens. On the 5,000-page replay bench with the store on,
collections after the freeze took 4-5% of the crawl's CPU (3,300 young ones) and 0.8% with
this (20), at the same peak memory (131 MB): a page's objects are freed by their reference
counts before a collection sees them."""

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler


class FreezeStartupObjects:
    """Extension: `gc.freeze` once the spider has opened, and the youngest generation's
    threshold raised to `YOUNG_THRESHOLD` (``NEWSCRAWL_GC_FREEZE``)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("NEWSCRAWL_GC_FREEZE"):
            raise NotConfigured("NEWSCRAWL_GC_FREEZE is off")
        extension = cls()
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        freeze_startup_objects()


def freeze_startup_objects() -> None:
    """Collect once, freeze what is left and raise the youngest generation's threshold to
    `YOUNG_THRESHOLD`: the collector as a crawl runs it once its spider has opened (the
    speed bench times the crawl's pages under it too)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
