"""Structured fallbacks for pages whose lines give no body or only a scrap of it.

Pages that ship their text in JSON for a script to render leave the line selection with
little to keep. Such pages often state their body in the head: the JSON-LD
``articleBody`` (trafilatura's baseline reads it too). The result is flagged in
`Article.fallback` so callers can tell. Neither the description meta (the page's summary,
not its article) nor a script template's markup stands in for the body: on the dev sets
each lost as many pages as it won (docs/method.md, "Every rule and parameter").
"""

from __future__ import annotations

from typing import NamedTuple

from newscrawl.extract.head_hints import HeadHints
from newscrawl.extract.model import Options

JSON_LD = "json-ld articleBody"


class Body(NamedTuple):
    text: str
    fallback: str | None
    """Which structured source gave `text` (None: the kept lines did)."""


def choose_body(lines_body: str, hints: HeadHints, options: Options) -> Body:
    """The kept lines' text, unless it is shorter than `Options.short_body_chars` and the
    head has a longer article body."""
    if len(lines_body) < options.short_body_chars and len(hints.article_body) > len(lines_body):
        return Body(hints.article_body, JSON_LD)
    return Body(lines_body, None)
