"""Near-duplicate detection by simhash keys: what is guaranteed, what is not, turning it off,
and lookups that probe the key index on both backends whatever the table statistics.

The definition under test (`newscrawl.fingerprint`, `SqlStore`): two fingerprints at most
`GUARANTEED_BITS` (3) apart always share a key, so the store always finds such a twin; a pair
further apart is found only when it shares a key, and marked only within the bit limit.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from dataclasses import replace
from functools import partial
from itertools import combinations
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import delete, func, inspect, select, text, update
from store_support import (  # noqa: F401 (fixture)
    article_text,
    db_url_fixture,
    record,
    statements,
)

from newscrawl.cli import main
from newscrawl.fingerprint import (
    CONTENT_PLANE,
    GUARANTEED_BITS,
    INDEXED_PLANES,
    KEY_PLANES,
    content_key,
    hamming,
    lookup_keys,
)
from newscrawl.store import ArticleRecord, WriteOutcome, key_index
from newscrawl.store.key_filter import BITS_PER_KEY, KeyFilter
from newscrawl.store.schema import (
    articles,
    simhash_key_filters,
    simhash_keys,
)
from newscrawl.store.sql import SqlStore, index_keys

fingerprints = st.integers(min_value=0, max_value=(1 << 64) - 1)


def flipped(fingerprint: int, bits: set[int] | list[int]) -> int:
    return fingerprint ^ sum(1 << bit for bit in set(bits))


def shares_key(a: int, b: int) -> bool:
    return bool(set(lookup_keys(a)) & set(lookup_keys(b)))


def test_the_planes_miss_every_three_byte_positions() -> None:
    assert len(KEY_PLANES) == len(set(KEY_PLANES)) == 14
    for count in range(GUARANTEED_BITS + 1):
        for positions in combinations(range(8), count):
            assert any(not set(positions) & set(plane) for plane in KEY_PLANES), positions


@given(fingerprints, st.sets(st.integers(0, 63), max_size=GUARANTEED_BITS))
def test_fingerprints_within_three_bits_share_a_key(fingerprint: int, bits: set[int]) -> None:
    assert shares_key(fingerprint, flipped(fingerprint, bits))


@given(fingerprints)
def test_keys_are_distinct_32_bit_values_tagged_by_plane(fingerprint: int) -> None:
    keys = lookup_keys(fingerprint)
    assert [key >> 32 for key in keys] == list(range(14))
    assert all(0 <= key < 14 << 32 for key in keys)
    # Each key is exactly the plane's four bytes: changing any other byte keeps it.
    for plane, key in zip(KEY_PLANES, keys, strict=True):
        outside = [8 * byte + 3 for byte in range(8) if byte not in plane]
        assert lookup_keys(flipped(fingerprint, outside))[key >> 32] == key


@given(st.binary(min_size=32, max_size=32))
def test_a_content_key_is_the_hashs_first_32_bits_in_a_plane_of_its_own(digest: bytes) -> None:
    key = content_key(digest.hex())
    assert key >> 32 == CONTENT_PLANE == len(KEY_PLANES) and key < INDEXED_PLANES << 32
    assert key & 0xFFFF_FFFF == int.from_bytes(digest[:4], "big")


def with_simhash(url: str, fingerprint: int, seed: int) -> ArticleRecord:
    """A record with its own body (so no exact duplicate) and the fingerprint given."""
    return replace(record(url, article_text(seed)), simhash=fingerprint)


def keys_of(article: ArticleRecord) -> set[int]:
    """The keys a store indexes `article` by: its content hash's and its simhash's."""
    return set(index_keys(article.content_hash, article.simhash, near=True))


def marks(store: SqlStore) -> dict[str, str | None]:
    return {r["canonical_url"]: r["near_duplicate_of"] for r in store.iter_articles()}


def byte_patterns() -> list[tuple[int, ...]]:
    """Every set of at most 3 byte positions: the ways 3 flipped bits can fall."""
    return [p for n in range(1, GUARANTEED_BITS + 1) for p in combinations(range(8), n)]


def test_every_twin_within_three_bits_is_found(db_url: str) -> None:
    rng = random.Random(18)
    originals: list[ArticleRecord] = []
    copies: list[ArticleRecord] = []
    for i, pattern in enumerate(byte_patterns()):
        fingerprint = rng.getrandbits(64)
        bits = [8 * byte + rng.randrange(8) for byte in pattern]
        originals.append(with_simhash(f"https://a/{i}", fingerprint, i))
        copies.append(with_simhash(f"https://b/{i}", flipped(fingerprint, bits), 1000 + i))
    within_one_byte = rng.getrandbits(64)  # all three bits in the same byte
    originals.append(with_simhash("https://a/same-byte", within_one_byte, 2000))
    copies.append(with_simhash("https://b/same-byte", within_one_byte ^ 0b1011 << 40, 2001))
    with SqlStore.open(db_url, near_duplicate_bits=GUARANTEED_BITS) as store:
        store.write(originals)
        store.write(copies)
        found = marks(store)
    for original, copy in zip(originals, copies, strict=True):
        assert found[copy.canonical_url] == original.canonical_url
        assert found[original.canonical_url] is None


def test_beyond_the_limit_a_key_shared_is_no_twin(db_url: str) -> None:
    base = 0x0123_4567_89AB_CDEF
    # Only bytes 0-3 differ: the key of plane (4, 5, 6, 7) is shared.
    far = base ^ 0xFFFF_FFFF  # 32 bits apart
    five = flipped(base, [0, 9, 17, 25, 26])
    assert shares_key(base, far) and shares_key(base, five) and hamming(base, five) == 5
    with SqlStore.open(db_url, near_duplicate_bits=4) as store:
        store.write([with_simhash("https://a/1", base, 1)])
        store.write(
            [with_simhash("https://b/far", far, 2), with_simhash("https://b/five", five, 3)]
        )
        assert marks(store) == {"https://a/1": None, "https://b/far": None, "https://b/five": None}
    with SqlStore.open(db_url, near_duplicate_bits=5) as store:
        other_five = flipped(base, [1, 10, 18, 24, 29])  # 10 bits from `five`
        store.write([with_simhash("https://c/five", other_five, 4)])
        assert marks(store)["https://c/five"] == "https://a/1"


def test_beyond_three_bits_only_a_shared_key_finds_a_twin(db_url: str) -> None:
    base = 0x0F0F_0F0F_0F0F_0F0F
    # One bit in each of bytes 0, 1, 2, 4: not a plane, so every key holds a changed byte.
    four = flipped(base, [0, 8, 16, 32])
    assert hamming(base, four) == 4 and not shares_key(base, four)
    with SqlStore.open(db_url) as store:
        store.write([with_simhash("https://a/1", base, 1)])
        store.write([with_simhash("https://b/1", four, 2)])
        assert marks(store)["https://b/1"] is None


def test_the_closest_twin_wins_and_an_article_is_not_its_own(db_url: str) -> None:
    base = 0xFEDC_BA98_7654_3210
    with SqlStore.open(db_url) as store:
        two = with_simhash("https://a/two", flipped(base, [1, 2]), 1)
        store.write([two, with_simhash("https://a/one", flipped(base, [63]), 2)])
        store.write([with_simhash("https://b/1", base, 3)])
        assert marks(store)["https://b/1"] == "https://a/one"
        store.write([replace(record("https://a/one", article_text(4)), simhash=base ^ 1 << 40)])
        assert marks(store)["https://a/one"] == "https://b/1"  # updated: its own keys skipped


def stored_keys(store: SqlStore) -> set[tuple[int, int]]:
    with store.engine.connect() as conn:
        return stored_keys_of(conn)


def stored_keys_of(conn: Any) -> set[tuple[int, int]]:
    rows = conn.execute(select(simhash_keys.c.key, simhash_keys.c.article_id))
    return {(key, row_id) for key, row_id in rows}


def test_an_updated_article_is_indexed_by_its_new_keys_only(db_url: str) -> None:
    old, new = 0x1111_2222_3333_4444, 0x5555_6666_7777_8888
    first = with_simhash("https://a/1", old, 1)
    second = replace(record("https://a/1", article_text(2)), simhash=new)
    short = record("https://a/1", "too short for a simhash")
    assert short.simhash is None and short.content_hash
    with SqlStore.open(db_url) as store:
        store.write([first])
        [(_, row_id)] = {(k >> 32, a) for k, a in stored_keys(store) if k >> 32 == 0}
        assert stored_keys(store) == {(key, row_id) for key in keys_of(first)}
        store.write([second])
        assert stored_keys(store) == {(key, row_id) for key in keys_of(second)}
        store.write([short])
        assert stored_keys(store) == {(content_key(short.content_hash), row_id)}


def test_zero_bits_turns_detection_off_and_exact_copies_are_still_found(db_url: str) -> None:
    """With near-duplicate detection off, articles are indexed and looked up by their
    content hash's key alone: twins go unmarked, a copy is still a duplicate."""
    fingerprint = 0x0123_4567_89AB_CDEF
    with SqlStore.open(db_url, near_duplicate_bits=0) as store:
        with statements(store.engine) as seen:
            store.write([with_simhash("https://a/1", fingerprint, 1)])
            store.write([with_simhash("https://b/1", fingerprint, 2)])
            copy = store.write([with_simhash("https://c/1", fingerprint, 1)])
        assert copy == {"https://c/1": WriteOutcome.DUPLICATE}
        assert marks(store) == {"https://a/1": None, "https://b/1": None}
        assert len(stored_keys(store)) == 2
        assert {key >> 32 for key, _ in stored_keys(store)} == {CONTENT_PLANE}
        sent = [probe for sql, p in seen for probe in sent_probes(sql, p)]
        assert len(sent) == 2 and {probe >> 32 & 0xFF for probe in sent} == {CONTENT_PLANE}


