"""Present evaluation results: the printed table and the JSON files.

A dataset's results are a mapping extractor name -> `ExtractorSummary`:
``{"all": metrics, "sites": {site: metrics}, "calibration": figures or None}`` with metrics
as made by `runner.summarize` and the figures by `runner.summarize_calibration`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NotRequired, TypedDict

from newscrawl.evaluation.calibration import CONFIDENT, Calibration
from newscrawl.evaluation.datasets import Page
from newscrawl.evaluation.regions import WrongRegionReport
from newscrawl.evaluation.runner import PageResult
from newscrawl.evaluation.scoring import FOUND_F1, MISSED_F1
from newscrawl.evaluation.snippets import Snippets

Metrics = Mapping[str, float]
NONE = "–"
"""Shown for a figure an extractor does not have (no confidence, no confident page)."""


class ExtractorSummary(TypedDict):
    all: Metrics
    sites: Mapping[str, Metrics]
    calibration: NotRequired[Calibration | None]
    """Absent or None for an extractor that gives no confidence (every peer)."""


_LEFT_HEADER = f"{'extractor':<22} {'precision':>12} {'recall':>12} {'F1':>12}"
_RIGHT_HEADER = (
    f" {'success':>7} {'empty':>6} {'paperP':>6} {'paperR':>6} {'pages/s':>8} {'MB/s':>6} "
    f"{'err':>3}"
)
_CALIBRATION_WIDTHS = (8, 7, 5)
_CALIBRATION_HEADER = "".join(
    f" {label:>{width}}"
    for label, width in zip(
        (f"conf>={CONFIDENT}", "F1|conf", "AUROC"), _CALIBRATION_WIDTHS, strict=True
    )
)
"""Share of pages with confidence >= CONFIDENT, their mean page F1, AUROC for bad pages."""


def format_tables(
    dataset: str, summaries: Mapping[str, ExtractorSummary], *, snippets: bool = False
) -> str:
    """The dataset's table, best F1 first, with the confidence figures next to F1; then one
    table per site if it has sites. `snippets` names the snippet metric in the title."""
    any_summary = next(iter(summaries.values()))
    metric = ", snippet metric" if snippets else ""
    title = f"{dataset} ({_pages(any_summary['all'])} pages{metric})"
    blocks = [_table(title, summaries, None)]
    blocks.extend(
        _table(f"{dataset} / {site} ({_pages(metrics)} pages)", summaries, site)
        for site, metrics in any_summary["sites"].items()
    )
    return "\n\n".join(blocks)


def _pages(metrics: Metrics) -> int:
    return int(metrics["n_pages"])


def _table(title: str, summaries: Mapping[str, ExtractorSummary], site: str | None) -> str:
    """One table; the confidence columns only for the whole dataset (not split per site)."""
    rows = {
        name: summary["all"] if site is None else summary["sites"][site]
        for name, summary in summaries.items()
    }
    ranked = sorted(rows.items(), key=lambda item: item[1]["f1"], reverse=True)
    header = _LEFT_HEADER + (_CALIBRATION_HEADER if site is None else "") + _RIGHT_HEADER
    lines = [title, header, "-" * len(header)]
    for name, metrics in ranked:
        left, right = _row(metrics)
        middle = "" if site is not None else _calibration(summaries[name].get("calibration"))
        lines.append(f"{name:<22} {left}{middle}{right}")
    return "\n".join(lines)


def _row(m: Metrics) -> tuple[str, str]:
    """The figures left and right of where the confidence columns go."""

    def with_std(key: str) -> str:
        return f"{m[key]:.3f}±{m[key + '_std']:.3f}"

    left = f"{with_std('precision'):>12} {with_std('recall'):>12} {with_std('f1'):>12}"
    right = (
        f" {m['success']:>7.3f} {m['empty']:>6.3f} {m['paper_precision']:>6.3f} "
        f"{m['paper_recall']:>6.3f} {m['pages_per_s']:>8.1f} {m['mb_per_s']:>6.2f} "
        f"{int(m['errors']):>3}"
    )
    return left, right


def _calibration(figures: Calibration | None) -> str:
    values = (
        (None, None, None)
        if figures is None
        else (figures["confident_share"], figures["confident_f1"], figures["auroc"])
    )
    return "".join(
        f" {NONE:>{width}}" if value is None else f" {value:>{width}.3f}"
        for value, width in zip(values, _CALIBRATION_WIDTHS, strict=True)
    )


def format_wrong_regions(report: WrongRegionReport, *, snippets: bool = False) -> str:
    """Count and share of wrong-region pages per method, against the run's best peer."""
    peer = report["peer"]
    if snippets:
        rule = f'none of the page\'s "with" snippets found where {peer} finds them all'
    else:
        rule = f"page F1 < {MISSED_F1} where {peer} gets >= {FOUND_F1}"
    lines = [f"wrong region ({rule}; {peer} is the best peer of the run):"]
    lines.extend(
        f"  {method:<20} {pages['count']:>4} pages ({pages['share']:.1%})"
        for method, pages in report["methods"].items()
    )
    return "\n".join(lines)


def page_records(results: list[PageResult]) -> list[dict[str, object]]:
    """Per-page scores, timings and errors, in dataset order."""
    return [result.to_dict() for result in results]


def scorer_input(bodies: Mapping[str, str], *, snippets: bool = False) -> dict[str, dict[str, str]]:
    """Page id -> body in the reference scorer's input format.

    With the gold (`gold_input`) and an extractor's predictions written this way,
    ``score.py gold.json <extractor>.predictions.json`` (``snippets.py`` for snippet gold,
    which reads "body" where score.py reads "articleBody") re-checks a run independently.
    """
    key = "body" if snippets else "articleBody"
    return {page_id: {key: body} for page_id, body in bodies.items()}


def gold_input(pages: Sequence[Page]) -> dict[str, Mapping[str, object]]:
    """Page id -> gold in its reference scorer's input format (see `scorer_input`)."""
    return {
        page.id: page.gold.to_dict()
        if isinstance(page.gold, Snippets)
        else {"articleBody": page.gold}
        for page in pages
    }


def write_json(path: Path, data: object) -> None:
    """UTF-8 JSON (Chinese stays readable), creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
