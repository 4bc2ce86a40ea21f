"""RSS 2.0, RSS 1.0 (RDF) and Atom feeds: the entries' links and dates."""

from __future__ import annotations

from datetime import tzinfo
from urllib.parse import urljoin

from lxml import etree

from newscrawl.discovery.dates import parse_datetime
from newscrawl.discovery.model import Entry, MalformedListError
from newscrawl.discovery.xml import child_text, children, local_name, parse_xml

FEED_ROOTS = frozenset({"rss", "feed", "RDF"})


def parse_feed(body: bytes, base_url: str, zone: tzinfo) -> list[Entry]:
    """Entries of the feed in `body`; raises `MalformedListError` when it is not a feed."""
    root = parse_xml(body)
    if local_name(root) not in FEED_ROOTS:
        raise MalformedListError(f"not a feed: root element <{local_name(root)}>")
    entries = []
    for item in root.iter():
        if local_name(item) not in {"item", "entry"}:
            continue
        link = _link(item)
        if link:
            date = child_text(item, "published", "pubDate", "date", "updated")
            entries.append(Entry(urljoin(base_url, link), parse_datetime(date, zone)))
    return entries


def _link(item: etree._Element) -> str | None:
    """RSS ``<link>text``, Atom ``<link rel="alternate" href>``, else a permalink ``<guid>``."""
    for link in children(item, "link"):
        href = str(link.get("href") or "").strip()
        text = str(link.text or "").strip()
        if href and link.get("rel", "alternate") == "alternate":
            return href
        if not href and text:
            return text
    guid = children(item, "guid")
    if guid and guid[0].get("isPermaLink", "true") == "true":
        return str(guid[0].text or "").strip() or None
    return None
