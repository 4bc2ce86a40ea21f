"""Leave-one-dataset-out (LODO): does every rule and tuned parameter of the default method
earn its place on each dataset when it is chosen on the other five?

    python bench/lodo.py [--out bench/results/lodo.json] [--cache bench/results/lodo-cache.json]
                         [--datasets NAME ...] [--limit N] [--params NAME ...] [--rules NAME ...]

Every page of the named datasets is extracted with ``extract(page.html, page.url,
options=Options(with_metadata=False, **overrides))`` and scored as ``newscrawl eval`` scores
it (`runner.run_extractor`: the title is scored with the body where the gold starts with the
headline; a dataset's score is ``summarize(results)["f1"]``, see docs/scoring.md).

* Parameters (`default.PARAMETERS`): one-at-a-time sweeps over `GRIDS` (each holds the
  default and a neutral value that turns the parameter's effect off). For each held-out
  dataset the value with the best mean over the others is chosen, where it beats the
  default's mean by more than `GAIN_FLOOR` (else the default); its held-out gain is the
  held-out score at that value minus the score at the neutral value.
* Rules (`RULES`): switched off from here, by patching `newscrawl.extract.default` or
  `fallbacks` for the run (nothing under ``newscrawl/`` is edited). A rule is kept for a fold
  unless dropping it raises the others' mean by more than `GAIN_FLOOR`; its held-out gain is
  the held-out score with that decision minus the score without the rule. Pages whose F1
  moves by more than `MOVE_F1` are counted per dataset and per site (the sites set's site,
  else the URL's host). The verdicts by the plain argmax (no margin) are reported beside.
* The whole method: every parameter chosen on the other datasets at once, scored on the
  held-out one; the mean of those against the defaults' in-sample mean.

Runs are cached per (configuration, dataset) in the cache file, keyed by the extractor's
source, so a re-run only extracts what changed. One process: the machine is shared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple
from unittest import mock
from urllib.parse import urlsplit

from recorded import recorded

from newscrawl.evaluation.datasets import NAMED_DATASETS, Dataset, Page, load_dataset
from newscrawl.evaluation.runner import PageResult, method_extractor, run_extractor
from newscrawl.evaluation.scoring import PageScore, aggregate
from newscrawl.evaluation.snippets import SnippetScore, aggregate_snippets
from newscrawl.extract import Options, comment_thread, default, fallbacks
from newscrawl.extract import title as title_module

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "bench" / "results" / "lodo.json"
DEFAULT_CACHE = ROOT / "bench" / "results" / "lodo-cache.json"
SOURCE_DIRS = ("newscrawl/extract", "newscrawl/evaluation")
"""The code a cached score depends on: any change there re-runs every configuration."""

GAIN_FLOOR = 0.001
"""A rule or parameter whose held-out gain stays under this on every dataset is a candidate
to remove; also the margin by which a fold's choice must beat the default on the others'
mean (a smaller difference is a few pages' noise)."""
MOVE_F1 = 0.01
"""A page moves when its F1 changes by more than this."""
EPSILON = 1e-12
"""Means closer than this tie (ties go to the default: a parameter's value, a rule kept)."""
SHORT_NAMES = {
    "zh_cwce": "zh_cwce",
    "sites": "sites",
    "scrapinghub": "scraping",
    "trafilatura_dev": "traf_dev",
    "readability": "readab",
    "dragnet_dev": "dragnet",
}

Value = int | float
Table = Mapping[Any, Mapping[str, float]]
"""Scores by candidate (a parameter value, or a rule on/off) and dataset."""


# --- LODO selection: pure functions on tables of scores ------------------------------------


def mean_others(scores: Mapping[str, float], held_out: str | None) -> float:
    """The mean score over every dataset but `held_out` (None: over all of them)."""
    return statistics.mean(score for name, score in scores.items() if name != held_out)


def choose_on_others(
    table: Table, held_out: str | None, default_value: Any, margin: float = 0.0
) -> Any:
    """The candidate with the best mean over the datasets other than `held_out`; a tie with
    the default goes to the default, other ties to the first candidate. With a `margin`,
    another candidate must beat the default's mean by more than it."""
    best_value = default_value
    best = mean_others(table[default_value], held_out) + margin
    for value, scores in table.items():
        score = mean_others(scores, held_out)
        if score > best + EPSILON:
            best_value, best = value, score
    return best_value


def held_out_gain(table: Table, held_out: str, chosen: Any, neutral: Any) -> float:
    """The held-out dataset's score at the value chosen on the others, minus at neutral."""
    return table[chosen][held_out] - table[neutral][held_out]


def keep_on_others(
    on: Mapping[str, float], off: Mapping[str, float], held_out: str, margin: float = 0.0
) -> bool:
    """Whether a rule is kept on the datasets other than `held_out`: unless dropping it
    raises their mean by more than `margin`. A tie keeps it, as a tie keeps a parameter's
    default: a rule that moves nothing on the others does no harm there, and its held-out
    gain then shows what it does where its failure class occurs."""
    return mean_others(on, held_out) >= mean_others(off, held_out) - margin - EPSILON


def rule_gain(
    on: Mapping[str, float], off: Mapping[str, float], held_out: str, margin: float = 0.0
) -> float:
    """The held-out score with the rule kept or dropped as the others decide, minus off."""
    kept = keep_on_others(on, off, held_out, margin)
    return (on[held_out] if kept else off[held_out]) - off[held_out]


def lodo_mean(held_out_scores: Mapping[str, float]) -> float:
    """The mean over folds of each held-out dataset's score."""
    return statistics.mean(held_out_scores.values())


def candidate_to_remove(gains: Mapping[str, float]) -> bool:
    """Held-out gain under `GAIN_FLOOR` on every dataset."""
    return all(gain < GAIN_FLOOR for gain in gains.values())


# --- what is varied: parameter grids and rules ---------------------------------------------


class Grid(NamedTuple):
    """A parameter's candidate values; `neutral` turns its effect off (`off` says how)."""

    values: tuple[Value, ...]
    neutral: Value
    off: str


NEVER = 1_000_000
"""A threshold no page reaches: the mechanism it gates never fires."""

GRIDS: dict[str, Grid] = {
    "line_cost": Grid((0, 10, 20, 30, 40), 0, "0: no cost"),
    "short_line_cost": Grid((0, 2, 5, 10, 20), 20, "20: no cap (= line_cost)"),
    "punctuation_weight": Grid((0, 2, 5, 10, 20), 0, "0"),
    "max_link_share": Grid((0.2, 0.35, 0.5, 0.7, 1.0), 1.0, "1.0: no link line"),
    "prose_link_chars": Grid((0, 10, 20, 40, 80, NEVER), NEVER, "never prose"),
    "wrapper_share": Grid((0.2, 0.35, 0.5, 0.7, 1.0), 1.0, "1.0: no wrapper"),
    "paragraph_score": Grid((0, 25, 50, 100, 200), 0, "0"),
    "sibling_share": Grid((0.1, 0.2, 0.35, 0.5, 1.0), 1.0, "1.0: ~no sibling"),
    "sibling_levels": Grid((0, 1, 2, 3, 5), 0, "0"),
    "sibling_link_share": Grid((0.1, 0.15, 0.2, 0.3, 0.4, 1.0), 1.0, "1.0: no limit"),
    "section_levels": Grid((0, 5, 8, 10, 12, 15), 0, "0"),
    "section_link_share": Grid((0.0, 0.05, 0.1, 0.2, 0.4, 1.0), 1.0, "1.0: no limit"),
    "lead_score": Grid((0, 50, 100, 200, 400, NEVER), NEVER, "never by score"),
    "lead_levels": Grid((0, 2, 4, 6, 8, 10), 0, "0"),
    "inside_line_cost": Grid((0, 50, 100, 200, 400, NEVER), NEVER, "no floor"),
    "standfirst_lines": Grid((0, 3, 6, 10, 20), 0, "0: no standfirst"),
    "headline_window": Grid((0, 10, 20, 30, 50), 0, "0"),
    "landmark_weight": Grid((0, 1, 2, 4, 8), 1, "1: no extra vote"),
    "min_posts": Grid((2, 3, 4, 6, NEVER), NEVER, "never a list"),
    "post_share": Grid((0.0, 0.02, 0.05, 0.1, 0.2, 0.5), 1.0, "1.0: ~no list"),
    "description_weight": Grid((0, 1, 2, 3, 5), 0, "0"),
    "short_body_chars": Grid((0, 100, 200, 300, 500), 0, "0: no fallback"),
    "short_page_chars": Grid((0, 150, 300, 600, 1000), 0, "0: no short page"),
}


def grid_values(name: str) -> tuple[Value, ...]:
    """The grid of `name` with its default and neutral value, in ascending order."""
    grid = GRIDS[name]
    return tuple(sorted({*grid.values, grid.neutral, getattr(Options(), name)}))


_SELECT = default.select
_DECIDER = default._Decider
_CHOOSE_BODY = fallbacks.choose_body
_LEAD_PARAGRAPHS = default._lead_paragraphs
_HEADLINE_WINDOW = default._headline_window


def _select_without_description(
    page: Any, title: str, options: Options, description: str = "", ingredients: Any = ()
) -> default.Selection:
    """`default.select` told of no description: no line counts as quoted by it."""
    return _SELECT(page, title, options, "", ingredients)


def _decider_keeping_headline(*args: Any) -> Any:
    """`default._Decider` with no title to drop (an empty title matches no line): every
    line's decision goes through it, the kept lines' too."""
    lines, dropped, scores, inside, region, _title, kept_rule = args
    return _DECIDER(lines, dropped, scores, inside, region, "", kept_rule)


def _leads_anywhere(*args: Any) -> set[int]:
    """`default._lead_paragraphs` told of no headline: lines above it may join too."""
    return _LEAD_PARAGRAPHS(*args[:-1], None)


def _body_without(field: str) -> Callable[..., fallbacks.Body]:
    """`fallbacks.choose_body` with the head's `field` emptied."""

    def choose(lines_body: str, hints: Any, options: Options) -> Any:
        return _CHOOSE_BODY(lines_body, hints._replace(**{field: ""}), options)

    return choose


def _never(*_args: Any, **_kwargs: Any) -> bool:
    return False


def _nothing(*_args: Any, **_kwargs: Any) -> set[int]:
    return set()


def _whole_headline_window(
    page: Any, ends: Any, headline: int | None, _marks: Any, options: Options
) -> range:
    """`default._headline_window` told of no landmark: the window is not cut where the
    headline's landmark ends."""
    return _HEADLINE_WINDOW(page, ends, headline, set(), options)


@dataclass(frozen=True, slots=True)
class Rule:
    """A named rule of the method and how to switch it off from outside."""

    name: str
    what: str
    failure: str
    patches: tuple[tuple[object, str, object], ...] = ()
    """(module, attribute, replacement) patched while the rule is off."""
    overrides: tuple[tuple[str, Value], ...] = ()
    """`Options` fields set while the rule is off."""


RULES: tuple[Rule, ...] = (
    Rule(
        "credit_lines",
        "drops short credit, source, statement and ad-label lines (责任编辑：, copyright)",
        "editor/source/copyright lines and ad slots' labels beside the body",
        ((default, "_is_boilerplate_line", _never),),
    ),
    Rule(
        "photo_credit",
        "drops lines of up to 120 chars with a photo credit (Foto:, ©, Getty), and captions "
        "closed by a credit in parentheses",
        "captions' photo credits inside the article",
        ((default, "_is_photo_credit", _never),),
    ),
    Rule(
        "separator_lists",
        "a mostly-link line whose own text is mostly marks is a link line, however long",
        "comma-separated tag lists and lists of readers' names after a post",
        ((default, "SEPARATOR_SHARE", NEVER),),
    ),
    Rule(
        "boilerplate_elements",
        "drops lines inside elements named boilerplate by tag/class/id (nav, comment, ad)",
        "menus, sidebars, related links, comment lists",
        ((default, "boilerplate_elements", _nothing),),
    ),
    Rule(
        "name_weight",
        "a boilerplate name weighs a post's prose (200 chars) against its box's share",
        "a sidebar, licence or about box a little longer than a short post",
        ((default, "NAME_WEIGHT", 0),),
    ),
    Rule(
        "post_first",
        "a named box after 200+ chars of prose outside every named box weighs one name more",
        "a sidebar or licence box outrunning the short post before it by a name's worth",
        ((default, "POST_FIRST_NAMES", 0),),
    ),
    Rule(
        "named_by_accident",
        "ignores boilerplate words in heading-anchor ids, hash ids, generated classes",
        "article boxes whose generated name holds 'ad', 'share' ...",
        ((default, "_named_by_accident", _never),),
    ),
    Rule(
        "post_container",
        "a box whose other classes name a post is not boilerplate with 200+ chars of prose",
        "blog posts' containers carrying author-<name>, category-<slug>, tag-share classes",
        ((default, "_names_an_entry", _never),),
    ),
    Rule(
        "series_boxes",
        "a named box with alike siblings (tag, first class word) is weighed with them",
        "articles told in a series of named boxes (slideshow slides)",
        ((default, "_series_prose", lambda _page, _boxes, prose: prose),),
    ),
    Rule(
        "listed_posts",
        "with a headline, a sibling box holding 2+ <article>s does not join the article",
        "teaser cards of other posts ('you may also like', press releases) beside a post",
        ((default, "_lists_posts", _never),),
    ),
    Rule(
        "landmark_window",
        "the headline window's double votes end with the landmark holding the headline",
        "teaser <article>s right after a short post outvoting it within the window",
        ((default, "_headline_window", _whole_headline_window),),
    ),
    Rule(
        "bare_header",
        "a sibling box holding the headline and no paragraph after it does not join",
        "short posts whose header box (deck, byline, date, caption) outweighs a fifth of them",
        ((default, "_a_bare_header", _never),),
    ),
    Rule(
        "article_holders",
        "never takes a box holding the headline or a landmark for boilerplate",
        "page-wide boxes named 'sidebar_right', 'has-ads' around the article",
        ((default, "_article_holders", _nothing),),
    ),
    Rule(
        "comment_list",
        "a comment list after 200+ chars of prose is boilerplate even if it outweighs them",
        "popular blog posts whose comments outrun the post",
        ((default, "MIN_POST_CHARS", NEVER),),
    ),
    Rule(
        "comment_thread",
        "a run of 3+ dated stamps of one form closing the region cuts it there",
        "reader comments in boxes without comment class words",
        ((comment_thread, "thread_start", lambda *_a, **_k: None),),
    ),
    Rule(
        "subheading_titles",
        "an <h2>/<h3> the head confirms is the headline (over the site's <h1>)",
        "blog themes with the post's headline in h2/h3 under the blog's name",
        ((title_module, "SUBHEADING_TAGS", frozenset()),),
    ),
    Rule(
        "masthead_titles",
        "of two headings a head title joins ('Blog: Post'), the one lower on the page wins",
        "blog and news themes with the site's name or a kicker in a heading above the post's",
        ((title_module, "_below_the_site", lambda heading, *_a: heading),),
    ),
    Rule(
        "site_name_titles",
        "a heading or head title part spelling a host label is the site's, not the headline",
        "a blog's name or tagline taken for the post's headline ('Post - Blog - tagline')",
        ((title_module, "site_names", lambda _url: frozenset()),),
    ),
    Rule(
        "reworded_titles",
        "with no heading the head confirms, one sharing 0.6 of the head title's words is it",
        "head titles that shorten or reword the page's headline ('HS' for 'High School')",
        ((title_module, "_reworded", lambda *_args: ""),),
    ),
    Rule(
        "logo_headline",
        "a post headline that a head title joins to the logo <h1> ('post - logo') beats it",
        "blog themes whose <h1> is the blog's linked name, the post's headline an h2/h3",
        ((title_module, "_logo_and_post", lambda *_a, **_k: ""),),
    ),
    Rule(
        "container_in_region",
        "the body region holds a line of the container the votes chose",
        "a footer notice or sidebar box that joined the article outscoring a tiny post",
        ((default, "_region_holding_container", lambda *args: args[4]),),
    ),
    Rule(
        "near_headline_votes",
        "within headline_window lines after the headline every line scoring over 0 votes",
        "tiny posts (a photo and its caption) losing their box to a longer sidebar blurb",
        ((default, "NEAR_HEADLINE_SCORE", NEVER),),
    ),
    Rule(
        "landmarks",
        "<article>, <main>, role=main, articleBody: vote more, never boilerplate",
        "a sidebar's blurb outvoting a short article",
        ((default, "landmarks", _nothing),),
    ),
    Rule(
        "description_quoted",
        "lines the description meta quotes count as body and may lead the article",
        "short articles and standfirsts that score like menus",
        ((default, "select", _select_without_description),),
    ),
    Rule(
        "ingredient_lines",
        "recipe ingredient lines its JSON-LD states count as body, their list joins",
        "ingredient lists outside the steps' container",
        ((default, "_ingredient_lines", lambda *_a, **_k: []),),
    ),
    Rule(
        "sibling_sections",
        "siblings of the container's ancestors with a share of its score join it",
        "articles split over sibling elements",
        ((default, "_sibling_sections", _nothing),),
    ),
    Rule(
        "same_kind_sections",
        "siblings of the same tag and first class word join, whatever their share",
        "articles made of many small repeated sections (page builders)",
        ((default, "_same_kind", _never),),
    ),
    Rule(
        "lead_paragraphs",
        "opening paragraphs outside the container join (standfirst, bare <p> siblings)",
        "a standfirst in a header block before the body's box",
        ((default, "_lead_paragraphs", _nothing),),
    ),
    Rule(
        "leads_after_headline",
        "only lines after the headline join as lead paragraphs",
        "a blog's description, an about-me box or a notice above the headline",
        ((default, "_lead_paragraphs", _leads_anywhere),),
    ),
    Rule(
        "region_back_to_lead",
        "the region reaches back to a paragraph of the article's elements after the headline",
        "a standfirst cut off from the body by the byline and share bar between",
        ((default, "_region_back_to_lead", lambda *args: args[4]),),
    ),
    Rule(
        "post_list",
        "no headline and 3+ peer posts: the first post, not the longest, is the article",
        "blog front pages listing posts",
        ((default, "first_post", lambda best, *_a, **_k: best),),
    ),
    Rule(
        "closing_calls",
        "drops calls to action (subscribe, follow us, get the app) closing the article",
        "pleas styled as the article's last paragraphs",
        ((default, "_is_call_to_action", _never),),
    ),
    Rule(
        "headline_drop",
        "drops the headline's line from the body",
        "the headline repeated as the body's first line",
        ((default, "_Decider", _decider_keeping_headline),),
    ),
    Rule(
        "short_page",
        "a page under 300 chars with no body region keeps all its text",
        "very short pages whose text is the content",
        overrides=(("short_page_chars", 0),),
    ),
    Rule(
        "json_ld_fallback",
        "a body under 200 chars gives way to a longer JSON-LD articleBody",
        "pages whose scripts render the text",
        ((fallbacks, "choose_body", _body_without("article_body")),),
    ),
)
RULES_BY_NAME = {rule.name: rule for rule in RULES}


# --- running and scoring --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Config:
    """One run of the method: `Options` overrides and, for a rule switched off, its patches."""

    overrides: tuple[tuple[str, Value], ...] = ()
    rule: Rule | None = None

    @property
    def key(self) -> str:
        """The cache key: the overrides, and the rule when it patches code."""
        overrides = ",".join(f"{name}={value!r}" for name, value in sorted(self.overrides))
        patched = f"|rule:{self.rule.name}" if self.rule and self.rule.patches else ""
        return (overrides or "default") + patched

    def options(self) -> Options:
        fields = dict(self.overrides)
        if self.rule is not None:
            fields.update(self.rule.overrides)
        return Options(with_metadata=False, **fields)

    @contextmanager
    def patched(self) -> Iterator[None]:
        """The rule's patches in force (none for a parameter's run)."""
        with ExitStack() as stack:
            for target, attribute, replacement in self.rule.patches if self.rule else ():
                stack.enter_context(mock.patch.object(target, attribute, replacement))
            yield


def parameter_config(name: str, value: Value) -> Config:
    """`name` set to `value`: the defaults' own run when that is the default."""
    return Config() if value == getattr(Options(), name) else Config(((name, value),))


def rule_config(rule: Rule) -> Config:
    return Config(overrides=rule.overrides, rule=rule) if not rule.patches else Config(rule=rule)


def dataset_score(results: Sequence[PageResult]) -> float:
    """``summarize(results)["f1"]`` without its bootstrap: the same aggregate, so the same
    number (snippet counts summed, else the F1 of mean precision and mean recall)."""
    scores = [result.score for result in results]
    snippets = [score for score in scores if isinstance(score, SnippetScore)]
    if snippets:
        return aggregate_snippets(snippets)["f1"]
    return aggregate([score for score in scores if isinstance(score, PageScore)])["f1"]


class Run(NamedTuple):
    """A configuration's score on one dataset, and each page's F1 (rounded)."""

    score: float
    pages: list[float]


def run_config(config: Config, dataset: Dataset) -> Run:
    """Extract and score every page of `dataset` with `config` in force."""
    with config.patched():
        extractor = method_extractor("default", config.options())
        results = run_extractor(extractor, dataset, [""] * len(dataset.pages))
    return Run(dataset_score(results), [round(result.score.f1, 4) for result in results])


def source_version() -> str:
    """A hash of the extractor's and the evaluation's source: the cache's validity."""
    digest = hashlib.sha1()
    for folder in SOURCE_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".c") and path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class Runner:
    """Runs configurations over the datasets, through a JSON cache on disk."""

    def __init__(self, datasets: Sequence[Dataset], cache_path: Path | None, limit: int | None):
        self.datasets = {dataset.name: dataset for dataset in datasets}
        self.cache_path = cache_path
        self.prefix = f"{source_version()}|{limit}|"
        self.cache: dict[str, dict[str, Any]] = {}
        if cache_path is not None and cache_path.is_file():
            self.cache = json.loads(cache_path.read_text("utf-8"))
        self.extracted = 0

    def run(self, config: Config, names: Sequence[str] | None = None) -> dict[str, Run]:
        """`config`'s run on each dataset of `names` (all by default), cached."""
        runs = {}
        for name in names or list(self.datasets):
            key = f"{self.prefix}{config.key}|{name}"
            if key not in self.cache:
                run = run_config(config, self.datasets[name])
                self.cache[key] = {"score": run.score, "pages": run.pages}
                self.extracted += 1
                self.save()
            runs[name] = Run(self.cache[key]["score"], self.cache[key]["pages"])
        return runs

    def scores(self, config: Config, names: Sequence[str] | None = None) -> dict[str, float]:
        return {name: run.score for name, run in self.run(config, names).items()}

    def save(self) -> None:
        if self.cache_path is not None:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            self.cache_path.write_text(json.dumps(self.cache), "utf-8")


