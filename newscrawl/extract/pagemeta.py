"""What a page says about itself in its head: ``<title>``, ``<meta>`` and JSON-LD.

The default method reads these for the title and for its fallbacks on short pages. They
are found with a few linear regex scans of the raw text (no DOM; the line scan skips
``<head>`` content and scripts), and a JSON-LD block is only parsed when the page names an
``articleBody`` at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import NamedTuple

from newscrawl.extract.blocks import unescape
from newscrawl.extract.clean import ascii_lower, collapse_whitespace, strip_tags

_META_RE = re.compile(r"<meta\s[^>]*>")
_META_KEY_RE = re.compile(r"""(?:name|property|itemprop)\s*=\s*["']?([^"'\s>]+)""")
_CONTENT_RE = re.compile(r"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_LD_JSON_RE = re.compile(r"<script[^>]*application/ld\+json[^>]*>")
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


def page_meta(page: str, lower: str | None = None) -> PageMeta:
    """Read the title, head metas and JSON-LD article body of a decoded page (`lower` is
    `ascii_lower(page)` when the caller has it already)."""
    if lower is None:
        lower = ascii_lower(page)
    metas = _metas(page, lower)
    return PageMeta(
        title=_title(page, lower),
        og_title=metas.get("og:title") or metas.get("twitter:title", ""),
        description=metas.get("og:description") or metas.get("description", ""),
        article_body=max(_article_bodies(page, lower), key=len, default=""),
    )


def _title(page: str, lower: str) -> str:
    start = lower.find("<title")
    if start < 0:
        return ""
    open_end = lower.find(">", start)
    close = lower.find("</title", open_end)
    if open_end < 0 or close < 0:
        return ""
    return collapse_whitespace(unescape(page[open_end + 1 : close]))


def _metas(page: str, lower: str) -> dict[str, str]:
    """Content of the wanted metas, first one of each key wins."""
    found: dict[str, str] = {}
    for match in _META_RE.finditer(lower):
        key = _META_KEY_RE.search(match.group(0))
        if key is None or key.group(1) not in _WANTED or key.group(1) in found:
            continue
        content = _CONTENT_RE.search(page, match.start(), match.end())
        if content:
            value = next(group for group in content.groups() if group is not None)
            found[key.group(1)] = collapse_whitespace(unescape(value))
    return found


def _article_bodies(page: str, lower: str) -> Iterator[str]:
    """The ``articleBody`` strings of the page's JSON-LD blocks (unparsable blocks skipped)."""
    if "articlebody" not in lower:
        return
    for match in _LD_JSON_RE.finditer(lower):
        close = lower.find("</script", match.end())
        if close < 0:
            return
        try:
            data = json.loads(page[match.end() : close], strict=False)
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
