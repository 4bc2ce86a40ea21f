"""WARC rotation: a recorded archive rolls over into numbered parts by size, and every reader
(the replay index, ``newscrawl reextract``, a replayed crawl) takes the parts in write order.

Most tests drive `RotatingArchiveWriter` and the readers directly; one records a real crawl
(``scrapy runspider`` against a local server) into parts and replays it, and one re-extracts
a directory of parts against the same pages in one unrotated file.
"""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from archive_fixtures.server import serve
from scrapy import Spider
from scrapy.utils.test import get_crawler
from test_archive import FETCHED, PAGES, PROJECT_ROOT, SPIDER, crawl
from test_reextract import BUS, NEWS_TOML, RAIN, Article, read_jsonl, recorded
from warcio.archiveiterator import ArchiveIterator

from newscrawl.archive import (
    ArchivedRequest,
    ArchivedResponse,
    ArchiveIndex,
    ArchiveWriter,
    RotatingArchiveWriter,
    archive_files,
    iter_responses,
)
from newscrawl.archive.middleware import ArchiveRecorderMiddleware
from newscrawl.cli import main
from newscrawl.crawl_contract import SettingError

LIMIT = 4096
"""Bytes per part in the writer tests: three or four of the exchanges below."""
INFO = {"software": "test_warc_rotation"}


def exchange(number: int, body: bytes | None = None) -> tuple[ArchivedRequest, ArchivedResponse]:
    """Page `number`: by default 1,000 random bytes, which gzip cannot shrink."""
    url = f"http://example.com/{number}.html"
    body = random.Random(number).randbytes(1000) if body is None else body
    when = datetime(2024, 5, 10, 8, 30, tzinfo=UTC)
    response = ArchivedResponse(url, 200, (("Content-Type", "text/html"),), body, when)
    return ArchivedRequest("GET", url, (("User-Agent", "test"),)), response


def write(archive: Path, numbers: range, max_bytes: int = LIMIT) -> None:
    with RotatingArchiveWriter(archive, INFO, max_bytes) as writer:
        for number in numbers:
            writer.write(*exchange(number))


def part_names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def read_part(path: Path) -> list[tuple[str, str | None, bytes]]:
    """(record type, target URI, payload) of every record of one file, by plain warcio."""
    with path.open("rb") as stream:
        return [
            (
                record.rec_type,
                record.rec_headers.get_header("WARC-Target-URI"),
                record.content_stream().read(),
            )
            for record in ArchiveIterator(stream)
        ]


def last_exchange_offset(path: Path) -> int:
    """Where the file's last response record starts: its size before the last exchange."""
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        return [records.get_record_offset() for r in records if r.rec_type == "response"][-1]


# --- the writer ------------------------------------------------------------------------------


