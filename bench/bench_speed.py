"""Extraction speed of our methods against trafilatura and resiliparse, interleaved rounds.

    python bench/bench_speed.py [--rounds 5] [--dataset zh_cwce ...] [--peers trafilatura ...]
        [--crawl-pages 200]

`newscrawl eval` times every extractor once, one after the other, so load from anything
else on the machine lands on whoever runs at that moment. Here each round runs every
extractor over the whole dataset back to back, the time is the process's CPU time, and the
best round counts. Ours take the page bytes (decoding included), the peers the text decoded
once by our decoder, body only (no metadata), as in the eval.

First the crawl bench's article pages (``bench/synthetic_site.py``: 30-80 KB, one in five
GBK), as the crawl extracts them (bytes, with metadata) and body only, the same way: the
figure the extractor's time budget per crawled page is set in. They are timed first, in
the fresh process (after the datasets and the peers have run, the same extraction took a
fifth longer: what they leave for the garbage collector to walk), with Python's collector
as it starts and then as the crawl sets it once its spider opens
(`newscrawl.gc_freeze.freeze_startup_objects`).
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

from recorded import recorded
from synthetic_site import sample_articles

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.peers import load_peers
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import Options, extract
from newscrawl.gc_freeze import freeze_startup_objects


def extractors(peers: list[str]) -> dict[str, Callable[[bytes, str], object]]:
    """Name -> call(page bytes, decoded text): our methods, then the `peers` that import
    (the eval's own peer calls)."""
    default = Options(with_metadata=False)
    paper = Options(method="paper", with_metadata=False)
    found: dict[str, Callable[[bytes, str], object]] = {
        "default": lambda data, _text: extract(data, options=default),
        "paper": lambda data, _text: extract(data, options=paper),
    }
    loaded, missing = load_peers(peers)
    for name, why in missing.items():
        print(f"{name} left out: {why} (pip install -e '.[bench]')")
    for name, peer in loaded.items():
        found[name] = lambda _data, text, peer=peer: peer(text, None)
    return found


def measure(dataset: str, rounds: int, peers: list[str]) -> dict[str, float]:
    """Best-round CPU seconds per page of every extractor on `dataset`."""
    loaded = load_dataset(dataset)
    pages = [page.html for page in loaded.pages]
    texts = decode_pages(loaded)
    calls = extractors(peers)
    best = dict.fromkeys(calls, float("inf"))
    for call in calls.values():  # warm-up: imports, caches, first-call costs
        call(pages[0], texts[0])
    for _ in range(rounds):
        for name, call in calls.items():
            start = time.process_time()
            for data, text in zip(pages, texts, strict=True):
                call(data, text)
            best[name] = min(best[name], (time.process_time() - start) / len(pages))
    return best


def measure_crawl_pages(rounds: int, count: int) -> dict[str, float]:
    """Best-round CPU seconds per page of the default method on `count` of the crawl
    bench's article pages, with metadata (as the crawl extracts) and body only."""
    pages = sample_articles(count)
    options = {
        "default, with metadata": Options(with_metadata=True),
        "default, body only": Options(with_metadata=False),
    }
    best = dict.fromkeys(options, float("inf"))
    for chosen in options.values():
        extract(pages[0][0], pages[0][1], options=chosen)
    for _ in range(rounds):
        for name, chosen in options.items():
            start = time.process_time()
            for data, url in pages:
                extract(data, url, options=chosen)
            best[name] = min(best[name], (time.process_time() - start) / len(pages))
    return best


def print_crawl_rows(collector: str, rounds: int, count: int) -> None:
    """The crawl bench pages' rows, timed under the garbage collector as it is now."""
    for name, seconds in measure_crawl_pages(rounds, count).items():
        print(f"| {name} | {collector} | {1 / seconds:.0f} | {1000 * seconds:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dataset", nargs="+", default=list(NAMED_DATASETS))
    parser.add_argument("--peers", nargs="+", default=["trafilatura", "resiliparse"])
    parser.add_argument("--crawl-pages", type=int, default=200)
    args = parser.parse_args()
    print(f"The crawl bench's article pages ({args.crawl_pages}):\n")
    print("| extraction | garbage collector | pages/s | ms/page |")
    print("| --- | --- | ---: | ---: |")
    thresholds = gc.get_threshold()
    print_crawl_rows("Python's default", args.rounds, args.crawl_pages)
    freeze_startup_objects()
    print_crawl_rows("the crawl's (frozen start, young threshold)", args.rounds, args.crawl_pages)
    gc.unfreeze()  # the datasets' rows run under Python's collector, as a library user's
    gc.set_threshold(*thresholds)
    print()
    print("| dataset | extractor | pages/s | ms/page | default's speed-up |")
    print("| --- | --- | ---: | ---: | ---: |")
    for dataset in args.dataset:
        best = measure(dataset, args.rounds, args.peers)
        for name, seconds in best.items():
            ratio = seconds / best["default"]
            print(
                f"| {dataset} | {name} | {1 / seconds:.0f} | {1000 * seconds:.2f} | {ratio:.1f}x |"
            )


if __name__ == "__main__":
    with recorded("speed", "Extraction speed against trafilatura and resiliparse"):
        main()
