"""Extraction cost a page of this checkout against an earlier commit, both measured side by
side in one run: a view of a relative cost target that does not depend on the host.

A target such as "half the cost of commit X" is set on one machine and checked on another.
Seconds a page move with the host and its load, so a figure from elsewhere says little; the
ratio of two commits timed in the same run, on the same machine in the same hour, moves much
less. Each side (a commit checked out into a temporary worktree with its C extension built,
and this checkout's working tree) runs in fresh processes of its own (``PYTHONPATH`` set to
it, the import path and the loaded C extension checked) on the same pages: the crawl bench's
synthetic article pages (``bench/synthetic_site.py``), generated once by this checkout. A
process warms up on 20 pages and takes the best of 5 rounds of its CPU time over all of
them, with metadata or body only; the sides alternate, and the best per side and mode
counts. The instructions a page callgrind counts (as ``bench/bench_instructions.py`` does)
give the same comparison without the load's noise. How many pages' body and title differ
between the sides is shown too: the cost of different output is not the same cost. This
checkout is measured as its working tree holds the package when the run starts (a copy: the
tree may be shared, and edited while the run goes on).

    python bench/bench_commits.py [BASE ...] [--pages 200] [--alternations 3]
        [--no-instructions]

BASE (a commit, or a directory holding another checkout) defaults to bc0fe0a, the commit
the cost target was set against.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bench_instructions import instructions_a_page
from page_diff import checkout
from recorded import recorded
from synthetic_site import sample_articles

ROOT = Path(__file__).resolve().parent.parent
THIS = "this checkout"
MODES = {"with metadata": True, "body only": False}
INSTRUCTION_PAGES = 100

PREAMBLE = """
import sys
from pathlib import Path
root = Path(sys.argv[1])
import newscrawl
from newscrawl.extract import Options, extract, native
assert Path(newscrawl.__file__).is_relative_to(root), (newscrawl.__file__, str(root))
"""
"""Imports the side's code and checks it is the side's (argv[1] is the side's root)."""

TIMER = """
import pickle, time
pages, options = pickle.load(open(sys.argv[2], "rb")), Options(with_metadata=sys.argv[3] == "1")
for data, url in pages[:20]:
    extract(data, url, options=options)
rounds = []
for _ in range(5):
    start = time.process_time()
    for data, url in pages:
        extract(data, url, options=options)
    rounds.append((time.process_time() - start) / len(pages))
blockscan = native.blockscan  # None had the extension not loaded, or been refused on the way
assert blockscan is not None and Path(blockscan.__file__).is_relative_to(root), blockscan
print(min(rounds))
"""
"""Best round's CPU seconds a page, after a warm-up (argv: root, pages file, metadata 0/1)."""

DUMP = """
import json, pickle
options = Options(with_metadata=True)
for data, url in pickle.load(open(sys.argv[2], "rb")):
    result = extract(data, url, options=options)
    print(json.dumps([result.title, result.body], ensure_ascii=False))
"""
"""Each page's title and body as the crawl extracts them (argv: root, pages file)."""


@contextmanager
def inside(root: Path) -> Iterator[None]:
    """Processes started in the block import ``newscrawl`` from `root`: they run there with
    ``PYTHONPATH`` set to it (the directory of ``python -c`` comes first on its path), as
    `bench_instructions.instructions` starts its worker in the current directory and
    environment."""
    directory, path = Path.cwd(), os.environ.get("PYTHONPATH")
    os.chdir(root)
    os.environ["PYTHONPATH"] = str(root)
    try:
        yield
    finally:
        os.chdir(directory)
        if path is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = path


def snapshot(folder: Path) -> Path:
    """A copy of this checkout's package (sources and built extension) as its working tree
    holds it now: the tree may be shared, and the code measured must not change mid-run."""
    shutil.copytree(
        ROOT / "newscrawl", folder / "newscrawl", ignore=shutil.ignore_patterns("__pycache__")
    )
    return folder


def run(root: Path, script: str, *args: str) -> str:
    """The stdout of `script` run in a fresh process on the side at `root`."""
    with inside(root):
        argv = [sys.executable, "-c", PREAMBLE + script, str(root), *args]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"worker failed on {root}:\n{done.stderr[-3000:]}")
    return done.stdout


