"""Article metadata: publication time, author/source/editor, language, canonical URL,
description, tags and lead image.

    >>> from newscrawl.extract.metadata import extract_metadata
    >>> meta = extract_metadata(page_bytes_or_text_or_tree, url, fetched_at)
    >>> meta.published, meta.published_precision, meta.author, meta.source

The page is read with the body extractor's passes: its head scan (`head.PageHead`: metas,
JSON-LD, scripts, canonical link, language) and its line pass (`blocks.page_lines`: the
visible text, and the tags that may carry a date: `<time>`, ``itemprop``, ``data-*``),
handed over by a caller that ran them; no DOM is built. Never raises on bad input: empty,
broken or binary pages give an empty `Metadata`. Pure and thread-safe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from functools import partial
from typing import NamedTuple

from lxml import etree

from newscrawl.extract import blocks
from newscrawl.extract.blocks import DatedTag, Line, PageLines
from newscrawl.extract.head import PageHead
from newscrawl.extract.metadata import bylines, dates, jsonld, lines, page_facts, people
from newscrawl.extract.metadata.dates import SHANGHAI, Precision
from newscrawl.extract.metadata.parse import Source, page_text
from newscrawl.extract.metadata.scripts import PageScripts
from newscrawl.extract.title import site_names

KEYWORDS = dates.KEYWORDS + people.KEYWORDS
"""Every keyword the rules look up in the page's lines (found in one pass, `PageText`)."""
SCRIPT_NAMES = tuple(sorted(dates.SCRIPT_NAMES | people.SCRIPT_NAMES))
"""Every name the rules look for in the page's scripts (found in one pass, `PageScripts`)."""

MAX_DATED_TAGS = 5000
"""How many of the page's dated tags (`blocks.DatedTag`) are read: a publication date or
an author's ``itemprop`` is among the first (the dataset pages have up to 1,612), and each
costs the rules a Python step, which on a page of nothing but ``<time>`` tags made it a
dozen times slower per MB than the median page."""

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
    evidence: Mapping[str, str] = field(default_factory=dict)
    """Where each value came from (``{"published": "json-ld", "author": "byline
    element", "lang": "declared"}``), as ``--explain`` shows it."""
    refused_authors: tuple[str, ...] = ()
    """Author candidates found and refused, each with why (``--explain``): when all are,
    the author is None rather than a guess."""

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
            "evidence": dict(self.evidence),
            "refused_authors": list(self.refused_authors),
        }


def extract_metadata(
    page: Source,
    url: str | None = None,
    fetched_at: datetime | None = None,
    *,
    zone: tzinfo = SHANGHAI,
    body_lines: PageLines | None = None,
    head: PageHead | None = None,
    headings: Sequence[Line] | None = None,
) -> Metadata:
    """Metadata of one page given as bytes, decoded text or a parsed lxml tree.

    `fetched_at` anchors relative dates (昨天 10:00) and year-less bylines, and rejects
    dates after the fetch; `zone` is used for times the page writes without an offset.
    A caller that has read the page already passes what it has (the default body method
    does): its `blocks.page_lines` as `body_lines`, its `PageHead` as `head` and its
    `blocks.heading_lines` as `headings`.
    """
    try:
        if isinstance(page, etree._Element):
            markup = etree.tostring(page, encoding="unicode", method="html")
        else:
            markup = page_text(page)
        if "<" not in markup:
            return Metadata()
        if body_lines is None:
            body_lines = blocks.page_lines(markup)
        unquoted = lines.without_quotations(body_lines)
        if unquoted is not body_lines:  # the caller's headings may stand in a quotation
            body_lines, headings = unquoted, None
        head = head or PageHead(markup)
        other_content, visible, texts = _article_lines(body_lines, head.title, headings)
        tags = body_lines.dated[:MAX_DATED_TAGS]
        closing = _post_footers(tags)
        dated = [
            tag
            for tag in tags
            if tag.noise_element not in other_content or tag.noise_element in closing
        ]
        scan = _Found(
            dated,
            visible,
            texts,
            bylines.byline_texts(body_lines, other_content),
            body_lines.lines,
            closing,
        )
        return _read(head, scan, url, fetched_at, zone)
    except (RecursionError, MemoryError):
        return Metadata()


def _article_lines(
    body_lines: PageLines, title: str, headings: Sequence[Line] | None
) -> tuple[set[int], list[lines.VisibleLine], lines.PageText]:
    """The boxes about other content (`lines.other_content_boxes`), and the visible lines
    outside them with their `PageText`. Where no visible heading is the headline, a box
    that holds the page's only headline heading is the article's (`lines.headline_boxes`,
    among the page's `headings`, picked out here where the caller has none)."""
    other_content = lines.other_content_boxes(body_lines)
    visible = lines.visible_lines(body_lines, other_content)
    texts = lines.PageText.of(visible, KEYWORDS)
    if lines.holds_a_title_heading(texts, title):
        return other_content, visible, texts
    if headings is None:
        headings = blocks.heading_lines(body_lines)
    hidden = lines.headline_boxes(headings, title, other_content)
    if not hidden:
        return other_content, visible, texts
    other_content -= hidden
    visible = lines.visible_lines(body_lines, other_content)
    return other_content, visible, lines.PageText.of(visible, KEYWORDS)


