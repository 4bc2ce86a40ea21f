"""The Bloom filter of a key-index level: it never turns away a key it was given, lets
through about the share of other keys its size predicts, and survives a round trip through
the database as bytes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.store.key_filter import KeyFilter

keys = st.lists(st.integers(min_value=0, max_value=(14 << 32) - 1), min_size=1, max_size=300)


def as_array(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.uint64)


@given(keys, keys, st.integers(min_value=1, max_value=24))
def test_every_added_key_is_let_through(
    added: list[int], later: list[int], bits_per_key: int
) -> None:
    level_filter = KeyFilter(len(added), bits_per_key=bits_per_key)
    level_filter.add(as_array(added))
    level_filter.add(as_array(later))  # beyond its plan: more false positives, no misses
    assert level_filter.might_hold(as_array(added + later)).all()


@pytest.mark.parametrize(
    ("bits_per_key", "hashes", "low", "high"),
    [(10, 7, 0.004, 0.012), (16, 11, 0.0002, 0.0008)],
)
def test_other_keys_pass_at_the_planned_rate(
    bits_per_key: int, hashes: int, low: float, high: float
) -> None:
    """Planned for 200,000 keys at 10 bits each and 7 hashes, 0.8% of other keys pass; at 16
    bits and 11 hashes, 0.046%."""
    rng = np.random.default_rng(1)
    drawn = rng.choice(1 << 36, size=1_200_000, replace=False).astype(np.uint64)
    added, others = drawn[:200_000], drawn[200_000:]
    level_filter = KeyFilter(len(added), bits_per_key=bits_per_key)
    level_filter.add(added)
    assert level_filter.shape == (200_000 * bits_per_key, hashes)
    assert level_filter.might_hold(added).all()
    assert low < level_filter.might_hold(others).mean() < high


@pytest.mark.parametrize("bits_per_key", [10, 16])
def test_a_filter_read_back_from_bytes_answers_alike(bits_per_key: int) -> None:
    """The bytes alone tell the bits per key a filter was made with."""
    rng = np.random.default_rng(2)
    added = rng.integers(0, 1 << 36, size=5_000, dtype=np.uint64)
    probes = rng.integers(0, 1 << 36, size=20_000, dtype=np.uint64)
    level_filter = KeyFilter(5_000, bits_per_key=bits_per_key)
    level_filter.add(added)
    read_back = KeyFilter.from_bytes(5_000, level_filter.to_bytes())
    assert read_back.bits_per_key == bits_per_key and read_back.shape == level_filter.shape
    assert (read_back.might_hold(probes) == level_filter.might_hold(probes)).all()
    assert read_back.might_hold(added).all()
    with pytest.raises(ValueError, match="planned for 9000 keys"):
        KeyFilter.from_bytes(9_000, level_filter.to_bytes())


def reference_positions(key: int, bits: int, hashes: int) -> set[int]:
    """The positions a stored filter's bits mean, in plain integers: splitmix64's finaliser
    of the key, and of that, as the start and step of `hashes` positions modulo `bits`."""
    mask = (1 << 64) - 1

    def mix(value: int) -> int:
        z = (value + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    first = mix(key)
    step = mix(first) | 1
    return {((first + i * step) & mask) % bits for i in range(hashes)}


@pytest.mark.parametrize("bits_per_key", [10, 16])
def test_a_filter_sets_bit_p_mod_8_of_byte_p_div_8_for_each_position(bits_per_key: int) -> None:
    """The layout filters are stored in, which sealed levels written by earlier releases
    keep: a key sets exactly the bits of its positions, and is let through on them."""
    added = [3, 14 << 32 | 0xDEADBEEF, (1 << 36) - 1]
    level_filter = KeyFilter(len(added), bits_per_key=bits_per_key)
    level_filter.add(as_array(added))
    bits, hashes = level_filter.shape
    expected = set().union(*(reference_positions(key, bits, hashes) for key in added))
    flags = np.unpackbits(np.frombuffer(level_filter.to_bytes(), np.uint8), bitorder="little")
    assert set(np.flatnonzero(flags).tolist()) == expected
    assert level_filter.might_hold(as_array(added)).all()
