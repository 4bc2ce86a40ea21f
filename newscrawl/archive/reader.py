"""Read HTTP response records back out of any WARC 1.0/1.1 file, skipping the others.

Replay wants the body exactly as the server sent it (still gzip-encoded, so Scrapy's own
HttpCompressionMiddleware decodes it as in a live crawl); re-extraction wants the decoded
content. Both go through `read_response`.

Archives other tools write hold more than HTTP responses: ``warcinfo``, ``request``,
``metadata``, ``revisit``, ``resource`` and ``conversion`` records, and response records of
other protocols (Heritrix's ``dns:`` lookups). Those, responses without an HTTP status line
or a WARC-Date, records larger than the page size limit (never read into memory) and a last
record the file ends inside (a crawl killed while writing) are skipped and counted by kind
(`SkippedRecords`). Bytes that are no WARC record at all, or a file gzip-compressed as a
whole instead of record by record, raise `ArchiveLoadFailed` with a one-line message.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import BinaryIO, TypeVar

from w3lib.url import canonicalize_url
from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecord, ArcWarcRecordLoader
from warcio.statusandheaders import StatusAndHeaders, StatusAndHeadersParser

from newscrawl.archive.model import FOUND_ON_FIELD, PAGE_KIND_FIELD, SITE_FIELD, ArchivedResponse
from newscrawl.archive.parts import existing_archive_files
from newscrawl.bounded import PAGE_SIZE_LIMIT, TooLarge, read_at_most

_CODING_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})
HTTP_SCHEMES = ("http:", "https:")
TOO_LARGE = "too large"
TRUNCATED = "truncated"
NO_STATUS_LINE = "response without an HTTP status line"
NO_DATE = "response without a WARC-Date"
_RECORD_STARTS = (b"WARC/", b"\x1f\x8b")
"""How a WARC record, or the gzip member holding one, begins: a file ending in a prefix of
one of these after its last whole record was cut short while a record was written."""
_WHOLE_FILE_GZIP = "non-chunked gzip file detected"
"""Part of the error warcio raises for a file gzip-compressed as one stream."""
_HTTP_HEADERS = StatusAndHeadersParser(ArcWarcRecordLoader.HTTP_TYPES, verify=False)
"""warcio's own parser of a response record's HTTP head, as its ArchiveIterator uses it."""

T = TypeVar("T")


class SkippedRecords(Counter[str]):
    """Records read past, by kind: a record type (``request``), the scheme of a non-HTTP
    response (``dns``), ``too large``, ``truncated`` or what a response lacks."""

    def summary(self) -> str:
        """``3 dns, 1 warcinfo, 1 truncated``, most common first; empty when none."""
        return ", ".join(f"{count} {kind}" for kind, count in self.most_common())


class UnusableResponse(ValueError):
    """A response record without what a response needs; the message is its kind."""


def url_key(url: str) -> str:
    """The form URLs are matched in: Scrapy's canonical URL (no fragment, sorted query)."""
    return canonicalize_url(url)


def _unusable(record: ArcWarcRecord, limit: int) -> str | None:
    """Why `record` is not an HTTP response this reader can use, as far as its WARC headers
    tell, or None."""
    if record.rec_type != "response":
        return str(record.rec_type or "unknown")
    url = record.rec_headers.get_header("WARC-Target-URI") or ""
    if not url.lower().startswith(HTTP_SCHEMES):
        return url.split(":", 1)[0].lower() if ":" in url else "response without a URL"
    if record.length is not None and record.length > limit:  # warcio's Content-Length
        return TOO_LARGE
    return None


def scan_records(
    stream: BinaryIO,
    read: Callable[[int, ArcWarcRecord], T],
    skipped: SkippedRecords,
    *,
    limit: int = PAGE_SIZE_LIMIT,
) -> Iterator[T]:
    """``read(offset, record)`` of every whole HTTP response record of `stream` (at most
    `limit` bytes, or `read` raising `TooLarge`); the other records counted in `skipped`.

    Records are read with warcio's ``no_record_parse``: `read` is given the HTTP head
    unparsed (`read_response` parses it), so no record of another kind can fail warcio."""
    records = ArchiveIterator(stream, no_record_parse=True)
    iterator = iter(records)
    while True:
        try:
            record = next(iterator)
        except StopIteration:
            break
        except (ArchiveLoadFailed, AttributeError, ValueError, EOFError, zlib.error) as error:
            # warcio fails in several ways on a record the file ends inside
            _raise_unless_cut_short(error, stream, records.offset)
            skipped[TRUNCATED] += 1
            return
        offset = records.offset
        kind = _unusable(record, limit)
        value = None
        if kind is None:
            try:
                value = read(offset, record)
            except TooLarge:
                kind = TOO_LARGE
            except UnusableResponse as error:
                kind = str(error)
            except ValueError:  # a header no parser takes
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
    if _starts_a_record(stream, records.offset):
        skipped[TRUNCATED] += 1


