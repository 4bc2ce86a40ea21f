"""What one archived HTTP exchange holds, free of both Scrapy and warcio types.

The writer, the replay index and `newscrawl reextract` share these, so the Scrapy side
and the command-line side never need each other's objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

HeaderPairs = tuple[tuple[str, str], ...]
"""HTTP headers in order, repeated names kept (Set-Cookie); values as latin-1 text."""

HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})

SITE_FIELD = "Newscrawl-Site"
PAGE_KIND_FIELD = "Newscrawl-Page-Kind"
FOUND_ON_FIELD = "Newscrawl-Found-On"
"""The WARC fields of a response record naming what the crawl knew of the page (see
`newscrawl.archive.middleware`); archives recorded before they existed lack them."""


def header_value(headers: HeaderPairs, name: str) -> str | None:
    """The first value of header `name` (case-insensitive), or None."""
    wanted = name.lower()
    return next((value for key, value in headers if key.lower() == wanted), None)


@dataclass(frozen=True, slots=True)
class ArchivedRequest:
    """A request as it left Scrapy (after every downloader middleware set its headers)."""

    method: str
    url: str
    headers: HeaderPairs
    body: bytes = b""


@dataclass(frozen=True, slots=True)
class ArchivedResponse:
    """A response as the archive holds it; `url` is the request URL it answered."""

    url: str
    status: int
    headers: HeaderPairs
    body: bytes
    fetched: datetime
    """When the response arrived (the record's WARC-Date), timezone-aware UTC."""
    protocol: str = "HTTP/1.1"
    site: str | None = None
    """The spider (site config name) that fetched it; None in archives older than the field."""
    page_kind: str | None = None
    """A `newscrawl.archive.page_kind.PageKind` value; None in archives older than the field."""
    found_on: str | None = None
    """The listing, feed, sitemap or API URL the link was found on, when the spider said."""

    def header(self, name: str) -> str | None:
        """The first value of header `name` (case-insensitive), or None."""
        return header_value(self.headers, name)

    @property
    def media_type(self) -> str | None:
        """The Content-Type without parameters, lower-cased; None when the header is absent."""
        value = self.header("Content-Type")
        return value.split(";", 1)[0].strip().lower() if value is not None else None

    def is_html(self) -> bool:
        """HTML or text by Content-Type, as the crawl's spider takes article pages (the
        extractor then tells a binary body apart); without one, sniffed for ``<html``."""
        media_type = self.media_type
        if media_type is None:
            return b"<html" in self.body[:1024].lower()
        return media_type in HTML_MEDIA_TYPES or media_type.startswith("text/")
