"""Real crawls recorded to WARC (``scrapy crawl`` of a local site, in a subprocess), then
``newscrawl reextract`` over the recording: the page kinds the recorder wrote, the fallback
for archives without them, and the store updated exactly where a changed extractor option
changed a body (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from dataclasses import replace
from io import BytesIO
from pathlib import Path

import pytest
from store_support import Site, article_text, db_url_fixture  # noqa: F401 (fixture)
from test_store_site_crawl import SITE_TOML as STORE_SITE_TOML
from test_store_site_crawl import crawl_local
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newscrawl import article as article_fields
from newscrawl.archive import archive_files, iter_responses
from newscrawl.cli import main
from newscrawl.extract import Options, extract
from newscrawl.store import open_store

ARTICLES = 6
SITE_TOML = (
    STORE_SITE_TOML
    + """
[[entry]]
kind = "rss"
url = "{base}/feed.xml"

[[entry]]
kind = "sitemap"
url = "{base}/sitemap.xml"
"""
)
CRAWLED = Options(method="paper", short_page_chars=0)
"""What the crawls below extract with (NEWSCRAWL_EXTRACT_METHOD=paper in the pipeline)."""
REEXTRACTED = replace(CRAWLED, min_line_length=40)
"""The re-extraction's option: an editor's note of 50 characters now starts a group."""


class NotedSite(Site):
    """`Site` whose odd-numbered articles end with a short editor's note after a blank
    line, which the paper method keeps only when L is at most its length."""

    def page(self, path: str) -> tuple[int, dict[str, str], bytes]:
        if not (path.startswith("/a/") and path.endswith(".html")):
            return super().page(path)
        number = int(path[3:-5])
        note = f"<p><br></p>\n<p>{article_text(number + 1000, 50)}</p>\n" if number % 2 else ""
        html = (
            f"<html><head><title>第{number}篇</title></head><body><h1>第{number}篇</h1>\n"
            f"<p>{article_text(number, 150)}</p>\n{note}<div>版权所有</div></body></html>"
        )
        return 200, {}, html.encode()


def crawl(site: Site, workdir: Path, *settings: str) -> None:
    """``scrapy crawl local`` with `settings` (NAME=value), robots.txt obeyed, recording to
    ``workdir/crawl.warc.gz`` (its parts ``crawl-00000.warc.gz``, …)."""
    archive = f"NEWSCRAWL_ARCHIVE={workdir / 'crawl.warc.gz'}"
    crawl_local(site, workdir, archive, "ROBOTSTXT_OBEY=True", *settings, toml=SITE_TOML)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A crawl of `NotedSite` recorded without a store: (the site's URL, the work dir)."""
    workdir = tmp_path_factory.mktemp("recorded")
    with NotedSite(articles=ARTICLES) as site:
        crawl(site, workdir, "NEWSCRAWL_DB_ENABLED=False")
    return site.url, workdir


def article_urls(base: str) -> list[str]:
    return [f"{base}/a/{n}.html" for n in range(1, ARTICLES + 1)]


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def strip_newscrawl_fields(source: Path, target: Path) -> None:
    """`source` as an archive recorded before the Newscrawl-* fields existed."""
    with source.open("rb") as stream, target.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        for record in ArchiveIterator(stream):
            if record.rec_type != "response":
                continue
            headers = record.rec_headers
            writer.write_record(
                writer.create_warc_record(
                    headers.get_header("WARC-Target-URI"),
                    "response",
                    payload=BytesIO(record.raw_stream.read()),
                    warc_headers_dict={"WARC-Date": headers.get_header("WARC-Date")},
                    http_headers=StatusAndHeaders(
                        record.http_headers.statusline,
                        record.http_headers.headers,
                        protocol=record.http_headers.protocol,
                    ),
                )
            )


