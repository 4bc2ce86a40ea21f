"""`ScriptVariables`: the values a page's scripts assign to variables of given names."""

from __future__ import annotations

import pytest

from newscrawl.extract.metadata.scripts import ScriptVariables

TIMES = ScriptVariables(("postTime", "pubtime", "cb_entryCreatedDate"), min_chars=8, max_chars=40)


@pytest.mark.parametrize(
    ("script", "values"),
    [
        ('var postTime = "2024-11-19 16:16:18";', ["2024-11-19 16:16:18"]),
        ("cfg = {pubtime: '2024-05-10 09:00', other: 1}", ["2024-05-10 09:00"]),
        ('"cb_entryCreatedDate":"2024/5/9 14:45"', ["2024/5/9 14:45"]),
        ('var postTime="2024-01-01 00:00"; var pubtime="2024-02-02 00:00";',
         ["2024-01-01 00:00", "2024-02-02 00:00"]),
        ('var lastpostTime = "2024-11-19 16:16:18";', []),  # not at a word start
        ('var POSTTIME = "2024-11-19 16:16:18";', []),  # names are case-sensitive
        ('var postTime = "short";', []),  # fewer than min_chars
        ("var cfg0={id:0,channel:'news',lazy:true};" * 50, []),
    ],
)  # fmt: skip
def test_values_of_the_named_variables(script: str, values: list[str]) -> None:
    assert list(TIMES.values(script)) == values
