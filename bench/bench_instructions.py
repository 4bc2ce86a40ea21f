"""Extraction cost in instructions a page (callgrind): a speed figure the machine's load does
not move.

Seconds a page on a shared machine move with whatever else runs (the speed sections state
the load at their start); the instructions a page takes do not. Each workload runs twice
under ``valgrind --tool=callgrind``, extracting every page once and then twice, with a
fixed hash seed and, but for the last workload, the garbage collector off, and the
difference over the page count is the instructions of one extraction of a page (imports,
loading and warm-up cancel out). The workloads: the crawl bench's synthetic article pages
(``bench/synthetic_site.py``) with and without metadata, zh_cwce and sites, and
dragnet_dev, body only (as the speed section times them), the crawl bench's pages once more
with the C extension switched off (the cost of an install without a C compiler: the README
quotes the ratio), and once more with the collector on, as a program calling `extract` runs
it. Repeated runs of the same code agreed within 0.2% on the AMD EPYC where this was first
run, and within 2.5% on an Intel Xeon (where the same code also counts a few percent
differently: glibc picks other string routines): compare figures of one machine, and
differences of a percent or two as noise.

    python bench/bench_instructions.py [--synthetic-pages 100] [--dataset-pages 150]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from recorded import recorded

BENCH = Path(__file__).resolve().parent

WORKER = """
import gc, sys
sys.path.insert(0, sys.argv[1])
workload, metadata, compiled = sys.argv[2], sys.argv[3] == "1", sys.argv[6] == "1"
collector = sys.argv[7] == "1"
if not compiled:  # as where no compiler built the extension: every module's Python path
    import warnings
    warnings.simplefilter("ignore", RuntimeWarning)
    from newscrawl.extract import blocks, native
    native.blockscan = None
    blocks._scan = blocks._page_lines_python
from newscrawl.extract import Options, extract
passes, limit = int(sys.argv[4]), int(sys.argv[5])
if workload == "synthetic":
    from synthetic_site import sample_articles
    pages = sample_articles(limit)
else:
    from newscrawl.evaluation.datasets import load_dataset
    pages = [(p.html, p.url) for name in workload.split(",") for p in load_dataset(name).pages]
    pages = pages[:limit]
options = Options(with_metadata=metadata)
extract(pages[0][0], pages[0][1], options=options)
gc.collect()
if not collector:
    gc.disable()
for _ in range(passes):
    for data, url in pages:
        extract(data, url, options=options)
print(len(pages))
"""

WORKLOADS = (
    ("synthetic", True, True, False),
    ("synthetic", False, True, False),
    ("zh_cwce,sites", False, True, False),
    ("dragnet_dev", False, True, False),
    ("synthetic", True, False, False),
    ("synthetic", True, True, True),
)
"""(pages, with metadata, with the C extension, with the garbage collector): the crawl
bench's pages as the crawl extracts them, then body only on them and on the dev sets the
speed section times, then the first without the extension, and with the collector on at
Python's default thresholds, as a program that calls `extract` runs it (its collections
walk the objects a page's extraction holds)."""


def instructions(
    workload: str, metadata: bool, compiled: bool, collector: bool, passes: int, limit: int
) -> tuple[int, int]:
    """(instructions callgrind counted, pages) for `passes` extractions of the pages."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-c",
        WORKER,
        str(BENCH),
        workload,
        "1" if metadata else "0",
        str(passes),
        str(limit),
        "1" if compiled else "0",
        "1" if collector else "0",
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if collected is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(collected.group(1)), int(done.stdout.split()[-1])


def instructions_a_page(
    workload: str, metadata: bool, compiled: bool, collector: bool, limit: int
) -> tuple[float, int]:
    """(M instructions of one extraction of a page, pages): two passes over the pages minus
    one, so imports, loading and warm-up cancel out."""
    once, pages = instructions(workload, metadata, compiled, collector, 1, limit)
    twice, _ = instructions(workload, metadata, compiled, collector, 2, limit)
    return (twice - once) / pages / 1e6, pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--synthetic-pages", type=int, default=100)
    parser.add_argument("--dataset-pages", type=int, default=150)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (apt install valgrind)")
    print("| pages | metadata | C extension | collector | pages measured | M instructions a page |")
    print("| --- | --- | --- | --- | ---: | ---: |")
    cost: dict[tuple[str, bool, bool, bool], float] = {}
    for workload, metadata, compiled, collector in WORKLOADS:
        limit = args.synthetic_pages if workload == "synthetic" else args.dataset_pages
        per_page, pages = instructions_a_page(workload, metadata, compiled, collector, limit)
        cost[workload, metadata, compiled, collector] = per_page
        flags = " | ".join("yes" if flag else "no" for flag in (metadata, compiled, collector))
        print(f"| {workload} | {flags} | {pages} | {per_page:.2f} |", flush=True)
    crawl_page = cost["synthetic", True, True, False]
    ratio = cost["synthetic", True, False, False] / crawl_page
    print(f"\nwithout the C extension: {ratio:.1f}x the instructions a page")
    collected = cost["synthetic", True, True, True] / crawl_page - 1
    print(f"the collector on: {collected:+.1%} the instructions a page")


if __name__ == "__main__":
    with recorded("instructions", "Extraction cost in instructions a page (callgrind)"):
        main()
