"""Page-level facts that cost one lookup each: language, canonical URL, description,
tags/keywords and the lead image. (The head's hints to the body extraction, headline and
fallback bodies, are `extract.head_hints`.)"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from newscrawl.extract import native
from newscrawl.extract.head import PageHead
from newscrawl.extract.metadata.lines import PageText

if TYPE_CHECKING:
    import numpy as np

_LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*+$")
SCRIPT_RANGES = (
    ((0x3040, 0x30FF),),
    ((0xAC00, 0xD7AF),),
    ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)),
    ((0x41, 0x5A), (0x61, 0x7A)),
)
"""The code points of kana, hangul, Han and Latin letters (inclusive ranges), in the order
of `script_letters`."""
_TAG_SPLIT_RE = re.compile(r"[,，;；、|]+")
SCRIPT_SAMPLE_CHARS = 5000
MIN_SCRIPT_SHARE = 0.3
"""A script counts as the page's when its letters are at least this share of all letters."""
TAG_META = ("keywords", "news_keywords", "article:tag")


def declared_language(head: PageHead) -> str | None:
    """The language the page declares (`<html lang>`, content-language, og:locale)."""
    metas = head.meta_map
    for value in (
        head.lang,
        metas.get("content-language"),
        metas.get("og:locale"),
        metas.get("language"),
    ):
        if value and _LANG_RE.match(value.strip()):
            return value.strip().replace("_", "-").split("-")[0].lower()
    return None


def script_language(page: PageText) -> str | None:
    """A guess from the letters of the first visible text (lines joined without a gap).

    Visible lines are never empty and hold no line break, so the first
    2 * `SCRIPT_SAMPLE_CHARS` + 1 characters of the lines joined by line breaks hold the
    sample (the whole page is read where they do not)."""
    head = page.joined[: 2 * SCRIPT_SAMPLE_CHARS + 1]
    sample = head.replace("\n", "")
    if len(sample) < SCRIPT_SAMPLE_CHARS and len(head) < len(page.joined):
        sample = page.joined.replace("\n", "")
    return _script_guess(sample[:SCRIPT_SAMPLE_CHARS])


def _script_guess(text: str) -> str | None:
    """zh/ja/ko/en from the share of letters per script; None when there is too little text."""
    kana, hangul, han, latin = script_letters(text)
    # Latin letters count a quarter: an English word carries about as much as one Han.
    counts = {"ja": kana, "ko": hangul, "zh": han, "en": latin // 4}
    total = sum(counts.values())
    if total < 20:
        return None
    if counts["ja"] >= total * 0.1:
        return "ja"
    lang, count = max(counts.items(), key=lambda item: item[1])
    return lang if count >= total * MIN_SCRIPT_SHARE else None


@cache
def _script_table() -> np.ndarray:
    """By UTF-16 code unit (none of `SCRIPT_RANGES` reaches U+10000): 1 + the index of
    its script in `SCRIPT_RANGES`, or 0. Built on first use, as numpy is imported: only
    where the C count is missing (importing the extractor does not load numpy)."""
    import numpy as np

    table = np.zeros(0x10000, dtype=np.uint8)
    for script, ranges in enumerate(SCRIPT_RANGES, start=1):
        for low, high in ranges:
            table[low : high + 1] = script
    return table


def script_letters(text: str) -> tuple[int, int, int, int]:
    """How many kana, hangul, Han and Latin letters `text` has (`SCRIPT_RANGES`). In C
    (``_blockscan.range_counts``) where built: numpy's calls on a few thousand characters
    cost a tenth of the metadata's time in a crawl."""
    if native.blockscan is None:
        return _script_letters_numpy(text)
    kana, hangul, han, latin = native.blockscan.range_counts(text, SCRIPT_RANGES)
    return kana, hangul, han, latin


def _script_letters_numpy(text: str) -> tuple[int, int, int, int]:
    """`script_letters` in Python, the reference of the C one and the fallback. On the
    UTF-16 code units as an array, each looked up in a table of their scripts: a regular
    expression per script took ten times as long, a comparison per range three times (the
    crawl loads numpy anyway, for the fingerprints). A character beyond U+FFFF is two
    surrogate units, and surrogates belong to no script."""
    import numpy as np

    units = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), dtype=np.uint16)
    scripts = _script_table().take(units)
    kana, hangul, han, latin = (
        int(np.count_nonzero(scripts == script)) for script in range(1, len(SCRIPT_RANGES) + 1)
    )
    return kana, hangul, han, latin


def canonical_url(head: PageHead, url: str | None) -> str | None:
    """`<link rel=canonical>`, else og:url, resolved against the page URL."""
    value = head.canonical or head.meta_map.get("og:url")
    return _absolute(value, url) if value else None


def description(metas: Mapping[str, str]) -> str | None:
    for key in ("description", "og:description", "twitter:description", "dc.description"):
        if metas.get(key):
            return " ".join(metas[key].split())
    return None


def tags(head: PageHead) -> tuple[str, ...]:
    """Keywords and article:tag values (a page may have many), split on , ; 、 |,
    de-duplicated in order."""
    values = [head.meta_map[key] for key in TAG_META if key in head.meta_map]
    values.extend(content for key, content in head.metas if key == "article:tag")
    seen: dict[str, None] = {}
    for value in values:
        for tag in _TAG_SPLIT_RE.split(value):
            tag = tag.strip()
            if tag:
                seen.setdefault(tag, None)
    return tuple(seen)


def top_image(metas: Mapping[str, str], url: str | None) -> str | None:
    for key in ("og:image", "og:image:url", "twitter:image", "twitter:image:src", "image"):
        if metas.get(key):
            return _absolute(metas[key], url)
    return None


def _absolute(href: str, base: str | None) -> str | None:
    href = href.strip()
    if not href:
        return None
    try:
        return urljoin(base, href) if base else href
    except ValueError:
        return href