def _raise_unless_cut_short(error: Exception, stream: BinaryIO, offset: int) -> None:
    """Raise `ArchiveLoadFailed` (one line) for warcio's `error` at `offset` unless the file
    ends inside the record starting there."""
    if _WHOLE_FILE_GZIP in str(error):
        raise ArchiveLoadFailed(
            "gzip-compressed as one stream, not record by record: "
            "`warcio recompress FILE NEW_FILE` makes it a readable .warc.gz"
        ) from None
    if not _starts_a_record(stream, offset):
        where = "not a WARC file" if offset <= 0 else f"not a WARC record at offset {offset}"
        raise ArchiveLoadFailed(where) from None


def _starts_a_record(stream: BinaryIO, offset: int) -> bool:
    """Whether the bytes from `offset` on are the start of a record the file ends inside;
    False when there are none or when they are something else, or when warcio, misled by a
    record's Content-Length, gives an offset before the file's start."""
    if offset < 0:
        return False
    stream.seek(offset)
    rest = stream.read(64).lstrip(b"\r\n")
    return bool(rest) and any(
        rest.startswith(start) or start.startswith(rest) for start in _RECORD_STARTS
    )


def check_archive(path: Path) -> None:
    """Raise `ArchiveLoadFailed` (one line) unless `path` begins as a WARC file this reader
    takes: its first two records (the second shows a file gzip-compressed as a whole)."""
    with path.open("rb") as stream:
        records = ArchiveIterator(stream, no_record_parse=True)
        try:
            for _ in islice(records, 2):
                pass
        except (ArchiveLoadFailed, AttributeError, ValueError, EOFError, zlib.error) as error:
            _raise_unless_cut_short(error, stream, records.offset)


def readable_archive_files(sources: Iterable[str | Path]) -> list[Path]:
    """The WARC files `sources` name (`existing_archive_files`), each beginning as one
    (`check_archive`); a ValueError of one line naming what is missing or unreadable."""
    files = existing_archive_files(sources)
    for path in files:
        try:
            check_archive(path)
        except ArchiveLoadFailed as error:
            raise ValueError(f"{path}: {error}") from None
        except OSError as error:
            raise ValueError(f"{path}: {error.strerror or error}") from None
    return files


def scan_responses(
    stream: BinaryIO, skipped: SkippedRecords, *, limit: int = PAGE_SIZE_LIMIT
) -> Iterator[tuple[int, str]]:
    """(offset, target URI) of every HTTP response record `read_response` takes, checked
    by `_checked_target` (a scan that leaves HTTP headers and bodies unread)."""
    return scan_records(
        stream, lambda offset, record: (offset, _checked_target(record)), skipped, limit=limit
    )


def read_response_at(stream: BinaryIO, offset: int) -> ArchivedResponse:
    """The response record starting at `offset`, body as stored (see `read_response`)."""
    stream.seek(offset)
    record = next(iter(ArchiveIterator(stream, no_record_parse=True)))
    return read_response(record, decode_content=False)


def _http_headers(record: ArcWarcRecord) -> StatusAndHeaders:
    """The HTTP status line and headers of a response record, parsed from its block when
    warcio left them unparsed (kept on the record: its `content_stream` decodes by them);
    `UnusableResponse` for an empty block."""
    if record.http_headers is None:
        try:
            record.http_headers = _HTTP_HEADERS.parse(record.raw_stream)
        except EOFError:  # an empty block
            raise UnusableResponse(NO_STATUS_LINE) from None
    http: StatusAndHeaders = record.http_headers
    return http


