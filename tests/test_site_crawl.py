"""`scrapy crawl <site>` end to end on a user site served from 127.0.0.1 (its own process)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from archive_fixtures.server import Page, serve

from newscrawl.monitoring.monitors import FAILED_CRAWL

PARAGRAPH = (
    "国家统计局今天发布的数据显示，十月份全国规模以上工业增加值同比增长百分之五点三，"
    "比上月加快零点一个百分点，制造业投资继续保持较快增长，市场预期总体稳定向好。"
)
UTF8 = (("Content-Type", "text/html; charset=utf-8"),)


def article(title: str, charset: str) -> bytes:
    html = (
        f"<html><head><meta charset='{charset}'><title>{title}_示例网</title></head><body>"
        f"<div>首页 新闻</div><div><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div></body></html>"
    )
    return html.encode(charset)


LISTING = b"""<html><body>
<a href="/a/1.html?spm=home.1">one</a> <a href="/a/2.html">two</a> <a href="/a/3.html">empty</a>
<a href="/a/4.html">gone</a> <a href="/a/5.html">busy</a> <a href="/a/6.html">binary</a>
<a href="/private/a/8.html">disallowed</a> <a href="/about.html">not an article</a>
<a href="/list/2.html">next</a></body></html>"""
PAGES = {
    "/robots.txt": Page(
        200, (("Content-Type", "text/plain"),), b"User-agent: *\nDisallow: /private/\n"
    ),
    "/index.html": Page(200, UTF8, LISTING),
    "/list/2.html": Page(200, UTF8, b'<html><body><a href="/a/9.html">nine</a></body></html>'),
    "/a/1.html": Page(200, UTF8, article("第一篇", "utf-8")),
    "/a/2.html": Page(200, (("Content-Type", "text/html"),), article("第二篇", "gbk")),
    "/a/3.html": Page(200, UTF8, b"<html><head><title>empty</title></head><body>-</body></html>"),
    "/a/5.html": Page(503, (("Content-Type", "text/plain"), ("Retry-After", "0")), b"busy"),
    "/a/6.html": Page(200, (("Content-Type", "application/pdf"),), b"%PDF-1.4 binary"),
    "/a/9.html": Page(200, UTF8, article("第九篇", "utf-8")),
}
SITE = """\
allowed_domains = ["127.0.0.1"]

[politeness]
download_delay = 0
concurrency = 4

[urls]
article = ['^http://127\\.0\\.0\\.1:\\d+/(?:private/)?a/\\d+\\.html$']
follow = ['^http://127\\.0\\.0\\.1:\\d+/list/\\d+\\.html$']
drop_params = ["spm"]

