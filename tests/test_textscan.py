"""The metadata's passes over the scan's lines: the C ones (``_blockscan.c``) against their
Python references, and the references against plain definitions.

`PageText.having` must give the same lines whichever search found the candidates: the C one
by needles (``_blockscan.line_hits``) or the Python one by patterns. That holds when every
line a keyword's pattern matches holds one of its needles (folded), which is tested here on
generated text; and both must give what a search of each line gives. The visible lines and
the chars per box and the visible lines' columns (texts, headings, linked lines) are
compared, C against Python and Python against a loop over the lines,
on generated input and the dataset pages; the letters per script (numpy) against a count one
character at a time; the names found in scripts (``substrings_in``) against a substring test
per name; the byline elements' word search and lines (``line_hits`` over attribute texts,
``lines_in``) against their Python references on the dataset pages. Under CI (CI=true) a
missing extension fails the tests of the C.
"""

from __future__ import annotations

import gc
from pathlib import Path
from unittest.mock import patch

import pytest
from conftest import NATIVE_SETTINGS, fold, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import blocks, native, needles
from newscrawl.extract.blocks import Line
from newscrawl.extract.metadata import (
    KEYWORDS,
    SCRIPT_NAMES,
    bylines,
    lines,
    page_facts,
    scripts,
)
from newscrawl.extract.metadata.lines import PageText, VisibleLine
from newscrawl.extract.needles import CASE_FOLDS_TO_ASCII, texts_holding

NEEDLES = [needle for keyword in KEYWORDS for needle in keyword.needles]
TOKENS = st.sampled_from(
    [*NEEDLES, *(needle.upper() for needle in NEEDLES), *"".join(NEEDLES), "ſ", "ſOURCE", " ",
     "\t", "\u3000", "/", "／", "》", "第", "19", "20", "年", "9", "x", "\U0001f600"]
)  # fmt: skip
LINE = st.one_of(
    st.lists(TOKENS, max_size=8).map("".join),
    *(st.from_regex(keyword.pattern).filter(lambda text: "\n" not in text) for keyword in KEYWORDS),
)
"""Lines built of needles (any case), their characters, near misses and the other parts of
the keyword patterns, in any order; and lines holding a match of a keyword pattern (among
them matches whose "\\s" a line break would end)."""


@pytest.fixture
def built() -> None:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")


def assert_having_finds_each_lines_matches(texts: list[str]) -> None:
    """`PageText.having` with the C search and with the Python one give, for every
    keyword, the lines a search of each line gives."""
    visible = [VisibleLine(text, False, "p") for text in texts]
    native_page = PageText.of(visible, KEYWORDS)
    python_page = PageText.of(visible, KEYWORDS)
    for keyword in KEYWORDS:
        python_page._hits[keyword] = python_page._lines_with_a_match(keyword.pattern)
    for keyword in KEYWORDS:
        for first in (0, 1):
            expected = [text for text in texts[first:] if keyword.pattern.search(text)]
            assert python_page.having(keyword, first) == expected, keyword
            if native.blockscan is not None:
                assert native_page.having(keyword, first) == expected, keyword


@NATIVE_SETTINGS
@given(LINE)
def test_every_line_a_pattern_matches_holds_a_needle_and_a_mark(line: str) -> None:
    for keyword in KEYWORDS:
        if keyword.pattern.search(line):
            assert any(needle in fold(line) for needle in keyword.needles), keyword
            assert not keyword.marks or any(mark in line for mark in keyword.marks), keyword


@NATIVE_SETTINGS
@given(st.lists(LINE, max_size=12))
def test_both_searches_find_the_lines_each_lines_search_finds(texts: list[str]) -> None:
    assert_having_finds_each_lines_matches(texts)


def test_line_hits_folds_case_and_long_s_and_counts_each_line_once(built: None) -> None:
    text = "POSTED by me\n来源：新华社 来源\nſource\n\nno match\n\U0001f600来源"
    assert native.blockscan.line_hits(text, (("posted",), ("来源", "source"), ("xyz",))) == (
        [0],
        [1, 2, 5],
        [],
    )


def test_line_hits_folds_what_a_case_blind_pattern_folds_to_a_letter(built: None) -> None:
    text = "wr\u0131ter\nWR\u0130TER\n\u212aick\nwrter\nſ"
    assert native.blockscan.line_hits(text, (("writer",), ("kick",), ("s",))) == ([0, 1], [2], [4])
    assert lines.FOLDED_LETTER_RE.findall(f"{''.join(CASE_FOLDS_TO_ASCII)}aZ9来") == [
        *CASE_FOLDS_TO_ASCII,
        "a",
        "Z",
    ]


def test_line_hits_tries_every_needle_that_starts_alike(built: None) -> None:
    """Needles sharing a first character, single characters among them, in any order."""
    groups = (("于",), ("posted", "post"), ("po",), ("于是",), ("p",))
    text = "他于是\npost\nPO\nxyz\n于"
    assert native.blockscan.line_hits(text, groups) == ([0, 4], [1], [1, 2], [0], [1, 2])


