"""Turn page bytes into text with the encoding a browser would most likely have used.

Order: BOM, the HTTP charset, the page's ``<meta>``/XML declaration, strict UTF-8, then
GB18030, with windows-1252 first for bytes shaped like a Western single-byte text
(`_sniff_order`), and instead of GB18030 the code page of another alphabet for bytes shaped
like its words (`_unless_single_byte`; `byte_shape` reads the shapes). GB2312 and GBK
labels resolve to GB18030 (their superset, `GB_SUPERSETS`).

Real-world corrections on top of that order:

* A page whose ``<meta>`` says GB2312/GBK (and no HTTP charset does) but whose bytes are
  valid UTF-8 with non-ASCII text is UTF-8: saved and proxied copies are often transcoded
  without their meta tag being updated.
* A declaration that the bytes contradict badly (many invalid sequences) is ignored and the
  next piece of evidence is tried; one that fails only on a few stray bytes is kept, and
  those bytes become U+FFFD.
* A declaration is only usable when it names a text encoding that reads ASCII as ASCII.
  Labels Python does not know, bytes-to-bytes codecs (``zlib``, ``base64``), escape codecs
  and UTF-16/32 are skipped: a page whose ``<meta>`` could be read at all is
  ASCII-compatible, a UTF-16 page without a BOM is rare next to a wrong header, and ASCII
  read as UTF-16 turns every byte pair into one CJK-looking character. UTF-16/32 pages are
  recognised by their BOM.

GB18030 is read by a table in C (``_blockscan.gb_decode``, `gb_pairs`) where the page is
ASCII and two-byte characters, as nearly every GBK page is: Python's codec is several times
slower, and reads whatever else a page holds. Decoding never raises.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import charset_normalizer
from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
    to_unicode,
)

from newscrawl.extract import native
from newscrawl.extract.byte_shape import HighByteShape, high_byte_shape

GB_FAMILY = frozenset({"gb18030", "gbk", "gb2312", "hz"})
GB_SUPERSETS = {"gbk": "gb18030", "gb2312": "gb18030"}
"""The codec a GB2312 or GBK label is read with: GB18030, their superset, as browsers read
them (the WHATWG Encoding Standard's "gbk" decoder is GB18030's). Pages labelled GB2312
hold GBK-only characters, and GBK ones GB18030-only characters. w3lib resolved the labels
so up to 2.5; 2.6 leaves them as they are."""
NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape"})
"""Text codecs that read ASCII as ASCII but interpret backslashes: never a page charset."""
SNIFF_ORDER = ("utf-8", "gb18030")
MAX_ERROR_SHARE = 0.02
"""A candidate encoding is accepted while it has at most this many invalid sequences per
ASCII byte of the page (`_ascii_bytes`): a page's markup, not only its text, dilutes a few
broken bytes, as in a UTF-8 page whose description holds a mangled quote. GBK read as UTF-8
has an error every character or two, and a page's text is no small part of it; real UTF-8
pages read as GB18030 stay under the share too (multi-byte text fits both), so it cannot
tell those two apart: the meta rule above does."""
BINARY_SNIFF_BYTES = 1024
"""How much of a body `looks_binary` reads."""

_ASCII_PROBE = b'<meta http-equiv="Content-Type" content="text/html; charset=x">'
_ASCII_BYTES = bytes(range(128))


@dataclass(frozen=True, slots=True)
class Decoded:
    """Decoded text and how it was decided (shown by ``--explain`` and stored with articles)."""

    text: str
    encoding: str
    source: str
    """Which evidence chose the encoding: bom, http, meta, sniff."""


def decode_html(data: bytes, http_charset: str | None = None) -> Decoded:
    """Decode `data`; `http_charset` is the HTTP charset (``gbk``) or Content-Type value."""
    bom_encoding, bom = read_bom(data)
    if bom_encoding and bom:
        return Decoded(to_unicode(data[len(bom) :], bom_encoding), bom_encoding, "bom")
    tried: dict[str, tuple[str, float] | None] = {}
    for encoding, source in _declarations(data, http_charset):
        if source == "meta" and encoding in GB_FAMILY and (utf8 := _non_ascii_utf8(data)):
            return Decoded(utf8, "utf-8", "sniff")
        if encoding not in tried:
            tried[encoding] = _decode_if_it_may_fit(data, encoding)
        if (decoded := tried[encoding]) is not None and decoded[1] <= MAX_ERROR_SHARE:
            return Decoded(decoded[0], encoding, source)
    return _sniff(data, tried)


def _declarations(data: bytes, http_charset: str | None) -> Iterator[tuple[str, str]]:
    """The usable declared encodings with their source: the HTTP charset, then the page's."""
    if http_charset and (encoding := _http_encoding(http_charset)) and _usable(encoding):
        yield GB_SUPERSETS.get(encoding, encoding), "http"
    if (encoding := html_body_declared_encoding(data)) and _usable(encoding):
        yield GB_SUPERSETS.get(encoding, encoding), "meta"


