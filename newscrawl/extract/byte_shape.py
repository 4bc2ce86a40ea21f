"""The shape of a page's bytes beyond ASCII, which tells the undeclared legacy encodings
that UTF-8 and GB18030 do not fit, or fit by accident, apart (`decode._sniff`).

In a Western single-byte text (windows-1252) the accented letters are lone bytes in words
of ASCII letters. In a single-byte text of an alphabet beyond ASCII (the Cyrillic, Greek,
Arabic and Hebrew code pages) every letter is one such byte and words are separated by
spaces, so one such byte in seven or eight ends a word before a space. In GBK every
character is two bytes and Chinese leaves no spaces between words: a space after them is
rare. Both shares are per byte, so a few windows of the page tell them: a window's cut
ends change a byte or two. Linear in the bytes read: two translations and a few counts.
"""

from __future__ import annotations

from typing import NamedTuple

_BYTE_KINDS = bytes.maketrans(bytes(range(256)), b"0" * 32 + b"2" + b"0" * 95 + b"1" * 128)
"""Each byte as b"1" when it is not ASCII, b"2" when it is a space, else b"0"."""
_SPACE_AS_ASCII = bytes.maketrans(b"2", b"0")
WINDOWS = 4
WINDOW_BYTES = 1024
MIN_SAMPLED_HIGH_BYTES = 100
"""`high_byte_shape` reads `WINDOWS` windows spread over the page, where they hold this many
non-ASCII bytes, else the whole page. Measured: 0.03 ms a GBK page (0.18 ms for the
whole), the same decisions as the whole on every dev page."""


class HighByteShape(NamedTuple):
    lone: float
    """The share of the non-ASCII bytes that stand alone, ASCII on both sides."""
    before_space: float
    """The share of the non-ASCII bytes that a space follows."""


def high_byte_shape(data: bytes) -> HighByteShape | None:
    """The shape of the non-ASCII bytes of `data`, read on a sample of windows where they
    hold enough of them, else on the whole; None for ASCII."""
    step = len(data) // WINDOWS + 1
    sample = b"\n".join(data[at : at + WINDOW_BYTES] for at in range(step // 2, len(data), step))
    return _shape(sample, MIN_SAMPLED_HIGH_BYTES) or _shape(data, 1)


def _shape(data: bytes, min_high: int) -> HighByteShape | None:
    """`high_byte_shape` of all of `data`, or None where fewer than `min_high` of its bytes
    are not ASCII."""
    kinds = b"0" + data.translate(_BYTE_KINDS)
    high = kinds.count(b"1")
    if high < min_high:
        return None
    marks = kinds.translate(_SPACE_AS_ASCII)
    lone = marks.count(b"01") - marks.count(b"011")  # runs of non-ASCII bytes, less the long
    return HighByteShape(lone / high, kinds.count(b"12") / high)
