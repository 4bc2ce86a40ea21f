"""The regex builders of the metadata rules match what the patterns they replace matched."""

from __future__ import annotations

import itertools
import re

import pytest

from newscrawl.extract.metadata.patterns import any_case, one_of


@pytest.mark.parametrize("word", ["by", "source", "posted"])
def test_any_case_matches_the_word_as_ignorecase_does(word: str) -> None:
    pattern = re.compile(one_of(any_case(word)))
    reference = re.compile(re.escape(word), re.I)
    cases = ("".join(letters) for letters in itertools.product(*({c, c.upper()} for c in word)))
    for text in [*cases, word.replace("s", "ſ"), word[:-1], word[:-1] + "x", "x" + word[1:]]:
        assert bool(pattern.fullmatch(text)) == bool(reference.fullmatch(text)), text


def test_any_case_word_start_refuses_a_word_inside_another() -> None:
    pattern = re.compile(one_of(any_case("by", word_start=True)) + r"\s")
    assert pattern.search("written By 张三")
    assert pattern.search("by 张三")
    assert not pattern.search("baby 张三")
    assert not pattern.search("standby 张三")


def test_one_of_repeats_what_follows_in_every_alternative() -> None:
    pattern = re.compile(one_of(["作者", "记者"], r"\s*[:：]") + "(?P<name>.+)")
    assert pattern.search("本报记者： 张三")["name"] == " 张三"
    assert pattern.search("作者:李四")["name"] == "李四"
    assert pattern.search("记者张三") is None
