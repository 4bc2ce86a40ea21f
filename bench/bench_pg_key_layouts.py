"""Two layouts of PostgreSQL's near-duplicate keys, measured alone (issue 18, next step).

    .venv/bin/python bench/bench_pg_key_layouts.py [--sizes 10k,1m] [--batches 20]

The store keeps a row per key in a B-tree (`newscrawl.store.schema.simhash_keys`): each
new article changes 14 random leaf pages, which is what its write rate loses as the corpus
outgrows the buffers. The other layout is a row per article with its 14 keys in an array
and a GIN index, whose pending list takes new entries in one place and is merged into the
index in key order once it is full (``fastupdate``, ``gin_pending_list_limit``).

At each size a table of each layout is filled with random keys (the B-tree in random
order, as a crawl fills it; the GIN index built after the load), then `--batches`
batches of 1,000 articles are timed: the lookup of 14,000 random keys (the B-tree probed
once per key as the store does; the GIN index with one ``&&`` of the array), then their
insertion, then a checkpoint, timed. No articles table, no store code: the figures are the
key index's alone. A lookup that takes longer than `LOOKUP_LIMIT_S` is cancelled and the
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
}


def batch_keys(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 2**36, size=(BATCH, KEYS), dtype=np.int64)


def write_batch(cur: Any, layout: str, keys: np.ndarray, first_id: int) -> None:
    ids = np.arange(first_id, first_id + BATCH)
    if layout == "btree":
        order = np.argsort(keys.reshape(-1), kind="stable")
        cur.execute(
            "INSERT INTO keys_btree SELECT * FROM unnest(%s::bigint[], %s::int[])",
            (keys.reshape(-1)[order].tolist(), np.repeat(ids, KEYS)[order].tolist()),
        )
    else:
        cur.executemany(
            "INSERT INTO keys_gin VALUES (%s, %s)",
            list(zip(ids.tolist(), keys.tolist(), strict=True)),
        )


def look_up(cur: Any, layout: str, keys: np.ndarray) -> int:
    wanted = sorted(set(keys.reshape(-1).tolist()))
    if layout == "btree":
        cur.execute(
            "SELECT m.key, m.article_id FROM unnest(%s::bigint[]) AS probe(key)"
            " JOIN LATERAL (SELECT key, article_id FROM keys_btree WHERE key = probe.key"
            " OFFSET 0) m ON true",
            (wanted,),
        )
    else:
        cur.execute("SELECT article_id, keys FROM keys_gin WHERE keys && %s::bigint[]", (wanted,))
    return len(cur.fetchall())


def measure(conn: Any, layout: str, size: int, batches: int) -> dict[str, Any]:
    """One layout at one size; "lookup ms" is a string where a lookup passed the limit."""
    from psycopg.errors import QueryCanceled

    create, fill, index = LAYOUTS[layout]
    cur = conn.cursor()
    cur.execute(create)
    started = time.perf_counter()
    cur.execute(fill, {"n": size})
    if index:
        cur.execute(index)
    cur.execute(f"VACUUM ANALYZE keys_{layout}")
    cur.execute("CHECKPOINT")
    loaded = time.perf_counter() - started
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
            found += look_up(cur, layout, keys)
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
    args = parser.parse_args()
    print("$ " + " ".join(["python", "bench/bench_pg_key_layouts.py", *sys.argv[1:]]))
    rows = []
    schema = f"nc_layouts_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path = "{schema}"')
        try:
            for size in (parse_size(s) for s in args.sizes.split(",")):
                for layout in LAYOUTS:
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
    main()
