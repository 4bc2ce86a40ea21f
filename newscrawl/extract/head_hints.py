"""The head's hints to the default method (from `head.PageHead`): the title and og:title
for the headline, the description and the JSON-LD ``articleBody`` for its fallbacks on
short pages, a recipe's JSON-LD ingredients for its selection. (The metadata's own reading
of the head, language, canonical URL, tags, lead image, is `metadata.page_facts`.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from newscrawl.extract.clean import collapse_whitespace, strip_tags, unescape
from newscrawl.extract.head import MAX_TITLE_CHARS, PageHead
from newscrawl.extract.metadata import jsonld


class HeadHints(NamedTuple):
    """The head's statements the default method uses; empty strings where absent."""

    title: str
    """The ``<title>`` text (often with a site suffix: "标题_新浪网", "Headline - Site")."""
    og_title: str
    """``og:title`` or ``twitter:title``: usually the bare headline."""
    description: str
    """``og:description`` or the description meta: a summary or the article's first lines."""
    article_body: str
    """The longest JSON-LD ``articleBody``."""
    ingredients: tuple[str, ...]
    """A JSON-LD Recipe's ``recipeIngredient`` items: the ingredient list is part of the
    recipe, though its short lines score like a menu."""


def head_hints(head: PageHead) -> HeadHints:
    """The title, description and JSON-LD article body from a page's `PageHead`."""
    metas = head.meta_map
    return HeadHints(
        title=head.title,
        og_title=collapse_whitespace(
            (metas.get("og:title") or metas.get("twitter:title", ""))[:MAX_TITLE_CHARS]
        ),
        description=collapse_whitespace(
            metas.get("og:description") or metas.get("description", "")
        ),
        article_body=max(_article_bodies(head), key=len, default=""),
        ingredients=_ingredients(head),
    )


def _ingredients(head: PageHead) -> tuple[str, ...]:
    """The ``recipeIngredient`` strings of the page's JSON-LD objects (only scripts that
    name them are parsed; a search of the JSON-LD scripts, not of the whole page)."""
    scripts = [script for script in head.json_ld if "recipeIngredient" in script.text]
    return tuple(
        collapse_whitespace(unescape(strip_tags(item)))
        for obj in jsonld.objects(scripts)
        if isinstance(items := obj.get("recipeIngredient"), list)
        for item in items
        if isinstance(item, str)
    )


def _article_bodies(head: PageHead) -> Iterator[str]:
    """The ``articleBody`` strings of the page's JSON-LD blocks, read as the metadata reads
    them (`jsonld.parse`: unparsable blocks skipped); only blocks that name an
    ``articleBody`` are parsed."""
    for script in head.json_ld:
        if "articleBody" in script.text:
            for body in _find_bodies(jsonld.parse(script.text)):
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
