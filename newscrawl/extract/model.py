"""The extractor's data types: what callers pass in (`Options`) and get back (`Article`).

Kept free of logic so every stage (decode, clean, lines, select) can share them without
import cycles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, overload

from newscrawl.extract.metadata import Metadata

Method = Literal["paper", "default"]
METHODS: tuple[Method, ...] = ("paper", "default")


@dataclass(frozen=True, slots=True)
class Options:
    """Tunables of the extractor; frozen so one instance can be shared across threads.

    The paper's parameters keep the paper's names in their docstrings: ``L`` is
    `min_line_length` (with `fallback_line_length` when no line reaches it) and ``D`` is
    `max_gap`. The paper's experiments set L=80 (60 as fallback) and D=10.

    The fields after `full_stops` belong to the default method (``method="default"``); each
    says what it does and why it has its value. The measurements that chose the values
    (scored as docs/scoring.md describes) are in BENCHMARKS.md, "Where the defaults come
    from". `max_gap` serves both methods.
    """

    method: Method = "default"
    with_metadata: bool = True
    """Fill `Article.metadata` (publish time, author, ...). Off when only the body matters,
    e.g. when scoring body extraction, since it parses the page a second time."""
    min_line_length: int = 80
    """L: a group starts at a line at least this many characters long."""
    fallback_line_length: int = 60
    """L used instead when the page's longest line is shorter than `min_line_length`."""
    max_gap: int = 10
    """D: groups further apart than this many lines end the body (the first such gap cuts)."""
    full_stops: str = "。."
    """Characters that count as a full stop (句号) in the tail clean-up rule.

    The ideographic and the Latin full stop: this reading reproduces every figure measured
    for the literal method, on Chinese and on English pages; with 。 alone English pages lose
    most of their body while Chinese ones do not change (measured: BENCHMARKS.md, "Where the
    defaults come from").
    """
    line_cost: int = 20
    """Characters a line must carry before it counts for a body region rather than against
    it; a link or boilerplate line counts against by its whole length. Values around 20
    score alike, 20 a little better (measured: BENCHMARKS.md, "Where the defaults come from")."""
    short_line_cost: int = 5
    """The most a short line without links counts against a region (table cells, list
    items, verses inside an article): without a cap (up to `line_cost`) an article splits
    at its tables (measured: BENCHMARKS.md, "Where the defaults come from")."""
    punctuation_weight: int = 5
    """Each sentence punctuation mark counts as this many characters: prose is punctuated,
    menus and labels are not."""
    max_link_share: float = 0.5
    """A line with more than this share of link text is a link line (jusText uses 0.2 per
    block, readability 0.25 per node; a line here is smaller, so it is less strict)."""
    prose_link_chars: int = 20
    """A line over `max_link_share` links is still prose, not a link line, when its text
    outside the links has at least this many characters and a sentence mark (news
    summaries led by a linked headline, names with hover cards). One sentence mark is
    enough (requiring two loses such lines); a test on the line's score instead would take
    comma-separated tag lists for prose (measured: BENCHMARKS.md, "Where the defaults come
    from")."""
    wrapper_share: float = 0.5
    """An element whose class/id names boilerplate (``ad``, ``comment`` ...) but that holds
    more than this share of the page's punctuated text is a layout wrapper, not
    boilerplate (e.g. a ``Page-ad-margins`` element around the whole page)."""
    paragraph_score: int = 50
    """Lines scoring above this vote for the element that holds the article (shorter lines
    are too many on forum and list pages; measured: BENCHMARKS.md, "Where the defaults
    come from")."""
    sibling_share: float = 0.2
    """A sibling section joins the article's element when it holds at least this share of
    its score (readability's sibling threshold; measured: BENCHMARKS.md, "Where the
    defaults come from")."""
    sibling_link_share: float = 0.2
    """A sibling of the container's ancestors holding `sibling_share` of its score joins
    only with at most this share of link text: a feed of teasers (linked headline and
    summary) beside a short article is not more of it. A lower limit turns away parts of
    articles too, a higher one lets such feeds in (measured: BENCHMARKS.md, "Where the
    defaults come from")."""
    section_levels: int = 10
    """How many ancestors up sibling sections of the same kind as the container's ancestor
    (same tag and first class word) join it, whatever their share (see
    `default._sibling_sections`). Page builders nest each module's text deep: a guide
    made of ``container-fluid`` modules can hold its sections nine levels above their
    paragraphs (measured: BENCHMARKS.md, "Where the defaults come from")."""
    section_link_share: float = 0.1
    """Such a sibling section joins only with at most this share of link text (a list of
    teasers is of the same kind as the article, too)."""
    lead_score: int = 100
    """A paragraph outside the article's container that opens the article joins it when it
    scores over this, or when the page's description quotes it (see
    `default._lead_paragraphs`)."""
    lead_levels: int = 6
    """How many ancestors up of the container such opening paragraphs are looked for."""
    standfirst_lines: int = 6
    """How many lines under the headline a standfirst in a box of its own is looked for
    (see `default._standfirst`): further down, under a copy of the headline at the top of
    a blog's page, sit its tagline and menus (measured: BENCHMARKS.md, "Where the defaults
    come from")."""
    inside_line_cost: int = 100
    """The most a dropped line (links, boilerplate) inside the article's elements counts
    against the body region: a link list or a caption between the intro and the body
    does not cut the article in two (measured: BENCHMARKS.md, "Where the defaults come from")."""
    landmark_weight: int = 2
    """Paragraphs inside an element that marks itself as the article (``<article>``,
    ``<main>``, ``itemprop=articleBody``) vote this many times as much for the article's
    element: otherwise a sidebar form's blurb or a recipe card's notes can outvote a short
    article (measured: BENCHMARKS.md, "Where the defaults come from")."""
    headline_window: int = 20
    """Paragraphs within this many lines after the headline vote twice for the article's
    element (measured: BENCHMARKS.md, "Where the defaults come from")."""
    sibling_levels: int = 3
    """How many ancestors up sibling sections are looked for: an article's sections can
    sit a few levels apart, but further up the siblings are more often the rest of the
    page (measured: BENCHMARKS.md, "Where the defaults come from")."""
    description_weight: int = 3
    """A line that would count against the body but whose text the page's description meta
    quotes scores this many points per character: CMSs fill the description with a short
    article's opening lines, and an article of a few short lines (a list) would otherwise
    count against itself; a weaker weight does not lift such lines (measured: BENCHMARKS.md,
    "Where the defaults come from"). A line of a recipe's ingredient list that the page's
    JSON-LD states scores the same (`default._ingredient_lines`)."""
    min_posts: int = 3
    """A page without its headline among its lines whose article container has at least
    this many peers (voted containers at its depth, each with `post_share` of its score)
    lists posts, and its first post is the article (blog front pages). The headline
    condition keeps a news page whose photo caption comes first from being read as a
    list (measured: BENCHMARKS.md, "Where the defaults come from")."""
    post_share: float = 0.05
    """The share of the winner's score a peer post must hold (see `min_posts`): low, so
    that a short first post still counts among the posts; higher shares miss it, and
    much higher ones find no list at all (measured: BENCHMARKS.md, "Where the defaults come
    from")."""
    short_page_chars: int = 300
    """A page with less text than this whose lines score no region keeps all its lines
    outside boilerplate elements, links too: on a page this short the text is the content
    (readability falls back to the whole body the same way; measured: BENCHMARKS.md,
    "Where the defaults come from")."""
    short_body_chars: int = 200
    """A body of fewer characters from the lines is replaced by a longer JSON-LD
    ``articleBody`` when the page has one (for pages that render their text with scripts;
    trafilatura's minimum is 250)."""

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}; choose one of {', '.join(METHODS)}")
        for name in (
            "min_line_length",
            "fallback_line_length",
            "max_gap",
            "line_cost",
            "short_line_cost",
            "prose_link_chars",
            "punctuation_weight",
            "paragraph_score",
            "sibling_levels",
            "section_levels",
            "lead_score",
            "lead_levels",
            "standfirst_lines",
            "inside_line_cost",
            "headline_window",
            "landmark_weight",
            "min_posts",
            "description_weight",
            "short_body_chars",
            "short_page_chars",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not self.full_stops:
            raise ValueError("full_stops must name at least one character")
        for name in (
            "max_link_share",
            "wrapper_share",
            "sibling_share",
            "post_share",
            "section_link_share",
            "sibling_link_share",
        ):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be within 0..1, got {getattr(self, name)}")


class LineDecision(NamedTuple):
    """One text line of the page and what the extractor decided about it (for `--explain`).

    Immutable like the other types, but a named tuple: one is built for every line of every
    page, and a frozen dataclass costs several times as much to build, a noticeable share
    of the default method's time (measured: BENCHMARKS.md, "Where the defaults come from").
    """

    number: int
    """1-based line number after preprocessing."""
    text: str
    features: dict[str, int | float | bool]
    group: int | None
    """Index of the group the line belongs to (1-based), or None outside every group."""
    kept: bool
    rule: str
    """The rule that decided `kept`, in a few words a user can look up in the user guide
    (docs/guide/how-extraction-works.md)."""


class DecisionTable(Sequence[LineDecision]):
    """Every line's `LineDecision`, built on first use (``--explain``, `Article.lines`).

    A crawl only needs the kept lines: building a decision with its features for each of a
    page's hundreds (or, on broken pages, tens of thousands) of lines cost a tenth of the
    default method's time and most of the paper method's. `decide(index)` builds line
    `index`'s (0-based) decision; `kept` are the kept lines' decisions, which the method
    builds itself from the few lines it may keep.
    """

    def __init__(
        self, count: int, decide: Callable[[int], LineDecision], kept: tuple[LineDecision, ...]
    ) -> None:
        self._count = count
        self._decide = decide
        self.kept = kept
        """The kept lines' decisions, in page order."""
        self._built: tuple[LineDecision, ...] | None = None

    def _all(self) -> tuple[LineDecision, ...]:
        if self._built is None:
            self._built = tuple(map(self._decide, range(self._count)))
        return self._built

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> LineDecision: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[LineDecision, ...]: ...

    def __getitem__(self, index: int | slice) -> LineDecision | tuple[LineDecision, ...]:
        return self._all()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DecisionTable):
            return self._all() == other._all()
        return isinstance(other, tuple) and self._all() == other

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, mutable cache inside

    def __repr__(self) -> str:
        return f"DecisionTable({len(self)} lines)"