_URL_IN_PAGE_RE = re.compile(
    rb"""<text id="(https?://[^"]+)"|(?:canonical|og:url)["'][^>]{0,200}?"""
    rb"""(?:href|content)\s*=\s*["'](https?://[^"']+)"""
)
"""Where a page without a URL names its own: zh_cwce's ``<text id=...>`` header, a canonical
link or an ``og:url`` meta."""
_NUMBERED_ID_RE = re.compile(r"-\d+$")


def page_site(page: Page) -> str:
    """The page's site: the sites set's own, else the host of its URL or of the URL the
    page names (`_URL_IN_PAGE_RE`), else its id without a trailing number (readability's
    test pages are named after their site: ``nytimes-3``)."""
    if page.site:
        return page.site
    url = page.url
    if not url and (match := _URL_IN_PAGE_RE.search(page.html[:100_000])):
        url = (match.group(1) or match.group(2)).decode("ascii", "replace")
    host = urlsplit(url).hostname if url else None
    return host.removeprefix("www.") if host else "id " + _NUMBERED_ID_RE.sub("", page.id)


# --- the analyses ---------------------------------------------------------------------------


def parameter_report(runner: Runner, name: str) -> dict[str, Any]:
    """A parameter's sweep and its LODO folds."""
    grid, default_value = GRIDS[name], getattr(Options(), name)
    values = grid_values(name)
    table = {value: runner.scores(parameter_config(name, value)) for value in values}
    folds = {}
    for held_out in runner.datasets:
        chosen = choose_on_others(table, held_out, default_value)
        with_margin = choose_on_others(table, held_out, default_value, GAIN_FLOOR)
        folds[held_out] = {
            "chosen": chosen,
            "chosen_with_margin": with_margin,
            "held_out": table[chosen][held_out],
            "at_default": table[default_value][held_out],
            "at_neutral": table[grid.neutral][held_out],
            "gain": held_out_gain(table, held_out, with_margin, grid.neutral),
            "gain_plain": held_out_gain(table, held_out, chosen, grid.neutral),
        }
    gains = {held_out: fold["gain"] for held_out, fold in folds.items()}
    plain = {held_out: fold["gain_plain"] for held_out, fold in folds.items()}
    return {
        "default": default_value,
        "neutral": grid.neutral,
        "off": grid.off,
        "values": list(values),
        "scores": [table[value] for value in values],
        "folds": folds,
        "chosen_in_sample": choose_on_others(table, None, default_value),
        "verdict": "candidate to remove" if candidate_to_remove(gains) else "keep",
        "verdict_plain": "candidate to remove" if candidate_to_remove(plain) else "keep",
    }


