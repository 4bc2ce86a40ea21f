"""Record a crawl, then replay it into the same store, in the README's order: the replay
re-runs what was recorded, so the incremental skip is off and every recorded article page
is extracted again (real crawls of a local site, in subprocesses)."""

from __future__ import annotations

import json
from pathlib import Path

from store_support import Site
from test_store_site_crawl import crawl_local

from newscrawl.store import open_store

ARTICLES = 4


def feed_urls(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return sorted(json.loads(line)["url"] for line in lines)


def test_a_replay_after_the_recording_extracts_every_article_again(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    archive = tmp_path / "local.warc.gz"
    with Site(articles=ARTICLES) as site:
        crawl_local(site, tmp_path, f"NEWSCRAWL_DB_URL={db_url}", f"NEWSCRAWL_ARCHIVE={archive}")
    with open_store(db_url, create=False) as store:
        recorded = sorted(row["final_url"] for row in store.iter_articles())
    assert len(recorded) == ARTICLES

    replayed = tmp_path / "replayed.jsonl"
    log = crawl_local(
        site,  # the server is gone: every page comes from the archive
        tmp_path,
        f"NEWSCRAWL_DB_URL={db_url}",
        f"NEWSCRAWL_REPLAY={archive}",
        f"NEWSCRAWL_DEFAULT_FEED={replayed}",
    )
    assert feed_urls(replayed) == recorded, log[-3000:]
    assert "the incremental skip is off" in log