def _http_encoding(value: str) -> str | None:
    """The charset of a Content-Type value (``text/html; charset=gbk``) or a bare label."""
    if any(mark in value for mark in "=/;"):
        return http_content_type_encoding(value)
    return resolve_encoding(value.strip(" \t\"'"))


def _usable(encoding: str) -> bool:
    """True for a text codec that decodes ASCII markup to itself (see the module docstring)."""
    if encoding in NOT_CHARSETS:
        return False
    try:
        return _ASCII_PROBE.decode(encoding, "replace") == _ASCII_PROBE.decode("ascii")
    except (LookupError, UnicodeError):
        return False


def _non_ascii_utf8(data: bytes) -> str | None:
    """`data` as UTF-8 when it has non-ASCII bytes and all of it is valid UTF-8, else None.

    ASCII alone is valid UTF-8 too, but then it does not contradict a GB declaration.
    """
    if data.isascii():
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _sniff(data: bytes, tried: dict[str, tuple[str, float] | None]) -> Decoded:
    """Undeclared or wrongly declared bytes: the first candidate of `_sniff_order` that
    fits, else the one with the fewest errors. `tried` holds the declarations tried already
    (`_decode_if_it_may_fit`: a page declared UTF-8 that is not is not decoded twice), and
    gets the candidates."""
    if "utf-8" not in tried:
        tried["utf-8"] = _decode_if_it_may_fit(data, "utf-8")
    if (utf8 := tried["utf-8"]) is not None and utf8[1] == 0.0:  # valid UTF-8: no lone byte
        return Decoded(utf8[0], "utf-8", "sniff")
    shape = high_byte_shape(data)
    order = _sniff_order(shape)
    for encoding in order:
        if encoding not in tried:
            tried[encoding] = _decode_if_it_may_fit(data, encoding)
        if (decoded := tried[encoding]) is not None and decoded[1] <= MAX_ERROR_SHARE:
            return _unless_single_byte(data, shape, Decoded(decoded[0], encoding, "sniff"))
    candidates = []
    for encoding in order:  # none fits: the fewest errors, all of them decoded now
        text, share = tried[encoding] or _decode(data, encoding)
        candidates.append((share, text, encoding))
    _, text, encoding = min(candidates, key=lambda candidate: candidate[0])
    return _unless_single_byte(data, shape, Decoded(text, encoding, "sniff"))


def _unless_single_byte(data: bytes, shape: HighByteShape | None, sniffed: Decoded) -> Decoded:
    """`sniffed`, or where it is GB18030 and the bytes (of `shape`) are in a single-byte
    code page of another alphabet (`_single_byte_script`), their decoding in that one."""
    if sniffed.encoding != "gb18030" or (script := _single_byte_script(data, shape)) is None:
        return sniffed
    return Decoded(_decode(data, script)[0], script, "sniff")


