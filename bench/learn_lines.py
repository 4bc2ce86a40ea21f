"""A learned line model against the default method's rules, leave one dataset out.

    python bench/learn_lines.py [--datasets NAME ...] [--limit N] [--rebuild] [--timing N]

Every line of every page of the six dev sets gets features from what the default method
already computes (`blocks.page_lines`, the element tree, the line rules of
`newscrawl.extract.default`, and for the "+rules" feature set the selection itself: the
line's score, its drop rule, whether it lies in the voted article elements and in the best
region) and a label from the page's gold (`line_labels`). Models are trained on five
datasets and predict the lines of the sixth; line probabilities become a body by
`keep_lines` (every line over one half) or `region_lines` (the maximum-sum region of
``(p - 1/2) * chars``, then its lines over one half), or, for the hybrid, as one more term
of the rules' line score (`hybrid_body`). Bodies go through the method's structured
fallbacks and are scored as ``newscrawl eval`` scores them (`runner.score_prediction`,
``runner.summarize(results)["f1"]``, the title first where the gold starts with it).

Writes the models trained on all six sets to ``bench/results/learn-lines-model.json`` and
the tables to ``bench/results/learn-lines.json``; prints both tables. One process.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from recorded import recorded
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from newscrawl.evaluation.datasets import NAMED_DATASETS, Page, load_dataset
from newscrawl.evaluation.runner import PageResult, score_prediction, scored_text, summarize
from newscrawl.evaluation.scoring import shingles, tokenize
from newscrawl.evaluation.snippets import Snippets, collapse
from newscrawl.extract import Options, api, blocks, default, extract, fallbacks, head
from newscrawl.extract import head_hints as hints_module
from newscrawl.extract.decode import decode_html

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OPTIONS = Options(with_metadata=False)
THRESHOLD = 0.5
HEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
"""Tags of a heading line (a feature: a short line that heads what follows)."""
HYBRID_WEIGHT = 1.0
"""The hybrid adds ``HYBRID_WEIGHT * (p - 1/2) * chars`` to a line's rule score (fixed in
advance, not tuned on any set)."""

TAGS = ("p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "div", "pre",
        "blockquote", "figcaption", "dd", "dt", "body", "span")  # fmt: skip
NOISE_GROUPS = {
    "comment": ("comment", "reply", "disqus", "评论", "留言"),
    "related": ("related", "recommend", "hot", "rank", "相关", "推荐", "热门", "排行"),
    "share": ("share", "sharing", "social", "分享"),
    "ad": ("advert", "ads", "ad", "gg", "sponsor", "banner", "广告"),
    "footer": ("footer", "foot", "copyright", "版权"),
    "nav": ("nav", "navbar", "menu", "breadcrumb", "crumbs", "toolbar", "导航"),
    "aside": ("aside", "sidebar"),
    "author": ("author",),
    "popup": ("newsletter", "subscribe", "login", "modal", "popup", "consent", "cookie"),
    "gallery": ("gallery", "carousel", "slideshow"),
}
NOISE_INDEX = {word: i for i, words in enumerate(NOISE_GROUPS.values()) for word in words}
DROP_RULES = ("boilerplate element", "link line", "boilerplate line: credit",
              "boilerplate line: photo", "comment", "call to action", "heading with nothing",
              "outside the article", "outside the best region", "headline", "no body region",
              "short page")  # fmt: skip
CONTENT_RE = re.compile(r"article|content|post|entry|story|text|body|main", re.IGNORECASE)
NEIGHBOURS = (-2, -1, 1, 2)
WINDOW = 5
SHORT_LINE_TOKENS = 4
LINE_FEATURES = 5 + 7 * len(NEIGHBOURS) + 3 + len(TAGS) + len(NOISE_GROUPS) + 2 + 8 + 12 + 5
RULE_FEATURES = 5 + len(DROP_RULES)


@dataclass
class PageData:
    """One page's lines as features and labels, and what every body needs besides."""

    dataset: str
    page: Page | None
    """None in the cache file (the HTML is read again from the dataset)."""
    texts: list[str]
    lines_x: np.ndarray
    """The "lines only" features (`line_features`)."""
    rules_x: np.ndarray
    """The extra "+rules" features (`rule_features`)."""
    labels: np.ndarray
    """1 body, 0 not, -1 unlabeled."""
    chars: np.ndarray
    headline: int | None
    title: str
    article_body: str
    description: str
    rules_body: str


