"""Replay-crawl speed: a generated WARC of >= 5,000 article pages, crawled four ways.

Each ``--processes`` value N runs every mode of `MODES` on the same archive, each run in its
own process:

- ``plain``: a plain Scrapy spider (``bench/plain_replay_spider.py``, ``scrapy runspider``
  outside the project) following the same links through the replay middleware: the floor;
- ``off``: the real site spider (`SiteSpider`, through a generated site config in
  ``NEWSCRAWL_SITES_DIR``) with no item pipeline: crawling alone;
- ``on``: the site spider extracting, the store off;
- ``store``: the project's defaults: extracting into a fresh SQLite store, the incremental
  skip asking it about every article link.

N = 0 extracts in the crawl's own thread with the crawl pinned to one CPU; N > 0 sets
``NEWSCRAWL_EXTRACT_PROCESSES=N`` and pins the crawl and its workers to N + 1 CPUs, or to
all there are when fewer (every mode of the round gets the same CPUs).
Rates use Scrapy's ``elapsed_time_seconds`` (spider open to close); the archive index is
built before the spider opens, so it shows up only in the wall time. Each mode runs
``--repeat`` times, the modes taking turns, and the fastest run counts: the machines are
shared, and another job slows a run, never speeds one up.

Targets: extraction < 25% of crawl time and >= 200 pages/s on one core; with the
store on, >= 250 pages/s on one core and >= 0.8x the same crawl with the store off.
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

from recorded import recorded
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
PLAIN_SPIDER = Path(__file__).with_name("plain_replay_spider.py")
MODES = {
    "plain": (),
    "off": ("ITEM_PIPELINES={}", "NEWSCRAWL_DB_ENABLED=False"),
    "on": ("NEWSCRAWL_DB_ENABLED=False",),
    "store": ("NEWSCRAWL_DB_ENABLED=True",),
}
"""Extra ``-s`` settings per mode (``plain`` runs its own spider; ``store`` adds its
database)."""
TARGET_SHARE = 0.25
TARGET_RATE = 200.0
TARGET_STORE_RATE = 250.0
TARGET_STORE_RATIO = 0.8


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


def crawl_command(
    corpus: Corpus, mode: str, method: str, processes: int, database: Path | None = None
) -> list[str]:
    """The run's command; `database` is the fresh SQLite file of a ``store`` run."""
    if mode == "plain":
        command = [sys.executable, "-m", "scrapy", "runspider", str(PLAIN_SPIDER)]
        settings: tuple[str, ...] = (f"NEWSCRAWL_REPLAY={corpus.archive}", "LOG_LEVEL=INFO")
    else:
        command = [sys.executable, "-m", "scrapy", "crawl", SITE]
        settings = (
            f"NEWSCRAWL_REPLAY={corpus.archive}",
            f"NEWSCRAWL_EXTRACT_METHOD={method}",
            f"NEWSCRAWL_EXTRACT_PROCESSES={processes}",
            "NEWSCRAWL_DEFAULT_FEED=",
            "LOG_LEVEL=INFO",
            *MODES[mode],
        )
        if mode == "store":
            settings += (f"NEWSCRAWL_DB_URL=sqlite:///{database or 'STORE.db'}",)
    for setting in settings:
        command += ["-s", setting]
    return command


