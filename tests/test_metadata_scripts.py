"""`ScriptVariables`: the values a page's scripts assign to variables of given names, read
from the scripts that `PageScripts` finds holding one."""

from __future__ import annotations

import pytest

from newscrawl.extract.metadata.scripts import PageScripts, ScriptVariables

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
    scripts = PageScripts([script], TIMES.names)
    found = [
        value for text, held in scripts.holding(TIMES.names) for value in TIMES.values(text, held)
    ]
    assert found == values


def test_the_scripts_holding_a_name_each_with_the_names_it_holds() -> None:
    scripts = PageScripts(["var a = 1;", 'var postTime = "x"; pubtime', "pubtime"], TIMES.names)
    assert list(scripts.holding(["postTime"])) == [('var postTime = "x"; pubtime', {"postTime"})]
    assert list(scripts.holding(TIMES.names)) == [
        ('var postTime = "x"; pubtime', {"postTime", "pubtime"}),
        ("pubtime", {"pubtime"}),
    ]


def test_a_name_not_looked_for_is_refused() -> None:
    """A rule asking for a name the page's scripts were not searched for would find none
    silently; it is a mistake in the rules, said at once."""
    scripts = PageScripts(["var nickName = 'x'"], TIMES.names)
    with pytest.raises(ValueError, match="nickName"):
        list(scripts.holding(["nickName"]))
    with pytest.raises(ValueError, match="empty"):
        PageScripts(["x"], ("postTime", ""))
