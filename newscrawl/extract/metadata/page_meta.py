"""Page-level facts that cost one lookup each: language, canonical URL, description,
tags/keywords and the lead image."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import urljoin

from lxml import html

from newscrawl.extract.metadata.lines import Line

_LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_RE = re.compile(r"[\u3040-\u30ff]")
_HANGUL_RE = re.compile(r"[\uac00-\ud7af]")
_LATIN_RE = re.compile(r"[A-Za-z]")
_TAG_SPLIT_RE = re.compile(r"[,，;；、|]+")
SCRIPT_SAMPLE_CHARS = 5000
MIN_SCRIPT_SHARE = 0.3
"""A script counts as the page's when its letters are at least this share of all letters."""
TAG_META = ("keywords", "news_keywords", "article:tag")


def language(root: html.HtmlElement, metas: Mapping[str, str], lines: Sequence[Line]) -> str | None:
    """Primary language subtag: `<html lang>`, then meta, then a guess from the script."""
    for value in (
        root.get("lang"),
        root.get("xml:lang"),
        metas.get("content-language"),
        metas.get("og:locale"),
        metas.get("language"),
    ):
        if value and _LANG_RE.match(value.strip()):
            return value.strip().replace("_", "-").split("-")[0].lower()
    return _script_guess("".join(line.text for line in lines)[:SCRIPT_SAMPLE_CHARS])


def _script_guess(text: str) -> str | None:
    """zh/ja/ko/en from the share of letters per script; None when there is too little text."""
    # Latin letters count a quarter: an English word carries about as much as one Han.
    counts = {
        "ja": len(_KANA_RE.findall(text)),
        "ko": len(_HANGUL_RE.findall(text)),
        "zh": len(_CJK_RE.findall(text)),
        "en": len(_LATIN_RE.findall(text)) // 4,
    }
    total = sum(counts.values())
    if total < 20:
        return None
    if counts["ja"] >= total * 0.1:
        return "ja"
    lang, count = max(counts.items(), key=lambda item: item[1])
    return lang if count >= total * MIN_SCRIPT_SHARE else None


def canonical_url(root: html.HtmlElement, metas: Mapping[str, str], url: str | None) -> str | None:
    """`<link rel=canonical>`, else og:url, resolved against the page URL."""
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            return _absolute(link.get("href", ""), url)
    value = metas.get("og:url")
    return _absolute(value, url) if value else None


def description(metas: Mapping[str, str]) -> str | None:
    for key in ("description", "og:description", "twitter:description", "dc.description"):
        if metas.get(key):
            return " ".join(metas[key].split())
    return None


def tags(root: html.HtmlElement, metas: Mapping[str, str]) -> tuple[str, ...]:
    """Keywords and article:tag values, split on , ; 、 |, de-duplicated in order."""
    values = [metas[key] for key in TAG_META if key in metas]
    values.extend(
        meta.get("content") or ""
        for meta in root.iter("meta")
        if (meta.get("property") or "").lower() == "article:tag"
    )
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