@dataclass(frozen=True, slots=True)
class Article:
    """The extraction result. `body` holds paragraphs separated by newlines.

    An empty `body` always comes with a `reason` saying why, so callers can count and
    report failures instead of guessing.
    """

    title: str
    body: str
    method: Method
    url: str | None = None
    encoding: str | None = None
    """The encoding the bytes were decoded with (None when text was passed in)."""
    reason: str | None = None
    """Why `body` is empty (None when it is not)."""
    parameters: dict[str, int | float | str] = field(default_factory=dict)
    """The parameter values actually used on this page (e.g. the L chosen by the fallback)."""
    lines: Sequence[LineDecision] = ()
    """The line table the decision was made on (a `DecisionTable`: built on first use)."""
    fallback: str | None = None
    """Where the body came from when the lines could not give it (``json-ld articleBody``);
    None when the body is the page's own kept lines."""
    metadata: Metadata = field(default_factory=Metadata)
    """Publish time, author, source, editor, language, canonical URL, description, tags and
    top image (empty when `Options.with_metadata` is off)."""
    confidence: float | None = None
    """How sure the extractor is that `body` is the page's article, in [0, 1] (None where
    the method gives no estimate: the paper's). Calibrated on the dev sets (BENCHMARKS.md):
    filter a corpus on it, e.g. keep pages at 0.8 or over."""
    confidence_reasons: tuple[str, ...] = ()
    """What lowered `confidence`, in a few words each (shown by ``--explain``)."""

    def to_dict(self, *, with_lines: bool = False) -> dict[str, object]:
        """A JSON-ready mapping; the line table only on request since it is large."""
        data: dict[str, object] = {
            "title": self.title,
            "body": self.body,
            "method": self.method,
            "url": self.url,
            "encoding": self.encoding,
            "reason": self.reason,
            "parameters": dict(self.parameters),
            "fallback": self.fallback,
            "confidence": self.confidence,
            "confidence_reasons": list(self.confidence_reasons),
            "metadata": self.metadata.to_dict(),
        }
        if with_lines:
            data["lines"] = [
                {
                    "number": line.number,
                    "text": line.text,
                    "features": dict(line.features),
                    "group": line.group,
                    "kept": line.kept,
                    "rule": line.rule,
                }
                for line in self.lines
            ]
        return data
