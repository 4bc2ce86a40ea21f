"""How sure the default method is that the body it kept is the page's article.

A logistic model of "the body scores a page F1 of 0.8 or more" over what the selection
already knows (`default.Evidence`). Each input is a sign that holds on any site, not a
trait of one dev set:

- the share of the page's body-like score the body holds: a body that leaves most of it
  out was one block among several (two competing articles, or a page of teasers);
- the log of the body's length: a scrap of text is more often the wrong block;
- whether the headline is among the page's lines, and the share of the prose right under
  it that the body leaves out (of that prose and the body together): an article follows
  its headline, so a body that skips prose there for a block further down may be a
  sidebar or another post (a body far from its headline with only menus and teasers
  between, as news pages have, is not doubted);
- the body's link density: text that is mostly links is a menu or a list of teasers;
- the share of the body's characters in lines with sentence punctuation: articles are
  prose, lists and navigation are not;
- the body's share of the page's whole text: a body that is a sliver of a long page was
  picked among much other text;
- the log of the number of containers its paragraphs sit in, and of the number of elements
  the article was taken to be: paragraphs spread over many containers, or an article
  pieced together from many, leave room for the wrong choice;
- the share of the description's pieces the body quotes: the description states what the
  article says, so a body that shares nothing with it may be another text;
- the share of the body's span of lines that was kept: a region cut through by dropped
  links and boilerplate is less likely to be one article.

A body from a structured fallback is scored on the evidence of the lines that failed (no
dev page takes one, so it has no input of its own): that evidence is weak, and so is the
confidence.

A body of fewer than `SHORT_BODY_WORDS` words gets at most `SHORT_BODY_CEILING`, the share
of such bodies on the dev sets that were right. The model reads length only through its
log, and a line or two that is all the region holds looks as whole, as prose-like and as
much of the page's body-like text as an article: it rated a login notice, a tags line or a
one-line teaser as sure as a story. Words, not characters (`words`): a Chinese news brief
of a hundred characters is a whole article.

The weights were fitted on the six dev sets by ``bench/calibrate_confidence.py``, which
chooses the inputs and the regularisation by leaving one dataset out (fit on five, score
the sixth) and reports those figures (BENCHMARKS.md, "Confidence that transfers").
"""

from __future__ import annotations

import math
from typing import NamedTuple

from newscrawl.extract.default import Evidence
from newscrawl.extract.words import words_up_to

FEATURES = (
    "share",
    "log length",
    "headline",
    "skipped share",
    "link density",
    "prose share",
    "page text share",
    "log containers",
    "log elements",
    "description quoted",
    "span kept",
)
"""The names of `features`' values, in order."""

WEIGHTS = (
    -5.22,
    1.332,
    0.153,
    0.376,
    -1.797,
    -0.351,
    0.743,
    0.785,
    -0.152,
    -0.395,
    0.203,
    4.606,
)
"""The model's intercept and the weights of `features`, in order (fitted, see above). The
confidence is the model's own probability (a short body's capped), with no offset moving
where its 0.8 falls: an offset chosen on the dev sets did not hold out on a set left out of
its choice."""

LOW_SHARE = 0.6
"""Below this share of the page's body-like text, the share is named as a reason."""
SHORT_BODY_WORDS = 50
"""A body of fewer words is named as a reason, and its confidence is capped: about 300
characters of English, where a word and the space after it run about six."""
MAX_WORD_CHARS = 40
"""More characters than any language's words and the space after them run."""
SHORT_BODY_CEILING = 0.727
"""The most a body of fewer than `SHORT_BODY_WORDS` words is given: the share of such
bodies on the six dev sets that score F1 0.8 or more (fitted, see above)."""
HIGH_LINK_DENSITY = 0.3
"""A body with more of its text in links is named as link-heavy."""
LOW_PROSE_SHARE = 0.5
"""A body with less of its text in punctuated lines is named as not prose."""
MANY_CONTAINERS = 8
"""Paragraphs in more containers than this are named as spread out."""
LOW_SPAN_KEPT = 0.7
"""A body whose span of lines kept less of its text than this is named as cut through."""
HIGH_SKIPPED_SHARE = 0.3
"""A body that leaves out more than this share of the prose under the headline is named
as skipping it (right bodies rarely skip any: BENCHMARKS.md, "Confidence that transfers")."""


