"""Two crawls of the same replay archive into one store: both extract every article.

The archive holds the saved Sohu pages (../shared) at their real URLs; both crawls run the
real `sohu` spider against one SQLite store. A replay re-runs what was recorded, so the
incremental skip is off: the first stores every article, the second reads every page again
and finds every article unchanged.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from test_replay_sites import PROJECT_ROOT, saved_site, write_archive

from newscrawl.sites import load_site

SITE = "sohu"


def replay(archive: Path, seeds: list[str], db_url: str, workdir: Path) -> str:
    """One replay crawl with the store on; its log (DEBUG, so every download is listed)."""
    command = [sys.executable, "-m", "scrapy", "crawl", SITE, "-a", "start_urls=" + ",".join(seeds)]
    command += ["-s", f"NEWSCRAWL_REPLAY={archive}", "-s", f"NEWSCRAWL_DB_URL={db_url}"]
    command += ["-s", "LOG_LEVEL=DEBUG", "-s", f"NEWSCRAWL_DEFAULT_FEED={workdir}/%(time)s.jsonl"]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


def fetched(log: str, url: str) -> int:
    return len(re.findall(rf"Crawled \(\d+\) <GET {re.escape(url)}>", log))


def stat(log: str, key: str) -> int:
    match = re.search(rf"'{re.escape(key)}': (\d+)", log)
    return int(match.group(1)) if match else 0


def test_second_replay_of_the_same_archive_extracts_every_article_again(
    shared_dir: Path, tmp_path: Path
) -> None:
    config = load_site(PROJECT_ROOT / "newscrawl" / "configs" / "sites" / f"{SITE}.toml")
    saved = saved_site(shared_dir / "datasets" / "sites", SITE, config)
    archive = tmp_path / f"{SITE}.warc.gz"
    write_archive(archive, saved.pages)
    db_url = f"sqlite:///{tmp_path}/store.db"
    article_urls = [gold.url for gold in saved.articles.values()]

    first = replay(archive, saved.seeds, db_url, tmp_path)
    assert all(fetched(first, url) == 1 for url in article_urls), first[-3000:]
    assert stat(first, "newscrawl/store/new") == len(article_urls)

    second = replay(archive, saved.seeds, db_url, tmp_path)
    assert all(fetched(second, url) == 1 for url in article_urls), second[-3000:]
    assert stat(second, "newscrawl/store/skipped_seen") == 0
    assert stat(second, "newscrawl/store/new") == 0
    assert stat(second, "newscrawl/store/unchanged") == len(article_urls)
