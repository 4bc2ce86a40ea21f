"""The text scans of the metadata rules: ``_textscan.c`` against the Python reference.

`PageText.having` must give the same lines whichever search found the candidates: the
C one by needles (``_textscan.c``) or the Python one by patterns. That holds when every
line a keyword's pattern matches holds one of its needles (folded), which is tested here
on generated text, and the two are compared on the dataset pages' visible lines. The
letters per script (`page_facts.script_letters`) are compared on generated text, and the
chars per box (`_textscan.box_chars`), the visible lines (`_textscan.visible_lines`) and
the head's start tags (`_textscan.tag_starts`) on the dataset pages and generated input.
Under CI (CI=true) a missing extension fails these tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import blocks, head
from newscrawl.extract.blocks import Line
from newscrawl.extract.metadata import KEYWORDS, lines, page_facts
from newscrawl.extract.metadata.lines import PageText

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
the keyword patterns, in any order; and lines holding a match of a keyword pattern."""


@pytest.fixture(scope="module", autouse=True)
def native() -> None:
    if lines._textscan is None:
        skip_or_fail("the _textscan C extension is not built")


def fold(text: str) -> str:
    """The folding `_textscan.c` applies: ASCII capitals to lower case, "ſ" to "s"."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else "s" if c == "ſ" else c for c in text)


def having_both_ways(texts: list[str]) -> Iterator[tuple[list[str], list[str]]]:
    """`PageText.having` of every keyword with the native search, then with Python's."""
    visible = [lines.VisibleLine(text, False, "p") for text in texts]
    native_page = PageText.of(visible, KEYWORDS)
    python_page = PageText.of(visible, KEYWORDS)
    hits = lines._line_hits_python(python_page.texts, python_page.joined, KEYWORDS)
    python_page._hits.update(zip(KEYWORDS, hits, strict=True))
    for keyword in KEYWORDS:
        yield native_page.having(keyword, 1), python_page.having(keyword, 1)


@NATIVE_SETTINGS
@given(LINE)
def test_every_line_a_pattern_matches_holds_a_needle(line: str) -> None:
    for keyword in KEYWORDS:
        if keyword.pattern.search(line):
            assert any(needle in fold(line) for needle in keyword.needles), keyword


@NATIVE_SETTINGS
@given(st.lists(LINE, max_size=12))
def test_native_and_python_search_find_the_same_lines(texts: list[str]) -> None:
    for native_found, python_found in having_both_ways(texts):
        assert native_found == python_found


def test_native_and_python_search_agree_on_the_dataset_pages(shared_dir: object) -> None:
    for name in NAMED_DATASETS:
        dataset = load_dataset(name)
        for page, text in zip(dataset.pages, decode_pages(dataset), strict=True):
            page_lines = blocks.page_lines(text)
            boxes = lines.other_content_boxes(page_lines)
            visible = [line.text for line in lines.visible_lines(page_lines, boxes)]
            for native_found, python_found in having_both_ways(visible):
                assert native_found == python_found, page.id
            expected_tags = head._tag_starts_python(text, head._HEAD_TAGS)
            assert lines._textscan.tag_starts(text, head._HEAD_TAGS) == expected_tags, page.id
            assert lines.visible_lines(page_lines, boxes) == lines._visible_lines_python(
                page_lines, boxes
            )
            expected = lines._box_chars_python(page_lines.lines, lines.OTHER_CONTENT_WORDS)
            assert (
                lines._textscan.box_chars(page_lines.lines, lines.OTHER_CONTENT_WORDS) == expected
            )


def test_line_hits_folds_case_and_long_s_and_counts_each_line_once() -> None:
    text = "POSTED by me\n来源：新华社 来源\nſource\n\nno match\n\U0001f600来源"
    assert lines._textscan.line_hits(text, (("posted",), ("来源", "source"), ("xyz",))) == (
        [0],
        [1, 2, 5],
        [],
    )


def test_line_hits_refuses_bad_needles() -> None:
    with pytest.raises(TypeError):
        lines._textscan.line_hits("text", (("",),))
    with pytest.raises(TypeError):
        lines._textscan.line_hits("text", ("not a tuple",))


@NATIVE_SETTINGS
@given(st.text(st.sampled_from("aZkあアヿ가힣㐀一鿿豈﫿\U00020000 1。é")))
def test_script_letters_native_and_python_count_the_same(text: str) -> None:
    assert page_facts.script_letters(text) == page_facts._script_letters_python(text)


@NATIVE_SETTINGS
@given(
    st.lists(
        st.tuples(st.integers(0, 500), st.sampled_from([None, "comment", "related", "nav"])),
        max_size=30,
    )
)
def test_box_chars_native_and_python_sum_the_same(rows: list[tuple[int, str | None]]) -> None:
    page = [
        Line("x", "p", 1, chars, 0, 0, noise, index % 4 if noise else 0)
        for index, (chars, noise) in enumerate(rows)
    ]
    words = frozenset({"comment", "related"})
    assert lines._textscan.box_chars(page, words) == lines._box_chars_python(page, words)


def test_box_chars_refuses_what_is_not_a_line() -> None:
    with pytest.raises(TypeError):
        lines._textscan.box_chars([("too", "short")], frozenset())
    with pytest.raises(TypeError):
        lines._textscan.box_chars([], ["not", "a", "set"])


@NATIVE_SETTINGS
@given(
    st.lists(
        st.sampled_from(["<meta", "<META", "<Script", "<link", "<linkx", "<", ">", " ", "/",
                         "\u3000", "'", "x=1", "</script>", "ſ", "\U0001f600"])
    ).map("".join)
)  # fmt: skip
def test_tag_starts_native_and_python_find_the_same_tags(text: str) -> None:
    expected = head._tag_starts_python(text, head._HEAD_TAGS)
    assert lines._textscan.tag_starts(text, head._HEAD_TAGS) == expected


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("<META a><meta/><Link\u3000rel=x>", [("meta", 0, 7), ("meta", 8, 14), ("link", 15, 26)]),
        ("<metadata><scripts><meta", []),  # other names, and nothing after the name
        ("<meta content='<link rel=canonical>'><link>", [("meta", 0, 34), ("link", 37, 42)]),
        ("<meta x" + "<meta " * 3, [("meta", 0, 25)]),  # unclosed: the rest is its attributes
    ],
)  # fmt: skip
def test_tag_starts_reads_start_tags_as_html_does(
    text: str, tags: list[tuple[str, int, int]]
) -> None:
    assert lines._textscan.tag_starts(text, head._HEAD_TAGS) == tags
    assert head._tag_starts_python(text, head._HEAD_TAGS) == tags


@NATIVE_SETTINGS
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["来源：新华社", "\n", "x" * 700, " ", ""]), max_size=5).map(
                "".join
            ),
            st.sampled_from(["p", "h1", "h3", "td"]),
            st.integers(0, 3),
        ),
        max_size=12,
    ),
    st.sets(st.integers(0, 3)),
)
def test_visible_lines_native_and_python_split_and_cut_alike(
    rows: list[tuple[str, str, int]], other_content: set[int]
) -> None:
    page = blocks.PageLines(
        [Line(text, tag, 1, len(text), 0, 0, None, box) for text, tag, box in rows],
        {1: 0},
        [],
        ["", "div"],
        {},
    )
    native = lines.visible_lines(page, other_content)
    assert native == lines._visible_lines_python(page, other_content)
    assert all(
        type(line) is lines.VisibleLine and len(line.text) <= lines.MAX_LINE_CHARS
        for line in native
    )
