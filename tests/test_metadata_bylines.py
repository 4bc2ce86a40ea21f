"""Where bylines live in the markup: byline words and itemprop authors in attribute texts."""

from __future__ import annotations

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import native
from newscrawl.extract.blocks import Line
from newscrawl.extract.metadata.bylines import (
    _BYLINE_WORD_RE,
    _ITEMPROP_AUTHOR_RE,
    BYLINE_WORDS,
    ITEMPROP_AUTHOR_WORDS,
)
from newscrawl.extract.metadata.lines import lines_in_python
from newscrawl.extract.needles import CASE_FOLDS_TO_ASCII, texts_holding

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
    expected = [i for i, text in enumerate(texts) if _BYLINE_WORD_RE.search(text)]
    assert texts_holding(texts, (BYLINE_WORDS,)) == (expected,)


LINES = st.lists(st.integers(0, 9), max_size=30).map(
    lambda elements: [Line("t", "p", element, 1, 0, 0, None, 0) for element in elements]
)


@NATIVE_SETTINGS
@given(LINES, st.frozensets(st.integers(0, 9)))
def test_the_lines_in_elements_are_those_whose_element_is_one(
    lines: list[Line], elements: frozenset[int]
) -> None:
    expected = [i for i, line in enumerate(lines) if line.element in elements]
    assert lines_in_python(lines, set(elements)) == expected
    if native.blockscan is not None:
        assert native.blockscan.lines_in(lines, elements) == expected
        assert native.blockscan.lines_in(tuple(lines), set(elements)) == expected


def test_lines_in_looks_up_many_or_big_elements_in_the_set(built: None) -> None:
    lines = [Line("t", "p", element, 1, 0, 0, None, 0) for element in (3, 2**70, 25, 7, 2**70)]
    for elements in (set(range(20)), {3, 2**70}, {2**70}, set(range(0, 40, 5)) | {2**70}):
        expected = [i for i, line in enumerate(lines) if line.element in elements]
        assert native.blockscan.lines_in(lines, elements) == expected


def test_lines_in_refuses_what_is_not_lines_and_a_set(built: None) -> None:
    for lines, elements in (
        ([("too", "short")], set()),
        ("not lines", set()),
        ([Line("t", "p", 1, 1, 0, 0, None, 0)], [1]),
        ([Line("t", "p", [1], 1, 0, 0, None, 0)], {1}),
    ):
        with pytest.raises(TypeError):
            native.blockscan.lines_in(lines, elements)