def rule_report(runner: Runner, rule: Rule) -> dict[str, Any]:
    """A rule's scores on and off, its LODO folds and the pages and sites it moves."""
    on_runs, off_runs = runner.run(Config()), runner.run(rule_config(rule))
    on = {name: run.score for name, run in on_runs.items()}
    off = {name: run.score for name, run in off_runs.items()}
    names = list(runner.datasets)
    moved: dict[str, dict[str, int]] = {}
    helped: dict[str, int] = {}
    hurt: dict[str, int] = {}
    for name in names:
        up = down = 0
        pages = runner.datasets[name].pages
        for page, with_rule, without in zip(
            pages, on_runs[name].pages, off_runs[name].pages, strict=True
        ):
            change = with_rule - without
            site = f"{name}:{page_site(page)}"
            if change > MOVE_F1:
                up += 1
                helped[site] = helped.get(site, 0) + 1
            elif change < -MOVE_F1:
                down += 1
                hurt[site] = hurt.get(site, 0) + 1
        moved[name] = {"up": up, "down": down}
    folds = {
        held_out: {
            "keep": keep_on_others(on, off, held_out, GAIN_FLOOR),
            "keep_plain": keep_on_others(on, off, held_out),
            "on": on[held_out],
            "off": off[held_out],
            "gain": rule_gain(on, off, held_out, GAIN_FLOOR),
            "gain_plain": rule_gain(on, off, held_out),
        }
        for held_out in names
    }
    gains = {held_out: fold["gain"] for held_out, fold in folds.items()}
    plain = {held_out: fold["gain_plain"] for held_out, fold in folds.items()}
    return {
        "what": rule.what,
        "failure": rule.failure,
        "moved": moved,
        "sites_helped": helped,
        "sites_hurt": hurt,
        "folds": folds,
        "verdict": "candidate to remove" if candidate_to_remove(gains) else "keep",
        "verdict_plain": "candidate to remove" if candidate_to_remove(plain) else "keep",
    }


