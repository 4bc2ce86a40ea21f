"""The SQL store on SQLite and PostgreSQL: upserts, aliases, near-duplicates, schema."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from store_support import (  # noqa: F401 (fixture)
    article_text,
    db_url_fixture,
    record,
    statements,
)

from newscrawl.fingerprint import hamming, simhash
from newscrawl.store import StoreError, WriteOutcome, each_record_outcome, open_store
from newscrawl.store.base import MAX_KEY_URL_BYTES
from newscrawl.store.schema import articles
from newscrawl.store.sql import SqlStore

T0 = datetime(2024, 5, 10, 8, 0, tzinfo=UTC)


def rows(store: SqlStore) -> dict[str, dict]:
    return {row["canonical_url"]: row for row in store.iter_articles()}


def test_upsert_new_unchanged_updated(db_url: str) -> None:
    body = article_text(1)
    with SqlStore.open(db_url) as store:
        assert store.write([record("https://a/1", body, at=T0)]) == {
            "https://a/1": WriteOutcome.NEW
        }
        first = rows(store)["https://a/1"]
        assert first["first_seen"] == first["last_fetched"] == first["last_changed"] == T0

        later = T0 + timedelta(hours=1)
        outcome = store.write([record("https://a/1", body + "\n", at=later)])
        assert outcome == {"https://a/1": WriteOutcome.UNCHANGED}  # whitespace is not a change
        row = rows(store)["https://a/1"]
        assert (row["first_seen"], row["last_changed"], row["last_fetched"]) == (T0, T0, later)

        latest = T0 + timedelta(hours=2)
        outcome = store.write([record("https://a/1", body + "更正。", at=latest, title="新标题")])
        assert outcome == {"https://a/1": WriteOutcome.UPDATED}
        row = rows(store)["https://a/1"]
        assert (row["first_seen"], row["last_changed"], row["last_fetched"]) == (T0, latest, latest)
        assert row["body"].endswith("更正。") and row["title"] == "新标题"
        assert store.count_articles() == 1


def test_every_copy_of_an_article_in_one_batch_counts_as_written_one_after_another(
    db_url: str,
) -> None:
    """An article reached twice in one batch (through a redirect) is stored once, and each
    copy counts as if written after the one before it: the outcomes add up to the records."""
    body = article_text(1)
    with SqlStore.open(db_url) as store:
        batch = [
            record("https://a/1", body, at=T0),
            record("https://a/2", article_text(2), at=T0),
            record("https://a/1", body, at=T0),
            record("https://a/1", body + "更正。", at=T0),
        ]
        counted = each_record_outcome(batch, store.write(batch))
        assert counted == [
            WriteOutcome.NEW,
            WriteOutcome.NEW,
            WriteOutcome.UNCHANGED,
            WriteOutcome.UPDATED,
        ]
        assert store.count_articles() == 2
        again = [record("https://a/2", article_text(2), at=T0)] * 2
        assert each_record_outcome(again, store.write(again)) == [WriteOutcome.UNCHANGED] * 2


def test_published_time_is_kept_timezone_aware(db_url: str) -> None:
    published = datetime(2024, 5, 9, 16, 26, tzinfo=UTC)
    with SqlStore.open(db_url) as store:
        store.write([record("https://a/1", article_text(1), published_at=published)])
        store.write([record("https://a/1", article_text(2))])  # no time this fetch: keep it
        assert rows(store)["https://a/1"]["published_at"] == published


def test_same_body_under_two_urls_is_stored_once_with_an_alias(db_url: str) -> None:
    body = article_text(3)
    with SqlStore.open(db_url) as store:
        outcome = store.write(
            [record("https://a/1", body), record("https://mirror/1", body, site="mirror")]
        )
        assert outcome == {
            "https://a/1": WriteOutcome.NEW,
            "https://mirror/1": WriteOutcome.DUPLICATE,
        }
        assert store.write([record("https://other/9", body)]) == {
            "https://other/9": WriteOutcome.DUPLICATE
        }
        assert list(rows(store)) == ["https://a/1"]
        assert store.is_known("https://mirror/1") and store.is_known("https://other/9")


def test_empty_bodies_are_not_duplicates_of_each_other(db_url: str) -> None:
    with SqlStore.open(db_url) as store:
        outcome = store.write([record("https://a/1", ""), record("https://a/2", "")])
        assert set(outcome.values()) == {WriteOutcome.NEW}


def test_redirect_source_is_an_alias(db_url: str) -> None:
    with SqlStore.open(db_url) as store:
        store.write([record("https://a/final", article_text(4), aliases=("https://a/short",))])
        assert store.is_known("https://a/short")
        assert not store.is_known("https://a/other")


def test_near_duplicate_is_marked_not_dropped(db_url: str) -> None:
    original = article_text(5, 1500)
    syndicated = "（来源：新华社）" + original[:-3] + "完。"
    unrelated = article_text(6, 1500)
    with SqlStore.open(db_url) as store:
        store.write([record("https://a/1", original)])
        outcome = store.write(
            [record("https://b/1", syndicated, site="b"), record("https://c/1", unrelated)]
        )
        assert outcome == {"https://b/1": WriteOutcome.NEW, "https://c/1": WriteOutcome.NEW}
        stored = rows(store)
        assert stored["https://b/1"]["near_duplicate_of"] == "https://a/1"
        assert stored["https://c/1"]["near_duplicate_of"] is None
        assert stored["https://a/1"]["near_duplicate_of"] is None


def syndicated_pair(seed: int) -> tuple[str, str, int]:
    """An article, its copy with a source line and a changed ending, and their distance in
    bits (within 3, so they share a band and the limit alone decides)."""
    original = article_text(seed, 1500)
    syndicated = "（来源：新华社）" + original[:-3] + "完。"
    distance = hamming(simhash(original) or 0, simhash(syndicated) or 0)
    assert 0 < distance <= 3
    return original, syndicated, distance


def test_near_duplicate_limit_is_configurable(db_url: str) -> None:
    original, syndicated, distance = syndicated_pair(5)
    with SqlStore.open(db_url, near_duplicate_bits=distance - 1) as store:
        store.write([record("https://a/1", original), record("https://b/1", syndicated)])
        assert rows(store)["https://b/1"]["near_duplicate_of"] is None
    original, syndicated, distance = syndicated_pair(6)
    with SqlStore.open(db_url, near_duplicate_bits=distance) as store:
        store.write([record("https://a/2", original), record("https://b/2", syndicated)])
        assert rows(store)["https://b/2"]["near_duplicate_of"] == "https://a/2"


def test_near_duplicates_within_one_batch(db_url: str) -> None:
    original = article_text(7, 1500)
    with SqlStore.open(db_url) as store:
        store.write([record("https://a/1", original), record("https://b/1", original + "完")])
        assert rows(store)["https://b/1"]["near_duplicate_of"] == "https://a/1"


def test_a_failing_batch_leaves_no_rows(db_url: str) -> None:
    naive = datetime(2024, 1, 1)  # refused by the store: times must be timezone-aware
    with SqlStore.open(db_url) as store:
        batch = [record("https://a/1", article_text(1)), record("https://a/2", "x", at=naive)]
        with pytest.raises(StoreError):
            store.write(batch)
        assert store.count_articles() == 0


def test_recrawl_age_makes_young_articles_unknown(db_url: str) -> None:
    with SqlStore.open(db_url) as store:
        store.write([record("https://a/old", article_text(1), at=T0)])
        store.write([record("https://a/new", article_text(2), at=T0 + timedelta(days=3))])
        cutoff = T0 + timedelta(days=2)
        assert store.is_known("https://a/old", older_than=cutoff)
        assert not store.is_known("https://a/new", older_than=cutoff)
        assert store.is_known("https://a/new")


def test_confidence_is_stored_null_when_unknown_and_updated_with_the_body(db_url: str) -> None:
    with SqlStore.open(db_url) as store:
        store.write(
            [
                record("https://a/1", article_text(1), confidence=0.875),
                record("https://a/2", article_text(2)),
            ]
        )
        assert confidences(store) == {"https://a/1": 0.875, "https://a/2": None}
        store.write(
            [
                record("https://a/1", article_text(1) + "更正。", confidence=0.25),
                record("https://a/2", article_text(2) + "更正。", confidence=1.0),
            ]
        )
        assert confidences(store) == {"https://a/1": 0.25, "https://a/2": 1.0}


def confidences(store: SqlStore) -> dict[str, float | None]:
    with store.engine.connect() as conn:
        return dict(conn.execute(select(articles.c.canonical_url, articles.c.confidence)).all())


def test_site_and_day_stats(db_url: str) -> None:
    with open_store(db_url) as store:
        store.write(
            [
                record("https://a/1", article_text(1), at=T0, site="a"),
                record("https://a/2", "", at=T0 + timedelta(days=1), site="a"),
                record("https://b/1", article_text(2), at=T0, site="b"),
            ]
        )
        days = [(d.site, d.day.isoformat(), d.articles, d.empty_body) for d in store.daily_counts()]
        assert days == [
            ("a", "2024-05-10", 1, 0),
            ("a", "2024-05-11", 1, 1),
            ("b", "2024-05-10", 1, 0),
        ]
        summary = {s.site: s for s in store.site_summaries()}
        assert summary["a"].articles == 2 and summary["a"].empty_body == 1
        assert summary["a"].last_fetched == T0 + timedelta(days=1)


def test_export_filters_by_site_and_since(db_url: str) -> None:
    with open_store(db_url) as store:
        store.write(
            [
                record("https://a/1", article_text(1), at=T0, site="a"),
                record("https://a/2", article_text(2), at=T0 + timedelta(days=1), site="a"),
                record("https://b/1", article_text(3), at=T0 + timedelta(days=1), site="b"),
            ]
        )
        since = T0 + timedelta(hours=12)
        got = [r["canonical_url"] for r in store.iter_articles(site="a", since=since, chunk=1)]
        assert got == ["https://a/2"]
        assert store.count_articles(site="a", since=since) == 1


def test_min_confidence_selects_rows_at_or_over_it_and_never_null(db_url: str) -> None:
    with open_store(db_url) as store:
        store.write(
            [
                record("https://a/1", article_text(1), confidence=0.9),
                record("https://a/2", article_text(2), confidence=0.6),
                record("https://a/3", article_text(3)),
                record("https://a/4", article_text(4), confidence=0.59),
            ]
        )
        got = [r["canonical_url"] for r in store.iter_articles(min_confidence=0.6, chunk=1)]
        assert got == ["https://a/1", "https://a/2"]
        assert store.count_articles(min_confidence=0.6) == 2
        assert store.count_articles(min_confidence=0) == 3
        assert store.count_articles() == 4


def test_unreachable_database_is_a_store_error() -> None:
    with pytest.raises(StoreError):
        SqlStore.open("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2")


def _long_url(bytes_: int) -> str:
    """A URL of `bytes_` bytes whose query does not compress (PostgreSQL compresses a long
    index value before it measures it)."""
    start = "https://a/long?q="
    return (
        start + "".join(f"{(n * 7919) % 10**6:06d}" for n in range(bytes_))[: bytes_ - len(start)]
    )


def test_a_url_longer_than_the_store_keys_is_refused_and_the_batch_stored(db_url: str) -> None:
    """A redirect can lead past Scrapy's URL length limit; PostgreSQL's index refused such a
    URL and with it the whole batch."""
    longest, too_long = _long_url(MAX_KEY_URL_BYTES), _long_url(MAX_KEY_URL_BYTES + 3000)
    batch = [
        record(too_long, article_text(1)),
        record(longest, article_text(2)),
        record("https://a/1", article_text(3), aliases=(too_long, "https://a/short")),
    ]
    with SqlStore.open(db_url) as store:
        assert store.write(batch) == {
            too_long: WriteOutcome.REFUSED,
            longest: WriteOutcome.NEW,
            "https://a/1": WriteOutcome.NEW,
        }
        assert sorted(rows(store)) == sorted(["https://a/1", longest])
        assert store.is_known("https://a/short") and not store.is_known(too_long)
    assert (
        each_record_outcome(batch[:1] * 2, {too_long: WriteOutcome.REFUSED})
        == [WriteOutcome.REFUSED] * 2
    )
