"""Append request/response pairs to a WARC file, one gzip member per record.

warcio flushes the file after every record, so a crawl that dies leaves an archive that
reads cleanly up to its last complete record. The file is opened for appending: a second
crawl with the same path adds to the archive instead of destroying the first one (replay
then serves the most recent copy of a URL).
"""

from __future__ import annotations

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
from newscrawl.closing import Closing


class ArchiveWriter(Closing):
    """Writes a warcinfo record on open, then a response + request record per exchange."""

    def __init__(self, path: Path, info: Mapping[str, str]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("ab")
        self._warc = WARCWriter(self._file, gzip=path.name.endswith(".gz"))
        self._warc.write_record(self._warc.create_warcinfo_record(path.name, dict(info)))

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
