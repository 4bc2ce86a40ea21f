"""The default method's selection: the region of lines with the most body-like text.

The paper's idea (body lines are long, punctuated and close together) made robust:

1. Every line gets a score in characters (`line_score`): its non-link text plus
   `Options.punctuation_weight` per sentence mark, minus `Options.line_cost`, but never
   below ``-Options.short_line_cost`` (a table cell or list item costs little). Link lines,
   boilerplate lines (inside an element whose tag/class/id names comments, footers, ads
   ...; or a credit/statement line such as 责任编辑) count against by their whole length.
   A short line the page's description quotes counts for (`Options.description_weight`),
   and so does a line of a recipe's ingredient list that the page's JSON-LD states.
2. The article's elements (`main_elements`): paragraphs vote for their parent and
   grandparent element, as in readability, and sibling sections with a good share of the
   winner's score join it. Lines outside these elements count against the body.
3. The body is the contiguous run of lines with the highest total score (a maximum-sum
   segment, Kadane's algorithm): the most body-like text wins, not the first long line, and
   a short ad or table inside the article costs less than the paragraphs after it bring.
   Distance is measured in lines that carry text, so markup between paragraphs is free.
   The run holds a line of the container the paragraphs voted for: a sibling that joined
   it (a footer's notice) never makes the whole body.
4. Inside the region, link lines and boilerplate lines are dropped; so is the headline.

Every line's features and the rule that kept or dropped it are returned for ``--explain``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, count, repeat
from operator import attrgetter, lt
from typing import NamedTuple

from newscrawl.extract import comment_thread, native
from newscrawl.extract.blocks import (
    MAX_CLASS_CHARS,
    NOISE_TAGS,
    NOISE_WORD_RE,
    Line,
    PageLines,
    noise_word,
)
from newscrawl.extract.model import DecisionTable, LineDecision, Options
from newscrawl.extract.needles import texts_holding

BOILERPLATE_LINE_RE = re.compile(
    r"^\W{0,3}(?:责任编辑|责编|编辑|校对|审核|审校|监制|来源|原标题|本文来源|文章来源|稿件来源"
    r"|平台声明|免责声明|版权声明|特别声明|声明|相关新闻|相关阅读|相关报道|相关链接|延伸阅读|推荐阅读)"
    r"\s*[：:]"
    r"|版权所有|all rights reserved|copyright\s*(?:©|\(c\)|\d{4})|(?:©|\(c\))\s*(?:19|20)\d\d",
    re.IGNORECASE,
)
"""Credit, source and statement lines that sit next to the body and pass every length and
punctuation test (docs/pitfalls.md, extraction 7; the gold of the sites set in docs/scoring.md)."""
AD_LABELS = frozenset({"advert", "advertisement", "advertising", "anzeige", "werbung"})
"""The words a page prints over an ad slot, alone on their line (the ad is a script, so the
label is all the slot's text): a statement line too, never the article's."""
AD_LABEL_MARKS = " \t:-–—|·•()[]"
"""What may stand around an ad label on its line ("- Advertisement -", "(Anzeige)")."""

CREDIT_LABEL_RE = re.compile(
    r"(?:^\W{0,3}|[.!?]\s+|\(|(?-i:(?<=[a-z])(?=[A-Z])))(?:photo(?:graph)?s?|fotos?|bild(?:er)?|image"
    r"|credits?|crédits?(?:\s+photos?)?|crédito|fotoğraf|zdjęcie|ảnh|фото|φωτογραφ[ίι]α|φωτ[όο]"
    r"|تصوير|صورة|عکس|फ़ोटो|फोटो|ภาพ)(?:\s+credits?)?(?:\s+by)?\s*:",
    re.IGNORECASE,
)
CREDIT_MARK_RE = re.compile(r"getty\s*images|istock|shutterstock|reuters/", re.IGNORECASE)
"""Photo credits (``Foto: dpa``, ``© Getty Images``), in lines of at most `MAX_CREDIT_LINE`
chars: a credit is not the article's text, and most of the gold leaves them out (though
readability's keeps captions with their credits). The label may name the credit
("Image credit: NASA", "Photo credits:") and stand in parentheses ("(Image: Getty)"). A
caption that ends in its credit ("... zu tun. Foto: Timur", "... landers. Credit: Tyvak")
is one too, also where the page set the two in elements of their own that the text runs
together ("... a rabbitCredit: Getty"); so is the French "Crédits photos :" (measured:
BENCHMARKS.md, "Where the defaults come from"). The label in the other languages news
sites credit photos in with a colon: Turkish, Polish, Vietnamese, Russian and Ukrainian,
Greek, Arabic, Persian, Hindi and Thai ("Фото: …", "Φωτογραφία: …", "تصوير: …",
"फोटो: …")."""
MAX_CREDIT_LINE = 120
CAPTION_CREDIT_RE = re.compile(
    r"\((?:ap\s+)?(?:photo(?:graph)?s?|fotos?|image)(?:\s*[:/]|\s+by\s)[^()]{1,80}\)\s*$",
    re.IGNORECASE,
)
"""A caption closed by its credit in parentheses ("... in Hialeah, Fla. (AP Photo/Alan
Diaz)", "(Photo by ...)", "(Image: Getty)"): taken up to `MAX_BOILERPLATE_LINE` chars, as
such captions run longer than a bare credit. No sentence of an article ends so."""
CREDIT_NEEDLES = (":", "©", "getty", "istock", "shutterstock", "reuters/", "photo")
"""What every line `_is_photo_credit` takes holds, folded (`needles`): the label's colon, a
©, a word of each `CREDIT_MARK_RE` alternative, or the photo of `CAPTION_CREDIT_RE`'s
colonless credits."""
STATEMENT_NEEDLES = ("：", ":", "权", "ight", "©", "(c)", "advert", "anzeige", "werbung")
"""What every `_is_boilerplate_line` line holds, folded (`needles`): a colon, 版权, the
"ight" of "rights" and "copyright", the mark of a bare copyright notice ("© 2012 Name",
"(c) 2012 Name": the word is optional in a notice), or a part of each `AD_LABELS` word."""

MIN_QUOTED_CHARS = 6
"""Shorter lines are found in any description by chance."""
SENTENCE_ENDS = ".!?。！？"
"""The marks that close a sentence, which a description cut short leaves out."""
COMMENT_WORD_RE = re.compile("comment|reply|评论|留言")
"""The `blocks.NOISE_WORD_RE` words that name a list of readers' comments."""
SEPARATOR_SHARE = 0.5
"""A line over `Options.max_link_share` links whose marks outnumber this share of its own
text (the text outside its links) is a link list, whatever that text's length: its own
text is the commas between the links ("Tagged: a, b, c, ...", "In this article: ...", a
list of the readers who liked a post), where a sentence runs several letters a mark. The
marks are the line's (`Line.punctuation`, links included), so a linked headline's marks
count too: a summary after one still has several letters a mark. Measured: BENCHMARKS.md,
"Every rule and parameter, leave one dataset out" (``separator_lists``)."""

MIN_POST_CHARS = 200
"""A post's worth of prose (a blog post's shortest paragraphs): before a comment list, it
makes the list the post's comments; before any other named box, it weighs against the box
(`POST_FIRST_NAMES`)."""
NAME_WEIGHT = MIN_POST_CHARS
"""What a boilerplate name weighs against the prose of its box (`_wrappers`): a post's
worth."""
POST_FIRST_NAMES = 1
"""How many names a post's worth of prose before a named box, outside every named box,
weighs against the box being a layout wrapper (`_wrappers`)."""
MAX_BOILERPLATE_LINE = 200
"""Credit and statement lines are short; longer lines are not tested against the pattern."""


PARAMETERS = (
    "line_cost",
    "short_line_cost",
    "punctuation_weight",
    "max_link_share",
    "prose_link_chars",
    "wrapper_share",
    "paragraph_score",
    "sibling_share",
    "sibling_levels",
    "sibling_link_share",
    "section_levels",
    "section_link_share",
    "lead_score",
    "lead_levels",
    "inside_line_cost",
    "standfirst_lines",
    "headline_window",
    "landmark_weight",
    "min_posts",
    "post_share",
    "description_weight",
    "short_body_chars",
    "short_page_chars",
)
"""The `Options` fields this method reads (reported in `Article.parameters`)."""


def parameters(options: Options) -> dict[str, int | float | str]:
    """The values of `PARAMETERS` in `options`, for `Article.parameters`."""
    return {name: getattr(options, name) for name in PARAMETERS}


class Selection(NamedTuple):
    """The default method's decision on one page's lines."""

    kept: tuple[LineDecision, ...]
    lines: DecisionTable
    reason: str | None
    """Why nothing was kept (None when something was)."""
    evidence: Evidence
    """What the decision rests on, for `Article.confidence`."""


class Evidence(NamedTuple):
    """How clearly the page's body stands out, from the scores `select` worked out."""

    body_score: int
    """The summed positive score of the kept lines."""
    page_score: int
    """The summed positive score of every line of the page outside boilerplate: body-like
    text the body left out lowers the share of the two."""
    headline: bool
    """Whether the headline is among the page's lines."""
    skipped_chars: int
    """Characters of the body-like lines (dropped by no rule, scoring over 0) between the
    headline and the first kept line: prose right under the headline that the body left
    out (0 without a headline or when the body starts before it)."""
    short_page: bool
    """Whether the short-page rule kept the page's whole text."""
    body_chars: int = 0
    """Characters of the kept lines."""
    link_chars: int = 0
    """Of those, the characters inside links."""
    prose_chars: int = 0
    """Characters of the kept lines that carry sentence punctuation."""
    region_chars: int = 0
    """Characters of every line from the first to the last kept one (the lines dropped
    inside the body's region included)."""
    page_chars: int = 0
    """Characters of every line of the page."""
    containers: int = 0
    """Distinct parent elements of the page's paragraph lines (`Options.paragraph_score`):
    the containers that competed for the article."""
    elements: int = 0
    """How many elements the article's were taken to be (its container and the sibling
    sections, lead paragraphs and lists that joined it)."""
    described: float = 0.0
    """The share of the description's four-character pieces (whitespace removed) found in
    the kept lines (0 without a description)."""


def boilerplate_elements(
    page: PageLines, options: Options, marks: set[int], headline: int | None
) -> set[int]:
    """Elements whose class/id/tag names boilerplate and that are not layout wrappers.

    A wrapper holds (anywhere in its subtree) more of the page's punctuated non-link text
    than its name weighs against it (`_wrappers`): a page-wide ``<div class="ad-margins">``
    is layout, a comment list is not. A box with siblings of its kind (not comments: a
    thread is no article told in parts) is weighed with them (`_series_prose`): each slide
    of a slideshow article holds a slice of it, and only the series outweighs the name.
    An element that holds the article's own marks is not boilerplate either (`marks`, the
    page's `landmarks`, or the `headline` line): the name of a box around the headline or
    the page's main content says what the box has (``enable-pin-share``, ``container_wrap
    sidebar_right``, ``o-section--has-ads``), not what it is. A comment
    list (`COMMENT_WORD_RE`) that follows `MIN_POST_CHARS` of prose outside every named box
    is never a wrapper: comments follow the post they answer, and on a popular post they
    outrun it. Elements named so by accident (`_named_by_accident`) are not boilerplate. Nor
    is one that another of its classes names a post or article (`_names_an_entry`) and that
    holds a post's worth of prose (`MIN_POST_CHARS`): blog platforms put the post's author,
    category and tags on its container (``entry-author-<name> entry``, ``hentry
    author-<name> tag-share``), and the paragraphs it covers outweigh those words; an author
    box named ``post-author`` holds a line or two.
    """
    first_line, prose_before, boxed = _prose_boxes(page.lines, options)
    holders = _article_holders(page, marks, headline)
    named = {
        element
        for element, line in first_line.items()
        if element not in holders
        and (
            page.tags[element] in NOISE_TAGS
            or not _named_by_accident(page.attributes.get(element, ""), line.text)
        )
    }
    if not named:
        return named
    total = sum(boxed.values())
    prose: Counter[int] = Counter()
    for box, chars in boxed.items():
        for element in _named_ancestors(page, box, named):
            prose[element] += chars
    uncounted = holders | (first_line.keys() - named)
    opening = _opening_boxes(page, headline, named, options)
    thread = {
        element
        for element in named
        if prose[element] and COMMENT_WORD_RE.fullmatch(first_line[element].noise or "")
    }
    held = _series_prose(page, named - thread, prose)
    after_post = {element for element in named if prose_before[element] >= MIN_POST_CHARS}
    wrappers = _wrappers(page, named, held, total, uncounted, opening, after_post, options)
    return {
        element
        for element in named
        if (
            element not in wrappers
            or (
                COMMENT_WORD_RE.fullmatch(first_line[element].noise or "") is not None
                and element in after_post
            )
        )
        and not (
            prose[element] >= MIN_POST_CHARS
            and page.tags[element] not in NOISE_TAGS
            and _names_an_entry(page.attributes.get(element, ""))
        )
    }


ProseBoxes = tuple[dict[int, Line], dict[int, int], dict[int, int]]
"""`_prose_boxes`: the first line of each box, the unboxed prose before it, the prose of
each box."""


def _prose_boxes(lines: Sequence[Line], options: Options) -> ProseBoxes:
    """What `boilerplate_elements` reads of every line, in one pass: the first line of each
    noise element, the prose characters outside every box before that line, and the prose
    characters of each noise element (0: outside every box). Prose is a punctuated line
    that is not a link line (`_is_link_line`). In C (``_blockscan.prose_boxes``) where
    built."""
    if native.blockscan is None:
        return _prose_boxes_python(lines, options)
    boxes: ProseBoxes = native.blockscan.prose_boxes(
        lines, options.max_link_share, options.prose_link_chars, SEPARATOR_SHARE
    )
    return boxes


def _prose_boxes_python(lines: Sequence[Line], options: Options) -> ProseBoxes:
    """`_prose_boxes` in Python: the reference of the C one, and the fallback."""
    first_line: dict[int, Line] = {}
    prose_before: dict[int, int] = {}
    boxed: dict[int, int] = {}
    unboxed_prose = 0
    for line in lines:
        prose = bool(line.punctuation) and not (line.link_chars and _is_link_line(line, options))
        if line.noise_element:
            if line.noise_element not in first_line:
                first_line[line.noise_element] = line
                prose_before[line.noise_element] = unboxed_prose
        elif prose:
            unboxed_prose += line.chars
        if prose:
            boxed[line.noise_element] = boxed.get(line.noise_element, 0) + line.chars
    return first_line, prose_before, boxed


def _wrappers(
    page: PageLines,
    named: set[int],
    prose: Mapping[int, int],
    total: int,
    uncounted: Set[int],
    opening: Set[int],
    after_post: Set[int],
    options: Options,
) -> set[int]:
    """The `named` boxes that are layout wrappers rather than what their names say, by the
    `prose` each holds of the page's `total`. Each name around a box (its own and its named
    ancestors', but the `uncounted`) is evidence worth a post's prose (`NAME_WEIGHT`): a
    box is a wrapper when it holds all of the page's prose, or more than
    `Options.wrapper_share` of it with that much taken off per name. A sidebar, an about
    box or a licence notice that outruns a one-paragraph post by a few lines stays
    boilerplate, and so does a profile box inside a sidebar that outruns it by more; a
    misnamed box around a whole article (``o-media js-lightbox-gallery``,
    ``documentContent__sharingContainer``) outweighs its name. A box that opens the
    article (`opening`: it holds the first prose after the headline) needs only more than
    `Options.wrapper_share`: following the headline is evidence that outweighs a name. A
    box that comes after a post's worth of prose outside every named box (`after_post`)
    weighs `POST_FIRST_NAMES` names more: the post came first, and a sidebar or a licence
    box after a short post is the site's even where it outruns the post by a name's worth.
    Names are counted only for the few boxes over `Options.wrapper_share`."""
    share = options.wrapper_share * total
    names: dict[int, int] = {}
    return {
        element
        for element in named
        if 0 < total <= prose[element]
        or (element in opening and prose[element] > share)
        or (
            prose[element] - share > NAME_WEIGHT
            and prose[element] - share
            > NAME_WEIGHT
            * (
                _names_around(page, element, names, uncounted)
                + (POST_FIRST_NAMES if element in after_post else 0)
            )
        )
    }


def _series_prose(page: PageLines, boxes: Set[int], prose: Counter[int]) -> Counter[int]:
    """`prose` with each of the `boxes` that holds prose and has siblings of its `_kind`
    among them credited with the series' prose: one slide of a slideshow, one of a page
    builder's repeated sections, holds a slice of the article, the series holds all of it,
    and its name is weighed against the whole. Only boxes with prose are grouped (most
    named boxes, menus and buttons, hold none)."""
    series: dict[tuple[int, tuple[str, str]], list[int]] = {}
    for element in boxes:
        if prose[element] and (kind := _kind(page, element)) is not None:
            series.setdefault((page.parents.get(element, 0), kind), []).append(element)
    alike = [members for members in series.values() if len(members) > 1]
    if not alike:
        return prose
    held = prose.copy()
    for members in alike:
        together = sum(prose[member] for member in members)
        for member in members:
            held[member] = together
    return held


def _opening_boxes(
    page: PageLines, headline: int | None, named: set[int], options: Options
) -> set[int]:
    """The `named` boxes around the first prose line after the `headline` (none without
    one): the boxes the article opens in."""
    if headline is None:
        return set()
    for line in page.lines[headline + 1 :]:
        if line.punctuation and not (line.link_chars and _is_link_line(line, options)):
            return set(_named_ancestors(page, line.noise_element, named))
    return set()


def _named_ancestors(page: PageLines, element: int, named: set[int]) -> list[int]:
    """`element` and its ancestors that are `named` (walked up once per noise element: a
    box's lines are summed first)."""
    found = []
    while element:
        if element in named:
            found.append(element)
        element = page.parents.get(element, 0)
    return found


_MAIN_CONTENT_RE = re.compile(
    r"""\brole\s*=\s*["']?main\b|\bitemprop\s*=\s*["']?articleBody\b""", re.IGNORECASE
)
"""The attributes that mark an element as the page's main content or article body (only
strings holding "role", "ROLE" or "itemprop" are searched: most hold none)."""


def landmarks(page: PageLines) -> set[int]:
    """The elements that mark themselves as the article or the page's main content: a
    ``<main>``, a ``role="main"`` or ``itemprop="articleBody"`` element, an ``<article>``
    outside every named box (comments and teaser cards are ``<article>``s too, inside
    their list's box)."""
    marks: set[int] = set()
    joined = "\n".join(page.attributes.values())  # one test for the page, most have none
    if "role" in joined or "itemprop" in joined or "ROLE" in joined:
        marks = {
            element
            for element, attributes in page.attributes.items()
            if ("role" in attributes or "itemprop" in attributes or "ROLE" in attributes)
            and _MAIN_CONTENT_RE.search(attributes)
        }
    tags = page.tags
    if "main" in tags or "article" in tags:
        names_around: dict[int, int] = {}
        for element in compress(count(), map(LANDMARK_TAGS.__contains__, tags)):
            if tags[element] == "main" or not _names_around(
                page, page.parents.get(element, 0), names_around
            ):
                marks.add(element)
    return marks


LANDMARK_TAGS = frozenset({"main", "article"})
"""The tags `landmarks` weighs: picked out of a page's hundreds of elements by ``map``."""


def _article_holders(page: PageLines, marks: set[int], headline: int | None) -> set[int]:
    """The `landmarks` and the headline's element, with all their ancestors."""
    starts = [*marks, page.lines[headline].element] if headline is not None else [*marks]
    holders: set[int] = set()
    for element in starts:
        while element and element not in holders:
            holders.add(element)
            element = page.parents.get(element, 0)
    return holders


def _names_around(
    page: PageLines, element: int, known: dict[int, int], excluded: Set[int] = frozenset()
) -> int:
    """How many elements named boilerplate by their tag, class or id hold `element` (itself
    included), not counting the `excluded`. `known` holds the counts found so far (filled
    in on the way down from the nearest known ancestor), so that a page of nested boxes is
    walked up once, not once per box."""
    path = []
    while element and element not in known:
        path.append(element)
        element = page.parents.get(element, 0)
    count = known.get(element, 0)
    for element in reversed(path):
        if element not in excluded and (
            page.tags[element] in NOISE_TAGS or noise_word(page.attributes.get(element, "").lower())
        ):
            count += 1
        known[element] = count
    return count


_ATTRIBUTE_VALUE_RE = re.compile(
    r"""(?<![\w-])(class|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE
)
"""A class or id value of a tag's attribute text (``blocks._CLASS_ID_RE``, naming which)."""
_ATOMIC_CLASS_RE = re.compile(r"[a-z]{1,3}\d*")
_HASH_ID_RE = re.compile(r"[0-9a-f]{3,12}")
_HASH_RUN_RE = re.compile(r"(?<![0-9a-f])(?=[0-9a-f]{6})[a-f]*+[0-9][0-9a-f]*+")
"""A run of six or more hexadecimal digits holding a decimal one: a hash (``orgd7109ad``,
an org-mode heading's id), inside which a word is there by accident. Tried only where a
run starts, its repeats possessive: linear in the value's length."""
_GENERATED_CLASS_PART_RE = re.compile(r"__[a-z0-9-]{4,8}$|^(?:css|sc|jsx)-[a-z0-9]+$")
"""The hash a CSS-in-JS build adds to a class name (``ImageText_Container__Gg7MW``,
``css-1x2y3z``): its letters spell nothing."""
_SLUG_WORD_RE = re.compile(r"[^\W_]+")
ATTRIBUTE_CACHE_SIZE = 4096
"""Attribute strings remembered across pages (a site's templates repeat them too)."""


@lru_cache(maxsize=ATTRIBUTE_CACHE_SIZE)
def _attribute_values(attributes: str) -> tuple[tuple[str, str], ...]:
    """("class" or "id", lower-cased value) for each class and id of an attribute text.
    Cached: a page repeats its boxes' attribute strings (menu items, share buttons)."""
    return tuple(
        (match.group(1).lower(), (match.group(2) or match.group(3) or match.group(4) or "").lower())
        for match in _ATTRIBUTE_VALUE_RE.finditer(attributes)
    )


ENTRY_WORDS = frozenset({"post", "entry", "hentry", "article", "story"})
"""Parts of a class name that name its element as a post or an article."""
_NAME_PART_RE = re.compile(r"[-_]+")


@lru_cache(maxsize=ATTRIBUTE_CACHE_SIZE)
def _names_an_entry(attributes: str) -> bool:
    """Whether one of the element's classes, holding no boilerplate word itself, names it a
    post or an article (`ENTRY_WORDS` as a part: ``hentry``, ``type-post``,
    ``journal-entry-wrapper``), while its boilerplate words only qualify other classes
    (``author-<name>``, ``entry-category-<slug>``): a class that is a boilerplate word
    alone, or an id holding one, names the element itself (``<div class="post"
    id="author">`` is an author box). In a BEM name only the part after ``__`` names the
    element: ``article__content-header`` is a part of an article, not one."""
    entry = False
    for kind, value in _attribute_values(attributes):
        for word in value[:MAX_CLASS_CHARS].split():
            if NOISE_WORD_RE.search(word):
                if kind == "id" or NOISE_WORD_RE.fullmatch(word):
                    return False
            elif kind == "class" and not ENTRY_WORDS.isdisjoint(
                _NAME_PART_RE.split(word.rsplit("__", 1)[-1])
            ):
                entry = True
    return entry


def _named_by_accident(attributes: str, first_text: str) -> bool:
    """Whether every class/id value of an element that holds a boilerplate word holds it by
    accident rather than naming a component:

    * an id made from the element's own first line (a heading's anchor, as documentation
      and Markdown renderers write them: ``id="how-to-install-the-tool"``);
    * an id that is a hexadecimal hash (``id="e1ad"``);
    * a class list of generated atomic names (six or more, most of them up to three
      letters: ``class="gc gd dg ... gg gh"``), where a two-letter name means nothing;
    * the hash part of a generated class name (`_GENERATED_CLASS_PART_RE`).
    """
    accidental, id_slugs = _accidental_names(attributes)
    if not accidental or not id_slugs:
        return accidental
    slug = tuple(_SLUG_WORD_RE.findall(first_text.lower()))
    return bool(slug) and all(id_slug == slug for id_slug in id_slugs)


@lru_cache(maxsize=ATTRIBUTE_CACHE_SIZE)
def _accidental_names(attributes: str) -> tuple[bool, tuple[tuple[str, ...], ...]]:
    """What `_named_by_accident` reads of an attribute text alone, cached as
    `_attribute_values` is (a page names its boxes alike, a site its pages): whether each
    class/id value holding a boilerplate word may hold it by accident, and the words of the
    ids that do only if the element's first line spells them."""
    accidental = False
    id_slugs = []
    for kind, value in _attribute_values(attributes):
        if not NOISE_WORD_RE.search(value[:MAX_CLASS_CHARS]):
            continue
        if kind == "id":
            if not _HASH_ID_RE.fullmatch(value) and NOISE_WORD_RE.search(
                _without_hashes(value[:MAX_CLASS_CHARS])
            ):
                id_slugs.append(tuple(_SLUG_WORD_RE.findall(value)))
        elif not _classes_named_by_accident(value):
            return False, ()
        accidental = True
    return accidental, tuple(id_slugs)


@lru_cache(maxsize=ATTRIBUTE_CACHE_SIZE)
def _classes_named_by_accident(value: str) -> bool:
    """Whether a class list's boilerplate word sits only in generated names (the class
    rules of `_named_by_accident`; cached as `_attribute_values` is)."""
    words = [_without_hashes(_GENERATED_CLASS_PART_RE.sub("", word)) for word in value.split()]
    atomic = [word for word in words if _ATOMIC_CLASS_RE.fullmatch(word)]
    if len(words) >= 6 and len(atomic) >= 0.6 * len(words):
        words = [word for word in words if word not in atomic]
    return not any(NOISE_WORD_RE.search(word) for word in words)


def _without_hashes(value: str) -> str:
    """`value` with each `_HASH_RUN_RE` hash cut out (a space in its place, so the words on
    either side stay apart)."""
    return _HASH_RUN_RE.sub(" ", value)


def line_score(line: Line, dropped: bool, options: Options) -> int:
    """A line's contribution to a body region, in characters (see the module docstring);
    `dropped`: the line is a link or boilerplate line."""
    if dropped:
        return -line.chars
    text_chars = line.chars - line.link_chars
    score = text_chars + options.punctuation_weight * line.punctuation - options.line_cost
    return max(score, -options.short_line_cost)


def best_region(scores: Sequence[int]) -> tuple[int, int] | None:
    """First and last index of the contiguous run with the highest positive sum."""
    best, best_span = 0, None
    for index, running, start in _best_runs_ending(scores):
        if running > best:
            best, best_span = running, (start, index)
    return best_span


def _best_runs_ending(scores: Sequence[int]) -> Iterator[tuple[int, int, int]]:
    """For each index, the best sum of a run ending there and where that run starts
    (Kadane's pass)."""
    running, start = 0, 0
    for index, score in enumerate(scores):
        if running <= 0:
            running, start = score, index
        else:
            running += score
        yield index, running, start


def best_region_holding(scores: Sequence[int], holding: Sequence[bool]) -> tuple[int, int] | None:
    """`best_region` among the runs that hold an index where `holding` is true: the best run
    ending at each such index (as `best_region` runs, from the left) joined to the best run
    right after it (from the right); None where no such run sums above zero."""
    count = len(scores)
    after = [0] * (count + 1)  # the best sum of a run starting at an index, 0 for none
    after_end = list(range(-1, count))  # where that run ends (the index before it: none)
    for index in range(count - 1, -1, -1):
        if scores[index] + after[index + 1] > 0:
            after[index] = scores[index] + after[index + 1]
            after_end[index] = after_end[index + 1] if after[index + 1] > 0 else index
    best, best_span = 0, None
    for index, running, start in _best_runs_ending(scores):
        if holding[index] and running + after[index + 1] > best:
            end = after_end[index + 1] if after[index + 1] > 0 else index
            best, best_span = running + after[index + 1], (start, end)
    return best_span


def _region_over(
    lines: Sequence[Line], scores: Sequence[int], inside_element: Sequence[bool], options: Options
) -> tuple[int, int] | None:
    """`best_region` over the lines, each scoring its score inside the article's elements,
    but never below ``-Options.inside_line_cost`` there (a long link list or caption
    inside the article does not split it), and minus its chars outside. In C
    (``_blockscan.region_over``) where built: a pass over every line."""
    floor = -options.inside_line_cost
    if native.blockscan is None:
        return _region_over_python(lines, scores, inside_element, floor)
    region: tuple[int, int] | None = native.blockscan.region_over(
        lines, scores, inside_element, floor
    )
    return region


def _region_over_python(
    lines: Sequence[Line], scores: Sequence[int], inside_element: Sequence[bool], floor: int
) -> tuple[int, int] | None:
    """`_region_over` in Python (`floor`: ``-Options.inside_line_cost``): the reference of
    the C one, and the fallback."""
    return best_region(_region_scores(lines, scores, inside_element, floor))


def _region_scores(
    lines: Sequence[Line], scores: Sequence[int], inside_element: Sequence[bool], floor: int
) -> list[int]:
    """Each line's score for the region: its score, at least `floor`, inside the article's
    elements, minus its chars outside."""
    return [
        (score if score > floor else floor) if inside_element[line.element] else -line.chars
        for line, score in zip(lines, scores, strict=True)
    ]


def _region_holding_container(
    lines: Sequence[Line],
    scores: Sequence[int],
    inside_element: Sequence[bool],
    options: Options,
    region: tuple[int, int] | None,
    container: int,
    ends: Sequence[int],
) -> tuple[int, int] | None:
    """`region`, or where it holds no line of the `container` the votes chose (only lines
    of a sibling or a lead that joined it), the best region that holds one. The container
    is always part of the article, as readability always keeps its top candidate: a
    footer's copyright notice that joined as a sibling outscored a tiny post under its
    headline. Python, a pass over the lines: it runs only on such pages."""
    if region is None or container == 0:
        return region
    last = ends[container]
    if any(container <= lines[at].element <= last for at in range(region[0], region[1] + 1)):
        return region  # the region's first line is the container's on most pages
    holding = [container <= line.element <= last for line in lines]
    floor = -options.inside_line_cost
    return best_region_holding(_region_scores(lines, scores, inside_element, floor), holding)


NEAR_HEADLINE_SCORE = 0
"""Within `Options.headline_window` lines after the headline, a line scoring over this votes
for its container, paragraph or not (`main_elements`)."""


class ArticleElements(NamedTuple):
    """Where `main_elements` finds the article."""

    container: int
    """The element the paragraphs voted for (0: the whole page)."""
    elements: set[int]
    """The container and the relatives that joined it."""


def main_elements(
    page: PageLines,
    ends: Sequence[int],
    scores: Sequence[int],
    headline: int | None,
    marks: set[int],
    options: Options,
    described: Callable[[Line], bool],
) -> ArticleElements:
    """The elements holding the article: the best container and its big relatives.

    Paragraphs (lines scoring over `Options.paragraph_score`) vote for their parent element
    (twice) and grandparent (once), as readability scores paragraphs, and twice as much
    within `Options.headline_window` lines after the headline, up to the end of the
    landmark that holds it (`_headline_window`: the body follows it; a long footer
    statement further down does not); there every line scoring over
    `NEAR_HEADLINE_SCORE` votes, so a tiny post (a photo's caption, a link and a line) holds
    its container against a longer sidebar blurb further down. The winner is the container.
    Articles split over sibling sections join it (`_sibling_sections`), and so do paragraphs
    that sit right beside one of its ancestors (a lead ``<p>`` before the body's ``<div>``)
    or open the article before it (`_lead_paragraphs`; `described` tests for a standfirst),
    and a standfirst in a box of its own right under the headline (`_standfirst`). The
    whole page (element 0) when no line votes. `ends`: `subtree_ends`.
    """
    lines, parents = page.lines, page.parents
    near = _headline_window(page, ends, headline, marks, options)
    in_landmark = _inside_elements(marks, ends) if marks else None
    votes = _paragraph_votes(lines, scores, parents, near, in_landmark, options)
    best = max(votes, key=votes.__getitem__, default=0)
    if best == 0:
        return ArticleElements(0, {0})
    mass = subtree_scores(lines, scores, parents)
    if headline is None:
        best = first_post(best, votes, mass, parents, options)
    chosen = {best} | _sibling_sections(page, ends, best, mass, scores, headline, options)
    chosen |= _lead_paragraphs(page, ends, scores, best, chosen, options, described, headline)
    chosen |= _standfirst(page, ends, scores, headline, chosen, options)
    return ArticleElements(best, chosen)


def _headline_window(
    page: PageLines, ends: Sequence[int], headline: int | None, marks: set[int], options: Options
) -> range:
    """The lines after the `headline` whose paragraphs vote twice: `Options.headline_window`
    of them, ending where the innermost landmark (`marks`) around the headline ends. An
    ``<article>`` that holds the headline holds its post; the ``<article>``s after it
    within the window are other posts (a short post's "you may also like" cards), however
    near they come. Empty without a headline."""
    if headline is None:
        return range(0)
    lines = page.lines
    start = headline + 1
    stop = min(len(lines), start + options.headline_window)
    element = lines[headline].element
    while element and element not in marks:
        element = page.parents.get(element, 0)
    if element:
        last = ends[element]
        for index in range(start, stop):
            if not element <= lines[index].element <= last:
                return range(start, index)
    return range(start, stop)


def _paragraph_votes(
    lines: Sequence[Line],
    scores: Sequence[int],
    parents: dict[int, int],
    near: range,
    in_landmark: Sequence[bool] | None,
    options: Options,
) -> dict[int, int]:
    """The votes of `main_elements` by element, in order of first vote. In C
    (``_blockscan.paragraph_votes``) where built: one pass over the lines."""
    arguments = (
        lines,
        scores,
        parents,
        options.paragraph_score,
        NEAR_HEADLINE_SCORE,
        near.start,
        near.stop,
        in_landmark,
        options.landmark_weight,
    )
    if native.blockscan is None:
        return _paragraph_votes_python(*arguments)
    votes: dict[int, int] = native.blockscan.paragraph_votes(*arguments)
    return votes


def _paragraph_votes_python(
    lines: Sequence[Line],
    scores: Sequence[int],
    parents: dict[int, int],
    paragraph_score: int,
    near_score: int,
    near_start: int,
    near_stop: int,
    in_landmark: Sequence[bool] | None,
    landmark_weight: int,
) -> dict[int, int]:
    """`_paragraph_votes` in Python: the reference of the C one, and the fallback. The lines
    scoring over `paragraph_score`, and those near (at an index in `near_start` up to
    `near_stop`) scoring over `near_score`, vote twice their score for their element's
    parent and once for its grandparent, doubled near and times `landmark_weight` inside
    a landmark."""
    votes: Counter[int] = Counter()
    near = range(near_start, near_stop)
    voters = list(_above(scores, paragraph_score))
    if near:
        window = range(near.start, min(len(scores), near.stop))
        voters = sorted({*voters, *(index for index in window if scores[index] > near_score)})
    for index in voters:
        line, score = lines[index], scores[index]
        parent = parents.get(line.element, 0)
        weight = 2 if index in near else 1
        if in_landmark is not None and in_landmark[line.element]:
            weight *= landmark_weight
        votes[parent] += 2 * score * weight
        votes[parents.get(parent, 0)] += score * weight
    return dict(votes)


def _lead_paragraphs(
    page: PageLines,
    ends: Sequence[int],
    scores: Sequence[int],
    best: int,
    chosen: set[int],
    options: Options,
    described: Callable[[Line], bool],
    headline: int | None,
) -> set[int]:
    """The elements of paragraphs that open the article outside its container: a standfirst
    or intro in a header block before the body's ``<div>``, or bare ``<p>`` siblings.

    A line after the `headline` (where there is one: above it are the page's or the blog's
    header, a description, an about-me box or a notice, never the article's lead) scoring
    over `Options.lead_score` joins (its own element only, so captions and bylines between
    stay out) when it comes before the container inside its ancestor `Options.lead_levels`
    up, or when it is a ``<p>`` right beside one of the container's
    `Options.sibling_levels` ancestors (readability's rule for sibling paragraphs). A
    shorter line joins too when the page's description quotes it (`described`): a
    standfirst of one sentence, which CMSs copy into the description. Gold that leaves
    standfirsts out scores such pages a little lower (measured: BENCHMARKS.md, "Where the
    defaults come from").
    """
    parents = page.parents
    beside = _ancestors(best, parents, options.sibling_levels)
    top = [*_ancestors(best, parents, options.lead_levels)][-1] if options.lead_levels else best
    inside = _inside_elements(chosen, ends)
    leads: set[int] = set()
    first = 0 if headline is None else headline + 1
    for index in _above(scores, 0):
        line, score = page.lines[index], scores[index]
        if (
            index >= first
            and not inside[line.element]
            and (
                top <= line.element < best  # inside `top`, which holds `best`, and before it
                or (line.tag == "p" and parents.get(line.element, 0) in beside)
            )
            and (score > options.lead_score or described(line))
        ):
            leads.add(line.element)
    return leads


NOT_STANDFIRST_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "li"})
"""Headings and list items under the headline are a dek or a summary's points: the golds
that keep a standfirst in a paragraph disagree on these."""
NOT_PROSE_BOX_RE = re.compile(
    r"caption|credit|figure|legend|date|time|byline|author|signature|meta|\bprint",
    re.IGNORECASE,
)
"""Words in the attributes of a box (or of its two nearest ancestors) that name what sits
under a headline and is not its standfirst: a photo's caption, the byline and dates, the
notice only a printout shows."""
MAX_STANDFIRST_BARS = 1
"""A line with more "|" than this is a strip of details (date | source | reading time)."""


