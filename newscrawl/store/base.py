"""The store interface: what the crawl, the commands and the tests rely on, whatever backend.

A store keeps one row per article keyed on its canonical URL (`newscrawl.urls`), records the
other URLs an article was found under as aliases, and marks near-duplicates. `write` takes a
batch and commits it as one transaction, so a crash leaves either the whole batch or none.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from newscrawl.closing import Closing
from newscrawl.fingerprint import content_hash, simhash

STATS_PREFIX = "newscrawl/store/"
"""Crawl stats keys of the store and the incremental skip: ``newscrawl/store/new`` etc."""

EXPORT_FIELDS: tuple[str, ...] = (
    "canonical_url",
    "fetched_url",
    "site",
    "title",
    "body",
    "published_at",
    "author",
    "source",
    "language",
    "encoding",
    "first_seen",
    "last_fetched",
    "last_changed",
    "content_hash",
    "near_duplicate_of",
    "extractor_method",
    "extractor_version",
    "confidence",
)
"""The columns a corpus export carries, in order."""


class Outcome(StrEnum):
    """What writing one record did; the names are also the crawl stats keys."""

    NEW = "new"
    UPDATED = "updated"
    """Already stored and the body changed: `last_changed` moves, `first_seen` stays."""
    UNCHANGED = "unchanged"
    """Already stored with the same body: only `last_fetched` moves."""
    DUPLICATE = "duplicate"
    """Same body as another stored article: kept only as an alias URL of it."""


@dataclass(frozen=True, slots=True)
class ArticleRecord:
    """One article as the store receives it. Build with `of`, which fingerprints the body."""

    canonical_url: str
    fetched_url: str
    site: str
    title: str
    body: str
    fetched_at: datetime
    content_hash: str | None
    simhash: int | None
    published_at: datetime | None = None
    author: str | None = None
    source: str | None = None
    language: str | None = None
    encoding: str | None = None
    extractor_method: str | None = None
    extractor_version: str | None = None
    confidence: float | None = None
    """The extractor's confidence in the body, in [0, 1]; None when its method gives none."""
    aliases: tuple[str, ...] = ()
    """Other canonical URLs that led to this page (e.g. the URL before a redirect)."""

    @classmethod
    def of(cls, **fields: Any) -> ArticleRecord:
        """A record with `content_hash` and `simhash` computed from `body`."""
        body = fields["body"]
        return cls(content_hash=content_hash(body), simhash=simhash(body), **fields)


@dataclass(frozen=True, slots=True)
class DayCount:
    """Articles first seen on one day (UTC) for one site, and how many have an empty body."""

    site: str
    day: date
    articles: int
    empty_body: int


@dataclass(frozen=True, slots=True)
class SiteSummary:
    """One site's totals, when it was last fetched, and what its articles look like."""

    site: str
    articles: int
    empty_body: int
    last_fetched: datetime | None
    mean_confidence: float | None = None
    """Over the articles that have one (None: none has; the paper method gives none)."""
    mean_body_chars: float | None = None


class StoreError(RuntimeError):
    """The store could not do what was asked (database unreachable, locked, full …).

    The message is one line: what failed, the URL with its password masked, and the
    driver's reason."""


class StoreUnavailable(StoreError):
    """The store could not be opened: a bad or unsupported URL, a missing SQLite file (for a
    reading command), a server that does not answer, a schema this release cannot use.

    Commands treat it as a usage error (exit status 2): the URL given must change, or the
    server it names must be started, before anything can work."""


class Store(Closing, ABC):
    """Article storage. Backends implement these; callers never see SQL or a driver."""

    @abstractmethod
    def write(self, records: Sequence[ArticleRecord]) -> dict[str, Outcome]:
        """Upsert a batch in one transaction; the outcome per canonical URL."""

    @abstractmethod
    def is_known(self, canonical_url: str, *, older_than: datetime | None = None) -> bool:
        """True when the URL is stored (as an article or an alias).

        With `older_than`, only articles published (or else first seen) before it count, so
        younger ones are fetched again while they may still be edited.
        """

    @abstractmethod
    def count_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
    ) -> int:
        """How many articles `iter_articles` would yield with the same filters."""

    @abstractmethod
    def iter_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
        chunk: int = 1000,
    ) -> Iterator[dict[str, Any]]:
        """Stream articles (the `EXPORT_FIELDS`) changed at or after `since`, `chunk` rows at
        a time, in constant memory. With `min_confidence`, only those whose confidence is
        at least that: a NULL confidence is no evidence the body is right, so it is left out."""

    @abstractmethod
    def daily_counts(self) -> list[DayCount]:
        """Articles per site and day first seen."""

    @abstractmethod
    def site_summaries(self) -> list[SiteSummary]:
        """Totals per site."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""
