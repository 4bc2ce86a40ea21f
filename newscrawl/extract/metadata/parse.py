"""The page as text, whatever form the caller has it in."""

from __future__ import annotations

from typing import TypeAlias

from lxml import html

from newscrawl.extract.decode import decode_html

Source: TypeAlias = str | bytes | html.HtmlElement
"""Page bytes, decoded text, or a caller's parsed lxml tree (serialised back to text)."""


def page_text(source: str | bytes) -> str:
    """The page source as text (bytes decoded by `decode_html`)."""
    return decode_html(source).text if isinstance(source, bytes) else source
