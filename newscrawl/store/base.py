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
from typing import Any, NamedTuple

from newscrawl.closing import Closing
from newscrawl.store.records import ArticleRecord

STATS_PREFIX = "newscrawl/store/"
"""Crawl stats keys of the store and the incremental skip: ``newscrawl/store/new`` etc."""
MAX_KEY_URL_BYTES = 2083
"""The longest URL (UTF-8 bytes) the store keys an article or an alias on: Scrapy's
``URLLENGTH_LIMIT`` default, under the 2,704 bytes a PostgreSQL B-tree index row holds, so
one long URL cannot fail its whole batch. Scrapy holds the requests a spider yields to its
limit, not a redirect's target."""


def fits_a_key(url: str) -> bool:
    """Whether the store can key a row on `url` (`MAX_KEY_URL_BYTES`)."""
    return len(url.encode()) <= MAX_KEY_URL_BYTES


class WriteOutcome(StrEnum):
    """What writing one record did; the names are also the crawl stats keys."""

    NEW = "new"
    UPDATED = "updated"
    """Already stored and the body changed: `last_changed` moves, `first_seen` stays."""
    UNCHANGED = "unchanged"
    """Already stored with the same body: `last_changed` stays; the other extracted fields
    (metadata, extractor version) are refreshed."""
    DUPLICATE = "duplicate"
    """Same body as another stored article: kept only as an alias URL of it."""
    REFUSED = "refused"
    """Not stored: its canonical URL is longer than the store keys (`fits_a_key`)."""


def each_record_outcome(
    records: Sequence[ArticleRecord], outcomes: dict[str, WriteOutcome]
) -> list[WriteOutcome]:
    """The outcome of every record of a batch, from what `Store.write` returned for it (one
    outcome per canonical URL: the store writes each URL once). A URL the batch holds again
    (an article reached twice, as through a redirect) counts each later copy as written
    after the one before it: unchanged where its body is that copy's, else updated (refused
    as the first was, where it was). Counted so, a batch's outcomes add up to its records,
    whichever batch each copy fell into."""
    counted: list[WriteOutcome] = []
    body_before: dict[str, str | None] = {}
    for record in records:
        url = record.canonical_url
        if url not in body_before or outcomes[url] is WriteOutcome.REFUSED:
            counted.append(outcomes[url])
        elif body_before[url] == record.content_hash:
            counted.append(WriteOutcome.UNCHANGED)
        else:
            counted.append(WriteOutcome.UPDATED)
        body_before[url] = record.content_hash
    return counted


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


@dataclass(frozen=True, slots=True)
class SchemaChange:
    """What opening a store did to its schema: nothing, created it, or upgraded it."""

    created: bool = False
    upgrades: tuple[str, ...] = ()
    """The migrations applied, oldest first, each as "revision: what it does"."""
    revision: str | None = None
    """The revision the database is at now."""

    def describe(self) -> str | None:
        """One line saying what was done, or None when nothing was."""
        if self.created:
            return f"created the store (schema {self.revision})"
        if self.upgrades:
            return f"upgraded the store's schema to {self.revision} ({'; '.join(self.upgrades)})"
        return None


class StoreError(RuntimeError):
    """The store could not do what was asked (database unreachable, locked, full …).

    The message is one line: what failed, the URL with its password masked, and the
    driver's reason."""


class StoreUnavailable(StoreError):
    """The store could not be opened: a bad or unsupported URL, a missing SQLite file (for a
    reading command), a server that does not answer, a schema this release cannot use.

    Commands treat it as a usage error (exit status 2): the URL given must change, or the
    server it names must be started, before anything can work."""


class KeysRebuilt(NamedTuple):
    """What `Store.rebuild_keys` wrote: articles read, keys written, levels sealed."""

    articles: int
    keys: int
    sealed_levels: int


class Store(Closing, ABC):
    """Article storage. Backends implement these; callers never see SQL or a driver."""

    schema_change: SchemaChange = SchemaChange()
    """What opening the store did to its schema (created or upgraded it, or nothing)."""

    @abstractmethod
    def write(
        self, records: Sequence[ArticleRecord], *, changed_at: datetime | None = None
    ) -> dict[str, WriteOutcome]:
        """Upsert a batch in one transaction; the outcome per canonical URL.

        A changed body sets `last_changed` to `changed_at`, by default the record's fetch
        time; a re-extraction passes its own time, so exports ``--since`` find what it
        changed. `last_fetched` never moves back (a re-extracted archive is older)."""

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
        language: str | None = None,
    ) -> int:
        """How many articles `iter_articles` would yield with the same filters."""

    @abstractmethod
    def iter_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
        language: str | None = None,
        chunk: int = 1000,
    ) -> Iterator[dict[str, Any]]:
        """Stream articles (the `newscrawl.article.EXPORT_FIELDS`) changed at or after
        `since`, `chunk` rows at a time, in constant memory. With `min_confidence`, only
        those whose confidence is at least that: a NULL confidence is no evidence the body
        is right, so it is left out. With `language` (a BCP 47 tag such as ``zh``), only
        articles in it or a variant of it (``zh-CN``), ignoring case."""

    @abstractmethod
    def daily_counts(self) -> list[DayCount]:
        """Articles per site and day first seen."""

    @abstractmethod
    def site_summaries(self) -> list[SiteSummary]:
        """Totals per site."""

    @abstractmethod
    def rebuild_keys(self) -> KeysRebuilt:
        """Index every stored article's duplicate keys again, with this store's
        near-duplicate limit (0: the content keys alone), and seal the levels afresh: for a
        store whose keys were lost or written with detection off. Stop every writer first."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""
