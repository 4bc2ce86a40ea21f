"""Long fuzz run: `extract` on mutated copies of the shared pages must never raise nor blow up.

    python bench/fuzz_extract.py [--pages 100000] [--seed 0] [--min-kb 50]

Each input is a dataset page (zh_cwce, sites, scrapinghub) with one to three mutations:
truncation at a random offset, byte flips, deleted or duplicated tags, 10,000-deep nesting,
a giant attribute, NUL bytes, a mislabeled charset (``<meta>`` and/or HTTP), or one of the
hostile runs of ``bench/bench_pathological.py`` (10 KB to 1 MB of a repeated unit in an
attribute, a script, JSON-LD, a URL, many lines ...). Every input goes through every method
with default options (metadata included: it is part of what callers run). The run counts
exceptions (must be zero; each failing input is saved under bench/results/fuzz/ with its
traceback) and compares, per method, the slowest input's seconds per MB with that method's
median over inputs of at least --min-kb (smaller ones are dominated by fixed costs): a
ratio of `MAX_SLOWDOWN` or more means a super-linear path. The methods differ in constant
factor (the paper's regex passes cost more per MB than the default's scan), so a median
pooled over both would flag the slower method's ordinary pages rather than a blow-up; the
pooled ratio is printed too. A fixed seed makes the run repeatable.
"""

from __future__ import annotations

import argparse
import array
import gc
import heapq
import multiprocessing
import random
import resource
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench_pathological import TARGET_RATIO, VARIANTS
from recorded import recorded

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.extract import METHODS, Options, extract

OUT = Path(__file__).resolve().parent / "results" / "fuzz"
MAX_SLOWDOWN = TARGET_RATIO
"""The slowest input may take this multiple of the median seconds per MB (the target of
the hostile pages against the median page)."""
LABELS = (
    "utf-8", "gbk", "gb2312", "gb18030", "big5", "utf-16", "latin-1", "cp1252", "shift_jis",
    "euc-kr", "iso-2022-jp", "utf-32", "x-no-such-charset", "zlib", "",
)  # fmt: skip
"""Charsets a mislabeled page may claim, wrong ones and non-charsets included."""


@dataclass(slots=True)
class Input:
    data: bytes
    http_charset: str | None
    description: str


def truncate(rng: random.Random, case: Input) -> str:
    at = rng.randrange(len(case.data) + 1)
    case.data = case.data[:at]
    return f"truncate@{at}"


def flip_bytes(rng: random.Random, case: Input) -> str:
    data = bytearray(case.data)
    count = rng.randint(1, 64)
    for _ in range(count if data else 0):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    case.data = bytes(data)
    return f"flip×{count}"


def _tag_at(rng: random.Random, data: bytes) -> tuple[int, int] | None:
    start = data.find(b"<", rng.randrange(len(data) + 1))
    end = data.find(b">", start)
    return (start, end + 1) if start >= 0 and end >= 0 else None


def delete_tag(rng: random.Random, case: Input) -> str:
    if span := _tag_at(rng, case.data):
        case.data = case.data[: span[0]] + case.data[span[1] :]
        return f"delete-tag@{span[0]}"
    return "delete-tag(none)"


def duplicate_tag(rng: random.Random, case: Input) -> str:
    if span := _tag_at(rng, case.data):
        tag = case.data[span[0] : span[1]]
        case.data = case.data[: span[1]] + tag * rng.randint(1, 1000) + case.data[span[1] :]
        return f"duplicate-tag@{span[0]}"
    return "duplicate-tag(none)"


def _insert(rng: random.Random, case: Input, junk: bytes) -> int:
    at = rng.randrange(len(case.data) + 1)
    case.data = case.data[:at] + junk + case.data[at:]
    return at


def deep_nesting(rng: random.Random, case: Input) -> str:
    return f"nest-10000@{_insert(rng, case, b'<div><span>' * 5_000)}"