def changed(parameters: Mapping[str, Mapping[str, Any]], choice: Callable[..., Any]) -> Config:
    """The configuration setting each parameter to `choice(report)`, where not its default."""
    chosen = {name: choice(report) for name, report in parameters.items()}
    return Config(
        tuple(
            sorted(
                (name, value)
                for name, value in chosen.items()
                if value != parameters[name]["default"]
            )
        )
    )


def whole_method(runner: Runner, parameters: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Every parameter chosen on the other datasets at once, scored on the held-out one;
    also with a margin (a value must beat the default's mean on the others by `GAIN_FLOOR`),
    and every parameter at its best on all datasets at once (in-sample, coordinate-wise)."""
    in_sample = runner.scores(Config())
    in_sample_mean = statistics.mean(in_sample.values())
    result: dict[str, Any] = {"in_sample": in_sample, "in_sample_mean": in_sample_mean}
    for label, field in (("lodo", "chosen"), ("lodo_margin", "chosen_with_margin")):
        scores, choices = {}, {}
        for held_out in runner.datasets:
            config = changed(parameters, lambda report, d=held_out, f=field: report["folds"][d][f])
            scores[held_out] = runner.scores(config, [held_out])[held_out]
            choices[held_out] = dict(config.overrides)
        result[label] = scores
        result[f"{label}_mean"] = lodo_mean(scores)
        result[f"{label}_difference"] = lodo_mean(scores) - in_sample_mean
        result[f"{label}_changed"] = choices
    config = changed(parameters, lambda report: report["chosen_in_sample"])
    coordinate = runner.scores(config)
    result["coordinate_in_sample"] = coordinate
    result["coordinate_in_sample_mean"] = statistics.mean(coordinate.values())
    result["coordinate_in_sample_changed"] = dict(config.overrides)
    return result


# --- the tables -----------------------------------------------------------------------------


def _short(name: str) -> str:
    return SHORT_NAMES.get(name, name)


def _gain(value: float) -> str:
    return f"{value:+.4f}" if abs(value) >= 0.00005 else "0"


def rule_table(rules: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> str:
    head = ["rule", "what it does", "failure class", "sites helped / hurt"]
    head += [f"gain {_short(name)}" for name in names] + ["verdict", "plain argmax"]
    rows = [head, ["---"] * len(head)]
    for rule, report in rules.items():
        helped, hurt = report["sites_helped"], report["sites_hurt"]
        sites = f"{len(helped)} ({sum(helped.values())} p) / {len(hurt)} ({sum(hurt.values())} p)"
        gains = [_gain(report["folds"][name]["gain"]) for name in names]
        verdicts = [report["verdict"], report["verdict_plain"]]
        rows.append([f"`{rule}`", report["what"], report["failure"], sites, *gains, *verdicts])
    return _markdown(rows)


def parameter_table(parameters: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> str:
    head = ["parameter", "default", "neutral", "chosen per fold"]
    head += [f"gain {_short(name)}" for name in names] + ["verdict", "plain argmax"]
    rows = [head, ["---"] * len(head)]
    for parameter, report in parameters.items():
        chosen = [report["folds"][name]["chosen_with_margin"] for name in names]
        chosen_text = (
            f"{chosen[0]:g} (all)"
            if len(set(chosen)) == 1
            else ", ".join(
                f"{_short(name)} {value:g}" for name, value in zip(names, chosen, strict=True)
            )
        )
        gains = [_gain(report["folds"][name]["gain"]) for name in names]
        rows.append(
            [
                f"`{parameter}`",
                f"{report['default']:g}",
                f"{report['neutral']:g}" if report["neutral"] != NEVER else "never",
                chosen_text,
                *gains,
                report["verdict"],
                report["verdict_plain"],
            ]
        )
    return _markdown(rows)


def sweep_table(parameters: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> str:
    """Every swept value of every parameter with its score on each dataset and their mean:
    the measurement behind each default (marked *default*)."""
    head = ["parameter", "value", *(_short(name) for name in names), "mean"]
    rows = [head, ["---"] * len(head)]
    for parameter, report in parameters.items():
        for value, scores in zip(report["values"], report["scores"], strict=True):
            shown = f"{value:g}" + (" *default*" if value == report["default"] else "")
            cells = [f"{scores[name]:.4f}" for name in names]
            mean = sum(scores[name] for name in names) / len(names)
            rows.append([f"`{parameter}`", shown, *cells, f"{mean:.4f}"])
    return _markdown(rows)


def whole_table(whole: Mapping[str, Any]) -> str:
    head = ["dataset", "in-sample (defaults)", "LODO (chosen on the others)", "difference"]
    head += [f"LODO, margin {GAIN_FLOOR}", "difference", "coordinate-wise in-sample"]
    rows = [head, ["---"] * len(head)]
    for name, score in whole["in_sample"].items():
        lodo, margin = whole["lodo"][name], whole["lodo_margin"][name]
        coordinate = whole["coordinate_in_sample"][name]
        row = [name, f"{score:.4f}", f"{lodo:.4f}", f"{lodo - score:+.4f}", f"{margin:.4f}"]
        rows.append([*row, f"{margin - score:+.4f}", f"{coordinate:.4f}"])
    rows.append(
        [
            "**mean**",
            f"{whole['in_sample_mean']:.4f}",
            f"{whole['lodo_mean']:.4f}",
            f"{whole['lodo_difference']:+.4f}",
            f"{whole['lodo_margin_mean']:.4f}",
            f"{whole['lodo_margin_difference']:+.4f}",
            f"{whole['coordinate_in_sample_mean']:.4f}",
        ]
    )
    return _markdown(rows)


def _markdown(rows: Sequence[Sequence[str]]) -> str:
    return "\n".join("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)


# --- the command ----------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--no-cache", action="store_true", help="run everything afresh")
    parser.add_argument("--datasets", nargs="+", choices=NAMED_DATASETS, default=NAMED_DATASETS)
    parser.add_argument("--limit", type=int, help="the first N pages of each dataset only")
    parser.add_argument("--params", nargs="+", choices=default.PARAMETERS)
    parser.add_argument("--rules", nargs="+", choices=list(RULES_BY_NAME))
    parser.add_argument("--shared", type=Path, help="the shared folder (default: ../shared)")
    args = parser.parse_args(argv)
    if len(set(args.datasets)) < 2:
        parser.error("leaving one dataset out needs at least two")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the bench, print its tables, write its JSON; returns what it wrote."""
    args = parse_args(argv)
    start = time.perf_counter()
    datasets = [load_dataset(name, args.shared, args.limit) for name in args.datasets]
    runner = Runner(datasets, None if args.no_cache else args.cache, args.limit)
    names = list(runner.datasets)
    parameters = {name: parameter_report(runner, name) for name in args.params or GRIDS}
    rules = {name: rule_report(runner, RULES_BY_NAME[name]) for name in args.rules or RULES_BY_NAME}
    whole = whole_method(runner, parameters)
    seconds = time.perf_counter() - start
    result = {
        "date": date.today().isoformat(),
        "command": "python bench/lodo.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "source": source_version(),
        "limit": args.limit,
        "datasets": names,
        "pages": {dataset.name: len(dataset.pages) for dataset in datasets},
        "seconds": seconds,
        "runs_extracted": runner.extracted,
        "whole_method": whole,
        "parameters": parameters,
        "rules": rules,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False), "utf-8")
    print("## Rules\n\n" + rule_table(rules, names))
    print("\n## Parameters\n\n" + parameter_table(parameters, names))
    print("\n## The whole method\n\n" + whole_table(whole))
    print("\n## Every parameter's sweep\n\n" + sweep_table(parameters, names))
    print(f"\n{runner.extracted} dataset runs extracted, {seconds:.0f} s; wrote {args.out}")
    return result


if __name__ == "__main__":
    with recorded("lodo", "Every rule and parameter, leave one dataset out"):
        main()
