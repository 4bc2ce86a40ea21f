"""Telling a feed from a sitemap from an HTML page, for ``-a start_urls=`` of unknown kind."""

from __future__ import annotations

import re
from typing import Literal

_ROOT_RE = re.compile(rb"<(?:[\w-]+:)?(rss|feed|RDF|urlset|sitemapindex)[\s>]")
_SNIFF_BYTES = 2048


def sniff_kind(body: bytes) -> Literal["html", "rss", "sitemap"]:
    """The kind of list in `body`, judged by the first element of its first bytes."""
    match = _ROOT_RE.search(body[:_SNIFF_BYTES])
    if match is None:
        return "html"
    return "sitemap" if match.group(1) in {b"urlset", b"sitemapindex"} else "rss"
