"""Body fingerprints for deduplication: an exact content hash and a 64-bit simhash.

Exact copies (the same article under two URLs) share `content_hash` of the normalised body.
Syndicated copies with small edits (a changed byline, one added sentence) differ in a few
bits of `simhash`, a Charikar fingerprint over overlapping character shingles: characters,
not words, because Chinese has no spaces and a word segmenter would add a dependency and a
source of drift.

Near-twins are looked up by `lookup_keys`: 14 keys of 32 bits, one per plane of the byte
positions (`KEY_PLANES`). Two fingerprints at most `GUARANTEED_BITS` = 3 bits apart differ
in at most 3 bytes, and every 3 byte positions miss one plane entirely, so the two share
that plane's key (pigeonhole): the store's key index finds every such pair. Further apart,
a pair is found when its differing bytes happen to miss a plane (at 4/5/6 random bits: 63%,
33%, 16%). 32 bits keep random matches rare: a stored article matches one of a new
article's keys with probability 14 / 2**32, so 10**7 stored articles give 0.03 random rows
per lookup. No fewer than 14 keys of 32 bits can guarantee 3 bits (the Schönheim bound).
4 bands of 16 bits as keys would guarantee 3 bits too, but match corpus / 16,384 random rows
per article (61 at 10**6 stored).

Each shingle is hashed with XXH64 (seed 0) of its four characters in UTF-32-LE, all of a
body's shingles at once in numpy (`shingle_hashes`): a hash call per shingle in Python costs
more than extracting the body, and fingerprints are made for every stored article. Where the
C extension of `newscrawl.extract` is built, `simhash` runs its port
(``_blockscan.shingle_simhash``), faster still; the numpy code stays as the reference the
tests hold it to, and the fallback (timings with ``bench/bench_fingerprint.py``:
BENCHMARKS.md, "Where the defaults come from"). XXH64 is a published hash, so fingerprints
can be recomputed outside Python. Fingerprints stored when shingles were hashed with
``hashlib.blake2b`` are not comparable with these, and the store compares them all the same.

`NEAR_DUPLICATE_BITS` = 6, measured against edited copies of real articles
(``bench/bench_fingerprint.py --duplicates``), finds nearly every copy with a source line, a
byline or an editor line added and more than half of those with one sentence rewritten or
the end cut, more than a limit of 3 does; different articles lie far further apart and
share no key, so 6 leaves a wide margin against false twins (measured: BENCHMARKS.md,
"Where the defaults come from").
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from newscrawl.extract import native

BITS = 64
SHINGLE_CHARS = 4
"""Shingle length: 4 Chinese characters is about two words, long enough to carry order."""
MIN_FINGERPRINT_CHARS = 100
"""Bodies shorter than this get no simhash: a few shingles make near-twins of strangers."""

NEAR_DUPLICATE_BITS = 6
"""Default limit of differing bits for a near-duplicate among the articles sharing a key
(see the module docstring); 0 turns near-duplicate detection off."""
GUARANTEED_BITS = 3
"""Fingerprints at most this many bits apart always share a key (`lookup_keys`)."""

KEY_PLANES: tuple[tuple[int, int, int, int], ...] = tuple(
    (a, b, c, d) for a, b, c, d in combinations(range(BITS // 8), 4) if a ^ b ^ c ^ d == 0
)
"""The 14 planes of the byte positions 0-7 read as the points of GF(2)**3: the quadruples
whose XOR is 0. They form a Steiner system S(3, 4, 8): any 3 positions lie in exactly one
plane, whose complement is a plane too, so any 3 positions miss some plane entirely."""

_Words = npt.NDArray[np.uint64]

_PRIME1 = np.uint64(0x9E3779B185EBCA87)
_PRIME2 = np.uint64(0xC2B2AE3D27D4EB4F)
_PRIME3 = np.uint64(0x165667B19E3779F9)
_PRIME4 = np.uint64(0x85EBCA77C2B2AE63)
_PRIME5 = np.uint64(0x27D4EB2F165667C5)
_START = _PRIME5 + np.uint64(SHINGLE_CHARS * 4)
"""XXH64's state before a short input with seed 0: a shingle is 16 bytes in UTF-32."""

_BYTE_LANE_ROWS = 255
"""Rows of one-byte bit counters that can be added before a counter could overflow."""


_COMMON_FOLDS = {
    chr(c): unicodedata.normalize("NFKC", chr(c))
    for c in (*range(0xFF01, 0xFF5F), 0x3000, 0x00A0, 0x2026)
}
"""The compatibility characters of Chinese text (full-width ASCII forms such as ，：（）,
the ideographic and no-break spaces, …) and what NFKC makes of each."""
_COMMON_FOLD = re.compile(f"[{''.join(_COMMON_FOLDS)}]")


@lru_cache(maxsize=4)
def normalise(text: str) -> str:
    """The body as compared: NFKC (full-width forms folded) with all whitespace removed.

    `unicodedata.normalize` takes its slow path on every text holding a full-width comma,
    0.45 ms for 5,000 characters of news. Replacing the common compatibility characters by
    their NFKC forms first gives the same result (NFKC of a text equals NFKC of the text
    with characters replaced by their compatibility decompositions), and what is left is
    usually normalised already: 0.07 ms. The last few are kept: a body is normalised for its
    content hash and its simhash."""
    folded = _fold_common(text)
    if not unicodedata.is_normalized("NFKC", folded):
        folded = unicodedata.normalize("NFKC", folded)
    return "".join(folded.split())


