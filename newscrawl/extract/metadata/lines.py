"""The page as visible text lines, and the header region around the headline.

Visible-text evidence (byline dates, 作者/来源 lines) is only trusted near the headline:
sidebars, "recommended" lists and comments carry dates and names of *other* articles.
So `visible_lines` drops the lines of such boxes, and
`header_window` keeps only the few lines around the title, before the body starts.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, count, groupby, repeat
from operator import attrgetter, contains, eq, or_
from typing import NamedTuple

from newscrawl.extract import native
from newscrawl.extract.blocks import (
    HEADING_TAGS,
    OTHER_SCRIPT_PUNCTUATION,
    Line,
    PageLines,
    has_spaced_script_break,
)
from newscrawl.extract.needles import CASE_FOLDS_TO_ASCII
from newscrawl.extract.title import folded, spells_site, two_parts_of

OTHER_CONTENT_WORDS = frozenset(
    {
        "aside",
        "comment",
        "footer",
        "hot",
        "nav",
        "rank",
        "recommend",
        "related",
        "reply",
        "sidebar",
        "热门",
        "排行",
        "推荐",
        "相关",
        "留言",
        "评论",
    }
)
"""The body pass's boilerplate words (`blocks.NOISE_WORD_RE`, nearest box) that mark a box
about *other* content, whose dates (in lines and in dated tags) and names are not this
article's. Share bars, toolbars and breadcrumbs are boilerplate for the body but may hold
the byline, so they stay."""
_SPACE_RE = re.compile(r"[\s\u3000\xa0]+")
TITLE_SEPARATOR_RE = re.compile(r"(?:(?<!\s)|(?!\s))(?:\s*+(?:[_|｜]|--|—)\s*+|\s++-\s++)")
"""Separators between a <title>'s headline and the site name ("标题_新浪网", "标题 - 网易").
Never tried inside a run of spaces, its repeats possessive: linear in the title's length."""
HEADER_LINES_BEFORE = 3
HEADER_LINES_AFTER = 12
HEADER_CHARS_AFTER = 600
"""How far past the headline a byline may sit (CSDN's and Sina's are within 5 lines)."""
MIN_TITLE_CHARS = 6
"""Shorter heading lines are logos and site names ("某某新闻网"), not headlines."""
OPENING_CHARS = 12
"""How many of a heading's first characters are looked for in the <title> (`_opens_in`):
a title may go on otherwise after the headline's opening (cut short, or reworded)."""
DIRECT_OPENING_TESTS = 64
"""Up to this many headings, each is looked for in the <title> by a substring search; past
it, in the set of the title's windows (`_title_windows`), built once: a page of thousands
of headings under a long title then costs their number, not its product with the title's
length."""
MAX_LINE_CHARS = 2000
"""Metadata reads this much of a line: bylines, headlines and credits are short, and a
megabyte-long line of junk must not cost every per-line pattern a megabyte of search."""
BODY_LINE_CHARS = 90
"""A line this long with sentence punctuation is body text: the header region ends there."""
BODY_MARKS_RE = re.compile(f"[。，{re.escape(OTHER_SCRIPT_PUNCTUATION)}]|[.,] ")
"""A sentence's end or comma: Chinese ("。" "，"), Latin before a space ("by …" in an
English lead is prose), or the marks of the other scripts that have their own (Arabic "،",
the Indic danda "।" …: `blocks.OTHER_SCRIPT_PUNCTUATION`). Not the colon or the
enumeration comma, which Chinese bylines use ("来源：… 作者：…")."""


class VisibleLine(NamedTuple):
    """One visible text line; `heading` when it comes from an h1-h3. A tuple: a page makes
    hundreds, and a frozen dataclass takes three times as long to build."""

    text: str
    heading: bool
    tag: str
    linked: bool = False
    """Whether the body line it comes from holds link text (a part of a line split at its
    soft breaks takes the whole line's)."""