[[entry]]
kind = "html"
url = "{base_url}/index.html"
"""


def scrapy_crawl(
    workdir: Path, sites_dir: Path, *args: str, status: int | None = 0
) -> tuple[dict[str, int], str]:
    """Run ``scrapy crawl local`` in `workdir`; its integer stats and its log.

    `args` come last, so a ``-s`` among them beats the test defaults below. The crawl must
    exit with `status` (None: any; the caller checks it from the stats).
    """
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newscrawl.settings"}
    env["NEWSCRAWL_SITES_DIR"] = str(sites_dir)
    command = [sys.executable, "-m", "scrapy", "crawl", "local"]
    for setting in (
        "AUTOTHROTTLE_ENABLED=False",
        "NEWSCRAWL_DB_ENABLED=False",
        "NEWSCRAWL_INCREMENTAL=False",
        "RETRY_TIMES=1",
        "NEWSCRAWL_BACKOFF_START_DELAY=0",
        "TELNETCONSOLE_ENABLED=False",
    ):
        command += ["-s", setting]
    command += args
    done = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert status is None or done.returncode == status, done.stderr
    stats = {k: int(v) for k, v in re.findall(r"'([^']+)': (\d+)\b", done.stderr)}
    stats["exit status"] = done.returncode
    assert "Traceback" not in done.stderr, done.stderr
    return stats, done.stderr


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """The served site and a sites directory holding its config."""
    sites_dir = tmp_path_factory.mktemp("sites")
    with serve(PAGES) as base_url:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=base_url), encoding="utf-8")
        yield base_url, sites_dir


def test_crawl_writes_the_default_feed_and_counts_what_it_skipped(
    server: tuple[str, Path], tmp_path: Path
) -> None:
    base_url, sites_dir = server
    stats, _ = scrapy_crawl(tmp_path, sites_dir)

    [feed] = (tmp_path / "data" / "local").glob("*.jsonl")
    items = sorted(read_jsonl(feed), key=lambda item: str(item["url"]))
    assert [item["url"] for item in items] == [
        f"{base_url}/a/1.html",
        f"{base_url}/a/2.html",
        f"{base_url}/a/9.html",
    ]
    assert [item["title"] for item in items] == ["第一篇", "第二篇", "第九篇"]
    assert all(PARAGRAPH in str(item["body"]) for item in items)
    assert items[1]["encoding"] == "gb18030"
    assert items[2]["referer"] == f"{base_url}/list/2.html"
    assert PARAGRAPH in feed.read_text(encoding="utf-8")  # not \\uXXXX escapes

    assert sum(v for k, v in stats.items() if k.startswith("newscrawl/dropped/")) == 1
    assert stats["newscrawl/failed/http_404"] == 1
    assert stats["newscrawl/failed/http_503"] == 1
    assert stats["newscrawl/backoff/503"] == 2  # the first answer and the one retry
    assert stats["newscrawl/skipped/not_html/pdf"] == 1
    assert stats["robotstxt/forbidden"] == 1


def test_output_option_replaces_the_default_feed_and_max_pages_stops(
    server: tuple[str, Path], tmp_path: Path
) -> None:
    _, sites_dir = server
    stats, log = scrapy_crawl(
        tmp_path, sites_dir, "-O", "out.jsonl", "-a", "max_pages=1", status=None
    )
    assert not (tmp_path / "data").exists()
    assert "'finish_reason': 'max_pages'" in log
    # One article page reached the pipeline: extracted into out.jsonl, or dropped as empty,
    # and then the crawl brought no article and failed (exit status 1).
    scraped = len(read_jsonl(tmp_path / "out.jsonl"))
    assert scraped == stats.get("item_scraped_count", 0)
    assert scraped + stats.get("item_dropped_count", 0) == 1
    assert stats["exit status"] == (0 if scraped else FAILED_CRAWL)


CUT_IN_A_META_TAG = {
    "/robots.txt": Page(200, (("Content-Type", "text/plain"),), b"User-agent: *\n"),
    "/index.html": Page(
        200,
        (("Content-Type", "text/html"),),
        b'<a href="/a/1.html">one</a> <a href="/a/2.html">two</a><meta',
    ),
    "/a/1.html": Page(
        200,
        (("Content-Type", "text/html"),),
        f"<title>第一篇</title><p>{PARAGRAPH}</p><META".encode(),
    ),
    "/a/2.html": Page(  # "refresh" sends it through the meta-refresh middleware's decoding
        200,
        (("Content-Type", "text/html"),),
        f"<title>第二篇</title><p>{PARAGRAPH}refresh</p><meta".encode(),
    ),
}
"""A listing and two articles, each sent without a charset and ending right after ``<meta``
(a response cut off in a tag): every page is prescanned for a declared encoding."""


def test_pages_ending_inside_a_meta_tag_are_crawled(tmp_path: Path) -> None:
    """A declared-encoding prescan that fails on such bytes with a panic (a BaseException,
    w3lib 2.6.0's) left the crawl waiting forever, deaf to SIGTERM: it must finish."""
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    with serve(CUT_IN_A_META_TAG) as base_url:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=base_url), encoding="utf-8")
        scrapy_crawl(tmp_path, sites_dir, "-O", "out.jsonl")
    items = sorted(read_jsonl(tmp_path / "out.jsonl"), key=lambda item: str(item["url"]))
    assert [item["title"] for item in items] == ["第一篇", "第二篇"]
    assert all(PARAGRAPH in str(item["body"]) for item in items)