# --- features -------------------------------------------------------------------------


class Tree:
    """Per element sums over its subtree and its place in the tree."""

    def __init__(self, page: blocks.PageLines) -> None:
        size = len(page.tags)
        parents = page.parents
        self.chars, self.links, self.prose = [0] * size, [0] * size, [0] * size
        self.lines = [0] * size
        for line in page.lines:
            self.chars[line.element] += line.chars
            self.links[line.element] += line.link_chars
            if line.punctuation:
                self.prose[line.element] += line.chars - line.link_chars
            self.lines[parents.get(line.element, 0)] += 1
        for element in range(size - 1, 0, -1):
            parent = parents.get(element, 0)
            self.chars[parent] += self.chars[element]
            self.links[parent] += self.links[element]
            self.prose[parent] += self.prose[element]
        self.depth = [0] * size
        self.content = [99] * size
        marks = default.landmarks(page)
        ends = default.subtree_ends(parents)
        self.landmark = default._inside_elements(marks, ends) if marks else [False] * size
        for element in range(1, size):
            parent = parents.get(element, 0)
            self.depth[element] = self.depth[parent] + 1
            named = CONTENT_RE.search(page.attributes.get(element, ""))
            self.content[element] = 0 if named else min(self.content[parent] + 1, 99)

    def up(self, element: int, parents: dict[int, int], levels: int) -> int:
        """The ancestor `levels` up (0: the page)."""
        for _ in range(levels):
            element = parents.get(element, 0)
        return element


def _base(line: blocks.Line) -> list[float]:
    """A line's own size, link share and punctuation, also used for its neighbours."""
    chars = max(line.chars, 1)
    return [
        math.log1p(line.chars),
        line.link_chars / chars,
        math.log1p(line.chars - line.link_chars),
        math.log1p(line.punctuation),
        100 * line.punctuation / chars,
    ]


def _context(lines: Sequence[blocks.Line], index: int, parents: dict[int, int]) -> list[float]:
    """The neighbours' `_base`, whether they share the line's parent, and the window's text."""
    line = lines[index]
    parent = parents.get(line.element, 0)
    row: list[float] = []
    for offset in NEIGHBOURS:
        other = index + offset
        if 0 <= other < len(lines):
            row += [*_base(lines[other]), float(parents.get(lines[other].element, 0) == parent), 1]
        else:
            row += [0.0] * 7
    window = lines[max(0, index - WINDOW) : index + WINDOW + 1]
    text = sum(other.chars - other.link_chars for other in window)
    links = sum(other.link_chars for other in window)
    row += [
        math.log1p(text),
        links / max(text + links, 1),
        math.log1p(sum(other.punctuation for other in window)),
    ]
    return row


def _categories(line: blocks.Line) -> list[float]:
    """The line's tag and noise word, one-hot."""
    tags = [float(line.tag == tag) for tag in TAGS]
    tags.append(float(line.tag not in TAGS))
    noise = [0.0] * (len(NOISE_GROUPS) + 1)
    if line.noise is not None:
        noise[NOISE_INDEX.get(line.noise, len(NOISE_GROUPS))] = 1.0
    return tags + noise


def _text_flags(line: blocks.Line, quoted: Callable[[blocks.Line], bool]) -> list[float]:
    """The method's per-line text rules, as flags."""
    reason = default._boilerplate_lines([line], [0]).get(0, "")
    text = line.text
    return [
        float("credit/statement" in reason),
        float("photo credit" in reason),
        float(bool(line.link_chars) and default._is_link_line(line, OPTIONS)),
        float(line.chars <= default.MAX_CALL_CHARS and default._is_call_to_action(text)),
        float(line.tag in HEADING_TAGS or text.endswith((":", "："))),
        float(quoted(line)),
        sum(char.isdigit() for char in text) / max(len(text), 1),
        float(text.rstrip()[-1:] in default.SENTENCE_ENDS + "\"'”»"),
    ]


