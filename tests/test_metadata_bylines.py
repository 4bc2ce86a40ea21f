"""Where bylines live in the markup: byline words and itemprop authors in attribute texts."""

from __future__ import annotations

import re

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import native
from newscrawl.extract.blocks import Line
from newscrawl.extract.metadata import bylines
from newscrawl.extract.metadata.bylines import (
    _BYLINE_WORD_RE,
    _ITEMPROP_AUTHOR_RE,
    BYLINE_WORDS,
    CASE_FOLDS_TO_ASCII,
    ITEMPROP_AUTHOR_WORDS,
    _byline_word_starts,
)

BYLINE_PIECES = [*BYLINE_WORDS, "AUTHOR", "Writer", "aut", "hor", *CASE_FOLDS_TO_ASCII]
BYLINE_PIECES += ["\n", " ", 'class="', '"', "作者", "\U0001f600", "w", "r", "t", "e"]
ATTRIBUTE_TEXTS = st.lists(
    st.lists(
        st.sampled_from(BYLINE_PIECES),
        max_size=6,
    ).map("".join),
    max_size=8,
)
"""Attribute texts of byline words, their pieces, the characters that fold to a letter
(a byline word spelt "wr\u0131ter" is one to the case-blind pattern) and line breaks."""


@pytest.fixture
def built() -> None:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")


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


@NATIVE_SETTINGS
@given(ATTRIBUTE_TEXTS)
def test_the_texts_with_a_byline_word_are_those_the_case_blind_pattern_finds(
    texts: list[str],
) -> None:
    expected = {i for i, text in enumerate(texts) if _BYLINE_WORD_RE.search(text)}
    assert bylines._texts_with_a_word_python(texts) == expected
    if native.blockscan is not None:
        assert set(bylines._texts_with_a_word(texts)) == expected


LINES = st.lists(st.integers(0, 9), max_size=30).map(
    lambda elements: [Line("t", "p", element, 1, 0, 0, None, 0) for element in elements]
)


@NATIVE_SETTINGS
@given(LINES, st.frozensets(st.integers(0, 9)))
def test_the_lines_in_elements_are_those_whose_element_is_one(
    lines: list[Line], elements: frozenset[int]
) -> None:
    expected = [i for i, line in enumerate(lines) if line.element in elements]
    assert bylines._lines_in_python(lines, set(elements)) == expected
    if native.blockscan is not None:
        assert native.blockscan.lines_in(lines, elements) == expected
        assert native.blockscan.lines_in(tuple(lines), set(elements)) == expected


def test_lines_in_refuses_what_is_not_lines_and_a_set(built: None) -> None:
    for lines, elements in (
        ([("too", "short")], set()),
        ("not lines", set()),
        ([Line("t", "p", 1, 1, 0, 0, None, 0)], [1]),
        ([Line("t", "p", [1], 1, 0, 0, None, 0)], {1}),
    ):
        with pytest.raises(TypeError):
            native.blockscan.lines_in(lines, elements)
