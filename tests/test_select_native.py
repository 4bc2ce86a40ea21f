"""The default method's per-line loops in C (``_select.c``) against the Python reference.

`default._score_lines_native` must return exactly what `default._score_lines_python`
returns (the rule dropping each line, each score, the headline's index) on the dataset
pages, with and without a description, and on generated lines built to hit every rule:
boilerplate elements, credit lines, link lines, quoted lines, the headline. The best
region (`_select.best_region`) must be `default._best_region_python`'s on the same pages
and on generated scores, and so must the element-tree loops (`boilerplate_elements`,
`subtree_scores`, `inside_elements`) be their Python references' on the same pages and on
generated trees. Under CI (CI=true) a missing extension fails these tests.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import blocks, default, head, pagemeta
from newscrawl.extract.blocks import Line
from newscrawl.extract.model import Options

OPTIONS = Options()
WORDS = st.sampled_from(
    ["责任编辑：", "来源:", "版权所有", "Copyright 2024", "all rights reserved", "RIGHT",
     "正文内容。", "链接", "标题", " ", "\u3000", "\n", "a", "权", "，"]
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def native() -> None:
    if default._select is None:
        skip_or_fail("the _select C extension is not built")


def assert_same(
    lines: list[Line], noisy: set[int], title: str, description: str, options: Options = OPTIONS
) -> None:
    plain_title = "".join(title.split())
    expected = default._score_lines_python(lines, noisy, options, plain_title, description)
    assert default._score_lines_native(lines, noisy, options, plain_title, description) == expected


def test_dataset_pages_score_alike(shared_dir: object) -> None:
    for name in NAMED_DATASETS:
        dataset = load_dataset(name)
        for text in decode_pages(dataset):
            page = blocks.page_lines(text)
            meta = pagemeta.page_meta(head.PageHead(text))
            noisy = default.boilerplate_elements(page, OPTIONS)
            headings = [line.text for line in page.lines if line.tag == "h1"]
            title = headings[0] if headings else meta.og_title
            assert_same(page.lines, noisy, title, meta.description)
            assert_same(page.lines, noisy, title, "")
            plain_title = "".join(title.split())
            _, scores, headline = default._score_lines(
                page.lines, noisy, OPTIONS, plain_title, meta.description
            )
            chosen = default.main_elements(page.lines, scores, page.parents, headline, OPTIONS)
            inside = default._inside_elements(chosen, page.parents)
            assert_same_region(page.lines, scores, inside)
            assert_same_tree(page, scores, chosen)


def assert_same_tree(page: blocks.PageLines, scores: list[int], chosen: set[int]) -> None:
    python = default._boilerplate_elements_python(page, OPTIONS)
    assert default.boilerplate_elements(page, OPTIONS) == python
    expected = default.subtree_scores(page.lines, scores, page.parents)
    assert default._select.subtree_scores(page.lines, scores, page.parents) == expected
    inside = default._inside_elements_python(chosen, page.parents)
    assert default._select.inside_elements(chosen, page.parents) == inside


def assert_same_region(lines: list[Line], scores: list[int], inside: list[bool]) -> None:
    expected = default._best_region_python(lines, scores, inside)
    assert default._select.best_region(lines, scores, inside) == expected


@st.composite
def lines_and_context(draw: st.DrawFn) -> tuple[list[Line], set[int], str, str]:
    texts = draw(st.lists(st.lists(WORDS, max_size=6).map("".join), max_size=12))
    lines = []
    for element, text in enumerate(texts, start=1):
        chars = len("".join(text.split()))
        link_chars = draw(st.integers(0, chars))
        noise_element = draw(st.sampled_from([0, element, 99]))
        noise = draw(st.sampled_from(["comment", "footer"])) if noise_element else None
        punctuation = draw(st.integers(0, 5))
        lines.append(Line(text, "p", element, chars, link_chars, punctuation, noise, noise_element))
    noisy = draw(st.sets(st.sampled_from([1, 2, 3, 99])))
    title = draw(st.sampled_from(["", *texts[:2]]))
    description = draw(st.sampled_from(["", "".join(texts[:3]), "正文内容。链接"]))
    return lines, noisy, title, description


@NATIVE_SETTINGS
@given(lines_and_context())
def test_generated_lines_score_alike(case: tuple[list[Line], set[int], str, str]) -> None:
    assert_same(*case)


@NATIVE_SETTINGS
@given(st.lists(st.tuples(st.integers(-300, 300), st.integers(0, 80), st.booleans()), max_size=40))
def test_generated_scores_give_the_same_region(rows: list[tuple[int, int, bool]]) -> None:
    lines = [
        Line("x", "p", index, chars, 0, 0, None, 0) for index, (_, chars, _) in enumerate(rows)
    ]
    scores = [score for score, _, _ in rows]
    assert_same_region(lines, scores, [inside for _, _, inside in rows])


@st.composite
def trees(draw: st.DrawFn) -> tuple[blocks.PageLines, list[int], set[int]]:
    """A random element tree (each parent an earlier element or the page), lines hanging in
    it with random features and noise boxes, scores, and a chosen set (the page, ids out of
    the tree and bools included)."""
    size = draw(st.integers(0, 12))
    parents = {element: draw(st.integers(0, element - 1)) for element in range(1, size + 1)}
    ids = st.integers(0, size)
    lines = []
    for _ in range(draw(st.integers(0, 15))):
        chars = draw(st.integers(0, 60))
        lines.append(
            Line("x", "p", draw(ids), chars, draw(st.integers(0, chars)),
                 draw(st.integers(0, 3)), "comment", draw(ids))
        )  # fmt: skip
    scores = draw(st.lists(st.integers(-50, 80), min_size=len(lines), max_size=len(lines)))
    chosen = draw(st.sets(st.one_of(ids, st.integers(-2, 30), st.just(True))))
    return blocks.PageLines(lines, parents, []), scores, chosen


@NATIVE_SETTINGS
@given(trees())
def test_generated_trees_give_the_same_elements(
    case: tuple[blocks.PageLines, list[int], set[int]],
) -> None:
    assert_same_tree(*case)


def test_element_trees_with_gaps_are_refused() -> None:
    lines = [Line("x", "p", 1, 5, 0, 1, None, 0)]
    with pytest.raises(IndexError, match="from 1 to len"):
        default._select.subtree_scores(lines, [5], {1: 0, 3: 1})
    with pytest.raises(IndexError, match="from 1 to len"):
        default._select.inside_elements({1}, {1: 7})


def test_best_region_refuses_a_line_outside_the_elements() -> None:
    with pytest.raises(IndexError):
        default._select.best_region([Line("x", "p", 5, 1, 0, 0, None, 0)], [1], [True])


def test_options_that_are_not_ints_select_with_the_python_loops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = blocks.page_lines(
        "<div id=a><p>" + "正文内容，第一段的句子。" * 8 + "</p><p>"
        + "正文内容，第二段的句子。" * 8 + "</p></div><div class=footer><a href=/>首页</a></div>"
    )  # fmt: skip
    halves = replace(OPTIONS, line_cost=2.5)  # type: ignore[arg-type]
    selected = [line.text for line in default.select(page, "", halves).kept]
    monkeypatch.setattr(default, "_select", None)
    assert selected == [line.text for line in default.select(page, "", halves).kept]
    assert len(selected) == 2


def test_options_that_are_not_ints_run_the_python_loop() -> None:
    lines = [Line("正文内容。" * 10, "p", 1, 50, 0, 10, None, 0)]
    halves = replace(OPTIONS, line_cost=2.5)  # type: ignore[arg-type]
    assert_same(lines, set(), "", "", halves)
    assert default._score_lines_native(lines, set(), halves, "", "")[1] == [pytest.approx(97.5)]
