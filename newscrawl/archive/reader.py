"""Read HTTP response records back out of any WARC 1.0/1.1 file, skipping the others.

Replay wants the body exactly as the server sent it (still gzip-encoded, so Scrapy's own
HttpCompressionMiddleware decodes it as in a live crawl); re-extraction wants the decoded
content. Both go through `read_response`.

Archives other tools write hold more than HTTP responses: ``warcinfo``, ``request``,
``metadata``, ``revisit``, ``resource`` and ``conversion`` records, and response records of
other protocols (Heritrix's ``dns:`` lookups). Those, records larger than the page size
limit (never read into memory) and a last record the file ends inside (a crawl killed while
writing) are skipped and counted by kind (`SkippedRecords`); bytes that are no WARC record
at all raise warcio's `ArchiveLoadFailed`.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC
from pathlib import Path
from typing import BinaryIO, TypeVar

from w3lib.url import canonicalize_url
from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord
from warcio.timeutils import iso_date_to_datetime

from newscrawl.archive.model import FOUND_ON_FIELD, PAGE_KIND_FIELD, SITE_FIELD, ArchivedResponse
from newscrawl.bounded import PAGE_SIZE_LIMIT, TooLarge, read_at_most

_CODING_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})
HTTP_SCHEMES = ("http:", "https:")
TOO_LARGE = "too large"
TRUNCATED = "truncated"
_RECORD_STARTS = (b"WARC/", b"\x1f\x8b")
"""How a WARC record, or the gzip member holding one, begins: a file ending in a prefix of
one of these after its last whole record was cut short while a record was written."""

T = TypeVar("T")


class SkippedRecords(Counter[str]):
    """Records read past, by kind: a record type (``request``), the scheme of a non-HTTP
    response (``dns``), ``too large`` or ``truncated``."""

    def summary(self) -> str:
        """``3 dns, 1 warcinfo, 1 truncated``, most common first; empty when none."""
        return ", ".join(f"{count} {kind}" for kind, count in self.most_common())


def url_key(url: str) -> str:
    """The form URLs are matched in: Scrapy's canonical URL (no fragment, sorted query)."""
    return canonicalize_url(url)


def _unusable(record: ArcWarcRecord, limit: int, parsed: bool) -> str | None:
    """Why `record` is not an HTTP response this reader can use, or None when it is."""
    if record.rec_type != "response":
        return str(record.rec_type or "unknown")
    url = record.rec_headers.get_header("WARC-Target-URI") or ""
    if not url.lower().startswith(HTTP_SCHEMES):
        return url.split(":", 1)[0].lower() if ":" in url else "response without a URL"
    if int(record.rec_headers.get_header("Content-Length") or 0) > limit:
        return TOO_LARGE
    if parsed and not (record.http_headers and record.http_headers.get_statuscode().isdecimal()):
        return "response without an HTTP status line"
    return None


def scan_records(
    stream: BinaryIO,
    read: Callable[[int, ArcWarcRecord], T],
    skipped: SkippedRecords,
    *,
    limit: int = PAGE_SIZE_LIMIT,
    parse_http: bool = True,
) -> Iterator[T]:
    """``read(offset, record)`` of every whole HTTP response record of `stream` (at most
    `limit` bytes, or `read` raising `TooLarge`); the other records counted in `skipped`.

    With `parse_http` false the HTTP headers are left unparsed (a fast scan for offsets)."""
    records = ArchiveIterator(stream, no_record_parse=not parse_http)
    iterator = iter(records)
    while True:
        try:
            record = next(iterator)
        except StopIteration:
            break
        except (ArchiveLoadFailed, AttributeError, ValueError, EOFError, zlib.error) as error:
            # warcio fails in several ways on a record the file ends inside
            if not _cut_short(stream, records.offset):
                raise ArchiveLoadFailed(str(error)) from error
            skipped[TRUNCATED] += 1
            return
        offset = records.offset
        kind = _unusable(record, limit, parse_http)
        value = None
        if kind is None:
            try:
                value = read(offset, record)
            except TooLarge:
                kind = TOO_LARGE
            except ValueError:  # a date or header no parser takes
                kind = "unreadable response"
        records.read_to_end()
        # Bytes of the record's Content-Length still missing: the file ended inside it
        # (without a Content-Length, warcio read to the end of the file: a record cut short
        # in its WARC headers).
        if getattr(record.raw_stream, "limit", 1) > 0:
            kind = TRUNCATED
        if kind is not None:
            skipped[kind] += 1
        else:
            yield value  # type: ignore[misc]
    if _cut_short(stream, records.offset):
        skipped[TRUNCATED] += 1


def _cut_short(stream: BinaryIO, end: int) -> bool:
    """Whether the bytes after the last whole record (at `end`) are the start of a record
    the file ends inside; False when there are none. Raises `ArchiveLoadFailed` when they
    are something else."""
    stream.seek(end)
    rest = stream.read(64).lstrip(b"\r\n")
    if not rest:
        return False
    if any(rest.startswith(start) or start.startswith(rest) for start in _RECORD_STARTS):
        return True
    raise ArchiveLoadFailed(f"not a WARC record at offset {end}")


def scan_responses(
    stream: BinaryIO, skipped: SkippedRecords, *, limit: int = PAGE_SIZE_LIMIT
) -> Iterator[tuple[int, str]]:
    """(offset, target URI) of every HTTP response record, without parsing HTTP headers."""
    return scan_records(
        stream,
        lambda offset, record: (offset, record.rec_headers.get_header("WARC-Target-URI")),
        skipped,
        limit=limit,
        parse_http=False,
    )


def read_response_at(stream: BinaryIO, offset: int) -> ArchivedResponse:
    """The response record starting at `offset`, body as stored (see `read_response`)."""
    stream.seek(offset)
    return read_response(next(iter(ArchiveIterator(stream))), decode_content=False)


def read_response(
    record: ArcWarcRecord, *, decode_content: bool, limit: int = PAGE_SIZE_LIMIT
) -> ArchivedResponse:
    """Turn an HTTP response record into an `ArchivedResponse`; `TooLarge` when its body
    (decoded, if it is decoded) is over `limit` bytes.

    With `decode_content` (or when the body was stored chunked, which no HTTP client would
    accept back) the body is de-chunked and decompressed and the headers that described
    the old coding are dropped, so headers and body agree.
    """
    http = record.http_headers
    warc = record.rec_headers
    chunked = (http.get_header("Transfer-Encoding") or "").lower() == "chunked"
    if decode_content or chunked:
        body = read_at_most(record.content_stream(), limit)
        headers = tuple((k, v) for k, v in http.headers if k.lower() not in _CODING_HEADERS)
    else:
        body = read_at_most(record.raw_stream, limit)
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
    skipped: SkippedRecords | None = None,
    limit: int = PAGE_SIZE_LIMIT,
    on_read: Callable[[int], object] = lambda _: None,
) -> Iterator[ArchivedResponse]:
    """Every HTTP response record of `paths` in archive order, one at a time (memory stays
    flat); the records skipped are counted in `skipped`.

    `on_read` is told how many more bytes of the files were read after each response: a
    progress bar over the archive's size."""
    counts = SkippedRecords() if skipped is None else skipped

    def read(_offset: int, record: ArcWarcRecord) -> ArchivedResponse:
        return read_response(record, decode_content=decode_content, limit=limit)

    for path in paths:
        with path.open("rb") as stream:
            done = 0
            for response in scan_records(stream, read, counts, limit=limit):
                yield response
                on_read(stream.tell() - done)
                done = stream.tell()
            on_read(path.stat().st_size - done)
