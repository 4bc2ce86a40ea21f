"""The real config-driven spider and extract pipeline feeding the store (`scrapy crawl`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from store_support import Site

from newscrawl.extract import extract
from newscrawl.store import open_store

SITE_TOML = """\
allowed_domains = ["127.0.0.1"]

[politeness]
download_delay = 0
concurrency = 4

[urls]
article = ['^http://127\\.0\\.0\\.1:\\d+/a/\\d+\\.html$']

[[entry]]
kind = "html"
url = "{base}/list.html"
"""


TESTS = Path(__file__).resolve().parent


def local_crawl_command(
    site: Site, workdir: Path, *settings: str, toml: str = SITE_TOML
) -> tuple[list[str], dict[str, str]]:
    """``scrapy crawl local`` and its environment: the local site's config (`toml`) in a
    sites directory of `workdir`, the tests folder importable (for pipeline stages of the
    tests), `settings` (NAME=value) after this test set's defaults."""
    sites = workdir / "sites"
    sites.mkdir(exist_ok=True)
    (sites / "local.toml").write_text(toml.format(base=site.url), encoding="utf-8")
    env = {
        **os.environ,
        "SCRAPY_SETTINGS_MODULE": "newscrawl.settings",
        "NEWSCRAWL_SITES_DIR": str(sites),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "scrapy", "crawl", "local"]
    for setting in (
        "NEWSCRAWL_DEFAULT_FEED=",
        "AUTOTHROTTLE_ENABLED=False",
        "ROBOTSTXT_OBEY=False",
        "TELNETCONSOLE_ENABLED=False",
        *settings,
    ):
        command += ["-s", setting]
    return command, env


def crawl_local(site: Site, workdir: Path, *settings: str, toml: str = SITE_TOML) -> str:
    """``scrapy crawl local`` in a subprocess (`local_crawl_command`); its log."""
    command, env = local_crawl_command(site, workdir, *settings, toml=toml)
    done = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


def crawl(site: Site, tmp_path: Path, db_url: str) -> str:
    return crawl_local(site, tmp_path, f"NEWSCRAWL_DB_URL={db_url}")


def test_site_spider_articles_are_stored(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    with Site(articles=4) as site:
        crawl(site, tmp_path, db_url)
    with open_store(db_url) as store:
        rows = list(store.iter_articles())
    host = site.url.split("://", 1)[1]
    assert sorted(r["canonical_url"] for r in rows) == [
        f"https://{host}/a/{i}.html" for i in range(1, 5)
    ]
    assert all(r["site"] == "local" and r["body"] and r["extractor_method"] for r in rows)
    assert all(r["encoding"] == "utf-8" for r in rows)
    for r in rows:  # what the extractor said of the page, None included
        _, _, page = site.page(r["canonical_url"].split(host, 1)[1])
        assert r["confidence"] == extract(page, r["final_url"]).confidence


def test_site_spider_second_crawl_fetches_no_article(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    with Site(articles=4) as site:
        crawl(site, tmp_path, db_url)
        hits = site.article_hits()
        crawl(site, tmp_path, db_url)
        assert site.article_hits() == hits
