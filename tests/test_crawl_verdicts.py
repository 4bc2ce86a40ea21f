"""A crawl's verdict matches what happened: real ``scrapy crawl`` runs against sites served
on 127.0.0.1 where nothing is new, robots.txt forbids everything, or a hand-given start URL
leads nowhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from archive_fixtures.server import Page, serve
from test_site_crawl import PAGES, PARAGRAPH, SITE, UTF8, article, read_jsonl, scrapy_crawl

from newscrawl.monitoring.monitors import FAILED_CRAWL, Thresholds, failures
from newscrawl.monitoring.summary import summarize


@pytest.fixture(name="site")
def site_fixture(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The served site of test_site_crawl, plus an article at a path no article pattern
    matches, and a sites directory holding its config."""
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    pages = {**PAGES, "/2019/story.html": Page(200, UTF8, article("旧文", "utf-8"))}
    with serve(pages) as base_url:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=base_url), encoding="utf-8")
        yield base_url, sites_dir


FEED_SITE = SITE.replace(
    'kind = "html"\nurl = "{base_url}/index.html"', 'kind = "rss"\nurl = "{base_url}/feed.xml"'
)
"""The site of test_site_crawl with its feed, not its listing, as entry point."""


def last_line(log: str) -> str:
    return log.strip().splitlines()[-1]


def test_recrawling_start_urls_all_stored_is_ok_nothing_new(
    site: tuple[str, Path], tmp_path: Path
) -> None:
    base_url, sites_dir = site
    store = ("-s", "NEWSCRAWL_DB_ENABLED=True", "-s", "NEWSCRAWL_INCREMENTAL=True")
    store += ("-s", f"NEWSCRAWL_DB_URL=sqlite:///{tmp_path}/store.db")
    start = ("-a", f"start_urls={base_url}/a/1.html,{base_url}/a/9.html")
    first, _ = scrapy_crawl(tmp_path, sites_dir, *store, *start)
    assert first["item_scraped_count"] == 2

    again, log = scrapy_crawl(tmp_path, sites_dir, *store, *start)
    assert again["exit status"] == 0
    assert again["newscrawl/store/skipped_seen"] == 2
    assert "crawl failed" not in log
    assert "run summary: nothing new (2 article pages already stored, not fetched)" in log


@pytest.mark.parametrize(
    ("robots", "forbidden", "reason"),
    [
        (b"Disallow: /\n", 1, "robots.txt forbids every URL requested (1)"),
        (
            b"Disallow: /a/\nDisallow: /private/\n",
            8,
            "8 article pages requested, no article came out (8 forbidden by robots.txt)",
        ),
    ],
    ids=["everything", "every article"],
)
def test_a_site_whose_robots_txt_forbids_its_pages_fails_with_that_reason(
    tmp_path: Path, robots: bytes, forbidden: int, reason: str
) -> None:
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    pages = {
        **PAGES,
        "/robots.txt": Page(200, (("Content-Type", "text/plain"),), b"User-agent: *\n" + robots),
    }
    with serve(pages) as base_url:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=base_url), encoding="utf-8")
        stats, log = scrapy_crawl(tmp_path, sites_dir, status=FAILED_CRAWL)
    assert stats["robotstxt/forbidden"] == forbidden
    assert not [key for key in stats if key.startswith("newscrawl/failed/")]  # refused, not failed
    assert last_line(log).endswith(
        f"[newscrawl.monitoring.extension] ERROR: crawl failed: {reason}"
    )


def test_a_start_url_read_as_a_listing_that_leads_nowhere_is_named_and_fails(
    site: tuple[str, Path], tmp_path: Path
) -> None:
    """An article on another host of the site (its URL matches no article pattern) is read
    as a listing: it has no link, so the crawl says so by name and fails."""
    base_url, sites_dir = site
    old_host = base_url.replace("127.0.0.1", "localhost") + "/a/1.html"
    stats, log = scrapy_crawl(
        tmp_path, sites_dir, "-a", f"start_urls={old_host}", status=FAILED_CRAWL
    )
    assert stats.get("item_scraped_count", 0) == 0
    assert (
        f"WARNING: start URL {old_host} (read as html) led to no article and no link to one; "
        f"to have it extracted as an article: -a article_urls={old_host}"
    ) in log
    assert last_line(log).endswith(
        f"ERROR: crawl failed: no article and no link to one on the start URLs {old_host} "
        "(-a article_urls=URL extracts a page as an article)"
    )