def _standfirst(
    page: PageLines,
    ends: Sequence[int],
    scores: Sequence[int],
    headline: int | None,
    chosen: set[int],
    options: Options,
) -> set[int]:
    """The elements of the prose right under the headline before the article's elements
    start: a standfirst in a box of its own, further from the container than
    `_lead_paragraphs` looks or scoring under `Options.lead_score`.

    From the headline down, until a line of the article's elements, a link line of a
    sentence's length (another page's teaser; not a share button) or
    `Options.standfirst_lines` lines: a line scoring over `Options.paragraph_score` joins,
    unless it is a heading or a list item (`NOT_STANDFIRST_TAGS`), in a caption, byline,
    date or print box (`NOT_PROSE_BOX_RE`), a strip of details split by bars, a photo
    credit or a call to action ("join us")."""
    if headline is None or 0 in chosen:
        return set()
    lines = page.lines
    inside = _inside_elements(chosen, ends)
    found: set[int] = set()
    for index in range(headline + 1, min(len(lines), headline + 1 + options.standfirst_lines)):
        line = lines[index]
        if inside[line.element] or (
            line.chars >= options.prose_link_chars and _is_link_line(line, options)
        ):
            break
        if (
            scores[index] > options.paragraph_score
            and line.tag not in NOT_STANDFIRST_TAGS
            and line.text.count("|") <= MAX_STANDFIRST_BARS
            and not _in_a_box_named(page, line.element, NOT_PROSE_BOX_RE)
            and not _is_photo_credit(line.text, line.chars)
            and not _is_call_to_action(line.text)
        ):
            found.add(line.element)
    return found


