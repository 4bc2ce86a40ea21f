"""BackoffMiddleware: a 429/503 slows the host's download slot before the retry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Request
from scrapy.core.downloader import Slot
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.test import get_crawler

from newscrawl.middlewares.backoff import BackoffMiddleware, retry_after

SETTINGS = {
    "NEWSCRAWL_BACKOFF_HTTP_CODES": [429, 503],
    "NEWSCRAWL_BACKOFF_START_DELAY": 10.0,
    "NEWSCRAWL_BACKOFF_MAX_DELAY": 300.0,
}
URL = "https://feed.mix.sina.com.cn/api/roll/get?page=1"


class Downloader:
    """The two members of Scrapy's downloader the middleware uses: one slot per host."""

    def __init__(self, delay: float) -> None:
        self.slots = {"feed.mix.sina.com.cn": Slot(concurrency=1, delay=delay, jitter=0)}

    def get_slot_key(self, request: Request) -> str:
        return "feed.mix.sina.com.cn"


def middleware(delay: float = 1.0, **settings: Any) -> tuple[BackoffMiddleware, Slot]:
    crawler = get_crawler(settings_dict={**SETTINGS, **settings})
    downloader = Downloader(delay)
    crawler.engine = SimpleNamespace(downloader=downloader)  # type: ignore[assignment]
    assert crawler.stats is not None
    crawler.stats.open_spider()
    return BackoffMiddleware.from_crawler(crawler), downloader.slots["feed.mix.sina.com.cn"]


def answer(status: int, **headers: str) -> Response:
    return Response(URL, status=status, headers=headers)


def test_overload_doubles_the_slot_delay_from_the_start_delay_up_to_the_cap() -> None:
    mw, slot = middleware()
    delays = []
    for _ in range(7):
        mw.process_response(Request(URL), answer(429))
        delays.append(slot.delay)
    assert delays == [10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0]
    assert mw.crawler.stats.get_value("newscrawl/backoff/429") == 7  # type: ignore[union-attr]


def test_retry_after_seconds_are_honoured() -> None:
    mw, slot = middleware()
    mw.process_response(Request(URL), answer(503, **{"Retry-After": "120"}))
    assert slot.delay == 120.0


def test_a_delay_is_never_lowered_by_a_short_retry_after() -> None:
    mw, slot = middleware(delay=30.0)
    mw.process_response(Request(URL), answer(503, **{"Retry-After": "5"}))
    assert slot.delay == 30.0


def test_other_statuses_leave_the_slot_alone() -> None:
    mw, slot = middleware()
    response = answer(200)
    assert mw.process_response(Request(URL), response) is response
    mw.process_response(Request(URL), answer(404))
    assert slot.delay == 1.0


def test_retry_after_as_an_http_date() -> None:
    when = datetime.now(UTC) + timedelta(seconds=90)
    seconds = retry_after(answer(429, **{"Retry-After": format_datetime(when, usegmt=True)}))
    assert seconds is not None and 80 <= seconds <= 90
    assert retry_after(answer(429, **{"Retry-After": "soon"})) is None
    assert retry_after(answer(429)) is None


def test_no_codes_switches_the_middleware_off() -> None:
    with pytest.raises(NotConfigured):
        middleware(NEWSCRAWL_BACKOFF_HTTP_CODES=[])
