"""The two items of a crawl: the page as fetched, and the article extracted from it.

`RawPage` is what spiders yield (kept whole so a page can be archived or re-extracted);
`ArticleItem` is what the extract pipeline hands on to feeds and stores, its fields derived
from `newscrawl.article.FIELDS`. Both are plain dataclasses read through `ItemAdapter`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, make_dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from newscrawl.article import ITEM_FIELDS, ArticleField, Kind

if TYPE_CHECKING:
    from scrapy.http import Response


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
    timezone: str | None = None
    """The site config's time zone (an IANA name), for the dates its pages write without an
    offset; None: the extractor's default (Asia/Shanghai)."""

    @classmethod
    def from_response(
        cls,
        response: Response,
        *,
        site: str,
        referer: str | None = None,
        charset: str | None = None,
        timezone: str | None = None,
    ) -> RawPage:
        """The page a spider yields for an article `response`, fetched now.

        `url` is the URL first requested (before redirects); `referer` defaults to the
        Referer header Scrapy sent (the listing the link was found on).
        """
        if referer is None and response.request is not None:
            sent = response.request.headers.get("Referer")
            referer = sent.decode("latin-1") if sent else None
        return cls(
            url=(response.meta.get("redirect_urls") or [response.url])[0],
            final_url=response.url,
            status=response.status,
            headers={
                key.decode("latin-1"): [value.decode("latin-1") for value in values]
                for key, values in response.headers.items()
            },
            body=response.body,
            fetched=datetime.now(UTC).isoformat(timespec="seconds"),
            site=site,
            referer=referer,
            charset=charset,
            timezone=timezone,
        )


_PYTHON_TYPES: dict[Kind, Any] = {
    Kind.TEXT: str,
    Kind.INTEGER: int,
    Kind.NUMBER: float,
    Kind.TIME: str,  # ISO 8601 with its offset, as the JSONL feed writes it
    Kind.TEXTS: list[str],
    Kind.FINGERPRINT: int,
}


def _item_field(article_field: ArticleField) -> tuple[str, Any, Any]:
    """(name, type, dataclass field) of one item field: required ones take no default."""
    python_type = _PYTHON_TYPES[article_field.kind]
    if article_field.required:
        return article_field.name, python_type, field()
    if article_field.kind is Kind.TEXTS:
        return article_field.name, python_type, field(default_factory=list)
    return article_field.name, python_type | None, field(default=None)


ArticleItem: type = make_dataclass(
    "ArticleItem",
    # Required fields first: a dataclass takes no field without a default after one with.
    [_item_field(f) for f in sorted(ITEM_FIELDS, key=lambda f: not f.required)],
    slots=True,
)
"""An extracted article, one line of the JSONL feed or one row of a store: the fields of
`newscrawl.article.ITEM_FIELDS`, where each is declared with its meaning."""
ArticleItem.__module__ = __name__  # make_dataclass's default; pickling finds the class here


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