SINGLE_BYTE_FALLBACK = "cp1252"
"""What undeclared bytes whose non-ASCII bytes mostly stand alone are read as
(`_sniff_order`): windows-1252, the encoding browsers fall back
to outside Chinese, Japanese and Korean locales (the HTML standard's default for undeclared
pages there). A German, French or Spanish page saved without its charset then keeps its
accented letters, where they became U+FFFD or, with the letter after each, Chinese
characters; a Central European page gets most of its letters. Tried and not taken as the
judge: chardet (0.1-0.2 s a page, and it read Polish pages as MacRoman and ISO-8859-1) and
charset-normalizer (windows-1250 for German pages, which turns a French "è" into "č")."""
MIN_LONE_SHARE = 0.5
"""The share of a page's non-ASCII bytes that must stand alone, ASCII on both sides, for it
to read as a Western single-byte text: its accented letters are lone bytes in words of
ASCII ones (0.75 to 1.0 on the dev sets' windows-1252 and Latin-2 pages), where every GBK
or UTF-8 character is two bytes or more (at most 0.001 on the dev sets' GBK pages)."""
MIN_WORD_END_SHARE = 0.08
"""The share of non-ASCII bytes before a space from which bytes that GB18030 would read are
rather a single-byte alphabet's words (`byte_shape`): 0.12 to 0.17 on hand-written Russian,
Greek and Arabic pages in their code pages, at most 0.02 on the dev sets' GBK pages. Thai,
which leaves no spaces between words, is not told so (0.02)."""
SINGLE_BYTE_SCRIPTS = (
    "cp1251",  # Cyrillic
    "koi8_r",
    "cp1253",  # Greek
    "cp1255",  # Hebrew
    "cp1256",  # Arabic
    "cp1254",  # Turkish
    "cp1257",  # Baltic
    "cp1250",  # Central European
    "cp1252",  # Western European
)
"""The code pages an undeclared page whose non-ASCII bytes end words before spaces may be
in, for `_single_byte_script`."""
_SCRIPT_CODECS = frozenset(codecs.lookup(name).name for name in SINGLE_BYTE_SCRIPTS)
"""Their Python codec names, as `_single_byte_script` compares the detector's answer."""


def _sniff_order(shape: HighByteShape | None) -> tuple[str, ...]:
    """`SNIFF_ORDER`, with `SINGLE_BYTE_FALLBACK` first where most non-ASCII bytes of the
    page stand alone (its `shape`). Such bytes are no UTF-8 text (its characters beyond
    ASCII are two bytes or more), but UTF-8 would fit a long page with a few umlauts (its
    error share counts the markup too) and give U+FFFD for each; and a German page's "für"
    and "Straße" are valid GB18030 byte pairs (an umlaut's byte and the letter after it), so
    GB18030 would read it without an error and without one right word."""
    if shape is None or shape.lone < MIN_LONE_SHARE:
        return SNIFF_ORDER
    return (SINGLE_BYTE_FALLBACK, *SNIFF_ORDER)


def _single_byte_script(data: bytes, shape: HighByteShape | None) -> str | None:
    """The code page of `SINGLE_BYTE_SCRIPTS` that charset-normalizer finds `data` in,
    where its non-ASCII bytes (`shape`) end words before spaces as an alphabet's letters do
    (`MIN_WORD_END_SHARE`), else None. GB18030 reads a Russian page in windows-1251 without
    an error, every two letters as one Chinese character; the detector tells the code pages
    of one alphabet apart by letter frequencies (windows-1251 from KOI8-R). Asked only
    there: it took three of the dev sets' GBK pages for windows-1251 or nothing, which their
    shape rules out."""
    if shape is None or shape.before_space < MIN_WORD_END_SHARE:
        return None
    best = charset_normalizer.from_bytes(data, cp_isolation=list(SINGLE_BYTE_SCRIPTS)).best()
    found = codecs.lookup(best.encoding).name if best is not None else None
    return found if found in _SCRIPT_CODECS else None


SURE_MISFIT_SHARE = 8
"""`_decode_if_it_may_fit` reads this share (1/8) of the bytes first: GBK read as UTF-8
has an error every character or two, far more than `MAX_ERROR_SHARE` allows."""


