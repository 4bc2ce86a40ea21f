"""Archives as other tools write them (Heritrix, warcio): every record kind, WARC/1.0 and
1.1, per-record gzip and plain, chunked bodies, a file cut short mid-record. ``newscrawl
reextract`` and the replay index read the HTTP responses and count what they skip by kind.

The archives are built here from bytes: warcio's `WARCWriter` for what it writes, and by
hand for Heritrix's ``dns:`` response record (a ``text/dns`` block, no HTTP headers).
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.statscollectors import StatsCollector
from scrapy.utils.test import get_crawler
from test_reextract import BUS, FETCHED, HTML, LIBRARY, RAIN, chunked, read_jsonl, reextract
from test_reextract import sites as sites  # (fixture)
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newscrawl.archive import ArchivedResponse, ArchiveIndex, iter_responses
from newscrawl.archive.middleware import ReplayMiddleware
from newscrawl.archive.reader import SkippedRecords
from newscrawl.commands.reextract import Reextraction
from newscrawl.store import open_store

BUS_CANONICAL = "https://news.example.cn/2024/bus.html"
DNS_BLOCK = b"20240510083000\nnews.example.cn.\t300\tIN\tA\t10.0.0.1\n"


def dns_record(version: str) -> bytes:
    """A Heritrix ``dns:`` lookup, a response record without HTTP headers."""
    head = (
        f"WARC/{version}\r\n"
        "WARC-Type: response\r\n"
        "WARC-Target-URI: dns:news.example.cn\r\n"
        f"WARC-Date: {FETCHED}\r\n"
        "WARC-IP-Address: 10.0.0.53\r\n"
        "WARC-Record-ID: <urn:uuid:6f1c1e5c-9f3a-4b8e-8a52-0c0ffee00001>\r\n"
        "Content-Type: text/dns\r\n"
        f"Content-Length: {len(DNS_BLOCK)}\r\n\r\n"
    )
    return head.encode() + DNS_BLOCK + b"\r\n\r\n"


def heritrix_archive(path: Path, version: str) -> None:
    """warcinfo, a dns lookup, then per page a request and its response (one chunked and
    gzip-encoded), a metadata record, a revisit, a resource and a conversion record."""
    buffer = BytesIO()
    writer = WARCWriter(buffer, gzip=False, warc_version=version)

    def emit(record: object) -> None:
        buffer.seek(0)
        buffer.truncate()
        writer.write_record(record)
        data = buffer.getvalue()
        with path.open("ab") as stream:
            stream.write(gzip.compress(data) if path.name.endswith(".gz") else data)

    emit(writer.create_warcinfo_record(path.name, {"software": "Heritrix/3.4.0"}))
    with path.open("ab") as stream:
        record = dns_record(version)
        stream.write(gzip.compress(record) if path.name.endswith(".gz") else record)
    pages = [
        (BUS.url, HTML, BUS.html().encode()),
        (
            RAIN.url,
            [
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip"),
                ("Transfer-Encoding", "chunked"),
            ],
            chunked(gzip.compress(RAIN.html().encode())),
        ),
    ]
    for url, headers, body in pages:
        request = writer.create_warc_record(
            url,
            "request",
            http_headers=StatusAndHeaders("GET / HTTP/1.1", [], is_http_request=True),
        )
        emit(request)
        emit(
            writer.create_warc_record(
                url,
                "response",
                payload=BytesIO(body),
                warc_headers_dict={"WARC-Date": FETCHED},
                http_headers=StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1"),
            )
        )
        emit(
            writer.create_warc_record(
                url,
                "metadata",
                payload=BytesIO(b"via: http://news.example.cn/\r\n"),
                warc_content_type="application/warc-fields",
            )
        )
    emit(
        writer.create_revisit_record(
            BUS.url,
            digest="sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            refers_to_uri=BUS.url,
            refers_to_date=FETCHED,
        )
    )
    emit(
        writer.create_warc_record(
            LIBRARY.url,
            "resource",
            payload=BytesIO(LIBRARY.html().encode()),
            warc_content_type="text/html",
        )
    )
    emit(
        writer.create_warc_record(
            RAIN.url, "conversion", payload=BytesIO(b"text"), warc_content_type="text/plain"
        )
    )


SKIPPED = "1 warcinfo, 1 dns, 2 request, 2 metadata, 1 revisit, 1 resource, 1 conversion"


def counts(summary: str) -> dict[str, int]:
    """``2 request, 1 dns`` -> {"request": 2, "dns": 1}: the summary in any order."""
    pairs = (part.split(" ", 1) for part in summary.split(", "))
    return {kind: int(count) for count, kind in pairs}


def reextract_into_store(
    path: Path, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *options: object
) -> tuple[int, str, str]:
    """``newscrawl reextract`` of `path` (with `options`) into a new SQLite store in
    `tmp_path`, which it creates: its exit status, its stderr (no traceback), the store's URL."""
    db_url = f"sqlite:///{tmp_path}/store.db"
    status = reextract(path, *options, "--db", db_url, "--sites", sites)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err, db_url


