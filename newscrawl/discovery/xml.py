"""Safe, namespace-blind XML reading for the feed parser, and the one repair that the feed
and sitemap parsers both need before any XML parser sees the body.

A bare ``&`` in a link (``?id=1&type=2``, as hand-made feeds and sitemaps write them) is
not XML: lxml's recovering parser drops ``&type`` as a broken entity and the link becomes
``?id=1=2``, a dead URL. feedparser's loose mode read such links right where ours did not
(bench/bench_libraries.py); escaping them first costs 2.6 ms on the bench's 9 MB sitemap
when there is nothing to escape.
"""

from __future__ import annotations

import re

from lxml import etree

from newscrawl.discovery.model import MalformedListError

_PARSER_OPTIONS = {"resolve_entities": False, "no_network": True, "recover": True}
_BARE_AMPERSAND_RE = re.compile(rb"&(?![A-Za-z][\w.-]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)")
_CDATA_OR_BARE_AMPERSAND_RE = re.compile(
    rb"<!\[CDATA\[.*?(?:\]\]>|\Z)|" + _BARE_AMPERSAND_RE.pattern, re.DOTALL
)
"""A CDATA section (its ``&`` is literal: kept as it is) or a bare ``&``. Ten times slower
to scan than the bare ``&`` alone, so run only on bodies where that one matched."""
_ENTITY_DECLARATION_RE = re.compile(rb"<!ENTITY\s+(?:%\s+)?([^\s\"'>%]+)")
_PROLOG_SKIPPED = ((b"<?", b"?>"), (b"<!--", b"-->"))
"""What may come before a ``<!DOCTYPE``: the XML declaration, processing instructions and
comments (each skipped whole), and white space."""
_NOT_SPACE_RE = re.compile(rb"\S")
_MAX_NAMED = 5


def escape_bare_ampersands(body: bytes) -> bytes:
    """`body` with each ``&`` that starts no entity or character reference escaped.

    Only in ASCII-compatible encodings (UTF-8, GBK, Big5…, where byte 0x26 is always
    ``&``): a UTF-16 or UTF-32 body, told by a NUL in its first four bytes, is left as is.
    """
    if b"\x00" in body[:4] or not _BARE_AMPERSAND_RE.search(body):
        return body
    return _CDATA_OR_BARE_AMPERSAND_RE.sub(_escaped, body)


def _escaped(match: re.Match[bytes]) -> bytes:
    return b"&amp;" if match[0] == b"&" else match[0]


def parse_xml(body: bytes) -> etree._Element:
    """The root element of `body`; entities are not expanded and nothing is fetched."""
    parser = etree.XMLParser(**_PARSER_OPTIONS)  # one per call: lxml parsers keep state
    try:
        root = etree.fromstring(escape_bare_ampersands(body), parser)
    except etree.XMLSyntaxError as error:
        raise MalformedListError(f"not XML: {error}") from None
    if root is None:
        raise MalformedListError("not XML: no root element")
    return root


def refused_entities(body: bytes) -> str | None:
    """Why `body` is read without the entities its internal DTD declares, or None.

    The parsers never expand a DTD entity (``<!DOCTYPE rss [<!ENTITY x "…">]>``): expanding
    is how a billion-laughs body explodes, and an external one reads local files. So text
    using one is read without it, and a body libxml2 finds too amplifying loses everything
    after its DTD: either way the list is not read as written, which the crawl counts and
    says (`newscrawl.spiders.site`) rather than losing entries without a word. The DTD is
    looked for where a parser finds it, after any prolog (`_doctype_start`).
    """
    start = _doctype_start(body)
    if start is None:
        return None
    subset = body.find(b"[", start)
    if subset < 0 or body.find(b">", start, subset) >= 0:
        return None  # no internal subset: ``<!DOCTYPE rss SYSTEM "…">`` declares nothing here
    end = body.find(b"]>", subset)
    names = _ENTITY_DECLARATION_RE.findall(body, subset, end if end >= 0 else len(body))
    if not names:
        return None
    listed = ", ".join(name.decode("latin-1") for name in names[:_MAX_NAMED])
    more = f" and {len(names) - _MAX_NAMED} more" if len(names) > _MAX_NAMED else ""
    return f"DTD entities not expanded (refused): {listed}{more}"


def _doctype_start(body: bytes) -> int | None:
    """Where the ``<!DOCTYPE`` of `body` starts, or None: it may follow a prolog of any
    length (a long comment does not hide it), and nothing after the root element's start
    can be one."""
    if b"<!DOCTYPE" not in body:  # most bodies: no prolog to walk
        return None
    position = 3 if body.startswith(b"\xef\xbb\xbf") else 0
    while True:
        next_mark = _NOT_SPACE_RE.search(body, position)
        if next_mark is None:
            return None
        position = next_mark.start()
        for opening, closing in _PROLOG_SKIPPED:
            if body.startswith(opening, position):
                end = body.find(closing, position + len(opening))
                if end < 0:
                    return None
                position = end + len(closing)
                break
        else:
            return position if body.startswith(b"<!DOCTYPE", position) else None


def local_name(element: etree._Element) -> str:
    """The tag without its namespace (``{http://www.w3.org/2005/Atom}entry`` -> ``entry``)
    or an undeclared prefix (``dc:date`` -> ``date``: feeds that use Dublin Core without
    declaring it, which the parser's recovery keeps as the tag; ``etree.QName`` raises on
    such a name)."""
    tag = element.tag
    return tag.rpartition("}")[2].rpartition(":")[2] if isinstance(tag, str) else ""


def children(element: etree._Element, name: str) -> list[etree._Element]:
    """Direct children called `name` in any namespace."""
    return [child for child in element if local_name(child) == name]


def child_text(element: etree._Element, *names: str) -> str | None:
    """Stripped text of the first child among `names` (in that order of preference)."""
    for name in names:
        for child in children(element, name):
            text = str(child.text or "").strip()
            if text:
                return text
    return None
