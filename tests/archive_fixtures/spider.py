"""A tiny spider for the record/replay tests, run with ``scrapy runspider``.

It follows every link from `start_url` and yields what it saw of each page, so a replay
can be compared with the recorded crawl item by item.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import scrapy
from scrapy.http import Response


class FixtureSpider(scrapy.Spider):
    name = "archive_fixture"

    def __init__(self, start_url: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start_url]

    def parse(self, response: Response) -> Iterator[Any]:
        yield {
            "url": response.url,
            "status": response.status,
            "title": response.css("title::text").get(),
            "text": " ".join(response.css("p::text").getall()),
            "redirected_from": response.request.meta.get("redirect_urls", [None])[0],
        }
        yield from response.follow_all(css="a")
