"""Peak RSS of extracting many pages in one process: it must stay flat as pages add up.

    python bench/bench_memory.py [--pages 1000] [--method default]

Cycles through the ../shared pages (zh_cwce, sites, scrapinghub) and prints the peak RSS
after every 250 pages; a leak shows as a column that keeps growing.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sys
from itertools import cycle, islice
from pathlib import Path

from recorded import recorded

from newscrawl.extract import Options, extract

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def page_files() -> list[Path]:
    patterns = ("zh_cwce/original/*.html", "sites/pages/*/article-*.htm*", "scrapinghub/html/*.gz")
    return sorted(path for pattern in patterns for path in SHARED.glob(pattern))


def read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--method", default="default")
    args = parser.parse_args()
    files = page_files()
    if not files:
        sys.exit(f"no pages under {SHARED}")
    options = Options(method=args.method)
    print(f"before: {peak_rss_mb():.1f} MB peak RSS")
    for number, path in enumerate(islice(cycle(files), args.pages), start=1):
        extract(read(path), options=options)
        if number % 250 == 0:
            print(f"{number:6d} pages: {peak_rss_mb():.1f} MB peak RSS")


if __name__ == "__main__":
    with recorded("memory", "Peak memory over many pages"):
        main()
