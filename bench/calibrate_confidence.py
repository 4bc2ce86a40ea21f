"""Fit the weights of `newscrawl.extract.confidence` and show that they generalise.

For every page of the five dev sets: the default method's `Evidence`, its body, and the
page's F1 by the dataset's own metric (token F1, or snippets for trafilatura_dev). A
logistic model of "page F1 >= 0.8" over `confidence.features` is fitted on all five sets
(the weights to paste into `confidence.WEIGHTS`), then once per set on the other four and
scored on the held-out one: AUROC of confidence for "page F1 < 0.5", the share of pages at
confidence >= 0.8 and their mean F1. Run: ``python bench/calibrate_confidence.py``.

The fitted model ranks pages; where its 0.8 cut falls is set apart (`cut_offset`): the
largest shift of the intercept under which the pages at 0.8 or more keep a mean F1 of at
least `CONFIDENT_MEAN_F1`, chosen on all sets for the weights and, to show it holds, on
four sets and scored on the fifth.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

import numpy as np

from newscrawl.evaluation.calibration import auroc
from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import score_prediction
from newscrawl.extract import Options, blocks, confidence, head
from newscrawl.extract.api import default_body
from newscrawl.extract.decode import decode_html

OPTIONS = Options(with_metadata=False)
GOOD_PAGE_F1 = 0.8
CONFIDENT_MEAN_F1 = 0.952
"""What pages at confidence >= 0.8 must average: the issue's 0.95 and a margin."""
OFFSETS = [step / 20 for step in range(-20, 21)]


def page_rows(dataset: str) -> list[tuple[list[float], float]]:
    """(model inputs with a leading 1, page F1) for every page of `dataset`."""
    rows = []
    for page in load_dataset(dataset).pages:
        text = decode_html(page.html).text
        _, selection, body = default_body(blocks.page_lines(text), head.PageHead(text), OPTIONS)
        inputs = confidence.features(selection.evidence, len(body.text))
        rows.append(([1.0, *inputs], score_prediction(page, body.text).f1))
    return rows


def fit(rows: Sequence[tuple[list[float], float]]) -> np.ndarray:
    """Logistic regression of "F1 >= 0.8" by gradient descent (small L2, converged)."""
    x = np.array([inputs for inputs, _ in rows])
    y = np.array([f1 >= GOOD_PAGE_F1 for _, f1 in rows], dtype=float)
    weights = np.zeros(x.shape[1])
    for _ in range(30_000):
        predicted = 1 / (1 + np.exp(-x @ weights))
        weights -= (x.T @ (predicted - y) / len(y)) + 0.001 * weights
    return weights


def confident_f1s(weights: np.ndarray, rows: Sequence[tuple[list[float], float]]) -> list[float]:
    """The F1 of the pages whose confidence under `weights` is at least 0.8."""
    return [f1 for inputs, f1 in rows if _value(weights, inputs) >= 0.8]


def cut_offset(weights: np.ndarray, rows: Sequence[tuple[list[float], float]]) -> float:
    """The largest of `OFFSETS` added to the intercept under which the pages at confidence
    0.8 or more average `CONFIDENT_MEAN_F1` (the smallest offset when none does)."""
    for offset in reversed(OFFSETS):
        f1s = confident_f1s(shifted(weights, offset), rows)
        if f1s and sum(f1s) / len(f1s) >= CONFIDENT_MEAN_F1:
            return offset
    return OFFSETS[0]


def shifted(weights: np.ndarray, offset: float) -> np.ndarray:
    """`weights` with `offset` added to the intercept (the first weight)."""
    return np.concatenate(([weights[0] + offset], weights[1:]))


def _value(weights: np.ndarray, inputs: Sequence[float]) -> float:
    return 1 / (1 + math.exp(-float(np.dot(weights, inputs))))


def figures(weights: np.ndarray, rows: Sequence[tuple[list[float], float]]) -> str:
    values = [_value(weights, inputs) for inputs, _ in rows]
    f1s = [f1 for _, f1 in rows]
    ranked = auroc([1 - value for value in values], [f1 < 0.5 for f1 in f1s])
    confident = confident_f1s(weights, rows)
    mean = sum(confident) / len(confident) if confident else float("nan")
    ranking = "n/a (no page under 0.5)" if ranked is None else f"{ranked:.3f}"
    return (
        f"AUROC {ranking:>24}  conf>=0.8: {len(confident) / len(rows):.3f} of pages, "
        f"mean F1 {mean:.3f} (all pages {sum(f1s) / len(f1s):.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", nargs="+", default=list(NAMED_DATASETS))
    args = parser.parse_args()
    rows = {name: page_rows(name) for name in args.dataset}
    pooled = [row for name in rows for row in rows[name]]
    weights = fit(pooled)
    print("weights fitted on all sets (intercept first):", np.round(weights, 3).tolist())
    print(f"{'all sets':16s} {figures(weights, pooled)}")
    current = np.array(confidence.WEIGHTS)
    print("the current confidence.WEIGHTS:")
    print(f"{'all sets':16s} {figures(current, pooled)}")
    print(f"  its cut offset on all sets: {cut_offset(current, pooled):+.2f}")
    print("fitted on the other sets, scored on the held-out one:")
    for name, held_out in rows.items():
        others = [row for other in rows if other != name for row in rows[other]]
        print(f"{name:16s} {figures(fit(others), held_out)}")
    print("confidence.WEIGHTS with the cut offset chosen on the other sets:")
    for name, held_out in rows.items():
        others = [row for other in rows if other != name for row in rows[other]]
        offset = cut_offset(current, others)
        print(f"{name:16s} {offset:+.2f}  {figures(shifted(current, offset), held_out)}")


if __name__ == "__main__":
    main()