def test_random_fingerprints_fetch_no_rows(db_url: str) -> None:
    """Keys of 32 bits: a random fingerprint's 14 keys meet a given stored article with
    probability 14 / 2**32, so a store of 1,000 answers 1,000 lookups with no row."""
    rng = random.Random(7)
    with SqlStore.open(db_url) as store:
        store.write([with_simhash(f"https://a/{i}", rng.getrandbits(64), i) for i in range(1000)])
        probes = {key for _ in range(1000) for key in lookup_keys(rng.getrandbits(64))}
        with store.engine.connect() as conn:
            assert key_index.candidates(conn, probes) == []
            some = lookup_keys(stored_fingerprint(store, "https://a/7"))[:1]
            [found] = key_index.candidates(conn, some)
            assert (found.key, found.canonical_url) == (some[0], "https://a/7")


def index_definitions(conn: Any) -> list[str]:
    """The SQL of every index the database holds beside the primary keys."""
    if conn.dialect.name == "sqlite":
        found = "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    else:
        found = "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()"
    return [str(definition) for definition in conn.exec_driver_sql(found).scalars()]


def test_copies_are_found_by_their_content_key_in_the_same_lookup_as_twins(db_url: str) -> None:
    """A batch's exact copies are looked up by their content hash's key among the
    near-twin keys, in the one lookup a write makes, and `articles` has no index on the
    hash: a copy of a stored body is a duplicate, a body whose hash shares its first 32
    bits (its key) with a stored one is not."""
    with SqlStore.open(db_url) as store:
        store.write([record(f"https://a/{i}", article_text(i)) for i in range(50)])
        copied = record("https://b/copy", article_text(7))
        assert copied.content_hash
        lookalike = replace(
            record("https://b/lookalike", article_text(1000)),
            content_hash=copied.content_hash[:8] + "0" * 56,
        )
        batch = [copied, lookalike, record("https://b/new", article_text(1001))]
        with statements(store.engine) as seen:
            outcomes = store.write(batch)
        assert outcomes == {
            "https://b/copy": WriteOutcome.DUPLICATE,
            "https://b/lookalike": WriteOutcome.NEW,
            "https://b/new": WriteOutcome.NEW,
        }
        [sent] = [probes for sql, p in seen if (probes := sent_probes(sql, p))]
        mask = (1 << 40) - 1
        assert {content_key(r.content_hash) for r in batch if r.content_hash} <= {
            probe & mask for probe in sent
        }
        assert {probe & mask for probe in sent} == set().union(*(keys_of(r) for r in batch))
        with store.engine.connect() as conn:
            assert not [d for d in index_definitions(conn) if "content_hash" in d]
        assert rows_of(store, "https://b/lookalike")["content_hash"] == lookalike.content_hash


