"""Turn each fetched `RawPage` into an `ArticleItem` with `newscrawl.extract`.

The page is decoded by the extractor's rules (the site's charset override, else the HTTP
charset, then BOM/meta/sniffing); `extract` returns the body and the metadata (publication
time, author, source …) in one call.

A page whose extraction comes out empty is dropped (`DropItem`) and counted under
``newscrawl/dropped/<reason>`` with the extractor's own reason, so a crawl's stats say why
pages were lost instead of the crawl crashing or writing empty articles.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from newscrawl.extract import Options, extract
from newscrawl.items import ArticleItem, RawPage

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector


class ExtractPipeline:
    """Extract title and body from raw pages; other items pass through untouched."""

    def __init__(self, stats: StatsCollector, options: Options) -> None:
        self.stats = stats
        self.options = options

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        method = crawler.settings.get("NEWSCRAWL_EXTRACT_METHOD")
        assert crawler.stats is not None
        return cls(crawler.stats, Options(method=method) if method else Options())

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, RawPage):
            return item
        page = ItemAdapter(item)
        content_type = _first(page["headers"], "Content-Type")
        article = extract(
            page["body"],
            page["final_url"],
            options=self.options,
            http_charset=page["charset"] or content_type,
            fetched_at=datetime.fromisoformat(page["fetched"]),
        )
        if not article.body:
            reason = article.reason or "empty body"
            self.stats.inc_value(f"newscrawl/dropped/{reason}")
            raise DropItem(f"no article text in {page['final_url']}: {reason}")
        self.stats.inc_value("newscrawl/extracted")
        meta = article.metadata
        return ArticleItem(
            url=page["url"],
            final_url=page["final_url"],
            site=page["site"],
            title=article.title,
            body=article.body,
            fetched=page["fetched"],
            encoding=article.encoding,
            method=article.method,
            status=page["status"],
            referer=page["referer"],
            published=meta.published.isoformat() if meta.published else None,
            author=meta.author,
            source=meta.source,
            editor=meta.editor,
            language=meta.lang,
            canonical_url=meta.canonical_url,
            description=meta.description,
            tags=list(meta.tags),
            top_image=meta.top_image,
        )


def _first(headers: dict[str, list[str]], name: str) -> str | None:
    """The first value of header `name`, matched case-insensitively."""
    for key, values in headers.items():
        if key.lower() == name.lower() and values:
            return values[0]
    return None
