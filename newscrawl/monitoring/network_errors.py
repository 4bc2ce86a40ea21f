"""`NetworkErrorsInOneLine`: a request that failed on the network is one log line.

Scrapy's robots.txt middleware logs a failed robots.txt download with its traceback: on a
dead site or with no network, every host of the crawl adds a screen of Twisted frames to
the log for an error its first line already names ("DNS lookup failed", "Connection was
refused"). A logging filter drops the traceback of such records; every other error keeps
its traceback, which is there for a bug.
"""

from __future__ import annotations

import logging
from typing import Self

from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
)
from twisted.internet.error import ConnectError
from twisted.internet.error import TimeoutError as TwistedTimeoutError

NETWORK_ERRORS = (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    ConnectError,
    TwistedTimeoutError,
    TimeoutError,
    ConnectionError,
)
"""The failures of a host or the network, not of the code."""
QUIETED_LOGGERS = ("scrapy.downloadermiddlewares.robotstxt",)


class _DropNetworkTracebacks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], NETWORK_ERRORS):
            record.exc_info = None
            record.exc_text = None
        return True


class NetworkErrorsInOneLine:
    """Installs the filter on `QUIETED_LOGGERS` for the crawl's process (an extension, so
    a project that wants the tracebacks turns it off in ``EXTENSIONS``)."""

    FILTER = _DropNetworkTracebacks()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        for name in QUIETED_LOGGERS:
            logger = logging.getLogger(name)
            if cls.FILTER not in logger.filters:
                logger.addFilter(cls.FILTER)
        return cls()
