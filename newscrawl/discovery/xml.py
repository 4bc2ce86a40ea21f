"""Safe, namespace-blind XML reading shared by the feed and sitemap parsers."""

from __future__ import annotations

from lxml import etree

from newscrawl.discovery.model import MalformedListError

_PARSER_OPTIONS = {"resolve_entities": False, "no_network": True, "recover": True}


def parse_xml(body: bytes) -> etree._Element:
    """The root element of `body`; entities are not expanded and nothing is fetched."""
    parser = etree.XMLParser(**_PARSER_OPTIONS)  # one per call: lxml parsers keep state
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError as error:
        raise MalformedListError(f"not XML: {error}") from None
    if root is None:
        raise MalformedListError("not XML: no root element")
    return root


def local_name(element: etree._Element) -> str:
    """The tag without its namespace (``{http://www.w3.org/2005/Atom}entry`` -> ``entry``)."""
    tag = element.tag
    return etree.QName(tag).localname if isinstance(tag, str) else ""


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
