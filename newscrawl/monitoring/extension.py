"""`RunSummaryExtension`: the one line, the stats entry and the JSON file a crawl ends with.

Runs at spider close after Spidermon's suites (it is ordered after Spidermon in
``EXTENSIONS``), so the verdict of `newscrawl.monitoring.monitors` is in the file too.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Self

from scrapy import Spider, signals
from scrapy.crawler import Crawler

from newscrawl.monitoring.summary import summarize, summary_line

logger = logging.getLogger(__name__)

SUMMARY_STAT = "newscrawl/summary"
"""Stats key of the run summary (`RunSummary.to_dict`)."""


class RunSummaryExtension:
    """Log the run summary, keep it in the stats, write it to ``NEWSCRAWL_SUMMARY_FILE``."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.path = crawler.settings.get("NEWSCRAWL_SUMMARY_FILE") or ""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, spider: Spider) -> None:
        stats = self.crawler.stats
        assert stats is not None
        summary = summarize(stats.get_stats())
        record = summary.to_dict()
        stats.set_value(SUMMARY_STAT, record)
        logger.info(summary_line(summary))
        if self.path:
            path = Path(self.path)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
