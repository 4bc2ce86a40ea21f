"""Run extractors over a dataset: predictions, confidence, per-page time, per-page scores.

Each page is decoded once with `decode_html`; peers get that text, our own methods get the
bytes because decoding is part of what they do. Where the gold starts with the headline
(`Page.title_first`), the prediction scored is a title, a newline and the body: our methods'
own title, and for peers the default method's title, so that every extractor is judged on
its body. Only the extraction call is timed, after
one untimed warm-up page (imports, lazy models such as jieba's dictionary, caches).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from newscrawl.evaluation.calibration import Calibration, calibrate
from newscrawl.evaluation.datasets import Dataset, Page
from newscrawl.evaluation.peers import PeerExtract
from newscrawl.evaluation.scoring import PageScore, evaluate, score_page
from newscrawl.evaluation.snippets import Snippets, SnippetScore, evaluate_snippets, score_snippets
from newscrawl.extract import Method, Options, decode_html, extract


class Extraction(NamedTuple):
    """What an extractor gives for a page: the body, and how sure it is (ours only)."""

    body: str
    confidence: float | None = None
    title: str | None = None
    """The extractor's title (ours only); peers are given the default method's."""


@dataclass(frozen=True, slots=True)
class Extractor:
    """A contestant: our method (takes bytes) or a peer (takes decoded text)."""

    name: str
    call: Callable[[Page, str], Extraction]
    """(page, decoded text) -> extraction; picks the input form the extractor is meant to get."""


def method_extractor(method: Method, options: Options | None = None) -> Extractor:
    """One of our methods, fed the page bytes; body only, like the peers are run, and the
    article's confidence for the calibration figures. `options` (without metadata by
    default) lets a benchmark run the method with other parameters."""
    if options is None:
        options = Options(method=method, with_metadata=False)

    def call(page: Page, _text: str) -> Extraction:
        article = extract(page.html, page.url, options=options)
        return Extraction(article.body, article.confidence, article.title)

    return Extractor(method, call)


def peer_extractor(name: str, peer: PeerExtract) -> Extractor:
    """A peer, fed the text decoded once by our decoder; peers give no confidence."""
    return Extractor(name, lambda page, text: Extraction(peer(text, page.url)))


Score = PageScore | SnippetScore


def score_prediction(page: Page, prediction: str) -> Score:
    """The page's own metric: snippets where the gold is snippets, token F1 else."""
    if isinstance(page.gold, Snippets):
        return score_snippets(page.id, page.gold, prediction)
    return score_page(page.id, page.gold, prediction)


@dataclass(frozen=True, slots=True)
class PageResult:
    page: Page
    score: Score
    prediction: str
    seconds: float
    error: str | None = None
    """The exception the extractor raised on this page (its body then counts as empty)."""
    confidence: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            **self.score.to_dict(),
            "confidence": self.confidence,
            "site": self.page.site,
            "url": self.page.url,
            "bytes": len(self.page.html),
            "seconds": self.seconds,
            "error": self.error,
        }


def scored_text(page: Page, title: str | None, body: str) -> str:
    """What is scored for an extraction of `page`: the body, after the title and a newline
    where the gold starts with the headline (`Page.title_first`)."""
    return f"{title or ''}\n{body}" if page.title_first else body


def run_extractor(
    extractor: Extractor,
    dataset: Dataset,
    texts: list[str],
    titles: list[str] | None = None,
) -> list[PageResult]:
    """Extract and score every page of `dataset`; `texts` are the pages decoded once,
    `titles` the default method's titles (`default_titles`) where the pages need them."""
    if dataset.pages:
        _call(extractor, dataset.pages[0], texts[0])  # warm-up, not timed
    results = []
    for number, (page, text) in enumerate(zip(dataset.pages, texts, strict=True)):
        start = time.perf_counter()
        extraction, error = _call(extractor, page, text)
        seconds = time.perf_counter() - start
        title = extraction.title
        if title is None and titles is not None:
            title = titles[number]
        prediction = scored_text(page, title, extraction.body)
        results.append(
            PageResult(
                page,
                score_prediction(page, prediction),
                prediction,
                seconds,
                error,
                extraction.confidence,
            )
        )
    return results


def _call(extractor: Extractor, page: Page, text: str) -> tuple[Extraction, str | None]:
    """A peer that crashes on a page has extracted nothing from it; the run goes on."""
    try:
        return extractor.call(page, text), None
    except Exception as error:  # any peer bug must not stop a benchmark of many
        return Extraction(""), f"{type(error).__name__}: {error}"


def decode_pages(dataset: Dataset) -> list[str]:
    """Each page's text, decoded once and shared by every peer."""
    return [decode_html(page.html).text for page in dataset.pages]


def default_titles(dataset: Dataset) -> list[str] | None:
    """The default method's title of each page, for the peers on pages scored with their
    title; None when no page of `dataset` is."""
    if not any(page.title_first for page in dataset.pages):
        return None
    options = Options(with_metadata=False)
    return [extract(page.html, page.url, options=options).title for page in dataset.pages]


def summarize(results: list[PageResult]) -> dict[str, float]:
    """Quality metrics with bootstrap std, plus speed and the count of crashed pages."""
    scores = [result.score for result in results]
    snippet_scores = [page for page in scores if isinstance(page, SnippetScore)]
    token_scores = [page for page in scores if isinstance(page, PageScore)]
    if snippet_scores and token_scores:
        raise ValueError("a dataset's pages are scored by one metric, not two")
    metrics = evaluate_snippets(snippet_scores) if snippet_scores else evaluate(token_scores)
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


def summarize_calibration(results: list[PageResult]) -> Calibration | None:
    """How well the confidence predicts page F1; None for an extractor that gives none."""
    return calibrate(
        [
            (result.confidence, result.score.f1)
            for result in results
            if result.confidence is not None
        ]
    )
