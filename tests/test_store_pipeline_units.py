"""The pieces of the store pipeline and the incremental skip that need no crawl."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.exceptions import CloseSpider
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from twisted.internet.defer import Deferred, maybeDeferred
from twisted.python.failure import Failure

from newscrawl.article import extract_fields
from newscrawl.crawl_contract import CLOSE_REASON, store_failure
from newscrawl.extract import Options
from newscrawl.fingerprint import content_hash, simhash
from newscrawl.items import ArticleItem, RawPage
from newscrawl.middlewares.incremental import IncrementalMiddleware, parse_age
from newscrawl.pipelines.store import StorePipeline
from newscrawl.store import (
    ArticleRecord,
    DayCount,
    KeysRebuilt,
    SiteSummary,
    Store,
    WriteOutcome,
)
from newscrawl.store.records import record_from_item
from newscrawl.urls import Canonicalizer


def article_item(**fields: object) -> Any:
    values: dict[str, object] = {
        "url": "http://m.x.cn/a/1.html?spm=1",
        "final_url": "https://www.x.cn/a/1.html",
        "site": "x",
        "title": "标题",
        "body": "正文。",
        "fetched": "2024-05-10T08:00:00+00:00",
        "encoding": "utf-8",
        "extractor_method": "default",
        "extractor_version": "1.0",
        "status": 200,
        "referer": None,
    }
    values.update(fields)
    return ArticleItem(**values)


def item(**fields: object) -> ItemAdapter:
    """An article item as the store pipeline reads it."""
    return ItemAdapter(article_item(**fields))


def test_record_keys_on_the_final_url_and_keeps_the_requested_one_as_alias() -> None:
    record = record_from_item(item(), Canonicalizer(), default_site="spider")
    assert record is not None
    assert record.canonical_url == "https://www.x.cn/a/1.html"
    assert record["final_url"] == "https://www.x.cn/a/1.html"
    assert record.aliases == ("https://m.x.cn/a/1.html",)
    assert record.fetched_at == datetime(2024, 5, 10, 8, tzinfo=UTC)
    assert (record["extractor_method"], record["extractor_version"]) == ("default", "1.0")
    assert record.content_hash is not None


BODY = "新华社北京电 " + "记者从有关部门获悉，今年以来各地推进城市更新行动。" * 8


def test_extraction_fingerprints_the_body_where_it_runs() -> None:
    page = f"<html><head><title>标题</title></head><body><h1>标题</h1><p>{BODY}</p></body></html>"
    extracted = extract_fields(
        page.encode(), "https://x.cn/a.html", "utf-8", "2024-05-10T08:00:00+00:00", Options()
    )
    body = extracted.fields["body"]
    assert extracted.fields["content_hash"] == content_hash(body) is not None
    assert extracted.fields["simhash"] == simhash(body) is not None


def test_record_keeps_the_extractions_fingerprints_while_they_match_the_body() -> None:
    fingerprints = {"content_hash": content_hash(BODY), "simhash": 12345}
    kept = record_from_item(item(body=BODY, **fingerprints), Canonicalizer(), default_site="s")
    assert kept is not None and kept.simhash == 12345  # not computed again
    # A pipeline changed the body after extraction: both are computed again.
    edited = BODY + "（完）"
    redone = record_from_item(item(body=edited, **fingerprints), Canonicalizer(), default_site="s")
    assert redone is not None
    assert (redone.content_hash, redone.simhash) == (content_hash(edited), simhash(edited))


@pytest.mark.parametrize("confidence", [0.625, None])
def test_record_carries_the_confidence(confidence: float | None) -> None:
    record = record_from_item(item(confidence=confidence), Canonicalizer(), default_site="s")
    assert record is not None and record["confidence"] == confidence


def test_twin_host_folds_the_alias_away() -> None:
    canonicalize = Canonicalizer.with_extra(host_twins={"m.x.cn": "www.x.cn"})
    record = record_from_item(item(), canonicalize, default_site="s")
    assert record is not None and record.aliases == ()


def test_optional_fields_are_tolerated() -> None:
    record = record_from_item(
        {"url": "https://x.cn/1", "body": ""},
        Canonicalizer(),
        default_site="spider",
    )
    assert record is not None
    assert (record["site"], record["title"], record["published_at"]) == ("spider", "", None)
    assert record["confidence"] is None
    assert record.fetched_at.tzinfo is not None


def test_published_time_must_carry_its_zone() -> None:
    aware = record_from_item(
        item(published_at="2024-05-10T00:26:00+08:00"),
        Canonicalizer(),
        default_site="s",
    )
    naive = record_from_item(
        item(published_at="2024-05-10T00:26:00"),
        Canonicalizer(),
        default_site="s",
    )
    assert aware is not None and aware["published_at"] == datetime(2024, 5, 9, 16, 26, tzinfo=UTC)
    assert naive is not None and naive["published_at"] is None


def test_raw_pages_are_not_articles() -> None:
    page = RawPage(
        url="https://x.cn/1",
        final_url="https://x.cn/1",
        status=200,
        headers={},
        body=b"<p>",
        fetched="2024-05-10T08:00:00+00:00",
        site="x",
        referer=None,
    )
    assert record_from_item(ItemAdapter(page), Canonicalizer(), default_site="s") is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, None),
        ("", None),
        (None, None),
        (3600, timedelta(hours=1)),
        ("90", timedelta(seconds=90)),
        ("2d", timedelta(days=2)),
        ("12h", timedelta(hours=12)),
        ("1.5h", timedelta(minutes=90)),
        ("30m", timedelta(minutes=30)),
    ],
)
def test_recrawl_age(value: object, expected: timedelta | None) -> None:
    assert parse_age(value) == expected


def test_recrawl_age_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="NEWSCRAWL_RECRAWL_AGE"):
        parse_age("two days")


class _HeldStore(Store):
    """A store whose `write` calls are handed back to the test to finish when it chooses."""

    def __init__(self) -> None:
        self.writes: list[tuple[Deferred[dict[str, WriteOutcome]], list[ArticleRecord]]] = []

    def write(self, records: Sequence[ArticleRecord]) -> dict[str, WriteOutcome]:
        raise AssertionError("called through the patched deferToThread only")

    def is_known(self, canonical_url: str, *, older_than: datetime | None = None) -> bool:
        return False

    def count_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
    ) -> int:
        return 0

    def iter_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
        chunk: int = 1000,
    ) -> Iterator[dict[str, Any]]:
        return iter(())

    def daily_counts(self) -> list[DayCount]:
        return []

    def site_summaries(self) -> list[SiteSummary]:
        return []

    def rebuild_keys(self) -> KeysRebuilt:
        raise AssertionError("not part of the pipeline")

    def close(self) -> None:
        pass


def test_close_waits_for_a_timer_flush_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch the timer is still writing when the spider closes must be counted before
    `close_spider` returns: Scrapy dumps the stats right after. (A distributed crawl once
    logged 1,999 ``new`` for 2,000 stored articles.)"""
    store = _HeldStore()

    def held_write(fn: Any, batch: list[ArticleRecord]) -> Deferred[dict[str, WriteOutcome]]:
        written: Deferred[dict[str, WriteOutcome]] = Deferred()
        store.writes.append((written, batch))
        return written

    module = "newscrawl.pipelines.store"
    monkeypatch.setattr(f"{module}.threads.deferToThread", held_write)
    monkeypatch.setattr(f"{module}.maybe_deferred_to_future", lambda d: d)
    monkeypatch.setattr(f"{module}.deferred_from_coro", Deferred.fromCoroutine)
    crawler = get_crawler(settings_dict={})
    pipeline = StorePipeline(
        crawler,
        db_url="sqlite://",
        batch_size=10,
        batch_seconds=60,
        spool_dir=Path("unused"),
        near_duplicate_bits=3,
    )
    pipeline._store = store
    Deferred.fromCoroutine(pipeline.process_item(article_item()))
    pipeline._batch_started -= 120  # the batch is due
    timer_flush = pipeline._flush_if_due()  # what the LoopingCall does; nobody awaits it
    assert timer_flush is not None and len(store.writes) == 1
    closed = Deferred.fromCoroutine(pipeline.close_spider())
    assert not closed.called  # still writing
    written, batch = store.writes[0]
    written.callback({batch[0].canonical_url: WriteOutcome.NEW})
    assert closed.called and crawler.stats is not None
    assert crawler.stats.get_value("newscrawl/store/new") == 1