def rows_of(store: SqlStore, url: str) -> dict[str, Any]:
    [row] = [row for row in store.iter_articles() if row["canonical_url"] == url]
    return row


def stored_fingerprint(store: SqlStore, url: str) -> int:
    with store.engine.connect() as conn:
        fingerprint: int = conn.execute(
            select(articles.c.simhash).where(articles.c.canonical_url == url)
        ).scalar_one()
    return fingerprint


# --- query plans -----------------------------------------------------------------------------


def write_statements(store: SqlStore, batch: list[ArticleRecord]) -> list[tuple[str, Any]]:
    """Every statement a write of `batch` runs, with its parameters."""
    with statements(store.engine) as seen:
        store.write(batch)
    return list(seen)


def key_lookup(store: SqlStore, batch: list[ArticleRecord]) -> list[tuple[str, Any]]:
    """The SELECTs a write of `batch` runs on the key index and on articles by id."""
    return key_lookups(write_statements(store, batch))


def key_lookups(seen: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Of a write's statements, the SELECTs on the key index and on articles by id."""
    return [
        (sql, params)
        for sql, params in seen
        if sql.lstrip().startswith("SELECT")
        and "max(" not in sql  # the newest and lowest levels, from the ends of the index
        and "min(" not in sql
        and "count(" not in sql  # SQLite's buffer size, read by its own test below
        and any(
            part in sql
            for part in ("simhash_keys ", "simhash_keys.", "articles.id IN", "articles.id = ANY")
        )
    ]


def twin_batch(rng: random.Random, twins_of: list[int], size: int) -> list[ArticleRecord]:
    """`size` new articles, the first ones 2 bits from `twins_of` (so rows come back)."""
    prints = [flipped(fp, [5, 50]) for fp in twins_of] + [
        rng.getrandbits(64) for _ in range(size - len(twins_of))
    ]
    return [with_simhash(f"https://new/{i}", fp, 100_000 + i) for i, fp in enumerate(prints)]


def test_sqlite_lookup_searches_the_key_index(tmp_path: Any) -> None:
    rng = random.Random(3)
    stored = [rng.getrandbits(64) for _ in range(2000)]
    with SqlStore.open(f"sqlite:///{tmp_path}/store.db") as store:
        for start in range(0, len(stored), 500):
            store.write(
                [
                    with_simhash(f"https://a/{i}", fp, i)
                    for i, fp in enumerate(stored[start : start + 500], start)
                ]
            )
        seen = write_statements(store, twin_batch(rng, stored[:5], 500))
        lookups = key_lookups(seen)
        assert len(lookups) == 2
        with store.engine.connect() as conn:
            whole_table_reads = [
                (sql, plan)
                for sql, p in seen
                if sql.lstrip().startswith("SELECT")
                for plan in [[r[-1] for r in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", p)]]
                if any(
                    step.startswith(("SCAN simhash_keys", "SCAN k", "SCAN articles"))
                    for step in plan
                )
            ]
            assert whole_table_reads == []
            plans = [
                " / ".join(row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", p))
                for sql, p in lookups
            ]
            buffered = " / ".join(
                row[-1]
                for row in conn.exec_driver_sql(
                    "EXPLAIN QUERY PLAN SELECT count(*) FROM simhash_keys WHERE level = -1"
                )
            )
    assert buffered.startswith("SEARCH simhash_keys") and "(level=?)" in buffered, buffered
    keys_plan, articles_plan = plans
    assert keys_plan.startswith("SCAN probe"), keys_plan  # the batch's keys drive the join
    assert "SEARCH k USING PRIMARY KEY (level=? AND key=?)" in keys_plan, keys_plan
    assert "SEARCH articles USING INTEGER PRIMARY KEY (rowid=?)" in articles_plan, articles_plan
    assert "SCAN k" not in keys_plan and "SCAN articles" not in articles_plan


def test_postgresql_lookup_probes_the_key_index_without_statistics(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Levels of 4,096 article ids: the 20,000 stored fill four sealed levels and an open
    one, and the lookup still probes the index once per key and level."""
    from store_support import pg_schema

    monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 4096)
    rng = random.Random(4)
    with pg_schema() as url, SqlStore.open(url) as store:
        with store.engine.begin() as conn:
            for table in ("articles", "simhash_keys"):  # no autovacuum: no ANALYZE either
                conn.execute(text(f"ALTER TABLE {table} SET (autovacuum_enabled = off)"))
        stored = [rng.getrandbits(64) for _ in range(20_000)]
        for start in range(0, len(stored), 2000):
            store.write(
                [
                    with_simhash(f"https://a/{i}", fp, i)
                    for i, fp in enumerate(stored[start : start + 2000], start)
                ]
            )
        with store.engine.connect() as conn:
            never_analyzed = conn.execute(
                select(func.count())
                .select_from(text("pg_stat_user_tables"))
                .where(
                    text("schemaname = current_schema()"),
                    text("relname IN ('articles', 'simhash_keys')"),
                    text("coalesce(last_analyze, last_autoanalyze) IS NULL"),
                )
            ).scalar_one()
            assert never_analyzed == 2
            assert not conn.execute(
                text("SELECT count(*) FROM pg_stats WHERE schemaname = current_schema()")
            ).scalar_one()
        seen = write_statements(store, twin_batch(rng, stored[:20], 1000))
        lookups = key_lookups(seen)
        assert len(lookups) == 2
        with store.engine.connect() as conn:
            plans = [
                "\n".join(row[0] for row in conn.exec_driver_sql(f"EXPLAIN {sql}", p))
                for sql, p in seen
                if sql.lstrip().startswith("SELECT")
            ]
            whole_table_reads = [
                plan
                for plan in plans
                if "Seq Scan on articles" in plan or "Seq Scan on simhash_keys" in plan
            ]
            assert whole_table_reads == []
            plans = [
                "\n".join(row[0] for row in conn.exec_driver_sql(f"EXPLAIN {sql}", p))
                for sql, p in lookups
            ]
    keys_plan, articles_plan = plans
    assert "Index Cond: ((level = (probe.probe >> 40)) AND (key = (probe.probe &" in keys_plan
    assert "simhash_keys_pkey" in keys_plan and "Seq Scan" not in keys_plan, keys_plan
    assert "articles_pkey" in articles_plan and "Seq Scan" not in articles_plan, articles_plan


# --- the levels of the key index ---------------------------------------------------------------


def level_counts(store: SqlStore) -> dict[int, int]:
    """The keys found at each level that holds keys."""
    with store.engine.connect() as conn:
        found = conn.execute(
            select(simhash_keys.c.level, func.count()).group_by(simhash_keys.c.level)
        ).all()
    return dict(found)


def small_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Levels of 4 article ids: the keys of 4 articles; SQLite's buffer moves to the open
    level at every write."""
    monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 4)
    monkeypatch.setattr(key_index, "BUFFER_KEYS", 1)


def sealed_filters(conn: Any) -> dict[int, KeyFilter]:
    rows = select(
        simhash_key_filters.c.level, simhash_key_filters.c.planned_keys, simhash_key_filters.c.bits
    )
    return {level: KeyFilter.from_bytes(n, bits) for level, n, bits in conn.execute(rows)}


def test_keys_fill_levels_of_article_ids_and_every_key_stays_found(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With levels of 4 article ids, 40 articles written one by one leave their keys at
    levels 0 to 10, each article's at the level of its id; a lookup seals every level below
    the newest, each with a filter that lets through every key it holds; each key is still
    found, and an updated article's old keys are gone from the sealed level that held
    them."""
    small_levels(monkeypatch)
    rng = random.Random(21)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(40)}
    with SqlStore.open(db_url) as store:
        for i, (url, fingerprint) in enumerate(prints.items()):
            store.write([with_simhash(url, fingerprint, i)])
        assert level_counts(store) == {level: 4 * INDEXED_PLANES for level in range(1, 10)} | {
            0: 3 * INDEXED_PLANES,  # ids 1-3
            10: 1 * INDEXED_PLANES,  # id 40
        }
        assert_every_key_found(store, prints)
        with store.engine.begin() as conn:
            key_index.candidates(conn, [0])  # a lookup seals what it finds unsealed
            filters = sealed_filters(conn)
            rows = conn.execute(select(simhash_keys)).all()
        assert set(filters) == set(range(10))
        for level, level_filter in filters.items():
            held = np.array([key for at, key, _ in rows if at == level], np.uint64)
            assert level_filter.might_hold(held).all(), level
        oldest = "https://a/0"  # its keys are in the sealed level 0
        row_id = next(a for k, a in stored_keys(store) if k == lookup_keys(prints[oldest])[0])
        changed = prints[oldest] ^ 0xFF  # byte 0 changed: the 7 planes without it keep keys
        updated = replace(record(oldest, article_text(99)), simhash=changed)
        store.write([updated])
        kept = {key for key, owner in stored_keys(store) if owner == row_id}
        assert kept == keys_of(updated)
        twin = with_simhash("https://b/twin", flipped(prints["https://a/3"], [1, 20, 60]), 100)
        store.write([twin])
        assert marks(store)["https://b/twin"] == "https://a/3"


def probes_per_level(store: SqlStore, keys: list[int]) -> dict[int, int]:
    """How many of `keys` a lookup sends to each level's index: the probes of SQLite's JSON
    parameter or of PostgreSQL's array, level * 2**40 + key."""
    with statements(store.engine) as seen, store.engine.connect() as conn:
        key_index.candidates(conn, keys)
    [probes] = [probes for sql, p in seen if (probes := sent_probes(sql, p))]
    return dict(Counter(probe >> 40 for probe in probes))


def sent_probes(sql: str, params: Any) -> list[int]:
    """The probes a statement sends to the key index, level * 2**40 + key: SQLite's JSON
    parameter or PostgreSQL's array (none for any other statement)."""
    if "json_each" in sql:
        return list(json.loads(params[0]))
    if "unnest(%(probe)s" in sql:
        return list(params["probe"])
    return []


def assert_every_key_found(store: SqlStore, prints: dict[str, int]) -> None:
    with store.engine.connect() as conn:
        for url, fingerprint in prints.items():
            hits = key_index.candidates(conn, lookup_keys(fingerprint))
            assert {(hit.key, hit.canonical_url) for hit in hits} == {
                (key, url) for key in lookup_keys(fingerprint)
            }


def test_sealed_levels_turn_away_absent_keys_and_never_a_stored_one(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 14 sealed levels, a lookup of 1,000 random fingerprints sends all 14,000 keys to
    the open level and almost none to the sealed ones, whose filters (16 bits a key: 0.046%
    let through) turn away the keys they do not hold; every stored key is still found."""
    small_levels(monkeypatch)
    rng = random.Random(23)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(60)}
    with SqlStore.open(db_url) as store:
        for i, (url, fingerprint) in enumerate(prints.items()):
            store.write([with_simhash(url, fingerprint, i)])
        assert_every_key_found(store, prints)
        absent = [key for _ in range(1000) for key in lookup_keys(rng.getrandbits(64))]
        sent = probes_per_level(store, absent)
        assert sent[15] == len(set(absent))  # ids 60 and up: the open level
        sealed = sum(count for level, count in sent.items() if level < 15)
        assert sealed < 0.002 * len(absent) * 15, sent


def test_a_store_reads_the_filters_another_store_sealed(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two stores on one SQLite file (two crawls, or a crawl and `reextract`): the reader's
    connection keeps the filters it loaded and reads those of the levels the writer has
    sealed since, so it finds every key written after it first looked."""
    small_levels(monkeypatch)
    rng = random.Random(24)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(48)}
    url = f"sqlite:///{tmp_path}/store.db"
    with SqlStore.open(url) as reader, SqlStore.open(url) as writer:
        for i, (article, fingerprint) in enumerate(prints.items()):
            writer.write([with_simhash(article, fingerprint, i)])
            if i in (6, 20, 47):
                assert_every_key_found(reader, dict(list(prints.items())[: i + 1]))


def test_sqlite_buffers_new_keys_and_moves_them_to_the_open_level_when_full(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's new keys wait in the buffer (level -1) until it holds `BUFFER_KEYS`, then
    move together to the open level; a lookup finds them in either, an updated article
    loses its old keys from the buffer, and PostgreSQL has no buffer."""
    monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 8)
    monkeypatch.setattr(key_index, "BUFFER_KEYS", 5 * INDEXED_PLANES)
    rng = random.Random(27)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(12)}
    items = list(prints.items())
    with SqlStore.open(f"sqlite:///{tmp_path}/store.db") as store:
        for i, (url, fingerprint) in enumerate(items[:4]):
            store.write([with_simhash(url, fingerprint, i)])
        assert level_counts(store) == {-1: 4 * INDEXED_PLANES}
        assert_every_key_found(store, dict(items[:4]))
        first, fingerprint = items[0]
        row_id = next(a for k, a in stored_keys(store) if k == lookup_keys(fingerprint)[0])
        updated = replace(record(first, article_text(98)), simhash=fingerprint ^ 0xFF00)
        store.write([updated])
        assert {key for key, owner in stored_keys(store) if owner == row_id} == keys_of(updated)
        assert level_counts(store) == {-1: 4 * INDEXED_PLANES}  # its old keys out, new ones in
        prints[first] = updated.simhash
        for i, (url, fingerprint) in enumerate(items[4:], 4):
            store.write([with_simhash(url, fingerprint, i)])
        assert_every_key_found(store, prints)
        # ids 1-5 moved when id 5 filled the buffer (to level 5 // 8), ids 6-10 with id 10
        assert level_counts(store) == {
            0: 5 * INDEXED_PLANES,
            1: 5 * INDEXED_PLANES,
            -1: 2 * INDEXED_PLANES,
        }
        with store.engine.connect() as conn:
            assert set(sealed_filters(conn)) == {0}


def test_a_merged_sqlite_key_index_is_upgraded_into_levels_of_article_ids(
    tmp_path: Any,
) -> None:
    """Revision 0009: a SQLite key index as the merges left it (keys at any level, counted,
    levels emptied by a merge filtered by a row without bits) is copied into levels of
    article ids (65,536 a level), the counts and the old filters dropped; a lookup then
    seals level 0 and finds every key, stored before the upgrade or after."""
    from sqlalchemy import create_engine

    from newscrawl.store import migrations

    rng = random.Random(25)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(30)}
    url = f"sqlite:///{tmp_path}/old.db"
    with SqlStore.open(url) as store:
        for i, (article, fingerprint) in enumerate(prints.items()):
            store.write([with_simhash(article, fingerprint, i)])
    engine = create_engine(url)
    with engine.begin() as conn:  # as revision 0008 and the merges left it
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        conn.exec_driver_sql("UPDATE articles SET id = id + 65536 WHERE id > 20")
        conn.exec_driver_sql(
            "UPDATE simhash_keys SET article_id = article_id + 65536,"
            " level = 2 WHERE article_id > 20"
        )
        conn.exec_driver_sql("UPDATE simhash_keys SET level = 1 WHERE article_id <= 10")
        conn.exec_driver_sql(
            "CREATE TABLE simhash_key_levels (level SMALLINT NOT NULL PRIMARY KEY,"
            " key_count BIGINT NOT NULL)"
        )
        conn.exec_driver_sql("INSERT INTO simhash_key_levels VALUES (0, 140), (1, 140), (2, 140)")
        conn.exec_driver_sql(
            "INSERT INTO simhash_key_filters VALUES (1, 1, 140, NULL), (2, 2, 140, ?)",
            (KeyFilter(140, bits_per_key=10).to_bytes(),),  # holds nothing: a stale filter
        )
        conn.exec_driver_sql(f"UPDATE {migrations.VERSION_TABLE} SET version_num = '0008'")
    engine.dispose()
    later = {f"https://b/{i}": rng.getrandbits(64) for i in range(3)}
    with SqlStore.open(url) as store:
        assert [step[:4] for step in store.schema_change.upgrades] == ["0009", "0010"]
        assert level_counts(store) == {0: 20 * INDEXED_PLANES, 1: 10 * INDEXED_PLANES}
        with store.engine.connect() as conn:
            assert "simhash_key_levels" not in inspect(conn).get_table_names()
            assert sealed_filters(conn) == {}
        for i, (article, fingerprint) in enumerate(later.items(), 100):
            store.write([with_simhash(article, fingerprint, i)])
        assert_every_key_found(store, prints | later)
        with store.engine.connect() as conn:
            assert set(sealed_filters(conn)) == {0}


def test_an_existing_key_index_is_upgraded_into_one_level(tmp_path: Any) -> None:
    """Revisions 0006 to 0010 move the keys 0005 stored into the level of their ids."""
    from sqlalchemy import create_engine

    from newscrawl.store import migrations

    url = f"sqlite:///{tmp_path}/old.db"
    with SqlStore.open(url) as store:
        store.write([with_simhash(f"https://a/{i}", 1000 + i, i) for i in range(3)])
        before = stored_keys(store)
    engine = create_engine(url)
    with engine.begin() as conn:  # back to 0005's table, as an older release left it
        conn.exec_driver_sql("DROP TABLE simhash_keys")
        conn.exec_driver_sql("DROP TABLE simhash_key_filters")
        conn.exec_driver_sql(
            "CREATE TABLE simhash_keys (key BIGINT NOT NULL, article_id INTEGER NOT NULL,"
            " PRIMARY KEY (key, article_id)) WITHOUT ROWID"
        )
        conn.exec_driver_sql(
            "INSERT INTO simhash_keys VALUES (?, ?)", [(key, row) for key, row in before]
        )
        conn.exec_driver_sql(f"UPDATE {migrations.VERSION_TABLE} SET version_num = '0005'")
    engine.dispose()
    with SqlStore.open(url) as store:
        assert stored_keys(store) == before
        assert level_counts(store) == {0: 3 * INDEXED_PLANES}


def test_a_store_from_before_content_keys_finds_copies_of_its_articles_once_upgraded(
    db_url: str,
) -> None:
    """Revision 0010: a store as 0009 left it (copies looked up by an index on the content
    hash, level 0 sealed with a filter of the simhash keys alone) gains the content keys
    of its articles at the levels of their ids and loses the index and the filters, which
    would turn those keys away; a copy of every article stored before is then a duplicate,
    and the filter built again holds the content keys."""
    from newscrawl.store import migrations
    from newscrawl.store.sql import create_store_engine

    rng = random.Random(28)
    olds = [with_simhash(f"https://a/{i}", rng.getrandbits(64), i) for i in range(40)]
    with SqlStore.open(db_url) as store:
        store.write(olds)
    engine = create_store_engine(db_url)
    with engine.begin() as conn:  # as 0009 left it, with level 0 sealed below a level 1
        conn.execute(simhash_keys.delete().where(simhash_keys.c.key >= CONTENT_PLANE << 32))
        conn.execute(simhash_keys.update().values(level=0))  # SQLite's buffer moved
        conn.exec_driver_sql(
            "CREATE INDEX ix_articles_content_key ON articles (substr(content_hash, 1, 16))"
        )
        conn.execute(simhash_keys.insert().values(level=1, key=5, article_id=99_999))
        level_filter = KeyFilter(40 * len(KEY_PLANES))
        level_filter.add(np.array([key for key, _ in stored_keys_of(conn)], np.uint64))
        conn.execute(
            simhash_key_filters.insert().values(
                level=0,
                generation=1,
                planned_keys=level_filter.planned,
                bits=level_filter.to_bytes(),
            )
        )
        conn.exec_driver_sql(f"UPDATE {migrations.VERSION_TABLE} SET version_num = '0009'")
        first = olds[0].content_hash
        assert first and key_index.candidates(conn, [content_key(first)]) == []  # turned away
    engine.dispose()
    with SqlStore.open(db_url) as store:
        assert [step[:4] for step in store.schema_change.upgrades] == ["0010"]
        assert level_counts(store) == {0: 40 * INDEXED_PLANES, 1: 1}
        with store.engine.connect() as conn:
            assert sealed_filters(conn) == {}
            assert not [d for d in index_definitions(conn) if "content_hash" in d]
        copies = [replace(old, canonical_url=f"https://b/{i}") for i, old in enumerate(olds)]
        outcomes = store.write(copies)
        assert set(outcomes.values()) == {WriteOutcome.DUPLICATE}
        with store.engine.connect() as conn:
            [(level, rebuilt)] = sealed_filters(conn).items()
        held = np.array([content_key(old.content_hash or "") for old in olds], np.uint64)
        assert level == 0 and rebuilt.might_hold(held).all()


def test_two_postgresql_writers_fill_levels_that_are_sealed_with_every_key_filtered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PostgreSQL never moves keys (a move would leave dead rows behind) and counts none (a
    row every writer updated would make them wait for each other). With levels of 4 article
    ids, two workers writing at once store every key of every article once; every level
    below the newest gets sealed, and a sealed level's filter lets through every key the
    level holds: no writer's keys land in a level after its filter was built."""
    from concurrent.futures import ThreadPoolExecutor

    from store_support import pg_schema

    monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 4)
    rng = random.Random(22)
    prints = [rng.getrandbits(64) for _ in range(120)]

    def write_half(url: str, worker: int) -> None:
        with SqlStore.open(url) as store:
            for i in range(worker, len(prints), 2):
                store.write([with_simhash(f"https://w{worker}/{i}", prints[i], i)])

    with pg_schema() as url:
        SqlStore.open(url).close()  # the tables, before the workers race to create them
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(write_half, [url, url], [0, 1]))
        with SqlStore.open(url) as store:
            found = level_counts(store)
            with store.engine.connect() as conn:
                ids = {
                    row_id: (content_hash, fingerprint)
                    for row_id, content_hash, fingerprint in conn.execute(
                        select(articles.c.id, articles.c.content_hash, articles.c.simhash)
                    )
                }
                by_url = dict(
                    conn.execute(select(articles.c.canonical_url, articles.c.simhash)).all()
                )
                key_index.candidates(conn, [0])  # a lookup seals what it finds unsealed
                filters = {
                    level: KeyFilter.from_bytes(planned, bits)
                    for level, planned, bits in conn.execute(
                        select(
                            simhash_key_filters.c.level,
                            simhash_key_filters.c.planned_keys,
                            simhash_key_filters.c.bits,
                        )
                    )
                }
                rows = conn.execute(select(simhash_keys)).all()
            assert sorted(stored_keys(store)) == sorted(
                (key, row_id)
                for row_id, (content_hash, fingerprint) in ids.items()
                for key in index_keys(content_hash, fingerprint, near=True)
            )
            assert max(found) >= len(prints) // 4 - 1
            assert set(filters) == set(range(max(found)))
            for level, level_filter in filters.items():
                held = np.array([key for at, key, _ in rows if at == level], np.uint64)
                assert level_filter.might_hold(held).all(), level
            absent = [key for _ in range(200) for key in lookup_keys(rng.getrandbits(64))]
            sent = probes_per_level(store, absent)
            assert sent[max(found)] == len(set(absent))
            assert sum(sent.values()) - len(set(absent)) < 0.03 * len(absent) * len(filters)
            assert_every_key_found(store, by_url)


def test_a_postgresql_level_is_sealed_only_once_its_writers_have_committed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A writer adds keys to level 0 and has not committed when keys reach level 1: a
    lookup then leaves level 0 unsealed (and probes it whole) rather than build a filter
    without those keys; once the writer commits, the next lookup seals it with them. A
    writer that then computes level 0 finds it sealed and writes to level 1."""
    from store_support import pg_schema

    monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 4)
    early, late = [(1000 + plane, 1) for plane in range(3)], [(2000, 2)]
    with (
        pg_schema() as url,
        SqlStore.open(url) as store,
        store.engine.connect() as writer,
        store.engine.connect() as reader,
    ):
        writer.begin()
        key_index.add(writer, early)  # no articles yet: level 0, and its lock held
        with store.engine.begin() as newer:
            newer.execute(simhash_keys.insert().values(level=1, key=3000, article_id=9))
        key_index.candidates(reader, [1000])
        reader.commit()
        assert sealed_filters(reader) == {}
        writer.commit()
        key_index.candidates(reader, [1000])
        reader.commit()
        [(level, level_filter)] = sealed_filters(reader).items()
        assert level == 0 and level_filter.might_hold(np.array([1000, 1001, 1002], np.uint64)).all()
        with writer.begin():
            key_index.add(writer, late)
        levels = writer.execute(
            select(simhash_keys.c.level).where(simhash_keys.c.key == 2000)
        ).scalars()
        assert list(levels) == [1]


def test_a_postgresql_key_index_from_before_levels_is_sealed_as_its_level_0(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A store written before levels (every key at level 0, whatever its article's id):
    new keys go to the level of the newest article id, the old keys' level 0 is sealed with
    a filter planned for all of them, every key, old or new, is still found, and an old
    article updated loses its old keys from the sealed level."""
    from store_support import pg_schema

    rng = random.Random(26)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(40)}
    items = list(prints.items())
    with pg_schema() as url, SqlStore.open(url) as store:
        monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 1 << 30)  # as before: level 0
        for i, (article, fingerprint) in enumerate(items[:30]):
            store.write([with_simhash(article, fingerprint, i)])
        monkeypatch.setattr(key_index, "ARTICLES_PER_LEVEL", 4)
        for i, (article, fingerprint) in enumerate(items[30:], 30):
            store.write([with_simhash(article, fingerprint, i)])
        found = level_counts(store)
        assert found[0] == 30 * INDEXED_PLANES and set(found) == {0, 7, 8, 9, 10}  # ids 31-40
        assert_every_key_found(store, prints)
        with store.engine.connect() as conn:
            filters = sealed_filters(conn)
        assert set(filters) == set(range(10)) and filters[0].planned == 30 * INDEXED_PLANES
        assert {f.bits_per_key for f in filters.values()} == {BITS_PER_KEY}
        with store.engine.begin() as conn:  # level 0 as sealed before filters were 16 bits
            old_filter = KeyFilter(30 * INDEXED_PLANES, bits_per_key=10)
            old_filter.add(np.array([k for k, _ in stored_keys(store)], np.uint64))
            conn.execute(
                update(simhash_key_filters)
                .where(simhash_key_filters.c.level == 0)
                .values(
                    generation=simhash_key_filters.c.generation + 100, bits=old_filter.to_bytes()
                )
            )
        assert_every_key_found(store, prints)
        oldest, fingerprint = items[0]  # its keys are in the sealed level 0
        row_id = next(a for k, a in stored_keys(store) if k == lookup_keys(fingerprint)[0])
        updated = replace(record(oldest, article_text(99)), simhash=fingerprint ^ 0xFF)
        store.write([updated])
        assert {key for key, owner in stored_keys(store) if owner == row_id} == keys_of(updated)


# --- rebuilding the key index ------------------------------------------------------------------


def key_rows_of(conn: Any) -> set[tuple[int, int, int]]:
    """Every row of the key index: (level, key, article_id)."""
    return {(level, key, row_id) for level, key, row_id in conn.execute(select(simhash_keys))}


def test_db_rebuild_keys_writes_lost_keys_as_writing_the_articles_did(
    db_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With its key rows deleted a store finds no twin; ``newscrawl db rebuild-keys`` writes
    the very rows writing the articles did, says what it did in one line, and the twin is
    found again."""
    small_levels(monkeypatch)
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "newscrawl.settings")  # as scrapy.cfg says
    rng = random.Random(36)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(10)}
    twin = with_simhash("https://b/twin", flipped(prints["https://a/2"], [5, 30]), 500)
    with SqlStore.open(db_url) as store:
        for i, (url, fingerprint) in enumerate(prints.items()):
            store.write([with_simhash(url, fingerprint, i)])
        with store.engine.begin() as conn:
            written = key_rows_of(conn)
            conn.execute(delete(simhash_keys))
            assert not key_index.candidates(conn, keys_of(twin))
    assert main(["db", "rebuild-keys", "--db", db_url]) == 0
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.endswith(
        ": keys rebuilt for 10 articles: 150 keys, 2 sealed levels (near-duplicate bits 6)\n"
    )  # ids 1-10 in levels of 4: 0 and 1 sealed, 2 open
    with SqlStore.open(db_url) as store:
        with store.engine.connect() as conn:
            assert key_rows_of(conn) == written
        store.write([twin])
        assert marks(store)["https://b/twin"] == "https://a/2"


def test_rebuilt_keys_are_those_a_fresh_store_writes_and_find_twins_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A store written with detection off holds content keys alone; `rebuild_keys` with the
    default limit writes every article's keys at the level of its id, as writing them
    afresh does, seals the levels below the newest with filters that hold every key, and a
    later twin is found. Filters are replaced under generations above every earlier one, so
    a process never keeps a filter of the old keys for a rebuilt one."""
    small_levels(monkeypatch)
    rng = random.Random(35)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(22)}
    written = [
        with_simhash(url, fingerprint, i) for i, (url, fingerprint) in enumerate(prints.items())
    ]
    fresh_url = f"sqlite:///{tmp_path}/fresh.db"
    with SqlStore.open(fresh_url) as fresh:
        for article in written:
            fresh.write([article])
        with fresh.engine.begin() as conn:
            key_index.candidates(conn, [0])  # seal what the writes left unsealed
            expected = key_rows_of(conn)
    with SqlStore.open(db_url, near_duplicate_bits=0) as store:
        for article in written:
            store.write([article])
        with store.engine.begin() as conn:
            key_index.candidates(conn, [0])
            before = dict(
                conn.execute(
                    select(simhash_key_filters.c.level, simhash_key_filters.c.generation)
                ).all()
            )
        assert {key >> 32 for key, _ in stored_keys(store)} == {CONTENT_PLANE}
    with SqlStore.open(db_url) as store:
        done = store.rebuild_keys()
        assert done.articles == len(written) and done.keys == len(written) * INDEXED_PLANES
        assert done.sealed_levels == 5  # ids 1-22 in levels of 4: 0-4 sealed, 5 open
        with store.engine.connect() as conn:
            rebuilt = key_rows_of(conn)
            after = dict(
                conn.execute(
                    select(simhash_key_filters.c.level, simhash_key_filters.c.generation)
                ).all()
            )
            filters = sealed_filters(conn)
        assert rebuilt == expected
        assert set(after) == set(range(5)) and min(after.values()) > max(before.values())
        for level, level_filter in filters.items():
            held = np.array([key for at, key, _ in rebuilt if at == level], np.uint64)
            assert level_filter.might_hold(held).all(), level
        assert_every_key_found(store, prints)
        twin = with_simhash("https://b/twin", flipped(prints["https://a/2"], [5, 30]), 500)
        store.write([twin])
        assert marks(store)["https://b/twin"] == "https://a/2"


def test_rebuilding_with_detection_off_keeps_the_content_keys_alone(db_url: str) -> None:
    fingerprint = 0x0123_4567_89AB_CDEF
    with SqlStore.open(db_url) as store:
        store.write([with_simhash("https://a/1", fingerprint, 1)])
        store.write([with_simhash("https://b/1", fingerprint ^ 1, 2)])
        assert len(stored_keys(store)) == 2 * INDEXED_PLANES
    with SqlStore.open(db_url, near_duplicate_bits=0) as store:
        assert store.rebuild_keys().keys == 2
        assert {key >> 32 for key, _ in stored_keys(store)} == {CONTENT_PLANE}
        copy = store.write([with_simhash("https://c/1", fingerprint, 1)])
        assert copy == {"https://c/1": WriteOutcome.DUPLICATE}


def test_a_seal_racing_a_postgresql_rebuild_keeps_the_rebuilt_filter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A writer left running during a rebuild (it should have been stopped) that seals a
    level meanwhile builds the filter from the old keys it still sees; it waits for the
    rebuild's row of that level and then leaves it, rather than replacing the rebuilt
    filter with its own under a generation computed before the rebuild's."""
    from store_support import pg_connect, pg_schema

    small_levels(monkeypatch)
    rng = random.Random(37)
    prints = {f"https://a/{i}": rng.getrandbits(64) for i in range(6)}
    with pg_schema() as url, SqlStore.open(url, near_duplicate_bits=0) as store:
        for i, (article, fingerprint) in enumerate(prints.items()):
            store.write([with_simhash(article, fingerprint, i)])  # content keys alone
        with store.engine.begin() as conn:
            conn.execute(delete(simhash_key_filters))  # level 0 is due for a seal
        rebuilder = store.engine.connect()
        rebuilding = rebuilder.begin()
        key_index.rebuild(rebuilder, partial(index_keys, near=True))
        writer = threading.Thread(target=look_up, args=(store, lookup_keys(0)))
        writer.start()
        with pg_connect() as admin:  # until the writer's seal waits for the rebuild's row
            for _ in range(200):
                waiting = admin.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND query LIKE '%simhash_key_filters%'"
                ).fetchone()
                if waiting and waiting[0]:
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the writer's seal never waited for the rebuild")
        rebuilding.commit()
        rebuilder.close()
        writer.join(timeout=30)
        with store.engine.connect() as conn:
            level_0 = sealed_filters(conn)[0]
            keys = [key for level, key, _ in key_rows_of(conn) if level == 0]
        assert len(keys) == 3 * INDEXED_PLANES  # ids 1-3
        assert level_0.might_hold(np.array(keys, np.uint64)).all()


def look_up(store: SqlStore, keys: list[int]) -> None:
    with store.engine.connect() as conn:
        key_index.candidates(conn, keys)
