"""What discovery finds: candidate article URLs with the date their list gave them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Entry:
    """One link from a feed, sitemap or list API; `published` is None when the list has no date."""

    url: str
    published: datetime | None = None


class MalformedListError(ValueError):
    """A feed, sitemap or list-API response that does not have the documented shape."""
