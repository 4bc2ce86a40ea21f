"""How sure the default method is that the body it kept is the page's article.

A logistic model over what the selection already knows (`default.Evidence`): the share of
the page's body-like text the body holds (a body that leaves most of it out picked one block
among several), the body's length, whether the page's headline is among its lines, and
whether the body starts far from it. The value estimates the chance that the body scores a
page F1 of 0.8 or more; the weights were fitted on the five dev sets by
``bench/calibrate_confidence.py``, which also shows that weights fitted on four of them rank
the fifth's pages as well (BENCHMARKS.md, "Confidence").
"""

from __future__ import annotations

import math
from typing import NamedTuple

from newscrawl.extract.default import Evidence

FAR_FROM_HEADLINE = 20
"""A body starting more than this many text lines from the headline is far from it (most
wrong-region pages of the dev sets start 21 to 236 lines away; right ones within a few)."""

WEIGHTS = (-1.437, 2.915, 0.035, 0.989, -2.176)
"""The model's intercept and the weights of `features`, in order (fitted, see above). The
intercept holds the cut offset the calibration chose (+0.15 on the fitted -1.587): the
largest under which pages at confidence 0.8 or more still average a page F1 of 0.952."""

LOW_SHARE = 0.6
"""Below this share of the page's body-like text, the share is named as a reason."""
SHORT_BODY_CHARS = 300
"""A body shorter than this is named as a reason."""


class Confidence(NamedTuple):
    value: float
    """In [0, 1]."""
    reasons: tuple[str, ...]
    """What lowered `value`, in a few words each."""


def features(evidence: Evidence, body_chars: int) -> tuple[float, float, float, float]:
    """The model's inputs: the body's share of the page's body-like score, the log of its
    length, the headline found, and the body starting far from it."""
    share = evidence.body_score / evidence.page_score if evidence.page_score else 0.0
    far = evidence.headline and abs(evidence.headline_gap) > FAR_FROM_HEADLINE
    return share, math.log1p(body_chars), float(evidence.headline), float(far)


def confidence(evidence: Evidence, body_chars: int) -> Confidence:
    """The confidence of a body of `body_chars` characters kept on `evidence`; 0 for no
    body."""
    if not body_chars:
        return Confidence(0.0, ("no body",))
    inputs = features(evidence, body_chars)
    intercept, *weights = WEIGHTS
    score = intercept + sum(weight * value for weight, value in zip(weights, inputs, strict=True))
    return Confidence(
        round(1.0 / (1.0 + math.exp(-score)), 3), _reasons(evidence, inputs[0], body_chars)
    )


def _reasons(evidence: Evidence, share: float, body_chars: int) -> tuple[str, ...]:
    reasons = []
    if share < LOW_SHARE:
        reasons.append(f"the body holds {share:.0%} of the page's body-like text")
    if not evidence.headline:
        reasons.append("no headline among the page's lines")
    elif abs(evidence.headline_gap) > FAR_FROM_HEADLINE:
        reasons.append(f"the body starts {evidence.headline_gap} text lines after the headline")
    if body_chars < SHORT_BODY_CHARS:
        reasons.append(f"short body ({body_chars} chars)")
    if evidence.short_page:
        reasons.append("short page: its whole text kept")
    return tuple(reasons)
