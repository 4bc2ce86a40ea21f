"""A site config's URL patterns run in linear time: a backtracking pattern cannot hang a crawl,
and what the linear engine lacks is a one-line config error (exit 2)."""

from __future__ import annotations

from pathlib import Path

from store_support import Site
from test_sites_config import run_scrapy
from test_store_site_crawl import SITE_TOML, crawl_local

from newscrawl.sites.patterns import UrlPattern
from newscrawl.store import open_store

CATASTROPHIC = "(a+)+$"
"""Exponential on a run of ``a`` not at the end for a backtracking engine (Python's `re`)."""
LONG_RUN_URL = "http://127.0.0.1:8000/" + "a" * 34 + ".html"


def test_a_catastrophic_pattern_answers_at_once_on_a_long_run() -> None:
    pattern = UrlPattern.compile(CATASTROPHIC)
    assert not pattern.search(LONG_RUN_URL)
    assert pattern.search("http://127.0.0.1:8000/" + "a" * 34)


def test_a_crawl_with_a_catastrophic_pattern_finishes_and_stores_its_articles(
    tmp_path: Path,
) -> None:
    """The listing links to ``/aaa…a.html``: a backtracking engine would sit on it for hours,
    deaf to signals (crawl_local's timeout guards the test)."""
    db_url = f"sqlite:///{tmp_path}/store.db"
    toml = SITE_TOML.replace("\\.html$']", f"\\.html$', '{CATASTROPHIC}']")
    with Site(articles=3) as site:
        site.extra_links = [LONG_RUN_URL.split("8000", 1)[1]]
        crawl_local(site, tmp_path, f"NEWSCRAWL_DB_URL={db_url}", toml=toml)
    with open_store(db_url) as store:
        stored = sorted(row["canonical_url"].rsplit("/", 1)[1] for row in store.iter_articles())
    assert stored == ["1.html", "2.html", "3.html"]
    assert site.hits["/list.html"] == 1


def test_crawling_a_site_with_a_lookaround_pattern_is_one_line_exit_2(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    sites.mkdir()
    path = sites / "ahead.toml"
    toml = SITE_TOML.replace("\\.html$']", "\\.html$', '/a/(?=\\d)']")
    path.write_text(toml.format(base="http://127.0.0.1:9"), encoding="utf-8")
    result = run_scrapy(
        "crawl",
        "ahead",
        "-s",
        "NEWSCRAWL_DB_URL=sqlite:///x.db",
        sites_dir=str(sites),
        cwd=tmp_path,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    [line] = [line for line in result.stderr.splitlines() if str(path) in line]
    assert f"{path}: urls.article[1]: bad regular expression '/a/(?=\\\\d)': " in line
    assert "no lookahead or lookbehind" in line
    assert not (tmp_path / "x.db").exists()