def test_line_hits_refuses_bad_needles(built: None) -> None:
    with pytest.raises(TypeError):
        native.blockscan.line_hits("text", (("",),))
    with pytest.raises(TypeError):
        native.blockscan.line_hits("text", ("not a tuple",))


SCRIPT_TOKENS = st.sampled_from(
    [*SCRIPT_NAMES, *(name[:-1] for name in SCRIPT_NAMES), *"".join(SCRIPT_NAMES), "ct", "c",
     "Time", "time", "é", "\u3000", "央视", "\U0001f600", "\n", " ", '"', "=", ":"]
)  # fmt: skip
"""Script text: the names the metadata looks for, their prefixes and letters, and
characters of every width."""
NAMES = st.lists(
    st.sampled_from([*SCRIPT_NAMES, "c", "ct", "cT", "央", "央视新闻", "\U0001f600", "é"]),
    unique=True,
    max_size=12,
).map(tuple)


@NATIVE_SETTINGS
@given(st.lists(st.lists(SCRIPT_TOKENS, max_size=30).map("".join), max_size=4), NAMES)
def test_substrings_in_finds_what_substring_tests_find(
    texts: list[str], names: tuple[str, ...]
) -> None:
    expected = [tuple(name for name in names if name in text) for text in texts]
    assert scripts.substrings_in(texts, names) == expected
    with patch.object(native, "blockscan", None):  # the Python reference
        assert scripts.substrings_in(texts, names) == expected


def test_substrings_in_at_the_edges(built: None) -> None:
    names = ("ct", "c", "act", "\U0001f600", "视新", "end")
    texts = ["", "c", "act", "\U0001f600x", "央视新闻", "the end", "ct" * 1000, "C T"]
    assert native.blockscan.substrings_in(texts, names) == [
        (),
        ("c",),
        ("ct", "c", "act"),
        ("\U0001f600",),
        ("视新",),
        ("end",),
        ("ct", "c"),
        (),
    ]
    assert native.blockscan.substrings_in(("ab",), ()) == [()]
    assert native.blockscan.substrings_in((), names) == []


def test_substrings_in_refuses_bad_input(built: None) -> None:
    with pytest.raises(TypeError):
        native.blockscan.substrings_in(["text"], ("",))
    with pytest.raises(TypeError):
        native.blockscan.substrings_in(["text"], ("a", 1))
    with pytest.raises(TypeError):
        native.blockscan.substrings_in(["text", b"bytes"], ("a",))
    with pytest.raises(TypeError):
        native.blockscan.substrings_in(7, ("a",))
    with pytest.raises(TypeError):
        native.blockscan.substrings_in(["text"], ["a"])


def visible_lines_by_line(page: blocks.PageLines, other_content: set[int]) -> list[VisibleLine]:
    """`lines.visible_lines` as a loop over the page's lines."""
    visible: list[VisibleLine] = []
    for line in page.lines:
        if line.noise_element in other_content:
            continue
        heading = line.tag in lines.HEADING_TAGS
        visible.extend(
            VisibleLine(part[: lines.MAX_LINE_CHARS], heading, line.tag, line.link_chars > 0)
            for part in line.text.split("\n")
        )
    return visible


def box_chars_by_line(page_lines: list[Line], words: frozenset[str]) -> tuple[int, dict[int, int]]:
    """`lines._box_chars_python` as a loop over the lines."""
    chars: dict[int, int] = {}
    for line in page_lines:
        if line.noise in words:
            chars[line.noise_element] = chars.get(line.noise_element, 0) + line.chars
    return sum(line.chars for line in page_lines), chars


def assert_passes_agree(page: blocks.PageLines, other_content: set[int]) -> None:
    visible = lines._visible_lines_python(page, other_content)
    assert visible == visible_lines_by_line(page, other_content)
    assert all(type(line) is VisibleLine for line in visible)
    words = lines.OTHER_CONTENT_WORDS
    boxes = lines._box_chars_python(page.lines, words)
    assert boxes == box_chars_by_line(page.lines, words)
    columns = lines._visible_columns_python(visible)
    assert columns == (
        tuple(line.text for line in visible),
        [index for index, line in enumerate(visible) if line.heading],
        [index for index, line in enumerate(visible) if line.linked],
    )
    if native.blockscan is not None:
        assert lines.visible_lines(page, other_content) == visible
        assert native.blockscan.box_chars(page.lines, words) == boxes
        assert lines.visible_columns(visible) == columns


def assert_byline_passes_agree(page: blocks.PageLines) -> None:
    """The byline elements' texts and lines, C against Python."""
    texts = list(page.attributes.values())
    groups = (bylines.BYLINE_WORDS,)
    marked = bylines.byline_elements(page)
    within = bylines._within_levels(page.parents, marked | {1})
    if native.blockscan is not None:
        assert texts_holding(texts, groups) == needles._texts_holding_python(texts, groups)
        assert lines.lines_in(page.lines, within) == lines.lines_in_python(page.lines, within)


