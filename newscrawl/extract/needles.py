"""Which of a list of texts hold one of a few literals (needles), compared as a case-blind
regular expression compares ASCII letters (folded: ASCII capitals in lower case, the
`CASE_FOLDS_TO_ASCII` characters as their letters): the C keyword search
(``_blockscan.line_hits``) over the texts as the lines of one string, or its Python
reference (a substring search of the texts joined and folded once).

A rule that runs a pattern over many short texts (attribute texts, candidate lines) asks
first which texts hold a word every match of the pattern holds, in one pass over them
all, and runs the pattern on those alone: a regular expression per text costs a call and a
scan each, the C pass a few nanoseconds a character. Needles are given folded.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

from newscrawl.extract import native

CASE_FOLDS_TO_ASCII = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}
"""The characters beyond ASCII that a case-blind pattern matches to an ASCII letter ("İ"
and "ı" to i, "ſ" to s, the Kelvin sign to k), and that letter."""
LINE_BREAK_STAND_IN = "\0"
"""What a line break inside a text becomes for the C search, whose hits are line indices:
no needle holds one."""


def texts_holding(
    texts: Sequence[str], groups: tuple[tuple[str, ...], ...]
) -> tuple[list[int], ...]:
    """For each group of needles (folded, non-empty, without a line break or a capital
    letter beyond ASCII), the indices, ascending, of the `texts` that hold one once
    folded. In C (``_blockscan.line_hits`` over the texts joined by line breaks) where
    built."""
    if native.blockscan is None:
        return _texts_holding_python(texts, groups)
    joined = "\n".join(texts)
    if joined.count("\n") >= len(texts):  # a text holds a line break
        joined = "\n".join(text.replace("\n", LINE_BREAK_STAND_IN) for text in texts)
    hits: tuple[list[int], ...] = native.blockscan.line_hits(joined, groups)
    return hits


def _texts_holding_python(
    texts: Sequence[str], groups: tuple[tuple[str, ...], ...]
) -> tuple[list[int], ...]:
    """`texts_holding` in Python: the reference of the C one, and the fallback.

    The texts are joined and folded once, by ``str.lower`` after the
    `CASE_FOLDS_TO_ASCII` characters are replaced (a ``translate`` per text took several
    times as long): ``lower`` also lowers capitals beyond ASCII, which no needle holds, and
    keeps every other character's length. Each needle is found from text to text: after a
    hit, the search goes on at the next text, so no text is read twice for one needle."""
    joined = "\n".join(texts)
    for char, letter in CASE_FOLDS_TO_ASCII.items():
        if char in joined:
            joined = joined.replace(char, letter)
    folded = joined.lower()
    starts = [0, *accumulate(len(text) + 1 for text in texts)]  # where each text starts
    found: list[list[int]] = []
    for group in groups:
        holding: set[int] = set()
        for needle in group:
            at = folded.find(needle)
            while at >= 0:
                index = bisect_right(starts, at) - 1
                holding.add(index)
                at = folded.find(needle, starts[index + 1])
        found.append(sorted(holding))
    return tuple(found)
