"""Article metadata: publication time, author/source/editor, language, canonical URL,
description, tags and lead image.

    >>> from newscrawl.extract.metadata import extract_metadata
    >>> meta = extract_metadata(page_bytes_or_text_or_tree, url, fetched_at)
    >>> meta.published, meta.published_precision, meta.author, meta.source

The page is parsed once (or the caller's lxml tree is reused, so the body extractor and
this package can share one parse); each job reads that tree. Never raises on bad input:
empty, broken or binary pages give an empty `Metadata`. Pure and thread-safe.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo

from lxml import html

from newscrawl.extract.metadata import dates, jsonld, lines, page_meta, people
from newscrawl.extract.metadata.dates import SHANGHAI, Precision
from newscrawl.extract.metadata.parse import Source, meta_map, parse_html

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
) -> Metadata:
    """Metadata of one page given as bytes, decoded text or a parsed lxml tree.

    `fetched_at` anchors relative dates (昨天 10:00) and year-less bylines, and rejects
    dates after the fetch; `zone` is used for times the page writes without an offset.
    """
    root = parse_html(page)
    if root is None:
        return Metadata()
    return _from_tree(root, url, fetched_at, zone)


def _from_tree(
    root: html.HtmlElement, url: str | None, fetched_at: datetime | None, zone: tzinfo
) -> Metadata:
    metas = meta_map(root)
    visible = lines.text_lines(root)
    title_at = lines.title_index(visible, _page_title(root))
    header: list[lines.Line] = []
    header_title_at: int | None = None
    if title_at is not None:
        header = lines.header_window(visible, title_at)
        header_title_at = min(title_at, lines.HEADER_LINES_BEFORE)
    ld_objects = jsonld.article_objects(root)
    found = dates.published(
        root, metas, ld_objects, header, header_title_at, visible, url, fetched_at, zone
    )
    names = people.people(root, header, visible, metas, ld_objects)
    return Metadata(
        published=found.value if found else None,
        published_precision=found.precision if found else None,
        published_source=found.source if found else None,
        author=names.author,
        source=names.source,
        editor=names.editor,
        lang=page_meta.language(root, metas, visible),
        canonical_url=page_meta.canonical_url(root, metas, url),
        description=page_meta.description(metas),
        tags=page_meta.tags(root, metas),
        top_image=page_meta.top_image(metas, url),
    )


def _page_title(root: html.HtmlElement) -> str:
    title = root.find(".//title")
    return title.text_content() if title is not None else ""
