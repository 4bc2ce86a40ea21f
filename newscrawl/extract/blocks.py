"""Page text to lines from the page's block structure, each with the features selection uses.

One pass over the page's tokens (`tokens`: text, tags, comments, script bodies) with a
small element stack; no DOM is built (parsing with lxml alone costs about as much as this
whole pass; measured: CHANGELOG.md, "Defaults as first measured").

* A line is the text between two block boundaries (``<p>``, ``<div>``, ``<li>``, ``<tr>``,
  headings ...). A run of boundaries is one break, and inline elements (links, ``<span>``,
  ``<b>``) stay inside their line. The cells of a table row are one line, joined by spaces:
  a data table's row is one record, and its short cells, each a line of its own, counted
  against the body, so that a table of results or standings was mostly lost (measured:
  CHANGELOG.md, "Defaults as first measured").
  A single ``<br>`` is a soft break: the line goes on, so hard-wrapped text stays one
  line, and the output keeps the break; ``<br><br>`` ends the line.
* Text inside ``<script>``, ``<style>``, form controls, embedded documents, ruby
  annotations (``<rt>``, ``<rp>``: the reading printed over a Japanese or Chinese word,
  which would split the sentence it annotates) and hidden elements (``display:none``,
  ``visibility:hidden``, the ``hidden`` attribute) is dropped; so are soft hyphens and
  zero-width spaces (`INVISIBLE_CHARACTERS`).
* Each line records how much of its text is link text, its sentence punctuation, its
  innermost block tag, its element (ancestors in `PageLines.parents`) and the boilerplate
  word (comment, footer, 评论 ...) of the nearest element whose tag, class or id names one.
* On the way the scan records the start tags that metadata reads dates from
  (`DatedTag`).

Linear time on any input: the scan only moves forward, closing tags pop at most what was
pushed, and the stack is capped at `MAX_DEPTH` (deeper elements only contribute text).

The per-tag loop runs in C where the ``_blockscan`` extension is built (`_scan`): several
times faster, and it is most of the extraction time. The C takes every table and word list
below at import (`_configure_native`), so they are defined once, here; the patterns built
from them are matched by hand in C, and an import-time probe (`_native_agrees`) and the
tests hold the C loop to `_page_lines_python`, the readable reference.
"""

from __future__ import annotations

import html
import re
from itertools import compress
from operator import itemgetter
from typing import NamedTuple

from newscrawl.extract import native, tokens
from newscrawl.extract.clean import unescape

MAX_DEPTH = 256
"""Elements nested deeper than this are not tracked (libxml2's default limit too)."""
CLOSE_SEARCH_DEPTH = 32
"""An end tag closes a matching element at most this far below the top of the stack (the
elements above it were left open); further down it is a stray end tag and ignored. This
bound keeps the scan linear on pages of thousands of unclosed elements."""

DATED_TEXT_CHARS = 200
"""How much text after a dated tag is kept: a date written out is short."""
DATED_TAGS = frozenset({"time", "abbr"})
DATED_ATTRIBUTE_WORDS = ("itemprop", "data-", "author", "fn")
"""What makes a start tag a `DatedTag`: its name, or one of these words in its attributes
(in any ASCII case). ``<abbr>`` is microformats' machine-readable date: its ``title`` holds
the time (``<abbr class="published" title="2012-08-09T08:57:00-05:00">8:57 AM</abbr>``).
"author" and "fn" keep the tags that name the article's author (``<a rel="author">``, an
hCard's ``<span class="fn">``): inline tags, which the element tree does not hold."""

_INLINE, _BLOCK, _LINK, _BREAK, _VOID, _SKIP, _RAW, _PRE, _CELL = range(9)

BLOCK_TAGS = frozenset(
    {
        "address",
        "article",
        "aside",
        "blockquote",
        "body",
        "caption",
        "center",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "html",
        "legend",
        "li",
        "main",
        "menu",
        "nav",
        "noscript",
        "ol",
        "p",
        "section",
        "summary",
        "table",
        "template",
        "tbody",
        "tfoot",
        "thead",
        "tr",
        "ul",
    }
)
"""Elements that start and end a line (HTML's block-level elements and table rows)."""

