"""Structured fallbacks for pages whose lines give no body or only a scrap of it.

Short articles, and pages that ship their text in JSON for a script to render, leave the
line selection with little to keep. Such pages often state their body in the head: the
JSON-LD ``articleBody`` (trafilatura's baseline reads it too); or ship it as markup in a
script template for a script to render (Blogger). The result is flagged in
`Article.fallback` so callers can tell. The description meta is not a fallback: it is the
page's summary, not its article, and on the dev sets taking it for a short body lost as
many pages as it won (docs/method.md, "Every rule and parameter").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from newscrawl.extract.head import PageHead
from newscrawl.extract.head_hints import HeadHints
from newscrawl.extract.model import Options

JSON_LD = "json-ld articleBody"
TEMPLATE = "script template"
TEMPLATE_TYPES = frozenset({"text/template", "text/x-template", "text/html"})
"""Script types of client-side templates: markup a script renders into the page (a Blogger
post body, a CMS's article view), which the line scan skips with every script."""


class Body(NamedTuple):
    text: str
    fallback: str | None
    """Which structured source gave `text` (None: the kept lines did)."""


def choose_body(
    lines_body: str, hints: HeadHints, options: Options, template_body: Callable[[], str]
) -> Body:
    """The kept lines' text, unless it is shorter than `Options.short_body_chars` and the
    head has a longer article body, or a script template renders a longer one
    (`template_body`, called only then)."""
    if len(lines_body) < options.short_body_chars:
        if len(hints.article_body) > len(lines_body):
            return Body(hints.article_body, JSON_LD)
        rendered = template_body()
        if len(rendered) > len(lines_body):
            return Body(rendered, TEMPLATE)
    return Body(lines_body, None)


def template_texts(head: PageHead) -> list[str]:
    """The markup of the page's client-side templates (`TEMPLATE_TYPES`); the scripts are
    only looked at when the page names such a type."""
    if not any(kind in head.page for kind in TEMPLATE_TYPES):
        return []
    return [script.text for script in head.scripts if script.type in TEMPLATE_TYPES]

