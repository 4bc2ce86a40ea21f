"""The default selection's passes in C (``_blockscan.c``) against their Python references.

Each pass of `default` over every line or element that runs in C where the extension is
built (`default._region_over`, `default.subtree_ends`, `default.subtree_scores`,
`default._element_drops`, `default._prose_boxes`, `default._line_chars`,
`default._lines_of_chars`, `default._above`) must return exactly what its ``_python``
reference returns: on hand-written edge cases, on generated pages of lines, on pages the
scan makes of broken HTML, and on every page of the dev sets; and `default.select` must
decide every line the same with the extension and without it. Under CI (CI=true) a missing
extension fails these tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import api, blocks, default, head, native
from newscrawl.extract.blocks import Line, PageLines
from newscrawl.extract.model import Options

OPTIONS = Options(with_metadata=False)


@pytest.fixture(scope="module")
def c() -> object:
    """The extension, or a skip (a failure under CI)."""
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    return native.blockscan


def line(
    element: int = 1,
    chars: int = 10,
    link_chars: int = 0,
    punctuation: int = 0,
    noise: str | None = None,
    noise_element: int = 0,
) -> Line:
    return Line("text", "p", element, chars, link_chars, punctuation, noise, noise_element)


def assert_passes_agree(
    lines: list[Line],
    parents: dict[int, int],
    scores: list[int],
    inside: list[bool],
    noisy: set[int],
    options: Options = OPTIONS,
) -> None:
    """Every pass, C and Python, on one page's lines, element tree, scores, article flags
    and boilerplate elements."""
    blockscan = native.blockscan
    assert blockscan is not None
    floor = -options.inside_line_cost
    region = default._region_over_python(lines, scores, inside, floor)
    assert blockscan.region_over(lines, scores, inside, floor) == region
    assert default._region_over(lines, scores, inside, options) == region
    assert blockscan.subtree_ends(parents) == default._subtree_ends_python(parents)
    mass = default._subtree_scores_python(lines, scores, parents)
    assert blockscan.subtree_scores(lines, scores, parents) == mass
    drops = default._element_drops_python(lines, noisy)
    assert blockscan.element_drops(lines, noisy, default.ELEMENT_RULE) == drops
    boxes = default._prose_boxes_python(lines, options)
    assert (
        blockscan.prose_boxes(
            lines, options.max_link_share, options.prose_link_chars, default.SEPARATOR_SHARE
        )
        == boxes
    )
    assert blockscan.line_chars(lines) == default._line_chars_python(lines)
    for near in (range(0), range(1, 1 + options.headline_window), range(0, len(lines) + 2)):
        for in_landmark in (None, [element % 2 == 0 for element in range(len(parents) + 1)]):
            arguments = (lines, scores, parents, options.paragraph_score, 0, near.start, near.stop)
            rest = (in_landmark, options.landmark_weight)
            votes = default._paragraph_votes_python(*arguments, *rest)
            assert blockscan.paragraph_votes(*arguments, *rest) == votes
            assert list(blockscan.paragraph_votes(*arguments, *rest)) == list(votes)
    dropped = drops[0]
    for paragraph in (0, options.paragraph_score):
        evidence = default._page_evidence_python(lines, scores, dropped, parents, paragraph)
        assert blockscan.page_evidence(lines, scores, dropped, parents, paragraph) == evidence
    for chars in {0, 10, *(line.chars for line in lines[:3])}:
        expected = default._lines_of_chars_python(lines, chars)
        assert blockscan.lines_of_chars(lines, chars) == expected
    for threshold in {0, -1, options.paragraph_score, *scores[:2]}:
        expected_over = list(default._above_python(scores, threshold))
        assert blockscan.indices_over(scores, threshold) == expected_over


# ---------------------------------------------------------------- hand-written cases


def test_indices_over_reads_ints_of_any_size(c: object) -> None:
    values = [2**70, -(2**70), 5, 0, True]
    assert native.blockscan.indices_over(values, 0) == list(default._above_python(values, 0))
    assert native.blockscan.indices_over((), 0) == []


def test_an_empty_page(c: object) -> None:
    assert_passes_agree([], {}, [], [False], set())
    assert default._region_over([], [], [True], OPTIONS) is None
    assert default.subtree_ends({}) == [0]
    assert default.subtree_scores([], [], {}) == [0]


@pytest.mark.parametrize(
    ("scores", "inside", "region"),
    [
        ([-5, -1, -3], [True, True], None),  # all negative: no region
        ([0, 0, 0], [True, True], None),  # nothing over 0
        ([5, -5, 5], [True, True], (0, 0)),  # a tie: the first run
        ([5, -4, 5], [True, True], (0, 2)),  # joined over the dip
        ([3, -3, 4], [True, True], (2, 2)),  # the run restarts after a sum of 0
        ([500, -900, 600], [True, True], (0, 2)),  # the floor (-100) caps the dip
        ([500, 100, 600], [False, True], (1, 1)),  # outside: minus its chars
    ],
)
def test_regions(c: object, scores: list[int], inside: list[bool], region: object) -> None:
    lines = [line(element) for element in ([1, 1, 1] if inside[0] else [0, 1, 0])]
    assert default._region_over_python(lines, scores, inside, -100) == region
    assert_passes_agree(lines, {1: 0}, scores, inside, set())


def test_nested_elements_and_their_subtrees(c: object) -> None:
    # 1 holds 2 (which holds 3) and 4; 5 is top-level; ids in document order
    parents = {1: 0, 2: 1, 3: 2, 4: 1, 5: 0}
    lines = [line(3, 80, punctuation=2), line(4, 60, punctuation=1), line(5, 5), line(0, 7)]
    scores = [70, 45, -5, -7]
    assert default._subtree_ends_python(parents) == [5, 4, 3, 3, 4, 5]
    assert default._subtree_scores_python(lines, scores, parents) == [115, 115, 70, 70, 45, 0]
    inside = [False, True, True, True, True, False]
    assert_passes_agree(lines, parents, scores, inside, {5})


def test_boxes_of_prose_and_links(c: object) -> None:
    lines = [
        line(1, 300, punctuation=3),  # unboxed prose before every box
        line(2, 40, 30, 1, "share", 2),  # a link line: no prose
        line(2, 40, 30, 0, "share", 2),
        line(3, 60, 40, 2, "comment", 3),  # over the link share, but a sentence of its own
        line(1, 50, 0, 1),
        line(3, 20, 0, 1, "comment", 3),  # its box again, after other lines
        line(2, 0, 0, 0, "share", 2),
    ]
    first_line, prose_before, boxed = default._prose_boxes_python(lines, OPTIONS)
    assert first_line == {2: lines[1], 3: lines[3]}
    assert prose_before == {2: 300, 3: 300}
    assert boxed == {0: 350, 3: 80}
    drops = default._element_drops_python(lines, {3})
    assert drops[0][3] == drops[0][5] == "boilerplate element: comment"
    assert drops[2] == [0, 1, 2, 4, 6]
    assert_passes_agree(lines, {1: 0, 2: 0, 3: 0}, [1] * 7, [True] * 4, {2, 3})


def test_pages_of_broken_html(c: object) -> None:
    """Unclosed elements, stray end tags and deep nesting, as the scan leaves them."""
    for html in (
        "<div><p>One sentence, and more. <div><p>Unclosed, too.<p>Again.",
        "</div></p>Text before any tag.<div class=nav><a href=/>Home</a>",
        "<ul>" + "<li><div class=menu><a href=/x>Link</a>" * 300,
        "<div>" * 2000 + "Deep, deep text." + "</span>" * 50,
        "<article><h1>Title</h1><p>Body text, long enough to count. " * 50,
    ):
        page = blocks.page_lines(html)
        lines = page.lines
        scores = [line.chars * (-1) ** index for index, line in enumerate(lines)]
        inside = [bool(element % 2) for element in range(len(page.parents) + 1)]
        noisy = {line.noise_element for line in lines if line.noise_element}
        assert_passes_agree(lines, page.parents, scores, inside, noisy)


def test_huge_ids_and_ints(c: object) -> None:
    lines = [line(1, 2**40, 0, 1), line(1, 2**40, 2**39, 1, "ad", 2**62)]
    assert_passes_agree(lines, {1: 0}, [2**50, -(2**50)], [True, True], {2**62})


def test_box_ids_over_64_bits(c: object) -> None:
    """A noise element id that fits no C integer is looked up as the int it is."""
    blockscan = native.blockscan
    assert blockscan is not None
    huge, other = 2**70, 2**70 + 1
    lines = [
        line(1, 30, 0, 1, "ad", huge),
        line(1, 40, 0, 2, "ad", huge),
        line(1, 50, 0, 1, "nav", other),
        line(1, 60, 0, 1),
        line(1, 70, 0, 1, "ad", huge),
    ]
    drops = default._element_drops_python(lines, {huge})
    assert blockscan.element_drops(lines, {huge}, default.ELEMENT_RULE) == drops
    boxes = default._prose_boxes_python(lines, OPTIONS)
    assert boxes[2] == {huge: 140, other: 50, 0: 60}
    assert (
        blockscan.prose_boxes(
            lines, OPTIONS.max_link_share, OPTIONS.prose_link_chars, default.SEPARATOR_SHARE
        )
        == boxes
    )


def test_tens_of_thousands_of_lines(c: object) -> None:
    count = 30_000
    parents = {element: element - 1 for element in range(1, count + 1)}
    lines = [line(index + 1, index % 97, index % 13, index % 3) for index in range(count)]
    scores = [(index % 7) - 3 for index in range(count)]
    assert_passes_agree(lines, parents, scores, [True] * (count + 1), {5, 7})


def test_bad_input_is_a_type_error_not_a_crash(c: object) -> None:
    blockscan = native.blockscan
    assert blockscan is not None
    good = [line()]
    for call in (
        lambda: blockscan.region_over([("short",)], [1], [True, True], 0),
        lambda: blockscan.region_over(good, ["1"], [True, True], 0),
        lambda: blockscan.region_over(good, [1], [1, 1], 0),
        lambda: blockscan.region_over(iter(good), [1], [True, True], 0),
        lambda: blockscan.subtree_ends([0, 0]),
        lambda: blockscan.subtree_ends({"1": 0}),
        lambda: blockscan.subtree_scores(good, [1.5], {1: 0}),
        lambda: blockscan.element_drops(good, [1], ""),
        lambda: blockscan.element_drops([line()._replace(chars=None)], set(), ""),
        lambda: blockscan.prose_boxes([None], 0.5, 20, 0.5),
        lambda: blockscan.prose_boxes(good, 0.5, 20),
        lambda: blockscan.line_chars("text"),
        lambda: blockscan.lines_of_chars([line()._replace(chars="10")], 10),
        lambda: blockscan.indices_over([1, "2"], 0),
        lambda: blockscan.indices_over({1, 2}, 0),
        lambda: blockscan.paragraph_votes(good, [100], [(1, 0)], 50, 0, 0, 0, None, 2),
        lambda: blockscan.paragraph_votes(good, ["100"], {1: 0}, 50, 0, 0, 0, None, 2),
        lambda: blockscan.paragraph_votes(good, [100], {1: 0}, 50, 0, 0, 0, 5, 2),
        lambda: blockscan.page_evidence(good, [1], [None], [(1, 0)], 0),
        lambda: blockscan.page_evidence(good, [1.5], [None], {1: 0}, 0),
        lambda: blockscan.page_evidence([None], [1], [None], {1: 0}, 0),
    ):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(ValueError):
        blockscan.region_over(good, [], [True, True], 0)
    with pytest.raises(IndexError):
        blockscan.region_over([line(element=5)], [1], [True, True], 0)
    with pytest.raises(IndexError):
        blockscan.subtree_scores([line(element=9)], [1], {1: 0})
    with pytest.raises(KeyError):
        blockscan.subtree_ends({2: 0, 3: 1})
    with pytest.raises(IndexError):
        blockscan.subtree_ends({1: 7})
    with pytest.raises(OverflowError):
        blockscan.line_chars([line(chars=2**62), line(chars=2**62)])
    with pytest.raises(ValueError):
        blockscan.page_evidence(good, [1, 2], [None], {1: 0}, 0)
    with pytest.raises(ValueError):
        blockscan.paragraph_votes(good, [], {1: 0}, 50, 0, 0, 0, None, 2)
    with pytest.raises(ValueError):
        blockscan.paragraph_votes(good, [100], {1: 0}, 50, 0, 0, 0, None, -1)
    with pytest.raises(IndexError):
        blockscan.paragraph_votes([line(element=4)], [100], {4: 0}, 50, 0, 0, 0, [True], 2)
    with pytest.raises(OverflowError):
        blockscan.paragraph_votes(good, [2**62], {1: 0}, 50, 0, 0, 1, None, 2)
    with pytest.raises(OverflowError):
        blockscan.page_evidence(good * 2, [2**62, 2**62], [None, None], {1: 0}, 0)


def test_lines_changed_by_a_lookup_under_the_loop(c: object) -> None:
    """A set or dict lookup may run Python code (an int subclass's ``__eq__``) that empties
    the list of lines: C reads a copy, and finishes without a crash."""
    blockscan = native.blockscan
    assert blockscan is not None
    lines = [line(noise="ad", noise_element=5) for _ in range(1000)]

    class Clearing(int):
        __hash__ = int.__hash__

        def __eq__(self, other: object) -> bool:
            lines.clear()
            return int.__eq__(self, other)

    dropped, scores, candidates = blockscan.element_drops(lines, {Clearing(5)}, "rule: ")
    assert (len(dropped), len(scores), candidates) == (1000, 1000, [])
    assert lines == []


def test_parents_emptied_by_a_lookup_under_the_loop(c: object) -> None:
    """A set or dict of parents may run Python code (an int subclass's ``__eq__``) that
    empties the element tree: C holds each parent it uses, and counts what it read."""
    blockscan = native.blockscan
    assert blockscan is not None
    parents: dict[int, int] = {}

    class Clearing(int):
        __hash__ = int.__hash__

        def __eq__(self, other: object) -> bool:
            parents.clear()
            return int.__eq__(self, other)

    lines = [line(element=element % 5 + 1) for element in range(20)]
    parents.update({element: Clearing(7) for element in range(1, 6)})
    evidence = blockscan.page_evidence(lines, [100] * 20, [None] * 20, parents, 50)
    assert evidence == (2000, 200, 2)  # parent 7, then 0 for the lines read after the clear
    assert parents == {}
    parents.update({element: Clearing(7) for element in range(1, 6)})
    votes = blockscan.paragraph_votes(lines, [100] * 20, parents, 50, 0, 0, 0, None, 2)
    assert parents == {} and set(votes) <= {0, 7} and sum(votes.values()) == 20 * 300


# ---------------------------------------------------------------- generated pages


@st.composite
def generated_pages(draw: st.DrawFn) -> tuple[list[Line], dict[int, int], list[int], set[int]]:
    """Lines in a random element tree (each parent before its child), some in noise
    boxes that come and go, with random scores and boilerplate elements."""
    count = draw(st.integers(0, 12))
    parents = {element: draw(st.integers(0, element - 1)) for element in range(1, count + 1)}
    small = st.integers(0, 60)
    rows = draw(
        st.lists(
            st.tuples(
                st.integers(0, count), small, small, st.integers(0, 3), st.integers(0, count)
            ),
            max_size=40,
        )
    )
    lines = [
        Line("t", "p", element, chars, min(links, chars), marks, "ad" if box else None, box)
        for element, chars, links, marks, box in rows
    ]
    scores = draw(st.lists(st.integers(-200, 200), min_size=len(lines), max_size=len(lines)))
    noisy = draw(st.sets(st.integers(1, max(count, 1))))
    return lines, parents, scores, noisy


@NATIVE_SETTINGS
@given(generated_pages(), st.data())
def test_passes_agree_on_generated_pages(
    c: object,
    generated: tuple[list[Line], dict[int, int], list[int], set[int]],
    data: st.DataObject,
) -> None:
    lines, parents, scores, noisy = generated
    size = len(parents) + 1
    inside = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    options = Options(
        with_metadata=False,
        max_link_share=data.draw(st.sampled_from((0.0, 0.3, 0.5, 1.0))),
        prose_link_chars=data.draw(st.integers(0, 40)),
        inside_line_cost=data.draw(st.integers(0, 150)),
    )
    separator_share = data.draw(st.sampled_from((0.0, 0.25, 0.5, 1.0)))
    with mock.patch.object(default, "SEPARATOR_SHARE", separator_share):
        assert_passes_agree(lines, parents, scores, inside, noisy, options)


# ---------------------------------------------------------------- the dev sets


def dataset_pages(shared_dir: Path, name: str) -> Iterator[tuple[PageLines, head.PageHead]]:
    for text in decode_pages(load_dataset(name, shared_dir=shared_dir)):
        yield blocks.page_lines(text), head.PageHead(text)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMED_DATASETS)
def test_the_same_passes_and_selection_on_every_dataset_page(
    c: object, shared_dir: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each pass on the inputs `select` gives it, then the whole selection and body, with
    the extension and without it; and the kept lines, built apart, are those the whole line
    table keeps."""
    for page, page_head in dataset_pages(shared_dir, name):
        title, selection, body = api.default_body(page, page_head, OPTIONS, None)
        assert selection.kept == tuple(decision for decision in selection.lines if decision.kept)
        lines = page.lines
        plain_title = "".join(title.split())
        headline = default._headline_index(lines, plain_title)
        marks = default.landmarks(page)
        noisy = default.boilerplate_elements(page, OPTIONS, marks, headline)
        described = default._quoted_by("")
        _dropped, scores = default._score_lines(lines, noisy, OPTIONS, described)
        ends = default.subtree_ends(page.parents)
        _container, chosen = default.main_elements(
            page, ends, scores, headline, marks, OPTIONS, described
        )
        inside = default._inside_elements(chosen, ends)
        assert_passes_agree(lines, page.parents, scores, inside, noisy)
        with monkeypatch.context() as patched:
            patched.setattr(native, "blockscan", None)
            assert api.default_body(page, page_head, OPTIONS, None) == (title, selection, body)
