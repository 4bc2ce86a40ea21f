"""`NewscrawlAddon`: the settings it resolves to, and a crawl by a Scrapy project of its own.

The project's `scrapy crawl <site>` must resolve to the components settings.py listed before
the add-on wired them; a foreign project with nothing but ``ADDONS`` (and where to store)
must extract, store, skip stored articles and archive as this one does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest
from local_server import LocalServer, QuietHandler, send_page
from scrapy import Spider
from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from scrapy.utils.test import get_crawler
from site_fixtures import make_spider

from newscrawl.addon import NewscrawlAddon
from newscrawl.archive.middleware import ArchiveRecorderMiddleware
from newscrawl.middlewares.incremental import IncrementalMiddleware
from newscrawl.middlewares.meta_refresh import QuickMetaRefreshMiddleware
from newscrawl.store import open_store

PROJECT_COMPONENTS = {
    "ITEM_PIPELINES": [
        ("newscrawl.pipelines.extract.ExtractPipeline", 300),
        ("newscrawl.pipelines.store.StorePipeline", 800),
    ],
    "DOWNLOADER_MIDDLEWARES": [
        ("newscrawl.middlewares.incremental.IncrementalMiddleware", 50),
        ("newscrawl.middlewares.unreachable.UnreachableHostMiddleware", 540),
        ("newscrawl.middlewares.backoff.BackoffMiddleware", 560),
        ("newscrawl.archive.middleware.ArchiveRecorderMiddleware", 950),
        ("newscrawl.archive.middleware.ReplayMiddleware", 960),
    ],
    "EXTENSIONS": [
        ("newscrawl.gc_freeze.FreezeStartupObjects", 0),
        ("newscrawl.monitoring.network_errors.NetworkErrorsInOneLine", 0),
        ("newscrawl.monitoring.report.OneLineSpidermon", 500),
        ("newscrawl.monitoring.extension.RunSummaryExtension", 600),
    ],
}
"""What settings.py listed before the add-on: `scrapy crawl <site>` must still run these."""
ADDON_ONLY = {"ADDONS": {NewscrawlAddon: 0}}


def components(settings: BaseSettings, name: str) -> list[tuple[str, int]]:
    """The enabled components of dict setting `name` in order, as (import path, order)."""
    given = settings.getdict(name)
    enabled = []
    for key in build_component_list(given):
        component = load_object(key)
        enabled.append((f"{component.__module__}.{component.__qualname__}", given[key]))
    return enabled


# --- the resolved settings -----------------------------------------------------------------


def test_the_projects_crawl_runs_the_components_settings_py_listed() -> None:
    settings = make_spider("sina").crawler.settings
    for name, listed in PROJECT_COMPONENTS.items():
        assert components(settings, name) == listed, name


def test_a_foreign_project_gets_the_components_and_newscrawls_defaults() -> None:
    settings = get_crawler(settings_dict=ADDON_ONLY).settings
    for name, listed in PROJECT_COMPONENTS.items():
        assert components(settings, name) == listed, name
    assert settings.getbool("NEWSCRAWL_DB_ENABLED") and settings.getbool("NEWSCRAWL_INCREMENTAL")
    assert settings["SPIDERMON_SPIDER_CLOSE_MONITORS"] == (
        "newscrawl.monitoring.monitors.CrawlSuite",
    )
    assert settings.getpriority("NEWSCRAWL_EXTRACT_METHOD") == 15  # "addon"


def test_the_meta_refresh_middleware_takes_scrapys_place() -> None:
    for settings in (
        make_spider("sina").crawler.settings,
        get_crawler(settings_dict=ADDON_ONLY).settings,
    ):
        resolved = settings.getwithbase("DOWNLOADER_MIDDLEWARES")
        enabled = {load_object(key): resolved[key] for key in build_component_list(resolved)}
        assert enabled[QuickMetaRefreshMiddleware] == 580
        assert MetaRefreshMiddleware not in enabled
    with pytest.raises(NotConfigured):
        QuickMetaRefreshMiddleware.from_crawler(
            get_crawler(settings_dict={"METAREFRESH_ENABLED": False})
        )


def test_a_users_explicit_settings_win() -> None:
    settings = get_crawler(
        settings_dict={
            **ADDON_ONLY,
            "ITEM_PIPELINES": {"newscrawl.pipelines.store.StorePipeline": None},
            "DOWNLOADER_MIDDLEWARES": {IncrementalMiddleware: 40},
            "NEWSCRAWL_EXTRACT_METHOD": "paper",
        }
    ).settings
    assert components(settings, "ITEM_PIPELINES") == [
        ("newscrawl.pipelines.extract.ExtractPipeline", 300)
    ]
    assert components(settings, "DOWNLOADER_MIDDLEWARES")[0] == (
        "newscrawl.middlewares.incremental.IncrementalMiddleware",
        40,
    )
    assert settings["NEWSCRAWL_EXTRACT_METHOD"] == "paper"


class OwnPipelinesSpider(Spider):
    name = "own"
    custom_settings: ClassVar[dict[str, Any]] = {"ITEM_PIPELINES": {}}


def test_a_dict_given_whole_above_the_project_replaces_the_addons_components() -> None:
    """As ``-s ITEM_PIPELINES={}`` or a spider's custom_settings replace a project's dict."""
    settings = get_crawler(OwnPipelinesSpider, settings_dict=ADDON_ONLY).settings
    assert components(settings, "ITEM_PIPELINES") == []
    assert components(settings, "EXTENSIONS") == PROJECT_COMPONENTS["EXTENSIONS"]


def test_the_archive_recorder_runs_only_with_newscrawl_archive(tmp_path: Path) -> None:
    def recorders(**settings: Any) -> list[ArchiveRecorderMiddleware]:
        crawler = get_crawler(settings_dict={**ADDON_ONLY, **settings})
        manager = DownloaderMiddlewareManager.from_crawler(crawler)
        return [m for m in manager.middlewares if isinstance(m, ArchiveRecorderMiddleware)]

    assert recorders() == []
    (recorder,) = recorders(NEWSCRAWL_ARCHIVE=str(tmp_path / "crawl.warc.gz"))
    recorder.spider_closed()


# --- a foreign project's crawl -------------------------------------------------------------

TITLE = "城市书房延长开放时间"
PARAGRAPHS = (
    "本市二十四家城市书房从下月起每天开放到晚上十点，比现在延长两个小时，"
    "方便下班后的市民读书学习。",
    "市图书馆负责人介绍，延长开放后每家书房将增加两名工作人员，"
    "并新增自助借还设备，读者凭身份证即可办理借阅。",
    "去年全市城市书房共接待读者一百二十万人次，借阅图书三十多万册，晚间时段的读者占到三成以上。",
)
ARTICLE = (
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">'
    f"<title>{TITLE}_地方新闻</title></head><body>"
    '<div class="nav">首页 | 地方 | 财经</div>'
    f'<div class="article"><h1>{TITLE}</h1>'
    '<div class="info">2026-11-02 09:30 来源：晚报 作者：李明</div>'
    + "".join(f"<p>{paragraph}</p>" for paragraph in PARAGRAPHS)
    + '</div><div class="footer">版权所有 联系我们</div></body></html>'
)
ARTICLE_PATH = "/news/2026/1102/a1.html"
PAGES = {
    "/": f'<html><body><a href="{ARTICLE_PATH}">城市书房</a></body></html>'.encode(),
    ARTICLE_PATH: ARTICLE.encode(),
}

GUIDE_PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "scrapy-project.md"
GUIDE_START_URL = "https://news.example.com/"


def readme_block(first_line: str) -> str:
    """The guide's fenced code block (its page on a Scrapy project of one's own) that starts
    with `first_line`."""
    blocks = re.findall(r"^```\w*\n(.*?)^```", GUIDE_PAGE.read_text("utf-8"), re.M | re.S)
    (block,) = [block for block in blocks if block.startswith(first_line + "\n")]
    return block


class PagesHandler(QuietHandler):
    hits: ClassVar[Counter[str]] = Counter()

    def do_GET(self) -> None:
        self.hits[self.path] += 1
        body = PAGES.get(self.path)
        if body is None:
            send_page(self, 404, [], b"")
        else:
            send_page(self, 200, [("Content-Type", "text/html; charset=utf-8")], body)


def foreign_project(root: Path, db_url: str, start_url: str) -> Path:
    """A Scrapy project of its own in `root`, set up as the guide says: made by ``scrapy
    startproject``, the guide's ``ADDONS`` and store lines in its settings, the guide's
    spider (its start URL pointed at `start_url`)."""
    subprocess.run(
        [sys.executable, "-m", "scrapy", "startproject", "foreignnews", str(root)],
        check=True,
        capture_output=True,
    )
    settings_file = root / "foreignnews" / "settings.py"
    settings = settings_file.read_text("utf-8")
    assert settings.count("\nADDONS = {}\n") == 1, "startproject no longer writes ADDONS = {}"
    readme_settings = readme_block("# yourproject/settings.py")
    readme_settings = readme_settings.replace("sqlite:///data/articles.db", db_url)
    settings_file.write_text(settings.replace("\nADDONS = {}\n", "\n" + readme_settings))
    spider = readme_block("# yourproject/spiders/news.py")
    assert GUIDE_START_URL in spider
    (root / "foreignnews" / "spiders" / "news.py").write_text(
        spider.replace(GUIDE_START_URL, start_url), "utf-8"
    )
    return root


def scrapy_crawl(project: Path, *arguments: str) -> dict[str, Any]:
    """``scrapy crawl news`` in `project` (no SCRAPY_* variable of ours leaks in): its run
    summary (the add-on's RunSummaryExtension wrote it), and its log as ``"log"``."""
    summary = project / f"summary-{len(list(project.glob('summary-*')))}.json"
    command = [sys.executable, "-m", "scrapy", "crawl", "news"]
    command += ["-s", f"NEWSCRAWL_SUMMARY_FILE={summary}", *arguments]
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCRAPY_")}
    done = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {**json.loads(summary.read_text("utf-8")), "log": done.stderr}


def test_a_foreign_project_crawls_with_the_addon_alone(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'articles.db'}"
    feed = tmp_path / "articles.jsonl"
    archive = tmp_path / "crawl.warc.gz"
    with LocalServer(PagesHandler) as server:
        project = foreign_project(tmp_path / "project", db_url, f"{server.url}/")
        first = scrapy_crawl(project, "-O", str(feed), "-s", f"NEWSCRAWL_ARCHIVE={archive}")
        second = scrapy_crawl(project)

    (article,) = [json.loads(line) for line in feed.read_text("utf-8").splitlines()]
    assert article["title"] == TITLE and article["author"] == "李明"
    assert article["referer"] == f"{server.url}/"
    with open_store(db_url, create=False) as store:
        (row,) = store.iter_articles()
    assert row["title"] == TITLE and row["canonical_url"].endswith(ARTICLE_PATH)
    assert first["stored"] == {"new": 1} and first["failed_run"] == []
    assert first["coverage"]["author"] == 1.0
    assert re.search(r"'newscrawl/archive/records': [1-9]", first["log"])
    # The second crawl asks for the article again and the store answers: no download.
    assert second["skipped_seen"] == 1 and second["stored"] == {}
    assert PagesHandler.hits[ARTICLE_PATH] == 1