@pytest.mark.parametrize(
    ("index", "reason"),
    [
        (
            Page(200, UTF8, b'<html><body><a href="/about.html">about</a></body></html>'),
            "no article page found (1 page read: no link matched the article patterns)",
        ),
        (Page(404, UTF8, b"gone"), "no article page found (1 page read: 1 http_404)"),
    ],
    ids=["listing of no article", "entry point gone"],
)
def test_a_crawl_that_finds_no_article_page_fails_saying_why(
    tmp_path: Path, index: Page, reason: str
) -> None:
    """The config's own entry point yields nothing (its layout changed, it is gone): the
    crawl did nothing, whatever it fetched."""
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    with serve({**PAGES, "/index.html": index}) as base_url:
        (sites_dir / "local.toml").write_text(SITE.format(base_url=base_url), encoding="utf-8")
        stats, log = scrapy_crawl(tmp_path, sites_dir, status=FAILED_CRAWL)
    assert stats.get("newscrawl/requests/article", 0) == 0
    assert last_line(log).endswith(f"ERROR: crawl failed: {reason}")


def test_a_distributed_workers_share_of_listing_pages_only_is_no_failure() -> None:
    """Another worker took the article pages this one's listings led to."""
    listings_only = summarize({"response_received_count": 3, "robotstxt/response_count": 1})
    assert failures(listings_only, Thresholds(0.5, 10, shared=True)) == []
    assert failures(listings_only, Thresholds(0.5, 10)) == [
        "no article page found (2 pages read: no link matched the article patterns)"
    ]


def test_a_feed_whose_entries_are_all_older_than_since_is_ok_nothing_new(
    tmp_path: Path,
) -> None:
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    items = b"".join(
        b"<item><link>/a/%d.html</link><pubDate>Mon, 02 Jan 2023 08:00:00 +0800</pubDate></item>"
        % n
        for n in (1, 9)
    )
    feed = b'<?xml version="1.0"?><rss version="2.0"><channel>' + items + b"</channel></rss>"
    rss = Page(200, (("Content-Type", "application/rss+xml"),), feed)
    with serve({**PAGES, "/feed.xml": rss}) as base_url:
        config = FEED_SITE.format(base_url=base_url)
        (sites_dir / "local.toml").write_text(config, encoding="utf-8")
        stats, log = scrapy_crawl(tmp_path, sites_dir, "-a", "since=2024-01-01")
    assert stats["newscrawl/discovery/too_old"] == 2
    assert "crawl failed" not in log
    assert "run summary: nothing new (2 entries older than -a since)" in log


def test_article_urls_are_extracted_as_articles_whatever_the_patterns_say(
    site: tuple[str, Path], tmp_path: Path
) -> None:
    base_url, sites_dir = site
    old_host = base_url.replace("127.0.0.1", "localhost") + "/a/1.html"
    off_pattern = f"{base_url}/2019/story.html"
    stats, log = scrapy_crawl(tmp_path, sites_dir, "-a", f"article_urls={old_host},{off_pattern}")
    [feed] = (tmp_path / "data" / "local").glob("*.jsonl")
    items = {str(item["url"]): item for item in read_jsonl(feed)}
    assert items[old_host]["title"] == "第一篇"
    assert PARAGRAPH in str(items[off_pattern]["body"])
    assert stats["newscrawl/requests/article"] == 2
    assert "crawl failed" not in log
    assert f"article URL {old_host} is outside allowed_domains" in log
    assert base_url + "/index.html" not in log  # the config's entry point is not crawled


