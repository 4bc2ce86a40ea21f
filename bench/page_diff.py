"""Which dataset pages' extraction output a change moves: every page of the six dev sets, two
checkouts, every method.

    python bench/page_diff.py BASE [--other DIR] [--datasets NAME ...] [--shared ../shared]

BASE is a commit (checked out into a temporary worktree, with this checkout's built C
extension copied in when both have the same ``_blockscan.c``) or a directory holding another
checkout; ``--other`` is the checkout compared with it (default: this one). Each checkout
runs in its own process (``PYTHONPATH`` set to it) and writes, per page and method, what
`extract` returns a caller: title, body, metadata, confidence and its reasons, fallback and
reason. Prints the pages that differ per dataset and method, and the fields that moved; exits
1 when any page moved, so it also serves as a check that a refactoring changes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from newscrawl.evaluation.datasets import NAMED_DATASETS

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("title", "body", "metadata", "confidence", "confidence_reasons", "fallback", "reason")

DUMP = """
import json, sys
from pathlib import Path
from newscrawl.evaluation.datasets import load_dataset
from newscrawl.extract import METHODS, Options, extract

fields, shared, names = sys.argv[1].split(","), Path(sys.argv[2]), sys.argv[3:]
for name in names:
    for page in load_dataset(name, shared).pages:
        for method in METHODS:
            result = extract(page.html, page.url, options=Options(method=method))
            kept = {field: getattr(result, field) for field in fields}
            kept["metadata"] = repr(kept["metadata"])
            print(json.dumps([name, page.id, method, kept], default=str, ensure_ascii=False))
"""
"""Runs in the checkout's own process, so each side imports only its own code."""


@contextmanager
def checkout(base: str) -> Iterator[Path]:
    """A directory holding `base`: itself when it is one, else a temporary worktree."""
    if Path(base).is_dir():
        yield Path(base).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="page-diff-"))
    subprocess.run(
        ["git", "worktree", "add", "-q", "--detach", str(folder), base], cwd=ROOT, check=True
    )
    try:
        c_source = Path("newscrawl/extract/_blockscan.c")
        if (folder / c_source).read_bytes() == (ROOT / c_source).read_bytes():
            for built in (ROOT / "newscrawl/extract").glob("_blockscan*.so"):
                shutil.copy2(built, folder / "newscrawl/extract")
        else:
            print(f"{base}: another C scan; building it", file=sys.stderr)
            subprocess.run(
                [sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True
            )
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)


def dump(
    folder: Path, datasets: list[str], shared: str
) -> dict[tuple[str, str, str], dict[str, object]]:
    """(dataset, page id, method) -> the fields, extracted by the code in `folder`."""
    env = {**os.environ, "PYTHONPATH": str(folder)}
    argv = [sys.executable, "-c", DUMP, ",".join(FIELDS), shared, *datasets]
    done = subprocess.run(argv, env=env, cwd=folder, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"extraction failed in {folder}:\n{done.stderr[-3000:]}")
    rows = (json.loads(line) for line in done.stdout.splitlines())
    return {(name, page, method): fields for name, page, method, fields in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="a commit or a checkout's directory")
    parser.add_argument(
        "--other", default=str(ROOT), help="the checkout compared (default: this one)"
    )
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=list(NAMED_DATASETS),
    )
    parser.add_argument(
        "--shared",
        default=str(ROOT.parent / "shared"),
        help="the shared folder (default: ../shared)",
    )
    args = parser.parse_args(argv)
    with checkout(args.base) as base_folder:
        before = dump(base_folder, args.datasets, args.shared)
    after = dump(Path(args.other).resolve(), args.datasets, args.shared)
    moved: dict[tuple[str, str], list[str]] = defaultdict(list)
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old != new:
            fields = [f for f in FIELDS if (old or {}).get(f) != (new or {}).get(f)]
            moved[key[0], key[2]].append(f"{key[1]} ({', '.join(fields)})")
    print(f"{len(before)} page extractions before, {len(after)} after")
    for (name, method), pages in sorted(moved.items()):
        print(f"{name} / {method}: {len(pages)} moved: {'; '.join(pages)}")
    if not moved:
        print("no page moved")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
