"""Body fingerprints: exact hash over the normalised body, simhash for near-copies."""

from __future__ import annotations

from store_support import article_text

from newscrawl.fingerprint import BANDS, bands, content_hash, hamming, simhash


def test_content_hash_ignores_whitespace_and_width() -> None:
    assert content_hash("新闻 正文\n第二段") == content_hash("新闻正文第二段")
    assert content_hash("ＡＢＣ１２３") == content_hash("ABC123")
    assert content_hash("新闻正文") != content_hash("新闻正文。")
    assert content_hash(" \n ") is None


def test_simhash_is_close_for_small_edits_and_far_for_other_texts() -> None:
    text = article_text(1, 1500)
    edited = "（记者 张三）" + text[:-2] + "。"
    assert hamming(simhash(text), simhash(edited)) <= 3  # type: ignore[arg-type]
    assert hamming(simhash(text), simhash(article_text(2, 1500))) > 16  # type: ignore[arg-type]


def test_simhash_is_deterministic_and_skips_short_bodies() -> None:
    assert simhash(article_text(3)) == simhash(article_text(3))
    assert simhash("短讯。") is None


def test_bands_split_the_fingerprint() -> None:
    fingerprint = 0x0123_4567_89AB_CDEF
    assert bands(fingerprint) == (0xCDEF, 0x89AB, 0x4567, 0x0123)
    assert len(bands(fingerprint)) == BANDS