DOWN_URL = "postgresql://postgres:secret@127.0.0.1:5999/test"


def store_crawler(db_url: str) -> Any:
    """A crawler with the store and the incremental skip on, and stats to read."""
    settings = {
        "NEWSCRAWL_DB_ENABLED": True,
        "NEWSCRAWL_INCREMENTAL": True,
        "NEWSCRAWL_DB_URL": db_url,
        "NEWSCRAWL_DB_BATCH_SIZE": 10,
        "NEWSCRAWL_DB_BATCH_SECONDS": 0,
        "NEWSCRAWL_DB_SPOOL_DIR": "unused",
        "NEWSCRAWL_NEAR_DUPLICATE_BITS": 3,
    }
    crawler = get_crawler(Spider, settings)
    crawler.stats = MemoryStatsCollector(crawler)
    return crawler


def test_a_store_that_cannot_be_opened_closes_the_spider_with_one_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The pipeline opens first and reports; the incremental middleware then only closes."""
    module = "newscrawl.pipelines.store"
    monkeypatch.setattr(f"{module}.threads.deferToThread", maybeDeferred)
    monkeypatch.setattr(f"{module}.maybe_deferred_to_future", lambda d: d)
    crawler = store_crawler(DOWN_URL)
    pipeline = StorePipeline.from_crawler(crawler)
    opened = Deferred.fromCoroutine(pipeline.open_spider())
    failures: list[Failure] = []
    opened.addErrback(failures.append)
    [failure] = failures
    assert isinstance(failure.value, CloseSpider)
    assert failure.value.reason == CLOSE_REASON

    middleware = IncrementalMiddleware.from_crawler(crawler)
    with pytest.raises(CloseSpider):
        middleware.spider_opened(Spider("s"))
    [record] = [r for r in caplog.records if r.levelname == "ERROR"]
    message = record.getMessage()
    assert message.startswith(
        "The crawl stops: cannot open the store at postgresql://postgres:***@"
    )
    assert "secret" not in message and "\n" not in message
    assert store_failure(crawler) == message.removeprefix("The crawl stops: ")


def test_the_middleware_reports_the_store_itself_when_it_opens_first(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = store_crawler("sqlite:////proc/newscrawl.db")  # a file nobody can create
    middleware = IncrementalMiddleware.from_crawler(crawler)
    with pytest.raises(CloseSpider):
        middleware.spider_opened(Spider("s", recrawl="false"))
    [record] = [r for r in caplog.records if r.levelname == "ERROR"]
    assert "cannot open the store at sqlite:////proc/newscrawl.db: " in record.getMessage()
    assert store_failure(crawler) is not None
