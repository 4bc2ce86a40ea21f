"""The body fingerprints as revisions 0004 and 0005 wrote them, frozen.

A migration must keep writing what it wrote when it was made, whatever `newscrawl.fingerprint`
becomes later, so these are a plain restatement of that algorithm, not an import of it:
the body NFKC-normalised with all whitespace removed; a simhash whose bit i is set when
more than half of the distinct XXH64 hashes (seed 0) of the body's 4-character shingles in
UTF-32-LE have it set (none under 100 characters); and 14 lookup keys of 32 bits, one per
plane of byte positions. XXH64 comes from the `xxhash` package, the reference
implementation's binding. The tests hold the live module to these while the two agree;
when the live algorithm changes, a new revision refingerprints the store and these stay.
"""

from __future__ import annotations

import unicodedata
from itertools import combinations

import numpy as np
import xxhash

SHINGLE_CHARS = 4
MIN_FINGERPRINT_CHARS = 100
KEY_PLANES = tuple((a, b, c, d) for a, b, c, d in combinations(range(8), 4) if a ^ b ^ c ^ d == 0)
"""The 14 quadruples of byte positions 0-7 whose XOR is 0, in `combinations` order."""


def simhash_v1(body: str) -> int | None:
    """The 64-bit simhash of revision 0004 (an unsigned integer), None for a short body."""
    text = "".join(unicodedata.normalize("NFKC", body).split())
    if len(text) < MIN_FINGERPRINT_CHARS:
        return None
    hashes = {
        xxhash.xxh64_intdigest(text[i : i + SHINGLE_CHARS].encode("utf-32-le"))
        for i in range(len(text) - SHINGLE_CHARS + 1)
    }
    words = np.fromiter(hashes, dtype="<u8", count=len(hashes))
    counts = np.unpackbits(words.view(np.uint8), bitorder="little").reshape(-1, 64).sum(axis=0)
    return sum(1 << bit for bit, count in enumerate(counts.tolist()) if 2 * count > len(hashes))


def lookup_keys_v1(fingerprint: int) -> list[int]:
    """The 14 keys of revision 0005: plane number times 2**32 plus the fingerprint's bytes
    at the plane's positions, little-endian."""
    b = fingerprint.to_bytes(8, "little")
    return [
        plane << 32 | b[p0] | b[p1] << 8 | b[p2] << 16 | b[p3] << 24
        for plane, (p0, p1, p2, p3) in enumerate(KEY_PLANES)
    ]


def to_column(fingerprint: int | None) -> int | None:
    """An unsigned 64-bit fingerprint as the signed BIGINT the `simhash` column stores."""
    return (
        fingerprint - (1 << 64)
        if fingerprint is not None and fingerprint >= 1 << 63
        else fingerprint
    )
