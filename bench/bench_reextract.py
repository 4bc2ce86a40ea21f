"""Re-extraction speed and memory: ``newscrawl reextract`` over a 100,000-record archive into
a fresh SQLite store (or, with ``--to jsonl``, to JSON lines in /dev/null: no store at all).

    python bench/bench_reextract.py [--records 100000] [--method default] [--to store]
                                    [--workdir DIR]

The archive is the synthetic portal of `synthetic_site` (30-80 KB article pages, one in
five GBK; one listing page per 100 articles), recorded as the crawl's recorder writes it
(site and page kind on each response record), into a temporary directory unless
``--workdir`` keeps it (and reuses it on the next run). Nothing comes from ../shared.

The command runs in its own process; a hook counts the response records it reads and prints
its resident memory (VmRSS) and peak (VmHWM) at 10%, 50% and 100% of them: flat memory means
the 10% and 100% figures agree. The rate is the command's own (its summary line). Then the
steps of one article page are timed alone over the archive's first 1,000 articles: reading
the record, extracting it, and fingerprinting its body for the store (content hash, simhash).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench_replay_crawl import BASE, SITE, SITE_CONFIG
from recorded import recorded
from synthetic_site import site_pages

from newscrawl.archive import ArchivedRequest, ArchivedResponse, ArchiveWriter, iter_responses
from newscrawl.article import extract_fields
from newscrawl.extract import METHODS, Options
from newscrawl.fingerprint import content_hash, simhash
from newscrawl.store import open_store

PER_LISTING = 100
CHILD = """
import re, sys
from newscrawl.archive import reader
from newscrawl.cli import main

marks = {int(mark) for mark in sys.argv[1].split(",")}
read_response = reader.read_response
count = 0

def mib(field):
    status = open("/proc/self/status").read()
    return int(re.search(field + r":\\s+(\\d+)", status)[1]) / 1024

def counted(record, **kwargs):
    global count
    count += 1
    if count in marks:
        print(f"MEMORY {count} {mib('VmRSS'):.1f} {mib('VmHWM'):.1f}", file=sys.stderr)
    return read_response(record, **kwargs)