def _tree_features(
    line: blocks.Line, tree: Tree, parents: dict[int, int], page_chars: int, prose: int
) -> list[float]:
    """The line's element: depth, its ancestors' share of the page's prose, links, boxes."""
    row = [float(tree.depth[line.element]), float(tree.content[line.element])]
    for levels in (0, 1, 2, 3):
        element = tree.up(line.element, parents, levels)
        row.append(tree.prose[element] / prose)
    parent = tree.up(line.element, parents, 1)
    row += [
        tree.links[parent] / max(tree.chars[parent], 1),
        math.log1p(tree.lines[parent]),
        float(tree.landmark[line.element]),
        float(line.noise_element != 0),
        tree.prose[line.noise_element] / prose if line.noise_element else 0.0,
        line.chars / page_chars,
    ]
    return row


def line_features(page: blocks.PageLines, headline: int | None, description: str) -> np.ndarray:
    """The "lines only" features: nothing of the selection (votes, region) is used."""
    lines, parents = page.lines, page.parents
    tree = Tree(page)
    page_chars = max(sum(line.chars for line in lines), 1)
    prose = max(tree.prose[0], 1)
    quoted = default._quoted_by(description)
    rows = []
    done = 0
    for index, line in enumerate(lines):
        distance = 0 if headline is None else max(-50, min(50, index - headline))
        position = [
            index / max(len(lines), 1),
            done / page_chars,
            float(headline is not None),
            float(distance),
            float(index == headline),
        ]
        done += line.chars
        rows.append(
            _base(line)
            + _context(lines, index, parents)
            + _categories(line)
            + _text_flags(line, quoted)
            + _tree_features(line, tree, parents, page_chars, prose)
            + position
        )
    return _matrix(rows, LINE_FEATURES)


def rule_features(
    selection: default.Selection, inside: Sequence[bool], lines: Sequence[blocks.Line]
) -> np.ndarray:
    """The "+rules" features: the rule score, drop rule, article elements, best region."""
    table = selection.lines
    region = [index for index, decision in enumerate(table) if decision.group is not None]
    first, last = (region[0], region[-1]) if region else (-1, -1)
    rows = []
    for index, (decision, line) in enumerate(zip(table, lines, strict=True)):
        rule = [float(decision.rule.startswith(name)) for name in DROP_RULES]
        where = 0 if first <= index <= last else (index - first if index < first else index - last)
        rows.append(
            [
                max(-5.0, min(5.0, decision.features["score"] / 100)),
                float(decision.kept),
                float(inside[line.element]) if inside else 0.0,
                float(decision.group is not None),
                float(max(-50, min(50, where)) if region else 99),
                *rule,
            ]
        )
    return _matrix(rows, RULE_FEATURES)


def _matrix(rows: list[list[float]], width: int) -> np.ndarray:
    """`rows` as a float32 matrix of `width` columns (also with no row)."""
    return np.asarray(rows, dtype=np.float32).reshape(len(rows), width)


# --- labels ---------------------------------------------------------------------------


