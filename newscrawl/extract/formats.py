"""Recognise binary files (PDF, images, archives, office, media, fonts, executables) by bytes.

A PDF or an image served as ``text/html``, or given to ``newscrawl extract``, would otherwise
be decoded as GB18030 and come out as an "article" of file syntax. `binary_kind` names the
format from its magic number before any decoding, so `extract` can refuse it with a reason
(``not HTML: pdf (binary file)``) and a crawl can count it by kind.

Conservative on purpose: only signatures at offset 0 or at a format's fixed offset (``ftyp``
at 4 for MP4, the RIFF form type at 8, ``ustar`` at 257, a PE header where the DOS header
points), and where a signature is short ASCII that text could start with (``MZ``, ``BM``,
``ID3``, ``BZh``, ``OTTO``) the bytes after it must be binary too. No byte statistics: HTML
and plain text, with or without a BOM, after whitespace, a comment or ``<?xml``, are never a
match (UTF-8 and GB18030 text cannot start with the non-ASCII signatures). Bodies with a NUL
byte but no known signature are left to `decode.looks_binary` (`not_html` gives them the
kind `UNKNOWN_BINARY`).

Our own table rather than a library, measured on a 3 KB HTML page (CPython 3.11):
``filetype`` 1.2 takes 21-23 us per page (it tries ~80 matchers in turn), calls any text
that starts with ``MZ``, ``BM``, ``ID3`` or ``BZh`` an exe, bmp, mp3 or bz2 file, and names
subtypes by extension (docx/xlsx/pptx, mp4/m4a/mov); ``puremagic`` 1.30 takes 320 us, calls
a plain zip "docx" and UTF-16 HTML ".ini". This table looks at the first byte's few
candidates, then at most two fixed offsets: 0.2 us per page (0.6 us for a zip, whose first
entry is read), O(1) whatever the body's size, next to ~2.7 ms for `extract` on a news page.
"""

from __future__ import annotations

from collections.abc import Callable

from newscrawl.extract.decode import looks_binary

NOT_HTML = "not HTML: "
"""How `Article.reason` starts for bytes that are a binary file, not a page."""
UNKNOWN_BINARY = "binary"
"""The kind of a body with NUL bytes but no known signature (the spider's key for it too)."""

Check = Callable[[bytes], str | None]
"""Refines or rejects a signature match: the kind, or None when the bytes are not that file."""

_OOXML_FIRST = (b"[Content_Types].xml", b"_rels/.rels")
_OOXML_DIRS = (b"word/", b"xl/", b"ppt/", b"docProps/", b"customXml/")
_ODF_MIMETYPE = b"application/vnd.oasis.opendocument."
_HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"})
_RIFF_FORMS = {b"WAVE": "wav", b"WEBP": "webp", b"AVI ": "avi"}


def _zip(data: bytes) -> str:
    """``office`` when the first entry is an OOXML (docx/xlsx/pptx) or ODF part, else ``zip``.

    Office writers put ``[Content_Types].xml`` (OOXML) or an uncompressed ``mimetype`` (ODF,
    required first by the spec) at the front; the first local header is read, nothing more.
    """
    if data.startswith(b"PK\x03\x04") and len(data) >= 30:
        name_length = int.from_bytes(data[26:28], "little")
        extra_length = int.from_bytes(data[28:30], "little")
        name = data[30 : 30 + name_length]
        if name in _OOXML_FIRST or name.startswith(_OOXML_DIRS):
            return "office"
        if name == b"mimetype" and data.startswith(_ODF_MIMETYPE, 30 + name_length + extra_length):
            return "office"
    return "zip"


def _bmp(data: bytes) -> str | None:
    """``BM``, the file size, then four reserved zero bytes (text never holds NUL)."""
    return "bmp" if data.startswith(b"\x00\x00\x00\x00", 6) else None


def _bzip2(data: bytes) -> str | None:
    """``BZh``, the block size digit, then a block's or the end of stream's magic."""
    level = len(data) > 3 and data[3] in b"123456789"
    magic = data.startswith(b"1AY&SY", 4) or data.startswith(b"\x17rE8P\x90", 4)
    return "bzip2" if level and magic else None


def _id3(data: bytes) -> str | None:
    """An ID3v2 tag (before MP3 audio): ``ID3``, major version 2-4, revision 0."""
    return "mp3" if data[3:5] in (b"\x02\x00", b"\x03\x00", b"\x04\x00") else None


def _riff(data: bytes) -> str | None:
    """RIFF's form type at offset 8: WAVE, WEBP or AVI (others are left unnamed)."""
    return _RIFF_FORMS.get(data[8:12])


def _ebml(data: bytes) -> str:
    """Matroska's EBML header names its DocType within the first few dozen bytes."""
    return "webm" if b"webm" in data[:64] else "matroska"


