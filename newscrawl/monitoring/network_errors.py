"""A request that failed for good is one log line: `failed_request_line`, and the
`NetworkErrorsInOneLine` extension that keeps the lines before it out of the way.

Left alone, Scrapy logs one failed URL many times: every retry, the give-up (at ERROR,
unless ``RETRY_GIVE_UP_LOG_LEVEL`` says otherwise: this project sets DEBUG), and, for the
first request to a host, the robots.txt download's own retries and give-up and the robots
middleware's ERROR with a screen of Twisted frames. The spider's errback writes the one
line that counts, ``<url>: <what failed> (after N retries)``; the robots middleware's
network errors go to DEBUG without their traceback, since the request it was fetching
robots.txt for is then downloaded and reports the host's failure itself. Every other error
keeps its level and its traceback, which is there for a bug.
"""

from __future__ import annotations

import logging
from typing import Self

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
)
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectError
from twisted.internet.error import TimeoutError as TwistedTimeoutError

from newscrawl.middlewares.unreachable import NOT_RETRIED

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


def failed_request_line(error: BaseException | None, request: Request | None) -> tuple[int, str]:
    """The level and the one line for `request` having failed for good with `error`.

    A host that answered with an error status, or a request refused before download
    (robots.txt, offsite), is INFO: the run summary counts them. A network failure, or any
    other exception, is ERROR.
    """
    url = request.url if request is not None else "?"
    if isinstance(error, HttpError):
        level, what = logging.INFO, f"HTTP {error.response.status}"
    else:
        level = logging.INFO if isinstance(error, IgnoreRequest) else logging.ERROR
        lines = str(error).strip().splitlines()
        what = lines[0].rstrip(".") if lines else type(error).__name__
    return level, f"{url}: {what}{_retried(request)}"


def _retried(request: Request | None) -> str:
    if request is None:
        return ""
    if request.meta.get(NOT_RETRIED):
        return " (not retried: its host was unreachable)"
    retries = int(request.meta.get("retry_times", 0))
    return f" (after {retries} {'retry' if retries == 1 else 'retries'})" if retries else ""


class _NetworkErrorsToDebug(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], NETWORK_ERRORS):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class NetworkErrorsInOneLine:
    """Installs the filter on `QUIETED_LOGGERS` for the crawl's process (an extension, so
    a project that wants those lines back turns it off in ``EXTENSIONS``)."""

    FILTER = _NetworkErrorsToDebug()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        for name in QUIETED_LOGGERS:
            logger = logging.getLogger(name)
            if cls.FILTER not in logger.filters:
                logger.addFilter(cls.FILTER)
        return cls()