_new_line = tuple.__new__
"""How `visible_lines` makes a `VisibleLine`: the tuple's constructor, without the Python
call of the NamedTuple's own."""
_TEXT = attrgetter("text")
_ELEMENT = attrgetter("element")
_TAG = attrgetter("tag")
_HEADING = attrgetter("heading")
_LINKED = attrgetter("linked")
_CHARS = attrgetter("chars")
_BOX = attrgetter("noise_element", "noise")


def visible_lines(page: PageLines, other_content: set[int]) -> list[VisibleLine]:
    """The body pass's lines (`blocks.page_lines`, so the page is scanned once for both)
    as metadata sees them: lines inside boxes about other content (`other_content`) left
    out, a ``<br>`` break (kept inside a body line) starting a line of its own, as bylines
    are often set one field per ``<br>``, and each line cut at `MAX_LINE_CHARS`. In C
    (``_blockscan.visible_lines``) where built."""
    if native.blockscan is None:
        return _visible_lines_python(page, other_content)
    visible: list[VisibleLine] = native.blockscan.visible_lines(
        page.lines, other_content, HEADING_TAGS, MAX_LINE_CHARS, VisibleLine
    )
    return visible


def _visible_lines_python(page: PageLines, other_content: set[int]) -> list[VisibleLine]:
    """`visible_lines` in Python: the reference of the C one, and the fallback. Built a
    column at a time with ``map`` and ``str.split``, without a Python step per line (a
    third less time than a loop over the lines)."""
    lines = page.lines
    if other_content:
        lines = [line for line in lines if line.noise_element not in other_content]
    if not lines:
        return []
    texts = list(map(_TEXT, lines))
    tags = list(map(_TAG, lines))
    linked = [line.link_chars > 0 for line in lines]
    parts = "\n".join(texts).split("\n")
    if len(parts) != len(texts):  # a line with soft breaks: its tag for each of its parts
        counts = [text.count("\n") + 1 for text in texts]
        tags = list(chain.from_iterable(map(repeat, tags, counts)))
        linked = list(chain.from_iterable(map(repeat, linked, counts)))
    if max(map(len, parts), default=0) > MAX_LINE_CHARS:
        parts = [part[:MAX_LINE_CHARS] for part in parts]
    headings = map(HEADING_TAGS.__contains__, tags)
    return list(
        map(_new_line, repeat(VisibleLine), zip(parts, headings, tags, linked, strict=True))
    )


def other_content_boxes(page: PageLines) -> set[int]:
    """The boxes about other content: elements named by an `OTHER_CONTENT_WORDS` word,
    unless one holds most of the page's text as the nearest box of its lines: that is a
    page-wide wrapper (``<body class="nav-no-loaded">``), not a sidebar."""
    if native.blockscan is None:
        total, chars = _box_chars_python(page.lines, OTHER_CONTENT_WORDS)
    else:
        total, chars = native.blockscan.box_chars(page.lines, OTHER_CONTENT_WORDS)
    boxes = {element for element, held in chars.items() if held * 2 <= total}
    boxes.update(
        tag.noise_element
        for tag in page.dated
        if tag.noise in OTHER_CONTENT_WORDS and tag.noise_element not in chars
    )
    return boxes


def holds_a_title_heading(page: PageText, page_title: str) -> bool:
    """Whether one of the page's (visible) headings opens the <title> (`_opens_in`, `folded`
    alike): the headline test of `title_index`."""
    headline, masthead = _title_heading(page.texts, page.headings, page_title, frozenset(), folded)
    return headline is not None or masthead is not None


def headline_boxes(headings: Sequence[Line], page_title: str, boxes: set[int]) -> set[int]:
    """Of the other-content `boxes`, those around a heading (of the page's `headings`,
    `blocks.heading_lines`) that opens the <title> (`_opens_in`, `folded` alike), where no
    such heading is outside them: the box that holds the article's only headline
    is the article's, whatever its name says of the layout (``has-sidebar``,
    ``content-sidebar-wrap``, ``main-sidebar-container``). Where the headline is outside
    them, a copy inside is a list of other posts."""
    opens = _opening_test(folded(page_title), folded, len(headings))
    held = [line.noise_element for line in headings if opens(line.text)]
    if not held or any(box not in boxes for box in held):
        return set()
    return set(held)


