"""XML sitemaps and sitemap indexes (sitemaps.org), gzipped or not."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo
from urllib.parse import urljoin

from scrapy.utils.gz import gunzip

from newscrawl.discovery.dates import parse_datetime
from newscrawl.discovery.model import Entry, MalformedListError
from newscrawl.discovery.xml import child_text, local_name, parse_xml

_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True, slots=True)
class Sitemap:
    """A parsed sitemap: page URLs (``urlset``) or child sitemaps (``sitemapindex``)."""

    is_index: bool
    entries: list[Entry]
    """Each ``<loc>`` with its ``<lastmod>``."""


def parse_sitemap(body: bytes, base_url: str, zone: tzinfo, *, max_size: int = 0) -> Sitemap:
    """Parse `body` (gunzipped first when it is gzip, up to `max_size` bytes; 0 = no limit)."""
    if body.startswith(_GZIP_MAGIC):
        try:
            body = gunzip(body, max_size=max_size)
        except (OSError, EOFError, ValueError) as error:
            raise MalformedListError(f"bad gzip sitemap: {error}") from None
    root = parse_xml(body)
    kind = local_name(root)
    if kind not in {"urlset", "sitemapindex"}:
        raise MalformedListError(f"not a sitemap: root element <{kind}>")
    entries = []
    for element in root:
        loc = child_text(element, "loc")
        if local_name(element) in {"url", "sitemap"} and loc:
            lastmod = parse_datetime(child_text(element, "lastmod"), zone)
            entries.append(Entry(urljoin(base_url, loc), lastmod))
    return Sitemap(is_index=kind == "sitemapindex", entries=entries)
