"""The pieces of the store pipeline and the incremental skip that need no crawl."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from newscrawl.items import ArticleItem, RawPage
from newscrawl.middlewares.incremental import parse_age
from newscrawl.pipelines.store import record_from_item
from newscrawl.urls import Canonicalizer


def item(**fields: object) -> ArticleItem:
    values: dict[str, object] = {
        "url": "http://m.x.cn/a/1.html?spm=1",
        "final_url": "https://www.x.cn/a/1.html",
        "site": "x",
        "title": "标题",
        "body": "正文。",
        "fetched": "2024-05-10T08:00:00+00:00",
        "encoding": "utf-8",
        "method": "default",
        "status": 200,
        "referer": None,
    }
    values.update(fields)
    return ArticleItem(**values)  # type: ignore[arg-type]


def test_record_keys_on_the_final_url_and_keeps_the_requested_one_as_alias() -> None:
    record = record_from_item(
        item(), Canonicalizer(), default_site="spider", extractor_version="1.0"
    )
    assert record is not None
    assert record.canonical_url == "https://www.x.cn/a/1.html"
    assert record.fetched_url == "https://www.x.cn/a/1.html"
    assert record.aliases == ("https://m.x.cn/a/1.html",)
    assert record.fetched_at == datetime(2024, 5, 10, 8, tzinfo=UTC)
    assert (record.extractor_method, record.extractor_version) == ("default", "1.0")
    assert record.content_hash is not None


def test_twin_host_folds_the_alias_away() -> None:
    canonicalize = Canonicalizer.with_extra(host_twins={"m.x.cn": "www.x.cn"})
    record = record_from_item(item(), canonicalize, default_site="s", extractor_version=None)
    assert record is not None and record.aliases == ()


def test_optional_fields_are_tolerated() -> None:
    record = record_from_item(
        {"url": "https://x.cn/1", "body": ""},
        Canonicalizer(),
        default_site="spider",
        extractor_version=None,
    )
    assert record is not None
    assert (record.site, record.title, record.published_at) == ("spider", "", None)
    assert record.fetched_at.tzinfo is not None


def test_published_time_must_carry_its_zone() -> None:
    aware = record_from_item(
        item(published="2024-05-10T00:26:00+08:00"),
        Canonicalizer(),
        default_site="s",
        extractor_version=None,
    )
    naive = record_from_item(
        item(published="2024-05-10T00:26:00"),
        Canonicalizer(),
        default_site="s",
        extractor_version=None,
    )
    assert aware is not None and aware.published_at == datetime(2024, 5, 9, 16, 26, tzinfo=UTC)
    assert naive is not None and naive.published_at is None


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
    assert record_from_item(page, Canonicalizer(), default_site="s", extractor_version=None) is None


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