def _decode_if_it_may_fit(data: bytes, encoding: str) -> tuple[str, float] | None:
    """`_decode`, or None for UTF-8 when its first bytes alone hold more invalid sequences
    than `MAX_ERROR_SHARE` allows for all of them: a GBK page's UTF-8 decoding with
    replacement characters (slower than its GB18030 decoding) is then never made, unless
    no candidate fits and the errors are compared. The first bytes' decoding counts at most
    one error (at the cut) that the whole's does not."""
    try:
        return _strict(data, encoding), 0.0
    except UnicodeDecodeError:
        pass
    if codecs.lookup(encoding).name == "utf-8":
        head = data[: len(data) // SURE_MISFIT_SHARE]
        replaced = head.decode(encoding, "replace").count("\ufffd")
        if replaced - head.count(UTF8_REPLACEMENT) - 1 > MAX_ERROR_SHARE * _ascii_bytes(data):
            return None
    return _replaced(data, encoding)


def _strict(data: bytes, encoding: str) -> str:
    """``data.decode(encoding)``; GB18030 by `gb_pairs` in C where built, which reads a
    page of ASCII and two-byte characters (nearly every GBK page) and gives the codec
    whatever else it meets."""
    if encoding == "gb18030" and native.blockscan is not None:
        text: str | None = native.blockscan.gb_decode(data, gb_pairs())
        if text is not None:
            return text
    return data.decode(encoding)


GB_LEADS = range(0x81, 0xFF)
GB_TRAILS = (*range(0x40, 0x7F), *range(0x80, 0xFF))
"""The bytes of a two-byte GB18030 character: a lead byte, then a trail byte."""


@cache
def gb_pairs() -> bytes:
    """Every two-byte GB18030 character as Python's codec decodes it, for ``gb_decode``:
    a little-endian UTF-16 code unit per (lead, trail) byte pair at 2 * (lead * 256 +
    trail), 0 where the pair is no single character below U+10000. Built on first use
    (about 24,000 decodes)."""
    table = bytearray(2 * 256 * 256)
    for lead in GB_LEADS:
        for trail in GB_TRAILS:
            try:
                char = bytes((lead, trail)).decode("gb18030")
            except UnicodeDecodeError:
                continue
            if len(char) == 1 and 0 < ord(char) < 0x10000:
                at = 2 * (lead * 256 + trail)
                table[at : at + 2] = ord(char).to_bytes(2, "little")
    return bytes(table)


def _ascii_bytes(data: bytes) -> int:
    """How many bytes of `data` are ASCII (at least 1): the divisor of an error share."""
    return max(1, len(data) - len(data.translate(None, _ASCII_BYTES)))


def _decode(data: bytes, encoding: str) -> tuple[str, float]:
    """`data` with U+FFFD for each invalid sequence, and those sequences per ASCII byte.

    Errors are counted as the U+FFFD the decoding added (those already in the page are
    subtracted), so no error handler that could choke on an ASCII byte is needed
    (``surrogateescape`` raises on one, and a UTF-16 error can include one).
    ``to_unicode`` decodes a lone 0x80 as the euro sign in GB18030, as browsers do.
    """
    try:
        return _strict(data, encoding), 0.0
    except UnicodeDecodeError:
        return _replaced(data, encoding)


def _replaced(data: bytes, encoding: str) -> tuple[str, float]:
    """`_decode` of bytes that are not all valid in `encoding`."""
    text = to_unicode(data, encoding)
    ascii_bytes = _ascii_bytes(data)
    replacements = text.count("\ufffd")
    if replacements <= MAX_ERROR_SHARE * ascii_bytes:
        return text, replacements / ascii_bytes  # accepted even if all were errors
    added = replacements - _own_replacements(data, encoding)
    return text, added / ascii_bytes


UTF8_REPLACEMENT = "\ufffd".encode()


def _own_replacements(data: bytes, encoding: str) -> int:
    """How many U+FFFD the page itself holds, read as `encoding`: its decoding without the
    invalid sequences holds only those. In UTF-8, counted as bytes without decoding: an
    invalid sequence never takes in the lead byte of the character's encoding (no
    continuation byte), so every occurrence decodes to one."""
    if codecs.lookup(encoding).name == "utf-8":
        return data.count(UTF8_REPLACEMENT)
    return data.decode(encoding, "ignore").count("\ufffd")


def looks_binary(data: bytes) -> bool:
    """Whether `data` is a binary file (image, PDF, archive), whatever type it was served as.

    PNG, JPEG, GIF, PDF, ZIP and gzip files hold a NUL byte near the start; text in an
    ASCII-compatible charset never does. UTF-16/32 text does, but starts with a BOM.
    """
    head = data[:BINARY_SNIFF_BYTES]
    return b"\x00" in head and read_bom(head) == (None, None)