def line_labels(page: Page, texts: Sequence[str]) -> np.ndarray:
    """1 where the line is body, 0 where not, -1 where the gold does not say.

    Token gold: a line of four tokens or more is body when half its 4-token shingles are
    the gold's; a shorter one when its text (whitespace removed) is in the gold's. Where the
    gold starts with the headline, its first line is left out. Snippet gold: a line that
    holds a "with" snippet, or lies inside one, is body; likewise "without" makes it not;
    a line both or neither is unlabeled."""
    if isinstance(page.gold, Snippets):
        return np.asarray([_snippet_label(page.gold, text) for text in texts], dtype=np.int8)
    gold = page.gold.split("\n", 1)[1] if page.title_first and "\n" in page.gold else page.gold
    gold_shingles = set(shingles(tokenize(gold)))
    plain_gold = "".join(gold.split())
    labels = []
    for text in texts:
        tokens = tokenize(text)
        if not tokens:
            labels.append(-1)
        elif len(tokens) < SHORT_LINE_TOKENS:
            labels.append(int("".join(text.split()) in plain_gold))
        else:
            own = shingles(tokens)
            labels.append(int(sum(s in gold_shingles for s in own) * 2 >= len(own)))
    return np.asarray(labels, dtype=np.int8)


def _snippet_label(gold: Snippets, text: str) -> int:
    line = collapse(text)
    if not line:
        return -1

    def matches(snippets: Sequence[str]) -> bool:
        return any(
            (snippet := collapse(raw))
            and (snippet in line or (len(line) >= 10 and line in snippet))
            for raw in snippets
        )

    wanted, unwanted = matches(gold.wanted), matches(gold.unwanted)
    if wanted == unwanted:
        return -1
    return int(wanted)


# --- one page -------------------------------------------------------------------------


@contextmanager
def capture_inside() -> Iterator[list[Sequence[bool]]]:
    """Record the article-element flags (by element id) each `default.select` call uses."""
    seen: list[Sequence[bool]] = []
    original = default._region_over

    def region_over(lines: Any, scores: Any, inside: Sequence[bool], options: Options) -> Any:
        seen.append(inside)
        return original(lines, scores, inside, options)

    with mock.patch.object(default, "_region_over", region_over):
        yield seen


def page_data(dataset: str, page: Page) -> PageData:
    """Run the method on `page` and keep every line's features and label."""
    text = decode_html(page.html).text
    lines = blocks.page_lines(text)
    page_head = head.PageHead(text)
    hints = hints_module.head_hints(page_head)
    with capture_inside() as seen:
        title, selection, body = api.default_body(lines, page_head, OPTIONS, page.url)
    inside = seen[0] if seen else []
    headline = default._headline_index(lines.lines, "".join(title.split()))
    texts = [line.text for line in lines.lines]
    return PageData(
        dataset,
        page,
        texts,
        line_features(lines, headline, hints.description),
        rule_features(selection, inside, lines.lines),
        line_labels(page, texts),
        np.asarray([line.chars for line in lines.lines], dtype=np.float32),
        headline,
        title,
        hints.article_body,
        hints.description,
        body.text,
    )


def body_of(data: PageData, lines_body: str) -> str:
    """The scored prediction from kept lines: fallbacks as the method's, title first where
    the gold starts with it."""
    hints = hints_module.HeadHints("", "", data.description, data.article_body, ())
    body = fallbacks.choose_body(lines_body, hints, OPTIONS).text
    return scored_text(data.page, data.title, body)


# --- decoding -------------------------------------------------------------------------


def keep_lines(data: PageData, probability: np.ndarray) -> str:
    """Every line over `THRESHOLD`, the headline aside."""
    return "\n".join(
        text
        for index, (text, p) in enumerate(zip(data.texts, probability, strict=True))
        if p >= THRESHOLD and index != data.headline
    )


def region_lines(data: PageData, probability: np.ndarray) -> str:
    """The maximum-sum region of ``(p - THRESHOLD) * chars``, its lines over `THRESHOLD`."""
    scores = ((probability - THRESHOLD) * np.maximum(data.chars, 1)).tolist()
    region = default.best_region(scores)
    if region is None:
        return ""
    return "\n".join(
        data.texts[index]
        for index in range(region[0], region[1] + 1)
        if probability[index] >= THRESHOLD and index != data.headline
    )