def stored_articles(db_url: str) -> int:
    with open_store(db_url, create=False) as store:
        return len(list(store.iter_articles()))


@pytest.mark.parametrize("version", ["1.0", "1.1"])
@pytest.mark.parametrize("name", ["heritrix.warc.gz", "heritrix.warc"])
def test_every_record_kind_is_read_or_counted(
    name: str, version: str, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    heritrix_archive(path, version)
    out = tmp_path / "out.jsonl"
    status, err, db_url = reextract_into_store(path, sites, tmp_path, capsys, "-o", out)
    assert status == 0
    assert [(item["url"], item["body"]) for item in read_jsonl(out)] == [
        (BUS.url, BUS.body),
        (RAIN.url, RAIN.body),
    ]
    line = next(line for line in err.splitlines() if "skipped records: " in line)
    assert counts(line.split("skipped records: ", 1)[1]) == counts(SKIPPED)
    assert stored_articles(db_url) == 2

    with ArchiveIndex([path]) as index:
        assert len(index) == 2
        assert index.skipped == counts(SKIPPED)
        replayed = index.get(RAIN.url)
        assert replayed is not None and replayed.status == 200
        assert replayed.body == RAIN.html().encode()  # de-chunked, so decoded


@pytest.mark.parametrize("name", ["cut.warc.gz", "cut.warc"])
@pytest.mark.parametrize("where", ["in the body", "in the WARC headers", "in the first line"])
def test_a_file_cut_mid_record_keeps_what_came_before(
    name: str,
    where: str,
    sites: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    heritrix_archive(path, "1.0")
    whole = path.read_bytes()
    last = len(whole)
    with path.open("ab") as stream:  # the next response, cut short
        record = BytesIO()
        WARCWriter(record, gzip=name.endswith(".gz")).write_record(
            WARCWriter(BytesIO()).create_warc_record(
                LIBRARY.url,
                "response",
                payload=BytesIO(LIBRARY.html().encode() * 20),
                http_headers=StatusAndHeaders("200 OK", HTML, protocol="HTTP/1.1"),
            )
        )
        data = record.getvalue()
        cut = {"in the body": len(data) - 200, "in the WARC headers": 60, "in the first line": 4}
        stream.write(data[: cut[where]])
    assert path.stat().st_size > last
    out = tmp_path / "out.jsonl"
    status, err, db_url = reextract_into_store(path, sites, tmp_path, capsys, "-o", out)
    assert status == 0
    assert [item["url"] for item in read_jsonl(out)] == [BUS.url, RAIN.url]
    assert counts(err.split("skipped records: ", 1)[1].splitlines()[0])["truncated"] == 1
    assert stored_articles(db_url) == 2
    with ArchiveIndex([path]) as index:
        assert len(index) == 2 and index.skipped["truncated"] == 1


def test_an_error_midway_keeps_what_was_extracted_before(
    sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes that are no WARC record after two articles: exit 1, the two are stored."""
    path = tmp_path / "junk.warc.gz"
    heritrix_archive(path, "1.1")
    with path.open("ab") as stream:
        stream.write(b"this is not a WARC record\r\n\r\n")
    status, err, db_url = reextract_into_store(path, sites, tmp_path, capsys)
    assert status == 1
    assert err.splitlines()[-1].startswith("newscrawl reextract: error: reading the archive")
    assert stored_articles(db_url) == 2


def test_a_record_over_the_size_limit_is_counted_not_read(tmp_path: Path) -> None:
    path = tmp_path / "big.warc.gz"
    heritrix_archive(path, "1.0")
    skipped = SkippedRecords()
    # BUS's record is over the limit; RAIN's gzip-encoded one is under it, its content not
    limit = len(RAIN.html().encode()) - 1
    assert list(iter_responses([path], skipped=skipped, limit=limit)) == []
    assert skipped["too large"] == 2
    with ArchiveIndex([path], limit=limit) as index:  # bodies served as stored
        assert index.get(BUS.url) is None and index.get(RAIN.url) is not None
        assert index.skipped["too large"] == 1


def test_an_unexpected_error_is_one_line_and_keeps_what_came_before(
    sites: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "pages.warc.gz"
    heritrix_archive(path, "1.1")
    add = Reextraction.add

    def failing_on_rain(job: Reextraction, response: ArchivedResponse) -> None:
        if response.url == RAIN.url:
            raise RuntimeError("a bug")
        add(job, response)

    monkeypatch.setattr(Reextraction, "add", failing_on_rain)
    status, err, db_url = reextract_into_store(path, sites, tmp_path, capsys)
    assert status == 1
    assert err.splitlines()[-1] == (
        "newscrawl reextract: error: failed after 1 response record(s): RuntimeError: a bug"
    )
    with open_store(db_url, create=False) as store:
        assert [a["canonical_url"] for a in store.iter_articles()] == [BUS_CANONICAL]


def test_replay_skips_records_over_the_crawls_download_maxsize(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc.gz"
    heritrix_archive(path, "1.1")
    limit = len(RAIN.html().encode()) - 1  # under BUS's record, over RAIN's gzip-encoded one
    crawler = get_crawler(Spider, {"NEWSCRAWL_REPLAY": str(path), "DOWNLOAD_MAXSIZE": limit})
    crawler.stats = StatsCollector(crawler)
    middleware = ReplayMiddleware.from_crawler(crawler)
    assert middleware.process_request(Request(BUS.url)).status == 404
    assert middleware.process_request(Request(RAIN.url)).status == 200
    assert crawler.stats.get_value("newscrawl/replay/skipped_records/too large") == 1
    assert crawler.stats.get_value("newscrawl/replay/skipped_records/dns") == 1
    middleware.spider_closed()


def response_record(url: str, block: bytes, *, date: str | None = FETCHED) -> bytes:
    """A hand-written WARC/1.1 response record (warcio writes only well-formed ones)."""
    fields = ["WARC/1.1", "WARC-Type: response"]
    fields += [f"WARC-Target-URI: {url}"] if url else []
    fields += [f"WARC-Date: {date}"] if date else []
    fields += [
        "WARC-Record-ID: <urn:uuid:6f1c1e5c-9f3a-4b8e-8a52-0c0ffee00002>",
        "Content-Type: application/http; msgtype=response",
        f"Content-Length: {len(block)}",
    ]
    return "\r\n".join(fields).encode() + b"\r\n\r\n" + block + b"\r\n\r\n"


NO_STATUS = "response without an HTTP status line"
NO_DATE = "response without a WARC-Date"
BUS_RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + BUS.html().encode()


@pytest.mark.parametrize(
    ("record", "kind"),
    [
        (response_record(RAIN.url, b"<html>no status line</html>"), NO_STATUS),
        (response_record(RAIN.url, b"200 OK\r\n\r\n<html></html>"), NO_STATUS),
        (response_record(RAIN.url, b""), NO_STATUS),
        (response_record(RAIN.url, BUS_RESPONSE, date=None), NO_DATE),
        (response_record(RAIN.url, BUS_RESPONSE, date="yesterday"), NO_DATE),
        (response_record("", BUS_RESPONSE), "response without a URL"),
    ],
)
def test_a_response_lacking_what_a_response_needs_is_counted(
    record: bytes, kind: str, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.warc"
    path.write_bytes(record + response_record(BUS.url, BUS_RESPONSE))
    out = tmp_path / "out.jsonl"

    assert reextract(path, "-o", out, "--sites", sites) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert [item["url"] for item in read_jsonl(out)] == [BUS.url]
    assert f"skipped records: 1 {kind}\n" in err
    with ArchiveIndex([path]) as index:  # a replay serves the good one, skips the other
        assert len(index) == 1 and index.get(BUS.url) is not None
        assert sum(index.skipped.values()) == 1


def test_a_record_just_over_the_size_limit_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "pages.warc"
    path.write_bytes(response_record(BUS.url, BUS_RESPONSE))
    size = len(BUS_RESPONSE)  # the record's Content-Length
    for limit, read in [(size, [BUS.url]), (size - 1, [])]:
        skipped = SkippedRecords()
        decoded = iter_responses([path], skipped=skipped, limit=limit)
        assert [response.url for response in decoded] == read
        assert skipped == ({} if read else {"too large": 1})
        with ArchiveIndex([path], limit=limit) as index:
            assert len(index) == len(read) and index.skipped == skipped


WHOLE_FILE_GZIP = (
    "gzip-compressed as one stream, not record by record: "
    "`warcio recompress FILE NEW_FILE` makes it a readable .warc.gz"
)


def whole_file_gzip(path: Path) -> None:
    """Two response records in one gzip stream (``gzip pages.warc``), not one per record."""
    data = response_record(BUS.url, BUS_RESPONSE) + response_record(RAIN.url, BUS_RESPONSE)
    path.write_bytes(gzip.compress(data))


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (whole_file_gzip, WHOLE_FILE_GZIP),
        (lambda path: path.write_bytes(b"<html>a page</html>\n"), "not a WARC file"),
    ],
)
def test_an_archive_that_is_no_warc_file_is_one_line_exit_2_and_creates_nothing(
    write: Callable[[Path], object],
    message: str,
    sites: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "pages.warc.gz"
    write(path)
    db = tmp_path / "store.db"
    assert reextract(path, "--db", f"sqlite:///{db}", "--sites", sites) == 2
    error = capsys.readouterr().err.splitlines()[0]
    assert error == f"newscrawl reextract: error: {path}: {message}"
    assert not db.exists()


def test_bytes_that_send_warcio_before_the_files_start_are_no_warc_file() -> None:
    """A mutated archive (tests/fixtures/archive/README.md) whose Content-Length gives warcio
    a negative offset: the reader's one-line error, not an OSError from seeking there."""
    path = Path(__file__).parent / "fixtures/archive/negative-offset.warc.gz"
    with pytest.raises(ArchiveLoadFailed, match="not a WARC file"):
        list(iter_responses([path]))
