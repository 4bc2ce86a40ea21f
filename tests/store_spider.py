"""A tiny spider for the store's crawl tests: a listing page, then article pages.

It yields `ArticleItem`s directly (the store is under test, not the extractor) and marks
article requests with `ARTICLE_META`, as the site spiders do.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import scrapy
from scrapy.http import Response

from newscrawl.crawl_contract import ARTICLE_META
from newscrawl.items import ArticleItem


class StoreTestSpider(scrapy.Spider):
    name = "storetest"

    def __init__(self, start: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_urls = [start]

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse_article, meta={ARTICLE_META: True})

    def parse_article(self, response: Response) -> Iterator[ArticleItem]:
        yield ArticleItem(
            url=(response.meta.get("redirect_urls") or [response.url])[0],
            final_url=response.url,
            site=self.name,
            title=response.css("h1::text").get(""),
            body="\n".join(response.css("p::text").getall()),
            fetched=datetime.now(UTC).isoformat(),
            encoding=response.encoding,
            extractor_method="test",
            status=response.status,
            referer=None,
        )
