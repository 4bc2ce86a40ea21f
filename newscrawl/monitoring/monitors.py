"""The crawl's verdict, on Spidermon: monitors that run when the spider closes, and the action
that records their failures for the exit status.

Spidermon (Zyte's monitoring framework for Scrapy) runs the suite of
``SPIDERMON_SPIDER_CLOSE_MONITORS`` at spider close and its actions when a monitor fails;
a user adds mail, Slack, Telegram or Discord actions, or more monitors (item counts, field
coverage rules), in settings, without touching this module. What Spidermon has no notion of
is an exit status: `RecordFailures` puts the failed monitors' reasons in the stats under
``newscrawl/failed_run``, and `newscrawl.scrapy_commands.crawl` turns that into exit status
`FAILED_CRAWL`.

A crawl failed when (thresholds in `Thresholds`, settings ``NEWSCRAWL_FAIL_*``):
- no response arrived at all (a dead site, no network, a wrong host), unless every article
  page asked for was already stored (nothing new: the crawl did its job);
- robots.txt forbade every URL requested;
- start URLs given by hand led to no article and no link to one, and no article page was
  asked for at all;
- pages were read but no article page was found to ask for (a listing whose layout or URLs
  changed, an entry point answered 404, a feed read as malformed), unless every entry was
  older than ``-a since`` (nothing new) or the crawl is a distributed worker's share;
- article pages were requested and not one article came out (a changed layout drops every
  page, every article request failed, or robots.txt forbade them: the reason names which);
- the share of requests that failed for good is over ``NEWSCRAWL_FAIL_MAX_FAILED_SHARE``;
- the article store could not be opened or failed (`store_failure`), whatever else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from spidermon import Monitor, MonitorSuite, monitors
from spidermon.core.actions import Action

from newscrawl.crawl_contract import store_failure
from newscrawl.monitoring.summary import FAILED_RUN, RunSummary, summarize

__unittest = True
"""unittest (which Spidermon runs monitors with) leaves the frames of a module that sets this
out of a failed test's report: a failed crawl's log gets its reasons, not a traceback."""

FAILED_CRAWL = 1
"""Exit status of a crawl that failed (Scrapy's own for a crawl that could not start)."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """When a crawl counts as failed; read from the ``NEWSCRAWL_FAIL_*`` settings."""

    max_failed_share: float
    """A crawl fails when more than this share of its requests failed for good."""
    min_requests: int
    """The failed share is judged only over at least this many requests (a run of three
    requests with one timeout is not a failed crawl)."""
    replay: bool = False
    """A replay crawl (``NEWSCRAWL_REPLAY``) fails only when nothing was answered: what its
    archive lacks is answered 404, which says nothing of a site."""
    shared: bool = False
    """A worker of a distributed crawl (``NEWSCRAWL_REDIS_URL``) fetches its share of the
    run's requests: a share holding listing pages only is no sign of a site gone wrong."""

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Thresholds:
        share = settings.getfloat("NEWSCRAWL_FAIL_MAX_FAILED_SHARE")
        if not 0 <= share <= 1:
            raise ValueError(f"NEWSCRAWL_FAIL_MAX_FAILED_SHARE must be in [0, 1], got {share}")
        return cls(
            share,
            settings.getint("NEWSCRAWL_FAIL_MIN_REQUESTS"),
            bool(settings.get("NEWSCRAWL_REPLAY")),
            bool(settings.get("NEWSCRAWL_REDIS_URL")),
        )


def failures(summary: RunSummary, thresholds: Thresholds) -> list[str]:
    """Why the crawl of `summary` failed, one line per reason; empty when it did not."""
    found = []
    if summary.pages_fetched == 0 and not summary.nothing_new:
        found.append(f"no response at all ({_failed_reasons(summary)})")
    if summary.all_forbidden_by_robots:
        found.append(f"robots.txt forbids every URL requested ({summary.robots_forbidden})")
    if summary.empty_start_urls and summary.article_requests == 0:
        found.append(
            "no article and no link to one on the start URLs "
            f"{', '.join(summary.empty_start_urls)} (-a article_urls=URL extracts a page "
            "as an article)"
        )
    if thresholds.replay:
        return found
    pages = summary.pages_fetched - summary.robots_fetched
    if (
        pages > 0
        and summary.article_requests == 0
        and summary.articles == 0
        and not summary.nothing_new
        and not summary.empty_start_urls
        and not thresholds.shared
    ):
        read = f"{pages} page{'s' if pages > 1 else ''} read"
        why = _losses(summary, summary.discovery) or "no link matched the article patterns"
        found.append(f"no article page found ({read}: {why})")
    if (
        summary.pages_fetched
        and summary.article_requests > summary.skipped_seen
        and summary.articles == 0
    ):
        fetched = summary.article_requests - summary.skipped_seen
        why = _losses(summary) or "no reason"
        found.append(f"{fetched} article pages requested, no article came out ({why})")
    requests = summary.failed_requests + summary.pages_fetched
    if requests >= thresholds.min_requests and summary.failed_share > thresholds.max_failed_share:
        found.append(
            f"{summary.failed_share:.0%} of {requests} requests failed "
            f"(over {thresholds.max_failed_share:.0%}: {_failed_reasons(summary)})"
        )
    return found


def _losses(summary: RunSummary, not_asked: Mapping[str, int] | None = None) -> str:
    """What the crawl lost on the way to articles, by reason ('' for nothing): `not_asked`
    (entries discovery did not ask for), drops, skips, failures, robots.txt refusals."""
    lost = {**(not_asked or {}), **summary.dropped, **summary.skipped, **summary.failed}
    if summary.robots_forbidden:
        lost["forbidden by robots.txt"] = summary.robots_forbidden
    return ", ".join(f"{count} {reason}" for reason, count in lost.items())


def _failed_reasons(summary: RunSummary) -> str:
    if not summary.failed:
        return "no request failed"
    return ", ".join(f"{count} {reason}" for reason, count in summary.failed.items())


@monitors.name("newscrawl crawl")
class CrawlMonitor(Monitor):  # type: ignore[misc]  # Spidermon ships no type hints
    """`failures` as a Spidermon monitor: each reason fails the test with its line."""

    @monitors.name("did its job")  # type: ignore[untyped-decorator]
    def test_crawl_did_its_job(self) -> None:
        crawler: Crawler = self.data.crawler
        store = store_failure(crawler)
        reasons = (
            [store]
            if store
            else failures(summarize(self.data.stats), Thresholds.from_settings(crawler.settings))
        )
        if reasons:
            self.fail("; ".join(reasons))


class RecordFailures(Action):  # type: ignore[misc]
    """Put the failed monitors' reasons in the stats (`FAILED_RUN`), where the run summary
    (`newscrawl.monitoring.extension`) takes them for the crawl's last line."""

    def run_action(self) -> None:
        reasons = [_reason(result) for result in self.result.monitors_failed_results]
        crawler: Crawler = self.data.crawler
        assert crawler.stats is not None
        crawler.stats.set_value(FAILED_RUN, reasons)


def _reason(result: Any) -> str:
    """A failed monitor's message, or the last line of the error a broken monitor raised."""
    if result.reason:
        return str(result.reason)
    lines = str(result.error or "monitor error").strip().splitlines()
    return f"monitor {result.item} broke: {lines[-1]}"


class CrawlSuite(MonitorSuite):  # type: ignore[misc]
    """The suite `newscrawl.settings` runs at spider close."""

    monitors = [CrawlMonitor]  # noqa: RUF012  # Spidermon's declarative class attributes
    monitors_failed_actions = [RecordFailures]  # noqa: RUF012
