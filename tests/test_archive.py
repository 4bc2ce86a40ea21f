"""WARC record and replay: the writer and index alone, then real crawls in subprocesses.

The crawls run ``scrapy runspider`` on a fixture spider against a local server (one
reactor per process); the replays run the same spider with that server stopped.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

import pytest
from archive_fixtures.server import Page, serve
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newscrawl.archive import ArchivedRequest, ArchivedResponse, ArchiveIndex, ArchiveWriter

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SPIDER = Path(__file__).parent / "archive_fixtures" / "spider.py"

HTML = "text/html; charset=utf-8"
GBK_BODY = (
    "<html><head><title>国内新闻</title></head>"
    "<body><p>这是一段用GBK编码的中文正文。</p></body></html>"
).encode("gbk")
GZ_BODY = gzip.compress(
    "<html><head><title>压缩页面</title></head><body><p>服务器发送了gzip压缩的正文。</p></body></html>".encode()
)
PAGES = {
    "/robots.txt": Page(
        200, (("Content-Type", "text/plain"),), b"User-agent: *\nDisallow: /private.html\n"
    ),
    "/": Page(
        200,
        (("Content-Type", HTML),),
        b"<html><head><title>Index</title></head><body>"
        b'<a href="/utf8.html">a</a> <a href="/gbk.html">b</a> <a href="/old">c</a> '
        b'<a href="/gone.html">d</a> <a href="/gz.html">e</a> <a href="/private.html">f</a>'
        b"</body></html>",
    ),
    "/utf8.html": Page(
        200,
        (("Content-Type", HTML), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")),
        "<html><head><title>新闻标题</title></head><body><p>第一段正文。</p></body></html>".encode(),
    ),
    "/gbk.html": Page(200, (("Content-Type", "text/html; charset=gbk"),), GBK_BODY),
    "/old": Page(301, (("Location", "/moved.html"),)),
    "/moved.html": Page(
        200, (("Content-Type", HTML),), b"<html><head><title>Moved</title></head></html>"
    ),
    "/gone.html": Page(404, (("Content-Type", HTML),), b"<html><title>Gone</title></html>"),
    "/gz.html": Page(200, (("Content-Type", HTML), ("Content-Encoding", "gzip")), GZ_BODY),
    "/private.html": Page(200, (("Content-Type", HTML),), b"<title>robots say no</title>"),
}
FETCHED = set(PAGES) - {"/private.html"}


@dataclass(frozen=True)
class Crawl:
    items: list[dict[str, object]]
    stats: dict[str, int]


def crawl(tmp_path: Path, start_url: str, *settings: str) -> Crawl:
    """Run the fixture spider in its own process with `settings` (``NAME=value``)."""
    items_path = tmp_path / f"items-{len(list(tmp_path.iterdir()))}.jsonl"
    command = [sys.executable, "-m", "scrapy", "runspider", str(SPIDER)]
    command += ["-a", f"start_url={start_url}", "-O", str(items_path)]
    hermetic = ("AUTOTHROTTLE_ENABLED=False", "ITEM_PIPELINES={}", "NEWSCRAWL_DB_ENABLED=False")
    for setting in (*hermetic, *settings):
        command += ["-s", setting]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    stats = {k: int(v) for k, v in re.findall(r"'([\w/.]+)': (\d+)\b", done.stderr)}
    assert "log_count/ERROR" not in stats, done.stderr
    items = [json.loads(line) for line in items_path.read_text("utf-8").splitlines()]
    return Crawl(sorted(items, key=lambda item: str(item["url"])), stats)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Crawl]:
    """A live crawl of PAGES recorded to WARC; the server is gone once this returns."""
    tmp_path = tmp_path_factory.mktemp("record")
    archive = tmp_path / "crawl.warc.gz"
    with serve(PAGES) as base_url:
        result = crawl(tmp_path, f"{base_url}/", f"NEWSCRAWL_ARCHIVE={archive}")
    return base_url, archive.with_name("crawl-00000.warc.gz"), result  # its one part


def records_by_type(archive: Path) -> dict[str, list[tuple[dict[str, str], bytes, object]]]:
    """Read the archive with plain warcio: (WARC headers, raw HTTP payload, HTTP headers)."""
    found: dict[str, list[tuple[dict[str, str], bytes, object]]] = {}
    with archive.open("rb") as stream:
        for record in ArchiveIterator(stream):
            found.setdefault(record.rec_type, []).append(
                (dict(record.rec_headers.headers), record.raw_stream.read(), record.http_headers)
            )
    return found


def exchange(url: str, body: bytes, status: int = 200) -> tuple[ArchivedRequest, ArchivedResponse]:
    request = ArchivedRequest("GET", url, (("User-Agent", "test"),))
    response = ArchivedResponse(
        url, status, (("Content-Type", HTML),), body, datetime(2024, 5, 10, 8, 30, tzinfo=UTC)
    )
    return request, response


# --- the writer and the index, without Scrapy ---------------------------------------------


def test_index_returns_what_the_writer_stored(tmp_path: Path) -> None:
    archive = tmp_path / "a.warc.gz"
    with ArchiveWriter(archive, {"software": "test"}) as writer:
        writer.write(*exchange("http://example.com/a?x=1#frag", b"<p>one</p>"))
        writer.write(*exchange("http://example.com/b", b"", status=302))
    with ArchiveIndex([archive]) as index:
        assert len(index) == 2
        got = index.get("http://example.com/a?x=1")
        missing = index.get("http://example.com/c")
        redirect = index.get("http://example.com/b")
    assert got is not None and redirect is not None
    assert (got.status, got.body, got.headers) == (200, b"<p>one</p>", (("Content-Type", HTML),))
    assert got.fetched == datetime(2024, 5, 10, 8, 30, tzinfo=UTC)
    assert redirect.status == 302
    assert missing is None


def test_latest_record_of_a_url_wins_and_files_are_appended(tmp_path: Path) -> None:
    archive = tmp_path / "a.warc.gz"
    with ArchiveWriter(archive, {}) as writer:
        writer.write(*exchange("http://example.com/", b"old"))
    with ArchiveWriter(archive, {}) as writer:
        writer.write(*exchange("http://example.com/", b"new"))
    with ArchiveIndex([archive]) as index:
        got = index.get("http://example.com/")
    assert got is not None and got.body == b"new"
    assert len(records_by_type(archive)["warcinfo"]) == 2


def test_archive_is_readable_before_close(tmp_path: Path) -> None:
    """Each record is flushed, so a crawl that dies leaves every finished record readable."""
    archive = tmp_path / "a.warc.gz"
    writer = ArchiveWriter(archive, {})
    try:
        writer.write(*exchange("http://example.com/1", b"one"))
        writer.write(*exchange("http://example.com/2", b"two"))
        with ArchiveIndex([archive]) as index:
            assert len(index) == 2
    finally:
        writer.close()


# --- a real crawl recorded, then replayed ------------------------------------------------


def test_record_keeps_every_response_as_sent(recorded: tuple[str, Path, Crawl]) -> None:
    base_url, archive, _ = recorded
    records = records_by_type(archive)
    responses = {
        headers["WARC-Target-URI"]: (body, http) for headers, body, http in records["response"]
    }
    assert set(responses) == {base_url + path for path in FETCHED}
    for path in FETCHED:
        body, http = responses[base_url + path]
        assert int(http.get_statuscode()) == PAGES[path].status, path
        assert body == PAGES[path].body, path
    gz_http = responses[base_url + "/gz.html"][1]
    assert gz_http.get_header("Content-Encoding") == "gzip"
    utf8_http = responses[base_url + "/utf8.html"][1]
    assert [v for k, v in utf8_http.headers if k == "Set-Cookie"] == ["a=1", "b=2"]
    assert responses[base_url + "/old"][1].get_header("Location") == "/moved.html"


def test_record_pairs_each_response_with_its_request(recorded: tuple[str, Path, Crawl]) -> None:
    _, archive, _ = recorded
    records = records_by_type(archive)
    response_ids = {headers["WARC-Record-ID"]: headers for headers, _, _ in records["response"]}
    assert len(records["request"]) == len(response_ids)
    for headers, _, http in records["request"]:
        response_headers = response_ids[headers["WARC-Concurrent-To"]]
        assert headers["WARC-Target-URI"] == response_headers["WARC-Target-URI"]
        assert http.protocol == "GET"
        assert http.get_header("User-Agent")
    for headers in response_ids.values():
        fetched = datetime.fromisoformat(headers["WARC-Date"])
        assert abs((datetime.now(UTC) - fetched).total_seconds()) < 3600


def test_live_crawl_decoded_every_page(recorded: tuple[str, Path, Crawl]) -> None:
    base_url, _, result = recorded
    titles = {item["url"]: item["title"] for item in result.items}
    assert titles == {
        f"{base_url}/": "Index",
        f"{base_url}/utf8.html": "新闻标题",
        f"{base_url}/gbk.html": "国内新闻",
        f"{base_url}/moved.html": "Moved",
        f"{base_url}/gz.html": "压缩页面",
    }


def test_replay_produces_the_same_items(recorded: tuple[str, Path, Crawl], tmp_path: Path) -> None:
    base_url, archive, live = recorded
    replay = crawl(tmp_path, f"{base_url}/", f"NEWSCRAWL_REPLAY={archive}")
    assert replay.items == live.items
    assert replay.stats["newscrawl/replay/served"] == len(FETCHED)
    assert "newscrawl/replay/missing" not in replay.stats
    assert replay.stats["downloader/response_status_count/301"] == 1


def test_replay_answers_unknown_urls_with_a_counted_404(
    recorded: tuple[str, Path, Crawl], tmp_path: Path
) -> None:
    base_url, archive, _ = recorded
    replay = crawl(tmp_path, f"{base_url}/not-recorded.html", f"NEWSCRAWL_REPLAY={archive}")
    assert replay.items == []
    assert replay.stats["newscrawl/replay/missing"] == 1
    assert replay.stats["downloader/response_status_count/404"] == 1


def test_replay_from_a_directory_of_archives(
    recorded: tuple[str, Path, Crawl], tmp_path: Path
) -> None:
    """Records split over two files in one directory replay as one archive."""
    base_url, archive, live = recorded
    parts = tmp_path / "parts"
    parts.mkdir()
    with (
        archive.open("rb") as source,
        (parts / "a.warc.gz").open("wb") as first,
        (parts / "b.warc").open("wb") as second,
    ):
        writers = (WARCWriter(first, gzip=True), WARCWriter(second, gzip=False))
        for number, record in enumerate(ArchiveIterator(source)):
            writers[number % 2].write_record(record)
    (parts / "notes.txt").write_text("not an archive")
    replay = crawl(tmp_path, f"{base_url}/", f"NEWSCRAWL_REPLAY={parts}")
    assert replay.items == live.items
    assert "newscrawl/replay/missing" not in replay.stats


def test_replay_treats_a_missing_robots_txt_as_allowed(tmp_path: Path) -> None:
    archive = tmp_path / "one-page.warc.gz"
    url = "http://127.0.0.1:9/only.html"  # port 9 (discard): nothing listens there
    with archive.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        writer.write_record(
            writer.create_warc_record(
                url,
                "response",
                payload=BytesIO(b"<title>only</title>"),
                http_headers=StatusAndHeaders("200 OK", [("Content-Type", HTML)], "HTTP/1.1"),
            )
        )
    replay = crawl(tmp_path, url, f"NEWSCRAWL_REPLAY={archive}", "ROBOTSTXT_OBEY=True")
    assert [item["title"] for item in replay.items] == ["only"]
    assert replay.stats["newscrawl/replay/missing"] == 1  # the robots.txt
