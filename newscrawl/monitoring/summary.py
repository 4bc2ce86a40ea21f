"""A crawl's run summary, read off its Scrapy stats: what it fetched, stored and lost, and why.

One `RunSummary` per crawl: logged as one line at the end, kept in the stats as
``newscrawl/summary``, written as JSON where ``NEWSCRAWL_SUMMARY_FILE`` says (the scheduler
reads it into its history) and judged by the monitors of `newscrawl.monitoring.monitors`.
Pure functions of the stats dict, so tests need no crawl.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from newscrawl.store.base import STATS_PREFIX as STORE_PREFIX
from newscrawl.store.base import WriteOutcome

DROPPED_PREFIX = "newscrawl/dropped/"
"""Articles the pipelines dropped, by reason (extraction gave no text, low confidence …)."""
SKIPPED_PREFIX = "newscrawl/skipped/"
"""Responses the spider did not hand on as articles, by reason (not HTML, max_pages …)."""
FAILED_PREFIX = "newscrawl/failed/"
"""Requests that failed for good (after retries), by HTTP status or exception class."""
DISCOVERY_PREFIX = "newscrawl/discovery/"
"""Feed, sitemap and API entries not asked for, and lists not read as written, by reason
(``too_old``, ``not_article``, ``malformed/rss`` …)."""
TOO_OLD = "too_old"
"""The `DISCOVERY_PREFIX` reason of entries dated before ``-a since``."""
ARTICLE_REQUESTS = "newscrawl/requests/article"
"""Article pages the spider asked for (the incremental skip's hits included)."""
STORE_SKIPPED = f"{STORE_PREFIX}skipped_seen"
"""Article requests the incremental skip answered from the store (not fetched again)."""
ARTICLES_WITH_PREFIX = "newscrawl/articles_with/"
"""Stats key: the scraped articles with a value in each `COVERED_FIELDS` field
(`newscrawl.monitoring.extension.RunSummaryExtension` counts them)."""
COVERED_FIELDS = ("published_at", "author")
"""The metadata whose share across a run shows a layout change (dates and bylines vanish)."""
OLD_FIELD_NAMES = {"published": "published_at"}
"""Coverage keys in summaries recorded before the item's fields took the store's names."""
ROBOTS_FORBIDDEN = "robotstxt/forbidden"
"""Requests Scrapy's RobotsTxtMiddleware refused (robots.txt disallows them)."""
ROBOTS_FETCHED = "robotstxt/response_count"
"""robots.txt responses received (counted among the responses)."""
EMPTY_START_URLS = "newscrawl/start_urls/led_nowhere"
"""Stats key: the ``-a start_urls`` URLs whose page yielded no article and no link."""
FAILED_RUN = "newscrawl/failed_run"
"""Stats key: why the crawl failed (one-line strings, set by the crawl's monitors); absent
when it did not."""


@dataclass(frozen=True, slots=True)
class RunSummary:
    """What one crawl did, as counts; `to_dict` is its JSON form."""

    pages_fetched: int
    """Responses received (listing, feed and article pages, robots.txt)."""
    article_requests: int
    """Article pages asked for, including those the incremental skip answered."""
    articles: int
    """Articles that came out of the pipelines (into the feed and the store)."""
    stored: dict[str, int]
    """Store outcomes: new, updated, unchanged, duplicate (empty without a store)."""
    skipped_seen: int
    """Article requests not fetched because the store already had them."""
    dropped: dict[str, int]
    """Articles dropped, by reason."""
    skipped: dict[str, int]
    """Responses not handed on as articles, by reason."""
    failed: dict[str, int]
    """Requests failed for good, by reason."""
    coverage: dict[str, float] = field(default_factory=dict)
    """Share of articles with each of `COVERED_FIELDS` (when there were articles)."""
    seconds: float = 0.0
    finish_reason: str = ""
    failed_run: list[str] = field(default_factory=list)
    """Why the crawl failed, by its monitors (empty: it did its job)."""
    robots_forbidden: int = 0
    """Requests not sent because robots.txt disallows them."""
    robots_fetched: int = 0
    """robots.txt responses among `pages_fetched`."""
    empty_start_urls: list[str] = field(default_factory=list)
    """``-a start_urls`` URLs whose page yielded no article and no link."""
    discovery: dict[str, int] = field(default_factory=dict)
    """Entries of feeds, sitemaps and APIs not asked for, and lists not read as written,
    by reason."""

    @property
    def nothing_new(self) -> bool:
        """Nothing failed and there was nothing new to fetch: every article page asked for
        was already stored, or no article page was asked for because every entry found
        was older than ``-a since``. Such a re-crawl did its job, fetched or not."""
        if self.articles or self.failed:
            return False
        if self.article_requests:
            return self.skipped_seen == self.article_requests
        return self.too_old > 0

    @property
    def too_old(self) -> int:
        """Entries not asked for because they were older than ``-a since``."""
        return self.discovery.get(TOO_OLD, 0)

    @property
    def all_forbidden_by_robots(self) -> bool:
        """robots.txt refused requests and no other page was fetched nor found stored."""
        return (
            self.robots_forbidden > 0
            and self.pages_fetched <= self.robots_fetched
            and not self.skipped_seen
        )

    @property
    def failed_requests(self) -> int:
        return sum(self.failed.values())

    @property
    def failed_share(self) -> float:
        """Failed requests over all requests that got an answer or failed for good."""
        total = self.failed_requests + self.pages_fetched
        return self.failed_requests / total if total else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The counts, and `nothing_new` for readers of the JSON (``newscrawl health``)."""
        return {**asdict(self), "nothing_new": self.nothing_new}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunSummary:
        names = {name for name in cls.__dataclass_fields__}
        values = {key: value for key, value in data.items() if key in names}
        coverage = values.get("coverage") or {}
        values["coverage"] = {OLD_FIELD_NAMES.get(k, k): v for k, v in coverage.items()}
        return cls(**values)


def summarize(stats: Mapping[str, Any]) -> RunSummary:
    """The summary of a crawl whose stats are `stats` (Scrapy's stats dict)."""
    articles = int(stats.get("item_scraped_count", 0))
    return RunSummary(
        pages_fetched=int(stats.get("response_received_count", 0)),
        article_requests=int(stats.get(ARTICLE_REQUESTS, 0)),
        articles=articles,
        stored={
            outcome.value: int(stats[f"{STORE_PREFIX}{outcome.value}"])
            for outcome in WriteOutcome
            if stats.get(f"{STORE_PREFIX}{outcome.value}")
        },
        skipped_seen=int(stats.get(STORE_SKIPPED, 0)),
        dropped=_by_reason(stats, DROPPED_PREFIX),
        skipped=_by_reason(stats, SKIPPED_PREFIX),
        failed=_by_reason(stats, FAILED_PREFIX),
        coverage={
            name: round(int(stats.get(f"{ARTICLES_WITH_PREFIX}{name}", 0)) / articles, 4)
            for name in COVERED_FIELDS
            if articles
        },
        seconds=round(float(stats.get("elapsed_time_seconds", 0.0)), 1),
        finish_reason=str(stats.get("finish_reason", "")),
        failed_run=list(stats.get(FAILED_RUN) or []),
        robots_forbidden=int(stats.get(ROBOTS_FORBIDDEN, 0)),
        robots_fetched=int(stats.get(ROBOTS_FETCHED, 0)),
        empty_start_urls=list(stats.get(EMPTY_START_URLS) or []),
        discovery=_by_reason(stats, DISCOVERY_PREFIX),
    )


def _by_reason(stats: Mapping[str, Any], prefix: str) -> dict[str, int]:
    return {
        key.removeprefix(prefix): int(value)
        for key, value in sorted(stats.items())
        if key.startswith(prefix) and isinstance(value, int) and value
    }


def summary_line(summary: RunSummary) -> str:
    """The one line a crawl ends with: fetched, stored, dropped, failed, time."""
    stored = summary.stored
    parts = [
        f"{summary.pages_fetched} pages fetched",
        f"{summary.articles} articles"
        + (
            f" (stored {stored.get('new', 0)} new, {stored.get('updated', 0)} updated, "
            f"{stored.get('unchanged', 0)} unchanged, {stored.get('duplicate', 0)} duplicate)"
            if stored
            else ""
        ),
        f"{summary.skipped_seen} already stored, not fetched",
        f"dropped {_reasons(summary.dropped)}",
        f"skipped {_reasons(summary.skipped)}",
        f"failed requests {_reasons(summary.failed)}",
        f"{summary.seconds:.0f}s",
    ]
    if summary.robots_forbidden:
        parts.insert(-1, f"{summary.robots_forbidden} forbidden by robots.txt")
    if summary.nothing_new:
        parts.insert(0, f"nothing new ({_nothing_new_why(summary)})")
    return "run summary: " + "; ".join(parts)


def _nothing_new_why(summary: RunSummary) -> str:
    if summary.skipped_seen:
        return f"{summary.skipped_seen} article pages already stored, not fetched"
    return f"{summary.too_old} entries older than -a since"


def _reasons(counts: Mapping[str, int]) -> str:
    if not counts:
        return "0"
    listed = ", ".join(f"{count} {reason}" for reason, count in counts.items())
    return f"{sum(counts.values())} ({listed})"