def run_crawl(
    corpus: Corpus, sites_dir: Path, mode: str, method: str, processes: int, cpus: list[int]
) -> Run:
    """One replay crawl in a fresh process on `cpus`; figures read from its stats dump."""
    env = {**os.environ, "NEWSCRAWL_SITES_DIR": str(sites_dir)}
    database = sites_dir.parent / "store.db"
    for stale in database.parent.glob(database.name + "*"):  # -wal, -shm too
        stale.unlink()
    started = time.perf_counter()
    done = subprocess.run(
        crawl_command(corpus, mode, method, processes, database),
        cwd=sites_dir if mode == "plain" else PROJECT_ROOT,  # plain: no project settings
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


def report(corpus: Corpus, rounds: list[dict[str, Run]], method: str) -> dict[str, object]:
    """Print the table and the targets; return the figures as JSON-ready data. Each of
    `rounds` holds the fastest run of every mode for one ``--processes`` value."""
    size_kb = corpus.article_bytes / corpus.articles / 1024
    print(
        f"\ncorpus: {corpus.articles} articles (mean {size_kb:.1f} KB), {corpus.listings} "
        f"listing pages, {corpus.archive.stat().st_size / 2**20:.0f} MB archive; "
        f"extraction method {method!r}\n"
    )
    columns = "extract processes", "CPUs", "mode", "articles", "responses", "crawl s"
    print("| " + " | ".join((*columns, "pages/s", "wall s")) + " |")
    print("| --- " * (len(columns) + 2) + "|")
    for run in (run for runs in rounds for run in runs.values()):
        print(
            f"| {run.processes} | {len(run.cpus)} | {run.mode} | {run.articles} | "
            f"{run.responses} | {run.elapsed:.1f} | {run.rate:.0f} | {run.wall:.1f} |"
        )
    print()
    for runs in rounds:
        verdicts(runs)
    return {
        "corpus": {**asdict(corpus), "archive": str(corpus.archive)},
        "method": method,
        "rounds": [
            {
                "processes": next(iter(runs.values())).processes,
                "runs": {
                    mode: {**asdict(run), "pages_per_second": run.rate}
                    for mode, run in runs.items()
                },
            }
            for runs in rounds
        ],
    }


def verdicts(runs: dict[str, Run]) -> None:
    """The targets the round's modes allow judging, one line each."""
    any_run = next(iter(runs.values()))
    where = "the crawl's thread" if not any_run.processes else f"{any_run.processes} worker(s)"
    cpus = len(any_run.cpus)
    if "off" in runs and "on" in runs:
        share = extraction_share(runs["off"], runs["on"])
        print(
            f"extraction in {where}, {cpus} CPU(s): {share:.1%} of crawl time "
            f"(target < {TARGET_SHARE:.0%}: {ok(share < TARGET_SHARE)})"
        )
        if cpus == 1:
            rate = runs["on"].rate
            print(
                f"  store off, one core: {rate:.0f} pages/s (target >= {TARGET_RATE:.0f}: "
                f"{ok(rate >= TARGET_RATE)})"
            )
    if "on" in runs and "store" in runs:
        ratio = runs["store"].rate / runs["on"].rate
        print(
            f"store on, extraction in {where}, {cpus} CPU(s): {runs['store'].rate:.0f} pages/s, "
            f"{ratio:.2f}x the store off (target >= {TARGET_STORE_RATIO}: "
            f"{ok(ratio >= TARGET_STORE_RATIO)})"
        )
        if cpus == 1:
            rate = runs["store"].rate
            print(
                f"  store on, one core: {rate:.0f} pages/s (target >= {TARGET_STORE_RATE:.0f}: "
                f"{ok(rate >= TARGET_STORE_RATE)})"
            )
    if "plain" in runs:
        print(f"plain Scrapy spider, {cpus} CPU(s): {runs['plain'].rate:.0f} pages/s")


def ok(met: bool) -> str:
    return "ok" if met else "MISSED"


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
        help="NEWSCRAWL_EXTRACT_PROCESSES values, one round of the modes each (default 0,1)",
    )
    parser.add_argument(
        "--modes",
        type=lambda text: text.split(","),
        default=list(MODES),
        help=f"modes to run, of {','.join(MODES)} (default all)",
    )
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-replay-"))
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    corpus = build_corpus(workdir, args.articles, args.per_listing)
    print(f"archive ready in {time.perf_counter() - started:.0f} s: {corpus.archive}", flush=True)
    sites_dir = workdir / "sites"
    sites_dir.mkdir(exist_ok=True)
    (sites_dir / f"{SITE}.toml").write_text(SITE_CONFIG % corpus.listings)
    available = sorted(os.sched_getaffinity(0))
    if unknown := set(args.modes) - set(MODES):
        parser.error(f"unknown mode(s): {', '.join(sorted(unknown))}")
    rounds = []
    for processes in args.processes:
        cpus = available[: processes + 1]
        for mode in args.modes:
            command = crawl_command(corpus, mode, args.method, processes)
            print(f"$ NEWSCRAWL_SITES_DIR={shlex.quote(str(sites_dir))} {shlex.join(command)}")
            print(f"  (CPUs {cpus})", flush=True)
        repeats = [
            {
                mode: run_crawl(corpus, sites_dir, mode, args.method, processes, cpus)
                for mode in args.modes
            }
            for _ in range(args.repeat)
        ]
        rounds.append(
            {
                mode: min((r[mode] for r in repeats), key=lambda run: run.elapsed)
                for mode in args.modes
            }
        )
    results = report(corpus, rounds, args.method)
    results_path = workdir / f"results-{args.method}.json"
    results_path.write_text(json.dumps(results, indent=2))
    print(f"results: {results_path}")
    return 0


if __name__ == "__main__":
    with recorded("replay-crawl", "Crawl speed: a replay crawl, extraction and store on and off"):
        sys.exit(main())
