"""The spool file keeps every field of a record, and reads what earlier releases wrote; a
store that fails mid-crawl spools, and counts, every article that arrives after."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from scrapy.utils.test import get_crawler
from store_support import article_text, record
from test_store_pipeline_units import _HeldStore, article_item
from twisted.internet.defer import Deferred, maybeDeferred

from newscrawl.crawl_contract import CLOSE_REASON, store_failure
from newscrawl.pipelines.store import StorePipeline
from newscrawl.store import ArticleRecord, StoreError, WriteOutcome
from newscrawl.store.spool import Spool, read_spool

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_a_spooled_record_reads_back_equal(tmp_path: Path) -> None:
    spooled = record(
        "https://x.cn/a/1",
        article_text(1),
        at=T0,
        published_at=T0,
        published_precision="minute",
        editor="李四",
        tags=("经济", "统计"),
        confidence=0.5,
        aliases=("https://x.cn/a/1?from=home",),
    )
    spool = Spool(tmp_path, "crawl")
    assert spool.append([spooled]) == 1
    assert list(read_spool(spool.path)) == [spooled]


def test_a_spool_written_before_schema_0003_still_loads(tmp_path: Path) -> None:
    body = article_text(2)
    old_line = {  # what dataclasses.asdict wrote for the record of that release
        "canonical_url": "https://x.cn/a/2",
        "fetched_url": "https://x.cn/a/2?spm=1",
        "site": "x",
        "title": "标题",
        "body": body,
        "fetched_at": T0.isoformat(),
        "content_hash": "stale",
        "simhash": 1,
        "published_at": None,
        "author": "张三",
        "source": None,
        "language": "zh",
        "encoding": "utf-8",
        "extractor_method": "default",
        "extractor_version": "0.1.0",
        "confidence": None,
        "aliases": [],
    }
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(old_line, ensure_ascii=False) + "\n", encoding="utf-8")
    [loaded] = read_spool(path)
    assert loaded["final_url"] == "https://x.cn/a/2?spm=1" and loaded["author"] == "张三"
    assert loaded.content_hash == record("https://x.cn/a/2", body).content_hash


class _DiskFullStore(_HeldStore):
    """A store whose every write fails as SQLite's does on a full disk."""

    def write(self, records: Sequence[ArticleRecord]) -> dict[str, WriteOutcome]:
        raise StoreError(f"writing {len(records)} articles to sqlite:///x.db failed: disk full")


class _Engine:
    """What the pipeline asks of Scrapy's engine when the store fails: to close the spider."""

    def __init__(self) -> None:
        self.closed_for: list[str] = []

    async def close_spider_async(self, *, reason: str) -> None:
        self.closed_for.append(reason)


def failing_pipeline(monkeypatch: pytest.MonkeyPatch, spool_dir: Path) -> StorePipeline:
    """A store pipeline whose store fails every write, run synchronously, batches of 2."""
    module = "newscrawl.pipelines.store"
    monkeypatch.setattr(f"{module}.threads.deferToThread", maybeDeferred)
    monkeypatch.setattr(f"{module}.maybe_deferred_to_future", lambda d: d)
    monkeypatch.setattr(f"{module}.deferred_from_coro", Deferred.fromCoroutine)
    crawler = get_crawler(settings_dict={})
    crawler.engine = _Engine()  # type: ignore[assignment]
    pipeline = StorePipeline(
        crawler,
        db_url="sqlite:///x.db",
        batch_size=2,
        batch_seconds=0,
        spool_dir=spool_dir,
        near_duplicate_bits=3,
    )
    pipeline._store = _DiskFullStore()
    return pipeline


def crawl_into(pipeline: StorePipeline, articles: int) -> None:
    for number in range(articles):
        url = f"https://www.x.cn/a/{number}.html"
        Deferred.fromCoroutine(pipeline.process_item(article_item(url=url, final_url=url)))
    Deferred.fromCoroutine(pipeline.close_spider())


def test_every_article_after_the_failure_is_spooled_and_counted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pipeline = failing_pipeline(monkeypatch, tmp_path / "spool")
    crawl_into(pipeline, 5)  # the failed batch of 2, another batch of 2, 1 at close
    assert pipeline._crawler.engine.closed_for == [CLOSE_REASON]  # type: ignore[attr-defined]
    [spool] = (tmp_path / "spool").glob("*.jsonl")
    assert len(list(read_spool(spool))) == 5
    assert store_failure(pipeline._crawler) == (
        "the article store failed (writing 2 articles to sqlite:///x.db failed: disk full): "
        f"5 articles spooled to {spool}; `newscrawl import-spool {spool}` loads them"
    )


def test_articles_the_spool_cannot_take_either_are_counted_as_lost(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a-file").touch()
    pipeline = failing_pipeline(monkeypatch, tmp_path / "a-file" / "spool")
    crawl_into(pipeline, 3)
    assert store_failure(pipeline._crawler) == (
        "the article store failed (writing 2 articles to sqlite:///x.db failed: disk full): "
        "3 articles lost, the spool could not be written (Not a directory)"
    )
    assert pipeline._crawler.stats.get_value("newscrawl/store/dropped/unspooled") == 3
