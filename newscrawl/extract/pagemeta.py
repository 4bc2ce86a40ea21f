"""What a page says about itself in its head: ``<title>``, ``<meta>`` and JSON-LD.

The default method reads these for the title and for its fallbacks on short pages. They
are found with a few linear, case-insensitive regex scans of the raw text (no DOM, no
lower-cased copy of the page), and a JSON-LD block is only parsed when the page names an
``articleBody`` at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import NamedTuple

from newscrawl.extract.clean import collapse_whitespace, strip_tags, unescape

_TITLE_RE = re.compile(r"<title\b[^>]*(?:>|\Z)", re.IGNORECASE)
_TITLE_END_RE = re.compile(r"</title", re.IGNORECASE)
_META_RE = re.compile(r"<meta\s[^>]*(?:>|\Z)", re.IGNORECASE)
_META_KEY_RE = re.compile(r"""(?:name|property|itemprop)\s*=\s*["']?([^"'\s>]+)""", re.IGNORECASE)
_CONTENT_RE = re.compile(r"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_SCRIPT_RE = re.compile(r"<script\b([^>]*)(?:>|\Z)", re.IGNORECASE)
_SCRIPT_END_RE = re.compile(r"</script", re.IGNORECASE)
# A tag may run to the end of the page (``\Z``): every scan moves forward, none retries from
# each "<meta" of a page that never closes one (which took seconds on 100 KB).
_WANTED = frozenset({"og:title", "twitter:title", "og:description", "description"})


class PageMeta(NamedTuple):
    """The head's statements the default method uses; empty strings where absent."""

    title: str
    """The ``<title>`` text (often with a site suffix: "标题_新浪网", "Headline - Site")."""
    og_title: str
    """``og:title`` or ``twitter:title``: usually the bare headline."""
    description: str
    """``og:description`` or the description meta: a summary or the article's first lines."""
    article_body: str
    """The longest JSON-LD ``articleBody``."""


def page_meta(page: str) -> PageMeta:
    """Read the title, head metas and JSON-LD article body of a decoded page."""
    metas = _metas(page)
    return PageMeta(
        title=_title(page),
        og_title=metas.get("og:title") or metas.get("twitter:title", ""),
        description=metas.get("og:description") or metas.get("description", ""),
        article_body=max(_article_bodies(page), key=len, default=""),
    )


def _title(page: str) -> str:
    start = _TITLE_RE.search(page)
    if start is None:
        return ""
    close = _TITLE_END_RE.search(page, start.end())
    if close is None:
        return ""
    return collapse_whitespace(unescape(page[start.end() : close.start()]))


def _metas(page: str) -> dict[str, str]:
    """Content of the wanted metas, first one of each key wins."""
    found: dict[str, str] = {}
    for match in _META_RE.finditer(page):
        key = _META_KEY_RE.search(match.group(0))
        name = key.group(1).lower() if key else ""
        if name not in _WANTED or name in found:
            continue
        content = _CONTENT_RE.search(match.group(0))
        if content:
            value = next(group for group in content.groups() if group is not None)
            found[name] = collapse_whitespace(unescape(value))
    return found


def _article_bodies(page: str) -> Iterator[str]:
    """The ``articleBody`` strings of the page's JSON-LD blocks (unparsable blocks skipped)."""
    if "articleBody" not in page:
        return
    for match in _SCRIPT_RE.finditer(page):
        if "application/ld+json" not in match.group(1).lower():
            continue
        close = _SCRIPT_END_RE.search(page, match.end())
        if close is None:
            return
        try:
            data = json.loads(page[match.end() : close.start()], strict=False)
        except (ValueError, RecursionError):
            continue
        for body in _find_bodies(data):
            yield collapse_whitespace(unescape(strip_tags(body)))


def _find_bodies(data: object) -> Iterator[str]:
    """``articleBody`` values anywhere in a JSON-LD value (``@graph``, lists, nesting)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            body = item.get("articleBody")
            if isinstance(body, str):
                yield body
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
