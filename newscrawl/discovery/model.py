"""What discovery finds: candidate article URLs with the date their list gave them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urljoin


@dataclass(frozen=True, slots=True)
class Entry:
    """One link from a feed, sitemap or list API; `published` is None when the list has no date."""

    url: str
    published: datetime | None = None


class MalformedListError(ValueError):
    """A feed, sitemap or list-API response that does not have the documented shape."""


def absolute_url(base_url: str, link: str) -> str:
    """`link` resolved against the list's `base_url`; as written when it cannot be resolved
    (``urljoin`` raises on an unclosed IPv6 bracket): one such link must not cost the list
    its other entries, and the spider counts and skips it (`SiteSpider._requestable`)."""
    try:
        return urljoin(base_url, link)
    except ValueError:
        return link