def _fold_common(text: str) -> str:
    """`text` with each `_COMMON_FOLDS` character replaced by its NFKC form. A body holds a
    few distinct ones, each many times: each is found by one search that resumes where it
    stopped (nothing before holds one) and replaced everywhere at once, where collecting
    every match (``findall``) built a string per match (a third of `normalise`'s
    instructions)."""
    at = 0
    while found := _COMMON_FOLD.search(text, at):
        text = text.replace(found[0], _COMMON_FOLDS[found[0]])
        at = found.start()
    return text


@lru_cache(maxsize=4)
def content_hash(body: str) -> str | None:
    """SHA-256 of the normalised body, or None for an empty body (those are not copies).

    The last few are kept: the store checks the hash of a crawled article in the same
    process (`ArticleRecord.of`), its body the very string extraction hashed."""
    text = normalise(body)
    return hashlib.sha256(text.encode()).hexdigest() if text else None


def simhash(body: str) -> int | None:
    """The 64-bit simhash of the body's distinct character shingles (None when too short).

    Each bit is set when more than half of the shingles' hashes have it set. In C where
    built; the numpy code otherwise (the extension missing, or built from an older
    ``_blockscan.c`` without it).
    """
    text = normalise(body)
    if len(text) < MIN_FINGERPRINT_CHARS:
        return None
    native_simhash = getattr(native.blockscan, "shingle_simhash", None)
    if native_simhash is None:
        return _majority_bits(shingle_hashes(text))
    fingerprint: int = native_simhash(text)
    return fingerprint


def shingle_hashes(text: str) -> _Words:
    """The sorted distinct XXH64 hashes (seed 0) of the text's shingles in UTF-32-LE.

    Distinct hashes stand for distinct shingles: two collide about once in 2**64 pairs.
    """
    chars = np.frombuffer(text.encode("utf-32-le"), dtype="<u4").astype(np.uint64)
    pairs = chars[:-1] | (chars[1:] << np.uint64(32))  # characters i, i+1 as read little-endian
    hashes = _xxh64_16(pairs[:-2], pairs[2:])
    hashes.sort()
    first_of_run = np.ones(len(hashes), dtype=bool)
    first_of_run[1:] = hashes[1:] != hashes[:-1]
    return hashes[first_of_run]


def _rotl(x: _Words, bits: int) -> _Words:
    """Each word rotated left by `bits` (numpy has shifts but no rotation)."""
    return (x << np.uint64(bits)) | (x >> np.uint64(64 - bits))


def _absorb(acc: _Words | np.uint64, word: _Words) -> _Words:
    """XXH64's step for one 8-byte word of a short input."""
    return _rotl(acc ^ (_rotl(word * _PRIME2, 31) * _PRIME1), 27) * _PRIME1 + _PRIME4


def _xxh64_16(first: _Words, second: _Words) -> _Words:
    """XXH64 with seed 0 of each 16-byte input, given as its two little-endian words."""
    acc = _absorb(_absorb(_START, first), second)
    acc = (acc ^ (acc >> np.uint64(33))) * _PRIME2
    acc = (acc ^ (acc >> np.uint64(29))) * _PRIME3
    return acc ^ (acc >> np.uint64(32))


def _majority_bits(hashes: _Words) -> int:
    """The 64-bit value whose bit i is set when more than half of `hashes` have bit i set.

    Unpacked, each hash is 64 one-byte counters read as 8 words, so numpy adds whole words
    up to `_BYTE_LANE_ROWS` rows at a time without a carry crossing counters; only those
    partial sums are widened, which is ~10x faster than summing the bytes as integers.
    """
    bits = np.unpackbits(hashes.astype("<u8", copy=False).view(np.uint8), bitorder="little")
    lanes = bits.view(np.uint64).reshape(len(hashes), 8)
    partial = np.add.reduceat(lanes, np.arange(0, len(hashes), _BYTE_LANE_ROWS), axis=0)
    counts = partial.view(np.uint8).reshape(-1, BITS).sum(axis=0)
    majority = np.packbits(2 * counts > len(hashes), bitorder="little")
    return int.from_bytes(majority.tobytes(), "little")


def hamming(a: int, b: int) -> int:
    """Number of differing bits."""
    return (a ^ b).bit_count()


_TAGGED_PLANES = tuple((plane << 32, positions) for plane, positions in enumerate(KEY_PLANES))


def lookup_keys(fingerprint: int) -> list[int]:
    """The fingerprint's near-twin keys, one per `KEY_PLANES` plane: the plane's number
    times 2**32 plus the fingerprint's 4 bytes at the plane's positions (0 <= key < 2**36).

    Two fingerprints at most `GUARANTEED_BITS` apart share at least one key."""
    b = fingerprint.to_bytes(8, "little")
    return [
        tag | b[p0] | b[p1] << 8 | b[p2] << 16 | b[p3] << 24
        for tag, (p0, p1, p2, p3) in _TAGGED_PLANES
    ]


CONTENT_PLANE = len(KEY_PLANES)
"""The plane of `content_key`, after the simhash's 14."""
INDEXED_PLANES = CONTENT_PLANE + 1
"""The planes of the keys a store indexes an article by: the simhash's and the body's."""


def content_key(content_hash: str) -> int:
    """The key an exact copy is looked up by, in the same index as the near-twin keys:
    `CONTENT_PLANE` times 2**32 plus the first 32 bits of the (hexadecimal) content hash.

    An article with the same body has the same key; one with another body shares it with
    probability 2**-32, and is told apart by its whole hash."""
    return CONTENT_PLANE << 32 | int(content_hash[:8], 16)
