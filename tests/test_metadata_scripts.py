"""`ScriptVariables`: values assigned to named JS variables, with the C prefilter or without."""

from __future__ import annotations

import pytest
from conftest import NATIVE_SETTINGS
from hypothesis import given
from hypothesis import strategies as st

from newscrawl.extract.metadata import scripts
from newscrawl.extract.metadata.scripts import ScriptVariables

TIMES = ScriptVariables(("postTime", "pubtime", "cb_entryCreatedDate"), min_chars=8, max_chars=40)


@pytest.fixture(params=["native", "python"])
def prefilter(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs with the C prefilter (where it is built) and with the Python one."""
    if request.param == "python":
        monkeypatch.setattr(scripts, "_textscan", None)
    elif scripts._textscan is None:
        pytest.skip("the _textscan C extension is not built")
    return str(request.param)


@pytest.mark.usefixtures("prefilter")
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


@NATIVE_SETTINGS
@given(
    st.lists(
        st.sampled_from(["postTime", "POSTtime", "pubtime", " = ", ":", "'", '"', "x", "0"])
    ).map("".join)
)
def test_native_and_python_prefilters_agree(script: str) -> None:
    native = list(TIMES.values(script))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scripts, "_textscan", None)
        assert list(TIMES.values(script)) == native