ROWS = st.lists(
    st.tuples(
        st.lists(
            st.sampled_from(["来源：新华社", "\n", "x" * 1500, " ", "a"]), min_size=1, max_size=5
        )
        .map("".join)
        .map(lambda text: "\n".join(part for part in text.split("\n") if part) or "a"),
        st.sampled_from(["p", "h1", "h3", "td"]),
        st.integers(0, 500),
        st.sampled_from([None, "comment", "related", "nav"]),
        st.integers(0, 3),
    ),
    max_size=12,
)
"""Lines as the scan makes them (text without empty parts between soft breaks), in boxes
that come and go and come back."""


@NATIVE_SETTINGS
@given(ROWS, st.sets(st.integers(0, 3)))
def test_visible_lines_and_box_chars_agree_every_way(
    rows: list[tuple[str, str, int, str | None, int]], other_content: set[int]
) -> None:
    page = blocks.PageLines(
        [
            Line(text, tag, 1, chars, 0, 0, noise, box if noise else 0)
            for text, tag, chars, noise, box in rows
        ],
        {1: 0},
        [],
        ["", "div"],
        {},
    )
    assert_passes_agree(page, other_content)


def test_visible_columns_refuses_what_is_not_a_visible_line(built: None) -> None:
    with pytest.raises(TypeError):
        native.blockscan.visible_columns([("text", True, "h1")])
    with pytest.raises(TypeError):
        native.blockscan.visible_columns("text")
    assert native.blockscan.visible_columns([]) == ((), [], [])


def test_box_chars_refuses_what_is_not_a_line(built: None) -> None:
    with pytest.raises(TypeError):
        native.blockscan.box_chars([("too", "short")], frozenset())
    with pytest.raises(TypeError):
        native.blockscan.box_chars([], ["not", "a", "set"])


@NATIVE_SETTINGS
@given(st.text(st.sampled_from("aZkあアヿ가힣㐀一鿿豈﫿\U00020000 1。é\ud800@[`{")))
def test_script_letters_count_each_character_in_its_range(text: str) -> None:
    expected = tuple(
        sum(any(low <= ord(c) <= high for low, high in ranges) for c in text)
        for ranges in page_facts.SCRIPT_RANGES
    )
    assert page_facts.script_letters(text) == expected
    with patch.object(native, "blockscan", None):  # the Python reference
        assert page_facts.script_letters(text) == expected


SAMPLE_LINES = st.sampled_from(["", "a", "中文", "Some words", "x" * 3000, "かな", "한국어"])


@NATIVE_SETTINGS
@given(st.lists(SAMPLE_LINES, max_size=9))
def test_the_script_sample_is_the_first_letters_of_the_lines_joined_without_a_gap(
    texts: list[str],
) -> None:
    page = PageText.of([VisibleLine(text, False, "p") for text in texts], KEYWORDS)
    sample = "".join(texts)[: page_facts.SCRIPT_SAMPLE_CHARS]
    assert page_facts.script_language(page) == page_facts._script_guess(sample)


def test_the_script_sample_reads_past_thousands_of_empty_lines() -> None:
    texts = ["", "a"] * 3000 + ["中文" * 3000]
    page = PageText.of([VisibleLine(text, False, "p") for text in texts], KEYWORDS)
    assert page_facts.script_language(page) == "zh"


def test_range_counts_refuses_bad_ranges(built: None) -> None:
    for groups in (((1, 2),), (((2, 1),),), ((("a", "b"),),), (((1, 5),), ((5, 9),))):
        with pytest.raises((TypeError, ValueError)):
            native.blockscan.range_counts("text", groups)
    assert native.blockscan.range_counts("", (((0x61, 0x7A),),)) == (0,)
    assert native.blockscan.range_counts(
        "ab\U0010ffff", (((0x61, 0x61),), ((0x10FFFF, 0x10FFFF),))
    ) == (1, 1)


def test_the_passes_agree_on_the_dataset_pages(shared_dir: Path) -> None:
    for name in NAMED_DATASETS:
        dataset = load_dataset(name, shared_dir=shared_dir)
        for text in decode_pages(dataset):
            page_lines = blocks.page_lines(text)
            boxes = lines.other_content_boxes(page_lines)
            assert_passes_agree(page_lines, boxes)
            visible = lines.visible_lines(page_lines, boxes)
            assert_having_finds_each_lines_matches([line.text for line in visible])
            assert_byline_passes_agree(page_lines)


def test_visible_lines_from_c_are_left_out_of_the_garbage_collector() -> None:
    """As the scan's lines (test_blockscan): strings and flags only. A class of the caller's
    that could hold more (an instance ``__dict__``) keeps its lines tracked."""
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    page = blocks.page_lines("<h1>Title</h1><p>Hello, <a href=x>world</a>.</p>")
    visible = lines.visible_lines(page, set())
    assert len(visible) == 2
    assert not any(gc.is_tracked(line) for line in visible)

    class Loose(tuple):  # a __dict__ on purpose
        pass

    loose = native.blockscan.visible_lines(
        page.lines, set(), lines.HEADING_TAGS, lines.MAX_LINE_CHARS, Loose
    )
    assert [tuple(line) for line in loose] == [tuple(line) for line in visible]
    assert all(gc.is_tracked(line) for line in loose)
