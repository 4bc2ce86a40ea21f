"""Body fingerprints: exact hash over the normalised body, simhash for near-copies."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given, settings
from hypothesis import strategies as st
from store_support import article_text

from newscrawl.extract import native
from newscrawl.fingerprint import (
    _majority_bits,
    content_hash,
    hamming,
    normalise,
    shingle_hashes,
    simhash,
)


def test_content_hash_ignores_whitespace_and_width() -> None:
    assert content_hash("新闻 正文\n第二段") == content_hash("新闻正文第二段")
    assert content_hash("ＡＢＣ１２３") == content_hash("ABC123")
    assert content_hash("新闻正文") != content_hash("新闻正文。")
    assert content_hash(" \n ") is None


@given(
    st.text(
        st.one_of(
            st.sampled_from("，：（）！？…\u3000\xa0ＡＢ１ \n的\u0301\u0327"),
            st.characters(codec="utf-8"),
        )
    )
)
@settings(max_examples=500)
def test_normalise_is_nfkc_without_whitespace(text: str) -> None:
    # The common compatibility characters are folded before NFKC, beside combining marks too.
    assert normalise(text) == "".join(unicodedata.normalize("NFKC", text).split())


def test_simhash_is_close_for_small_edits_and_far_for_other_texts() -> None:
    text = article_text(1, 1500)
    edited = "（记者 张三）" + text[:-2] + "。"
    assert hamming(simhash(text), simhash(edited)) <= 3  # type: ignore[arg-type]
    assert hamming(simhash(text), simhash(article_text(2, 1500))) > 16  # type: ignore[arg-type]


def test_simhash_is_deterministic_and_skips_short_bodies() -> None:
    assert simhash(article_text(3)) == simhash(article_text(3))
    assert simhash("短讯。") is None


def test_shingles_are_hashed_with_xxh64_of_their_utf32_bytes() -> None:
    # Known answers from the xxHash library: xxh64_intdigest(shingle.encode("utf-32-le")).
    assert shingle_hashes("新闻正文").tolist() == [0xACBA35DB3A17EFD5]
    assert shingle_hashes("ABCD新闻正文😀x").tolist() == [
        0x2052B9ECAD0EC56C,
        0x259DD7529A4D4454,
        0x747F0332A94D9EB0,
        0x7CF88CDE541FF550,
        0xACBA35DB3A17EFD5,
        0xF2C0FDA4D4CC9DAE,
        0xFC1FB6E093DA533B,
    ]
    assert shingle_hashes("哈哈哈哈哈哈").size == 1  # a repeated shingle counts once
    assert shingle_hashes("短讯。").size == 0


def test_fingerprints_do_not_drift() -> None:
    # Stored fingerprints are compared with new ones: a change here breaks every store.
    assert simhash(article_text(3)) == 0x25DDD10FC539EBF8
    assert simhash(article_text(3, 5000)) == 0x26BDD1E5B51BE75A


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="的一是在不了有和人这中大。😀ａ", min_size=100, max_size=2000))
def test_each_bit_is_the_majority_of_the_distinct_shingle_hashes(body: str) -> None:
    hashes = [int(h) for h in shingle_hashes(normalise(body))]
    majority = sum(
        1 << bit for bit in range(64) if 2 * sum(h >> bit & 1 for h in hashes) > len(hashes)
    )
    assert simhash(body) == majority


def numpy_simhash(text: str) -> int:
    """The simhash of a normalised text by the numpy code: the C one's reference."""
    return _majority_bits(shingle_hashes(text))


def require_extension() -> None:
    """A plain call, not a fixture: hypothesis refuses function-scoped fixtures."""
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")


@NATIVE_SETTINGS
@given(
    st.one_of(
        st.text(alphabet="的一是在。😀ａ", min_size=4, max_size=600),  # shingles repeat
        st.text(st.characters(codec="utf-8"), max_size=3000),
    )
)
def test_the_c_simhash_is_the_numpy_one(text: str) -> None:
    require_extension()
    shingles = shingle_hashes(text)
    assert native.blockscan.shingle_simhash(text) == (numpy_simhash(text) if shingles.size else 0)


def test_the_c_simhash_refuses_a_lone_surrogate_as_numpy_does() -> None:
    require_extension()
    text = "新闻正文\ud800" * 30
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        numpy_simhash(text)
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        native.blockscan.shingle_simhash(text)


def test_without_the_extension_simhash_runs_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "blockscan", None)
    assert simhash(article_text(3)) == 0x25DDD10FC539EBF8