NBSP_DTD = b'<!ENTITY nbsp "&#160;">'
LAUGHS_DTD = b'<!ENTITY a "aaaaaaaaaa">' + b"".join(
    b'<!ENTITY e%d "%s">' % (i, (b"&e%d;" % (i - 1) if i else b"&a;") * 10) for i in range(9)
)


def feed_with_entities(dtd: bytes, use: bytes) -> bytes:
    """An RSS feed of articles 1 and 9 whose DTD declares `dtd`, used (`use`) in its titles."""
    items = b"".join(
        b"<item><title>%s %d</title><link>/a/%d.html</link></item>" % (use, n, n) for n in (1, 9)
    )
    return (
        b'<?xml version="1.0"?>\n<!DOCTYPE rss [' + dtd + b"]>\n"
        b'<rss version="2.0"><channel><title>news</title>' + items + b"</channel></rss>"
    )


@pytest.mark.parametrize(
    ("dtd", "use", "articles", "why"),
    [
        (NBSP_DTD, b"&nbsp;", 2, "DTD entities not expanded (refused): nbsp; 2 entries read"),
        (
            LAUGHS_DTD,
            b"&e8;",
            0,
            "DTD entities not expanded (refused): a, e0, e1, e2, e3 and 5 more; 0 entries read",
        ),
    ],
)
def test_a_feed_with_a_refused_dtd_entity_is_counted_malformed_and_read_where_it_can_be(
    tmp_path: Path, dtd: bytes, use: bytes, articles: int, why: str
) -> None:
    """Entries read without the entity are crawled; a feed that lost them all fails the
    crawl, naming the malformed feed."""
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    feed = Page(200, (("Content-Type", "application/rss+xml"),), feed_with_entities(dtd, use))
    with serve({**PAGES, "/feed.xml": feed}) as base_url:
        config = FEED_SITE.format(base_url=base_url)
        (sites_dir / "local.toml").write_text(config, encoding="utf-8")
        stats, log = scrapy_crawl(tmp_path, sites_dir, status=None)
    assert stats["newscrawl/discovery/malformed/rss"] == 1
    assert f"WARNING: malformed rss at {base_url}/feed.xml: {why}" in log
    assert stats.get("item_scraped_count", 0) == articles
    if not articles:
        assert stats["exit status"] == FAILED_CRAWL
        assert last_line(log).endswith(
            "ERROR: crawl failed: no article page found (1 page read: 1 malformed/rss)"
        )
    else:
        assert stats["exit status"] == 0


def test_a_sitemap_declaring_entities_after_a_long_comment_is_counted_malformed(
    tmp_path: Path,
) -> None:
    """However long the prolog before its DTD, the refused entity is counted and named;
    the entries are read without it and crawled."""
    sites_dir = tmp_path / "sites"
    sites_dir.mkdir()
    urls = b"".join(b"<url><loc>/a/%d.html</loc></url>" % n for n in (1, 9))
    body = (
        b'<?xml version="1.0"?>\n<!-- ' + b"generated " * 1000 + b"-->\n"
        b'<!DOCTYPE urlset [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<url><loc>/a/2.html&x;</loc></url>" + urls + b"</urlset>"
    )
    sitemap = Page(200, (("Content-Type", "application/xml"),), body)
    with serve({**PAGES, "/sitemap.xml": sitemap}) as base_url:
        config = SITE.replace(
            'kind = "html"\nurl = "{base_url}/index.html"',
            'kind = "sitemap"\nurl = "{base_url}/sitemap.xml"',
        ).format(base_url=base_url)
        (sites_dir / "local.toml").write_text(config, encoding="utf-8")
        stats, log = scrapy_crawl(tmp_path, sites_dir)
    assert stats["newscrawl/discovery/malformed/sitemap"] == 1
    assert (
        f"WARNING: malformed sitemap at {base_url}/sitemap.xml: "
        "DTD entities not expanded (refused): x; 3 entries read"
    ) in log
    assert stats["item_scraped_count"] == 3  # /a/2.html read without its entity