def _in_a_box_named(page: PageLines, element: int, words: re.Pattern[str]) -> bool:
    """Whether `element` or one of its two nearest ancestors is a ``figure`` or
    ``figcaption`` or has `words` in its attributes."""
    return any(
        page.tags[box] in ("figure", "figcaption") or words.search(page.attributes.get(box, ""))
        for box in _ancestors(element, page.parents, 3).values()
    )


def _ancestors(element: int, parents: dict[int, int], levels: int) -> dict[int, int]:
    """Up to `levels` ancestors of `element` (itself first), keyed by their parents: each
    parent maps to the child on the way up."""
    found: dict[int, int] = {}
    for _ in range(levels):
        parent = parents.get(element, 0)
        found[parent] = element
        if parent == 0:
            break
        element = parent
    return found


def _sibling_sections(
    page: PageLines,
    ends: Sequence[int],
    best: int,
    mass: Sequence[int],
    scores: Sequence[int],
    headline: int | None,
    options: Options,
) -> set[int]:
    """Siblings of the container `best` or of its ancestors that hold more of the article.

    Up to `Options.sibling_levels` ancestors up, every sibling subtree holding at least
    `Options.sibling_share` of the winner's score joins (readability's sibling rule),
    unless over `Options.sibling_link_share` of its text is links (a feed of teasers,
    each a linked headline and its summary, beside a short article) or it is the article's
    header box (`_a_bare_header`: beside a short post, its deck, byline and caption reach
    the share). Up to `Options.section_levels` up, so does a sibling of the same kind as
    the ancestor beside it (same tag, same first class word: a CMS's repeated ``<section
    class="step">``), holding a paragraph's worth of text (`Options.paragraph_score`) with
    few links (`Options.section_link_share`): an article split into many small sections,
    each far under the share, loses no section. Where the page has a `headline`, a sibling
    that lists posts (`_lists_posts`) joins neither way: the headline names one post, and
    the teasers beside it are others (without one, a forum thread's or a blog's front
    page's posts may all be the text). Only the children of those ancestors are visited
    (`children`).
    """
    parents = page.parents
    near = _ancestors(best, parents, options.sibling_levels)
    far = _ancestors(best, parents, max(options.sibling_levels, options.section_levels))
    threshold = options.sibling_share * mass[best]
    link_share = _LinkShares(page)
    posts = headline is not None and "article" in page.tags
    chosen: set[int] = set()
    for parent, beside in far.items():
        for element in children(parent, ends):
            if element == beside or mass[element] <= 0:
                continue
            if posts and _lists_posts(page, ends, element):
                continue
            big = (
                parent in near
                and mass[element] >= threshold
                and link_share[element] <= options.sibling_link_share
                and not _a_bare_header(page, ends, element, scores, headline, options)
            )
            if big or (
                mass[element] > options.paragraph_score
                and link_share[element] <= options.section_link_share
                and _same_kind(page, element, beside)
            ):
                chosen.add(element)
    return chosen


