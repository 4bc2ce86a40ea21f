"""`OneLineSpidermon`: Spidermon whose report is one log line per monitor.

Spidermon's own runner logs each suite as a unittest report: banners, a line per step, and
a failed monitor as an ``AssertionError`` block, through ``Spider.log()``, which Scrapy
deprecates (every run also logged that warning). This extension runs the same suites with
a result that logs through its own logger: one line per monitor (INFO when it passed,
WARNING with its reason when it failed, ERROR with the last line of the error when the
monitor itself broke, its traceback at DEBUG), and one line for an action that broke.
"""

from __future__ import annotations

import logging
from typing import Any, Self

from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from spidermon import settings as spidermon_settings
from spidermon.contrib.scrapy.extensions import Spidermon
from spidermon.results.monitor import MonitorResult
from spidermon.runners import MonitorRunner

logger = logging.getLogger(__name__)

MONITOR = spidermon_settings.MONITOR.STATUS
ACTION = spidermon_settings.ACTION.STATUS


def last_line(error: object) -> str:
    """The last line of a formatted traceback: the exception and its message."""
    lines = str(error or "").strip().splitlines()
    return lines[-1] if lines else "no error message"


class OneLineResult(MonitorResult):  # type: ignore[misc]  # Spidermon ships no type hints
    """Logs each monitor's and each broken action's outcome as one line when its step ends."""

    def finish_step(self) -> None:
        super().finish_step()
        for result in self.step.all_items:
            name = result.item.name
            status = result.status
            if status in (MONITOR.FAILURE, MONITOR.SKIPPED) and result.reason:
                level = logging.WARNING if status == MONITOR.FAILURE else logging.INFO
                logger.log(level, "monitor %s: %s: %s", name, status, result.reason)
            elif status == MONITOR.ERROR and result.error:  # a broken monitor or action
                logger.debug("%s %s broke:\n%s", result.name, name, result.error)
                logger.error("%s %s broke: %s", result.name, name, last_line(result.error))
            elif result.name == "monitor":
                logger.info("monitor %s: %s", name, status)
            else:  # an action that ran or was skipped: its own effect is its report
                logger.debug("action %s: %s", name, status)


class OneLineRunner(MonitorRunner):  # type: ignore[misc]
    def create_result(self) -> OneLineResult:
        return OneLineResult()


class OneLineSpidermon(Spidermon):  # type: ignore[misc]
    """Spidermon (its suites, field coverage and settings) with the one-line report.

    Stands aside when a project enables Spidermon's own extension too, so its suites never
    run twice."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        enabled = build_component_list(crawler.settings.getwithbase("EXTENSIONS"))
        if any(load_object(component) is Spidermon for component in enabled):
            raise NotConfigured("Spidermon's own extension is enabled")
        extension: Self = super().from_crawler(crawler)
        return extension

    def _run_suites(self, spider: Spider, suites: list[Any]) -> None:
        data = self._generate_data_for_spider(spider)
        for suite in suites:
            OneLineRunner().run(suite, **data)