def hybrid_body(data: PageData, probability: np.ndarray) -> str:
    """The method's selection with ``HYBRID_WEIGHT * (p - 1/2) * chars`` added to every
    line score before the votes and the region (drop rules unchanged)."""
    text = decode_html(data.page.html).text
    lines = blocks.page_lines(text)
    page_head = head.PageHead(text)
    original = default._score_lines
    extra = (HYBRID_WEIGHT * (probability - THRESHOLD) * np.maximum(data.chars, 1)).tolist()

    def score_lines(*args: Any) -> default.LineScores:
        dropped, scores = original(*args)
        if len(scores) == len(extra):
            scores = [round(s + e) for s, e in zip(scores, extra, strict=True)]
        return dropped, scores

    with mock.patch.object(default, "_score_lines", score_lines):
        _title, selection, _body = api.default_body(lines, page_head, OPTIONS, data.page.url)
    return "\n".join(line.text for line in selection.kept)


# --- models ---------------------------------------------------------------------------


def design(pages: Sequence[PageData], with_rules: bool) -> tuple[np.ndarray, ...]:
    """Stacked features, labels and weights of the labeled lines: each page weighs the
    same within its dataset (half by chars, half by line) and each dataset the same."""
    per_set: dict[str, int] = {}
    for data in pages:
        per_set[data.dataset] = per_set.get(data.dataset, 0) + 1
    xs, ys, ws = [], [], []
    for data in pages:
        mask = data.labels >= 0
        if not mask.any():
            continue
        chars = data.chars[mask]
        weight = 0.5 * chars / max(chars.sum(), 1) + 0.5 / mask.sum()
        xs.append(features(data, with_rules)[mask])
        ys.append(data.labels[mask])
        ws.append(weight / per_set[data.dataset])
    return np.vstack(xs), np.concatenate(ys), np.concatenate(ws) * len(per_set) * 1000


def features(data: PageData, with_rules: bool) -> np.ndarray:
    return np.hstack([data.lines_x, data.rules_x]) if with_rules else data.lines_x


def make_model(kind: str) -> Any:
    if kind == "logreg":
        return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    return HistGradientBoostingClassifier(
        max_iter=200, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=40,
        early_stopping=False, random_state=0,
    )  # fmt: skip


def fit(kind: str, pages: Sequence[PageData], with_rules: bool) -> Any:
    x, y, w = design(pages, with_rules)
    model = make_model(kind)
    if kind == "logreg":
        model.fit(x, y, logisticregression__sample_weight=w)
    else:
        model.fit(x, y, sample_weight=w)
    return model


def probabilities(model: Any, data: PageData, with_rules: bool) -> np.ndarray:
    if not data.texts:
        return np.zeros(0)
    return model.predict_proba(features(data, with_rules))[:, 1]


VARIANTS: dict[str, tuple[str, bool, Callable[[PageData, np.ndarray], str]]] = {
    "logreg lines, keep": ("logreg", False, keep_lines),
    "logreg lines, region": ("logreg", False, region_lines),
    "gbt lines, keep": ("gbt", False, keep_lines),
    "gbt lines, region": ("gbt", False, region_lines),
    "gbt +rules, keep": ("gbt", True, keep_lines),
    "gbt +rules, region": ("gbt", True, region_lines),
    "logreg +rules, region": ("logreg", True, region_lines),
    "hybrid (gbt lines in rule score)": ("gbt", False, hybrid_body),
}


def f1(pages: Sequence[PageData], predictions: Sequence[str]) -> float:
    """The dataset's F1 as ``newscrawl eval`` reports it."""
    results = [
        PageResult(data.page, score_prediction(data.page, prediction), prediction, 1.0)
        for data, prediction in zip(pages, predictions, strict=True)
    ]
    return summarize(results)["f1"]


def fit_all(train: Sequence[PageData]) -> dict[tuple[str, bool], Any]:
    """Every model the variants need, trained on `train`."""
    keys = {(kind, with_rules) for kind, with_rules, _decode in VARIANTS.values()}
    return {key: fit(key[0], train, key[1]) for key in sorted(keys)}


