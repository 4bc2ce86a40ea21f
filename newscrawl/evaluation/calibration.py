"""Does an extractor's confidence tell good pages from bad ones?

`newscrawl.extract.Article.confidence` is meant for filtering a corpus ("keep pages at 0.8
or over"), so the figures are the ones such a filter needs: how many pages pass, how good
the passed pages are, and how well low confidence ranks the bad pages first (AUROC).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from statistics import mean
from typing import TypedDict

CONFIDENT = 0.8
"""The filter threshold the figures are given for (the one `Article.confidence` suggests)."""
BAD_PAGE_F1 = 0.5
"""A page scoring below this F1 is bad: the event low confidence should predict."""


class Calibration(TypedDict):
    pages: int
    """Pages that carry a confidence (the rest are left out of every figure)."""
    confident_share: float
    """Share of those pages with confidence >= `CONFIDENT`."""
    confident_f1: float | None
    """Mean page F1 of the confident pages (None when there is none)."""
    auroc: float | None
    """AUROC of 1 - confidence for "page F1 < `BAD_PAGE_F1`" (None without both kinds)."""


def auroc(scores: Sequence[float], positive: Sequence[bool]) -> float | None:
    """The chance that a random positive scores above a random negative, ties counting half.

    Computed from ranks (Mann-Whitney U, tied scores sharing their mean rank), which is that
    pairwise definition in O(n log n). None when either class is empty: nothing to rank.
    """
    positives = sum(positive)
    negatives = len(positive) - positives
    if not positives or not negatives:
        return None
    ranked = sorted(zip(scores, positive, strict=True), key=lambda pair: pair[0])
    rank_sum = 0.0
    below = 0
    for _score, tied in groupby(ranked, key=lambda pair: pair[0]):
        labels = [label for _, label in tied]
        mean_rank = below + (len(labels) + 1) / 2
        rank_sum += mean_rank * sum(labels)
        below += len(labels)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def calibrate(pages: Sequence[tuple[float, float]]) -> Calibration | None:
    """The figures for (confidence, page F1) pairs; None for no pair (no confidence given)."""
    if not pages:
        return None
    confident = [f1 for confidence, f1 in pages if confidence >= CONFIDENT]
    return {
        "pages": len(pages),
        "confident_share": len(confident) / len(pages),
        "confident_f1": mean(confident) if confident else None,
        "auroc": auroc(
            [1 - confidence for confidence, _ in pages], [f1 < BAD_PAGE_F1 for _, f1 in pages]
        ),
    }
