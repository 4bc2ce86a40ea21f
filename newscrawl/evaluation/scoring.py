"""The extraction-quality metric of `docs/scoring.md`, shipped with the package.

The reference scorer (``shared/eval/score.py``) is not part of the distribution, so this is
a re-implementation that must give the same numbers on the same predictions, bootstrap
standard deviations included (same seed, same draws). Means use `statistics.mean`, as the
reference does, so results agree to the last bit rather than to a tolerance.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Protocol, TypeVar

from newscrawl.extract.words import CJK_CHAR_RE, words

SHINGLE_SIZE = 4
SUCCESS_F1 = 0.9
"""A page is a success (the paper: *correct*) when its own F1 reaches this."""
MISSED_F1 = 0.2
"""Below this page F1 the extractor missed the article (took another region of the page)."""
FOUND_F1 = 0.8
"""From this page F1 on the extractor found the article's region."""
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0


class ScoredPage(Protocol):
    """One page's score under any metric: what the page-level figures and reports need."""

    @property
    def id(self) -> str: ...

    @property
    def f1(self) -> float: ...

    @property
    def empty(self) -> bool: ...

    @property
    def missed(self) -> bool:
        """The extraction holds (next to) nothing of the article."""

    @property
    def found(self) -> bool:
        """The extraction holds (nearly) all of the article."""

    def to_dict(self) -> dict[str, object]: ...


ScoreT = TypeVar("ScoreT", bound=ScoredPage)


def tokenize(text: str) -> list[str]:
    """Every CJK character is a token; any other run of word characters is one token
    (`newscrawl.extract.words`)."""
    return words(text)


def cjk_share(tokens: Sequence[str]) -> float:
    """Share of `tokens` that are CJK characters (0.0 for no tokens): tells the language."""
    if not tokens:
        return 0.0
    return sum(1 for token in tokens if CJK_CHAR_RE.fullmatch(token)) / len(tokens)


def shingles(tokens: Sequence[str], size: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of `size`-token n-grams; a text shorter than `size` is one shingle."""
    count = max(1, len(tokens) - size + 1)
    return Counter(shingle for i in range(count) if (shingle := tuple(tokens[i : i + size])))


@dataclass(frozen=True, slots=True)
class PageScore:
    """One page's shingle overlap, normalised so that tp + fp + fn = 1 (or all 0)."""

    id: str
    tp: float
    fp: float
    fn: float
    accuracy: float
    """1.0 when the predicted token sequence equals the gold one exactly."""
    empty: bool
    """Nothing (no token) was extracted."""
    gold_tokens: int
    pred_tokens: int

    @property
    def precision(self) -> float:
        return _ratio(self.tp, self.fp, self.fn)

    @property
    def recall(self) -> float:
        return _ratio(self.tp, self.fn, self.fp)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    @property
    def missed(self) -> bool:
        return self.f1 < MISSED_F1

    @property
    def found(self) -> bool:
        return self.f1 >= FOUND_F1

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, with the derived per-page precision, recall and F1."""
        return {
            **asdict(self),
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


def _ratio(tp: float, wrong: float, other_wrong: float) -> float:
    """tp / (tp + wrong); a perfect page (no error at all) is 1.0, nothing shared is 0.0."""
    if wrong == other_wrong == 0:
        return 1.0
    if tp == wrong == 0:
        return 0.0
    return tp / (tp + wrong)


def score_page(page_id: str, gold: str, predicted: str) -> PageScore:
    """Compare one page's predicted body with its gold body."""
    gold_tokens, pred_tokens = tokenize(gold), tokenize(predicted)
    expected, found = shingles(gold_tokens), shingles(pred_tokens)
    tp = float(sum((expected & found).values()))
    fp = float(sum((found - expected).values()))
    fn = float(sum((expected - found).values()))
    total = tp + fp + fn
    if total > 0:  # so that long pages do not weigh more than short ones
        tp, fp, fn = tp / total, fp / total, fn / total
    return PageScore(
        id=page_id,
        tp=tp,
        fp=fp,
        fn=fn,
        accuracy=float(gold_tokens == pred_tokens),
        empty=not pred_tokens,
        gold_tokens=len(gold_tokens),
        pred_tokens=len(pred_tokens),
    )


def aggregate(pages: Sequence[PageScore]) -> dict[str, float]:
    """Token-shingle P/R/F1 over pages, plus the page-level rates (`docs/scoring.md`).

    Precision averages only pages where something was predicted (tp + fp > 0), recall only
    pages with gold text; the mean of no page is 0.0 so an all-empty extractor scores 0.
    """
    precisions = [page.precision for page in pages if page.tp + page.fp > 0]
    recalls = [page.recall for page in pages if page.tp + page.fn > 0]
    precision = statistics.mean(precisions) if precisions else 0.0
    recall = statistics.mean(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "f1": f1,
        "precision": precision,
        "recall": recall,
        "accuracy": statistics.mean(page.accuracy for page in pages),
        **page_rates(pages),
    }


def page_rates(pages: Sequence[ScoredPage]) -> dict[str, float]:
    """The page-level figures of `docs/scoring.md` (success, empty, the paper's P and R),
    from each page's own F1 whatever the metric."""
    correct = [float(page.f1 >= SUCCESS_F1) for page in pages]
    return {
        "success": statistics.mean(correct),
        "empty": statistics.mean(float(page.empty) for page in pages),
        "paper_precision": sum(correct) / max(1, sum(not page.empty for page in pages)),
        "paper_recall": statistics.mean(correct),
    }


def evaluate(
    pages: Sequence[PageScore],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """`aggregate` plus a bootstrap standard deviation (``<metric>_std``) of every metric."""
    return bootstrap(pages, aggregate, statistics.stdev, resamples=resamples, seed=seed)


def bootstrap(
    pages: Sequence[ScoreT],
    aggregate: Callable[[Sequence[ScoreT]], dict[str, float]],
    stdev: Callable[[list[float]], float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, float]:
    """`aggregate` of `pages`, its ``<metric>_std`` over resamples, and ``n_pages``.

    The draws are those of both reference scorers (n calls of ``randint(0, n - 1)``, the
    same as ``randrange(n)``, per resample from ``random.Random(seed)``); `stdev` is the
    reference's own formula, so the deviations equal theirs to the last bit.
    """
    if not pages:
        raise ValueError("no page to evaluate")
    metrics = aggregate(pages)
    rng = random.Random(seed)
    n = len(pages)
    samples: dict[str, list[float]] = {key: [] for key in metrics}
    for _ in range(resamples):
        resampled = aggregate([pages[rng.randint(0, n - 1)] for _ in range(n)])
        for key, value in resampled.items():
            samples[key].append(value)
    for key, values in samples.items():
        metrics[f"{key}_std"] = stdev(values) if len(values) > 1 else 0.0
    metrics["n_pages"] = n
    return metrics