def lines_in(lines: Sequence[Line], elements: set[int]) -> list[int]:
    """The indices of the `lines` whose element is one of `elements`. In C
    (``_blockscan.lines_in``) where built: a pass over every line of the page, where
    Python's own took half the byline work."""
    if native.blockscan is None:
        return lines_in_python(lines, elements)
    found: list[int] = native.blockscan.lines_in(lines, elements)
    return found


def lines_in_python(lines: Sequence[Line], elements: set[int]) -> list[int]:
    """`lines_in` in Python: the reference of the C one, and the fallback."""
    return list(compress(count(), map(elements.__contains__, map(_ELEMENT, lines))))


def without_quotations(page: PageLines) -> PageLines:
    """The page without the lines inside ``<blockquote>``s: a quotation or an embedded post
    (a tweet, a Facebook post) names its own writer and date, not the article's ("Posted by
    SPÖ on Monday, February 7, 2022" in an embedded Facebook post). Elements come in page
    order, each after its parent: a blockquote's subtree is the run of elements after it
    whose parents are in it, and each element is looked at once."""
    tags = page.tags
    if "blockquote" not in tags:
        return page
    parents = page.parents
    quoted: set[int] = set()
    for start in compress(count(), map(eq, tags, repeat("blockquote"))):
        if start in quoted:
            continue
        quoted.add(start)
        for element in range(start + 1, len(tags)):
            if parents.get(element) not in quoted:
                break
            quoted.add(element)
    dropped = lines_in(page.lines, quoted)
    if not dropped:
        return page
    kept: list[Line] = []
    start = 0
    for index in dropped:  # in page order: the lines between them are kept a slice at a time
        kept += page.lines[start:index]
        start = index + 1
    kept += page.lines[start:]
    return page._replace(lines=kept)


def _box_chars_python(lines: Sequence[Line], words: frozenset[str]) -> tuple[int, dict[int, int]]:
    """The chars of all `lines`, and per noise element the chars of the lines whose noise
    word is in `words`: the reference of ``_blockscan.box_chars``, and the fallback. A
    box's lines come one after another, so they are summed a run at a time."""
    chars: dict[int, int] = {}
    for (element, word), run in groupby(lines, _BOX):
        if word in words:
            chars[element] = chars.get(element, 0) + sum(map(_CHARS, run))
    return sum(map(_CHARS, lines)), chars


def title_index(
    page: PageText, lines: list[VisibleLine], page_title: str, sites: frozenset[str] = frozenset()
) -> int | None:
    """Index of the headline line: an h1-h3 that the <title> starts with, the first that
    does not spell one of the site's names `sites` (`title.site_names`: a blog's masthead,
    "Dorf on Law" for dorfonlaw.org); where a lower heading is the other part of the
    <title> with it ("Blog: Post", `title.two_parts_of`), that lower one. A heading the
    <title> holds only in other case or with ASCII quotes and dashes (`title.folded`:
    "Finding your …", "Melaka - Why It's") counts where none matches as written (a
    masthead's words recur in lower case in many titles). Else the longest line that is
    part of the <title> or holds its first segment (old table layouts have no h1, and a
    post's title may be no heading under a masthead that is one); else the masthead; else
    the first h1. Only the headings, and the lines that the <title> holds or that hold its
    segment (picked by substring tests in ``map``), get a Python step. `page` is `lines`'
    `PageText`."""
    title = _SPACE_RE.sub(" ", page_title).strip()
    segment = TITLE_SEPARATOR_RE.split(title, maxsplit=1)[0].strip()
    texts, headings = page.texts, page.headings
    headline, masthead = _title_heading(texts, headings, title, sites, str)
    if headline is None:
        headline, folded_masthead = _title_heading(texts, headings, title, sites, folded)
        masthead = folded_masthead if masthead is None else masthead
    if headline is not None:
        return headline
    candidates = map(contains, repeat(title), texts)
    if len(segment) >= 6:
        candidates = map(or_, candidates, map(contains, texts, repeat(segment)))
    best: tuple[bool, bool, int] | None = None
    best_at: int | None = None
    for i in compress(count(), candidates):
        text = texts[i]
        matches = (len(text) >= 6 and text in title) or (
            len(segment) >= 6 and segment in text and len(text) <= 2 * len(segment) + 10
        )
        # A copy of the whole <title> (hidden share data) ranks below the headline proper.
        key = (text != title, title.startswith(text), len(text))
        if matches and (best is None or key > best):
            best, best_at = key, i
    if best_at is not None:
        return best_at
    if masthead is not None:
        return masthead
    return next((i for i in headings if lines[i].tag == "h1"), None)


