"""The spool file keeps every field of a record, and reads what earlier releases wrote."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from store_support import article_text, record

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