def timings(sides: dict[str, Path], pages: Path, alternations: int) -> dict[tuple[str, str], float]:
    """(side, mode) -> best CPU seconds a page over every process of it; the sides take
    turns, in reversed order every other alternation, so drift in the load hits them alike."""
    best: dict[tuple[str, str], float] = {}
    for turn in range(alternations):
        order = list(sides) if turn % 2 == 0 else list(sides)[::-1]
        for mode, metadata in MODES.items():
            for side in order:
                seconds = float(run(sides[side], TIMER, str(pages), "1" if metadata else "0"))
                print(
                    f"{turn + 1}/{alternations} {mode} {side}: {1000 * seconds:.3f} ms",
                    file=sys.stderr,
                )
                best[side, mode] = min(seconds, best.get((side, mode), seconds))
    return best


def side_instructions(root: Path, metadata: bool) -> float:
    """M instructions of one extraction of a page by the side at `root`, by
    `bench_instructions`' worker and method."""
    with inside(root):
        per_page, _ = instructions_a_page("synthetic", metadata, True, False, INSTRUCTION_PAGES)
    return per_page


def table(figures: dict[tuple[str, str], float], sides: list[str], unit: str, digits: int) -> None:
    """One row per mode: each side's figure, then this checkout's over each base's."""
    bases = sides[:-1]
    print(
        f"| extraction | {' | '.join(f'{side}, {unit}' for side in sides)} | "
        f"{' | '.join(f'{THIS} / {base}' for base in bases)} |"
    )
    print(f"| --- |{' ---: |' * (len(sides) + len(bases))}")
    for mode in MODES:
        values = " | ".join(f"{figures[side, mode]:.{digits}f}" for side in sides)
        ratios = " | ".join(f"{figures[THIS, mode] / figures[base, mode]:.2f}" for base in bases)
        print(f"| {mode} | {values} | {ratios} |")


def differences(sides: dict[str, Path], pages: Path) -> None:
    """How many pages' title and body each base extracts otherwise than this checkout."""
    output = {side: run(root, DUMP, str(pages)).splitlines() for side, root in sides.items()}
    ours = [json.loads(line) for line in output[THIS]]
    for base in list(sides)[:-1]:
        theirs = [json.loads(line) for line in output[base]]
        titles = sum(a[0] != b[0] for a, b in zip(ours, theirs, strict=True))
        bodies = sum(a[1] != b[1] for a, b in zip(ours, theirs, strict=True))
        print(
            f"{base} against {THIS} (with metadata): the title differs on {titles} and the "
            f"body on {bodies} of the {len(ours)} pages"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bases", nargs="*", default=["bc0fe0a"], metavar="BASE")
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--alternations", type=int, default=3)
    parser.add_argument("--no-instructions", action="store_true")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-commits-")))
        this = snapshot(folder / "this")
        sides = {base: stack.enter_context(checkout(base)) for base in args.bases}
        sides[THIS] = this
        pages = folder / "pages.pickle"
        pages.write_bytes(pickle.dumps(sample_articles(args.pages)))
        best = timings(sides, pages, args.alternations)
        print(
            f"The crawl bench's article pages ({args.pages}), CPU ms a page: a side's best "
            f"round of 5 in a fresh process, the sides alternating {args.alternations} times:\n"
        )
        table({key: 1000 * seconds for key, seconds in best.items()}, list(sides), "ms", 3)
        print()
        if args.no_instructions:
            print("Instructions not counted (--no-instructions).")
        elif shutil.which("valgrind") is None:
            print("Instructions not counted: valgrind is not installed (apt install valgrind).")
        else:
            print(
                f"The crawl bench's first {INSTRUCTION_PAGES} article pages, M instructions a "
                "page (callgrind, as bench_instructions.py counts them, the collector off):\n"
            )
            counted = {
                (side, mode): side_instructions(root, metadata)
                for side, root in sides.items()
                for mode, metadata in MODES.items()
            }
            table(counted, list(sides), "M instructions", 2)
        print()
        differences(sides, pages)


if __name__ == "__main__":
    with recorded("commits", "Extraction cost against an earlier commit, side by side"):
        main()
