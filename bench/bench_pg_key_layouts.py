"""Three layouts of PostgreSQL's near-duplicate keys, measured alone.

    .venv/bin/python bench/bench_pg_key_layouts.py [--sizes 10k,1m] [--batches 20]
        [--layouts btree,gin,levels]

``btree`` is a row per key in one B-tree, the store's first layout: each new
article changes 14 random leaf pages, which is what its write rate lost as the corpus
outgrew the buffers. ``gin`` is a row per article with its 14 keys in an array and a GIN
index, whose pending list takes new entries in one place and is merged into the index in
key order once it is full (``fastupdate``, ``gin_pending_list_limit``). ``levels`` is the
store's layout since: the B-tree led by a level, one per 65,536 article ids, new keys
written to the newest level only and every older level looked up through its Bloom filter
(`newscrawl.store.key_index`).

At each size a table of each layout is filled with random keys (the B-trees in random
order, as a crawl fills them; the GIN index built after the load; the filters of the
sealed levels built untimed), then `--batches` batches of 1,000 articles are timed: the
lookup of 14,000 random keys (the B-trees probed once per key and level as the store does;
the GIN index with one ``&&`` of the array), then their insertion, then a checkpoint,
timed. No articles table, and of the store's code only its Bloom filter: the figures are
the key index's alone. A lookup that takes longer than `LOOKUP_LIMIT_S` is cancelled and the
layout's row says so (the GIN lookup at 1,000,000 articles ran for minutes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from typing import Any

import numpy as np
from bench_store import parse_size
from recorded import recorded

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
BATCH = 1000
KEYS = 14
LOOKUP_LIMIT_S = 60

LAYOUTS = {
    "btree": (
        "CREATE TABLE keys_btree (key BIGINT, article_id INTEGER, PRIMARY KEY (key, article_id))",
        "INSERT INTO keys_btree SELECT (random() * 2 ^ 36)::bigint, g / 14"
        " FROM generate_series(0, %(n)s * 14 - 1) g",
        None,
    ),
    "gin": (
        "CREATE TABLE keys_gin (article_id INTEGER PRIMARY KEY, keys BIGINT[])",
        "INSERT INTO keys_gin SELECT g, ARRAY(SELECT (random() * 2 ^ 36)::bigint + g * 0"
        " FROM generate_series(1, 14)) FROM generate_series(0, %(n)s - 1) g",
        "CREATE INDEX keys_gin_keys ON keys_gin USING gin (keys)"
        " WITH (fastupdate = on, gin_pending_list_limit = 4096)",
    ),
    "levels": (
        "CREATE TABLE keys_levels (level SMALLINT, key BIGINT, article_id INTEGER,"
        " PRIMARY KEY (level, key, article_id))",
        "INSERT INTO keys_levels SELECT (g / 14) >> %(shift)s, (random() * 2 ^ 36)::bigint,"
        " g / 14 FROM generate_series(0, %(n)s * 14 - 1) g",
        None,
    ),
}
LEVEL_SHIFT = 16
"""The store's `ARTICLES_PER_LEVEL` is 2**16 article ids a level."""


def batch_keys(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 2**36, size=(BATCH, KEYS), dtype=np.int64)


def write_batch(cur: Any, layout: str, keys: np.ndarray, first_id: int) -> None:
    ids = np.arange(first_id, first_id + BATCH)
    if layout in ("btree", "levels"):
        order = np.argsort(keys.reshape(-1), kind="stable")
        level = "" if layout == "btree" else f"{(first_id + BATCH - 1) >> LEVEL_SHIFT}, "
        cur.execute(
            f"INSERT INTO keys_{layout} SELECT {level}* FROM unnest(%s::bigint[], %s::int[])",
            (keys.reshape(-1)[order].tolist(), np.repeat(ids, KEYS)[order].tolist()),
        )
    else:
        cur.executemany(
            "INSERT INTO keys_gin VALUES (%s, %s)",
            list(zip(ids.tolist(), keys.tolist(), strict=True)),
        )


