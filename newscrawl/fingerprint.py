"""Body fingerprints for deduplication: an exact content hash and a 64-bit simhash.

Exact copies (the same article under two URLs) share `content_hash` of the normalised body.
Syndicated copies with small edits (a changed byline, one added sentence) differ in a few
bits of `simhash`, a Charikar fingerprint over overlapping character shingles: characters,
not words, because Chinese has no spaces and a word segmenter would add a dependency and a
source of drift. Near-twins are found by splitting the fingerprint into `BANDS` bands: two
fingerprints at most ``BANDS - 1`` bits apart share at least one band exactly
(pigeonhole), so an index on each band finds every candidate; further apart, a twin is
found when one band survives the edits.

Measured on the 69 zh_cwce articles (median 2,500 characters) against edited copies: with
`NEAR_DUPLICATE_BITS` = 6 the band lookup finds 100% of copies with a source line added,
97% with a byline and an editor line, 83% with one sentence rewritten and 65% with the last
5% cut (a limit of 3 finds 93/80/67/20%); two different articles were never closer than 24
bits, so 6 leaves a wide margin against false twins.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter

BITS = 64
BANDS = 4
BAND_BITS = BITS // BANDS
SHINGLE_CHARS = 4
"""Shingle length: 4 Chinese characters is about two words, long enough to carry order."""
MIN_FINGERPRINT_CHARS = 100
"""Bodies shorter than this get no simhash: a few shingles make near-twins of strangers."""

NEAR_DUPLICATE_BITS = 6
"""Default limit of differing bits for a near-duplicate (see the module docstring)."""

_LANE = 32
"""Bit width of one counter lane in `_SPREAD` (room for 2**32 shingles)."""
_SPREAD: tuple[int, ...] = tuple(
    sum(1 << (bit * _LANE) for bit in range(8) if value >> bit & 1) for value in range(256)
)
"""`_SPREAD[v]` holds the 8 bits of byte `v` in 8 lanes, so one addition counts 8 bits."""


def normalise(text: str) -> str:
    """The body as compared: NFKC (full-width forms folded) with all whitespace removed."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def content_hash(body: str) -> str | None:
    """SHA-256 of the normalised body, or None for an empty body (those are not copies)."""
    text = normalise(body)
    return hashlib.sha256(text.encode()).hexdigest() if text else None


def simhash(body: str) -> int | None:
    """The 64-bit simhash of the body's distinct character shingles (None when too short).

    Each bit is set when more than half of the shingles' hashes have it set. The counting
    runs per byte position with `Counter` and `_SPREAD`, which keeps it in C-speed loops.
    """
    text = normalise(body)
    if len(text) < MIN_FINGERPRINT_CHARS:
        return None
    shingles = {text[i : i + SHINGLE_CHARS] for i in range(len(text) - SHINGLE_CHARS + 1)}
    blake = hashlib.blake2b
    digests = b"".join([blake(s.encode(), digest_size=8).digest() for s in shingles])
    half = len(shingles) / 2
    lane_mask = (1 << _LANE) - 1
    fingerprint = 0
    for byte in range(8):
        lanes = sum(_SPREAD[value] * n for value, n in Counter(digests[byte::8]).items())
        for bit in range(8):
            if (lanes >> (bit * _LANE)) & lane_mask > half:
                fingerprint |= 1 << (byte * 8 + bit)
    return fingerprint


def hamming(a: int, b: int) -> int:
    """Number of differing bits."""
    return (a ^ b).bit_count()


def bands(fingerprint: int) -> tuple[int, ...]:
    """The fingerprint cut into `BANDS` unsigned integers of `BAND_BITS` bits each."""
    mask = (1 << BAND_BITS) - 1
    return tuple((fingerprint >> (i * BAND_BITS)) & mask for i in range(BANDS))
