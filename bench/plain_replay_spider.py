"""A plain Scrapy spider over `bench_replay_crawl.py`'s archive: the floor the crawl is
compared with. It follows the same listing and article links as the site spider, answered
by newscrawl's replay middleware, and yields one small item per article page without
extracting anything. Run by ``bench_replay_crawl.py`` with ``scrapy runspider`` outside the
project, so none of newscrawl's settings, pipelines or other middlewares apply."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

import scrapy
from scrapy.http import Response

ARTICLE = re.compile(r"^http://news\.bench\.example\.cn/\d{4}-\d{2}-\d{2}/doc-i[0-9a-f]+\.shtml$")
LISTING = re.compile(r"^http://news\.bench\.example\.cn/roll/\d+\.shtml$")


class PlainReplaySpider(scrapy.Spider):
    name = "plain"
    start_urls: ClassVar[list[str]] = ["http://news.bench.example.cn/roll/1.shtml"]
    custom_settings: ClassVar[dict[str, Any]] = {
        "DOWNLOADER_MIDDLEWARES": {"newscrawl.archive.middleware.ReplayMiddleware": 50},
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
    }

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        if ARTICLE.match(response.url):
            yield {"url": response.url, "bytes": len(response.body)}
            return
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href)
            if ARTICLE.match(url) or LISTING.match(url):
                yield response.follow(url)