def _pe(data: bytes) -> str | None:
    """``MZ`` only counts when the DOS header's e_lfanew (at 0x3C) points at ``PE\\0\\0``."""
    if len(data) < 64:
        return None
    offset = int.from_bytes(data[0x3C:0x40], "little")
    return "exe" if data.startswith(b"PE\x00\x00", offset) else None


def _ftyp(data: bytes) -> str:
    """ISO base media (``ftyp`` box first): AVIF and HEIF images by brand, else ``mp4``."""
    brand = data[8:12]
    if brand in (b"avif", b"avis"):
        return "avif"
    return "heic" if brand in _HEIF_BRANDS else "mp4"


_SIGNATURES: tuple[tuple[bytes, str | Check], ...] = (
    (b"%PDF-", "pdf"),
    # images
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"BM", _bmp),
    (b"\x00\x00\x01\x00", "ico"),
    (b"\x00\x00\x02\x00", "ico"),  # .cur, the same container
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"RIFF", _riff),  # also WAV and AVI
    # archives and office files
    (b"PK\x03\x04", _zip),
    (b"PK\x05\x06", "zip"),  # empty archive
    (b"PK\x07\x08", "zip"),  # spanned archive
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "office"),  # OLE2: .doc, .xls, .ppt
    (b"\x1f\x8b\x08", "gzip"),
    (b"BZh", _bzip2),
    (b"\xfd7zXZ\x00", "xz"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"Rar!\x1a\x07", "rar"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    # audio and video
    (b"ID3", _id3),
    (b"\xff\xfb", "mp3"),  # MPEG audio frame sync, layer III (MPEG 1, 2, 2.5)
    (b"\xff\xfa", "mp3"),
    (b"\xff\xf3", "mp3"),
    (b"\xff\xf2", "mp3"),
    (b"\xff\xe3", "mp3"),
    (b"\xff\xe2", "mp3"),
    (b"\x1a\x45\xdf\xa3", _ebml),
    (b"OggS\x00", "ogg"),
    (b"fLaC\x00", "flac"),  # STREAMINFO, the mandatory first metadata block, is type 0
    (b"fLaC\x80", "flac"),  # ... with the "last block" bit set
    # fonts
    (b"wOFF", "woff"),
    (b"wOF2", "woff2"),
    (b"\x00\x01\x00\x00\x00", "ttf"),  # sfnt 1.0, then a table count under 256
    (b"true\x00", "ttf"),
    (b"OTTO\x00", "otf"),
    # executables
    (b"\x7fELF", "elf"),
    (b"MZ", _pe),
)

_BY_FIRST_BYTE: dict[int, tuple[tuple[bytes, str | Check], ...]] = {}
for _prefix, _kind in _SIGNATURES:
    _BY_FIRST_BYTE[_prefix[0]] = (*_BY_FIRST_BYTE.get(_prefix[0], ()), (_prefix, _kind))
del _prefix, _kind


def binary_kind(data: bytes) -> str | None:
    """The binary format `data` starts as (``pdf``, ``png``, ``zip``, ``office``, ``mp4`` …),
    or None: text, and binary files this table does not know.

    Reads the first byte's few candidate signatures and two fixed offsets, never the whole
    body: HTML (first byte ``<``, whitespace or a BOM) has no candidate at all.
    """
    if not data:
        return None
    for prefix, kind in _BY_FIRST_BYTE.get(data[0], ()):
        if data.startswith(prefix):
            found = kind if isinstance(kind, str) else kind(data)
            if found is not None:
                return found
    # A box size (big-endian, so a NUL first) then "ftyp": text has neither.
    if data[0] == 0 and data.startswith(b"ftyp", 4):
        return _ftyp(data)
    if data.startswith(b"ustar", 257) and data[262:263] in (b"\x00", b" "):
        return "tar"
    return None


def not_html(data: bytes) -> str | None:
    """The kind of binary file `data` is: a known format's, `UNKNOWN_BINARY` for other
    bytes with a NUL near the start and no BOM, None for text."""
    kind = binary_kind(data)
    if kind is None and looks_binary(data):
        return UNKNOWN_BINARY
    return kind


def not_html_reason(kind: str) -> str:
    """The `Article.reason` for a binary file: ``not HTML: pdf (binary file)``."""
    if kind == UNKNOWN_BINARY:
        return f"{NOT_HTML}binary file"
    return f"{NOT_HTML}{kind} (binary file)"


def not_html_kind(reason: str | None) -> str | None:
    """The kind back from a `not_html_reason` (what a crawl counts pages by), else None.

    Parsed from the reason because the reason is what crosses from an extraction worker
    process to the crawl, and what stored results keep.
    """
    if reason is None or not reason.startswith(NOT_HTML):
        return None
    return reason[len(NOT_HTML) :].split(" ", 1)[0]