reader.read_response = counted
status = main(sys.argv[2:])
print(f"PEAK {mib('VmHWM'):.1f}", file=sys.stderr)
raise SystemExit(status)
"""
"""Runs in the measured process: ``python -c CHILD MARKS reextract ARGS…``."""


def build_archive(path: Path, records: int) -> None:
    """`records` response records (plus their requests): listing pages, then articles,
    each with the site, page kind and referring listing the recorder writes."""
    articles = records * PER_LISTING // (PER_LISTING + 1)
    listings = records - articles
    article_urls = [f"{BASE}/2024-05-10/doc-i{n:08x}.shtml" for n in range(articles)]
    listing_urls = [f"{BASE}/roll/{n}.shtml" for n in range(1, listings + 1)]
    per_listing = -(-articles // listings)
    found_on = {url: listing_urls[n // per_listing] for n, url in enumerate(article_urls)}
    fetched = datetime.now(UTC)
    with ArchiveWriter(path, {"software": "bench_reextract"}) as writer:
        for page in site_pages(article_urls, listing_urls, BASE):
            headers = (("Content-Type", page.content_type),)
            writer.write(
                ArchivedRequest("GET", page.url, (("User-Agent", "bench"),)),
                ArchivedResponse(
                    page.url,
                    200,
                    headers,
                    page.body,
                    fetched,
                    site=SITE,
                    page_kind="article" if page.url in found_on else "listing",
                    found_on=found_on.get(page.url),
                ),
            )


def run_reextract(archive: Path, sites: Path, target: list[str], method: str, records: int) -> str:
    """The command's stderr, with the hook's memory lines; `target` is ``--db URL`` or
    ``-o FILE``."""
    marks = ",".join(str(records * share // 100) for share in (10, 50, 100))
    command = [sys.executable, "-c", CHILD, marks, "reextract", str(archive), *target]
    command += ["--sites", str(sites), "--method", method]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"reextract failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stderr


def step_costs(archive: Path, method: str, articles: int = 1000) -> dict[str, float]:
    """Milliseconds per article page of each step, over the first `articles` of `archive`."""
    options = Options(method=method, short_page_chars=0)
    totals = dict.fromkeys(("read", "extract", "fingerprint"), 0.0)
    done = 0
    started = time.perf_counter()
    for response in iter_responses([archive]):
        read = time.perf_counter()
        if response.page_kind == "article":
            fetched = response.fetched.isoformat(timespec="seconds")
            content_type = response.header("Content-Type")
            fields = extract_fields(response.body, response.url, content_type, fetched, options)
            extracted = time.perf_counter()
            content_hash(fields.fields["body"])
            simhash(fields.fields["body"])
            totals["read"] += read - started
            totals["extract"] += extracted - read
            totals["fingerprint"] += time.perf_counter() - extracted
            done += 1
            if done == articles:
                break
        started = time.perf_counter()
    return {step: seconds * 1000 / done for step, seconds in totals.items()}


def report(log: str, archive: Path, command: str) -> None:
    """Print the run's figures as BENCHMARKS.md rows."""
    summary = re.search(
        r"reextract: (\d+) response record\(s\) .* in ([\d.]+) s \(([\d.]+) pages/s\); "
        r"(\d+) article\(s\) extracted",
        log,
    )
    assert summary is not None, log
    responses, seconds, rate, articles = summary.groups()
    print(f"archive: {archive.stat().st_size / 2**20:.0f} MB, {responses} response records\n")
    print(f"```text\n$ {command}\n{log.strip()}\n```\n")
    print("| records | articles | time | pages/s | articles/s | peak RSS |")
    print("| --- | --- | --- | --- | --- | --- |")
    peak = re.search(r"PEAK ([\d.]+)", log)
    assert peak is not None
    print(
        f"| {int(responses):,} | {int(articles):,} | {float(seconds):.0f} s | {float(rate):.0f} "
        f"| {int(articles) / float(seconds):.0f} | {peak[1]} MiB |"
    )
    print()
    print("| after records | RSS | peak RSS so far |")
    print("| --- | --- | --- |")
    for count, rss, hwm in re.findall(r"MEMORY (\d+) ([\d.]+) ([\d.]+)", log):
        print(f"| {int(count):,} | {rss} MiB | {hwm} MiB |")


def report_steps(costs: dict[str, float]) -> None:
    print()
    print("| ms per article page | " + " | ".join(costs) + " |")
    print("| --- " * (len(costs) + 1) + "|")
    print("| | " + " | ".join(f"{ms:.1f}" for ms in costs.values()) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000, help="response records")
    parser.add_argument("--method", choices=METHODS, default="default")
    parser.add_argument("--to", choices=("store", "jsonl"), default="store")
    parser.add_argument("--workdir", type=Path, help="keep (and reuse) the archive here")
    args = parser.parse_args()
    command = "python bench/bench_reextract.py " + " ".join(sys.argv[1:])
    with tempfile.TemporaryDirectory() as scratch:
        workdir = args.workdir or Path(scratch)
        workdir.mkdir(parents=True, exist_ok=True)
        archive = workdir / f"reextract-{args.records}.warc.gz"
        if not archive.exists():
            started = time.perf_counter()
            partial = workdir / f"partial-{archive.name}"  # .warc.gz: gzip members
            partial.unlink(missing_ok=True)
            build_archive(partial, args.records)
            partial.rename(archive)
            print(f"built {archive} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        sites = Path(scratch) / "sites"
        sites.mkdir()
        listings = args.records - args.records * PER_LISTING // (PER_LISTING + 1)
        (sites / f"{SITE}.toml").write_text(SITE_CONFIG % listings, encoding="utf-8")
        target = ["-o", "/dev/null"]
        if args.to == "store":
            db_url = f"sqlite:///{scratch}/reextract.db"
            open_store(db_url).close()  # a fresh, empty store (reextract opens existing ones)
            target = ["--db", db_url]
        log = run_reextract(archive, sites, target, args.method, args.records)
        report(log, archive, command)
        report_steps(step_costs(archive, args.method))


if __name__ == "__main__":
    with recorded("reextract", "Re-extraction over an archive (newscrawl reextract)"):
        main()