def _status_code(protocol: str, status: str) -> int:
    """The code of an HTTP status line split as warcio splits it (``HTTP/1.1``, ``200 OK``);
    `UnusableResponse` when it is no HTTP status line."""
    code = status.split(" ", 1)[0]
    is_code = len(code) == 3 and code.isascii() and code.isdecimal()
    if not (is_code and protocol.upper().startswith("HTTP/")):
        raise UnusableResponse(NO_STATUS_LINE)
    return int(code)


def _checked_target(record: ArcWarcRecord) -> str:
    """The target URI of a response record `read_response` will take, checked by reading its
    status line only (no headers, no body): the status line and the WARC-Date are what it can
    lack; `UnusableResponse` then."""
    line = StatusAndHeadersParser.decode_header(record.raw_stream.readline()).rstrip()
    protocol, _, status = line.partition(" ")
    _status_code(protocol, status.strip())
    _fetched(record.rec_headers.get_header("WARC-Date"))
    return str(record.rec_headers.get_header("WARC-Target-URI"))


def _fetched(date: str | None) -> datetime:
    """A record's WARC-Date (ISO 8601, ``Z`` or an offset, fractions of a second allowed)
    as an aware UTC datetime; `UnusableResponse` without a valid one."""
    try:
        fetched = datetime.fromisoformat(date or "")
    except ValueError:
        raise UnusableResponse(NO_DATE) from None
    return fetched.astimezone(UTC) if fetched.tzinfo else fetched.replace(tzinfo=UTC)


def _response_head(record: ArcWarcRecord) -> ArchivedResponse:
    """An HTTP response record's `ArchivedResponse` with its body left unread (empty);
    `UnusableResponse` when it lacks an HTTP status line or a WARC-Date."""
    http = _http_headers(record)
    warc = record.rec_headers
    return ArchivedResponse(
        url=warc.get_header("WARC-Target-URI"),
        status=_status_code(http.protocol, http.statusline),
        headers=tuple(http.headers),
        body=b"",
        fetched=_fetched(warc.get_header("WARC-Date")),
        protocol=http.protocol,
        site=warc.get_header(SITE_FIELD),
        page_kind=warc.get_header(PAGE_KIND_FIELD),
        found_on=warc.get_header(FOUND_ON_FIELD),
    )


def read_response(
    record: ArcWarcRecord, *, decode_content: bool, limit: int = PAGE_SIZE_LIMIT
) -> ArchivedResponse:
    """Turn an HTTP response record into an `ArchivedResponse`; `UnusableResponse` when it
    is none (`_response_head`), `TooLarge` when its body (decoded, if it is decoded) is over
    `limit` bytes.

    With `decode_content` (or when the body was stored chunked, which no HTTP client would
    accept back) the body is de-chunked and decompressed and the headers that described
    the old coding are dropped, so headers and body agree.
    """
    head = _response_head(record)
    chunked = (head.header("Transfer-Encoding") or "").lower() == "chunked"
    if decode_content or chunked:
        body = read_at_most(record.content_stream(), limit)
        headers = tuple((k, v) for k, v in head.headers if k.lower() not in _CODING_HEADERS)
        return replace(head, headers=headers, body=body)
    return replace(head, body=read_at_most(record.raw_stream, limit))


def iter_responses(
    paths: Iterable[Path],
    *,
    decode_content: bool = True,
    skipped: SkippedRecords | None = None,
    limit: int = PAGE_SIZE_LIMIT,
    on_read: Callable[[int], object] = lambda _: None,
) -> Iterator[ArchivedResponse]:
    """Every HTTP response record of `paths` in archive order, one at a time (memory stays
    flat); the records skipped are counted in `skipped`. `ArchiveLoadFailed` names the file.

    `on_read` is told how many more bytes of the files were read after each response: a
    progress bar over the archive's size."""
    counts = SkippedRecords() if skipped is None else skipped

    def read(_offset: int, record: ArcWarcRecord) -> ArchivedResponse:
        return read_response(record, decode_content=decode_content, limit=limit)

    for path in paths:
        with path.open("rb") as stream:
            done = 0
            try:
                for response in scan_records(stream, read, counts, limit=limit):
                    yield response
                    on_read(stream.tell() - done)
                    done = stream.tell()
            except ArchiveLoadFailed as error:
                raise ArchiveLoadFailed(f"{path}: {error}") from None
            on_read(path.stat().st_size - done)
