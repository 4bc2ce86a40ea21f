"""Page text to lines from the page's block structure, each with the features selection uses.

One pass of ``re.finditer`` over the tags with a small element stack; no DOM is built
(measured on zh_cwce: parsing with lxml alone costs about as much as this whole pass).

* A line is the text between two block boundaries (``<p>``, ``<div>``, ``<li>``, ``<tr>``,
  headings ...). A run of boundaries is one break, and inline elements (links, ``<span>``,
  ``<b>``) stay inside their line. The cells of a table row are one line, joined by spaces:
  a data table's row is one record, and its short cells, each a line of its own, counted
  against the body (scrapinghub: a standings table 0.19 -> 0.96 F1; zh_cwce +0.002).
  A single ``<br>`` is a soft break: the line goes on, so hard-wrapped text stays one
  line, and the output keeps the break; ``<br><br>`` ends the line.
* Text inside ``<script>``, ``<style>``, ``<noscript>``, ``<template>``, form controls,
  embedded documents, ruby annotations (``<rt>``, ``<rp>``: the reading printed over a
  Japanese or Chinese word, which would split the sentence it annotates) and hidden
  elements (``display:none``, ``visibility:hidden``, the ``hidden`` attribute) is dropped;
  so are soft hyphens and zero-width spaces (`INVISIBLE_CHARACTERS`).
* Each line records how much of its text is link text, its sentence punctuation, its
  innermost block tag, its element (ancestors in `PageLines.parents`) and the boilerplate
  word (comment, footer, 评论 ...) of the nearest element whose tag, class or id names one.

Linear time on any input: the scan only moves forward, closing tags pop at most what was
pushed, and the stack is capped at `MAX_DEPTH` (deeper elements only contribute text).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from newscrawl.extract.clean import unescape
from newscrawl.extract.native import blockscan as _blockscan

MAX_DEPTH = 256
"""Elements nested deeper than this are not tracked (libxml2's default limit too)."""
CLOSE_SEARCH_DEPTH = 32
"""An end tag closes a matching element at most this far below the top of the stack (the
elements above it were left open); further down it is a stray end tag and ignored. This
bound keeps the scan linear on pages of thousands of unclosed elements."""

DATED_TEXT_CHARS = 200
"""How much text after a dated tag is kept: a date written out is short."""
_DATED_RE = re.compile("itemprop|data-", re.IGNORECASE | re.ASCII)
"""What a tag's attributes hold when it may carry a date (``_blockscan.c`` tests the same,
ASCII case-insensitively)."""

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
        "ol",
        "p",
        "section",
        "summary",
        "table",
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
        "noscript",
        "template",
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
"""Elements whose content is skipped: fallbacks, controls, embedded documents, ``<title>``
(read separately). Unclosed, they count as empty."""

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

NOISE_TAGS = frozenset({"nav", "footer", "aside"})
"""Elements that by their tag alone hold navigation or page furniture, not the article."""

NOISE_WORD_RE = re.compile(
    r"a(?:dvert|uthor)|b(?:anner|readcrumb)|c(?:arousel|o(?:mment|nsent|okie|pyright)|rumbs)|disqus|footer"
    r"|gallery|login|modal|newsletter|popup|re(?:commend|lated|ply)"
    r"|s(?:har(?:e|ing)|idebar|lideshow|ocial|ponsor|ubscribe)"
    r"|(?<![a-z])(?:ads?|foot|gg|hot|menu|nav(?:bar)?|rank|toolbar)(?![a-z])"
    r"|评论|留言|相关|推荐|版权|分享|广告|导航|热门|排行"
)
"""Class/id words of boilerplate containers (grouped by first letter: the search runs on
every element's attributes). Short words must stand alone (GNE's lesson: ``ad`` inside
``padding``); ``tag`` is left out because WordPress puts ``tag-<name>`` on the article
element itself (measured on scrapinghub). ``author`` names the author's box with a
bio after the article (trafilatura_dev, four sites, 0.9331 -> 0.9333; scrapinghub three
pages, 0.9661 -> 0.9672); a byline box near the headline loses nothing the gold keeps."""

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
_END_TAG_RES = {
    name: re.compile(f"</{name}", re.IGNORECASE) for name in RAW_TEXT_TAGS | SKIPPED_TAGS
}
_IMPLIED_END = frozenset({"p", "li", "dt", "dd", "tr", "td", "th"})
"""Opening one of these right inside an open element of the same name closes that one."""

_TEXT_AND_TAG_RE = re.compile(
    r"([^<]*(?:<(?!/?[a-zA-Z]|[!?])[^<]*)*)"
    r"(<(?:(/?)([a-zA-Z][a-zA-Z0-9:-]*)([^>]*)>|!--|[!?][^>]*>))?"
)
"""Text (a ``<`` that starts no tag is text), then the tag after it, if any. Every ``<``
the text stops at starts a tag that matches up to a ``>``, and the scan ends at the
page's last ``>``: no attempt fails after reading ahead, so the scan is linear."""
_QUOTED_TAG_RE = re.compile(r"""(?:[^>"'=]++|=\s*+(?:"[^"]*+"|'[^']*+')?|["'])*+>""")
"""The rest of a tag whose ``>`` may be quoted: quotes open a value only after ``=``
(possessive, so a value that never closes costs one forward scan, no backtracking)."""
_TAG_START_RE = re.compile(r"<[a-zA-Z/!?]")
MAX_CLASS_CHARS = 512
"""Only this much of a class or id value is searched for a boilerplate word: real ones are
far shorter, and a megabyte of generated class names must not cost a megabyte of search."""
CHUNK = 65_536
"""Characters read per ``findall`` call (the chunk is cut after a ``>``)."""
_CLASS_ID_RE = re.compile(r"""(?<![\w-])(?:class|id)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_HIDDEN_RE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden|(?:^|\s)hidden(?=[\s=/]|$)")
_CJK_PUNCTUATION_RE = re.compile("[，。！？；：、“”]")
_LATIN_PUNCTUATION_RE = re.compile(r"[,.;!?:\"](?=\s|$)")
"""Sentence punctuation: CJK marks anywhere, Latin ones only before a space or at the end
of a line (not inside URLs, dates or numbers). Two single-class patterns: measured 1.5x
faster per line than one alternation, 4x faster than ``str.translate`` on CJK text."""

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
    state in locals over ``findall`` tuples of (text, tag): no match objects, positions by
    adding lengths. The common cases (closing the top element, an element without
    attributes, whitespace between tags) are handled inline; whitespace-only text becomes
    one space, so a boundary after it has nothing to flush; the flags of an attribute
    string are worked out once per page (list items and table cells repeat theirs). The
    page is read in chunks ending at a ``>`` so the tuples of a huge page never pile up.
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
        for text, tag, closing, name, attributes in _TEXT_AND_TAG_RE.findall(
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
            if attributes and attributes.count('"') % 2:
                position = _quoted_tag_end(page, tag_start + 1 + len(closing) + len(name), position)
                attributes = page[tag_start + 1 + len(closing) + len(name) : position - 1]
            if not name:
                if tag == "<!--":  # "<!-->" and "<!--->" close at once, as in browsers
                    ender = page.find("-->", position - 2)
                    position = len(page) if ender < 0 else ender + 3
                continue
            kind = _KIND.get(name)
            if kind is None:
                name = name.lower()
                kind = _KIND.get(name, _INLINE)
            if not closing and (name == "time" or (attributes and _DATED_RE.search(attributes))):
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
                position = _skip_content(page, name, position, kind == _RAW)
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
        pieces.append(_unclosed_tail(page, max(position, last_tag_end)))
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


def _unclosed_tail(page: str, start: int) -> str:
    """The text after the page's last ``>``, up to a tag left open there: browsers drop a
    tag that runs to the end of the page, so its markup is not text."""
    opened = _TAG_START_RE.search(page, start)
    return page[start : opened.start() if opened else len(page)]


def _may_hide(attributes: str) -> bool:
    """Whether an inline element's attributes hide it (the cheap test before the regex)."""
    lowered = attributes.lower()
    return ("none" in lowered or "hidden" in lowered) and bool(_HIDDEN_RE.search(lowered))


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
    hidden = ("none" in attributes or "hidden" in attributes) and bool(
        _HIDDEN_RE.search(attributes)
    )
    return hidden, noise_word(attributes)


def noise_word(attributes: str) -> str | None:
    """The boilerplate word in the class or id values of lower-cased `attributes`, if any
    (only the values are searched: style, href and src values are long and never tell)."""
    if "class" not in attributes and "id" not in attributes:
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


def _quoted_tag_end(page: str, start: int, end: int) -> int:
    """Position after a tag (its name ends at `start`) whose first ``>`` (just before
    `end`) may sit inside a quoted attribute value (``onload="if(w>450)..."``): after the
    first ``>`` outside values quoted right after an ``=``, as browsers read it; `end`
    when no such ``>`` follows."""
    match = _QUOTED_TAG_RE.match(page, start)
    return match.end() if match else end


def _skip_content(page: str, name: str, start: int, raw: bool) -> int:
    """Position after the end tag of a skipped element whose content starts at `start`.

    Without an end tag, raw-text elements (scripts) run to the page's end, as in browsers;
    the others are read as empty.
    """
    ender = _END_TAG_RES[name].search(page, start)
    if ender is None:
        return len(page) if raw else start
    close = page.find(">", ender.end())
    return len(page) if close < 0 else close + 1


def sentence_punctuation(text: str) -> int:
    """How many sentence punctuation marks `text` has."""
    return len(_CJK_PUNCTUATION_RE.findall(text)) + len(_LATIN_PUNCTUATION_RE.findall(text))


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
    plain space. The C loop replaces ``&nbsp;`` itself and calls this for a line with any
    other ``&``."""
    raw = raw.replace("&nbsp;", " ")
    if "&shy;" in raw:
        raw = raw.replace("&shy;", "")
    return unescape(raw) if "&" in raw else raw


def _page_lines_native(page: str) -> PageLines:
    """`_page_lines_python` with the per-tag loop and the finishing of each line (`_line`)
    in C (`_blockscan.c`), which builds the same `Line`s."""
    return PageLines(*_blockscan.scan(page))


def _configure_native(patterns: tuple[str, ...] | None = None) -> tuple[bool, bool]:
    """Hand this module's tables, limits and functions to the C loop (at import; the
    tests again, with other limits). Returns whether C works out the flags of ASCII
    attribute strings and the sentence punctuation of lines itself: it implements the
    five `patterns` below as they are spelled here; if one changes, it calls
    `_attribute_flags` for every attribute string, or `sentence_punctuation` for every
    line (the tests pass altered patterns to check these fallbacks)."""
    if patterns is None:
        patterns = (
            _HIDDEN_RE.pattern,
            _CLASS_ID_RE.pattern,
            NOISE_WORD_RE.pattern,
            _CJK_PUNCTUATION_RE.pattern,
            _LATIN_PUNCTUATION_RE.pattern,
        )
    native_flags, native_punctuation = _blockscan.configure(
        _KIND,
        NOISE_TAGS,
        _IMPLIED_END,
        MAX_DEPTH,
        CLOSE_SEARCH_DEPTH,
        CHUNK,
        MAX_CLASS_CHARS,
        _attribute_flags,
        (_INLINE, _BLOCK, _LINK, _BREAK, _VOID, _SKIP, _RAW, _PRE, _CELL),
        patterns,
        Line,
        _unescaped,
        sentence_punctuation,
        DatedTag,
        DATED_TEXT_CHARS,
    )
    return bool(native_flags), bool(native_punctuation)


_NATIVE_FLAGS, _NATIVE_PUNCTUATION = (False, False) if _blockscan is None else _configure_native()

_scan = _page_lines_python if _blockscan is None else _page_lines_native
"""Two implementations of one function: `_page_lines_native`, the per-tag loop in C (several
times faster, and that loop is most of the extraction time), when the `_blockscan`
extension is built; else `_page_lines_python`, which also stays as the readable reference
the equality tests hold the C loop to, and the fallback where no compiler built it."""


def page_lines(page: str) -> PageLines:
    """Split a decoded page into text lines with features (see the module docstring)."""
    for character in INVISIBLE_CHARACTERS:
        if character in page:
            page = page.replace(character, "")
    return _scan(page)
