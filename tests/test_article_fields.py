"""The article's fields are declared once, and every one the extractor fills reaches the store.

A page that gives every piece of metadata goes through the crawl's extract pipeline and the
store pipeline's record into each backend; each field declared in `newscrawl.article` must
come out of the database with the value the item had. A field added to the declaration is
covered here without editing this test. (Each export format: tests/test_export_formats.py.)
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from conftest import PROJECT_ROOT
from itemadapter import ItemAdapter
from sqlalchemy import select
from store_support import db_url_fixture  # noqa: F401 (fixture)
from test_pipeline_extract import PARAGRAPH, pipeline, raw_page, run

from newscrawl.article import (
    EXTRACTED_FIELDS,
    FIELDS,
    ITEM_FIELDS,
    STORED_FIELDS,
    extract_fields,
)
from newscrawl.extract import Options
from newscrawl.items import ArticleItem
from newscrawl.store import open_store
from newscrawl.store.records import record_from_item
from newscrawl.store.schema import articles
from newscrawl.urls import Canonicalizer

RICH_PAGE = f"""<html lang="zh-CN"><head><meta charset="utf-8">
<title>十月经济数据发布_新闻中心</title>
<link rel="canonical" href="https://politics.people.com.cn/n1/2026/1102/c1001-1.html">
<meta name="description" content="国家统计局发布十月经济数据。">
<meta name="keywords" content="经济,统计">
<meta property="og:image" content="https://img.people.com.cn/lead.jpg">
<meta property="article:published_time" content="2026-11-02T09:30:00+08:00">
</head><body><div class="nav">首页 新闻 财经</div>
<div id="article"><h1>十月经济数据发布</h1>
<div class="info">来源：新华社 作者：张三</div>
<p>{PARAGRAPH}</p><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p>
<div class="editor">（责任编辑：李四）</div></div>
<div class="footer">版权所有</div></body></html>"""


def test_the_item_and_the_table_are_derived_from_the_declaration() -> None:
    assert [f.name for f in dataclasses.fields(ArticleItem)] == sorted(
        (f.name for f in ITEM_FIELDS), key=lambda name: not _required(name)
    )
    columns = [c.name for c in articles.c]
    assert columns[1 : 1 + len(STORED_FIELDS)] == [f.name for f in STORED_FIELDS]
    assert len({f.name for f in FIELDS}) == len(FIELDS)
    assert all(f.read is not None for f in EXTRACTED_FIELDS)
    assert all(f.stored for f in EXTRACTED_FIELDS), "the store must keep all the extractor gives"


def _required(name: str) -> bool:
    return next(f.required for f in FIELDS if f.name == name)


def test_the_rich_page_fills_every_extracted_field() -> None:
    extracted = extract_fields(
        RICH_PAGE.encode(), "https://x.cn/a", None, "2026-11-02T01:30:00+00:00", Options()
    )
    assert extracted.reason is None
    empty = [f.name for f in EXTRACTED_FIELDS if extracted.fields[f.name] in (None, [], "")]
    assert empty == []


def test_every_item_field_reaches_the_database(db_url: str) -> None:
    item = run(pipeline(), raw_page(RICH_PAGE.encode(), "text/html; charset=utf-8"))
    values = ItemAdapter(item).asdict()
    assert [f.name for f in EXTRACTED_FIELDS if values[f.name] in (None, [], "")] == []
    record = record_from_item(ItemAdapter(item), Canonicalizer(), default_site="people")
    assert record is not None
    with open_store(db_url) as store:
        store.write([record])
        with store.engine.connect() as conn:
            row = conn.execute(select(articles)).mappings().one()
    for article_field in ITEM_FIELDS:
        if article_field.stored:
            assert _comparable(row[article_field.name]) == _comparable(
                values[article_field.name]
            ), article_field.name
    assert row["canonical_url"] == values["final_url"]  # where `url` and `fetched` go
    assert row["first_seen"] == datetime.fromisoformat(values["fetched"])


def _comparable(value: Any) -> Any:
    """Item values as the store gives them back: times as aware datetimes, lists as lists."""
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return value
        return parsed if parsed.tzinfo is not None else value
    if isinstance(value, tuple):
        return list(value)
    return value


def fields_table() -> str:
    """The table of docs/article-fields.md, rendered from the declaration."""
    filled_by = {
        "fetch": "crawl",
        "extractor": "extractor",
        "fingerprint": "fingerprint",
        "store": "store",
    }
    rows = [
        "| field | kind | filled by | item / JSONL feed | store column | export | meaning |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for f in FIELDS:
        marks = (f.origin != "store", f.stored, f.stored and f.exported)
        cells = [f"`{f.name}`", str(f.kind), filled_by[f.origin]]
        cells += ["yes" if mark else "" for mark in marks] + [f.meaning]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def test_the_fields_document_lists_the_declaration() -> None:
    document = (PROJECT_ROOT / "docs" / "article-fields.md").read_text(encoding="utf-8")
    assert fields_table() in document, "docs/article-fields.md is stale; its table:\n" + (
        fields_table()
    )


NUL_PAGE = (
    RICH_PAGE.replace('<meta charset="utf-8">', f'<meta charset="utf-8"><!--{" " * 1024}-->')
    .replace("十月经济", "十月\x00经济")
    .replace("国家统计局发布", "国家\x00统计局发布")
    .replace("经济,统计", "经\x00济,统计")
    .replace("c1001-1.html", "c1001-\x001.html")
    .replace(
        "</head>",
        '<script type="application/ld+json">{"@type": "NewsArticle", '
        '"author": {"name": "王\\ud800五"}}</script></head>',
    )
    .replace(f"<p>{PARAGRAPH}</p>", f"<p>{PARAGRAPH[:9]}\x00{PARAGRAPH[9:]}</p>", 1)
)
"""The rich page with NUL bytes in its title, description, keywords, canonical link and a
paragraph (past the first kilobyte, where a NUL marks a binary file), and a lone surrogate's
escape in its JSON-LD author."""


def test_nul_bytes_and_lone_surrogates_reach_neither_the_item_nor_the_database(db_url: str) -> None:
    item = run(pipeline(), raw_page(NUL_PAGE.encode(), "text/html; charset=utf-8"))
    values = ItemAdapter(item).asdict()
    assert [name for name, value in values.items() if not _storable(str(value))] == []
    assert values["title"] == "十月经济数据发布"
    assert PARAGRAPH in values["body"]
    assert values["author"] == "张三"  # the byline's: the JSON-LD's reads "王\ufffd五"
    record = record_from_item(ItemAdapter(item), Canonicalizer(), default_site="people")
    assert record is not None
    with open_store(db_url) as store:
        store.write([record])  # PostgreSQL refuses a NUL in any text value
        with store.engine.connect() as conn:
            row = conn.execute(select(articles)).mappings().one()
    assert row["description"] == "国家统计局发布十月经济数据。"


def _storable(text: str) -> bool:
    """Whether a text column takes `text`: no NUL, and a UTF-8 form (a lone surrogate has
    none)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return "\x00" not in text
