"""Which texts hold a needle (`needles.texts_holding`): the C search over the texts as lines
against its Python reference and against the definition (a substring test per folded text),
and, for each rule that picks its candidates by needles, that every text its patterns take
holds one of them (else the rule would miss a line it used to catch)."""

from __future__ import annotations

import re

from conftest import NATIVE_SETTINGS, fold
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract import default, native, needles
from newscrawl.extract.metadata.bylines import BYLINE_WORDS
from newscrawl.extract.needles import CASE_FOLDS_TO_ASCII, texts_holding

GROUPS = (("author", "by"), ("：", ":", "权"), ("ight",), ("getty", "reuters/"))
PIECES = [
    *(needle for group in GROUPS for needle in group),
    *(needle.upper() for group in GROUPS for needle in group),
    *CASE_FOLDS_TO_ASCII,
    *"aiks\n\0 ©来",
    "\U0001f600",
    "É",
]
TEXTS = st.lists(st.lists(st.sampled_from(PIECES), max_size=6).map("".join), max_size=8)
"""Texts of needles in any case, their letters, the characters that fold to a letter,
line breaks (which the C search must not take for the end of a text) and others."""


def test_the_case_folds_to_ascii_are_every_character_beyond_ascii_that_folds_to_a_letter() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    folding = {chr(code) for code in range(0x80, 0x110000) if letter.fullmatch(chr(code))}
    assert folding == set(CASE_FOLDS_TO_ASCII)
    assert all(letter.fullmatch(folded) for folded in CASE_FOLDS_TO_ASCII.values())


def test_the_needles_in_use_are_folded_and_hold_no_capital_beyond_ascii() -> None:
    for group in (BYLINE_WORDS, default.STATEMENT_NEEDLES, default.CREDIT_NEEDLES, *GROUPS):
        for needle in group:
            assert needle and "\n" not in needle and fold(needle) == needle
            assert all(char.isascii() or char.lower() == char.upper() for char in needle)


@NATIVE_SETTINGS
@given(TEXTS)
def test_the_texts_holding_a_needle_are_those_whose_folded_text_does(texts: list[str]) -> None:
    expected = tuple(
        [i for i, text in enumerate(texts) if any(needle in fold(text) for needle in group)]
        for group in GROUPS
    )
    assert needles._texts_holding_python(texts, GROUPS) == expected
    if native.blockscan is not None:
        assert texts_holding(texts, GROUPS) == expected


STATEMENT_PIECES = st.sampled_from(
    ["责任编辑", "来源", "版权所有", "All Rights Reserved", "ALL R\u0130GHTS RESERVED", "copyright",
     "COPYR\u0131GHT 2024", "©", "(c)", "：", ":", " ", "编辑", "right", "Photo", "Foto", "credit",
     "Crédits photos", " by", ". ", "Getty Images", "GETTY  IMAGES", "\u0130stock", "shutter",
     "ſhutterstoc\u212a", "Reuters/", "(AP Photo/", "(Photos by ", "(Image", ")", "aCredit",
     "x", "1"]
)  # fmt: skip
LINES = st.lists(STATEMENT_PIECES, max_size=6).map("".join)


@NATIVE_SETTINGS
@given(LINES)
def test_every_line_the_boilerplate_patterns_take_holds_one_of_their_needles(line: str) -> None:
    folded = fold(line)
    if default.BOILERPLATE_LINE_RE.search(line):
        assert any(needle in folded for needle in default.STATEMENT_NEEDLES)
    if default._is_photo_credit(line, len(line)):
        assert any(needle in folded for needle in default.CREDIT_NEEDLES)
