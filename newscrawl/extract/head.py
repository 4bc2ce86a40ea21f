"""What a page says about itself outside its visible text: ``<title>``, ``<meta>``,
``<link>``, ``<html lang>`` and its inline scripts (JSON-LD among them).

The default method (title, description, JSON-LD ``articleBody``) and the metadata package
(dates, names, canonical URL, language, tags) both read this, so the page is read for it
once: one forward search finds its ``<meta>``, ``<script>`` and ``<link>`` start tags
(`PageHead._head_tags`), two more its ``<title>`` and ``<html>``; no DOM (parsing the
page with lxml cost as much as the whole body extraction).

The tags are written as the tokenizer defines them (`tokens`: the name whole, in any ASCII
case; a script's or title's content up to its end tag), but found by a search of the
page's text rather than by reading its tokens as the line scan does: here a tag counts
wherever it stands, in a comment, in ``<noscript>`` or ``<select>``, in a script's string
(only metas and scripts inside a script's content are left out), where the line scan, as
browsers do, reads no markup. Read from the line scan's tokens instead, the head would
change on many pages (a ``<title>`` in a script's string would be taken for the page's,
metas and scripts in conditional comments and ``<noscript>`` would be read, an
``<html lang>`` in a comment would come first), and with it their title, body or metadata
(measured: CHANGELOG.md, "Defaults as first measured"); such a change is to be made on
its own and scored on the datasets, so the head keeps its own search.
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from typing import NamedTuple

from newscrawl.extract import native, tokens
from newscrawl.extract.blocks import without_invisible
from newscrawl.extract.clean import MAX_TAG_CHARS, collapse_whitespace, tag_attributes, unescape

HEAD_TAG_NAMES = ("meta", "script", "link")
"""The start tags read from all over the page (`PageHead._head_tags`)."""
_HEAD_TAGS_RE = re.compile(tokens.start_tag_pattern(*HEAD_TAG_NAMES), re.IGNORECASE | re.ASCII)
_HTML_RE = re.compile(tokens.start_tag_pattern("html") + r"([^>]*)(?:>|\Z)", re.I | re.A)
_TITLE_RE = re.compile(tokens.start_tag_pattern("title") + r"[^>]*(?:>|\Z)", re.I | re.A)
"""A tag runs to the end of the page when it never closes (``\\Z``), so every scan moves
forward and none retries from each "<meta" of a page that never closes one."""
MAX_TITLE_CHARS = 2000
"""How much of a ``<title>`` is read, and of an ``og:title`` (`head_hints`): headlines are
far shorter, and every title rule (site-suffix splits, matching against the page's lines)
runs on them, some once per heading."""
_VALUE = r"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"""
_META_ATTRIBUTE_RE = re.compile(
    r"(?:^|(?<=[\s\"'/]))(name|property|itemprop|http-equiv|content)" + _VALUE, re.I
)
"""A meta's content and the attributes that name its statement, in one forward pass (a
value is consumed whole, so ``content="name=x"`` names nothing)."""


class Script(NamedTuple):
    """An inline ``<script>`` (one with a ``src`` has no text and is not kept)."""

    type: str
    """The lower-cased ``type`` attribute ("" when absent, i.e. JavaScript)."""
    text: str


class PageHead:
    """The head statements of one decoded page, each read on first use: the body method
    needs only the title and a few metas, the metadata package reads everything. Tags
    anywhere in the page count (pages put metas and JSON-LD in the body too)."""

    def __init__(self, page: str) -> None:
        self.page = page

    @cached_property
    def title(self) -> str:
        """The first ``<title>``'s text, entities decoded, whitespace collapsed and without
        the soft hyphens and zero-width spaces the page's lines lose (`without_invisible`:
        else it matches no line); "" when it is never closed (it would swallow the page)."""
        start = _TITLE_RE.search(self.page)
        if start is None:
            return ""
        end = tokens.content_end(self.page, "title", start.end(), unclosed_to_end=False)[0]
        text = self.page[start.end() : min(end, start.end() + MAX_TITLE_CHARS)]
        return collapse_whitespace(without_invisible(unescape(text)))

    @cached_property
    def metas(self) -> tuple[tuple[str, str], ...]:
        """(key, content) of every ``<meta>`` with a non-empty content, in page order, once
        per naming attribute (name, property, itemprop, http-equiv); keys lower-cased,
        contents decoded, stripped and without invisible characters, as the title. Metas
        inside scripts (client-side templates) are not the page's."""
        found: list[tuple[str, str]] = []
        read: dict[str, list[tuple[str, str]]] = {}  # a tag repeated is read once
        for tag in self._meta_and_script_tags[0]:
            pairs = read.get(tag)
            if pairs is None:
                pairs = read[tag] = _meta_pairs(tag)
            found.extend(pairs)
        return tuple(found)

    @cached_property
    def _meta_and_script_tags(self) -> tuple[list[str], list[tuple[str, int, int]]]:
        """The attribute strings of the page's metas, and of its scripts with their content
        span, in one forward walk that jumps over each script's content."""
        metas: list[str] = []
        scripts: list[tuple[str, int, int]] = []
        position = 0
        for name, start, end in self._head_tags:
            if name == "link" or start < position:
                continue
            attributes = self.page[start + 1 + len(name) : end]
            position = end + 1
            if name == "meta":
                metas.append(attributes[:MAX_TAG_CHARS])
                continue
            script_end = tokens.content_end(self.page, "script", position, unclosed_to_end=True)[0]
            scripts.append((attributes, min(position, len(self.page)), script_end))
            position = script_end
        return metas, scripts

    @cached_property
    def _head_tags(self) -> list[tuple[str, int, int]]:
        """(name, index of "<", index of the next ">" or the page's length) of every
        ``<meta>``, ``<script>`` and ``<link>`` start tag that is not inside the previous
        one (before its ">": attribute text), in page order. The C search
        (``_blockscan.start_tags``) where it is built: the regular expression below tries a
        match at each of a page's thousands of "<"."""
        if native.blockscan is not None:
            found: list[tuple[str, int, int]] = native.blockscan.start_tags(
                self.page, HEAD_TAG_NAMES
            )
            return found
        return _head_tags_python(self.page)

    @cached_property
    def meta_map(self) -> dict[str, str]:
        """Meta contents by key; the first of a key wins (a page's head comes before its
        widgets)."""
        found: dict[str, str] = {}
        for keys, content in self.metas:
            for key in keys.split():  # property="dc:creator twitter:site_name" names two
                found.setdefault(key, content)
        return found

    @cached_property
    def canonical(self) -> str:
        """The first ``<link rel=canonical>``'s ``href`` ("" when absent)."""
        for name, start, end in self._head_tags:
            if name != "link":
                continue
            tag = self.page[start + len("<link") : end]
            if "canonical" in tag.lower():
                values = tag_attributes(tag)
                if "canonical" in values.get("rel", "").lower().split():
                    return _decoded(values.get("href", "")).strip()
        return ""

    @cached_property
    def lang(self) -> str:
        """The ``<html>`` element's ``lang`` (or ``xml:lang``) attribute ("" when absent)."""
        html = _HTML_RE.search(self.page)
        if html is None:
            return ""
        values = tag_attributes(html[2])
        return _decoded(values.get("lang") or values.get("xml:lang") or "")

    @cached_property
    def scripts(self) -> tuple[Script, ...]:
        """The inline scripts, in page order."""
        found = []
        for attributes, start, end in self._meta_and_script_tags[1]:
            kind = _inline_script_type(attributes)
            if kind is not None:
                found.append(Script(kind, self.page[start:end]))
        return tuple(found)

    @cached_property
    def json_ld(self) -> tuple[Script, ...]:
        """The JSON-LD scripts (of `scripts`): a search of them, not of the whole page, for
        what only JSON-LD states (``articleBody``, ``recipeIngredient``)."""
        return tuple(script for script in self.scripts if script.type == JSON_LD)


JSON_LD = "application/ld+json"
"""The `Script.type` of JSON-LD."""


SCRIPT_TAG_CACHE_SIZE = 1024
"""Script tags' attribute strings remembered across pages: pages repeat a few
(``type="text/javascript"``), and a site's templates theirs."""


@lru_cache(maxsize=SCRIPT_TAG_CACHE_SIZE)
def _inline_script_type(attributes: str) -> str | None:
    """The lower-cased ``type`` of a ``<script>`` with these attributes ("" when absent),
    None for one with a ``src`` (no inline text)."""
    values = tag_attributes(attributes)
    if "src" in values:
        return None
    return _decoded(values.get("type", "")).strip().lower()


def _head_tags_python(page: str) -> list[tuple[str, int, int]]:
    """`PageHead._head_tags` without the C extension (and the reference its C is tested
    against)."""
    found = []
    position = 0
    while match := _HEAD_TAGS_RE.search(page, position):
        end = page.find(">", match.end())
        end = len(page) if end < 0 else end
        found.append((match[1].lower(), match.start(), end))
        position = end
    return found


def _meta_pairs(tag: str) -> list[tuple[str, str]]:
    """(key, content) of one ``<meta>``'s attribute string (see `PageHead.metas`)."""
    content: str | None = None
    keys = []
    for attribute, double, single, bare in _META_ATTRIBUTE_RE.findall(tag):
        value = double or single or bare
        if attribute.lower() != "content":
            keys.append(value)
        elif content is None:
            content = value
    content = without_invisible(_decoded(content or "")).strip()
    if not content:
        return []
    names = (_decoded(key).strip().lower() for key in keys)
    return [(name, content) for name in names if name]


def _decoded(value: str) -> str:
    return unescape(value) if "&" in value else value
