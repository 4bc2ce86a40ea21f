"""The two items of a crawl: the page as fetched, and the article extracted from it.

`RawPage` is what spiders yield (kept whole so a page can be archived or re-extracted);
`ArticleItem` is what the extract pipeline hands on to feeds and stores. Both are plain
dataclasses read through `ItemAdapter`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


@dataclass(slots=True)
class RawPage:
    """An article page as downloaded, before extraction."""

    url: str
    """The URL that was requested (the discovered link, tracking parameters removed)."""
    final_url: str
    """The URL after redirects."""
    status: int
    headers: dict[str, list[str]]
    """Response headers, values decoded as Latin-1 (as HTTP defines them)."""
    body: bytes
    fetched: str
    """When the response arrived, ISO 8601 in UTC."""
    site: str
    referer: str | None
    """The listing page, feed, sitemap or API response the link was found on."""
    charset: str | None = None
    """The site config's charset override, which beats the HTTP header when decoding."""


@dataclass(slots=True)
class ArticleItem:
    """An extracted article, one line of the JSONL feed or one row of a store."""

    url: str
    final_url: str
    site: str
    title: str
    body: str
    fetched: str
    encoding: str | None
    """The encoding the page was decoded with."""
    method: str
    """The extractor method that produced `body`."""
    status: int
    referer: str | None
    confidence: float | None = None
    """How sure the extractor is that `body` is the article, in [0, 1]; None when its method
    gives no estimate (the paper method)."""
    # What the page says about itself (newscrawl.extract.metadata); None when it does not.
    published: str | None = None
    """Publication time, ISO 8601 with its offset."""
    author: str | None = None
    source: str | None = None
    """The outlet credited (来源), which on portals is often not the site itself."""
    editor: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    tags: list[str] = field(default_factory=list)
    top_image: str | None = None


def confidence_threshold(value: object) -> float:
    """`value` (a setting, a command-line option) as a minimum `ArticleItem.confidence`.

    A number from 0 to 1, given as one or as its text; anything else raises ValueError saying
    what was given, since a threshold outside the scale would silently keep or drop every page.
    """
    try:
        number = float(str(value))
    except ValueError:
        number = math.nan
    if not 0 <= number <= 1:
        raise ValueError(f"must be a number from 0 to 1, not {value!r}")
    return number