MIN_LISTED_POSTS = 2
"""A box holding this many ``<article>`` elements lists posts (`_lists_posts`)."""


def _lists_posts(page: PageLines, ends: Sequence[int], element: int) -> bool:
    """Whether `element` holds `MIN_LISTED_POSTS` ``<article>`` elements: a list of other
    posts beside the article ("you may also like" cards, a feed of press releases), not a
    section of it. A page builder's section may hold one ``<article>`` (an image and text
    block); a list holds several."""
    return page.tags[element + 1 : ends[element] + 1].count("article") >= MIN_LISTED_POSTS


def _a_bare_header(
    page: PageLines,
    ends: Sequence[int],
    element: int,
    scores: Sequence[int],
    headline: int | None,
    options: Options,
) -> bool:
    """Whether `element` holds the `headline` line and no paragraph after it (no line
    scoring over `Options.paragraph_score`): an article's header box (its deck, byline,
    date and photo caption), whose prose `_standfirst` weighs line by line."""
    if headline is None:
        return False
    lines, last = page.lines, ends[element]
    if not element <= lines[headline].element <= last:
        return False
    index = headline + 1
    while index < len(lines) and element <= lines[index].element <= last:
        if scores[index] > options.paragraph_score:
            return False
        index += 1
    return True


def children(element: int, ends: Sequence[int]) -> Iterator[int]:
    """The child elements of `element` (0: the page's top-level elements), in page order:
    each child's subtree ends right before the next child (`subtree_ends`)."""
    child = element + 1
    while child <= ends[element]:
        yield child
        child = ends[child] + 1