def test_the_recorder_writes_each_pages_site_and_kind(recorded: tuple[str, Path]) -> None:
    base, workdir = recorded
    kinds = {
        response.url: (response.site, response.page_kind, response.found_on)
        for response in iter_responses(archive_files([workdir / "crawl.warc.gz"]))
    }
    listing = f"{base}/list.html"
    assert kinds == {
        f"{base}/robots.txt": ("local", "other", None),
        listing: ("local", "listing", None),
        f"{base}/feed.xml": ("local", "feed", None),
        f"{base}/sitemap.xml": ("local", "sitemap", None),
        **{url: ("local", "article", listing) for url in article_urls(base)},
    }


def test_old_archive_falls_back_to_the_site_patterns(
    recorded: tuple[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same crawl without the recorded fields: the same articles, only the referer
    (which only the recorder knew) is gone."""
    base, workdir = recorded
    old = tmp_path / "old.warc.gz"
    strip_newscrawl_fields(workdir / "crawl-00000.warc.gz", old)
    assert next(iter_responses([old])).page_kind is None
    sites = workdir / "sites"
    assert (
        main(
            [
                "reextract",
                str(workdir / "crawl.warc.gz"),
                "-o",
                str(tmp_path / "new.jsonl"),
                "--sites",
                str(sites),
            ]
        )
        == 0
    )
    assert (
        main(["reextract", str(old), "-o", str(tmp_path / "old.jsonl"), "--sites", str(sites)]) == 0
    )
    new_items = read_jsonl(tmp_path / "new.jsonl")
    old_items = read_jsonl(tmp_path / "old.jsonl")
    assert sorted(str(item["url"]) for item in old_items) == sorted(article_urls(base))
    assert old_items == [{**item, "referer": None} for item in new_items]
    assert "not an article URL: 4" in capsys.readouterr().err  # robots, listing, feed, sitemap


def test_reextract_updates_exactly_the_articles_whose_body_changed(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with NotedSite(articles=ARTICLES) as site:
        crawl(site, tmp_path, f"NEWSCRAWL_DB_URL={db_url}", "NEWSCRAWL_EXTRACT_METHOD=paper")
    archive = tmp_path / "crawl.warc.gz"
    with open_store(db_url, create=False) as store:
        before = {row["canonical_url"]: row for row in store.iter_articles()}
    host = site.url.split("://", 1)[1]
    canonical = {url: url.replace(site.url, f"https://{host}") for url in article_urls(site.url)}
    assert sorted(before) == sorted(canonical.values())

    # Which bodies the new option changes, from the archived pages by the extractor alone.
    changed, unchanged = set(), set()
    for response in iter_responses(archive_files([archive])):
        if response.url in canonical:
            old = extract(response.body, response.url, options=CRAWLED).body
            new = extract(response.body, response.url, options=REEXTRACTED).body
            assert before[canonical[response.url]]["body"] == old
            (changed if new != old else unchanged).add(canonical[response.url])
    assert changed and unchanged

    monkeypatch.setattr(article_fields, "release", lambda: "9.9-reextract")
    out = tmp_path / "items.jsonl"
    arguments = ["reextract", str(archive), "--db", db_url, "-o", str(out)]
    arguments += [
        "--sites",
        str(tmp_path / "sites"),
        "--method",
        "paper",
        "--min-line-length",
        "40",
    ]
    assert main(arguments) == 0
    summary = capsys.readouterr().err
    assert (
        f"store: 0 new, {len(changed)} changed, {len(unchanged)} unchanged, 0 duplicate" in summary
    )

    with open_store(db_url, create=False) as store:
        after = {row["canonical_url"]: row for row in store.iter_articles()}
    assert sorted(after) == sorted(before)  # no listing, feed or robots.txt became an article
    for url, row in after.items():
        assert row["extractor_version"] == "9.9-reextract"
        assert row["first_seen"] == before[url]["first_seen"]
        if url in changed:
            assert row["body"] != before[url]["body"]
            assert row["last_changed"] > before[url]["last_changed"]
        else:
            assert row["body"] == before[url]["body"]
            assert row["last_changed"] == before[url]["last_changed"]
    items = read_jsonl(out)
    assert sorted(str(item["url"]) for item in items) == sorted(canonical)
    assert {item["referer"] for item in items} == {f"{site.url}/list.html"}