def _title_heading(
    texts: Sequence[str],
    headings: Sequence[int],
    title: str,
    sites: frozenset[str],
    fold: Callable[[str], str],
) -> tuple[int | None, int | None]:
    """The first heading whose first `OPENING_CHARS` characters the <title> holds, `fold`ed
    alike, that does not spell a site name (or the lower of two title parts,
    `two_parts_of`), and the first that does (a masthead)."""
    masthead: int | None = None
    opens = _opening_test(fold(title), fold, len(headings))
    for i in headings:
        text = texts[i]
        if opens(text):
            if not spells_site(text, sites):
                lower = (j for j in headings if j > i and two_parts_of(text, texts[j], title))
                return next(lower, i), masthead
            if masthead is None:
                masthead = i
    return None, masthead


def _opening_test(
    folded_title: str, fold: Callable[[str], str], headings: int
) -> Callable[[str], bool]:
    """`_opens_in` for `headings` headings against one `fold`ed <title>: past
    `DIRECT_OPENING_TESTS` headings, by the title's windows (`_title_windows`)."""
    if headings <= DIRECT_OPENING_TESTS:
        return lambda heading: _opens_in(heading, folded_title, fold)
    windows = _title_windows(folded_title)

    def opens(heading: str) -> bool:
        if len(heading) < MIN_TITLE_CHARS:
            return False
        opening = fold(heading[:OPENING_CHARS])
        if MIN_TITLE_CHARS <= len(opening) <= OPENING_CHARS:
            return opening in windows
        return opening in folded_title

    return opens


def _title_windows(folded_title: str) -> frozenset[str]:
    """Every run of `MIN_TITLE_CHARS` to `OPENING_CHARS` characters in `folded_title`: the
    openings `_opens_in` may find there."""
    return frozenset(
        folded_title[start : start + length]
        for length in range(MIN_TITLE_CHARS, OPENING_CHARS + 1)
        for start in range(len(folded_title) - length + 1)
    )


def _opens_in(heading: str, folded_title: str, fold: Callable[[str], str]) -> bool:
    """Whether the `fold`ed <title> holds the heading's first `OPENING_CHARS` characters,
    `fold`ed alike (a heading of `MIN_TITLE_CHARS` or more: shorter ones are logos)."""
    return len(heading) >= MIN_TITLE_CHARS and fold(heading[:OPENING_CHARS]) in folded_title


def header_window(lines: list[VisibleLine], index: int) -> list[VisibleLine]:
    """The lines around the headline where bylines sit: a few before it, and after it until
    the body starts (a long sentence, unless it is a deck over the byline), a line budget
    or a character budget runs out."""
    window = lines[max(0, index - HEADER_LINES_BEFORE) : index + 1]
    chars = 0
    after = lines[index + 1 : index + 1 + HEADER_LINES_AFTER]
    for at, line in enumerate(after):
        if reads_as_body(line.text):
            if at == 0 and _deck_over_a_byline(after):
                continue
            break
        window.append(line)
        chars += len(line.text)
        if chars >= HEADER_CHARS_AFTER:
            break
    return window


