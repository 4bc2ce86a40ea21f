"""Words across scripts: what the scorer counts and the confidence calls a short body."""

from __future__ import annotations

from newscrawl.evaluation.scoring import tokenize
from newscrawl.extract.confidence import SHORT_BODY_WORDS, short_body_words
from newscrawl.extract.words import words, words_up_to


def test_a_cjk_character_is_a_word_and_so_is_any_other_run_of_word_characters() -> None:
    text = "北京 news, 2024年5月: Ça va? 서울"
    assert words(text) == ["北", "京", "news", "2024", "年", "5", "月", "Ça", "va", "서", "울"]
    assert tokenize(text) == words(text)


def test_counting_stops_at_the_limit() -> None:
    assert words_up_to("one two three four", 2) == 2
    assert words_up_to("one two", 5) == 2
    assert words_up_to("", 5) == 0


def test_a_short_body_is_one_of_fewer_words_than_the_bound() -> None:
    assert short_body_words("新华社北京5月20日电") == 10
    assert short_body_words("word " * (SHORT_BODY_WORDS - 1)) == SHORT_BODY_WORDS - 1
    assert short_body_words("word " * SHORT_BODY_WORDS) is None
    assert short_body_words("word " * 1000) is None