class Confidence(NamedTuple):
    value: float
    """In [0, 1]."""
    reasons: tuple[str, ...]
    """What lowered `value`, in a few words each."""


def features(evidence: Evidence, body_chars: int) -> list[float]:
    """The model's inputs (`FEATURES`) for a body of `body_chars` characters kept on
    `evidence`."""
    share = evidence.body_score / evidence.page_score if evidence.page_score else 0.0
    kept = evidence.body_chars
    under_headline = evidence.skipped_chars + kept
    return [
        share,
        math.log1p(body_chars),
        float(evidence.headline),
        evidence.skipped_chars / under_headline if under_headline else 0.0,
        evidence.link_chars / kept if kept else 0.0,
        evidence.prose_chars / kept if kept else 0.0,
        kept / evidence.page_chars if evidence.page_chars else 0.0,
        math.log1p(evidence.containers),
        math.log(max(evidence.elements, 1)),
        evidence.described,
        kept / evidence.region_chars if evidence.region_chars else 0.0,
    ]


def short_body_words(body: str) -> int | None:
    """How many words `body` has when it has fewer than `SHORT_BODY_WORDS`, else None, and
    None uncounted when it is `MAX_WORD_CHARS` characters a word long or longer: no
    language's words run that long (and most bodies are that long)."""
    if len(body) >= SHORT_BODY_WORDS * MAX_WORD_CHARS:
        return None
    count = words_up_to(body, SHORT_BODY_WORDS)
    return count if count < SHORT_BODY_WORDS else None


def confidence(evidence: Evidence, body: str, fallback: str | None = None) -> Confidence:
    """The confidence of the `body` kept on `evidence` (or taken from the structured
    `fallback`); 0 for no body."""
    if not body:
        return Confidence(0.0, ("no body",))
    inputs = features(evidence, len(body))
    intercept, *weights = WEIGHTS
    score = intercept + sum(weight * value for weight, value in zip(weights, inputs, strict=True))
    value = 1.0 / (1.0 + math.exp(-score))
    short = short_body_words(body)
    if short is not None:
        value = min(value, SHORT_BODY_CEILING)
    return Confidence(round(value, 3), _reasons(evidence, inputs, short, fallback))


def _reasons(
    evidence: Evidence, inputs: list[float], short: int | None, fallback: str | None
) -> tuple[str, ...]:
    share, _, _, skipped, links, prose, _, _, _, _, span = inputs
    reasons = []
    if fallback is not None:
        reasons.append(f"body from the {fallback}, not the page's lines")
    elif share < LOW_SHARE:
        reasons.append(f"the body holds {share:.0%} of the page's body-like text")
    if not evidence.headline:
        reasons.append("no headline among the page's lines")
    elif skipped > HIGH_SKIPPED_SHARE:
        reasons.append(
            f"the body leaves out {evidence.skipped_chars} chars of prose under the headline"
        )
    if short is not None:
        reasons.append(f"short body ({short} words)")
    if evidence.short_page:
        reasons.append("short page: its whole text kept")
    if fallback is None and evidence.body_chars:
        if links > HIGH_LINK_DENSITY:
            reasons.append(f"links make up {links:.0%} of the body")
        if prose < LOW_PROSE_SHARE:
            reasons.append(f"only {prose:.0%} of the body is punctuated prose")
        if span < LOW_SPAN_KEPT:
            reasons.append(f"{1 - span:.0%} of the body's span of lines was dropped")
    if evidence.containers > MANY_CONTAINERS:
        reasons.append(f"paragraphs spread over {evidence.containers} containers")
    return tuple(reasons)
