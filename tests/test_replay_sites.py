"""Replay the real site spiders over the saved pages of the eight sites (../shared).

For each site an archive is built here: the saved listing pages at the site's real html
entry-point URLs (so the spider starts where it starts live) and the saved article pages at
their real URLs. Most saved listings are older than the saved articles and do not link
them, so articles that no served listing links are seeded with ``-a start_urls=`` (together
with every configured entry point, which ``start_urls`` would otherwise replace); the ones
a served listing links (netease-article-4, sinablog-article-1) must be found through it.
Entry points without a saved page (feeds, APIs, sitemaps) answer 404 in the replay.

Every gold article must come out with the gold title exactly and a body scoring token
F1 >= 0.9 against the gold body (the project's scorer). One crawl per site serves all of
its articles' tests.
"""

from __future__ import annotations

import csv
import gzip
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from newscrawl.archive import ArchivedRequest, ArchivedResponse, ArchiveWriter
from newscrawl.evaluation.scoring import score_page
from newscrawl.sites import SiteConfig, load_site

PROJECT_ROOT = Path(__file__).resolve().parents[1]
ARTICLES = {
    "sina": 3,
    "netease": 4,
    "people": 4,
    "xinhua": 5,
    "sohu": 4,
    "sinablog": 1,
    "csdn": 7,
    "cnblogs": 2,
}
"""Saved article pages per site (gold/<site>-article-N.json)."""
MIN_BODY_F1 = 0.9

TITLE_ISSUES: dict[str, str] = {}
BODY_ISSUES = {
    "csdn-article-6": "KaTeX formulas (141): body F1 0.74",
}
"""Extractor shortfalls seen when this test was written (non-strict xfail: XPASS once fixed)."""


@dataclass(frozen=True)
class Gold:
    name: str
    url: str
    title: str
    body: str


@dataclass(frozen=True)
class SavedSite:
    """What the replay serves for one site, and what it must produce."""

    pages: dict[str, bytes]
    """URL -> the bytes the server sends."""
    seeds: list[str]
    articles: dict[str, Gold]


def server_bytes(path: Path, config: SiteConfig) -> bytes:
    """The saved page as its server sends it.

    Some saved copies were transcoded to UTF-8 by the projects that saved them while their
    ``<meta>`` still says GB2312 (people 1, 3, 4); a site whose config names a charset is
    served in it, so those are encoded back.
    """
    data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    if config.charset and not data.isascii():
        try:
            return data.decode("utf-8").encode(config.charset)
        except UnicodeDecodeError:
            return data  # already in the site's charset
    return data


def saved_site(sites_dir: Path, site: str, config: SiteConfig) -> SavedSite:
    """Map the saved pages of `site` to URLs, and pick the article URLs to seed."""
    with (sites_dir / "pages" / "MANIFEST.tsv").open(encoding="utf-8") as manifest:
        rows = [row for row in csv.DictReader(manifest, delimiter="\t") if row["site"] == site]
    html_entries = [entry.url for entry in config.entries if entry.kind == "html"]
    listings = sorted(row["file"] for row in rows if row["kind"] == "listing")
    pages: dict[str, bytes] = {}
    linked: set[str] = set()
    for entry_url, listing in zip(html_entries, listings, strict=False):
        pages[entry_url] = server_bytes(sites_dir / "pages" / listing, config)
        links = sites_dir / "gold" / f"{listing.removesuffix('.html').replace('/', '-')}.links.json"
        linked.update(json.loads(links.read_text("utf-8"))["links"])
    articles: dict[str, Gold] = {}
    for row in rows:
        if row["kind"] == "article":
            name = row["file"].split(".")[0].replace("/", "-")
            gold = json.loads((sites_dir / "gold" / f"{name}.json").read_text("utf-8"))
            articles[name] = Gold(name, gold["url"], gold["title"], gold["body"])
            pages[gold["url"]] = server_bytes(sites_dir / "pages" / row["file"], config)
    seeds = [entry.url for entry in config.entries]
    seeds += [gold.url for gold in articles.values() if gold.url not in linked]
    return SavedSite(pages, seeds, articles)


def write_archive(path: Path, pages: dict[str, bytes]) -> None:
    """Each page as a recorded 200; the saved copies lost their HTTP headers, so no charset."""
    with ArchiveWriter(path, {"software": "test_replay_sites"}) as writer:
        for url, body in pages.items():
            headers = (("Content-Type", "text/html"),)
            writer.write(
                ArchivedRequest("GET", url, ()),
                ArchivedResponse(url, 200, headers, body, datetime.now(UTC)),
            )


