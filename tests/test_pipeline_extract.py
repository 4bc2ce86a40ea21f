"""The extract pipeline on raw pages built from bytes: UTF-8, GBK, and empty extractions."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.exporters import BaseItemExporter, CsvItemExporter, JsonLinesItemExporter
from site_fixtures import article_response, make_spider, stats

from newscrawl.crawl_contract import SettingError
from newscrawl.extract import extract
from newscrawl.items import ArticleItem, RawPage
from newscrawl.pipelines.extract import Extracted, ExtractPipeline
from newscrawl.pipelines.worker_pool import WorkerDied, WorkerPool

PARAGRAPH = (
    "国家统计局今天发布的数据显示，十月份全国规模以上工业增加值同比增长百分之五点三，"
    "比上月加快零点一个百分点，制造业投资继续保持较快增长，市场预期总体稳定向好。"
)
ARTICLE_HTML = (
    "<html><head><meta charset='{charset}'><title>十月经济数据发布_新闻中心</title></head>"
    "<body><div class='nav'>首页 新闻 财经</div>"
    "<div id='article'><p>{paragraph}</p><p>{paragraph}</p><p>{paragraph}</p></div>"
    "<div class='footer'>版权所有</div></body></html>"
)


def raw_page(body: bytes, content_type: str = "text/html", **fields: Any) -> RawPage:
    values: dict[str, Any] = {
        "url": "http://politics.people.com.cn/n1/2026/1102/c1001-40223222.html",
        "final_url": "https://politics.people.com.cn/n1/2026/1102/c1001-40223222.html",
        "status": 200,
        "headers": {"Content-Type": [content_type]},
        "body": body,
        "fetched": "2026-11-02T01:30:00+00:00",
        "site": "people",
        "referer": "http://www.people.com.cn/rss/politics.xml",
        **fields,
    }
    return RawPage(**values)


def pipeline(**settings: Any) -> ExtractPipeline:
    return ExtractPipeline.from_crawler(make_spider("people", settings=settings).crawler)


def run(pipe: ExtractPipeline, item: Any) -> Any:
    return asyncio.run(pipe.process_item(item))


def test_utf8_page_becomes_an_article_item() -> None:
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    article = run(pipeline(), raw_page(body, "text/html; charset=utf-8"))
    assert isinstance(article, ArticleItem)
    fields = ItemAdapter(article).asdict()
    assert fields["title"] == "十月经济数据发布"
    assert fields["body"].count(PARAGRAPH) == 3
    assert "版权所有" not in fields["body"]
    assert fields["encoding"] == "utf-8"
    assert fields["extractor_method"] == "default"
    assert fields["site"] == "people"
    assert fields["url"].startswith("http://") and fields["final_url"].startswith("https://")
    assert fields["fetched"] == "2026-11-02T01:30:00+00:00"
    assert fields["referer"] == "http://www.people.com.cn/rss/politics.xml"
    assert fields["status"] == 200


@pytest.mark.parametrize(
    ("content_type", "charset"),
    [
        ("text/html; charset=GB2312", None),  # the HTTP header says so
        ("text/html", None),  # only the <meta> says so
        ("text/html; charset=utf-8", "gb18030"),  # a wrong header, fixed by the site config
    ],
)
def test_gbk_page_decodes_right(content_type: str, charset: str | None) -> None:
    body = ARTICLE_HTML.format(charset="gb2312", paragraph=PARAGRAPH).encode("gbk")
    article = run(pipeline(), raw_page(body, content_type, charset=charset))
    assert article.title == "十月经济数据发布"
    assert PARAGRAPH in article.body
    assert article.encoding == "gb18030"


def test_page_metadata_comes_with_the_article() -> None:
    head = (
        "<meta property='article:published_time' content='2026-11-02T09:30:00+08:00'>"
        "<meta property='article:author' content='新华社'>"
        "<meta name='keywords' content='经济,统计'></head>"
    )
    html = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).replace("</head>", head)
    article = run(pipeline(), raw_page(html.encode("utf-8")))
    assert article.published_at == "2026-11-02T09:30:00+08:00"
    assert article.author == "新华社"
    assert article.tags == ["经济", "统计"]


def test_method_setting_chooses_the_extractor_method() -> None:
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    article = run(pipeline(NEWSCRAWL_EXTRACT_METHOD="paper"), raw_page(body))
    assert article.extractor_method == "paper"


def test_the_article_carries_the_extractors_confidence() -> None:
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    page = raw_page(body, "text/html; charset=utf-8")
    article = run(pipeline(), page)
    assert article.confidence == extract(body, page.final_url).confidence
    assert run(pipeline(NEWSCRAWL_EXTRACT_METHOD="paper"), page).confidence is None


@pytest.mark.parametrize("confidence", [0.75, None])
@pytest.mark.parametrize("exporter", [JsonLinesItemExporter, CsvItemExporter])
def test_the_feed_carries_confidence(
    exporter: type[BaseItemExporter], confidence: float | None
) -> None:
    item = ArticleItem(
        url="https://x.cn/1",
        final_url="https://x.cn/1",
        site="x",
        title="标题",
        body="正文。",
        fetched="2026-11-02T01:30:00+00:00",
        encoding="utf-8",
        extractor_method="default",
        status=200,
        referer=None,
        confidence=confidence,
    )
    out = io.BytesIO()
    feed = exporter(out)
    feed.start_exporting()
    feed.export_item(item)
    feed.finish_exporting()
    text = out.getvalue().decode()
    if exporter is JsonLinesItemExporter:
        assert json.loads(text)["confidence"] == confidence
    else:
        [row] = csv.DictReader(io.StringIO(text))
        assert row["confidence"] == ("" if confidence is None else str(confidence))


def test_empty_extraction_is_dropped_and_counted_with_its_reason() -> None:
    pipe = pipeline()
    body = b"<html><head><title>404</title></head><body><p>Not found</p></body></html>"
    with pytest.raises(DropItem, match="no article text"):
        run(pipe, raw_page(body))
    dropped = {key: value for key, value in pipe.stats.get_stats().items() if "dropped" in key}
    assert len(dropped) == 1
    [(key, count)] = dropped.items()
    assert key.startswith("newscrawl/dropped/") and len(key) > len("newscrawl/dropped/")
    assert count == 1


def test_other_items_pass_through() -> None:
    item = {"title": "already extracted"}
    assert run(pipeline(), item) is item


def test_saved_gbk_people_page(shared_dir: Path) -> None:
    body = (shared_dir / "datasets/sites/pages/people/article-2.html").read_bytes()
    article = run(pipeline(), raw_page(body, "text/html; charset=GB2312", charset="gb18030"))
    assert article.title == "江苏多地要求中高风险地区师生员工暂不返校"
    assert "中高风险地区师生员工暂不返校" in article.body


def test_saved_utf8_sina_page_through_spider_and_pipeline(shared_dir: Path) -> None:
    spider = make_spider("sina")
    body = (shared_dir / "datasets/sites/pages/sina/article-1.html").read_bytes()
    url = "https://news.sina.com.cn/c/2024-05-10/doc-inausehc2630922.shtml"
    [page] = list(spider.parse_article(article_response(url, body)))
    article = run(ExtractPipeline.from_crawler(spider.crawler), page)
    assert article.title
    assert len(article.body) > 200
    assert article.encoding == "utf-8"
    assert str(article.published_at).startswith("2024-05-10")
    assert stats(spider) == {"newscrawl/extracted": 1}


def test_extraction_processes_give_the_same_articles_as_the_crawl_thread() -> None:
    bodies = [
        ARTICLE_HTML.format(charset="gb2312", paragraph=PARAGRAPH).encode("gbk"),
        ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH[::-1]).encode("utf-8"),
    ]
    items = [raw_page(body, "text/html") for body in bodies]
    in_thread = [ItemAdapter(run(pipeline(), item)).asdict() for item in items]
    workers = pipeline(NEWSCRAWL_EXTRACT_PROCESSES=2)

    async def through_workers() -> list[Any]:
        try:
            return await asyncio.gather(*(workers.process_item(item) for item in items))
        finally:
            await workers.close_spider()

    assert [ItemAdapter(item).asdict() for item in asyncio.run(through_workers())] == in_thread
    assert workers.stats.get_value("newscrawl/extracted") == 2
    assert workers.stats.get_value("newscrawl/extract_pool_restarts") == 0


def test_a_page_that_kills_its_extraction_process_is_dropped_and_counted() -> None:
    class DyingWorkers:
        async def run(self, *_: object) -> None:
            raise WorkerDied("extract_page killed its worker process")

    pipe = pipeline()
    pipe.workers = cast(WorkerPool, DyingWorkers())
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    with pytest.raises(DropItem, match="killed its worker process"):
        run(pipe, raw_page(body))
    assert pipe.stats.get_value("newscrawl/dropped/extraction process died") == 1


def test_a_negative_process_count_fails_at_start() -> None:
    with pytest.raises(SettingError, match="NEWSCRAWL_EXTRACT_PROCESSES must be 0 or more"):
        pipeline(NEWSCRAWL_EXTRACT_PROCESSES=-1)


class StubConfidence:
    """Workers that extract the page for real but report the confidence given."""

    def __init__(self, confidence: float | None) -> None:
        self.confidence = confidence

    async def run(self, fn: Callable[..., Extracted], *args: Any) -> Extracted:
        extracted = fn(*args)
        return extracted._replace(fields={**extracted.fields, "confidence": self.confidence})


def with_confidence(confidence: float | None, **settings: Any) -> ExtractPipeline:
    pipe = pipeline(**settings)
    pipe.workers = cast(WorkerPool, StubConfidence(confidence))
    return pipe


@pytest.mark.parametrize(
    ("confidence", "minimum"),
    [(0.49, 0.5), (0.99, "1"), (0.0, "0.01")],
)
def test_an_article_under_the_minimum_confidence_is_dropped_and_counted(
    confidence: float, minimum: float | str
) -> None:
    pipe = with_confidence(confidence, NEWSCRAWL_MIN_CONFIDENCE=minimum)
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    with pytest.raises(DropItem, match="under NEWSCRAWL_MIN_CONFIDENCE"):
        run(pipe, raw_page(body))
    assert newscrawl_stats(pipe) == {"newscrawl/dropped/low confidence": 1}


@pytest.mark.parametrize(
    ("confidence", "minimum"),
    [(0.5, 0.5), (1.0, 1), (0.0, 0), (None, 0.9), (None, 1), (0.1, None), (0.1, "")],
)
def test_an_article_at_or_over_the_minimum_or_without_a_confidence_is_kept(
    confidence: float | None, minimum: float | str | None
) -> None:
    pipe = with_confidence(confidence, NEWSCRAWL_MIN_CONFIDENCE=minimum)
    body = ARTICLE_HTML.format(charset="utf-8", paragraph=PARAGRAPH).encode("utf-8")
    article = run(pipe, raw_page(body))
    assert article.confidence == confidence
    assert newscrawl_stats(pipe) == {"newscrawl/extracted": 1}


def test_the_minimum_confidence_is_off_by_default() -> None:
    assert pipeline().min_confidence is None
    assert pipeline(NEWSCRAWL_MIN_CONFIDENCE="0.8").min_confidence == 0.8


@pytest.mark.parametrize("value", [-0.1, 1.5, "2", "high", "nan", "inf", True, [0.5]])
def test_a_minimum_confidence_off_the_scale_fails_at_start(value: object) -> None:
    with pytest.raises(SettingError) as failure:
        pipeline(NEWSCRAWL_MIN_CONFIDENCE=value)
    assert str(failure.value) == (
        f"NEWSCRAWL_MIN_CONFIDENCE must be a number from 0 to 1, not {value!r}"
    )


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "NEWSCRAWL_MIN_CONFIDENCE=high",
            "NEWSCRAWL_MIN_CONFIDENCE='high': must be a number from 0 to 1, not 'high'",
        ),
        ("NEWSCRAWL_EXTRACT_PROCESSES=-1", "NEWSCRAWL_EXTRACT_PROCESSES='-1': must be 0 or more"),
    ],
)
def test_scrapy_crawl_stops_on_a_bad_setting_with_one_line(
    tmp_path: Path, setting: str, message: str
) -> None:
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newscrawl.settings"}
    command = [sys.executable, "-m", "scrapy", "crawl", "people", "-s", setting]
    for quiet in ("NEWSCRAWL_DB_ENABLED=False", "NEWSCRAWL_DEFAULT_FEED=", "LOG_LEVEL=ERROR"):
        command += ["-s", quiet]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2  # a usage error, checked before the crawl starts
    assert done.stderr.splitlines()[-1].endswith(f": error: {message}")
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


def newscrawl_stats(pipe: ExtractPipeline) -> dict[str, Any]:
    return {k: v for k, v in pipe.stats.get_stats().items() if k.startswith("newscrawl/")}


def test_the_site_time_zone_reads_the_dates_a_page_writes_without_an_offset() -> None:
    """A byline "2026-11-02 09:30" is 09:30 in the site's zone (the config's `timezone`),
    Asia/Shanghai where the page names none."""
    paragraph = "国家统计局今天发布了十月的经济数据。" * 12
    body = (
        "<html><head><title>十月经济数据发布</title></head><body><h1>十月经济数据发布</h1>"
        f"<p>发布时间：2026-11-01 09:30</p><p>{paragraph}</p></body></html>"
    ).encode()
    pipe = pipeline()
    berlin = ItemAdapter(run(pipe, raw_page(body, timezone="Europe/Berlin")))["published_at"]
    default = ItemAdapter(run(pipe, raw_page(body)))["published_at"]
    assert (berlin, default) == ("2026-11-01T09:30:00+01:00", "2026-11-01T09:30:00+08:00")
