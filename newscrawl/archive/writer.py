"""Write request/response pairs to WARC, one gzip member per record.

`ArchiveWriter` writes one file: opened for appending, so writing twice to the same path
adds to the archive instead of destroying it (replay then serves the most recent copy of a
URL). A crawl records through `RotatingArchiveWriter`, which writes numbered parts instead
(`newscrawl.archive.parts`): each part is a whole WARC file with its own warcinfo record.

warcio flushes the file after every record, so a crawl that dies leaves an archive that
reads cleanly up to its last complete record.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import UTC
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date
from warcio.warcwriter import WARCWriter

from newscrawl.archive.model import (
    FOUND_ON_FIELD,
    PAGE_KIND_FIELD,
    SITE_FIELD,
    ArchivedRequest,
    ArchivedResponse,
)
from newscrawl.archive.parts import existing_parts, part_path
from newscrawl.closing import Closing

logger = logging.getLogger(__name__)


class ArchiveWriter(Closing):
    """Writes a warcinfo record on open, then a response + request record per exchange.

    With `new`, the file must not exist yet (`FileExistsError`): a part is never appended
    to, since a crash may have cut its last record short."""

    def __init__(self, path: Path, info: Mapping[str, str], *, new: bool = False) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("xb" if new else "ab")
        self._warc = WARCWriter(self._file, gzip=path.name.endswith(".gz"))
        self._warc.write_record(self._warc.create_warcinfo_record(path.name, dict(info)))

    @property
    def size(self) -> int:
        """Bytes in the file so far, including what it held before when appended to."""
        return self._file.tell()

    def write(self, request: ArchivedRequest, response: ArchivedResponse) -> None:
        """Archive one exchange; WARC-Target-URI is the request URL, WARC-Date the fetch time,
        and the response's site, page kind and referring page go in fields of their own."""
        date = datetime_to_iso_date(response.fetched.astimezone(UTC).replace(tzinfo=None))
        fields = {
            SITE_FIELD: response.site,
            PAGE_KIND_FIELD: response.page_kind,
            FOUND_ON_FIELD: response.found_on,
        }
        status_line = f"{response.status} {_reason(response.status)}".rstrip()
        response_record = self._warc.create_warc_record(
            request.url,
            "response",
            payload=BytesIO(response.body),
            length=len(response.body),
            warc_headers_dict={
                "WARC-Date": date,
                **{name: value for name, value in fields.items() if value is not None},
            },
            http_headers=StatusAndHeaders(
                status_line, list(response.headers), protocol=response.protocol
            ),
        )
        request_record = self._warc.create_warc_record(
            request.url,
            "request",
            payload=BytesIO(request.body),
            length=len(request.body),
            http_headers=StatusAndHeaders(
                f"{request.method} {_request_target(request.url)} {response.protocol}",
                list(request.headers),
                is_http_request=True,
            ),
        )
        self._warc.write_request_response_pair(request_record, response_record)

    def close(self) -> None:
        self._file.close()


class RotatingArchiveWriter(Closing):
    """Writes `archive`'s parts (`newscrawl.archive.parts`): starts after the last part
    already on disk, and rolls over to the next one between exchanges once a part holds
    `max_bytes` or more (0: never), so a part passes the limit by at most one exchange and
    a request stays in the part of its response."""

    def __init__(self, archive: Path, info: Mapping[str, str], max_bytes: int) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must be 0 or more, not {max_bytes}")
        self._archive = archive
        self._info = dict(info)
        self._max_bytes = max_bytes
        self._number = 0
        existing = existing_parts(archive)
        self._part = self._open_part(existing[-1][0] + 1 if existing else 0)

    def _open_part(self, number: int) -> ArchiveWriter:
        """Part `number`, or the first free one after it (another crawl may record to the
        same archive): an existing part is never written to."""
        while True:
            path = part_path(self._archive, number)
            try:
                part = ArchiveWriter(path, self._info, new=True)
            except FileExistsError:
                number += 1
                continue
            logger.info("Recording to %s", path)
            self._number = number
            return part

    def write(self, request: ArchivedRequest, response: ArchivedResponse) -> None:
        """Archive one exchange, in a new part if the current one is full."""
        if self._max_bytes and self._part.size >= self._max_bytes:
            self._part.close()
            self._part = self._open_part(self._number + 1)
        self._part.write(request, response)

    def close(self) -> None:
        self._part.close()


def _reason(status: int) -> str:
    """The standard reason phrase (Scrapy does not keep the one the server sent)."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _request_target(url: str) -> str:
    """Path and query as they appear on an HTTP/1.1 request line."""
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
