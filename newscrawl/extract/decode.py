"""Turn page bytes into text with the encoding a browser would most likely have used.

Order: BOM, the HTTP charset, the page's ``<meta>``/XML declaration, strict UTF-8, then
GB18030. GB2312 and GBK labels resolve to GB18030 (their superset; w3lib does this).

Two real-world corrections on top of that order:

* A page whose ``<meta>`` says GB2312/GBK (and no HTTP charset does) but whose bytes are
  valid UTF-8 with non-ASCII text is UTF-8: saved and proxied copies are often transcoded
  without their meta tag being updated.
* A declaration that the bytes contradict badly (many invalid sequences) is ignored and the
  bytes are sniffed instead; one that fails only on a few stray bytes is kept, and those
  bytes become U+FFFD. Decoding never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

GB_FAMILY = frozenset({"gb18030", "gbk", "gb2312", "hz"})
SNIFF_ORDER = ("utf-8", "gb18030")
MAX_ERROR_SHARE = 0.02
"""A declared encoding is trusted while at most this share of its non-ASCII bytes is invalid."""

_ESCAPED_BYTE_RE = re.compile("[\udc80-\udcff]")
_NON_ASCII_RE = re.compile(rb"[\x80-\xff]")


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded text and how it was decided (shown by ``--explain`` and stored with articles)."""

    text: str
    encoding: str
    source: str
    """Which evidence chose the encoding: bom, http, meta, sniff."""


def decode_html(data: bytes, http_charset: str | None = None) -> Decoded:
    """Decode `data`; `http_charset` is the charset of the HTTP Content-Type, if any.

    `http_charset` may also be a whole Content-Type header value.
    """
    bom_encoding, bom = read_bom(data)
    if bom_encoding:
        body = data[len(bom) :]
        return Decoded(body.decode(bom_encoding, "replace"), bom_encoding, "bom")

    declared = _declared_encoding(data, http_charset)
    if declared is not None:
        encoding, source = declared
        if (
            source == "meta"
            and encoding in GB_FAMILY
            and _NON_ASCII_RE.search(data)
            and _decodes_strictly(data, "utf-8")
        ):
            return Decoded(data.decode("utf-8"), "utf-8", "sniff")
        if _error_share(data, encoding) <= MAX_ERROR_SHARE:
            return Decoded(data.decode(encoding, "replace"), encoding, source)

    return _sniff(data)


def _declared_encoding(data: bytes, http_charset: str | None) -> tuple[str, str] | None:
    """The first usable declaration: HTTP charset, then the page's own."""
    if http_charset:
        label = http_content_type_encoding(http_charset) if ";" in http_charset else http_charset
        encoding = resolve_encoding(label) if label else None
        if encoding:
            return encoding, "http"
    meta = html_body_declared_encoding(data)
    if meta:
        encoding = resolve_encoding(meta)
        if encoding:
            return encoding, "meta"
    return None


def _sniff(data: bytes) -> Decoded:
    """Undeclared or wrongly declared bytes: the candidate with the fewest invalid bytes."""
    best_encoding, best_share = SNIFF_ORDER[0], 2.0
    for encoding in SNIFF_ORDER:
        share = _error_share(data, encoding)
        if share == 0.0:
            return Decoded(data.decode(encoding), encoding, "sniff")
        if share < best_share:
            best_encoding, best_share = encoding, share
    return Decoded(data.decode(best_encoding, "replace"), best_encoding, "sniff")


def _decodes_strictly(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _error_share(data: bytes, encoding: str) -> float:
    """Share of the non-ASCII bytes that `encoding` cannot decode (0.0 when all decode)."""
    if _decodes_strictly(data, encoding):
        return 0.0
    escaped = data.decode(encoding, "surrogateescape")
    errors = len(_ESCAPED_BYTE_RE.findall(escaped))
    non_ascii = len(_NON_ASCII_RE.findall(data))
    return errors / max(1, non_ascii)
