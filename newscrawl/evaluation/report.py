"""Present evaluation results: the printed table and the JSON files.

A dataset's results are a mapping extractor name -> `ExtractorSummary`:
``{"all": metrics, "sites": {site: metrics}}`` with metrics as made by
`runner.summarize`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

from newscrawl.evaluation.runner import PageResult

Metrics = Mapping[str, float]


class ExtractorSummary(TypedDict):
    all: Metrics
    sites: Mapping[str, Metrics]


_HEADER = (
    f"{'extractor':<22} {'precision':>12} {'recall':>12} {'F1':>12} {'success':>7} "
    f"{'empty':>6} {'paperP':>6} {'paperR':>6} {'pages/s':>8} {'MB/s':>6} {'err':>3}"
)


def format_tables(dataset: str, summaries: Mapping[str, ExtractorSummary]) -> str:
    """The dataset's table, best F1 first, then one table per site if it has sites."""
    any_summary = next(iter(summaries.values()))
    blocks = [_table(f"{dataset} ({_pages(any_summary['all'])} pages)", summaries, None)]
    blocks.extend(
        _table(f"{dataset} / {site} ({_pages(metrics)} pages)", summaries, site)
        for site, metrics in any_summary["sites"].items()
    )
    return "\n\n".join(blocks)


def _pages(metrics: Metrics) -> int:
    return int(metrics["n_pages"])


def _table(title: str, summaries: Mapping[str, ExtractorSummary], site: str | None) -> str:
    rows = {
        name: summary["all"] if site is None else summary["sites"][site]
        for name, summary in summaries.items()
    }
    ranked = sorted(rows.items(), key=lambda item: item[1]["f1"], reverse=True)
    lines = [title, _HEADER, "-" * len(_HEADER)]
    lines.extend(_row(name, metrics) for name, metrics in ranked)
    return "\n".join(lines)


def _row(name: str, m: Metrics) -> str:
    def with_std(key: str) -> str:
        return f"{m[key]:.3f}±{m[key + '_std']:.3f}"

    return (
        f"{name:<22} {with_std('precision'):>12} {with_std('recall'):>12} {with_std('f1'):>12} "
        f"{m['success']:>7.3f} {m['empty']:>6.3f} {m['paper_precision']:>6.3f} "
        f"{m['paper_recall']:>6.3f} {m['pages_per_s']:>8.1f} {m['mb_per_s']:>6.2f} "
        f"{int(m['errors']):>3}"
    )


def page_records(results: list[PageResult]) -> list[dict[str, object]]:
    """Per-page scores, timings and errors, in dataset order."""
    return [result.to_dict() for result in results]


def scorer_input(bodies: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """Page id -> body in the reference scorer's input format.

    With the gold and an extractor's predictions written this way,
    ``score.py gold.json <extractor>.predictions.json`` re-checks a run independently.
    """
    return {page_id: {"articleBody": body} for page_id, body in bodies.items()}


def write_json(path: Path, data: object) -> None:
    """UTF-8 JSON (Chinese stays readable), creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
