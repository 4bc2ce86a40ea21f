"""Store benchmark: what writing a batch of 1,000 new articles costs as the store
grows, on SQLite and PostgreSQL, and the near-duplicate key index alone at 10**7 articles.

    .venv/bin/python bench/bench_store.py [--sizes 10k,100k,1m] [--backends sqlite,postgresql]
        [--repeats 5]
    .venv/bin/python bench/bench_store.py --keys-only 10m [--backends sqlite]

At each size (articles stored) the store is filled through `Store.write`, then a window
of more batches is written and timed one by one (`window_batches`: `MEASURED`, or one
level's worth once levels are sealed, 66 batches), starting on a checkpoint and ending
with one, timed. SQLite's WAL and PostgreSQL's buffers put off
writing pages back to the database files: at 10,000 articles a fill has not yet paid for a
single checkpoint, at 1,000,000 it has paid for dozens, and a rate that counts the
write-back at one size and not at the other compares two different things. Per size:
inserts/s over the window, the final checkpoint's seconds, the median and slowest batch,
and the rate over the second half of the fill (seals and checkpoints as they fall), the
rows the near-duplicate check fetches per article (`near_twin_candidates` for the batch's
keys, run untimed before the batch is written: with random fingerprints these are chance
matches; each article costs 15 index probes whatever the size), the incremental skip's
"already stored?" lookup (`is_known`, half hits, microseconds per call) and the bytes per
stored article (whole database, and the key index's share).

A short window (`MEASURED` batches, below `ARTICLES_PER_LEVEL` articles) lasts 2-3 seconds,
and on a busy machine its rate ranged from 2,855 to 5,304 inserts/s between runs of the same
code, moving the ratio `growth` prints by 0.2 either way. Each size with a short window is
therefore measured ``--repeats`` times, each time on a fresh store filled from empty to that
size, and its row is the run with the median inserts/s (the lower-middle one of an even
number), with the range of all the runs' inserts/s in "inserts/s (runs)". Sizes with long
windows are measured once, on one store grown from empty through them in turn; their
"inserts/s (runs)" is that one rate.

Records carry precomputed fingerprints (random simhash, the content hash of a unique body)
so the figures measure the store. ``--keys-only`` fills `articles` with bodiless rows and
`simhash_keys` with the keys of random fingerprints and content hashes in bulk (sorted),
then times
`MEASURED` writes and the lookup as above. PostgreSQL runs in a throw-away schema on 127.0.0.1:5432.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from tempfile import TemporaryDirectory
from types import MappingProxyType
from typing import Any

import numpy as np
from recorded import recorded
from sqlalchemy import Engine, text

from newscrawl.fingerprint import (
    CONTENT_PLANE,
    INDEXED_PLANES,
    KEY_PLANES,
    NEAR_DUPLICATE_BITS,
    content_key,
    lookup_keys,
)
from newscrawl.store import ArticleRecord
from newscrawl.store.key_index import ARTICLES_PER_LEVEL
from newscrawl.store.key_index import candidates as near_twin_candidates
from newscrawl.store.sql import SqlStore

ALPHABET = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可"
    "主发年动同工也能下过子说产种面而方后多定行学法所民得经。，"
)
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
BATCH = 1000
MEASURED = 10
"""Batches timed at each size (at 1,000,000 a checkpoint falls in every 8 or so)."""
BODY_CHARS = 1500
LOOKUPS = 5000
START = datetime(2024, 5, 1, tzinfo=UTC)
RESULTS = Path(__file__).with_name("results") / "store.json"


def parse_size(size: str) -> int:
    """``10k``, ``1m``, ``2500`` -> an article count."""
    scale = {"k": 1_000, "m": 1_000_000}.get(size[-1].lower(), 1)
    return int(float(size.rstrip("kKmM")) * scale)


class Articles:
    """Distinct articles of `BODY_CHARS` characters with random simhashes, in batches."""

    def __init__(self, seed: int = 1) -> None:
        self._rng = random.Random(seed)
        self._text = "".join(self._rng.choices(ALPHABET, k=200_000))
        self._template = ArticleRecord.of(
            canonical_url="https://news.example.cn/0.html",
            fetched_at=START,
            final_url="https://news.example.cn/0.html",
            site="site0",
            title="",
            body=self._text[:BODY_CHARS],
        )
        self.made = 0

    def batch(self) -> list[ArticleRecord]:
        return [self._next() for _ in range(BATCH)]

    def _next(self) -> ArticleRecord:
        i = self.made
        self.made += 1
        offset = self._rng.randrange(len(self._text) - BODY_CHARS)
        body = f"{i}。{self._text[offset : offset + BODY_CHARS]}"
        url = f"https://news.example.cn/{i % 8}/{i}.html"
        values = dict(
            self._template.values, final_url=url, site=f"site{i % 8}", title=f"第{i}篇", body=body
        )
        return replace(
            self._template,
            canonical_url=url,
            fetched_at=START + timedelta(seconds=i),
            values=MappingProxyType(values),
            content_hash=hashlib.sha256(body.encode()).hexdigest(),
            simhash=self._rng.getrandbits(64),
        )


def measure(
    store: SqlStore, source: Articles, stored: int, batches: int | None = None
) -> dict[str, Any]:
    """Time a window of batches written to a store of `stored` articles (`batches`, by
    default `window_batches`), the write-back they cause included: the window starts on a
    checkpoint, untimed, so it pays for none of the fill's, and ends on one, timed, so it
    pays for all of its own. The rows the near-duplicate check fetched for them, the
    "already stored?" lookup, the bytes."""
    rates: list[float] = []
    rows = 0
    batches = batches or window_batches(stored)
    checkpoint(store.engine)
    for _ in range(batches):
        batch = source.batch()
        keys = {key for record in batch if record.simhash for key in lookup_keys(record.simhash)}
        with store.engine.connect() as conn:
            rows += len(near_twin_candidates(conn, keys))
        started = time.perf_counter()
        store.write(batch)
        rates.append(len(batch) / (time.perf_counter() - started))
    written = time.perf_counter()
    checkpoint(store.engine)
    paid = time.perf_counter() - written
    total, keys_bytes = sizes(store.engine)
    count = stored + batches * BATCH
    return {
        "stored": stored,
        "window (batches)": batches,
        "inserts/s": round(batches * BATCH / (sum(BATCH / rate for rate in rates) + paid)),
        "checkpoint (s)": round(paid, 1),
        "inserts/s (median batch)": round(statistics.median(rates)),
        "inserts/s (slowest batch)": round(min(rates)),
        "rows fetched per article": rows / (batches * BATCH),
        "is_known (us)": round(lookup_micros(store, count), 1),
        "bytes per article": round(total / count),
        "key index bytes per article": round(keys_bytes / count),
    }


def window_batches(stored: int) -> int:
    """`MEASURED` batches, or once levels are sealed as many as fill one level (66), so that
    the window pays for one seal."""
    sealing = stored >= ARTICLES_PER_LEVEL
    return max(MEASURED, -(-ARTICLES_PER_LEVEL // BATCH)) if sealing else MEASURED


def checkpoint(engine: Engine) -> None:
    """Write every change so far back to the database files (SQLite's WAL, PostgreSQL's
    dirty buffers), as the databases do on their own every so often."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql("CHECKPOINT")
        else:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def lookup_micros(store: SqlStore, count: int) -> float:
    """Microseconds per `is_known` call (the incremental skip's question), half hits."""
    rng = random.Random(2)
    urls = [
        f"https://news.example.cn/{i % 8}/{i}.html" for i in rng.sample(range(2 * count), LOOKUPS)
    ]
    started = time.perf_counter()
    for url in urls:
        store.is_known(url)
    return (time.perf_counter() - started) / LOOKUPS * 1e6


