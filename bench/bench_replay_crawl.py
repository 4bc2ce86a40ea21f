"""Replay-crawl speed: a generated WARC of >= 5,000 article pages, extraction on vs off.

The real site spider (`SiteSpider`, through a generated site config in
``NEWSCRAWL_SITES_DIR``) replays the archive with the extract pipeline (``ITEM_PIPELINES``
as configured) and without it (``ITEM_PIPELINES={}``), each run in its own process. Neither
run writes a feed or the article store, so the difference is extraction.

Each ``--processes`` value N is one off/on pair: N = 0 extracts in the crawl's own thread
with the crawl pinned to one CPU; N > 0 sets ``NEWSCRAWL_EXTRACT_PROCESSES=N`` and pins the
crawl and its workers to N + 1 CPUs, or to all there are when fewer (the off run of the pair
gets the same CPUs).
Rates use Scrapy's ``elapsed_time_seconds`` (spider open to close); the archive index is
built before the spider opens, so it shows up only in the wall time. Each mode runs
``--repeat`` times, off and on taking turns, and the fastest run counts: the machines are
shared, and another job slows a run, never speeds one up.

Targets (issue 3): extraction < 25% of crawl time; >= 200 pages/s on one core.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from synthetic_site import Page, site_pages

from newscrawl.archive import ArchivedRequest, ArchivedResponse, ArchiveWriter
from newscrawl.extract import METHODS

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SITE = "benchnews"
BASE = "http://news.bench.example.cn"
SITE_CONFIG = """\
description = "Synthetic portal for bench/bench_replay_crawl.py"
allowed_domains = ["news.bench.example.cn"]

[[entry]]
kind = "html"
url = "http://news.bench.example.cn/roll/{page}.shtml"
pages = %d

[urls]
article = ['^http://news\\.bench\\.example\\.cn/\\d{4}-\\d{2}-\\d{2}/doc-i[0-9a-f]+\\.shtml$']
follow = ['^http://news\\.bench\\.example\\.cn/roll/\\d+\\.shtml$']
"""
ROBOTS = Page(f"{BASE}/robots.txt", b"User-agent: *\nAllow: /\n", "text/plain")
MODES = {"off": ("ITEM_PIPELINES={}",), "on": ()}
"""Extra ``-s`` settings per mode: extraction off means the pipeline is disabled."""
TARGET_SHARE = 0.25
TARGET_RATE = 200.0


@dataclass(frozen=True, slots=True)
class Corpus:
    archive: Path
    articles: int
    listings: int
    article_bytes: int


@dataclass(frozen=True, slots=True)
class Run:
    mode: str
    processes: int
    """NEWSCRAWL_EXTRACT_PROCESSES of the run."""
    cpus: list[int]
    articles: int
    responses: int
    elapsed: float
    """Scrapy's elapsed_time_seconds: spider open to spider close."""
    wall: float
    """The whole process: interpreter start and archive indexing included."""

    @property
    def rate(self) -> float:
        return self.articles / self.elapsed


def build_corpus(workdir: Path, articles: int, per_listing: int) -> Corpus:
    """Write the synthetic site to a WARC, or reuse the one a previous run left in `workdir`."""
    listings = -(-articles // per_listing)
    archive = workdir / f"site-{articles}-{per_listing}.warc.gz"
    summary = archive.with_name(archive.name + ".json")
    if not (archive.exists() and summary.exists()):
        article_urls = [f"{BASE}/2024-05-10/doc-i{n:08x}.shtml" for n in range(articles)]
        listing_urls = [f"{BASE}/roll/{n}.shtml" for n in range(1, listings + 1)]
        article_set = set(article_urls)
        article_bytes = 0
        archive.unlink(missing_ok=True)
        with ArchiveWriter(archive, {"software": "bench_replay_crawl"}) as writer:
            for page in (ROBOTS, *site_pages(article_urls, listing_urls, BASE)):
                writer.write(*exchange(page))
                if page.url in article_set:
                    article_bytes += len(page.body)
        summary.write_text(json.dumps({"article_bytes": article_bytes}))
    article_bytes = json.loads(summary.read_text())["article_bytes"]
    return Corpus(archive, articles, listings, article_bytes)


def exchange(page: Page) -> tuple[ArchivedRequest, ArchivedResponse]:
    """The page as a recorded 200 response (and the GET that fetched it)."""
    request = ArchivedRequest("GET", page.url, (("User-Agent", "bench"),))
    headers = (("Content-Type", page.content_type), ("Content-Length", str(len(page.body))))
    return request, ArchivedResponse(page.url, 200, headers, page.body, datetime.now(UTC))


def crawl_command(corpus: Corpus, mode: str, method: str, processes: int) -> list[str]:
    command = [sys.executable, "-m", "scrapy", "crawl", SITE]
    settings = (
        f"NEWSCRAWL_REPLAY={corpus.archive}",
        f"NEWSCRAWL_EXTRACT_METHOD={method}",
        f"NEWSCRAWL_EXTRACT_PROCESSES={processes}",
        "NEWSCRAWL_DEFAULT_FEED=",
        "NEWSCRAWL_DB_ENABLED=False",
        "LOG_LEVEL=INFO",
        *MODES[mode],
    )
    for setting in settings:
        command += ["-s", setting]
    return command


def run_crawl(
    corpus: Corpus, sites_dir: Path, mode: str, method: str, processes: int, cpus: list[int]
) -> Run:
    """One replay crawl in a fresh process on `cpus`; figures read from its stats dump."""
    env = {**os.environ, "NEWSCRAWL_SITES_DIR": str(sites_dir)}
    started = time.perf_counter()
    done = subprocess.run(
        crawl_command(corpus, mode, method, processes),
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: os.sched_setaffinity(0, cpus),
    )
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"crawl ({mode}) failed:\n{done.stderr[-3000:]}")
    stats = dict(re.findall(r"'([\w/.]+)': ([\d.]+)[,}]", done.stderr))
    if "log_count/ERROR" in stats or "newscrawl/replay/missing" in stats:
        sys.exit(f"crawl ({mode}) had errors or missing pages:\n{done.stderr[-3000:]}")
    return Run(
        mode=mode,
        processes=processes,
        cpus=cpus,
        articles=int(stats.get("item_scraped_count", 0)),
        responses=int(stats["response_received_count"]),
        elapsed=float(stats["elapsed_time_seconds"]),
        wall=wall,
    )