class _LinkShares:
    """Each element's share of link characters over its whole subtree, by element id.

    The characters and link characters of every subtree are summed on first use (most
    pages ask for no share) by `subtree_scores`, over the lines' characters as their
    scores: `_sibling_sections` asks about a few siblings of the container's ancestors,
    not about each of the page's hundreds of elements."""

    def __init__(self, page: PageLines) -> None:
        self._page = page
        self._sums: tuple[list[int], list[int]] | None = None

    def __getitem__(self, element: int) -> float:
        if self._sums is None:
            lines, parents = self._page.lines, self._page.parents
            self._sums = (
                subtree_scores(lines, list(map(_LINE_CHARS, lines)), parents),
                subtree_scores(lines, list(map(_LINE_LINK_CHARS, lines)), parents),
            )
        chars, links = self._sums
        total = chars[element]
        return links[element] / total if total else 0.0


_LINE_CHARS = attrgetter("chars")
_LINE_LINK_CHARS = attrgetter("link_chars")


def _same_kind(page: PageLines, element: int, other: int) -> bool:
    """Of the same `_kind`."""
    kind = _kind(page, element)
    return kind is not None and kind == _kind(page, other)


def _kind(page: PageLines, element: int) -> tuple[str, str] | None:
    """An element's tag and first class word; None without a class (bare ``<div>``s are of
    every kind)."""
    word = _first_class_word(page.attributes.get(element, ""))
    return (page.tags[element], word) if word else None


