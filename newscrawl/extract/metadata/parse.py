"""Turn whatever the caller has (bytes, text or an lxml tree) into one parsed tree.

Parsing is the expensive step, so callers that already hold a tree pass it in and every
metadata module works on that same tree. Bad input never raises: it gives None, which
the package turns into an empty `Metadata`.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from lxml import etree, html

from newscrawl.extract.decode import decode_html

Source: TypeAlias = str | bytes | html.HtmlElement
Tree: TypeAlias = etree._Element
"""A parsed page: the caller's `HtmlElement`, or a plain lxml element when this package
parsed the page itself (its element proxies are cheaper than `HtmlElement`'s)."""

_XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*>")
"""lxml refuses str input that carries an encoding declaration; the text is decoded already."""
_NON_XML_CHARS_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Control characters lxml rejects in str input (binary junk, NULs in broken pages)."""


def parse_html(source: Source) -> Tree | None:
    """The page's root element, or None when there is no HTML to speak of."""
    if isinstance(source, etree._Element):
        return source
    return parse_text(page_text(source))


def page_text(source: str | bytes) -> str:
    """The page source as text lxml accepts (decoded, declaration and control chars gone)."""
    text = decode_html(source).text if isinstance(source, bytes) else source
    return _NON_XML_CHARS_RE.sub("", _XML_DECLARATION_RE.sub("", text, count=1))


def parse_text(text: str) -> Tree | None:
    """The root element of `page_text` output, or None when there is no HTML in it."""
    if "<" not in text:
        return None
    try:
        # A parser per call: parser objects are not safe to share between threads.
        root = etree.fromstring(text, etree.HTMLParser(remove_comments=True, remove_pis=True))
    except (etree.LxmlError, ValueError):
        return None
    return root if isinstance(root, etree._Element) else None


def meta_map(root: Tree) -> dict[str, str]:
    """`<meta>` contents keyed by lower-cased name/property/itemprop/http-equiv; the first
    non-empty value of a key wins, as a page's head comes before its widgets."""
    values: dict[str, str] = {}
    for meta in root.iter("meta"):
        content = (meta.get("content") or "").strip()
        if not content:
            continue
        for attribute in ("name", "property", "itemprop", "http-equiv"):
            key = (meta.get(attribute) or "").strip().lower()
            if key and key not in values:
                values[key] = content
    return values
