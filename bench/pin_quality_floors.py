"""Re-measure the CI quality gate's figures and rewrite its floors and per-page F1.

    python bench/pin_quality_floors.py [--tolerance 0.01] [--shared ../shared]

Measures every method on every named dataset exactly as the gate does
(`tests/test_quality_gate.py`), prints the eval tables, and writes
`tests/quality_floors.toml` (each floor = measurement minus the tolerance, each maximum =
measurement plus it) and `tests/quality_pages.json` (each page's F1, to list the pages that
got worse when the gate fails). Review the diff before committing: a floor that goes down
needs a reason in the commit message.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_quality_gate import (  # noqa: E402  (the gate's module is not a package)
    FLOORS_PATH,
    PAGES_PATH,
    Measurement,
    measure,
)

from newscrawl.evaluation.datasets import NAMED_DATASETS, find_shared_dir  # noqa: E402
from newscrawl.evaluation.report import format_tables  # noqa: E402
from newscrawl.extract import METHODS  # noqa: E402

DEFAULT_TOLERANCE = 0.01
PINNED_BOTH_WAYS = ("paper",)
"""Methods whose F1 also gets a maximum: the paper's method must stay the published one."""

HEADER = """\
# Quality floors of the CI gate (tests/test_quality_gate.py): per method and dataset, the
# minimum token F1 and success rate and the maximum empty rate (f1_max: the paper's method
# must stay the published algorithm, so its F1 may not rise either).
# Measured {day} at commit {commit} with `python bench/pin_quality_floors.py`;
# tolerance {tolerance}: floor = measured - {tolerance}, maximum = measured + {tolerance}
# (each line's comment gives the measured value).
# Raising a floor is a one-line change here, with the new measurement in BENCHMARKS.md.
# Lowering one needs a reason in the commit message.
tolerance = {tolerance}
measured_on = "{day}"
commit = "{commit}"
"""


def current_commit() -> str:
    """HEAD's short hash, marked ``-dirty`` when the extractor has uncommitted changes."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()

    dirty = git("status", "--porcelain", "--", "newscrawl/extract")
    return git("rev-parse", "--short", "HEAD") + ("-dirty" if dirty else "")


def floors_text(measurements: list[Measurement], tolerance: float, commit: str) -> str:
    """The floors file: header, then one table per method and dataset, one bound per line."""
    parts = [HEADER.format(day=date.today().isoformat(), commit=commit, tolerance=tolerance)]
    for m in measurements:
        metrics = m.summary["all"]
        bounds = [
            ("f1", math.floor((metrics["f1"] - tolerance) * 1000) / 1000, "f1"),
            ("success", math.floor((metrics["success"] - tolerance) * 1000) / 1000, "success"),
            ("empty", min(1.0, math.ceil((metrics["empty"] + tolerance) * 1000) / 1000), "empty"),
        ]
        if m.method in PINNED_BOTH_WAYS:
            bounds.append(("f1_max", math.ceil((metrics["f1"] + tolerance) * 1000) / 1000, "f1"))
        lines = [f"\n[{m.method}.{m.dataset}]"]
        lines += [
            f"{key} = {max(0.0, value):.3f}  # measured {metrics[metric]:.4f}"
            for key, value, metric in bounds
        ]
        parts.append("\n".join(lines) + "\n")
    return "".join(parts)


def pages_json(measurements: list[Measurement]) -> str:
    """Method -> dataset -> page id -> F1 (4 decimals: drops of 0.05 are what is looked for)."""
    pinned: dict[str, dict[str, dict[str, float]]] = {}
    for m in measurements:
        pinned.setdefault(m.method, {})[m.dataset] = {
            page_id: round(f1, 4) for page_id, f1 in m.page_f1.items()
        }
    return json.dumps(pinned, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--shared", type=Path, help="the shared folder (default: ../shared)")
    args = parser.parse_args()
    shared = find_shared_dir(args.shared)
    measurements = [
        measure(shared, method, name) for name in NAMED_DATASETS for method in reversed(METHODS)
    ]
    for name in NAMED_DATASETS:
        summaries = {m.method: m.summary for m in measurements if m.dataset == name}
        print(format_tables(name, summaries) + "\n")
    errors = {(m.method, m.dataset): m.errors for m in measurements if m.errors}
    if errors:
        print(f"extractor raised on some pages, nothing written: {errors}", file=sys.stderr)
        return 1
    FLOORS_PATH.write_text(floors_text(measurements, args.tolerance, current_commit()), "utf-8")
    PAGES_PATH.write_text(pages_json(measurements), "utf-8")
    print(f"wrote {FLOORS_PATH.relative_to(ROOT)} and {PAGES_PATH.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