def _first_class_word(attributes: str) -> str:
    """The first word of an element's class attribute ("" without one)."""
    for kind, value in _attribute_values(attributes):
        if kind == "class":
            words = value.split()
            return words[0] if words else ""
    return ""


def first_post(
    best: int,
    votes: Mapping[int, int],
    mass: Sequence[int],
    parents: dict[int, int],
    options: Options,
) -> int:
    """The first of a list of posts, on a page whose headline is not among its lines (its
    title names the site or blog, not one article): when at least `Options.min_posts`
    voted containers sit at the depth of the winner `best` (so none inside another), each
    holding at least `Options.post_share` of the winner's score, the page lists posts (a
    blog's front page), and the first one, not the longest, is its article."""
    known = {0: 0}
    depth = _depth(best, parents, known)
    peers = [
        element
        for element in votes
        if element
        and mass[element] >= options.post_share * mass[best]
        and _depth(element, parents, known) == depth
    ]
    if len(peers) < options.min_posts:
        return best
    return min(peers)


def _depth(element: int, parents: dict[int, int], known: dict[int, int]) -> int:
    """How many ancestors `element` has (its level in the page's element tree). `known`
    holds the depths found so far (the page's own: ``{0: 0}`` at first), and gets those
    on the way up, so that the containers of one page, deep in a broken page's unclosed
    elements, share their walk up."""
    path = []
    while element not in known:
        path.append(element)
        element = parents.get(element, 0)
    depth = known[element]
    for element in reversed(path):
        depth += 1
        known[element] = depth
    return depth


def _above(values: Sequence[int], threshold: int) -> Iterable[int]:
    """The indices of `values` over `threshold`, in order, picked out without a Python step
    per value (a page's lines mostly score below any threshold the selection asks). In C
    (``_blockscan.indices_over``) where built."""
    if native.blockscan is None:
        return _above_python(values, threshold)
    found: list[int] = native.blockscan.indices_over(values, threshold)
    return found


def _above_python(values: Sequence[int], threshold: int) -> Iterator[int]:
    """`_above` in Python: the reference of the C one, and the fallback."""
    return compress(range(len(values)), map(lt, repeat(threshold), values))


def subtree_scores(
    lines: Sequence[Line], scores: Sequence[int], parents: dict[int, int]
) -> list[int]:
    """Each element's summed positive line score over its whole subtree, by element id.

    Ids grow in document order, so a parent's id is below its children's: one pass from
    the highest id down adds every element's total to its parent's. In C
    (``_blockscan.subtree_scores``) where built: a pass over every element.
    """
    if native.blockscan is None:
        return _subtree_scores_python(lines, scores, parents)
    mass: list[int] = native.blockscan.subtree_scores(lines, scores, parents)
    return mass


def _subtree_scores_python(
    lines: Sequence[Line], scores: Sequence[int], parents: dict[int, int]
) -> list[int]:
    """`subtree_scores` in Python: the reference of the C one, and the fallback."""
    mass = [0] * (len(parents) + 1)
    for index in _above(scores, 0):
        mass[lines[index].element] += scores[index]
    for element in range(len(parents), 0, -1):
        if mass[element]:
            mass[parents[element]] += mass[element]
    return mass


def subtree_ends(parents: dict[int, int]) -> list[int]:
    """By element id (0: the page): the highest id in the element's subtree.

    Ids grow in document order and an element's descendants come right after it, so a
    subtree is the range of ids from the element to its end: a test for being inside an
    element and a sum over its subtree need no walk up each element's ancestors. One pass
    from the highest id down: an element's end is its last child's. In C
    (``_blockscan.subtree_ends``) where built."""
    if native.blockscan is None:
        return _subtree_ends_python(parents)
    ends: list[int] = native.blockscan.subtree_ends(parents)
    return ends


def _subtree_ends_python(parents: dict[int, int]) -> list[int]:
    """`subtree_ends` in Python: the reference of the C one, and the fallback."""
    ends = list(range(len(parents) + 1))
    for element in range(len(parents), 0, -1):
        parent = parents[element]
        if ends[parent] < ends[element]:
            ends[parent] = ends[element]
    return ends


def _inside_elements(chosen: set[int], ends: Sequence[int]) -> list[bool]:
    """By element id: whether the element is one of `chosen` or lies inside one (``{0}``:
    the whole page). Each chosen subtree is one slice (`subtree_ends`), in id order, and
    one inside another already marked is skipped, so no id is marked twice."""
    if 0 in chosen:
        return [True] * len(ends)
    inside = [False] * len(ends)
    marked_to = 0
    for element in sorted(chosen):
        if element > marked_to:
            marked_to = ends[element]
            inside[element : marked_to + 1] = [True] * (marked_to + 1 - element)
    return inside


def select(
    page: PageLines,
    title: str,
    options: Options,
    description: str = "",
    ingredients: Sequence[str] = (),
) -> Selection:
    """Score the lines, take the best region, keep its body lines; explain every line.

    `title` is the headline (its line is dropped); `description` is the page's description
    meta, whose quoted short lines count as body (`Options.description_weight`);
    `ingredients` are a recipe's, from its JSON-LD (`_ingredient_lines`).
    """
    lines = page.lines
    plain_title = "".join(title.split())
    headline = _headline_index(lines, plain_title)
    marks = landmarks(page)
    noisy = boilerplate_elements(page, options, marks, headline)
    described = _quoted_by(description)
    dropped, scores = _score_lines(lines, noisy, options, described)
    ends = subtree_ends(page.parents)
    container, chosen = main_elements(page, ends, scores, headline, marks, options, described)
    for index in _ingredient_lines(lines, dropped, ingredients):
        scores[index] = max(scores[index], options.description_weight * lines[index].chars)
        chosen.add(_enclosing_list(page, lines[index].element))
    inside_element: list[bool] = _inside_elements(chosen, ends)
    region = _region_over(lines, scores, inside_element, options)
    region = _region_holding_container(
        lines, scores, inside_element, options, region, container, ends
    )
    region = _region_back_to_lead(lines, scores, inside_element, headline, region, options)
    kept_rule = "in the best region"
    short_page = region is None and bool(lines) and _line_chars(lines) < options.short_page_chars
    if short_page:
        kept_rule = f"short page: all its text (< {options.short_page_chars} chars)"
        link_rule = _link_rule(options)
        dropped = [None if rule == link_rule else rule for rule in dropped]
        inside_element = [True] * len(inside_element)
        region = (0, len(lines) - 1)
    if region is not None and not short_page:
        region = _without_comment_thread(lines, dropped, region)
        _drop_closing_calls(lines, dropped, inside_element, region)
    decider = _Decider(lines, dropped, scores, inside_element, region, plain_title, kept_rule)
    table = DecisionTable(
        len(lines), decider, decider.kept(_may_keep(lines, dropped, inside_element, region))
    )
    kept_lines = table.kept
    reason = None
    if not kept_lines:
        reason = "no text lines" if not lines else "no line scores as body text"
    return Selection(
        kept_lines,
        table,
        reason,
        _evidence(
            page,
            kept_lines,
            scores,
            dropped,
            headline,
            short_page,
            len(chosen),
            description,
            options,
        ),
    )


def _region_back_to_lead(
    lines: Sequence[Line],
    scores: Sequence[int],
    inside_element: Sequence[bool],
    headline: int | None,
    region: tuple[int, int] | None,
    options: Options,
) -> tuple[int, int] | None:
    """`region` reaching back to the first paragraph of the article's elements after the
    `headline` (a line scoring over `Options.paragraph_score`) when no line between scores
    as text outside them: a standfirst that joined the article stays with it across the
    byline, date and share bar between (each scored against the region by its chars), as
    it would with nothing between. A line outside the article's elements that scores as
    text (a teaser, another post) stops the reach."""
    if region is None or headline is None or region[0] <= headline:
        return region
    start = region[0]
    for index in range(region[0] - 1, headline, -1):
        if inside_element[lines[index].element]:
            if scores[index] > options.paragraph_score:
                start = index
        elif scores[index] > 0:
            break
    return start, region[1]


def _may_keep(
    lines: Sequence[Line],
    dropped: Sequence[str | None],
    inside_element: Sequence[bool],
    region: tuple[int, int] | None,
) -> list[int]:
    """The indices of the lines `_decide` may keep: in the `region`, dropped by no rule,
    inside the article's elements (the headline among them)."""
    if region is None:
        return []
    return [
        index
        for index in range(region[0], region[1] + 1)
        if dropped[index] is None and inside_element[lines[index].element]
    ]


