"""Turn each fetched `RawPage` into an `ArticleItem` with `newscrawl.extract`.

The page is decoded by the extractor's rules (the site's charset override, else the HTTP
charset, then BOM/meta/sniffing); `extract` returns the body and the metadata (publication
time, author, source …) in one call.

A page whose extraction comes out empty is dropped (`DropItem`) and counted under
``newscrawl/dropped/<reason>`` with the extractor's own reason, so a crawl's stats say why
pages were lost instead of the crawl crashing or writing empty articles. A body that is a
binary file (a PDF or an image served as ``text/html``, see `newscrawl.extract.formats`) is
dropped too but counted as ``newscrawl/skipped/not_html/<kind>`` (``…/pdf``, ``…/png``), the
keys the spider counts pages it can tell are not HTML by: the page was no article to lose.

With ``NEWSCRAWL_EXTRACT_PROCESSES`` > 0 extraction runs in that many worker processes
(`WorkerPool`): the crawl's own thread then only downloads and schedules, and a fast crawl
uses more than one core. A page that kills its worker is dropped and counted as
``newscrawl/dropped/extraction process died``; the crawl goes on.

With ``NEWSCRAWL_MIN_CONFIDENCE`` set, an article whose extraction confidence is below it is
dropped too, counted as ``newscrawl/dropped/low confidence``; one whose method gives no
confidence (None) is kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem

from newscrawl.article import Extracted, extract_fields, for_crawl
from newscrawl.crawl_contract import SettingError
from newscrawl.extract import Options
from newscrawl.extract.formats import not_html_kind
from newscrawl.items import ArticleItem, RawPage, confidence_threshold
from newscrawl.pipelines.worker_pool import WorkerDied, WorkerPool

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings
    from scrapy.statscollectors import StatsCollector

LOW_CONFIDENCE = "low confidence"
"""The ``newscrawl/dropped/…`` reason of articles under ``NEWSCRAWL_MIN_CONFIDENCE``."""


class ExtractPipeline:
    """Extract title and body from raw pages; other items pass through untouched."""

    def __init__(
        self,
        stats: StatsCollector,
        options: Options,
        workers: WorkerPool | None = None,
        *,
        min_confidence: float | None = None,
    ) -> None:
        self.stats = stats
        self.options = options
        self.workers = workers
        """Where extraction runs; None: in the crawl's own thread."""
        self.min_confidence = min_confidence
        """Drop articles whose confidence is below this; None: keep them all."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        method = settings.get("NEWSCRAWL_EXTRACT_METHOD")
        processes = settings.getint("NEWSCRAWL_EXTRACT_PROCESSES")
        if processes < 0:
            raise SettingError(f"NEWSCRAWL_EXTRACT_PROCESSES must be 0 or more, not {processes}")
        min_confidence = _min_confidence(settings)  # checked before any worker starts
        workers = WorkerPool(processes, preload=[__name__]) if processes else None
        assert crawler.stats is not None
        options = for_crawl(Options(method=method or "default"))
        return cls(crawler.stats, options, workers, min_confidence=min_confidence)

    async def close_spider(self) -> None:
        if self.workers is not None:
            await self.workers.close()
            self.stats.set_value("newscrawl/extract_pool_restarts", self.workers.restarts)

    async def process_item(self, item: Any) -> Any:
        if not isinstance(item, RawPage):
            return item
        page = ItemAdapter(item)
        try:
            extracted = await self._extract(page)
        except WorkerDied as error:
            self.stats.inc_value("newscrawl/dropped/extraction process died")
            raise DropItem(f"extracting {page['final_url']} killed its worker process") from error
        if (kind := not_html_kind(extracted.reason)) is not None:
            self.stats.inc_value(f"newscrawl/skipped/not_html/{kind}")
            raise DropItem(f"not HTML: {page['final_url']} is a binary file ({kind})")
        if extracted.reason is not None:
            self.stats.inc_value(f"newscrawl/dropped/{extracted.reason}")
            raise DropItem(f"no article text in {page['final_url']}: {extracted.reason}")
        confidence = extracted.fields["confidence"]
        if self._too_unsure(confidence):
            self.stats.inc_value(f"newscrawl/dropped/{LOW_CONFIDENCE}")
            raise DropItem(
                f"extraction confidence {confidence} under NEWSCRAWL_MIN_CONFIDENCE "
                f"{self.min_confidence} in {page['final_url']}"
            )
        self.stats.inc_value("newscrawl/extracted")
        return ArticleItem(
            url=page["url"],
            final_url=page["final_url"],
            site=page["site"],
            fetched=page["fetched"],
            status=page["status"],
            referer=page["referer"],
            **extracted.fields,
        )

    def _too_unsure(self, confidence: float | None) -> bool:
        """Below the minimum; never for None, where the method gave no estimate to judge."""
        minimum = self.min_confidence
        return confidence is not None and minimum is not None and confidence < minimum

    async def _extract(self, page: ItemAdapter) -> Extracted:
        arguments = (
            page["body"],
            page["final_url"],
            page["charset"] or _first(page["headers"], "Content-Type"),
            page["fetched"],
            self.options,
            page.get("timezone"),
        )
        if self.workers is None:
            return extract_fields(*arguments)
        return await self.workers.run(extract_fields, *arguments)


def _min_confidence(settings: BaseSettings) -> float | None:
    """``NEWSCRAWL_MIN_CONFIDENCE``: None when unset or empty, else a number from 0 to 1."""
    value = settings.get("NEWSCRAWL_MIN_CONFIDENCE")
    if value is None or value == "":
        return None
    try:
        return confidence_threshold(value)
    except ValueError as error:
        raise SettingError(f"NEWSCRAWL_MIN_CONFIDENCE {error}") from None


def _first(headers: dict[str, list[str]], name: str) -> str | None:
    """The first value of header `name`, matched case-insensitively."""
    for key, values in headers.items():
        if key.lower() == name.lower() and values:
            return values[0]
    return None
