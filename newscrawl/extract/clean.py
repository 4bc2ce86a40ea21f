"""The paper's preprocessing: page source to numbered plain-text lines.

The paper does this with regular expressions. Patterns such as ``<script.*?</script>`` or
``<[^>]*>`` rescan to the end of the page from every unmatched start, which is quadratic
on broken pages (many unclosed tags). These scanners do the same removals with
``str.find`` so every character is visited a bounded number of times: linear time.
"""

from __future__ import annotations

import html
import re

_WHITESPACE_RE = re.compile(r"\s+")
_TAG_START_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?")
_NOISE_BLOCKS = (("<!--", "-->"), ("<script", "</script"), ("<style", "</style"))
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """Lower-case copy of `text` with the same length, so indices into it fit `text`.

    ``str.lower`` can lengthen a string (U+0130 becomes two code points), which would
    shift every index after it.
    """
    lower = text.lower()
    return lower if len(lower) == len(text) else text.translate(_ASCII_LOWER)


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace (NBSP and U+3000 included) become one space; ends stripped."""
    return _WHITESPACE_RE.sub(" ", text).strip()


def remove_noise(page: str) -> str:
    """Drop comments, ``<script>`` and ``<style>`` blocks, then everything before ``<body``.

    An unclosed block runs to the end of the page, as it does in a browser.
    """
    lower = ascii_lower(page)
    pieces: list[str] = []
    position = 0
    next_start = {opener: lower.find(opener) for opener, _ in _NOISE_BLOCKS}
    while True:
        candidates = [(start, opener) for opener, start in next_start.items() if start >= 0]
        if not candidates:
            break
        start, opener = min(candidates)
        closer = dict(_NOISE_BLOCKS)[opener]
        pieces.append(page[position:start])
        end = lower.find(closer, start + len(opener))
        if end < 0:
            position = len(page)
            break
        position = _end_of_tag(lower, end) if closer != "-->" else end + len(closer)
        for name, found in next_start.items():
            if 0 <= found < position:
                next_start[name] = lower.find(name, position)
    pieces.append(page[position:])
    cleaned = "".join(pieces)
    body_at = ascii_lower(cleaned).find("<body")
    return cleaned[body_at:] if body_at >= 0 else cleaned


def _end_of_tag(lower: str, start: int) -> int:
    """Index just past the ``>`` that closes the tag opened at `start` (or the page's end)."""
    close = lower.find(">", start)
    return len(lower) if close < 0 else close + 1


def strip_tags(page: str) -> str:
    """Remove every tag, keeping text. A ``<`` that cannot start a tag stays as text."""
    pieces: list[str] = []
    position = 0
    while True:
        start = page.find("<", position)
        if start < 0:
            break
        if start + 1 < len(page) and page[start + 1] not in _TAG_START_CHARS:
            pieces.append(page[position : start + 1])
            position = start + 1
            continue
        pieces.append(page[position:start])
        close = page.find(">", start)
        if close < 0:
            position = len(page)
            break
        position = close + 1
    pieces.append(page[position:])
    return "".join(pieces)


def text_lines(page: str) -> list[str]:
    """Noise removal, tag stripping, entity decoding, whitespace clean-up; one entry a line.

    Line breaks are the page source's own, as in the paper.
    """
    text = html.unescape(strip_tags(remove_noise(page)))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [collapse_whitespace(line) for line in text.split("\n")]


def element_text(page: str, lower: str, tag: str) -> str | None:
    """Text of the first ``<tag>`` element, tags stripped and entities decoded, or None."""
    start = lower.find(f"<{tag}")
    while start >= 0:
        after = start + len(tag) + 1
        if after < len(lower) and (lower[after] in "> \t\r\n/"):
            break
        start = lower.find(f"<{tag}", after)
    if start < 0:
        return None
    open_end = lower.find(">", start)
    if open_end < 0:
        return None
    close = lower.find(f"</{tag}", open_end)
    inner = page[open_end + 1 : close if close >= 0 else len(page)]
    return collapse_whitespace(html.unescape(strip_tags(inner)))


_META_TITLE_RE = re.compile(
    r"""<meta\b[^>]{0,2000}?(?:property|name)\s*=\s*["']?(?:og:title|title)["']?[^>]{0,2000}>""",
    re.IGNORECASE,
)
_CONTENT_ATTR_RE = re.compile(r"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)


def page_title(page: str) -> str:
    """The paper's title rule: ``<title>``, else the page heading (``<h1>``, a title meta)."""
    lower = ascii_lower(page)
    for tag in ("title", "h1"):
        text = element_text(page, lower, tag)
        if text:
            return text
    meta = _META_TITLE_RE.search(page)
    if meta:
        content = _CONTENT_ATTR_RE.search(meta.group(0))
        if content:
            value = next(group for group in content.groups() if group is not None)
            return collapse_whitespace(html.unescape(value))
    return ""
