"""The one public entry point: `extract(html) -> Article`."""

from __future__ import annotations

from newscrawl.extract import clean, paper
from newscrawl.extract.decode import decode_html
from newscrawl.extract.model import Article, Options

DEFAULT_OPTIONS = Options()


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    options: Options | None = None,
    http_charset: str | None = None,
) -> Article:
    """Extract the title and body of one page.

    `html` may be bytes (decoded by `decode_html`, with `http_charset` taken from the HTTP
    Content-Type when the caller has one) or already decoded text. Never raises on bad
    input: an empty `body` comes with a `reason`.

    Until the default method lands, ``method="default"`` runs the paper's method.
    """
    options = options or DEFAULT_OPTIONS
    encoding: str | None = None
    if isinstance(html, bytes):
        decoded = decode_html(html, http_charset)
        text, encoding = decoded.text, decoded.encoding
    else:
        text = html
    title = clean.page_title(text)
    selection = paper.select(clean.text_lines(text), options)
    return Article(
        title=title,
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
    )
