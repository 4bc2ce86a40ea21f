"""CI quality gate: each method's scores on the shared datasets must not fall below pinned floors.

trafilatura's model: the floors live in the repo (`quality_floors.toml`, re-measured by
``python bench/pin_quality_floors.py``), so a change that costs quality fails CI instead of
going unnoticed. The measurement is ``newscrawl eval``'s own (same runner, scorer and table;
body only, no peers). A failure prints the table and every page whose F1 fell more than
`PAGE_DROP` below its pinned value (`quality_pages.json`), so the cause shows in the CI log.
Pages added to a dataset after the pinning have no pinned value and are only listed.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from newscrawl.evaluation.datasets import NAMED_DATASETS, Dataset, load_dataset
from newscrawl.evaluation.report import ExtractorSummary, format_tables
from newscrawl.evaluation.runner import (
    decode_pages,
    method_extractor,
    run_extractor,
    summarize,
    summarize_sites,
)
from newscrawl.extract import METHODS, Method

pytestmark = pytest.mark.quality

FLOORS_PATH = Path(__file__).with_name("quality_floors.toml")
PAGES_PATH = Path(__file__).with_name("quality_pages.json")
MINIMUMS = ("f1", "success")
"""Metrics gated from below; the floors file names each by its own key."""
MAXIMUMS = {"empty": "empty", "f1_max": "f1"}
"""Floors-file key -> metric gated from above. ``f1_max`` pins the paper's method both ways:
it must stay the published algorithm, so its F1 rising is as suspicious as it falling."""
PAGE_DROP = 0.05
"""A page whose F1 fell by more than this against its pinned value is listed as worse."""


@dataclass(frozen=True, slots=True)
class Measurement:
    """One method on one dataset: the eval table's figures and each page's F1."""

    method: Method
    dataset: str
    summary: ExtractorSummary
    page_f1: dict[str, float]
    errors: dict[str, str]
    """Page id -> the exception the extractor raised there (must stay empty)."""

    def table(self) -> str:
        """The table ``newscrawl eval`` prints for this dataset."""
        return format_tables(self.dataset, {self.method: self.summary})


@cache
def _dataset(shared_dir: Path, name: str) -> tuple[Dataset, tuple[str, ...]]:
    """A named dataset and its decoded pages, loaded once for both methods."""
    dataset = load_dataset(name, shared_dir)
    return dataset, tuple(decode_pages(dataset))


def measure(shared_dir: Path, method: Method, name: str) -> Measurement:
    """Run `method` over dataset `name` as ``newscrawl eval --peers none`` does."""
    dataset, texts = _dataset(shared_dir, name)
    results = run_extractor(method_extractor(method), dataset, list(texts))
    return Measurement(
        method=method,
        dataset=dataset.name,
        summary={"all": summarize(results), "sites": summarize_sites(results)},
        page_f1={result.page.id: result.score.f1 for result in results},
        errors={result.page.id: result.error for result in results if result.error},
    )


def load_floors(path: Path = FLOORS_PATH) -> dict[str, Any]:
    with path.open("rb") as file:
        return tomllib.load(file)


def load_pinned_pages(path: Path = PAGES_PATH) -> dict[str, dict[str, dict[str, float]]]:
    """Method -> dataset -> page id -> pinned F1."""
    pinned: dict[str, dict[str, dict[str, float]]] = json.loads(path.read_text("utf-8"))
    return pinned


def floor_violations(measurement: Measurement, floors: dict[str, float]) -> list[str]:
    """One line per pinned bound the measurement breaks, plus any page that raised."""
    metrics = measurement.summary["all"]
    problems = [
        f"{key} {metrics[key]:.4f} < floor {floors[key]}"
        for key in MINIMUMS
        if key in floors and metrics[key] < floors[key]
    ]
    problems += [
        f"{metric} {metrics[metric]:.4f} > maximum {floors[key]} ({key})"
        for key, metric in MAXIMUMS.items()
        if key in floors and metrics[metric] > floors[key]
    ]
    problems += [f"page {page_id} raised {error}" for page_id, error in measurement.errors.items()]
    return problems


def page_changes(measurement: Measurement, pinned: dict[str, float]) -> str:
    """Pages worse by more than `PAGE_DROP` than pinned (worst first), and pages not pinned."""
    worse = sorted(
        (f1 - pinned[page_id], page_id, pinned[page_id], f1)
        for page_id, f1 in measurement.page_f1.items()
        if page_id in pinned and pinned[page_id] - f1 > PAGE_DROP
    )
    lines = [f"pages worse by more than {PAGE_DROP} F1 than pinned: {len(worse)}"]
    lines += [
        f"  {page_id}: {before:.4f} -> {after:.4f} ({delta:+.4f})"
        for delta, page_id, before, after in worse
    ]
    new = [page_id for page_id in measurement.page_f1 if page_id not in pinned]
    if new:
        lines.append(f"pages without a pinned F1 (added since the pinning): {len(new)}")
        lines += [f"  {page_id}: {measurement.page_f1[page_id]:.4f}" for page_id in new]
    return "\n".join(lines)


@pytest.mark.parametrize("name", NAMED_DATASETS)
@pytest.mark.parametrize("method", METHODS)
def test_scores_stay_above_the_pinned_floors(shared_dir: Path, method: Method, name: str) -> None:
    floors = load_floors().get(method, {}).get(name)
    if floors is None:
        pytest.fail(
            f"no floors pinned for {method} on {name} in {FLOORS_PATH.name}; "
            "run python bench/pin_quality_floors.py"
        )
    measurement = measure(shared_dir, method, name)
    problems = floor_violations(measurement, floors)
    pinned = load_pinned_pages().get(method, {}).get(name, {})
    assert not problems, (
        f"{method} on {name} fell below its floors ({FLOORS_PATH.name}):\n  "
        + "\n  ".join(problems)
        + f"\n\n{measurement.table()}\n\n{page_changes(measurement, pinned)}"
    )