def reads_as_body(text: str) -> bool:
    """A line this long with sentence punctuation (`BODY_MARKS_RE`, or in Thai and Lao a
    space between words of the script): the body, or a deck over the byline."""
    return len(text) >= BODY_LINE_CHARS and (
        BODY_MARKS_RE.search(text) is not None or has_spaced_script_break(text)
    )


DECK_SENTENCES = 2
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)|[。！？]")


def _deck_over_a_byline(after: Sequence[VisibleLine]) -> bool:
    """Whether the first of the lines under the headline is a deck (a sentence or two of
    summary) with a short line under it, where news sites set the byline: the header goes
    on past it. A one-paragraph post's paragraph runs longer, or has prose under it."""
    return (
        len(after) > 1
        and len(after[1].text) < BODY_LINE_CHARS
        and len(_SENTENCE_END_RE.findall(after[0].text)) <= DECK_SENTENCES
    )


FOLDED_LETTER_RE = re.compile(f"[A-Za-z{''.join(CASE_FOLDS_TO_ASCII)}]")
"""The letters the C keyword search (``_blockscan.line_hits``) folds before comparing
(ASCII capitals, `needles.CASE_FOLDS_TO_ASCII`)."""


class Keyword(NamedTuple):
    """A line pattern for `PageText.having`, with `needles`: folded literals (ASCII letters
    in lower case, as the C search folds a line) at least one of which every line the
    pattern matches holds (tested). The needles let the C search (``_blockscan.line_hits``)
    find the candidate lines of every keyword in one pass; the pattern confirms each,
    unless `exact`."""

    pattern: re.Pattern[str]
    needles: tuple[str, ...]
    exact: bool = False
    """The pattern is any of the needles, none of which has a letter the C search folds:
    every candidate line is a match (`words`)."""
    marks: tuple[str, ...] = ()
    """Literals one of which every line the pattern matches holds too: candidate lines
    holding none are dropped by the C search, which finds the lines holding a mark with
    the needles', before the pattern is tried (a label's word is common in prose, "记者",
    the label is not, "记者："). The Python search runs the pattern itself."""

    @classmethod
    def words(cls, *words: str) -> Keyword:
        """The exact keyword of any of `words`, which must have no letter the C search folds
        (`FOLDED_LETTER_RE`)."""
        if FOLDED_LETTER_RE.search("".join(words)):
            raise ValueError(f"folded letters in {words}")
        return cls(re.compile("|".join(map(re.escape, words))), words, exact=True)


LIST_ITEM_TAGS = frozenset({"li", "dd", "dt"})


def link_list_items(
    lines: Sequence[VisibleLine], linked: Sequence[int] | None = None
) -> frozenset[int]:
    """The indices of the lines that are items of a list of links: a list item holding a
    link next to another one (teasers of other pages, whose dates and names are theirs). A
    byline set as a list (``<li>发布时间：…</li><li>来源：<a>…</a></li>``) links one item at
    most. Only the linked lines get a Python step; `linked` is their indices where the
    caller has them (`visible_columns`), else they are read here."""
    if linked is None:
        linked = visible_columns(lines).linked
    items = {index for index in linked if lines[index].tag in LIST_ITEM_TAGS}
    return frozenset(index for index in items if index - 1 in items or index + 1 in items)


class Columns(NamedTuple):
    """What the metadata rules read of every visible line, a column each."""

    texts: tuple[str, ...]
    headings: list[int]
    """The indices of the lines from an h1-h3."""
    linked: list[int]
    """The indices of the lines holding link text."""


def visible_columns(lines: Sequence[VisibleLine]) -> Columns:
    """The texts of `lines` and the indices of their headings and linked lines, in one C
    pass (``_blockscan.visible_columns``) where built: a ``map`` each over a page's
    hundreds of lines cost more than the rules that read them."""
    if native.blockscan is None:
        return _visible_columns_python(lines)
    return Columns(*native.blockscan.visible_columns(lines))