def replay_crawl(
    site: str, saved: SavedSite, workdir: Path, settings: Sequence[str] = ()
) -> dict[str, dict[str, str]]:
    """`scrapy crawl <site>` from the archive, with these extra `settings` (NAME=value); the
    items by requested URL."""
    archive = workdir / f"{site}.warc.gz"
    write_archive(archive, saved.pages)
    items_path = workdir / "items.jsonl"
    command = [sys.executable, "-m", "scrapy", "crawl", site, "-O", str(items_path)]
    command += ["-a", "start_urls=" + ",".join(saved.seeds)]
    command += ["-s", f"NEWSCRAWL_REPLAY={archive}", "-s", "LOG_LEVEL=INFO"]
    # No article store: it would write data/newscrawl.db here, and its incremental skip
    # would drop every article on the next run.
    command += ["-s", "NEWSCRAWL_DB_ENABLED=False"]
    for setting in settings:
        command += ["-s", setting]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'log_count/ERROR'" not in done.stderr, done.stderr[-3000:]
    items = [json.loads(line) for line in items_path.read_text("utf-8").splitlines()]
    return {item["url"]: item for item in items}


@dataclass(frozen=True)
class Outcome:
    gold: Gold
    item: dict[str, str] | None


@pytest.fixture(scope="module")
def replayed(
    shared_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], Outcome]:
    """Look up an article's item; each site is crawled once, on its first article."""
    crawls: dict[str, tuple[SavedSite, dict[str, dict[str, str]]]] = {}

    def outcome(name: str) -> Outcome:
        site = name.split("-")[0]
        if site not in crawls:
            config = load_site(PROJECT_ROOT / "newscrawl" / "configs" / "sites" / f"{site}.toml")
            saved = saved_site(shared_dir / "datasets" / "sites", site, config)
            crawls[site] = saved, replay_crawl(site, saved, tmp_path_factory.mktemp(site))
        saved, items = crawls[site]
        gold = saved.articles[name]
        return Outcome(gold, items.get(gold.url))

    return outcome


def article_params(issues: dict[str, str]) -> list[object]:
    return [
        pytest.param(
            name,
            marks=[pytest.mark.xfail(reason=issues[name], strict=False)] if name in issues else [],
        )
        for site, count in ARTICLES.items()
        for name in (f"{site}-article-{n}" for n in range(1, count + 1))
    ]


@pytest.mark.parametrize("name", article_params(TITLE_ISSUES))
def test_replayed_article_title(name: str, replayed: Callable[[str], Outcome]) -> None:
    outcome = replayed(name)
    assert outcome.item is not None, f"no item for {outcome.gold.url}"
    assert outcome.item["title"] == outcome.gold.title


@pytest.mark.parametrize("name", article_params(BODY_ISSUES))
def test_replayed_article_body(name: str, replayed: Callable[[str], Outcome]) -> None:
    outcome = replayed(name)
    assert outcome.item is not None, f"no item for {outcome.gold.url}"
    f1 = score_page(name, outcome.gold.body, outcome.item["body"]).f1
    assert f1 >= MIN_BODY_F1, f"body F1 {f1:.3f}"


def test_extraction_processes_give_the_items_the_crawl_thread_gives(
    shared_dir: Path, replayed: Callable[[str], Outcome], tmp_path: Path
) -> None:
    """The same crawl with extraction in two worker processes (NEWSCRAWL_EXTRACT_PROCESSES)."""
    site = "sina"
    config = load_site(PROJECT_ROOT / "newscrawl" / "configs" / "sites" / f"{site}.toml")
    saved = saved_site(shared_dir / "datasets" / "sites", site, config)
    items = replay_crawl(site, saved, tmp_path, ["NEWSCRAWL_EXTRACT_PROCESSES=2"])
    assert len(items) == len(saved.articles)
    for name, gold in saved.articles.items():
        in_thread = replayed(name).item
        assert in_thread is not None
        assert _without_fetch_time(items[gold.url]) == _without_fetch_time(in_thread)


def _without_fetch_time(item: dict[str, str]) -> dict[str, str]:
    return {key: value for key, value in item.items() if key != "fetched"}
