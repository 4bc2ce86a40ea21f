"""Store benchmark: batched insert throughput (SQLite, PostgreSQL), export throughput, the
incremental skip's lookup rate, and the peak memory of exporting a large store (flat).

    .venv/bin/python bench/bench_store.py [--articles 20000] [--export-articles 100000]

Records carry precomputed fingerprints (random simhash, a unique content hash) so the
insert figures measure the store; fingerprinting a body is timed on its own line. PostgreSQL
runs in a throw-away schema on 127.0.0.1:5432 and is left out when unreachable.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from newscrawl.fingerprint import simhash
from newscrawl.store import ArticleRecord, open_store
from newscrawl.store.export import write_jsonl

ALPHABET = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可"
    "主发年动同工也能下过子说产种面而方后多定行学法所民得经。，"
)
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
BATCH = 1000
BODY_CHARS = 1500
RESULTS = Path(__file__).with_name("results") / "store.json"


def records(count: int, seed: int = 0) -> Iterator[ArticleRecord]:
    """Distinct articles of `BODY_CHARS` characters with cheap, realistic fingerprints."""
    rng = random.Random(seed)
    start = datetime(2024, 5, 1, tzinfo=UTC)
    for i in range(count):
        body = "".join(rng.choices(ALPHABET, k=BODY_CHARS))
        url = f"https://news.example.cn/{seed}/{i}.html"
        yield ArticleRecord(
            canonical_url=url,
            fetched_url=url,
            site=f"site{i % 8}",
            title=f"第{i}篇",
            body=body,
            fetched_at=start + timedelta(seconds=i),
            content_hash=hashlib.sha256(body.encode()).hexdigest(),
            simhash=rng.getrandbits(64),
        )


def batches(count: int, seed: int) -> Iterator[list[ArticleRecord]]:
    batch: list[ArticleRecord] = []
    for item in records(count, seed):
        batch.append(item)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def fill(url: str, count: int) -> float:
    """Insert `count` articles in batches of `BATCH`; articles per second (writes only)."""
    prepared = list(batches(count, seed=1))
    with open_store(url) as store:
        started = time.perf_counter()
        for batch in prepared:
            store.write(batch)
        return count / (time.perf_counter() - started)


def export_rate(url: str) -> tuple[int, float]:
    with open_store(url) as store, tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        count = write_jsonl(store.iter_articles(), out)
        return count, count / (time.perf_counter() - started)


def lookup_rate(url: str, count: int, probes: int = 5000) -> float:
    """`is_known` calls per second (the incremental skip's per-request cost), half hits."""
    rng = random.Random(2)
    urls = [f"https://news.example.cn/1/{rng.randrange(count * 2)}.html" for _ in range(probes)]
    with open_store(url) as store:
        started = time.perf_counter()
        for probe in urls:
            store.is_known(probe)
        return probes / (time.perf_counter() - started)


def export_peak_rss_mib(url: str, out: Path) -> float:
    """Peak RSS of a `newscrawl export` process writing the whole store to JSONL."""
    # VmHWM, not ru_maxrss: the latter keeps the forking parent's peak across exec.
    code = (
        "import re, sys; from newscrawl.cli import main; rc = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read(); "
        "print(re.search(r'VmHWM:\\s+(\\d+)', status)[1], file=sys.stderr); "
        "raise SystemExit(rc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "export", "--db", url, "-o", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def fingerprint_rate(samples: int = 300) -> float:
    bodies = [body.body for body in records(samples, seed=3)]
    started = time.perf_counter()
    for body in bodies:
        simhash(body)
        hashlib.sha256(body.encode()).hexdigest()
    return samples / (time.perf_counter() - started)


def backends(workdir: Path) -> Iterator[tuple[str, str]]:
    """(name, URL) for SQLite and, when reachable, PostgreSQL (a schema dropped after)."""
    yield "sqlite", f"sqlite:///{workdir}/bench.db"
    try:
        import psycopg

        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5)
    except Exception as exc:
        print(f"PostgreSQL left out: {exc}", file=sys.stderr)
        return
    schema = f"nc_bench_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield "postgresql", f"{PG_ADMIN}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=20_000)
    parser.add_argument("--export-articles", type=int, default=100_000)
    args = parser.parse_args()
    print("$ " + " ".join(["python", "bench/bench_store.py", *sys.argv[1:]]))
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name, url in backends(workdir):
            insert = fill(url, args.articles)
            exported, export = export_rate(url)
            lookups = lookup_rate(url, args.articles)
            small_rss = export_peak_rss_mib(url, workdir / f"{name}-small.jsonl")
            fill_more = args.export_articles - args.articles
            if fill_more > 0:
                with open_store(url) as store:
                    for batch in batches(fill_more, seed=4):
                        store.write(batch)
            big_rss = export_peak_rss_mib(url, workdir / f"{name}-big.jsonl")
            rows.append(
                {
                    "backend": name,
                    "insert/s": round(insert),
                    "export/s": round(export),
                    "lookups/s": round(lookups),
                    f"export RSS {exported:,} (MiB)": round(small_rss, 1),
                    f"export RSS {max(args.export_articles, exported):,} (MiB)": round(big_rss, 1),
                }
            )
    header = list(rows[0]) if rows else []
    print(f"\n{args.articles:,} articles of {BODY_CHARS} characters, batches of {BATCH}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print(
            "| "
            + " | ".join(f"{row[h]:,}" if isinstance(row[h], int) else str(row[h]) for h in header)
            + " |"
        )
    fingerprints = fingerprint_rate()
    print(f"\nfingerprinting (sha256 + simhash of a {BODY_CHARS}-char body): {fingerprints:,.0f}/s")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({"rows": rows, "fingerprints/s": round(fingerprints)}, indent=2))


if __name__ == "__main__":
    main()
