"""The head's tag search (`PageHead._head_tags`): the C one (``_blockscan.start_tags``)
against its Python reference, on generated markup and on every dataset page. Under CI
(CI=true) a missing extension fails these tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import NATIVE_SETTINGS, skip_or_fail
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
from newscrawl.evaluation.runner import decode_pages
from newscrawl.extract import head, native

PIECES = st.sampled_from(
    ["<", ">", "meta", "META", "Meta", "script", "SCRIPT", "link", "lInK", "scrip", "lin", "met",
     " ", "\n", "-", ":", "x", "1", "=", '"', "'", "/", "é", "中", "😀", "\u212a", "İ", "ſ"]
)  # fmt: skip
"""The names in several cases and cut short, what may and may not follow a name, quotes,
and characters of every string width (K as the Kelvin sign and dotted I fold to ASCII
letters in Unicode, never in a tag name)."""


@pytest.fixture
def start_tags() -> object:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    return native.blockscan.start_tags


def c_tags(page: str) -> list[tuple[str, int, int]]:
    found: list[tuple[str, int, int]] = native.blockscan.start_tags(page, head.HEAD_TAG_NAMES)
    return found


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ('<META charset="x"><p>', [("meta", 0, 17)]),
        ("<metax><meta-a><meta:b><meta\n>", [("meta", 23, 29)]),
        ("<Script>x</script>", [("script", 0, 7)]),
        ('<meta content="<link>"><link>', [("meta", 0, 20), ("link", 23, 28)]),
        ("<link", [("link", 0, 5)]),
        ("<<meta", [("meta", 1, 6)]),
        ("<li\u212ak><scr\u0130pt>", []),
    ],
)
def test_start_tags_found_as_the_reference_finds_them(
    start_tags: object, page: str, expected: list[tuple[str, int, int]]
) -> None:
    assert head._head_tags_python(page) == expected
    assert c_tags(page) == expected


@NATIVE_SETTINGS
@given(st.lists(PIECES, max_size=40).map("".join))
def test_the_same_tags_on_generated_markup(page: str) -> None:
    if native.blockscan is None:
        skip_or_fail("the _blockscan C extension is not built")
    assert c_tags(page) == head._head_tags_python(page)


@pytest.mark.parametrize("name", NAMED_DATASETS)
def test_the_same_tags_on_every_dataset_page(
    start_tags: object, shared_dir: Path, name: str
) -> None:
    for page in decode_pages(load_dataset(name, shared_dir=shared_dir)):
        assert c_tags(page) == head._head_tags_python(page)


def test_names_must_be_ascii_strings(start_tags: object) -> None:
    with pytest.raises(TypeError):
        native.blockscan.start_tags("<meta>", ("mé",))
    with pytest.raises(TypeError):
        native.blockscan.start_tags("<meta>", ("",))
    with pytest.raises(TypeError):
        native.blockscan.start_tags(b"<meta>", ("meta",))
