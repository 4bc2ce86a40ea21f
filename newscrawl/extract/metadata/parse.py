"""The page's text, and its lxml tree for the few facts that need one (`LazyTree`).

Parsing is the expensive step (as much as the whole body extraction), so it happens only
when needed, and callers that already hold a tree pass it in. Bad input never raises: it
gives None, which the package turns into an empty `Metadata`.
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


class LazyTree:
    """The page's lxml tree, parsed on first use: only the `<time>` and date-attribute
    evidence needs a DOM (for the elements' ancestors), and only on pages whose JSON-LD and
    metas carry no date; the rest of the metadata is read without one."""

    def __init__(self, markup: str, root: Tree | None = None) -> None:
        self._markup = markup
        self._root = root
        self._parsed = root is not None

    def root(self) -> Tree | None:
        """The root element, or None when there is no HTML to speak of."""
        if not self._parsed:
            self._root = parse_text(lxml_text(self._markup))
            self._parsed = True
        return self._root


def page_text(source: str | bytes) -> str:
    """The page source as text (bytes decoded by `decode_html`)."""
    return decode_html(source).text if isinstance(source, bytes) else source


def lxml_text(text: str) -> str:
    """`text` as lxml accepts it: declaration and control characters removed."""
    return _NON_XML_CHARS_RE.sub("", _XML_DECLARATION_RE.sub("", text, count=1))


def parse_text(text: str) -> Tree | None:
    """The root element of `lxml_text` output, or None when there is no HTML in it."""
    if "<" not in text:
        return None
    try:
        # A parser per call: parser objects are not safe to share between threads.
        root = etree.fromstring(text, etree.HTMLParser(remove_comments=True, remove_pis=True))
    except (etree.LxmlError, ValueError):
        return None
    return root if isinstance(root, etree._Element) else None