VOID_TAGS = frozenset(
    {
        "area",
        "base",
        "basefont",
        "col",
        "embed",
        "img",
        "input",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
"""Elements that never have content, so never go on the stack (``<br>``/``<hr>`` aside)."""

INVISIBLE_CHARACTERS = "\xad\u200b\u2060\ufeff"
"""Characters that take no room on screen and carry no text: the soft hyphen (U+00AD, also
written ``&shy;``), a hyphenation point CMSs put inside words (German sites do so in every
long word: ``Wei\xadne``), and the zero-width space, word joiner and byte-order mark that
editors leave between words or alone in a paragraph. Left in, the words a reader sees are
not in the text (a search for them fails) and a paragraph of nothing is a line. Removed
from the page before the scan, and ``&shy;`` as it is decoded (`_unescaped`); the rare
numeric references to them stay (decoding them is C's job, `_blockscan.c`)."""

RAW_TEXT_TAGS = frozenset(
    {
        "script",
        "style",
        "xmp",
        "plaintext",
    }
)
"""Skipped elements whose content is not markup: unclosed, they run to the page's end."""

SKIPPED_TAGS = frozenset(
    {
        "textarea",
        "select",
        "button",
        "iframe",
        "object",
        "svg",
        "math",
        "title",
        "rt",
        "rp",
    }
)
"""Elements whose content is skipped: controls, embedded documents, ``<title>`` (read
separately). Unclosed, they count as empty."""

INLINE_TAGS = frozenset(
    {
        "span",
        "font",
        "b",
        "strong",
        "em",
        "i",
        "u",
        "small",
        "big",
        "sup",
        "sub",
        "label",
        "abbr",
        "cite",
        "code",
        "s",
        "strike",
        "tt",
        "q",
        "ins",
        "del",
        "mark",
        "time",
        "nobr",
    }
)
"""Common inline elements, listed only so their (lower-case) names are found in one
lookup; any other unknown name is inline too."""

NOISE_TAGS = frozenset({"nav", "footer", "aside", "noscript", "template"})
"""Elements that by their tag alone hold navigation or page furniture, not the article.
``<noscript>`` and ``<template>`` hold what a script shows instead ("please enable
JavaScript", a tracking pixel) or renders; some pages ship their whole article there. Their
text is scanned as a named box: selection drops it unless it holds most of the page's prose
(`default.boilerplate_elements`), as for any named box."""

NOISE_WORDS = (
    "advert", "author", "banner", "breadcrumb", "carousel", "comment", "consent", "cookie",
    "copyright", "crumbs", "disqus", "footer", "gallery", "login", "modal", "newsletter",
    "popup", "recommend", "related", "reply", "share", "sharing", "sidebar", "slideshow",
    "social", "sponsor", "subscri", "profile", "trackback", "trending", "mostread", "most-read",
)  # fmt: skip
STANDALONE_NOISE_WORDS = (
    "ads", "ad", "cta", "foot", "gg", "hot", "menu", "navbar", "nav", "rank", "toolbar",
)  # fmt: skip
CJK_NOISE_WORDS = ("评论", "留言", "相关", "推荐", "版权", "分享", "广告", "导航", "热门", "排行")
"""Class/id words of boilerplate containers, found anywhere in a value; the short ones
only standing alone, with no ASCII letter next to them (GNE's lesson: ``ad`` inside
``padding``). ``tag`` is left out because WordPress puts ``tag-<name>`` on the article
element itself. ``author`` names the author's box with a bio after the article; a byline
box near the headline, dropped with it, holds nothing the body should keep (measured:
CHANGELOG.md, "Defaults as first measured").
``profile`` names a blog's about-me box (Blogger's ``widget Profile``, profile cards), which
outscores a short post. ``trackback`` names a blog platform's list of the weblogs that link
to the post, with their excerpts (TypePad's ``trackbacks``), a comment list of sorts.
``trending``, ``mostread`` and ``most-read`` name a rail of the site's most read stories,
which news sites set inside the article too, its cards often linked by an empty anchor laid
over each (so no link text marks them).
``cta`` (call to action) names the box of a plea after the article: become a member,
donate, write us a letter.
``widget`` is left out: it names sidebar boxes, but also tweets and charts embedded in an
article's text (CHANGELOG.md, "Tried and not kept"). At one place of a value the words are
tried in this order (the first that matches names it)."""

NOISE_ATTRIBUTES = ("class", "id")
"""The attributes whose values are searched for a boilerplate word (style, href and src
values are long and never tell)."""
HIDDEN_STYLES = (("display", "none"), ("visibility", "hidden"))
HIDDEN_ATTRIBUTE = "hidden"
"""What hides an element: a style declaration (``display : none``), or the bare attribute
(``<span hidden>``, ``hidden=""``)."""

_KIND = {
    **dict.fromkeys(BLOCK_TAGS, _BLOCK),
    **dict.fromkeys(VOID_TAGS, _VOID),
    **dict.fromkeys(SKIPPED_TAGS, _SKIP),
    **dict.fromkeys(RAW_TEXT_TAGS, _RAW),
    **dict.fromkeys(INLINE_TAGS, _INLINE),
    "a": _LINK,
    "br": _BREAK,
    "hr": _BREAK,
    "pre": _PRE,
    "listing": _PRE,
    "td": _CELL,  # a cell starts a new field of its row's line, not a new line
    "th": _CELL,
}
_KIND_NAMES = ("inline", "block", "link", "break", "void", "skip", "raw", "pre", "cell")
"""The kinds by their number (`_INLINE` ...), as the C loop is told them."""
_IMPLIED_END = frozenset({"p", "li", "dt", "dd", "tr", "td", "th"})
"""Opening one of these right inside an open element of the same name closes that one."""
MAX_CLASS_CHARS = 512
"""Only this much of a class or id value is searched for a boilerplate word: real ones are
far shorter, and a megabyte of generated class names must not cost a megabyte of search."""
CHUNK = 65_536
"""Characters read per ``findall`` call (the chunk is cut after a ``>``)."""
CJK_PUNCTUATION = "，。！？；：、“”｡､"
"""Chinese and Japanese sentence punctuation (full and half width)."""
OTHER_SCRIPT_PUNCTUATION = (
    "،؛؟۔"  # Arabic, Persian and Urdu
    "।॥"  # the danda of Hindi, Bengali, Nepali and other Indic scripts
    "։"  # Armenian
    "።፣፤፧"  # Ethiopic (Amharic, Tigrinya)
    "၊။"  # Myanmar
    "།"  # Tibetan
    "។៕"  # Khmer
)
"""The sentence ends, commas and semicolons of the other scripts that have marks of their
own."""
SCRIPT_PUNCTUATION = CJK_PUNCTUATION + OTHER_SCRIPT_PUNCTUATION
LATIN_PUNCTUATION = ',.;!?:"'
SPACED_SCRIPTS = "\u0e00\u0eff"
"""Thai and Lao, the first and last character of their range: they mark no sentence end
but leave a space between sentences and clauses, so a space between two of their
characters counts as a mark (in the C loop too, which `_configuration` hands it)."""
"""Sentence punctuation: the marks of `SCRIPT_PUNCTUATION` anywhere (no other text uses
them), Latin ones only before a space or at the end of a line (not inside URLs, dates or
numbers). Scripts that end sentences with Latin marks (Cyrillic, Greek, Hebrew, Korean)
need no marks of their own; Thai and Lao mark none."""
_NATIVE_REFERENCES = ("&lt;", "&gt;", "&amp;", "&quot;")
"""Named character references the C loop decodes itself, to what ``html.unescape`` gives
(with ``&nbsp;``, a plain space, and numeric references to plain characters); a line with
any other ``&`` goes to `_unescaped`."""


# The patterns of the Python loop, built from the tables above (functions, so that the
# tests build them again from other tables, as the C loop receives them).


def _noise_word_re() -> re.Pattern[str]:
    """`NOISE_WORDS` then `STANDALONE_NOISE_WORDS` then `CJK_NOISE_WORDS`, the first two
    grouped by first letter (``a(?:dvert|uthor)|b(?:...)``): the same matches in the same
    order of preference (words with different first letters never compete for one place),
    and the regex engine skips ahead to a possible first letter. An ASCII word after "no-"
    or "no_" names a box that is not there (Drupal's ``<body class="no-sidebars">``)."""
    groups: dict[str, list[str]] = {}
    for word in NOISE_WORDS:
        groups.setdefault(word[0], []).append(re.escape(word[1:]))
    anywhere = "|".join(
        re.escape(first) + (rests[0] if len(rests) == 1 else f"(?:{'|'.join(rests)})")
        for first, rests in groups.items()
    )
    standalone = "|".join(map(re.escape, STANDALONE_NOISE_WORDS))
    ascii_words = f"(?<!no-)(?<!no_)(?:{anywhere}|(?<![a-z])(?:{standalone})(?![a-z]))"
    return re.compile(f"{ascii_words}|{'|'.join(CJK_NOISE_WORDS)}")


def _class_id_re() -> re.Pattern[str]:
    """A `NOISE_ATTRIBUTES` attribute and its value (quoted or bare: groups 1 to 3)."""
    names = "|".join(map(re.escape, NOISE_ATTRIBUTES))
    return re.compile(rf"""(?<![\w-])(?:{names})\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")


def _hidden_re() -> re.Pattern[str]:
    """A `HIDDEN_STYLES` declaration or the `HIDDEN_ATTRIBUTE` in lower-cased attributes."""
    styles = [rf"{re.escape(name)}\s*:\s*{re.escape(value)}" for name, value in HIDDEN_STYLES]
    bare = rf"(?:^|\s){re.escape(HIDDEN_ATTRIBUTE)}(?=[\s=/]|$)"
    return re.compile("|".join([*styles, bare]))


def _hiding_words() -> tuple[str, ...]:
    """What attributes that hide their element hold: the cheap test before `_HIDDEN_RE`."""
    return tuple(dict.fromkeys([*(value for _, value in HIDDEN_STYLES), HIDDEN_ATTRIBUTE]))


def _script_punctuation_re() -> re.Pattern[str]:
    return re.compile(f"[{re.escape(SCRIPT_PUNCTUATION)}]")


def _latin_punctuation_re() -> re.Pattern[str]:
    """(Two single-class patterns, this and `_script_punctuation_re`: measured 1.5x faster
    per line than one alternation, 4x faster than ``str.translate`` on CJK text.)"""
    return re.compile(rf"[{re.escape(LATIN_PUNCTUATION)}](?=\s|$)")


def _dated_re() -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, DATED_ATTRIBUTE_WORDS)), re.IGNORECASE | re.ASCII)


NOISE_WORD_RE = _noise_word_re()
"""The boilerplate word of a lower-cased class or id value."""
_CLASS_ID_RE = _class_id_re()
_HIDDEN_RE = _hidden_re()
_HIDING_WORDS = _hiding_words()
_SCRIPT_PUNCTUATION_RE = _script_punctuation_re()
_LATIN_PUNCTUATION_RE = _latin_punctuation_re()
_SPACED_SCRIPT_CLASS = f"[{SPACED_SCRIPTS[0]}-{SPACED_SCRIPTS[1]}]"
_SPACED_SCRIPT_RE = re.compile(f"{_SPACED_SCRIPT_CLASS}\\s+(?={_SPACED_SCRIPT_CLASS})")
_DATED_RE = _dated_re()

_SOFT_BREAK = "\x00"


class Line(NamedTuple):
    """One text line of the page and its features (a tuple: built by the hundred per page)."""

    text: str
    """Whitespace collapsed; soft breaks (single ``<br>``, ``<pre>`` newlines) kept as \\n."""
    tag: str
    """The innermost block element around the line (``p``, ``li``, ``td``, ``h1`` ...)."""
    element: int
    """Id of the innermost tracked element around the line (0: the page itself)."""
    chars: int
    """Characters other than whitespace."""
    link_chars: int
    """Characters inside ``<a>`` elements."""
    punctuation: int
    """Sentence punctuation marks."""
    noise: str | None
    """The boilerplate word of the nearest element that names one (tag, class or id)."""
    noise_element: int
    """Id of that element (0 when `noise` is None), so selection can weigh its extent."""


class PageLines(NamedTuple):
    """The lines of a page and the element tree they hang in."""

    lines: list[Line]
    parents: dict[int, int]
    """Element id -> id of its parent element (0 for top-level elements)."""
    dated: list[DatedTag]
    """The start tags that may carry a publication date (see `DatedTag`), in page order."""
    tags: list[str]
    """Element id -> its tag name (index 0: the page itself, ``""``)."""
    attributes: dict[int, str]
    """Element id -> its raw attribute text, for the elements that have one: selection reads
    the class of a few elements (the article's container, its siblings), not of every one."""


HEADING_TAGS = frozenset({"h1", "h2", "h3"})
"""The headings a headline is sought among, by the title (`title.choose_title`) and the
metadata (`metadata.lines`)."""
_LINE_TAG = itemgetter(1)
"""`Line.tag`, read in C by ``map``."""


def heading_lines(page: PageLines) -> list[Line]:
    """The page's `HEADING_TAGS` lines, picked out of its hundreds of lines in C (``map``,
    ``compress``) without a Python step per line: read once by `extract` for the title and
    the metadata."""
    return list(compress(page.lines, map(HEADING_TAGS.__contains__, map(_LINE_TAG, page.lines))))


class DatedTag(NamedTuple):
    """A start tag the metadata reads dates from: a ``<time>``, or one whose attributes
    mention ``itemprop`` or ``data-`` (``itemprop=datePublished``, ``data-publishtime``).
    Recorded by the scan so that metadata needs no DOM for them."""

    tag: str
    attributes: str
    """The raw attribute text, as in the source."""
    noise: str | None
    """The boilerplate word of the nearest box around the tag (as `Line.noise`)."""
    noise_element: int
    """That box's element id (0 for none, as `Line.noise_element`)."""
    text: str
    """Up to `DATED_TEXT_CHARS` of raw text right after the tag, up to the next tag."""


# A stack entry: tag, element id, block tag, noise word, noise element, hidden, in <pre>.
_Entry = tuple[str, int, str, "str | None", int, bool, bool]
_ROOT: _Entry = ("", 0, "body", None, 0, False, False)


def _page_lines_python(page: str) -> PageLines:
    """Split a decoded page into text lines with features (see the module docstring).

    This is the hot path (about a thousand tags per page), so it is one loop with its
    state in locals over ``findall`` tuples of (text, tag) (`tokens.TEXT_AND_TAG_RE`): no
    match objects, positions by adding lengths. The common cases (closing the top element,
    an element without attributes, whitespace between tags) are handled inline;
    whitespace-only text becomes one space, so a boundary after it has nothing to flush;
    the flags of an attribute string are worked out once per page (list items and table
    cells repeat theirs). The page is read in chunks ending at a ``>`` so the tuples of a
    huge page never pile up.
    """
    lines: list[Line] = []
    parents: dict[int, int] = {}
    dated: list[DatedTag] = []
    tags = [""]
    element_attributes: dict[int, str] = {}
    stack: list[_Entry] = [_ROOT]
    top = _ROOT
    attribute_flags: dict[str, tuple[bool, str | None]] = {}
    pieces: list[str] = []
    link_chars = 0
    in_link = False
    link_depth = 0
    break_pending = False
    position = 0  # everything before it has been read or skipped
    last_tag_end = page.rfind(">") + 1
    chunk_start = 0

    while chunk_start < last_tag_end:
        chunk_end = page.rfind(">", chunk_start, min(chunk_start + CHUNK, last_tag_end)) + 1
        if chunk_end <= chunk_start:
            chunk_end = page.find(">", chunk_start + CHUNK) + 1
        cursor = chunk_start
        for text, tag, closing, name, attributes in tokens.TEXT_AND_TAG_RE.findall(
            page, chunk_start, chunk_end
        ):
            text_start = cursor
            cursor += len(text) + len(tag)
            if cursor <= position:
                continue
            tag_start = cursor - len(tag)
            if text and not top[5] and tag_start > position:
                if text_start < position:
                    text = page[position:tag_start]
                if not text.isspace():
                    pieces.append(text)
                    break_pending = False
                    if in_link:
                        link_chars += len(text.strip())
                elif pieces or top[6]:
                    pieces.append(text if top[6] else " ")
            if tag_start < position or not tag:
                continue
            position = cursor
            if attributes and (attributes.count('"') % 2 or attributes.count("'") % 2):
                # an open quote: its first ">" may be quoted
                name_end = tag_start + 1 + len(closing) + len(name)
                position = tokens.quoted_tag_end(page, name_end, position)
                attributes = page[name_end : position - 1]
            if not name:
                if tag == "<!--":
                    position = tokens.comment_end(page, tag_start)
                continue
            kind = _KIND.get(name)
            if kind is None:
                name = name.lower()
                kind = _KIND.get(name, _INLINE)
            if not closing and (
                name in DATED_TAGS or (attributes and _DATED_RE.search(attributes))
            ):
                dated.append(_dated_tag(page, name, attributes, top[3:5], position))
            if kind == _INLINE and not top[5]:  # the commonest tags: decided first
                if closing:
                    if top[0] != name:
                        continue
                elif not (attributes and _may_hide(attributes)):
                    continue
            if kind == _LINK:
                in_link = not closing and "href" in attributes.lower()
                link_depth = len(stack)
                continue
            if kind == _BREAK:
                if break_pending or name == "hr":
                    if pieces:
                        _flush(pieces, top, link_chars, lines)
                    link_chars, break_pending = 0, False
                elif pieces:
                    pieces.append(_SOFT_BREAK)
                    break_pending = True
                continue
            if closing:
                if kind != _INLINE and kind != _CELL and pieces:
                    _flush(pieces, top, link_chars, lines)
                    link_chars, break_pending = 0, False
                if top[0] == name:
                    stack.pop()
                elif not _close(stack, name):
                    continue
                top = stack[-1]
                if in_link and len(stack) < link_depth:
                    in_link = False
                continue
            if kind in (_BLOCK, _PRE, _CELL):
                if kind == _CELL:
                    if pieces:
                        pieces.append(" ")
                elif pieces:
                    _flush(pieces, top, link_chars, lines)
                    link_chars, break_pending = 0, False
                if top[0] == name and name in _IMPLIED_END:
                    stack.pop()
                    top = stack[-1]
            elif kind == _VOID:
                continue
            elif kind != _INLINE:  # (an inline element here is hidden or inside a hidden one)
                position = tokens.content_end(page, name, position, kind == _RAW)[1]
                continue
            if len(stack) > MAX_DEPTH or (kind == _INLINE and attributes.endswith("/")):
                continue
            element_id = len(parents) + 1
            parents[element_id] = top[1]
            tags.append(name)
            if attributes:
                element_attributes[element_id] = attributes
            if attributes or name in NOISE_TAGS:
                flags = attribute_flags.get(attributes)
                if flags is None:
                    flags = attribute_flags[attributes] = _attribute_flags(attributes.lower())
                top = _entry(name, flags, top, element_id, kind)
            else:
                block = name if kind != _INLINE else top[2]
                top = (name, element_id, block, top[3], top[4], top[5], top[6] or kind == _PRE)
            stack.append(top)
        chunk_start = max(chunk_end, position)

    if position < len(page) and not top[5]:
        pieces.append(tokens.unclosed_tail(page, max(position, last_tag_end)))
    _flush(pieces, top, link_chars, lines)
    return PageLines(lines, parents, dated, tags, element_attributes)


def _dated_tag(
    page: str, name: str, attributes: str, noise: tuple[str | None, int], position: int
) -> DatedTag:
    """The `DatedTag` of a start tag ending at `position`; `noise`: the nearest box's word
    and element."""
    limit = min(len(page), position + DATED_TEXT_CHARS)
    end = page.find("<", position, limit)
    return DatedTag(
        name, attributes, noise[0], noise[1], page[position : end if end >= 0 else limit]
    )


def _may_hide(attributes: str) -> bool:
    """Whether an inline element's attributes hide it (the cheap test before the regex)."""
    lowered = attributes.lower()
    for word in _HIDING_WORDS:
        if word in lowered:
            return bool(_HIDDEN_RE.search(lowered))
    return False


def _entry(
    name: str, flags: tuple[bool, str | None], parent: _Entry, element_id: int, kind: int
) -> _Entry:
    """The stack entry of a new element: its own flags (`_attribute_flags`) combined with
    its parent's."""
    noise_word, noise_element = parent[3], parent[4]
    word = name if name in NOISE_TAGS else flags[1]
    if word is not None:
        noise_word, noise_element = word, element_id
    return (
        name,
        element_id,
        name if kind in (_BLOCK, _PRE, _CELL) else parent[2],
        noise_word,
        noise_element,
        parent[5] or flags[0],
        parent[6] or kind == _PRE,
    )


def _attribute_flags(attributes: str) -> tuple[bool, str | None]:
    """Whether lower-cased `attributes` hide their element, and their boilerplate word."""
    hidden = any(word in attributes for word in _HIDING_WORDS) and bool(
        _HIDDEN_RE.search(attributes)
    )
    return hidden, noise_word(attributes)


def noise_word(attributes: str) -> str | None:
    """The boilerplate word in the `NOISE_ATTRIBUTES` values of lower-cased `attributes`,
    if any."""
    if not any(name in attributes for name in NOISE_ATTRIBUTES):
        return None
    for match in _CLASS_ID_RE.finditer(attributes):
        value = match.group(1) or match.group(2) or match.group(3) or ""
        found = NOISE_WORD_RE.search(value[:MAX_CLASS_CHARS])
        if found:
            return found.group(0)
    return None


def _close(stack: list[_Entry], name: str) -> bool:
    """Close the innermost open `name` within `CLOSE_SEARCH_DEPTH` entries of the top, and
    everything opened inside it; False (nothing closed) for a stray end tag."""
    for depth in range(len(stack) - 1, max(0, len(stack) - 1 - CLOSE_SEARCH_DEPTH), -1):
        if stack[depth][0] == name:
            del stack[depth:]
            return True
    return False


def has_spaced_script_break(text: str) -> bool:
    """Whether `text` has a space between two characters of a `SPACED_SCRIPTS` script: where
    Thai and Lao end a sentence or a clause."""
    return _SPACED_SCRIPT_RE.search(text) is not None


def sentence_punctuation(text: str) -> int:
    """How many sentence punctuation marks `text` has."""
    return (
        len(_SCRIPT_PUNCTUATION_RE.findall(text))
        + len(_LATIN_PUNCTUATION_RE.findall(text))
        + len(_SPACED_SCRIPT_RE.findall(text))
    )


def _flush(pieces: list[str], top: _Entry, link_chars: int, lines: list[Line]) -> None:
    """Turn the text gathered since the last boundary into a `Line` (if it is not blank)."""
    if not pieces:
        return
    raw = "".join(pieces)
    pieces.clear()
    line = _line(raw, top[2], top[1], top[3], top[4], top[6], link_chars)
    if line is not None:
        lines.append(line)


def _line(
    raw: str,
    tag: str,
    element: int,
    noise: str | None,
    noise_element: int,
    pre: bool,
    link_chars: int,
) -> Line | None:
    """The `Line` of the raw text gathered since the last boundary (None if it is blank):
    `tag` ... `pre` are the fields of the top stack entry there (`_Entry`)."""
    if raw.isspace():
        return None
    if "&" in raw:
        raw = _unescaped(raw)
    if pre:
        raw = raw.replace("\r\n", "\n").replace("\n", _SOFT_BREAK)
    if _SOFT_BREAK in raw:
        parts = [" ".join(part.split()) for part in raw.split(_SOFT_BREAK)]
        text = "\n".join(part for part in parts if part)
        chars = sum(len(part) - part.count(" ") for part in parts)
    else:
        text = " ".join(raw.split())
        chars = len(text) - text.count(" ")
    if not text:
        return None
    return Line(
        text,
        tag,
        element,
        chars,
        min(link_chars, chars),
        sentence_punctuation(text),
        noise,
        noise_element,
    )


def _unescaped(raw: str) -> str:
    """`raw` (which has a ``&``) with its character references decoded; ``&nbsp;`` is a
    plain space. The C loop decodes the plain references itself (`_NATIVE_REFERENCES`)
    and calls this for a line with any other ``&``."""
    raw = raw.replace("&nbsp;", " ")
    if "&shy;" in raw:
        raw = raw.replace("&shy;", "")
    return unescape(raw) if "&" in raw else raw


def _page_lines_native(page: str) -> PageLines:
    """`_page_lines_python` with the per-tag loop and the finishing of each line (`_line`)
    in C (`_blockscan.c`), which builds the same `Line`s."""
    return PageLines(*native.blockscan.scan(page))


def _configuration() -> dict[str, object]:
    """Everything the C loop takes from this module, by keyword: the tables (the C matches
    the patterns built from them by hand, `_native_agrees` and the tests check it matches
    what they match), the limits, the classes it builds and the Python it calls."""
    return {
        "tag_kinds": {name: _KIND_NAMES[kind] for name, kind in _KIND.items()},
        "noise_tags": NOISE_TAGS,
        "implied_end": _IMPLIED_END,
        "dated_tags": DATED_TAGS,
        "dated_attribute_words": DATED_ATTRIBUTE_WORDS,
        "noise_words": NOISE_WORDS,
        "standalone_noise_words": STANDALONE_NOISE_WORDS,
        "noise_attributes": NOISE_ATTRIBUTES,
        "hidden_styles": HIDDEN_STYLES,
        "hidden_attribute": HIDDEN_ATTRIBUTE,
        "script_punctuation": SCRIPT_PUNCTUATION,
        "latin_punctuation": LATIN_PUNCTUATION,
        "spaced_scripts": SPACED_SCRIPTS,
        "references": {"&nbsp;": " ", **{ref: html.unescape(ref) for ref in _NATIVE_REFERENCES}},
        "name_start": tokens.ascii_class(tokens.NAME_START),
        "name_characters": tokens.ascii_class(tokens.NAME_CHARACTERS),
        "max_depth": MAX_DEPTH,
        "close_search_depth": CLOSE_SEARCH_DEPTH,
        "chunk": CHUNK,
        "max_class_chars": MAX_CLASS_CHARS,
        "dated_text_chars": DATED_TEXT_CHARS,
        "line": Line,
        "dated_tag": DatedTag,
        "attribute_flags": _attribute_flags,
        "unescaped": _unescaped,
    }


def _configure_native() -> None:
    """Hand `_configuration` to the C loop (at import; the tests again, with other limits
    and tables)."""
    native.blockscan.configure(**_configuration())


def _probe_page() -> str:
    """A page with every word, mark, reference, kind of tag and token the tables above
    name, in both cases, for `_native_agrees`."""
    values = [
        *(f"x-{word} y" for word in NOISE_WORDS + STANDALONE_NOISE_WORDS),
        *(f"{word}s padding{word}" for word in STANDALONE_NOISE_WORDS),
    ]
    attributes = [*NOISE_ATTRIBUTES, *(name.upper() for name in NOISE_ATTRIBUTES)]
    boxes = "".join(
        f'<div {attributes[n % len(attributes)]}="{value}"><p>t{n}</p></div>'
        for n, value in enumerate([*values, f"{CJK_NOISE_WORDS[0]}区"])
    )
    hiding = (
        "".join(
            f'<span style="{name} : {value}">h</span><span STYLE="{name.upper()}:{value}">v</span>'
            for name, value in HIDDEN_STYLES
        )
        + f"<b {HIDDEN_ATTRIBUTE}>h</b><i {HIDDEN_ATTRIBUTE}x>v</i>"
    )
    tags = "".join(
        f"<{name}{' ' + DATED_ATTRIBUTE_WORDS[0] if n % 3 else ''}>a{n}</{name.upper()}>"
        for n, name in enumerate(sorted(_KIND))
    )
    marks = (
        " ".join(SCRIPT_PUNCTUATION + LATIN_PUNCTUATION)
        + "x.y a, b"
        + SCRIPT_PUNCTUATION
        + " \u0e01 \u0e02\u0e81 \u0eff x \u0e03"
    )
    references = " ".join(["&nbsp;", *_NATIVE_REFERENCES, "&#20013;", "&copy;", "&amp"])
    dated = "".join(f'<p {word}="d">2024</p>' for word in DATED_ATTRIBUTE_WORDS)
    return (
        f"<html lang=zh><title>t &amp; t</title><meta name=a content=b><link rel=x>"
        f"<!-- c --><!--><!---><? p ?><!x></ x></><p a='>'>q</p><p b=\"c>d\"e>"
        f"{boxes}{hiding}{tags}<p>{marks}</p><pre> a\n b </pre><p>{references}</p>{dated}"
        f"<table><tr><td>1<td>2<tr><td>3</table><ul><li>a<li>b</ul><a href=x>link</a>"
        f"<p>a<br>b<br><br>c<hr>d</p><script>var s = '</p>';</script><p>tail<a"
    )


def _native_agrees() -> bool:
    """Whether the C loop reads `_probe_page` as `_page_lines_python` does: an extension
    built from an older ``_blockscan.c``, or a pattern above changed without the C, must
    not change the output silently."""
    page = _probe_page()
    return _page_lines_native(page) == _page_lines_python(page)


def _choose_scan() -> bool:
    """Whether the C loop runs: built, taking this module's configuration, and reading the
    probe page as the Python loop does. An extension built from another version of
    ``_blockscan.c`` (an editable install whose ``.so`` was not rebuilt) fails one of
    these: then the one warning, and the Python code."""
    if native.blockscan is None:
        return False
    try:
        _configure_native()
    except (TypeError, ValueError) as error:
        native.refuse(f"the C extension _blockscan refuses blocks.py's tables ({error})")
        return False
    if _native_agrees():
        return True
    native.refuse("the C extension _blockscan reads a probe page otherwise than blocks.py")
    return False


_scan = _page_lines_native if _choose_scan() else _page_lines_python
"""Two implementations of one function: `_page_lines_native`, the per-tag loop in C
(several times faster, and that loop is most of the extraction time), when the
`_blockscan` extension is built and agrees with the Python loop; else
`_page_lines_python`, which also stays as the readable reference the equality tests hold
the C loop to, and the fallback where no compiler built it."""


def page_lines(page: str) -> PageLines:
    """Split a decoded page into text lines with features (see the module docstring)."""
    return _scan(without_invisible(page))


def without_invisible(text: str) -> str:
    """`text` without its `INVISIBLE_CHARACTERS`."""
    for character in INVISIBLE_CHARACTERS:
        if character in text:
            text = text.replace(character, "")
    return text