def evaluate(models: dict[tuple[str, bool], Any], test: Sequence[PageData]) -> dict[str, float]:
    """The rules' F1 and every variant's on `test`."""
    scores = {"rules": f1(test, [body_of(data, data.rules_body) for data in test])}
    for name, (kind, with_rules, decode) in VARIANTS.items():
        model = models[(kind, with_rules)]
        bodies = [
            body_of(data, decode(data, probabilities(model, data, with_rules))) for data in test
        ]
        scores[name] = f1(test, bodies)
    scores["labels as p, region (ceiling)"] = f1(
        test, [body_of(data, region_lines(data, oracle(data))) for data in test]
    )
    return scores


def oracle(data: PageData) -> np.ndarray:
    """A perfect line model: the labels, and the rules' decision where a line has none."""
    kept = data.rules_x[:, 1] if len(data.texts) else np.zeros(0)
    return np.where(data.labels >= 0, data.labels, kept).astype(np.float64)


# --- cost -----------------------------------------------------------------------------


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The least process time of `runs` runs of `work`."""
    best = math.inf
    for _ in range(runs):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def learned_page(page: Page, model: Any, with_rules: bool) -> str:
    """The whole learned extraction of one page, for timing."""
    text = decode_html(page.html).text
    lines = blocks.page_lines(text)
    page_head = head.PageHead(text)
    hints = hints_module.head_hints(page_head)
    if with_rules:
        with capture_inside() as seen:
            title, selection, _body = api.default_body(lines, page_head, OPTIONS, page.url)
    else:
        title = api.title.choose_title(hints, blocks.heading_lines(lines), page.url)
    headline = default._headline_index(lines.lines, "".join(title.split()))
    x = line_features(lines, headline, hints.description)
    if with_rules:
        x = np.hstack([x, rule_features(selection, seen[0] if seen else [], lines.lines)])
    if not len(x):
        return ""
    p = model.predict_proba(x)[:, 1]
    scores = ((p - THRESHOLD) * np.maximum([line.chars for line in lines.lines], 1)).tolist()
    region = default.best_region(scores) or (0, -1)
    return "\n".join(
        lines.lines[i].text for i in range(region[0], region[1] + 1) if p[i] >= THRESHOLD
    )


def costs(pages: Sequence[PageData], models: dict[Any, Any], sample: int) -> dict[str, float]:
    """Process time per page (best of 3) over `sample` pages taken evenly from `pages`."""
    step = max(1, len(pages) // sample)
    chosen = [data.page for data in pages[::step]][:sample]
    count = len(chosen)
    lr_lines, gbt_lines, gbt_rules = (
        models[("logreg", False)], models[("gbt", False)], models[("gbt", True)]
    )  # fmt: skip
    frames = {
        "rules (extract, no metadata)": lambda: [
            extract(page.html, page.url, options=OPTIONS) for page in chosen
        ],
        "logreg lines, region": lambda: [learned_page(p, lr_lines, False) for p in chosen],
        "gbt lines, region": lambda: [learned_page(p, gbt_lines, False) for p in chosen],
        "gbt +rules, region": lambda: [learned_page(p, gbt_rules, True) for p in chosen],
    }
    return {name: 1000 * best_of(3, work) / count for name, work in frames.items()}


# --- model file -----------------------------------------------------------------------


def _node(node: Any) -> list[float]:
    """One tree node: feature, threshold, left, right, is leaf, value."""
    keys = ("feature_idx", "num_threshold", "left", "right", "is_leaf", "value")
    return [float(node[key]) for key in keys]


def dump_model(model: Any) -> dict[str, Any]:
    """Coefficients of a logistic regression, or the nodes of every boosted tree."""
    if hasattr(model, "named_steps"):
        scaler, lr = model.named_steps["standardscaler"], model.named_steps["logisticregression"]
        return {
            "kind": "logistic regression over standardised features",
            "mean": scaler.mean_.tolist(),
            "scale": scaler.scale_.tolist(),
            "coef": lr.coef_[0].tolist(),
            "intercept": float(lr.intercept_[0]),
        }
    trees = []
    for (predictor,) in model._predictors:
        trees.append([_node(node) for node in predictor.nodes])
    return {
        "kind": "gradient-boosted trees: [feature, threshold, left, right, leaf, value]",
        "baseline": float(model._baseline_prediction.ravel()[0]),
        "trees": trees,
    }


# --- main -----------------------------------------------------------------------------


def load_pages(names: Sequence[str], limit: int | None, rebuild: bool) -> list[PageData]:
    """Every page's `PageData`, from the cache unless `rebuild`."""
    cache = RESULTS / "learn-lines-cache.pkl"
    key = (tuple(names), limit)
    if cache.is_file() and not rebuild:
        with cache.open("rb") as handle:
            stored_key, pages = pickle.load(handle)
        if stored_key == key:
            return _with_pages(pages, names, limit)
    pages = []
    for name in names:
        start = time.perf_counter()
        dataset = load_dataset(name, limit=limit)
        pages += [page_data(name, page) for page in dataset.pages]
        print(
            f"features: {name} {len(dataset.pages)} pages, {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    with cache.open("wb") as handle:
        pickle.dump((key, [replace(data, page=None) for data in pages]), handle)
    return pages


def _with_pages(pages: list[PageData], names: Sequence[str], limit: int | None) -> list[PageData]:
    """The cached `pages` with their `Page`s (HTML and gold) loaded again."""
    loaded = [page for name in names for page in load_dataset(name, limit=limit).pages]
    for data, page in zip(pages, loaded, strict=True):
        data.page = page
    return pages


def print_table(title: str, table: dict[str, dict[str, float]]) -> None:
    names = list(next(iter(table.values())))
    print(f"\n{title}\n")
    print("| dataset | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for dataset, scores in table.items():
        print(f"| {dataset} | " + " | ".join(f"{scores[n]:.4f}" for n in names) + " |")
    means = {n: statistics.mean(scores[n] for scores in table.values()) for n in names}
    print("| **mean** | " + " | ".join(f"{means[n]:.4f}" for n in names) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="*", default=list(NAMED_DATASETS))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--timing", type=int, default=120, help="pages timed (0: none)")
    args = parser.parse_args()
    with threadpool_limits(1):  # the machine is shared: one core
        run(args)


def run(args: argparse.Namespace) -> None:
    """Features, the LODO and in-sample tables, costs, the model file."""
    pages = load_pages(args.datasets, args.limit, args.rebuild)
    lodo, in_sample = {}, {}
    for name in args.datasets:
        train = [data for data in pages if data.dataset != name]
        lodo[name] = evaluate(fit_all(train), [data for data in pages if data.dataset == name])
        print(name, {key: round(value, 4) for key, value in lodo[name].items()}, file=sys.stderr)
    models = fit_all(pages)
    for name in args.datasets:
        in_sample[name] = evaluate(models, [data for data in pages if data.dataset == name])
    print_table("Leave one dataset out (F1 on the held-out set)", lodo)
    print_table("In-sample (trained on all six)", in_sample)
    cost = costs(pages, models, args.timing) if args.timing else {}
    for frame, ms in cost.items():
        print(f"{frame}: {ms:.2f} ms/page")
    write_results(lodo, in_sample, cost, models)


def write_results(
    lodo: dict[str, Any], in_sample: dict[str, Any], cost: dict[str, float], models: dict
) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = {
        "date": date.today().isoformat(),
        "lodo": lodo,
        "in_sample": in_sample,
        "ms_per_page": cost,
    }
    (RESULTS / "learn-lines.json").write_text(json.dumps(out, indent=1))
    dumped = {
        f"{kind}{' +rules' if rules else ''}": dump_model(m) for (kind, rules), m in models.items()
    }
    path = RESULTS / "learn-lines-model.json"
    path.write_text(json.dumps(dumped))
    print(f"model file: {path} ({path.stat().st_size / 1000:.0f} kB)", file=sys.stderr)


if __name__ == "__main__":
    with recorded("learned-lines", "A learned line model, leave one dataset out"):
        main()