def _post_footers(dated: list[DatedTag]) -> set[int]:
    """The footer boxes that close a post, not the page, marked up as such: those holding
    an ``itemprop=author`` tag, a microformats publish time (`dates.marks_a_publish_time`)
    or an hAtom entry's author card (`bylines.is_entry_author_card`). Blog platforms write
    the post's "Posted by <author> at <time>" in a box named a footer (Blogger's
    ``post-footer``, WordPress themes' ``entry-footer``), which would otherwise count as
    other content, and their dated tags are read; a page's footer, or a teaser's, marks up
    none of these."""
    return {
        tag.noise_element
        for tag in dated
        if tag.noise == "footer"
        and (
            dates.marks_a_publish_time(tag)
            or bylines.marks_an_author(tag.attributes)
            or bylines.is_entry_author_card(tag)
        )
    }


def _post_footer_lines(
    body_lines: Sequence[Line], closing: set[int], platform_bylines: bool
) -> list[str]:
    """The lines of the footers that close the post (`_post_footers`), and with
    `platform_bylines` (a page in Latin script) those of any footer box that open with a
    blog platform's byline (`bylines.opens_with_a_byline`: templates without the markup
    write "Posted by … on …" there too), in page order. A pass over every line, so asked
    for only where no byline before it named the author, and skipped where there is
    nothing to look for."""
    if not closing and not platform_bylines:
        return []
    return [
        line.text
        for line in body_lines
        if line.noise_element in closing
        or (platform_bylines and line.noise == "footer" and bylines.opens_with_a_byline(line.text))
    ]


class _Found(NamedTuple):
    """What the line pass gives the metadata rules."""

    dated: list[DatedTag]
    visible: list[lines.VisibleLine]
    page_text: lines.PageText
    """`visible`'s texts, headings and keyword index."""
    byline_texts: list[str]
    lines: list[Line]
    """The body pass's lines, every one."""
    closing: set[int]
    """The footer boxes marked up as the post's (`_post_footers`)."""


def _read(
    head: PageHead, scan: _Found, url: str | None, fetched_at: datetime | None, zone: tzinfo
) -> Metadata:
    dated, visible, page_text = scan.dated, scan.visible, scan.page_text
    metas = head.meta_map
    ld_objects = jsonld.article_objects(head.scripts)
    scripts = PageScripts([script.text for script in head.scripts if script.text], SCRIPT_NAMES)
    structured = dates.structured(dated, metas, ld_objects, scripts, url, fetched_at, zone)
    title_at = lines.title_index(page_text, visible, head.title, site_names(url))
    header: list[lines.VisibleLine] = []
    header_title_at: int | None = None
    if title_at is not None:
        header = lines.header_window(visible, title_at)
        header_title_at = min(title_at, lines.HEADER_LINES_BEFORE)
    found = dates.published(structured, header, header_title_at, page_text, url, fetched_at, zone)
    script = page_facts.script_language(page_text)
    declared = page_facts.declared_language(head)
    latin = script == "en"
    markup = people.Markup(
        byline_texts=scan.byline_texts,
        post_footer_texts=partial(_post_footer_lines, scan.lines, scan.closing, latin),
        itemprop_authors=bylines.itemprop_authors(dated),
        rel_authors=partial(bylines.rel_authors, dated),
        hcard_authors=partial(bylines.hcard_authors, dated),
        outlets=bylines.outlet_names(metas.get("og:site_name"), head.title, url),
        latin=latin,
    )
    names = people.people(
        scripts,
        header,
        page_text,
        metas,
        ld_objects,
        _lead(page_text, title_at),
        title_at,
        markup=markup,
    )
    return Metadata(
        published=found.value if found else None,
        published_precision=found.precision if found else None,
        published_source=found.source if found else None,
        author=names.author,
        source=names.source,
        editor=names.editor,
        lang=declared or script,
        canonical_url=page_facts.canonical_url(head, url),
        description=page_facts.description(metas),
        tags=page_facts.tags(head),
        top_image=page_facts.top_image(metas, url),
        evidence={
            **({"published": found.source} if found else {}),
            **names.evidence,
            **({"lang": "declared" if declared else "script"} if declared or script else {}),
        },
        refused_authors=names.refused,
    )


def _lead(page: lines.PageText, title_at: int | None) -> tuple[str, ...]:
    """The two lines under the headline, or under the first line when none was found
    (pages whose <title> names only the site or a viewer, "显示")."""
    at = title_at if title_at is not None else 0
    return page.texts[at + 1 : at + 3]