def look_up(cur: Any, layout: str, keys: np.ndarray, stored: int, filters: dict) -> int:
    wanted = sorted(set(keys.reshape(-1).tolist()))
    if layout == "levels":
        probes = []  # level * 2**40 + key, as the store encodes them
        ordered = np.array(wanted, np.uint64)
        for level in range(((stored - 1) >> LEVEL_SHIFT) + 1):
            sealed = filters.get(level)
            chosen = ordered if sealed is None else ordered[sealed.might_hold(ordered)]
            probes += [level << 40 | key for key in chosen.tolist()]
        cur.execute(
            "SELECT m.key, m.article_id FROM unnest(%s::bigint[]) AS probe(p)"
            " JOIN LATERAL (SELECT key, article_id FROM keys_levels"
            " WHERE level = probe.p >> 40 AND key = probe.p & (2::bigint ^ 40 - 1)::bigint"
            " OFFSET 0) m ON true",
            (probes,),
        )
    elif layout == "btree":
        cur.execute(
            "SELECT m.key, m.article_id FROM unnest(%s::bigint[]) AS probe(key)"
            " JOIN LATERAL (SELECT key, article_id FROM keys_btree WHERE key = probe.key"
            " OFFSET 0) m ON true",
            (wanted,),
        )
    else:
        cur.execute("SELECT article_id, keys FROM keys_gin WHERE keys && %s::bigint[]", (wanted,))
    return len(cur.fetchall())


def build_filters(cur: Any, size: int) -> dict:
    """A Bloom filter of each level sealed before the timed batches (all but the newest)."""
    from newscrawl.store.key_filter import KeyFilter

    filters = {}
    for level in range((size - 1) >> LEVEL_SHIFT):
        cur.execute("SELECT key FROM keys_levels WHERE level = %s", (level,))
        filters[level] = KeyFilter(KEYS << LEVEL_SHIFT)
        filters[level].add(np.array([key for (key,) in cur.fetchall()], np.uint64))
    return filters


def measure(conn: Any, layout: str, size: int, batches: int) -> dict[str, Any]:
    """One layout at one size; "lookup ms" is a string where a lookup passed the limit."""
    from psycopg.errors import QueryCanceled

    create, fill, index = LAYOUTS[layout]
    cur = conn.cursor()
    cur.execute(create)
    started = time.perf_counter()
    cur.execute(fill, {"n": size, "shift": LEVEL_SHIFT})
    if index:
        cur.execute(index)
    cur.execute(f"VACUUM ANALYZE keys_{layout}")
    cur.execute("CHECKPOINT")
    loaded = time.perf_counter() - started
    filters = build_filters(cur, size) if layout == "levels" else {}
    rng = np.random.default_rng(size)
    lookups: list[float] = []
    writes: list[float] = []
    found = 0
    window = time.perf_counter()
    for number in range(batches):
        keys = batch_keys(rng)
        started = time.perf_counter()
        cur.execute(f"SET statement_timeout = '{LOOKUP_LIMIT_S}s'")
        try:
            found += look_up(cur, layout, keys, size + number * BATCH, filters)
        except QueryCanceled:
            cur.execute(f"DROP TABLE keys_{layout}")
            return {"layout": layout, "stored": size, "lookup ms (median)": f"> {LOOKUP_LIMIT_S}s"}
        finally:
            cur.execute("RESET statement_timeout")
        lookups.append(time.perf_counter() - started)
        started = time.perf_counter()
        write_batch(cur, layout, keys, size + number * BATCH)
        writes.append(time.perf_counter() - started)
    started = time.perf_counter()
    cur.execute("CHECKPOINT")
    paid = time.perf_counter() - started
    total = time.perf_counter() - window
    cur.execute(f"SELECT pg_total_relation_size('keys_{layout}')")
    (size_bytes,) = cur.fetchone()
    cur.execute(f"DROP TABLE keys_{layout}")
    return {
        "layout": layout,
        "stored": size,
        "loaded (s)": round(loaded),
        "lookup ms (median)": round(1000 * statistics.median(lookups), 1),
        "insert ms (median)": round(1000 * statistics.median(writes), 1),
        "insert ms (slowest)": round(1000 * max(writes), 1),
        "checkpoint (s)": round(paid, 1),
        "articles/s (window)": round(batches * BATCH / total),
        "rows found": found,
        "bytes per article": round(size_bytes / (size + batches * BATCH)),
    }


def main() -> None:
    import psycopg

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,1m")
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--layouts", default=",".join(LAYOUTS))
    args = parser.parse_args()
    rows = []
    schema = f"nc_layouts_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path = "{schema}"')
        try:
            for size in (parse_size(s) for s in args.sizes.split(",")):
                for layout in args.layouts.split(","):
                    rows.append(measure(conn, layout, size, args.batches))
                    print(rows[-1], file=sys.stderr, flush=True)
        finally:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    header = list(rows[0])
    print("| " + " | ".join(header) + " |\n|" + " --- |" * len(header))
    for row in rows:
        row = {column: row.get(column, "") for column in header}
        print(
            "| "
            + " | ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in row.values())
            + " |"
        )


if __name__ == "__main__":
    with recorded("pg-key-layouts", "PostgreSQL's key index alone, by layout"):
        main()
