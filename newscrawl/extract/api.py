"""The one public entry point: `extract(html) -> Article`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo

from newscrawl.extract import (
    blocks,
    clean,
    confidence,
    default,
    fallbacks,
    head,
    head_hints,
    paper,
    title,
)
from newscrawl.extract.decode import decode_html
from newscrawl.extract.formats import not_html, not_html_reason
from newscrawl.extract.metadata import SHANGHAI, Metadata, extract_metadata
from newscrawl.extract.model import Article, Options

DEFAULT_OPTIONS = Options()


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    options: Options | None = None,
    http_charset: str | None = None,
    fetched_at: datetime | None = None,
    zone: tzinfo | None = None,
) -> Article:
    """Extract the title, body and metadata of one page.

    `html` may be bytes (decoded by `decode_html`, with `http_charset` taken from the HTTP
    Content-Type when the caller has one) or already decoded text. `fetched_at` anchors
    relative dates such as 昨天 (yesterday); `zone` is the site's, for times the page writes
    without an offset and for Unix times (Asia/Shanghai by default). Never raises on bad
    input: an empty `body`
    comes with a `reason`. Bytes that are a binary file (PDF, image, archive …, see
    `formats`) are not decoded: their reason is ``not HTML: <kind> (binary file)``.
    """
    options = options or DEFAULT_OPTIONS
    encoding: str | None = None
    if isinstance(html, bytes):
        if (kind := not_html(html)) is not None:
            return Article(
                title="", body="", method=options.method, url=url, reason=not_html_reason(kind)
            )
        decoded = decode_html(html, http_charset)
        text, encoding = decoded.text, decoded.encoding
        holds_nul = b"\x00" in html  # a byte search, far cheaper than the text's
    else:
        text, holds_nul = html, "\x00" in html
    if holds_nul:  # an HTML parser drops NUL from text; a database's text column refuses it
        text = text.replace("\x00", "")
    if options.method == "paper":
        metadata = _metadata(text, url, fetched_at, zone, options)
        return _paper(text, url, encoding, options, metadata)
    body_lines, page_head = blocks.page_lines(text), head.PageHead(text)
    headings = blocks.heading_lines(body_lines)
    metadata = _metadata(text, url, fetched_at, zone, options, body_lines, page_head, headings)
    return _default(body_lines, page_head, headings, url, encoding, options, metadata)


def _metadata(
    text: str,
    url: str | None,
    fetched_at: datetime | None,
    zone: tzinfo | None,
    options: Options,
    body_lines: blocks.PageLines | None = None,
    page_head: head.PageHead | None = None,
    headings: Sequence[blocks.Line] | None = None,
) -> Metadata:
    """The page's metadata (empty when `options` leave it out), read before the body so
    that the `Article` is built once, with it."""
    if not options.with_metadata:
        return Metadata()
    return extract_metadata(
        text,
        url,
        fetched_at,
        zone=zone or SHANGHAI,
        body_lines=body_lines,
        head=page_head,
        headings=headings,
    )


def _paper(
    text: str, url: str | None, encoding: str | None, options: Options, metadata: Metadata
) -> Article:
    """The paper's method exactly as published (docs/method.md)."""
    selection = paper.select(clean.text_lines(text), options)
    return Article(
        title=clean.page_title(text),
        body="\n".join(line.text for line in selection.kept),
        method=options.method,
        url=url,
        encoding=encoding,
        reason=selection.reason,
        parameters={
            "L": selection.line_length,
            "D": options.max_gap,
        },
        lines=selection.lines,
        metadata=metadata,
    )


def default_body(
    page: blocks.PageLines,
    page_head: head.PageHead,
    options: Options,
    url: str | None,
    heading_lines: Sequence[blocks.Line] | None = None,
) -> tuple[str, default.Selection, fallbacks.Body]:
    """The default method's headline, line selection and body (the kept lines, or a
    structured fallback) of the page at `url`: what `Article` and the confidence's
    calibration are made of. `heading_lines`: the page's (`blocks.heading_lines`), where
    the caller has them."""
    hints = head_hints.head_hints(page_head)
    if heading_lines is None:
        heading_lines = blocks.heading_lines(page)
    headline = title.choose_title(hints, heading_lines, url)
    selection = default.select(page, headline, options, hints.description, hints.ingredients)
    lines_body = "\n".join(line.text for line in selection.kept)
    return headline, selection, fallbacks.choose_body(lines_body, hints, options)


def _default(
    page: blocks.PageLines,
    page_head: head.PageHead,
    headings: Sequence[blocks.Line],
    url: str | None,
    encoding: str | None,
    options: Options,
    metadata: Metadata,
) -> Article:
    """Block lines with features (`page`), the best body region, structured fallbacks."""
    headline, selection, body = default_body(page, page_head, options, url, headings)
    sure = confidence.confidence(selection.evidence, body.text, body.fallback)
    return Article(
        title=headline,
        body=body.text,
        method=options.method,
        url=url,
        encoding=encoding,
        reason=None if body.text else selection.reason,
        parameters=default.parameters(options),
        lines=selection.lines,
        fallback=body.fallback,
        confidence=sure.value,
        confidence_reasons=sure.reasons,
        metadata=metadata,
    )
