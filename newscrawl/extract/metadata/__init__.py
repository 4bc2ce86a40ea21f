"""Article metadata: publication time, author/source/editor, language, canonical URL,
description, tags and lead image.

    >>> from newscrawl.extract.metadata import extract_metadata
    >>> meta = extract_metadata(page_bytes_or_text_or_tree, url, fetched_at)
    >>> meta.published, meta.published_precision, meta.author, meta.source

The page is parsed once with lxml (or the caller's tree is reused) for its head, JSON-LD,
scripts and date attributes; the visible text comes from the body extractor's line pass
(`blocks.page_lines`), passed in by the caller that ran it, so it is not walked twice.
Never raises on bad input: empty, broken or binary pages give an empty `Metadata`. Pure
and thread-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo

from lxml import etree

from newscrawl.extract import blocks
from newscrawl.extract.blocks import PageLines
from newscrawl.extract.metadata import dates, jsonld, lines, page_meta, people
from newscrawl.extract.metadata.dates import SHANGHAI, Precision
from newscrawl.extract.metadata.parse import Source, meta_map, page_text, parse_text

__all__ = ["SHANGHAI", "Metadata", "Precision", "extract_metadata"]


@dataclass(frozen=True, slots=True)
class Metadata:
    """What the page says about itself; every field None/empty when the page does not say.

    `published` is timezone-aware; `published_precision` tells scoring whether to compare
    to the second, the minute or the day, and `published_source` names the evidence.
    """

    published: datetime | None = None
    published_precision: Precision | None = None
    published_source: str | None = None
    author: str | None = None
    source: str | None = None
    editor: str | None = None
    lang: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    tags: tuple[str, ...] = ()
    top_image: str | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping (the time as ISO-8601 with its offset)."""
        return {
            "published": self.published.isoformat() if self.published else None,
            "published_precision": self.published_precision,
            "published_source": self.published_source,
            "author": self.author,
            "source": self.source,
            "editor": self.editor,
            "lang": self.lang,
            "canonical_url": self.canonical_url,
            "description": self.description,
            "tags": list(self.tags),
            "top_image": self.top_image,
        }


def extract_metadata(
    page: Source,
    url: str | None = None,
    fetched_at: datetime | None = None,
    *,
    zone: tzinfo = SHANGHAI,
    body_lines: PageLines | None = None,
) -> Metadata:
    """Metadata of one page given as bytes, decoded text or a parsed lxml tree.

    `fetched_at` anchors relative dates (昨天 10:00) and year-less bylines, and rejects
    dates after the fetch; `zone` is used for times the page writes without an offset.
    `body_lines` are the page's `blocks.page_lines`, when the caller (the default body
    method) has them already: the visible-text evidence is read from them.
    """
    try:
        if isinstance(page, etree._Element):
            root: etree._Element | None = page
            markup = etree.tostring(page, encoding="unicode", method="html")
        else:
            markup = page_text(page)
            root = parse_text(markup)
        if root is None:
            return Metadata()
        if body_lines is None:
            body_lines = blocks.page_lines(markup)
        return _from_tree(root, markup, lines.visible_lines(body_lines), url, fetched_at, zone)
    except (RecursionError, MemoryError):
        return Metadata()


def _from_tree(
    root: etree._Element,
    markup: str,
    visible: list[lines.Line],
    url: str | None,
    fetched_at: datetime | None,
    zone: tzinfo,
) -> Metadata:
    metas = meta_map(root)
    title = _page_title(root)
    ld_objects = jsonld.article_objects(root)
    scripts = _inline_scripts(root)
    structured = dates.structured(root, metas, ld_objects, scripts, markup, url, fetched_at, zone)
    canonical = page_meta.canonical_url(root, metas, url)
    tags = page_meta.tags(root, metas)
    declared_lang = page_meta.declared_language(root, metas)
    page_text = lines.PageText.of(visible)
    title_at = lines.title_index(visible, title)
    header: list[lines.Line] = []
    header_title_at: int | None = None
    if title_at is not None:
        header = lines.header_window(visible, title_at)
        header_title_at = min(title_at, lines.HEADER_LINES_BEFORE)
    found = dates.published(structured, header, header_title_at, page_text, url, fetched_at, zone)
    names = people.people(
        scripts, header, page_text, metas, ld_objects, _lead(page_text, title_at), title_at
    )
    return Metadata(
        published=found.value if found else None,
        published_precision=found.precision if found else None,
        published_source=found.source if found else None,
        author=names.author,
        source=names.source,
        editor=names.editor,
        lang=declared_lang or page_meta.script_language(page_text),
        canonical_url=canonical,
        description=page_meta.description(metas),
        tags=tags,
        top_image=page_meta.top_image(metas, url),
    )


def _lead(page: lines.PageText, title_at: int | None) -> tuple[str, ...]:
    """The two lines under the headline, or under the first line when none was found
    (pages whose <title> names only the site or a viewer, "显示")."""
    at = title_at if title_at is not None else 0
    return page.texts[at + 1 : at + 3]


def _page_title(root: etree._Element) -> str:
    title = root.find(".//title")
    return "".join(title.itertext()) if title is not None else ""


def _inline_scripts(root: etree._Element) -> list[str]:
    """Texts of inline scripts (JSON-LD aside, where dates and writer names hide)."""
    return [
        script.text for script in root.iter("script") if script.get("src") is None and script.text
    ]