def report(corpus: Corpus, pairs: list[tuple[Run, Run]], method: str) -> dict[str, object]:
    """Print the table and return the figures as JSON-ready data."""
    size_kb = corpus.article_bytes / corpus.articles / 1024
    print(
        f"\ncorpus: {corpus.articles} articles (mean {size_kb:.1f} KB), {corpus.listings} "
        f"listing pages, {corpus.archive.stat().st_size / 2**20:.0f} MB archive; "
        f"extraction method {method!r}\n"
    )
    columns = "extract processes", "CPUs", "extraction", "articles", "responses", "crawl s"
    print("| " + " | ".join((*columns, "pages/s", "wall s")) + " |")
    print("| --- " * (len(columns) + 2) + "|")
    for run in (run for pair in pairs for run in pair):
        print(
            f"| {run.processes} | {len(run.cpus)} | {run.mode} | {run.articles} | "
            f"{run.responses} | {run.elapsed:.1f} | {run.rate:.0f} | {run.wall:.1f} |"
        )
    print()
    for off, on in pairs:
        share = extraction_share(off, on)
        where = "the crawl's thread" if not on.processes else f"{on.processes} worker process(es)"
        print(
            f"extraction in {where}, {len(on.cpus)} CPU(s): {share:.1%} of crawl time "
            f"(target < {TARGET_SHARE:.0%}: {'ok' if share < TARGET_SHARE else 'MISSED'}), "
            f"{on.rate:.0f} pages/s"
        )
    for on in (on for _, on in pairs if len(on.cpus) == 1):
        verdict = "ok" if on.rate >= TARGET_RATE else "MISSED"
        print(f"pages/s with extraction on one core: {on.rate:.0f}", end=" ")
        print(f"(target >= {TARGET_RATE:.0f}: {verdict})")
    return {
        "corpus": {**asdict(corpus), "archive": str(corpus.archive)},
        "method": method,
        "pairs": [
            {
                "processes": on.processes,
                "runs": {
                    run.mode: {**asdict(run), "pages_per_second": run.rate} for run in (off, on)
                },
                "extraction_share": extraction_share(off, on),
            }
            for off, on in pairs
        ],
    }


def extraction_share(off: Run, on: Run) -> float:
    """The part of the crawl-with-extraction's time that the crawl without it did not take."""
    return (on.elapsed - off.elapsed) / on.elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=5000, help="article pages (default 5000)")
    parser.add_argument("--per-listing", type=int, default=50, help="article links per listing")
    parser.add_argument("--workdir", type=Path, help="keeps the archive between runs")
    parser.add_argument("--method", choices=METHODS, default="default", help="extraction method")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs of each mode, off and on taking turns; the fastest counts (default 3)",
    )
    parser.add_argument(
        "--processes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[0, 1],
        help="NEWSCRAWL_EXTRACT_PROCESSES values, one off/on pair each (default 0,1)",
    )
    args = parser.parse_args()
    print("$ " + shlex.join([sys.executable, *sys.argv]), flush=True)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-replay-"))
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    corpus = build_corpus(workdir, args.articles, args.per_listing)
    print(f"archive ready in {time.perf_counter() - started:.0f} s: {corpus.archive}", flush=True)
    sites_dir = workdir / "sites"
    sites_dir.mkdir(exist_ok=True)
    (sites_dir / f"{SITE}.toml").write_text(SITE_CONFIG % corpus.listings)
    available = sorted(os.sched_getaffinity(0))
    pairs = []
    for processes in args.processes:
        cpus = available[: processes + 1]
        for mode in MODES:
            command = crawl_command(corpus, mode, args.method, processes)
            print(f"$ NEWSCRAWL_SITES_DIR={shlex.quote(str(sites_dir))} {shlex.join(command)}")
            print(f"  (CPUs {cpus})", flush=True)
        rounds = [
            [run_crawl(corpus, sites_dir, mode, args.method, processes, cpus) for mode in MODES]
            for _ in range(args.repeat)
        ]
        off, on = (min(runs, key=lambda run: run.elapsed) for runs in zip(*rounds, strict=True))
        pairs.append((off, on))
    results = report(corpus, pairs, args.method)
    results_path = workdir / f"results-{args.method}.json"
    results_path.write_text(json.dumps(results, indent=2))
    print(f"results: {results_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
