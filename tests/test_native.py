"""A missing C extension is said, not silent."""

from __future__ import annotations

import pytest

from newscrawl.extract import native


def test_a_missing_extension_warns_and_gives_none() -> None:
    with pytest.warns(RuntimeWarning, match="_nosuchscan is not built.*pure-Python fallback"):
        assert native._optional("_nosuchscan") is None


def test_a_built_extension_loads_without_a_warning(recwarn: pytest.WarningsRecorder) -> None:
    if native.blockscan is None:
        pytest.skip("the _blockscan C extension is not built here")
    assert native._optional("_blockscan") is not None
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