def test_a_small_limit_gives_several_whole_parts_named_in_write_order(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    write(archive, range(20))
    names = part_names(tmp_path)
    assert len(names) >= 4
    assert names == [f"crawl-{n:05d}.warc.gz" for n in range(len(names))]
    urls: list[str | None] = []
    for name in names:
        path = tmp_path / name
        records = read_part(path)  # each part reads on its own, to its end
        assert records[0][:2] == ("warcinfo", None)
        pairs = records[1:]
        assert pairs and len(pairs) % 2 == 0  # no exchange split across parts
        for (kind, url, body), (next_kind, next_url, _) in zip(
            pairs[::2], pairs[1::2], strict=True
        ):
            assert (kind, next_kind, next_url) == ("response", "request", url)
            number = int(str(url).rsplit("/", 1)[1].split(".")[0])
            assert body == exchange(number)[1].body
            urls.append(url)
        if name != names[-1]:  # full: at the limit after its last exchange, not before it
            assert path.stat().st_size >= LIMIT
            assert last_exchange_offset(path) < LIMIT
    assert urls == [f"http://example.com/{n}.html" for n in range(20)]


def test_each_part_names_itself_in_its_warcinfo(tmp_path: Path) -> None:
    write(tmp_path / "crawl.warc", range(8))
    for path in archive_files([tmp_path / "crawl.warc"]):
        with path.open("rb") as stream:
            info = next(iter(ArchiveIterator(stream)))
            assert info.rec_headers.get_header("WARC-Filename") == path.name
            assert b"software: test_warc_rotation" in info.content_stream().read()


def test_no_limit_keeps_one_part_per_crawl(tmp_path: Path) -> None:
    write(tmp_path / "crawl.warc.gz", range(20), max_bytes=0)
    write(tmp_path / "crawl.warc.gz", range(20, 25), max_bytes=0)
    assert part_names(tmp_path) == ["crawl-00000.warc.gz", "crawl-00001.warc.gz"]


def test_a_resumed_crawl_starts_a_new_part_and_leaves_the_old_ones_alone(tmp_path: Path) -> None:
    """The crawl before died mid-record: its last part ends in half a record."""
    archive = tmp_path / "crawl.warc.gz"
    write(archive, range(10))
    before = {name: (tmp_path / name).read_bytes() for name in part_names(tmp_path)}
    last = tmp_path / max(before)
    last.write_bytes(before[last.name][:-50])
    before[last.name] = last.read_bytes()

    write(archive, range(10, 12))
    after = part_names(tmp_path)
    assert after == [*before, f"crawl-{len(before):05d}.warc.gz"]
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    resumed = read_part(tmp_path / after[-1])
    assert [url for kind, url, _ in resumed if kind == "response"] == [
        "http://example.com/10.html",
        "http://example.com/11.html",
    ]


def test_a_part_another_writer_took_meanwhile_is_skipped(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    taken = tmp_path / "crawl-00001.warc.gz"
    with RotatingArchiveWriter(archive, INFO, LIMIT) as writer:
        taken.write_bytes(b"another crawl's part")
        for number in range(8):
            writer.write(*exchange(number))
    assert taken.read_bytes() == b"another crawl's part"
    assert part_names(tmp_path)[:3] == [
        "crawl-00000.warc.gz",
        "crawl-00001.warc.gz",
        "crawl-00002.warc.gz",
    ]


# --- reading the parts -----------------------------------------------------------------------


def test_the_archive_name_and_its_directory_read_every_record_once_in_order(
    tmp_path: Path,
) -> None:
    """An archive recorded before rotation (the plain file of that name) comes first, as it
    was written first: by name it would sort after its parts."""
    archive = tmp_path / "crawl.warc.gz"
    with ArchiveWriter(archive, INFO) as old:
        old.write(*exchange(100))
    write(archive, range(20))
    files = archive_files([archive])
    assert [path.name for path in files][:2] == ["crawl.warc.gz", "crawl-00000.warc.gz"]
    assert archive_files([tmp_path]) == files
    expected = [f"http://example.com/{n}.html" for n in (100, *range(20))]
    assert [response.url for response in iter_responses(files)] == expected


def test_a_part_named_alone_is_just_that_part(tmp_path: Path) -> None:
    write(tmp_path / "crawl.warc.gz", range(20))
    part = tmp_path / "crawl-00001.warc.gz"
    assert archive_files([part]) == [part]
    assert archive_files([tmp_path / "other.warc.gz"]) == [tmp_path / "other.warc.gz"]


def test_the_replay_index_covers_every_part_and_serves_the_latest_copy(tmp_path: Path) -> None:
    archive = tmp_path / "crawl.warc.gz"
    write(archive, range(20))
    with RotatingArchiveWriter(archive, INFO, LIMIT) as writer:  # a later crawl
        writer.write(*exchange(3, b"<p>new</p>"))
    with ArchiveIndex(archive_files([archive])) as index:
        assert len(index) == 20
        for number in range(20):
            got = index.get(f"http://example.com/{number}.html")
            assert got is not None
            assert got.body == (b"<p>new</p>" if number == 3 else exchange(number)[1].body)


def test_reextract_over_a_directory_of_parts_equals_one_unrotated_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sites = tmp_path / "sites"
    sites.mkdir()
    (sites / "news.toml").write_text(NEWS_TOML, encoding="utf-8")
    articles = [
        Article(f"http://news.example.cn/2024/n{n}.html", f"第{n}条：{BUS.title}", BUS.paragraphs)
        for n in range(12)
    ]
    edited = Article(articles[2].url, articles[2].title, RAIN.paragraphs)
    responses = [
        recorded("http://news.example.cn/", "listing"),
        *(recorded(article, "article") for article in articles),
        recorded(edited, "article"),  # recorded again later: the later copy is last
    ]
    whole, parts = tmp_path / "whole.warc.gz", tmp_path / "parts"
    with ArchiveWriter(whole, INFO) as writer:
        for response in responses:
            writer.write(ArchivedRequest("GET", response.url, ()), response)
    with RotatingArchiveWriter(parts / "news.warc.gz", INFO, 2048) as rotating:
        for response in responses:
            rotating.write(ArchivedRequest("GET", response.url, ()), response)
    assert len(list(parts.iterdir())) >= 3

    outputs = []
    for source in (whole, parts, parts / "news.warc.gz"):
        out = tmp_path / f"{source.name}.jsonl"
        assert main(["reextract", str(source), "-o", str(out), "--sites", str(sites)]) == 0
        outputs.append(read_jsonl(out))
    assert outputs[0] == outputs[1] == outputs[2]
    assert [item["url"] for item in outputs[0]] == [a.url for a in (*articles, edited)]
    assert outputs[0][-1]["body"] == edited.body
    assert f"from {len(list(parts.iterdir()))} archive file(s)" in capsys.readouterr().err


def test_reextract_names_an_archive_with_no_file_and_no_parts_as_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "crawl.warc.gz", range(3))
    nothing = tmp_path / "nothing.warc.gz"
    assert main(["reextract", str(nothing), "-o", str(tmp_path / "out.jsonl")]) == 2
    assert f"no such archive: {nothing}" in capsys.readouterr().err


# --- a real crawl, recorded in parts and replayed --------------------------------------------


@pytest.mark.slow  # a subprocess (see SLOW_MODULES in conftest.py)
def test_a_crawl_recorded_in_parts_replays_from_its_archive_name(tmp_path: Path) -> None:
    archive = tmp_path / "warc" / "crawl.warc.gz"
    with serve(PAGES) as base_url:
        live = crawl(
            tmp_path,
            f"{base_url}/",
            f"NEWSCRAWL_ARCHIVE={archive}",
            "NEWSCRAWL_ARCHIVE_MAX_BYTES=1024",
        )
    parts = part_names(archive.parent)
    assert len(parts) >= 3
    assert parts == [f"crawl-{n:05d}.warc.gz" for n in range(len(parts))]
    assert live.stats["newscrawl/archive/records"] == len(FETCHED)

    replay = crawl(tmp_path, f"{base_url}/", f"NEWSCRAWL_REPLAY={archive}")
    assert replay.items == live.items
    assert replay.stats["newscrawl/replay/served"] == len(FETCHED)
    assert "newscrawl/replay/missing" not in replay.stats


# --- the settings ----------------------------------------------------------------------------


class RecordingSpider(Spider):
    name = "recording"


def recorder(tmp_path: Path, **settings: object) -> ArchiveRecorderMiddleware:
    archive = str(tmp_path / "a.warc.gz")
    crawler = get_crawler(RecordingSpider, {"NEWSCRAWL_ARCHIVE": archive, **settings})
    return ArchiveRecorderMiddleware.from_crawler(crawler)


@pytest.mark.parametrize("value", [-1, "-5", "1.5", 1.5, "1e9", "1 GB", "", None, True])
def test_a_bad_size_limit_fails_at_start(tmp_path: Path, value: object) -> None:
    with pytest.raises(SettingError) as failure:
        recorder(tmp_path, NEWSCRAWL_ARCHIVE_MAX_BYTES=value)
    assert str(failure.value) == (
        f"NEWSCRAWL_ARCHIVE_MAX_BYTES must be a whole number of bytes (0: no limit), not {value!r}"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", [0, "0", 4096, " 1000000000 "])
def test_a_whole_number_of_bytes_is_a_limit(tmp_path: Path, value: object) -> None:
    recorder(tmp_path, NEWSCRAWL_ARCHIVE_MAX_BYTES=value).spider_closed()
    assert part_names(tmp_path) == ["a-00000.warc.gz"]


def test_an_archive_name_without_a_warc_suffix_fails_at_start(tmp_path: Path) -> None:
    crawler = get_crawler(
        RecordingSpider, settings_dict={"NEWSCRAWL_ARCHIVE": str(tmp_path / "a.bin")}
    )
    with pytest.raises(SettingError, match=r"must name a \*\.warc or \*\.warc\.gz file"):
        ArchiveRecorderMiddleware.from_crawler(crawler)


@pytest.mark.slow  # a subprocess (see SLOW_MODULES in conftest.py)
def test_scrapy_stops_on_a_bad_size_limit_with_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "scrapy", "runspider", str(SPIDER)]
    command += ["-a", "start_url=http://127.0.0.1:9/"]  # port 9: nothing listens there
    for setting in (
        f"NEWSCRAWL_ARCHIVE={tmp_path / 'a.warc.gz'}",
        "NEWSCRAWL_ARCHIVE_MAX_BYTES=-5",
        "NEWSCRAWL_DB_ENABLED=False",
        "LOG_LEVEL=ERROR",
    ):
        command += ["-s", setting]
    done = subprocess.run(
        command, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "NEWSCRAWL_ARCHIVE_MAX_BYTES must be a whole number of bytes (0: no limit), not '-5'"
    ]