def _evidence(
    page: PageLines,
    kept: Sequence[LineDecision],
    scores: Sequence[int],
    dropped: Sequence[str | None],
    headline: int | None,
    short_page: bool,
    elements: int,
    description: str,
    options: Options,
) -> Evidence:
    """The `Evidence` of a decision: `kept` lines, every line's score and drop rule, the
    number of the article's elements, and the page's description."""
    lines = page.lines
    page_score, page_chars, containers = _page_evidence(
        lines, scores, dropped, page.parents, options.paragraph_score
    )
    body_score = sum(max(scores[line.number - 1], 0) for line in kept)
    skipped = 0
    if headline is not None and kept:
        skipped = sum(
            lines[index].chars
            for index in range(headline + 1, kept[0].number - 1)
            if scores[index] > 0 and dropped[index] is None
        )
    kept_lines = [lines[decision.number - 1] for decision in kept]
    region_chars = 0
    if kept:
        region_chars = _line_chars(lines[kept[0].number - 1 : kept[-1].number])
    return Evidence(
        body_score,
        page_score,
        headline is not None,
        skipped,
        short_page,
        sum(line.chars for line in kept_lines),
        sum(line.link_chars for line in kept_lines),
        sum(line.chars for line in kept_lines if line.punctuation),
        region_chars,
        page_chars,
        containers,
        elements,
        _described_share(description, kept),
    )


def _page_evidence(
    lines: Sequence[Line],
    scores: Sequence[int],
    dropped: Sequence[str | None],
    parents: dict[int, int],
    paragraph_score: int,
) -> tuple[int, int, int]:
    """What `Evidence` reads of every line: the summed score of the lines over 0 that no
    rule drops, the chars of all the lines, and how many containers (parents of the
    lines' elements) hold a line scoring over `paragraph_score`. In C
    (``_blockscan.page_evidence``) where built: one pass over the lines."""
    if native.blockscan is None:
        return _page_evidence_python(lines, scores, dropped, parents, paragraph_score)
    evidence: tuple[int, int, int] = native.blockscan.page_evidence(
        lines, scores, dropped, parents, paragraph_score
    )
    return evidence


def _page_evidence_python(
    lines: Sequence[Line],
    scores: Sequence[int],
    dropped: Sequence[str | None],
    parents: dict[int, int],
    paragraph_score: int,
) -> tuple[int, int, int]:
    """`_page_evidence` in Python: the reference of the C one, and the fallback."""
    page_score = sum(scores[index] for index in _above(scores, 0) if dropped[index] is None)
    containers = {parents.get(lines[index].element, 0) for index in _above(scores, paragraph_score)}
    return page_score, _line_chars_python(lines), len(containers)


DESCRIPTION_PIECE = 4
"""The length of the pieces of the description looked for in the body: long enough not to
match by chance in a body of any script, short enough for a paraphrase to share some."""
MAX_DESCRIPTION_PIECES = 40


def _described_share(description: str, kept: Sequence[LineDecision]) -> float:
    """The share of the description's first `MAX_DESCRIPTION_PIECES` pieces that the kept
    lines' text holds. The pieces are its words cut into `DESCRIPTION_PIECE` characters (a
    Chinese description is one long word; a shorter word or tail is left out). Case is
    kept: a description copies the article's words as written, and lowercasing the body
    would cost more than the rest of the evidence."""
    step = DESCRIPTION_PIECE
    pieces = [
        word[start : start + step]
        for word in description.split()
        for start in range(0, len(word) - step + 1, step)
    ][:MAX_DESCRIPTION_PIECES]
    if not pieces or not kept:
        return 0.0
    text = "\n".join([line.text for line in kept])
    return sum(piece in text for piece in pieces) / len(pieces)


LineScores = tuple[list[str | None], list[int]]
"""Per line the rule that drops it (None: kept so far) and its score."""


def _headline_index(lines: Sequence[Line], plain_title: str) -> int | None:
    """The index of the headline line: the first whose text, whitespace removed, is
    `plain_title` and that is not mostly a link (a sidebar's list of recent posts links to
    the post under its headline), else the first such link."""
    first = None
    for index in _lines_of_chars(lines, len(plain_title)):
        line = lines[index]
        if _is_headline(line, plain_title):
            if line.link_chars * 2 <= line.chars:
                return index
            if first is None:
                first = index
    return first


def _lines_of_chars(lines: Sequence[Line], chars: int) -> list[int]:
    """The indices of the lines of `chars` characters. In C (``_blockscan.lines_of_chars``)
    where built: a pass over every line."""
    if native.blockscan is None:
        return _lines_of_chars_python(lines, chars)
    found: list[int] = native.blockscan.lines_of_chars(lines, chars)
    return found


def _lines_of_chars_python(lines: Sequence[Line], chars: int) -> list[int]:
    """`_lines_of_chars` in Python: the reference of the C one, and the fallback."""
    return [index for index, line in enumerate(lines) if line.chars == chars]


def _line_chars(lines: Sequence[Line]) -> int:
    """The characters of all `lines`. In C (``_blockscan.line_chars``) where built: a pass
    over every line."""
    if native.blockscan is None:
        return _line_chars_python(lines)
    chars: int = native.blockscan.line_chars(lines)
    return chars


def _line_chars_python(lines: Sequence[Line]) -> int:
    """`_line_chars` in Python: the reference of the C one, and the fallback."""
    return sum(line.chars for line in lines)


def _score_lines(
    lines: Sequence[Line], noisy: set[int], options: Options, described: Callable[[Line], bool]
) -> LineScores:
    """Rule 1 of the module docstring for every line (`described`: `_quoted_by` the page's
    description). The lines of boilerplate elements (menus and sidebars: most lines of a
    news page) are dropped first, in one pass over the lines (`_element_drops`); only the
    others get a Python step each."""
    link_rule = _link_rule(options)
    dropped, scores, candidates = _element_drops(lines, noisy)
    by_text = _boilerplate_lines(lines, candidates)
    for index in candidates:
        line = lines[index]
        reason = by_text.get(index)
        if reason is None and line.link_chars and _is_link_line(line, options):
            reason = link_rule
        if reason is None:
            score = line_score(line, False, options)
            if score <= 0 and described(line):
                score = options.description_weight * line.chars
            scores[index] = score
        dropped[index] = reason
    return dropped, scores


ELEMENT_RULE = "boilerplate element: "
"""The rule of a line in a boilerplate element, followed by the element's noise word."""


def _element_drops(
    lines: Sequence[Line], noisy: set[int]
) -> tuple[list[str | None], list[int], list[int]]:
    """Per line, its `ELEMENT_RULE` when its noise element is `noisy` (else None) and its
    score as a dropped line (`line_score`: minus its chars); and the indices of the lines
    not dropped. In C (``_blockscan.element_drops``) where built."""
    if native.blockscan is None:
        return _element_drops_python(lines, noisy)
    drops: tuple[list[str | None], list[int], list[int]] = native.blockscan.element_drops(
        lines, noisy, ELEMENT_RULE
    )
    return drops


def _element_drops_python(
    lines: Sequence[Line], noisy: set[int]
) -> tuple[list[str | None], list[int], list[int]]:
    """`_element_drops` in Python: the reference of the C one, and the fallback."""
    dropped: list[str | None] = [
        f"{ELEMENT_RULE}{line.noise}" if line.noise_element in noisy else None for line in lines
    ]
    scores = [-line.chars for line in lines]
    candidates = [at for at, rule in enumerate(dropped) if rule is None]
    return dropped, scores, candidates


CALL_TO_ACTION_RE = re.compile(
    r"subscri(?:be|ber|ption)|newsletter|sign(?:ing)?\s+up|follow\s+(?:us|the|@)"
    r"|download\b.{0,40}\bapps?\b|\bapps?\b.{0,20}\bdownload|letters?\s+to\s+the\s+editor"
    r"|abonn(?:ier|ez|ement)|suscr[ií]b|únete|join\s+us"
    r"|(?:canal|channel|kanal)\b.{0,30}\b(?:youtube|telegram|whatsapp)",
    re.IGNORECASE,
)
"""What a call to action says (subscribe, our newsletter, sign up, follow us, get our app,
write a letter to the editor, join our channel), in the languages of the dev sets."""
MAX_CALL_CHARS = 250
"""A call to action is a line or two; a longer line is the article's own paragraph."""
CLOSING_CALLS = "call to action at the article's end"


def _without_comment_thread(
    lines: Sequence[Line], dropped: list[str | None], region: tuple[int, int]
) -> tuple[int, int]:
    """`region` up to the reader comments that close it (`comment_thread`), their lines
    dropped in `dropped` with that rule."""
    start = comment_thread.thread_start(lines, region)
    if start is None:
        return region
    for index in range(start, region[1] + 1):
        if dropped[index] is None:
            dropped[index] = comment_thread.COMMENT_THREAD
    return region[0], start - 1


