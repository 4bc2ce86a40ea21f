"""A Bloom filter over near-duplicate keys: which keys a level of the key index cannot hold.

A lookup probes every level of `newscrawl.store.key_index` for each of a batch's 15,000
keys, and nearly every probe misses (a random key matches one of a million articles' keys
with probability 10**6 / 2**32, about 0.02%). Once a level outgrows the page cache each miss
still costs a page read, and with a million articles stored the deep levels took most of a
batch's lookup time (measured: CHANGELOG.md, "Defaults as first measured"). A Bloom filter
(Bloom 1970) answers "not here" from memory for all but a share of those keys that its bits
per key set (0.8% at 10, 0.046% at 16), and never for a key the level holds; LevelDB and
RocksDB keep one per sorted run for the same reason.

Each key sets `hashes_for(bits_per_key)` bits, chosen by double hashing (Kirsch and
Mitzenmacher 2006) of the splitmix64 mix of the key, so the filter is a pure function of
the keys added and can be stored and loaded as bytes. Keys are never taken out: a key
deleted from the level only leaves a false positive behind.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

BITS_PER_KEY = 16
"""Filter bits per key the filter is planned for, unless it is given its own: with 11 hashes
(`hashes_for`) that lets through (1 - e**(-11 / 16))**11 = 0.046% of the keys the level does
not hold. Sealed levels multiply with the corpus, 15 at a million articles and 152 at ten
million, and each key a filter lets through is a seek into a region of the index no cache
keeps: at a million articles and 10 bits (0.8%), about 1,800 page reads a batch of 1,000
(15 keys at each of 15 levels), a large share of the batch's time (measured: CHANGELOG.md,
"Defaults as first measured"). At 16 bits: 0.1 seeks an article at 15 levels, about 1 at
152, for 2.0 MB a level held by each writing process (300 MB at ten million; 15 keys an
article)."""


def hashes_for(bits_per_key: int) -> int:
    """The number of bits each key sets that lets through the fewest keys a filter of
    `bits_per_key` does not hold: bits_per_key * ln 2, rounded (Bloom's optimum)."""
    return max(1, round(bits_per_key * math.log(2)))


_LEAST_PLANNED = 8
"""A filter plans for at least this many keys, so that its size tells its bits per key."""

_Keys = npt.NDArray[np.uint64]


class KeyFilter:
    """A Bloom filter sized for `planned` keys at `bits_per_key`; holding more only raises
    its false positives."""

    def __init__(
        self,
        planned: int,
        bits: npt.NDArray[np.uint8] | None = None,
        *,
        bits_per_key: int = BITS_PER_KEY,
    ) -> None:
        self.planned = max(_LEAST_PLANNED, planned)
        self.bits_per_key = bits_per_key
        size = -(-self.planned * bits_per_key // 8)  # bytes, rounded up
        self._bits = np.zeros(size, np.uint8) if bits is None else bits
        if self._bits.shape != (size,):
            raise ValueError(f"a filter planned for {planned} keys has {size} bytes")
        self._modulus = np.uint64(8 * size)
        self._hashes = hashes_for(bits_per_key)

    @classmethod
    def from_bytes(cls, planned: int, data: bytes) -> KeyFilter:
        """The filter `to_bytes` wrote for `planned` keys, whatever its bits per key: they are
        its bytes over its keys, rounded down (exact, as a filter plans for at least 8)."""
        bits_per_key = len(data) * 8 // max(_LEAST_PLANNED, planned)
        return cls(planned, np.frombuffer(data, np.uint8).copy(), bits_per_key=bits_per_key)

    @property
    def shape(self) -> tuple[int, int]:
        """(bits, hashes): filters of one shape give each key the same `positions`."""
        return int(self._modulus), self._hashes

    def to_bytes(self) -> bytes:
        return self._bits.tobytes()

    def add(self, keys: _Keys) -> None:
        """Set the bits of `keys`, in slices of 65,536 keys whose arrays stay in the CPU's
        cache (2.24 million keys: 0.8 s, against 2.3 s in slices of a million). One bit of
        the byte at a time: a byte named twice then gets the same value twice, so plain
        fancy indexing is right (and faster than ``np.bitwise_or.at``: 1.1 s)."""
        for start in range(0, len(keys), 1 << 16):
            positions = self.positions(keys[start : start + (1 << 16)]).ravel()
            offsets, bytes_at = positions & 7, positions >> 3
            for bit in range(8):
                at = bytes_at[offsets == bit]
                self._bits[at] |= np.uint8(1 << bit)

    def might_hold(self, keys: _Keys) -> npt.NDArray[np.bool_]:
        """For each of `keys`, False where the filter's level surely does not hold it."""
        return self.might_hold_at(self.positions(keys))

    def might_hold_at(self, positions: _Keys) -> npt.NDArray[np.bool_]:
        """`might_hold` of the keys whose `positions` are given: filters of one `shape` share
        them, so a lookup through many such filters computes them once.

        One hash at a time, over the keys every earlier one let through: about half of a
        filter's bits are set, so a key it does not hold is turned away after two reads on
        average rather than read at all 11 positions. Each level's filter (2 MB) is read
        from memory, not the CPU's cache, so the reads saved halve a batch's time in the
        filters (measured: CHANGELOG.md, "Defaults as first measured")."""
        passing = np.arange(positions.shape[1])
        for row in positions:
            at = row[passing]
            passing = passing[(self._bits[at >> 3] >> (at & 7).astype(np.uint8)) & 1 == 1]
        held = np.zeros(positions.shape[1], np.bool_)
        held[passing] = True
        return held

    def positions(self, keys: _Keys) -> _Keys:
        """The bit positions of each key: one row per hash, one column per key."""
        first = _mix(keys)
        step = _mix(first) | np.uint64(1)
        rounds = np.arange(self._hashes, dtype=np.uint64)
        with np.errstate(over="ignore"):  # the sums wrap around modulo 2**64 on purpose
            return (first[None, :] + rounds[:, None] * step[None, :]) % self._modulus


def _mix(values: _Keys) -> _Keys:
    """splitmix64's finaliser (Steele et al. 2014): every input bit moves every output bit,
    so keys that differ in a few bits land on unrelated positions."""
    with np.errstate(over="ignore"):
        z = values + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))
