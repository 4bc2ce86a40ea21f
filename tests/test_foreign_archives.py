"""Archives as other tools write them (Heritrix, warcio): every record kind, WARC/1.0 and
1.1, per-record gzip and plain, chunked bodies, a file cut short mid-record. ``newscrawl
reextract`` and the replay index read the HTTP responses and count what they skip by kind.

The archives are built here from bytes: warcio's `WARCWriter` for what it writes, and by
hand for Heritrix's ``dns:`` response record (a ``text/dns`` block, no HTTP headers).
"""

from __future__ import annotations

import gzip
from io import BytesIO
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.statscollectors import StatsCollector
from scrapy.utils.test import get_crawler
from test_reextract import BUS, FETCHED, HTML, LIBRARY, RAIN, chunked, read_jsonl, reextract
from test_reextract import sites as sites  # (fixture)
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


@pytest.mark.parametrize("version", ["1.0", "1.1"])
@pytest.mark.parametrize("name", ["heritrix.warc.gz", "heritrix.warc"])
def test_every_record_kind_is_read_or_counted(
    name: str, version: str, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    heritrix_archive(path, version)
    out = tmp_path / "out.jsonl"
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()

    assert reextract(path, "-o", out, "--db", db_url, "--sites", sites) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert [(item["url"], item["body"]) for item in read_jsonl(out)] == [
        (BUS.url, BUS.body),
        (RAIN.url, RAIN.body),
    ]
    line = next(line for line in err.splitlines() if "skipped records: " in line)
    assert counts(line.split("skipped records: ", 1)[1]) == counts(SKIPPED)
    with open_store(db_url, create=False) as store:
        assert len(list(store.iter_articles())) == 2

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
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()

    assert reextract(path, "-o", out, "--db", db_url, "--sites", sites) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert [item["url"] for item in read_jsonl(out)] == [BUS.url, RAIN.url]
    assert counts(err.split("skipped records: ", 1)[1].splitlines()[0])["truncated"] == 1
    with open_store(db_url, create=False) as store:
        assert len(list(store.iter_articles())) == 2
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
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()

    assert reextract(path, "--db", db_url, "--sites", sites) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith("newscrawl reextract: error: reading the archive")
    with open_store(db_url, create=False) as store:
        assert len(list(store.iter_articles())) == 2


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
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()
    add = Reextraction.add

    def failing_on_rain(job: Reextraction, response: ArchivedResponse) -> None:
        if response.url == RAIN.url:
            raise RuntimeError("a bug")
        add(job, response)

    monkeypatch.setattr(Reextraction, "add", failing_on_rain)
    assert reextract(path, "--db", db_url, "--sites", sites) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
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