def sizes(engine: Engine) -> tuple[int, int]:
    """Bytes of the whole store and of the key index (SQLite: the file, after `measure`'s
    checkpoint; PostgreSQL: the tables with their indexes and TOAST)."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            total, keys = conn.execute(
                text(
                    "SELECT sum(pg_total_relation_size(c.oid)),"
                    " sum(pg_total_relation_size(c.oid)) FILTER (WHERE c.relname = 'simhash_keys')"
                    " FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
                    " AND c.relkind = 'r'"
                )
            ).one()
            return int(total), int(keys or 0)
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
        page_size = conn.exec_driver_sql("PRAGMA page_size").scalar_one()
        keys = conn.exec_driver_sql(
            "SELECT sum(pgsize) FROM dbstat WHERE name = 'simhash_keys'"
        ).scalar_one()
        return int(pages * page_size), int(keys or 0)


def grow(url: str, targets: list[int], near_bits: int) -> Iterator[dict[str, Any]]:
    """Fill a store to each of `targets` in turn and measure it there."""
    source = Articles()
    with SqlStore.open(url, near_duplicate_bits=near_bits) as store:
        for target in targets:
            started = time.perf_counter()
            half_way = target // 2
            while source.made < half_way:
                store.write(source.batch())
            second_half = time.perf_counter()
            written = source.made
            while source.made < target:
                store.write(source.batch())
            done = time.perf_counter()
            print(
                f"  filled to {source.made:,} in {done - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            second_half_rate = (source.made - written) / (done - second_half)
            yield {
                **measure(store, source, source.made),
                "inserts/s (fill, 2nd half)": round(second_half_rate),
            }


# --- the key index alone -------------------------------------------------------------------


def numpy_keys(fingerprints: np.ndarray) -> np.ndarray:
    """`lookup_keys` of many fingerprints at once: shape (len(fingerprints), 14)."""
    as_bytes = [(fingerprints >> np.uint64(8 * i)) & np.uint64(0xFF) for i in range(8)]
    columns = []
    for plane, (p0, p1, p2, p3) in enumerate(KEY_PLANES):
        low = as_bytes[p0] | as_bytes[p1] << np.uint64(8)
        high = as_bytes[p2] << np.uint64(16) | as_bytes[p3] << np.uint64(24)
        columns.append(np.uint64(plane << 32) | low | high)
    return np.stack(columns, axis=1)


def fill_keys_only(engine: Engine, count: int, chunk: int = 1_000_000) -> None:
    """`count` bodiless articles with random simhashes and content hashes and their keys,
    loaded in bulk, each key at the level of its article id as written one batch after
    another, and every level below the newest then sealed, as the store's first lookup
    would."""
    rng = np.random.default_rng(7)
    fingerprints = rng.integers(0, 2**64, size=count, dtype=np.uint64)
    hash_bits = rng.integers(0, 2**32, size=count, dtype=np.uint64)
    hashes = (f"{int(bits):08x}{i:056x}" for i, bits in enumerate(hash_bits.tolist()))
    keys = np.column_stack([numpy_keys(fingerprints), np.uint64(CONTENT_PLANE << 32) | hash_bits])
    assert [int(k) for k in keys[0]] == [
        *lookup_keys(int(fingerprints[0])),
        content_key(f"{int(hash_bits[0]):08x}"),
    ]
    ids = np.repeat(np.arange(1, count + 1, dtype=np.int64), INDEXED_PLANES)
    flat = keys.reshape(-1)
    levels = ids // ARTICLES_PER_LEVEL
    order = np.lexsort((flat, levels))
    flat, ids, levels = flat[order], ids[order], levels[order]
    signed = fingerprints.astype(np.int64)  # the store's BIGINT holds the two's complement
    times = (START.isoformat(),) * 3  # first_seen, last_fetched, last_changed
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        article_columns = (
            "id, canonical_url, final_url, site, title, body, simhash, content_hash,"
            " first_seen, last_fetched, last_changed"
        )
        if engine.dialect.name == "postgresql":
            with cursor.copy(f"COPY articles ({article_columns}) FROM STDIN") as copy:
                for i, content_hash in enumerate(hashes):
                    url = f"k/{i + 1}"
                    copy.write_row(
                        (i + 1, url, url, "s", "", "", int(signed[i]), content_hash, *times)
                    )
            with cursor.copy("COPY simhash_keys (level, key, article_id) FROM STDIN") as copy:
                for start in range(0, len(flat), chunk):
                    for row in zip(
                        levels[start : start + chunk].tolist(),
                        flat[start : start + chunk].tolist(),
                        ids[start : start + chunk].tolist(),
                        strict=True,
                    ):
                        copy.write_row(row)
            cursor.execute("SELECT setval(pg_get_serial_sequence('articles', 'id'), %s)", (count,))
        else:
            times = (START.replace(tzinfo=None).isoformat(sep=" "),) * 3
            cursor.executemany(
                f"INSERT INTO articles ({article_columns})"
                " VALUES (?, ?, ?, 's', '', '', ?, ?, ?, ?, ?)",
                (
                    (i + 1, f"k/{i + 1}", f"k/{i + 1}", int(signed[i]), content_hash, *times)
                    for i, content_hash in enumerate(hashes)
                ),
            )
            for start in range(0, len(flat), chunk):
                cursor.executemany(
                    "INSERT INTO simhash_keys (level, key, article_id) VALUES (?, ?, ?)",
                    zip(
                        levels[start : start + chunk].tolist(),
                        flat[start : start + chunk].tolist(),
                        ids[start : start + chunk].tolist(),
                        strict=True,
                    ),
                )
        raw.commit()
    finally:
        raw.close()
    with engine.begin() as conn:  # the first lookup seals every level below the newest
        near_twin_candidates(conn, [0])


def keys_only(url: str, count: int) -> dict[str, Any]:
    """Measure writes and lookups against a key index of `count` articles."""
    with SqlStore.open(url) as store:
        started = time.perf_counter()
        fill_keys_only(store.engine, count)
        loaded = time.perf_counter() - started
        print(f"  loaded {count:,} articles' keys in {loaded:.0f} s", file=sys.stderr, flush=True)
        source = Articles(seed=3)
        source.made = count + 1  # URLs after the loaded ones
        return measure(store, source, count, MEASURED)  # no seal falls in these ten batches


# --- output --------------------------------------------------------------------------------


def measure_sizes(
    workdir: Path, backend: str, targets: list[int], near_bits: int, repeats: int
) -> list[dict[str, Any]]:
    """A row per size of `targets` (sorted): where the window is short, the median of
    `repeats` runs on fresh stores; where it is long, one run on a store grown through them."""
    short = [target for target in targets if window_batches(target) == MEASURED]
    rows = []
    for target in short:
        runs = []
        for run in range(1, repeats + 1):
            with fresh_store(workdir, backend) as url:
                [row] = grow(url, [target], near_bits)
            print(
                f"  run {run}/{repeats}: {row['inserts/s']:,} inserts/s",
                file=sys.stderr,
                flush=True,
            )
            runs.append(row)
        rows.append(reported(runs))
    long = targets[len(short) :]  # windows grow with the size: the short ones come first
    if long:
        with fresh_store(workdir, backend) as url:
            rows += [reported([row]) for row in grow(url, long, near_bits)]
    return rows


def reported(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the median inserts/s (the lower-middle one of an even number), with the
    range of all runs' inserts/s after its own."""
    ordered = sorted(runs, key=lambda row: row["inserts/s"])
    low, high = ordered[0]["inserts/s"], ordered[-1]["inserts/s"]
    spread = f"{low:,}" if len(runs) == 1 else f"{low:,}-{high:,}"
    row: dict[str, Any] = {}
    for column, value in ordered[(len(ordered) - 1) // 2].items():
        row[column] = value
        if column == "inserts/s":
            row["inserts/s (runs)"] = spread
    return row


@contextmanager
def fresh_store(workdir: Path, backend: str) -> Iterator[str]:
    """The URL of an empty store, removed at exit: a new SQLite file in `workdir`, or a new
    PostgreSQL schema."""
    name = f"nc_bench_{uuid.uuid4().hex[:8]}"
    if backend == "sqlite":
        try:
            yield f"sqlite:///{workdir / name}.db"
        finally:
            for path in workdir.glob(f"{name}.db*"):  # with its -wal and -shm
                path.unlink()
        return
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE SCHEMA "{name}"')
        try:
            yield f"{PG_ADMIN}?options=-csearch_path%3D{name}"
        finally:
            admin.execute(f'DROP SCHEMA "{name}" CASCADE')


def table(rows: list[dict[str, Any]]) -> str:
    header = list(rows[0])
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for row in rows:
        lines.append("| " + " | ".join(cell(k, v) for k, v in row.items()) + " |")
    return "\n".join(lines)


def cell(column: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, float) and column.startswith("rows"):
        return f"{value:.4f}"
    return f"{value:,}"


def growth(rows: list[dict[str, Any]]) -> str:
    """The growth ratio, the largest size's rate over the smallest's, for both rates: the
    window's (its own merges and write-back paid, nothing of the fill's) and the fill's
    second half (at the smallest size: before the first merge and checkpoint). Each is
    taken from the reported rows: at a size with a short window, the run with the median
    window rate, whose fill rate need not be the median one."""
    first, last = rows[0], rows[-1]
    ratios = ", ".join(
        f"{column} {last[column] / first[column]:.2f}"
        for column in ("inserts/s (fill, 2nd half)", "inserts/s")
    )
    return f"inserts/s at {last['stored']:,} / at {first['stored']:,}: {ratios} (target >= 0.8)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,100k,1m", help="stored articles to measure at")
    parser.add_argument("--keys-only", help="measure the key index alone at this size (10m)")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help=f"fresh stores per size with a short ({MEASURED}-batch) window; the median is shown",
    )
    parser.add_argument(
        "--near-duplicate-bits",
        type=int,
        default=NEAR_DUPLICATE_BITS,
        help="the store's limit; 0 measures the store with near-duplicate detection off",
    )
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.keys_only:
        name, title = "store-keys", "The key index alone at ten million articles"
    elif args.near_duplicate_bits == NEAR_DUPLICATE_BITS:
        name, title = "store", "The store as it grows: inserts, checkpoints and lookups"
    else:
        name = f"store-{args.near_duplicate_bits}-bits"
        title = f"The store as it grows, near-duplicate limit {args.near_duplicate_bits}"
    with recorded(name, title):
        run(args)


