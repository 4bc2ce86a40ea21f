"""Regex building for the metadata rules: alternations the regex engine can skip through.

Python's regex engine jumps ahead to a possible match only when it knows the characters a
match can start with: when the pattern is one alternation whose every alternative starts
with a plain character (or a class of them). A group in front (``(?:作者|记者)\\s*:``),
re.IGNORECASE on a first letter (``[sS]ource``), or a leading ``\\b`` or look-behind makes it
try the whole pattern at every position of the text instead: 4 to 7 times slower over a
page's lines.
"""

from __future__ import annotations

from collections.abc import Iterable

_FOLDS = {"s": "sSſ"}
"""Characters beyond the ASCII pair that a letter stands for. The C keyword search
(``_blockscan.line_hits``) folds "İ" and "ı" to "i" and the Kelvin sign to "k" too, as
re.IGNORECASE does; it only proposes the lines a pattern confirms, so a pattern built here
that leaves them out finds what it did before, the C search a few more candidates."""


def one_of(alternatives: Iterable[str], then: str = "") -> str:
    """``(?:a<then>|b<then>|…)``: `then` repeated in each alternative, so that each still
    starts with its own first character."""
    return "(?:" + "|".join(alternative + then for alternative in alternatives) + ")"


def any_case(word: str, *, word_start: bool = False) -> list[str]:
    """`word` in any ASCII case, as alternatives that differ in their first character
    ("by" -> ``b[yY]``, ``B[yY]``). With `word_start`, a match must not follow a word
    character (a leading ``\\b``, checked after the first character)."""
    rest = "".join(f"[{_variants(letter)}]" for letter in word[1:])
    return [
        (not_after(r"\w", first) if word_start else first) + rest for first in _variants(word[0])
    ]


def not_after(before: str, first: str) -> str:
    """`first` (a character or a class) where it does not follow a `before` character: a
    leading ``(?<!before)`` checked after `first`, so that the pattern still starts with
    `first`, which the regex engine skips ahead to."""
    return f"{first}(?<!{before}{first})"


def _variants(letter: str) -> str:
    return _FOLDS.get(letter.lower(), letter.lower() + letter.upper())
