"""Read response records back out of WARC files, as stored or with the content decoded.

Replay wants the body exactly as the server sent it (still gzip-encoded, so Scrapy's own
HttpCompressionMiddleware decodes it as in a live crawl); re-extraction wants the decoded
content. Both go through `read_response`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from datetime import UTC
from pathlib import Path
from typing import BinaryIO

from w3lib.url import canonicalize_url
from warcio.archiveiterator import ArchiveIterator
from warcio.recordloader import ArcWarcRecord
from warcio.timeutils import iso_date_to_datetime

from newscrawl.archive.model import FOUND_ON_FIELD, PAGE_KIND_FIELD, SITE_FIELD, ArchivedResponse

_CODING_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})


def url_key(url: str) -> str:
    """The form URLs are matched in: Scrapy's canonical URL (no fragment, sorted query)."""
    return canonicalize_url(url)


def scan_responses(stream: BinaryIO) -> Iterator[tuple[int, str]]:
    """(offset, target URI) of every response record, without parsing HTTP headers."""
    records = ArchiveIterator(stream, no_record_parse=True)
    for record in records:
        url = record.rec_headers.get_header("WARC-Target-URI")
        if record.rec_type == "response" and url:
            yield records.get_record_offset(), url


def read_response_at(stream: BinaryIO, offset: int) -> ArchivedResponse:
    """The response record starting at `offset`, body as stored (see `read_response`)."""
    stream.seek(offset)
    return read_response(next(iter(ArchiveIterator(stream))), decode_content=False)


def read_response(record: ArcWarcRecord, *, decode_content: bool) -> ArchivedResponse:
    """Turn a response record into an `ArchivedResponse`.

    With `decode_content` (or when the body was stored chunked, which no HTTP client would
    accept back) the body is de-chunked and decompressed and the headers that described
    the old coding are dropped, so headers and body agree.
    """
    http = record.http_headers
    warc = record.rec_headers
    chunked = (http.get_header("Transfer-Encoding") or "").lower() == "chunked"
    if decode_content or chunked:
        body = record.content_stream().read()
        headers = tuple((k, v) for k, v in http.headers if k.lower() not in _CODING_HEADERS)
    else:
        body = record.raw_stream.read()
        headers = tuple(http.headers)
    return ArchivedResponse(
        url=warc.get_header("WARC-Target-URI"),
        status=int(http.get_statuscode()),
        headers=headers,
        body=body,
        fetched=iso_date_to_datetime(warc.get_header("WARC-Date")).replace(tzinfo=UTC),
        protocol=http.protocol or "HTTP/1.1",
        site=warc.get_header(SITE_FIELD),
        page_kind=warc.get_header(PAGE_KIND_FIELD),
        found_on=warc.get_header(FOUND_ON_FIELD),
    )


def iter_responses(
    paths: Iterable[Path],
    *,
    decode_content: bool = True,
    on_read: Callable[[int], object] = lambda _: None,
) -> Iterator[ArchivedResponse]:
    """Every response record of `paths` in archive order, one at a time (memory stays flat).

    `on_read` is told how many more bytes of the files were read after each record (of any
    type): a progress bar over the archive's size."""
    for path in paths:
        with path.open("rb") as stream:
            done = 0
            for record in ArchiveIterator(stream):
                if record.rec_type == "response":
                    yield read_response(record, decode_content=decode_content)
                on_read(stream.tell() - done)
                done = stream.tell()
            on_read(stream.tell() - done)
