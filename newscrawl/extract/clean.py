"""The paper's preprocessing: page source to numbered plain-text lines.

The paper does this with regular expressions, and so does this module, built from the
tokenizer's definitions where the paper and the line scan read a page alike (`tokens`:
what a comment is, where the content of a script or style ends, what a tag's name is).
Where they differ, the paper's rules are kept as published (see `tokens`): a tag ends at
its first ``>``, ``</`` starts a tag whatever follows, and only scripts and styles have
their content dropped.

Patterns such as ``<script.*?</script>`` or ``<[^>]*>`` rescan to the end of the page
from every unmatched start, which is quadratic on broken pages (many unclosed tags). The
scans here are linear in the page size:

* regexes that, once past their opening literal, either always succeed (each closer has
  an end-of-page alternative, ``(?:>|\\Z)``) or fail within a few characters: the engine
  never gives up after scanning far ahead, so it never rescans that text from a later start;
* searches that move forward only and stop at the first start without an end.

An unclosed comment, script, style or tag runs to the end of the page, as in a browser.
"""

from __future__ import annotations

import html
import html.entities
import re
from functools import cache
from itertools import islice

from newscrawl.extract import tokens

_WHITESPACE_RE = re.compile(r"\s\s+|[^\S ]")
"""What `collapse_whitespace` replaces: runs, and single whitespace other than a space.
A single space stays where it is (replacing it with itself made a megabyte of
"a a a ..." cost half a million replacements)."""
_INLINE_WHITESPACE_RE = re.compile(r"[^\S\n][^\S\n]+|[^\S\n ]")
"""`_WHITESPACE_RE` within lines: what it replaces, with line breaks left alone."""
_DROPPED_ELEMENTS = ("script", "style")
"""The elements whose content the paper drops, with the comments."""
_NOISE_RE = re.compile(
    "|".join([tokens.COMMENT_PATTERN, *map(tokens.raw_element_pattern, _DROPPED_ELEMENTS)]),
    re.IGNORECASE | re.ASCII,
)
_BODY_START_RE = re.compile(tokens.start_tag_pattern("body"), re.IGNORECASE | re.ASCII)
_TAG_RE = re.compile(r"<[A-Za-z/!?][^>]*(?:>|\Z)")
"""A tag as the paper strips it: ``<`` and a letter, ``/``, ``!`` or ``?``, up to the first
``>`` (the paper's ``<[^>]*>``, which leaves ``a < b`` alone)."""
_LONG_DECIMAL_REF_RE = re.compile(r"&#([0-9]{8,});?")
_MAX_CODE_POINT_DIGITS = len(str(0x10FFFF))
_ATTRIBUTE_RE = re.compile(
    r"""([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)(?:"|\Z)|'([^']*)(?:'|\Z)|([^\s>]*)))?"""
)
_TITLE_META_NAMES = frozenset({"title", "og:title"})
MAX_TAG_CHARS = 16_384
"""How much of one tag's text is read for its attributes: real tags are far shorter, and a
megabyte of junk inside a tag must not become half a million attributes."""
MAX_ATTRIBUTES = 256
"""How many attributes of one tag are read: real tags have a few dozen at most, and junk
inside a tag (``a a a …``, thousands of bare words in 16 KB) must not cost a dict entry
each, which made such a page five times slower per MB than the median."""


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace (NBSP and U+3000 included) become one space; ends stripped."""
    return _WHITESPACE_RE.sub(" ", text).strip()


def remove_noise(page: str) -> str:
    """Drop comments, ``<script>`` and ``<style>`` blocks, then everything before ``<body``."""
    cleaned = _NOISE_RE.sub("", page)
    body = _BODY_START_RE.search(cleaned)
    return cleaned[body.start() :] if body else cleaned


def strip_tags(page: str) -> str:
    """Remove every tag, keeping text. A ``<`` that cannot start a tag stays as text."""
    return _TAG_RE.sub("", page)


def unescape(text: str) -> str:
    """What ``html.unescape`` gives, in time that does not depend on ``&``s that start no
    reference, and without raising on a numeric reference with thousands of digits.

    ``html.unescape`` calls a Python function for every ``&`` followed by anything but a
    space, ``&``, ``#`` or ``;`` (``?a=1&b=2`` in a URL shown as text: a megabyte of them
    took twenty times the median page); here the regex engine skips every ``&`` that starts
    no reference (`_reference_re`) and only references are replaced, each as
    ``html.unescape`` replaces it. ``html.unescape`` converts ``&#`` digits with ``int``,
    which refuses strings over 4,300 digits (ValueError): such a reference is shortened
    first, to what it stands for. A text with few ``&`` (`FEW_AMPERSANDS`) goes to
    ``html.unescape`` itself, whose calls are then few, so the regex of every entity name
    is compiled only for a text that needs it: not at import, where the scan's probe page
    holds two.
    """
    if "&" not in text:
        return text
    text = _LONG_DECIMAL_REF_RE.sub(_shorten_decimal_ref, text)
    if text.count("&") <= FEW_AMPERSANDS:
        return html.unescape(text)
    return _reference_re().sub(_replace_reference, text)


FEW_AMPERSANDS = 16
"""Up to this many ``&`` in a text, `unescape` leaves it to ``html.unescape``."""


def _names_trie(names: list[str]) -> str:
    """An alternation matching the longest of `names` at a position, spelled as a trie
    (``a(?:mp;?|...)``): one branch per first character, which the regex engine picks at
    once, where a flat alternation of the 2,231 HTML5 names is tried name by name."""
    rests: dict[str, list[str]] = {}
    for name in names:
        rests.setdefault(name[0], []).append(name[1:])
    branches = []
    for first, tails in sorted(rests.items()):
        longer = [tail for tail in tails if tail]
        if not longer:
            branches.append(re.escape(first))
        else:
            optional = "?" if "" in tails else ""
            branches.append(f"{re.escape(first)}(?:{_names_trie(longer)}){optional}")
    return "|".join(branches)


@cache
def _reference_re() -> re.Pattern[str]:
    """The character references ``html.unescape`` replaces: numeric ones (its own
    patterns), and the longest HTML5 entity name at an ``&`` (with or without its ``;``),
    which is what it replaces there. Compiled on first use (a fifth of a second). Every
    reference goes on with "#" or a letter, which a lookahead tests before the names: a run
    of ``&`` then costs one test each, not a try of every first letter (BENCHMARKS.md,
    "Hostile pages: the worst page per input class against the median page")."""
    names = _names_trie(list(html.entities.html5))
    return re.compile(f"&(?=[#A-Za-z])(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|(?:{names}))")


def _replace_reference(match: re.Match[str]) -> str:
    reference = match.group()
    if reference[1] == "#":
        return html.unescape(reference)
    return html.entities.html5[reference[1:]]


def _shorten_decimal_ref(match: re.Match[str]) -> str:
    """U+FFFD for a code point past U+10FFFF (as browsers show it), else without leading zeros."""
    digits = match.group(1).lstrip("0") or "0"
    return "\ufffd" if len(digits) > _MAX_CODE_POINT_DIGITS else f"&#{digits};"


def text_lines(page: str) -> list[str]:
    """Noise removal, tag stripping, entity decoding, whitespace clean-up; one entry a line.

    Line breaks are the page source's own, as in the paper.
    """
    text = unescape(strip_tags(remove_noise(page)))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # `collapse_whitespace` of every line, with one substitution over the whole text.
    return [line.strip() for line in _INLINE_WHITESPACE_RE.sub(" ", text).split("\n")]


def element_text(page: str, tag: str) -> str | None:
    """Text of the first ``<tag>`` element, tags stripped and entities decoded, or None.

    Without a closing tag the element ends at the next tag: a truncated or broken page
    must not turn its whole remainder into a title.
    """
    start = _start_tag_re(tag).search(page)
    if start is None:
        return None
    open_end = page.find(">", start.end())
    if open_end < 0:
        return None
    close = _end_tag_re(tag).search(page, open_end)
    end = close.start() if close else page.find("<", open_end + 1)
    inner = page[open_end + 1 : end if end >= 0 else len(page)]
    return collapse_whitespace(unescape(strip_tags(inner)))


def meta_title(page: str) -> str | None:
    """``content`` of the first ``<meta name="title">`` or ``property="og:title"``, or None."""
    meta = _start_tag_re("meta")
    position = 0
    while start := meta.search(page, position):
        end = page.find(">", start.end())
        if end < 0:
            return None
        attributes = tag_attributes(page[start.end() : end])
        names = {attributes.get("name", "").lower(), attributes.get("property", "").lower()}
        if names & _TITLE_META_NAMES and "content" in attributes:
            return collapse_whitespace(unescape(attributes["content"]))
        position = end
    return None


@cache
def _start_tag_re(tag: str) -> re.Pattern[str]:
    return re.compile(tokens.start_tag_pattern(tag), re.IGNORECASE | re.ASCII)


@cache
def _end_tag_re(tag: str) -> re.Pattern[str]:
    return re.compile(tokens.end_tag_pattern(tag), re.IGNORECASE | re.ASCII)


def tag_attributes(tag_text: str) -> dict[str, str]:
    """Attribute names (lower-cased) and raw values of one tag's text; the first of a name
    wins, as in browsers. Only the first `MAX_TAG_CHARS` and `MAX_ATTRIBUTES` are read."""
    attributes: dict[str, str] = {}
    matches = _ATTRIBUTE_RE.finditer(tag_text[:MAX_TAG_CHARS])
    for name, double, single, bare in (
        match.groups("") for match in islice(matches, MAX_ATTRIBUTES)
    ):
        attributes.setdefault(name.lower(), double or single or bare)
    return attributes


def page_title(page: str) -> str:
    """The paper's title rule: ``<title>``, else the page heading (``<h1>``, a title meta)."""
    for tag in ("title", "h1"):
        text = element_text(page, tag)
        if text:
            return text
    return meta_title(page) or ""