def run(args: argparse.Namespace) -> None:
    """Measure every backend at every size (or the key index alone), print and keep the tables."""
    results: dict[str, list[dict[str, Any]]] = {}
    with TemporaryDirectory() as tmp:
        for name in args.backends.split(","):
            print(f"{name}:", file=sys.stderr, flush=True)
            if args.keys_only:
                with fresh_store(Path(tmp), name) as url:
                    rows = [keys_only(url, parse_size(args.keys_only))]
            else:
                targets = sorted({parse_size(s) for s in args.sizes.split(",")})
                rows = measure_sizes(
                    Path(tmp), name, targets, args.near_duplicate_bits, args.repeats
                )
            results[name] = rows
            limit = f"near-duplicate bits {args.near_duplicate_bits}"
            timed = f"batches of {BATCH:,}, a window of at least {MEASURED} timed per size"
            if not args.keys_only:
                timed += f" (the median of {args.repeats} fresh stores where it is {MEASURED})"
            print(f"\n{name}, {limit}, {timed}\n\n{table(rows)}", flush=True)
            if len(rows) > 1:
                print(growth(rows), flush=True)
    RESULTS.parent.mkdir(exist_ok=True)
    name = "store_keys_only.json" if args.keys_only else f"store_{args.near_duplicate_bits}.json"
    RESULTS.with_name(name).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