def giant_attribute(rng: random.Random, case: Input) -> str:
    size = rng.choice((10_000, 1_000_000))
    at = _insert(rng, case, b'<p class="' + b"a " * (size // 2) + b'">')
    return f"attribute-{size}@{at}"


def hostile_run(rng: random.Random, case: Input) -> str:
    """A hostile run of `bench_pathological` (a unit such as ``id=``, ``&``, ``<time>`` or
    ``发布时间：`` repeated into an attribute, a script, lines ...) of 10 KB to 1 MB, with the
    long head statement its lines are compared with, if any."""
    variant = rng.choice(VARIANTS)
    size = rng.choice((10_000, 100_000, 1_000_000))
    junk = variant.context.head(variant.unit) + variant.run(size)
    at = _insert(rng, case, junk.encode("utf-8", "surrogatepass"))
    return f"hostile-{size} {variant.name}@{at}"


def nul_bytes(rng: random.Random, case: Input) -> str:
    count = rng.randint(1, 100)
    for _ in range(count):
        _insert(rng, case, b"\x00")
    return f"nul×{count}"


def mislabel(rng: random.Random, case: Input) -> str:
    meta, http = rng.choice(LABELS), rng.choice((None, *LABELS))
    _insert(rng, case, f'<meta charset="{meta}">'.encode())
    case.http_charset = http
    return f"meta={meta!r},http={http!r}"


MUTATIONS: tuple[Callable[[random.Random, Input], str], ...] = (
    truncate, flip_bytes, delete_tag, duplicate_tag, deep_nesting, giant_attribute, nul_bytes,
    mislabel, hostile_run,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Timing:
    seconds_per_mb: float
    seconds: float
    size: int
    method: str
    description: str


@dataclass(slots=True)
class ShardResult:
    failures: int
    per_mb: dict[str, array.array[float]]
    """By method, seconds per MB of every timed extraction (flat arrays: a list of objects
    per input grew the worker's heap until garbage-collection passes landed inside the
    timings)."""
    slowest: list[Timing]
    largest: int
    """The largest input's bytes."""
    peak_rss_mb: float
    """The worker's peak resident memory: an input that needs many times its own size
    shows here (a worker the system kills for memory stops the whole run)."""


RETIMED = 200
"""How many of a shard's slowest inputs per method are kept to be timed again (best of
`RETIMES`, after a collection) before they count: a single slow call can be the machine or
a GC pass, not the input. They are retimed slowest first until the next one's first time
is below the slowest retimed time, so no input that was not retimed can be slower."""
RETIMES = 3


def run(pages: int, seed: int, min_bytes: int, jobs: int) -> int:
    """Fuzz `pages` inputs in `jobs` processes; returns the exit status (1 on an exception
    or a blow-up). Shard k of n uses the seed (seed, k, n), so a run is repeatable."""
    started = time.perf_counter()
    shards = [
        (shard, jobs, pages // jobs + (shard < pages % jobs), seed, min_bytes)
        for shard in range(jobs)
    ]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(fuzz_shard, shards)
    failures = sum(result.failures for result in results)
    per_mb = {
        method: [value for result in results for value in result.per_mb[method]]
        for method in METHODS
    }
    slowest = [timing for result in results for timing in result.slowest]
    elapsed = time.perf_counter() - started
    status = report(pages, seed, jobs, failures, per_mb, slowest, elapsed)
    largest = max(result.largest for result in results)
    peak = max(result.peak_rss_mb for result in results)
    print(f"largest input {largest / 1e6:.0f} MB; peak memory of a worker {peak:.0f} MB")
    return status


def fuzz_shard(shard: tuple[int, int, int, int, int]) -> ShardResult:
    """One process's share of the run: its inputs, their exceptions and CPU timings."""
    index, count, pages, seed, min_bytes = shard
    sources = [
        (f"{dataset.name}/{page.id}", page.html, page.url)
        for name in NAMED_DATASETS
        for dataset in [load_dataset(name)]
        for page in dataset.pages
    ]
    gc.freeze()  # the pages stay for the whole run: no collection needs to walk them
    rng = random.Random(f"{seed}/{index}/{count}")
    options = {method: Options(method=method) for method in METHODS}
    failures = 0
    per_mb = {method: array.array("d") for method in METHODS}
    slowest: dict[str, list[tuple[float, int, Input, str | None]]] = {
        method: [] for method in METHODS
    }  # heaps
    started = time.perf_counter()
    largest = 0
    for number in range(pages):
        name, html, url = rng.choice(sources)
        case = Input(html, None, name)
        for mutation in rng.sample(MUTATIONS, rng.randint(1, 3)):
            case.description += " + " + mutation(rng, case)
        largest = max(largest, len(case.data))
        for method, option in options.items():
            try:
                seconds = _time_extract(case, url, option)
            except Exception:  # the point of the run: record any, go on
                failures += 1
                save_failure(f"{index}-{number:06d}", method, case, traceback.format_exc())
                continue
            if len(case.data) >= min_bytes:
                timed = per_mb[method]
                timed.append(seconds / len(case.data) * 1e6)
                entry = (timed[-1], len(timed) - 1, case, url)
                heap = slowest[method]
                if len(heap) < RETIMED:
                    heapq.heappush(heap, entry)
                elif entry[0] > heap[0][0]:
                    heapq.heapreplace(heap, entry)
        if (number + 1) % 1000 == 0:
            print(
                f"shard {index}: {number + 1} pages, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
            )
    timings = [
        timing
        for method, heap in slowest.items()
        for timing in _retime(heap, method, options[method], per_mb[method])
    ]
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return ShardResult(failures, per_mb, timings, largest, peak_mb)


def _retime(
    heap: list[tuple[float, int, Input, str | None]],
    method: str,
    option: Options,
    per_mb: array.array[float],
) -> list[Timing]:
    """Time a method's slowest inputs again, slowest first, writing the retimed seconds per
    MB into `per_mb`, until the next input's first time is below the slowest retimed one."""
    timings: list[Timing] = []
    slowest_retimed = 0.0
    for first, at, case, url in sorted(heap, key=lambda entry: entry[0], reverse=True):
        if first <= slowest_retimed:
            break
        gc.collect()
        seconds = min(_time_extract(case, url, option) for _ in range(RETIMES))
        per_mb[at] = seconds / len(case.data) * 1e6
        slowest_retimed = max(slowest_retimed, per_mb[at])
        timings.append(Timing(per_mb[at], seconds, len(case.data), method, case.description))
    else:
        if len(heap) == RETIMED and heap[0][0] > slowest_retimed:
            print(f"warning: {method}: more than {RETIMED} inputs to retime", file=sys.stderr)
    return timings


def _time_extract(case: Input, url: str | None, option: Options) -> float:
    """CPU seconds of one extraction (CPU time: the other shards share the machine)."""
    start = time.process_time()
    extract(case.data, url, options=option, http_charset=case.http_charset)
    return time.process_time() - start


def save_failure(number: str, method: str, case: Input, trace: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    stem = OUT / f"{number}-{method}"
    stem.with_suffix(".html").write_bytes(case.data)
    stem.with_suffix(".txt").write_text(
        f"{case.description}\nhttp_charset={case.http_charset!r}\n\n{trace}", "utf-8"
    )
    print(f"FAILED {stem.name}: {case.description}\n{trace}", file=sys.stderr)


def report(
    pages: int,
    seed: int,
    jobs: int,
    failures: int,
    per_mb: dict[str, list[float]],
    slowest: list[Timing],
    elapsed: float,
) -> int:
    pooled = [value for values in per_mb.values() for value in values]
    print(
        f"pages: {pages} x methods {', '.join(METHODS)} (seed {seed}, {jobs} processes), "
        f"{elapsed:.0f} s"
    )
    print(f"exceptions: {failures}" + (f" (inputs saved in {OUT})" if failures else ""))
    print(f"timed inputs: {len(pooled)}; pooled: {_ratio_line(pooled)}")
    ratios = []
    for method, values in per_mb.items():
        ratios.append(_ratio(values)[1])
        print(f"  {method}: {_ratio_line(values)}")
        worst = sorted(
            (timing for timing in slowest if timing.method == method),
            key=lambda timing: timing.seconds_per_mb,
            reverse=True,
        )
        for timing in worst[:5]:
            print(
                f"    {timing.seconds_per_mb:.3f} s/MB ({timing.seconds:.3f} s, "
                f"{timing.size / 1e6:.2f} MB): {timing.description}"
            )
    return 1 if failures or max(ratios, default=0.0) >= MAX_SLOWDOWN else 0


def _ratio(values: list[float]) -> tuple[float, float]:
    """The median seconds per MB and the slowest input's multiple of it."""
    median = statistics.median(values) if values else 0.0
    return median, (max(values) / median if median else 0.0)


def _ratio_line(values: list[float]) -> str:
    median, ratio = _ratio(values)
    return f"median {median:.3f} s/MB, slowest {ratio:.2f}x median"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-kb", type=int, default=50, help="smallest input timed (KB)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    return run(args.pages, args.seed, args.min_kb * 1000, args.jobs)


if __name__ == "__main__":
    with recorded("fuzz", "Fuzzing the extractor"):
        sys.exit(main())