def _visible_columns_python(lines: Sequence[VisibleLine]) -> Columns:
    """`visible_columns` in Python: the reference of the C one, and the fallback."""
    return Columns(
        tuple(map(_TEXT, lines)),
        list(compress(count(), map(_HEADING, lines))),
        list(compress(count(), map(_LINKED, lines))),
    )


@dataclass(frozen=True, slots=True)
class PageText:
    """The visible lines, and per keyword the lines its pattern matches, found on first
    use: with the C search, for all the page's `keywords` at once by their needles and
    marks (a search of the whole page per keyword kind cost more than the rest of the
    metadata together on text-heavy pages); without it, per keyword, by one search of its
    pattern over all the lines joined (`_lines_with_a_match`)."""

    texts: tuple[str, ...]
    joined: str
    """The lines joined by "\\n", for patterns that run over the whole page at once."""
    keywords: tuple[Keyword, ...]
    listed: frozenset[int] = frozenset()
    """The indices of the lines that are items of a list of links (`link_list_items`)."""
    headings: Sequence[int] = ()
    """The indices of the lines from an h1-h3."""
    _hits: dict[Keyword, Sequence[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, lines: Sequence[VisibleLine], keywords: Sequence[Keyword]) -> PageText:
        texts, headings, linked = visible_columns(lines)
        listed = link_list_items(lines, linked)
        return cls(texts, "\n".join(texts), tuple(keywords), listed, headings)

    def outside_link_lists(self) -> list[str]:
        """The lines that are no item of a list of links, in order."""
        return [text for index, text in enumerate(self.texts) if index not in self.listed]

    def having(
        self, keyword: Keyword, first: int = 0, *, outside_link_lists: bool = False
    ) -> list[str]:
        """The lines from index `first` on that `keyword.pattern` matches, in order (with
        `outside_link_lists`, none that is an item of a list of links). `keyword` must be
        one of the page's `keywords`."""
        hits = self._hits.get(keyword)
        if hits is None:
            if native.blockscan is None:
                hits = self._hits[keyword] = self._lines_with_a_match(keyword.pattern)
            else:
                self._hits.update(self._candidates())
                hits = self._hits[keyword]
        indices = hits[bisect.bisect_left(hits, first) :]
        if outside_link_lists:
            indices = [index for index in indices if index not in self.listed]
        found = list(map(self.texts.__getitem__, indices))
        return found if keyword.exact else list(filter(keyword.pattern.search, found))

    def _candidates(self) -> Iterator[tuple[Keyword, list[int]]]:
        """Each keyword's candidate lines, from one C search of the page for every
        keyword's needles and every set of marks: the lines holding a needle and, where
        the keyword has marks, one of those too."""
        marks = list(dict.fromkeys(each.marks for each in self.keywords if each.marks))
        groups = (*(each.needles for each in self.keywords), *marks)
        hits = native.blockscan.line_hits(self.joined, groups)
        marked = {
            each: set(lines) for each, lines in zip(marks, hits[len(self.keywords) :], strict=True)
        }
        for keyword, lines in zip(self.keywords, hits, strict=False):
            if keyword.marks:
                holding = marked[keyword.marks]
                lines = [line for line in lines if line in holding]
            yield keyword, lines

    def _lines_with_a_match(self, pattern: re.Pattern[str]) -> list[int]:
        """The indices of the lines in which a match of `pattern` over `joined` starts:
        every line whose own text it matches, and a few where a match runs into the next
        line (`having` checks each line by itself)."""
        ends = list(itertools.accumulate(len(text) + 1 for text in self.texts))
        indices: list[int] = []
        at = 0
        while match := pattern.search(self.joined, at):
            index = bisect.bisect_right(ends, match.start())
            if index >= len(self.texts):
                break
            indices.append(index)
            at = ends[index]
        return indices
