"""Helpers of the scheduler tests: a local site config, job files, `newscrawl schedule` runs.

Jobs crawl `store_support.Site` on 127.0.0.1 through a user site directory named by the
job's own settings, into a SQLite store in the test's tmp_path.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from store_support import Site

from newscrawl.store import open_store

SITE_TOML = """\
allowed_domains = ["127.0.0.1"]

[politeness]
download_delay = 0
concurrency = {concurrency}

[urls]
article = ['^http://127\\.0\\.0\\.1:\\d+/a/\\d+\\.html$']

[[entry]]
kind = "html"
url = "{base}/list.html"
"""


class SlowSite(Site):
    """A `Site` whose article pages take `delay` seconds each, so a crawl can be cut midway."""

    def __init__(self, articles: int, delay: float) -> None:
        super().__init__(articles)
        self.delay = delay

    def page(self, path: str) -> tuple[int, dict[str, str], bytes]:
        if path.startswith("/a/"):
            time.sleep(self.delay)
        return super().page(path)


def write_job(
    tmp_path: Path, site: Site, *, concurrency: int = 4, job: str = "local-news", **keys: Any
) -> Path:
    """A jobs directory with one job crawling `site` as site ``local``; its path."""
    sites = tmp_path / "sites"
    sites.mkdir(exist_ok=True)
    config = SITE_TOML.format(base=site.url, concurrency=concurrency)
    (sites / "local.toml").write_text(config, encoding="utf-8")
    settings = {
        "NEWSCRAWL_SITES_DIR": str(sites),
        "NEWSCRAWL_DB_URL": db_url(tmp_path),
        "NEWSCRAWL_DB_BATCH_SIZE": 5,
        "NEWSCRAWL_DB_BATCH_SECONDS": 0,
        "NEWSCRAWL_DEFAULT_FEED": "",
        "ROBOTSTXT_OBEY": False,
        "AUTOTHROTTLE_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }
    top = {"sites": ["local"], "cron": "0 3 * * *", "time_limit": "5m", **keys}
    lines = [f"{key} = {toml_value(value)}" for key, value in top.items()]
    lines += ["[settings]", *(f"{key} = {toml_value(value)}" for key, value in settings.items())]
    jobs = tmp_path / "jobs"
    jobs.mkdir(exist_ok=True)
    (jobs / f"{job}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return jobs


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\") + '"'
    return str(value)


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/store.db"


def schedule_command(tmp_path: Path, *args: str) -> list[str]:
    """``newscrawl schedule`` over the tmp jobs directory, state kept in tmp_path."""
    command = [sys.executable, "-m", "newscrawl.cli", "schedule", "--jobs", str(tmp_path / "jobs")]
    return [*command, "--state-dir", str(tmp_path / "state"), *args]


def run_schedule(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``newscrawl schedule`` to its end in tmp_path."""
    return subprocess.run(
        schedule_command(tmp_path, *args),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def stored_urls(tmp_path: Path) -> list[str]:
    """Every stored article URL, duplicates kept (there must be none)."""
    with open_store(db_url(tmp_path)) as store:
        return [row["canonical_url"] for row in store.iter_articles()]


def count_rows(tmp_path: Path) -> int:
    try:
        with open_store(db_url(tmp_path)) as store:
            return store.count_articles()
    except Exception:  # the crawl may not have created the schema yet
        return 0


def article_urls(site: Site) -> set[str]:
    """The canonical URLs of all of `site`'s articles (the store keeps https)."""
    host = site.url.split("://", 1)[1]
    return {f"https://{host}/a/{i}.html" for i in range(1, site.articles + 1)}
