"""The run summary, the crawl's verdict, its one-line Spidermon report and the scheduler's
outcomes, from stats dicts and run records (issue 15): no crawl needed. The real crawls are
in test_crawl_health.py and test_one_line.py."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from scrapy import Spider
from scrapy.exceptions import NotConfigured
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler
from spidermon import Monitor, MonitorSuite, monitors

from newscrawl.monitoring.extension import RunSummaryExtension
from newscrawl.monitoring.monitors import Thresholds, failures
from newscrawl.monitoring.report import OneLineRunner, OneLineSpidermon
from newscrawl.monitoring.summary import RunSummary, summarize, summary_line
from newscrawl.schedule.history import RunRecord
from newscrawl.schedule.verdict import EXIT_STATUS, Stop, judge, worst

THRESHOLDS = Thresholds(max_failed_share=0.5, min_requests=10)


def crawl_stats(**extra: Any) -> dict[str, Any]:
    """The stats of a crawl that fetched 20 pages and stored 8 articles."""
    return {
        "response_received_count": 20,
        "newscrawl/requests/article": 12,
        "item_scraped_count": 8,
        "newscrawl/store/new": 6,
        "newscrawl/store/unchanged": 2,
        "newscrawl/store/skipped_seen": 2,
        "newscrawl/dropped/no text lines": 1,
        "newscrawl/skipped/not_html/pdf": 1,
        "newscrawl/failed/http_404": 1,
        "newscrawl/articles_with/published_at": 6,
        "newscrawl/articles_with/author": 4,
        "elapsed_time_seconds": 12.34,
        "finish_reason": "finished",
        **extra,
    }


def test_summary_counts_what_the_crawl_fetched_stored_and_lost() -> None:
    summary = summarize(crawl_stats())
    assert summary.pages_fetched == 20
    assert summary.articles == 8
    assert summary.stored == {"new": 6, "unchanged": 2}
    assert summary.skipped_seen == 2
    assert summary.dropped == {"no text lines": 1}
    assert summary.skipped == {"not_html/pdf": 1}
    assert summary.failed == {"http_404": 1}
    assert summary.coverage == {"published_at": 0.75, "author": 0.5}
    assert summary.seconds == 12.3
    assert summary.failed_run == []
    assert RunSummary.from_dict(summary.to_dict()) == summary


def test_a_summary_recorded_before_the_field_rename_reads_its_coverage() -> None:
    old = summarize(crawl_stats()).to_dict() | {"coverage": {"published": 0.75, "author": 0.5}}
    assert RunSummary.from_dict(old).coverage == {"published_at": 0.75, "author": 0.5}


def test_summary_line_names_every_count_and_reason() -> None:
    line = summary_line(summarize(crawl_stats()))
    assert line.startswith("run summary: 20 pages fetched; 8 articles (stored 6 new, 0 updated")
    assert "dropped 1 (1 no text lines)" in line
    assert "skipped 1 (1 not_html/pdf)" in line
    assert "failed requests 1 (1 http_404)" in line
    assert "\n" not in line


def test_a_crawl_that_did_its_job_has_no_failure() -> None:
    assert failures(summarize(crawl_stats()), THRESHOLDS) == []


def test_no_response_at_all_is_a_failure_with_its_reasons() -> None:
    stats = {"newscrawl/failed/CannotResolveHostError": 3}
    assert failures(summarize(stats), THRESHOLDS) == [
        "no response at all (3 CannotResolveHostError)"
    ]


def test_article_pages_requested_and_none_out_is_a_failure() -> None:
    stats = crawl_stats(item_scraped_count=0, **{"newscrawl/dropped/no text lines": 10})
    [reason] = failures(summarize(stats), THRESHOLDS)
    assert reason.startswith("10 article pages requested, no article came out (10 no text lines")


def test_article_pages_all_answered_from_the_store_are_no_failure() -> None:
    """An incremental run that finds nothing new asked for no page."""
    stats = crawl_stats(item_scraped_count=0, **{"newscrawl/store/skipped_seen": 12})
    assert failures(summarize(stats), THRESHOLDS) == []


def test_failed_share_over_the_threshold_is_a_failure() -> None:
    stats = crawl_stats(**{"newscrawl/failed/http_503": 30})
    [reason] = failures(summarize(stats), THRESHOLDS)
    assert reason.startswith("61% of 51 requests failed (over 50%")


def test_failed_share_is_not_judged_over_a_handful_of_requests() -> None:
    stats = {
        "response_received_count": 2,
        "newscrawl/requests/article": 4,
        "item_scraped_count": 1,
        "newscrawl/failed/TimeoutError": 3,
    }
    assert failures(summarize(stats), THRESHOLDS) == []


def test_a_replay_fails_only_when_nothing_was_answered() -> None:
    replay = Thresholds(0.5, 10, replay=True)
    gaps = crawl_stats(item_scraped_count=0, **{"newscrawl/failed/http_404": 200})
    assert failures(summarize(gaps), replay) == []
    assert failures(summarize({}), replay) == ["no response at all (no request failed)"]


def test_thresholds_come_from_the_settings_and_are_checked() -> None:
    settings = Settings({"NEWSCRAWL_FAIL_MAX_FAILED_SHARE": 0.2, "NEWSCRAWL_FAIL_MIN_REQUESTS": 5})
    assert Thresholds.from_settings(settings) == Thresholds(0.2, 5)
    settings.set("NEWSCRAWL_FAIL_MAX_FAILED_SHARE", 1.5)
    with pytest.raises(ValueError, match="must be in"):
        Thresholds.from_settings(settings)


def record(outcome: str, articles: int | None, published: float | None = 0.9) -> RunRecord:
    summary = None
    if articles is not None:
        coverage = {} if published is None else {"published_at": published}
        summary = {**summarize({}).to_dict(), "articles": articles, "coverage": coverage}
    return RunRecord("job", "run", "site", "2026-01-01T00:00:00+00:00", "", outcome, 0, "", summary)  # type: ignore[arg-type]


def usual(count: int = 5, articles: int = 100) -> list[RunRecord]:
    return [record("ok", articles) for _ in range(count)]


def record_of(summary: RunSummary) -> RunRecord:
    return RunRecord(
        "job", "run", "site", "2026-01-01T00:00:00+00:00", "", "ok", 0, "", summary.to_dict()
    )


def summary_of(articles: int, **fields: Any) -> RunSummary:
    base = summarize({})
    return RunSummary.from_dict(
        {**base.to_dict(), "articles": articles, "coverage": {"published_at": 0.9}, **fields}
    )


def test_a_usual_run_is_ok() -> None:
    assert judge(summary_of(90), 0, None, usual()) == ("ok", [])


def test_a_yield_under_a_quarter_of_the_usual_is_degraded() -> None:
    outcome, [reason] = judge(summary_of(20), 0, None, usual())
    assert outcome == "degraded"
    assert reason == "20 articles, under 25% of the usual 100 (median of the last 5 runs)"


def test_a_recrawl_with_nothing_new_is_ok_and_not_the_usual_yield() -> None:
    nothing_new = {"articles": 0, "article_requests": 4, "skipped_seen": 4}
    assert judge(summary_of(**nothing_new), 0, None, usual()) == ("ok", [])
    earlier = [*usual(count=3), *(record_of(summary_of(**nothing_new)) for _ in range(5))]
    outcome, [reason] = judge(summary_of(20), 0, None, earlier)
    assert outcome == "degraded" and "the usual 100 (median of the last 3 runs)" in reason


def test_a_yield_is_not_judged_without_enough_earlier_runs() -> None:
    assert judge(summary_of(1), 0, None, usual(count=2)) == ("ok", [])


def test_failed_and_stopped_runs_are_not_the_usual() -> None:
    earlier = [*usual(count=2), record("failed", 0), record("stopped", 5)]
    assert judge(summary_of(1), 0, None, earlier) == ("ok", [])


def test_most_pages_dropped_for_one_reason_is_degraded() -> None:
    summary = summary_of(3, dropped={"no line scores as body text": 9, "stub": 1})
    outcome, [reason] = judge(summary, 0, None, [])
    assert outcome == "degraded"
    assert reason == "10 of 13 article pages dropped, 9 for 'no line scores as body text'"


def test_publish_times_vanishing_is_degraded() -> None:
    summary = summary_of(100, coverage={"published_at": 0.1})
    outcome, [reason] = judge(summary, 0, None, usual())
    assert (outcome, reason) == ("degraded", "10% of articles have a publish time, usually 90%")


def test_no_article_with_a_publish_time_is_a_coverage_of_zero_and_degraded() -> None:
    stats = crawl_stats(item_scraped_count=100, **{"newscrawl/articles_with/published_at": 0})
    summary = summarize(stats)
    assert summary.coverage == {"published_at": 0.0, "author": 0.04}
    outcome, [reason] = judge(summary, 0, None, usual())
    assert (outcome, reason) == ("degraded", "0% of articles have a publish time, usually 90%")


def test_the_summary_extension_counts_the_scraped_articles_with_each_covered_field() -> None:
    crawler = get_crawler(Spider)
    crawler.stats = MemoryStatsCollector(crawler)
    extension = RunSummaryExtension.from_crawler(crawler)
    for author in ("李明", None, ""):
        extension.item_scraped({"title": "标题", "author": author, "published_at": "2024-05-10"})
    assert crawler.stats.get_value("newscrawl/articles_with/author") == 1
    assert crawler.stats.get_value("newscrawl/articles_with/published_at") == 3


def test_a_crawl_that_exited_non_zero_failed_with_its_monitors_reasons() -> None:
    summary = summary_of(0, failed_run=["no response at all (3 TimeoutError)"])
    assert judge(summary, 1, None, usual()) == ("failed", ["no response at all (3 TimeoutError)"])
    assert judge(None, 137, None, []) == ("failed", ["the crawl exited with status 137"])


def test_a_crawl_without_a_summary_failed() -> None:
    assert judge(None, 0, None, []) == ("failed", ["the crawl wrote no run summary"])


def test_stopped_and_timed_out_win_over_the_rest() -> None:
    timed_out = Stop("timed_out", timedelta(minutes=50), kill_after=timedelta(seconds=30))
    assert judge(None, 137, timed_out, [])[0] == "timed_out"
    assert judge(summary_of(0), 0, Stop("stopped", timedelta(hours=1)), usual())[0] == "stopped"


def test_the_worst_outcome_gives_the_exit_status() -> None:
    assert worst(["ok", "degraded", "timed_out"]) == "degraded"
    assert worst(["ok", "failed", "degraded"]) == "failed"
    assert worst([]) == "ok"
    assert [EXIT_STATUS[o] for o in ("ok", "stopped", "failed", "degraded", "timed_out")] == [
        0,
        0,
        1,
        3,
        4,
    ]


# --- the one-line Spidermon report --------------------------------------------------------


@monitors.name("sample")
class _SampleMonitor(Monitor):  # type: ignore[misc]
    __test__ = False  # a unittest TestCase, run by Spidermon here, not collected by pytest

    @monitors.name("passes")  # type: ignore[untyped-decorator]
    def test_passes(self) -> None:
        pass

    @monitors.name("breaks")  # type: ignore[untyped-decorator]
    def test_breaks(self) -> None:
        raise ZeroDivisionError("division by zero")


class _SampleSuite(MonitorSuite):  # type: ignore[misc]
    monitors = [_SampleMonitor]  # noqa: RUF012


def test_the_spidermon_report_is_one_line_per_monitor(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="newscrawl.monitoring.report")
    OneLineRunner().run(_SampleSuite(), stats={}, crawler=None)
    shown = [(r.levelname, r.getMessage()) for r in caplog.records if r.levelno >= logging.INFO]
    assert sorted(shown) == [
        ("ERROR", "monitor sample/breaks broke: ZeroDivisionError: division by zero"),
        ("INFO", "monitor sample/passes: OK"),
    ]
    [traceback] = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert "Traceback" in traceback and "test_breaks" in traceback


def test_the_one_line_report_stands_aside_for_spidermons_own_extension() -> None:
    own = "spidermon.contrib.scrapy.extensions.Spidermon"
    crawler = get_crawler(settings_dict={"SPIDERMON_ENABLED": True, "EXTENSIONS": {own: 500}})
    with pytest.raises(NotConfigured):
        OneLineSpidermon.from_crawler(crawler)
    alone = get_crawler(settings_dict={"SPIDERMON_ENABLED": True})
    assert isinstance(OneLineSpidermon.from_crawler(alone), OneLineSpidermon)
