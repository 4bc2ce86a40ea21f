"""Back off from a host that answers 429 or 503, before RetryMiddleware asks it again.

Scrapy's RetryMiddleware re-queues at once and AutoThrottle ignores these statuses
(scrapy/scrapy#4424, #6458), so a rate-limited crawl keeps hammering the host. This
middleware raises the delay of the host's download slot: to the server's ``Retry-After``
when it sends one, else doubling from ``NEWSCRAWL_BACKOFF_START_DELAY``, capped at
``NEWSCRAWL_BACKOFF_MAX_DELAY``. The retried request and every other request to that host
then wait in the slot. AutoThrottle (on by default) brings the delay back down as the host
answers normally again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class BackoffMiddleware:
    """Slow a host's download slot down when it signals overload."""

    def __init__(self, crawler: Crawler, codes: set[int], start: float, maximum: float) -> None:
        self.crawler = crawler
        self.codes = codes
        self.start = start
        self.maximum = maximum

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        codes = {int(code) for code in settings.getlist("NEWSCRAWL_BACKOFF_HTTP_CODES")}
        if not codes:
            raise NotConfigured("NEWSCRAWL_BACKOFF_HTTP_CODES is empty")
        return cls(
            crawler,
            codes,
            settings.getfloat("NEWSCRAWL_BACKOFF_START_DELAY"),
            settings.getfloat("NEWSCRAWL_BACKOFF_MAX_DELAY"),
        )

    def process_response(self, request: Request, response: Response) -> Response:
        if response.status not in self.codes:
            return response
        assert self.crawler.engine is not None and self.crawler.stats is not None
        downloader = self.crawler.engine.downloader
        slot = downloader.slots.get(downloader.get_slot_key(request))
        if slot is not None:
            asked = retry_after(response)
            delay = asked if asked is not None else max(self.start, slot.delay * 2)
            slot.delay = min(self.maximum, max(slot.delay, delay))
        self.crawler.stats.inc_value(f"newscrawl/backoff/{response.status}")
        return response


def retry_after(response: Response) -> float | None:
    """Seconds the server asked us to wait (``Retry-After``: seconds or an HTTP date)."""
    value = response.headers.get("Retry-After")
    if not value:
        return None
    text = value.decode("latin-1").strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
