"""Run extractors over a dataset: predictions, per-page time, per-page scores.

Each page is decoded once with `decode_html`; peers get that text, our own methods get the
bytes because decoding is part of what they do. Only the extraction call is timed, after
one untimed warm-up page (imports, lazy models such as jieba's dictionary, caches).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from newscrawl.evaluation.datasets import Dataset, Page
from newscrawl.evaluation.peers import PeerExtract
from newscrawl.evaluation.scoring import PageScore, evaluate, score_page
from newscrawl.extract import Method, Options, decode_html, extract


@dataclass(frozen=True, slots=True)
class Extractor:
    """A contestant: our method (takes bytes) or a peer (takes decoded text)."""

    name: str
    call: Callable[[Page, str], str]
    """(page, decoded text) -> body; picks the input form the extractor is meant to get."""


def method_extractor(method: Method) -> Extractor:
    """One of our methods, fed the page bytes; body only, like the peers are run."""
    options = Options(method=method, with_metadata=False)
    return Extractor(method, lambda page, _text: extract(page.html, page.url, options=options).body)


def peer_extractor(name: str, peer: PeerExtract) -> Extractor:
    """A peer, fed the text decoded once by our decoder."""
    return Extractor(name, lambda page, text: peer(text, page.url))


@dataclass(frozen=True, slots=True)
class PageResult:
    page: Page
    score: PageScore
    prediction: str
    seconds: float
    error: str | None = None
    """The exception the extractor raised on this page (its body then counts as empty)."""

    def to_dict(self) -> dict[str, object]:
        return {
            **self.score.to_dict(),
            "site": self.page.site,
            "url": self.page.url,
            "bytes": len(self.page.html),
            "seconds": self.seconds,
            "error": self.error,
        }


def run_extractor(extractor: Extractor, dataset: Dataset, texts: list[str]) -> list[PageResult]:
    """Extract and score every page of `dataset`; `texts` are the pages decoded once."""
    if dataset.pages:
        _call(extractor, dataset.pages[0], texts[0])  # warm-up, not timed
    results = []
    for page, text in zip(dataset.pages, texts, strict=True):
        start = time.perf_counter()
        prediction, error = _call(extractor, page, text)
        seconds = time.perf_counter() - start
        results.append(
            PageResult(page, score_page(page.id, page.gold, prediction), prediction, seconds, error)
        )
    return results


def _call(extractor: Extractor, page: Page, text: str) -> tuple[str, str | None]:
    """A peer that crashes on a page has extracted nothing from it; the run goes on."""
    try:
        return extractor.call(page, text), None
    except Exception as error:  # any peer bug must not stop a benchmark of many
        return "", f"{type(error).__name__}: {error}"


def decode_pages(dataset: Dataset) -> list[str]:
    """Each page's text, decoded once and shared by every peer."""
    return [decode_html(page.html).text for page in dataset.pages]


def summarize(results: list[PageResult]) -> dict[str, float]:
    """Quality metrics with bootstrap std, plus speed and the count of crashed pages."""
    metrics = evaluate([result.score for result in results])
    seconds = sum(result.seconds for result in results)
    megabytes = sum(len(result.page.html) for result in results) / 1e6
    metrics["pages_per_s"] = len(results) / seconds
    metrics["mb_per_s"] = megabytes / seconds
    metrics["errors"] = sum(result.error is not None for result in results)
    return metrics


def summarize_sites(results: list[PageResult]) -> dict[str, dict[str, float]]:
    """`summarize` over each site's pages, in page order; empty for a dataset without sites."""
    by_site: dict[str, list[PageResult]] = {}
    for result in results:
        if result.page.site is not None:
            by_site.setdefault(result.page.site, []).append(result)
    return {site: summarize(site_results) for site, site_results in by_site.items()}
