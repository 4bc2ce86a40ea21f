"""Helpers for the site-spider tests: spiders built offline from the project settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.settings import Settings
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler, get_reactor_settings

from newscrawl.crawl_contract import FOUND_ON
from newscrawl.spiders.loader import SiteSpiderLoader
from newscrawl.spiders.site import SiteSpider

DISCOVERY_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "discovery"
OFFLINE = {"ROBOTSTXT_OBEY": False, "NEWSCRAWL_SITES_DIR": "", "TELNETCONSOLE_ENABLED": False}
"""Unit tests never fetch robots.txt and ignore a user's site directory."""


def project_settings(**overrides: Any) -> Settings:
    """The project's settings (settings.py) with `overrides`, offline."""
    settings = get_project_settings()
    settings.setdict({**OFFLINE, **overrides}, priority="cmdline")
    return settings


def make_spider(name: str, settings: dict[str, Any] | None = None, **kwargs: Any) -> SiteSpider:
    """The spider ``scrapy crawl <name> -a key=value`` would run, with a crawler attached."""
    project = project_settings(**(settings or {}))
    spider_class = SiteSpiderLoader(project).load(name)
    crawler = get_crawler(
        spider_class, {**project.copy_to_dict(), **get_reactor_settings(), **(settings or {})}
    )
    spider = spider_class.from_crawler(crawler, **kwargs)
    crawler.spider = spider
    assert crawler.stats is not None
    crawler.stats.open_spider()
    return spider


ARTICLE_REQUESTS = "newscrawl/requests/article"


def stats(spider: SiteSpider) -> dict[str, Any]:
    """The spider's ``newscrawl/*`` stats of what it found and dropped (without the count
    of article requests, `ARTICLE_REQUESTS`, which every discovery test would repeat)."""
    assert spider.crawler.stats is not None
    values = spider.crawler.stats.get_stats()
    return {
        key: value
        for key, value in values.items()
        if key.startswith("newscrawl/") and key != ARTICLE_REQUESTS
    }


def fixture_response(url: str, name: str, content_type: str = "application/json") -> Response:
    """A response for `url` whose body is the discovery fixture `name`."""
    body = (DISCOVERY_FIXTURES / name).read_bytes()
    return TextResponse(url, body=body, headers={"Content-Type": content_type})


def article_response(
    url: str, body: bytes, *, found_on: str | None = None, redirected_from: str | None = None
) -> HtmlResponse:
    """An article page as the spider's article callback receives it."""
    meta: dict[str, Any] = {FOUND_ON: found_on}
    if redirected_from:
        meta["redirect_urls"] = [redirected_from]
    request = Request(url, meta=meta)
    return HtmlResponse(url, body=body, request=request, headers={"Content-Type": "text/html"})
