"""Where bylines live in the markup: byline words and itemprop authors in attribute texts."""

from __future__ import annotations

import re

import pytest

from newscrawl.extract.metadata.bylines import (
    _BYLINE_WORD_RE,
    _ITEMPROP_AUTHOR_RE,
    CASE_FOLDS_TO_ASCII,
    ITEMPROP_AUTHOR_WORDS,
    _byline_word_starts,
)


def test_the_case_folds_to_ascii_are_every_character_beyond_ascii_that_folds_to_a_letter() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    folding = {chr(code) for code in range(0x80, 0x110000) if letter.fullmatch(chr(code))}
    assert folding == set(CASE_FOLDS_TO_ASCII)


@pytest.mark.parametrize(
    "joined",
    [
        'class="post-Author"\nid="main"',
        'class="作者 byline" title="记者：张三"\nclass="AUTHOR"',
        'alt="图片" class="reporter"\n data-x="WRITERwriter"',
        'class="wr\u0131ter"\nclass="x"',
        'class="\u0130author writ\u0130r"',
        'class="d\u00e4teline dateline"',
        'title="\U0001f600 contributor"\nrel="author"',
        "",
    ],
)
def test_byline_word_starts_are_where_the_case_blind_pattern_matches(joined: str) -> None:
    expected = sorted(at for at in range(len(joined)) if _BYLINE_WORD_RE.match(joined, at))
    assert sorted(_byline_word_starts(joined)) == expected


def test_every_text_the_itemprop_author_pattern_matches_holds_its_words_lower_cased() -> None:
    # No letter of the words is one that `CASE_FOLDS_TO_ASCII` characters fold to.
    assert not set("".join(ITEMPROP_AUTHOR_WORDS)) & set("iks")
    assert all(word in _ITEMPROP_AUTHOR_RE.pattern for word in ITEMPROP_AUTHOR_WORDS)
    for attributes in ('itemprop="author"', "ITEMPROP = AUTHOR", "itemProp='Author'"):
        assert _ITEMPROP_AUTHOR_RE.search(attributes)
        assert all(word in attributes.lower() for word in ITEMPROP_AUTHOR_WORDS)