def _drop_closing_calls(
    lines: Sequence[Line],
    dropped: list[str | None],
    inside: Sequence[bool],
    region: tuple[int, int],
) -> None:
    """Drop the run of calls to action that closes the `region` (in `dropped`, in place).

    Sites end an article with a plea to subscribe, follow them or get their app, in the
    article's own box and styled as its paragraphs, so nothing but its words sets it apart.
    Only the closing run goes, and never the region's first line: the same words inside
    the article, or as the whole of a one-line post, are its subject. The cost: an article
    that really ends on such a sentence (a post about a subscription service) loses it.
    """
    for index in range(region[1], region[0], -1):
        line = lines[index]
        if dropped[index] is not None or not inside[line.element]:
            continue
        if line.chars <= MAX_CALL_CHARS and _is_call_to_action(line.text):
            dropped[index] = CLOSING_CALLS
        else:
            return


CALL_TO_ACTION_HINTS = (
    "subscri", "newsletter", "sign", "follow", "app", "letter", "abonn", "suscr", "únete",
    "join", "canal", "channel", "kanal",
)  # fmt: skip
"""A word of each `CALL_TO_ACTION_RE` alternative, in lower case: substring tests are a
fraction of the regex's cost, and most closing lines have none of them."""


def _is_call_to_action(text: str) -> bool:
    lower = text.lower()
    return any(hint in lower for hint in CALL_TO_ACTION_HINTS) and bool(
        CALL_TO_ACTION_RE.search(text)
    )


def _link_rule(options: Options) -> str:
    return f"link line: link share > {options.max_link_share}"


def _is_boilerplate_line(text: str) -> bool:
    """A credit or statement line (`BOILERPLATE_LINE_RE`), or an ad slot's label alone
    (`AD_LABELS`)."""
    return (
        BOILERPLATE_LINE_RE.search(text) is not None
        or text.strip(AD_LABEL_MARKS).casefold() in AD_LABELS
    )


@dataclass(frozen=True, slots=True)
class _Decider:
    """Builds one line's `LineDecision` from what `select` worked out for all of them."""

    lines: Sequence[Line]
    dropped: Sequence[str | None]
    scores: Sequence[int]
    inside_element: Sequence[bool]
    region: tuple[int, int] | None
    plain_title: str
    kept_rule: str

    def __call__(self, index: int) -> LineDecision:
        line = self.lines[index]
        first, last = self.region or (-1, -1)
        kept, rule = _decide(
            index,
            line,
            self.dropped[index],
            self.inside_element[line.element],
            self.region,
            self.plain_title,
            self.kept_rule,
        )
        return _new_decision(
            LineDecision,
            (
                index + 1,
                line.text,
                _features(line, self.scores[index]),
                1 if first <= index <= last else None,
                kept,
                rule,
            ),
        )

    def kept(self, candidates: Iterable[int]) -> tuple[LineDecision, ...]:
        """The decisions of the `candidates` (`_may_keep`: in the region, dropped by no
        rule, inside the article's elements) that `_decide` keeps: all but the headline,
        built without a `_decide` call each."""
        lines, scores, title, rule = self.lines, self.scores, self.plain_title, self.kept_rule
        return tuple(
            _new_decision(
                LineDecision, (index + 1, line.text, _features(line, scores[index]), 1, True, rule)
            )
            for index in candidates
            if not _is_headline(line := lines[index], title)
        )


_new_decision = tuple.__new__
"""How `_Decider` makes a `LineDecision`: the tuple's constructor, without the Python call
of the NamedTuple's own (built for every kept line, and every line of an explained page)."""


def _ingredient_lines(
    lines: Sequence[Line], dropped: Sequence[str | None], ingredients: Sequence[str]
) -> list[int]:
    """The indices of lines that the recipe's JSON-LD ``recipeIngredient`` list quotes.

    An ingredient list is a run of short lines ("65 g Butter") in its own box beside the
    steps: it scores like a menu and sits outside the container the steps vote for, so a
    recipe would lose it (measured: BENCHMARKS.md, "Where the defaults come from"). The
    page's own statement of what its ingredients are makes them the article's: they count
    as body (`Options.description_weight`) and their list joins the article's elements.
    """
    if not ingredients:
        return []
    quoted = _quoted_by("\n".join(ingredients))
    return [
        index
        for index, (line, rule) in enumerate(zip(lines, dropped, strict=True))
        if rule is None and quoted(line)
    ]


LIST_TAGS = frozenset({"ul", "ol", "dl", "table"})
LIST_LEVELS = 3
"""How far up from an item's element its list is looked for (``li > label > span``)."""


def _enclosing_list(page: PageLines, element: int) -> int:
    """The list or table around `element` (`LIST_LEVELS` up at most), else `element`
    itself: the whole ingredient list joins, with items too short to be matched ("3 eggs")."""
    found = element
    for _ in range(LIST_LEVELS):
        found = page.parents.get(found, 0)
        if found == 0:
            break
        if page.tags[found] in LIST_TAGS:
            return found
    return element


def _quoted_by(description: str) -> Callable[[Line], bool]:
    """A test: is a line (not a link line, at least `MIN_QUOTED_CHARS` long) quoted in the
    description? CMSs fill the description with the article's opening words, and cut it
    short with "…" where the line ends its sentence: the line's closing mark need not be
    quoted (a paragraph whose full stop the description replaced with "…" still counts)."""
    plain = "".join(description.split())

    def quoted(line: Line) -> bool:
        return (
            bool(plain)
            and line.chars >= MIN_QUOTED_CHARS
            and line.link_chars * 2 <= line.chars
            and "".join(line.text.split()).rstrip(SENTENCE_ENDS) in plain
        )

    return quoted


def _is_headline(line: Line, plain_title: str) -> bool:
    return line.chars == len(plain_title) and "".join(line.text.split()) == plain_title


def _is_link_line(line: Line, options: Options) -> bool:
    """Mostly link text, unless its own text is a sentence (`Options.prose_link_chars`):
    a summary led by a linked headline, or a paragraph whose linked names carry hover
    cards, is prose with links in it. Own text made mostly of marks is no sentence but the
    separators of a link list (`SEPARATOR_SHARE`)."""
    own_chars = line.chars - line.link_chars
    return line.link_chars > options.max_link_share * line.chars and (
        own_chars < options.prose_link_chars
        or not line.punctuation
        or line.punctuation > SEPARATOR_SHARE * own_chars
    )


STATEMENT_RULE = "boilerplate line: credit/statement"
PHOTO_CREDIT_RULE = "boilerplate line: photo credit"


def _boilerplate_lines(lines: Sequence[Line], indices: Sequence[int]) -> dict[int, str]:
    """The lines at `indices` whose own text is boilerplate (a credit or statement, a
    photo credit), by index, with the rule; lines in a boilerplate element are dropped for
    it first (`_score_lines`). The short lines holding a word of each kind's patterns
    (`STATEMENT_NEEDLES`, `CREDIT_NEEDLES`) are found in one pass over them all
    (`needles.texts_holding`), and only those are given the patterns."""
    short = [index for index in indices if lines[index].chars <= MAX_BOILERPLATE_LINE]
    texts = [lines[index].text for index in short]
    statements, credits = texts_holding(texts, (STATEMENT_NEEDLES, CREDIT_NEEDLES))
    rules = {short[at]: STATEMENT_RULE for at in statements if _is_boilerplate_line(texts[at])}
    rules.update(
        (short[at], PHOTO_CREDIT_RULE)
        for at in credits
        if short[at] not in rules and _is_photo_credit(texts[at], lines[short[at]].chars)
    )
    return rules


def _is_photo_credit(text: str, chars: int) -> bool:
    """A caption of `chars` chars ending in its credit (`CAPTION_CREDIT_RE`), or a line of
    at most `MAX_CREDIT_LINE` chars with `CREDIT_LABEL_RE` (tried only on lines with a colon:
    the test for one is a tenth of the regex's cost), a © or `CREDIT_MARK_RE`."""
    if text.rstrip().endswith(")") and CAPTION_CREDIT_RE.search(text):
        return True
    if chars > MAX_CREDIT_LINE:
        return False
    if ":" in text and CREDIT_LABEL_RE.search(text):
        return True
    return "©" in text or CREDIT_MARK_RE.search(text) is not None


def _decide(
    index: int,
    line: Line,
    dropped_by: str | None,
    inside: bool,
    region: tuple[int, int] | None,
    plain_title: str,
    kept_rule: str,
) -> tuple[bool, str]:
    """Kept or dropped, and by which rule; `dropped_by` names a boilerplate or link rule."""
    if dropped_by is not None:
        return False, dropped_by
    if region is None:
        return False, "no body region"
    if not inside:
        return False, "outside the article's elements"
    if not region[0] <= index <= region[1]:
        return False, "outside the best region"
    if _is_headline(line, plain_title):
        return False, "headline"
    return True, kept_rule


def _features(line: Line, score: int) -> dict[str, int | float | bool]:
    return {
        "chars": line.chars,
        "link_chars": line.link_chars,
        "punctuation": line.punctuation,
        "score": score,
        "element": line.element,
        "noise_element": line.noise_element,
    }
