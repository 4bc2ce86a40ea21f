"""The snippet metric of trafilatura's evaluation, for gold made of snippets (trafilatura_dev).

Each page has "with" snippets a good extraction contains and "without" snippets it must not
(menus, dates, boilerplate). A re-implementation of ``shared/eval/snippets.py``, which is not
shipped with the package; it must give the same numbers on the same outputs: whitespace is
collapsed on both sides, a snippet counts when it is a substring of the output, counts are
summed over pages (so pages with many snippets weigh more), and the bootstrap draws and
deviation are the reference's own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from newscrawl.evaluation.scoring import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    bootstrap,
    page_rates,
)

_WHITESPACE_RE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Snippets:
    """One page's gold: what the output must contain, and what it must not."""

    wanted: tuple[str, ...]
    """The "with" snippets."""
    unwanted: tuple[str, ...]
    """The "without" snippets."""

    def to_dict(self) -> dict[str, list[str]]:
        """The gold file's own form, which ``snippets.py`` reads."""
        return {"with": list(self.wanted), "without": list(self.unwanted)}


@dataclass(frozen=True, slots=True)
class SnippetScore:
    """One page's snippet counts: tp "with" found, fn "with" missing, fp "without" found,
    tn "without" absent."""

    id: str
    tp: int
    fp: int
    fn: int
    tn: int
    empty: bool
    """Nothing but whitespace was extracted."""

    @property
    def f1(self) -> float:
        """The page's own 2tp / (2tp + fp + fn); 1.0 when nothing could go wrong (no snippet)."""
        wrong = self.fp + self.fn
        return 2 * self.tp / (2 * self.tp + wrong) if self.tp or wrong else 1.0

    @property
    def missed(self) -> bool:
        """None of the page's "with" snippets was found (on a page that has some)."""
        return self.tp == 0 and self.fn > 0

    @property
    def found(self) -> bool:
        """All of the page's "with" snippets were found (on a page that has some)."""
        return self.fn == 0 and self.tp > 0

    def to_dict(self) -> dict[str, object]:
        return {**asdict(self), "f1": self.f1}


def collapse(text: str) -> str:
    """Runs of whitespace made one space, ends stripped: line breaks must not decide a match."""
    return _WHITESPACE_RE.sub(" ", text).strip()


def score_snippets(page_id: str, gold: Snippets, predicted: str) -> SnippetScore:
    """Count which of the page's snippets the output holds; an empty output holds none."""
    output = collapse(predicted)
    tp = sum(collapse(snippet) in output for snippet in gold.wanted) if output else 0
    fp = sum(collapse(snippet) in output for snippet in gold.unwanted) if output else 0
    return SnippetScore(
        id=page_id,
        tp=tp,
        fp=fp,
        fn=len(gold.wanted) - tp,
        tn=len(gold.unwanted) - fp,
        empty=not output,
    )


def aggregate_snippets(pages: Sequence[SnippetScore]) -> dict[str, float]:
    """P, R and F of the counts summed over pages (0.0 where undefined), plus page rates."""
    tp = sum(page.tp for page in pages)
    fp = sum(page.fp for page in pages)
    fn = sum(page.fn for page in pages)
    return {
        "f1": 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 0.0,
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        **page_rates(pages),
    }


def evaluate_snippets(
    pages: Sequence[SnippetScore],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """`aggregate_snippets` with bootstrap deviations; pages in id order, as the reference
    draws them."""
    ordered = sorted(pages, key=lambda page: page.id)
    return bootstrap(ordered, aggregate_snippets, _sample_std, resamples=resamples, seed=seed)


def _sample_std(values: list[float]) -> float:
    """The reference's formula, not `statistics.stdev`: the two may differ in the last bit."""
    mean = sum(values) / len(values)
    std: float = (sum((value - mean) ** 2 for value in values) / (len(values) - 1)) ** 0.5
    return std
