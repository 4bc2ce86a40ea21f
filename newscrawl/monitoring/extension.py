"""`RunSummaryExtension`: the lines, the stats entry and the JSON file a crawl ends with.

The summary is taken at spider close after Spidermon's suites (it is ordered after
Spidermon in ``EXTENSIONS``), so the verdict of `newscrawl.monitoring.monitors` is in the
file too. It is logged when the engine has stopped, after Scrapy's stats dump and its
"Spider closed" line: the run summary, then for a failed crawl ``crawl failed: <reasons>``,
so a failed crawl's last line is why it failed.

The share of articles with a publish time and an author is counted here, on each scraped
item, for those two fields only: Spidermon's field coverage (``SPIDERMON_ADD_FIELD_COVERAGE``)
counts every field of every item through the stats collector, a stats update per field
of every article (its cost is in CHANGELOG.md), and is off by default.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Self

from itemadapter import ItemAdapter
from scrapy import Spider, signals
from scrapy.crawler import Crawler

from newscrawl.monitoring.summary import (
    ARTICLES_WITH_PREFIX,
    COVERED_FIELDS,
    RunSummary,
    summarize,
    summary_line,
)

logger = logging.getLogger(__name__)

SUMMARY_STAT = "newscrawl/summary"
"""Stats key of the run summary (`RunSummary.to_dict`)."""


class RunSummaryExtension:
    """Log the run summary, keep it in the stats, write it to ``NEWSCRAWL_SUMMARY_FILE``."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.path = crawler.settings.get("NEWSCRAWL_SUMMARY_FILE") or ""
        self.summary: RunSummary | None = None
        """Taken when the spider closes, logged when the engine has stopped."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        extension = cls(crawler)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def item_scraped(self, item: Any) -> None:
        """Count the `COVERED_FIELDS` the article has a value in."""
        stats = self.crawler.stats
        assert stats is not None
        article = ItemAdapter(item)
        for name in COVERED_FIELDS:
            if article.get(name):
                stats.inc_value(f"{ARTICLES_WITH_PREFIX}{name}")

    def spider_closed(self, spider: Spider) -> None:
        stats = self.crawler.stats
        assert stats is not None
        self.summary = summary = summarize(stats.get_stats())
        record = summary.to_dict()
        stats.set_value(SUMMARY_STAT, record)
        if self.path:
            path = Path(self.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")

    def engine_stopped(self) -> None:
        if self.summary is None:  # the spider never opened: what stopped it said so
            return
        logger.info(summary_line(self.summary))
        if self.summary.failed_run:
            logger.error("crawl failed: %s", "; ".join(self.summary.failed_run))
