"""Running without the C loop is said once, not silent, and never changes the output."""

from __future__ import annotations

import warnings

import pytest

from newscrawl.extract import blocks, native


def test_a_missing_extension_warns_and_gives_none() -> None:
    with pytest.warns(RuntimeWarning, match="_nosuchscan is not built.*pure-Python code"):
        assert native._optional("_nosuchscan") is None


def test_a_built_extension_loads_without_a_warning() -> None:
    if native.blockscan is None:
        pytest.skip("the _blockscan C extension is not built here")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert native._optional("_blockscan") is not None
        assert blocks._choose_scan()


def test_a_c_loop_that_reads_the_probe_otherwise_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As an extension built from another _blockscan.c: one warning, and the Python loop."""
    if native.blockscan is None:
        pytest.skip("the _blockscan C extension is not built here")

    def configure_another_loop() -> None:
        native.blockscan.configure(**{**blocks._configuration(), "noise_words": ("comment",)})

    monkeypatch.setattr(blocks, "_configure_native", configure_another_loop)
    monkeypatch.setattr(native, "blockscan", native.blockscan)  # restored by undo
    try:
        with pytest.warns(RuntimeWarning, match="reads a probe page otherwise") as record:
            assert not blocks._choose_scan()
        assert len(record) == 1
        assert native.blockscan is None  # the metadata's passes fall back too
    finally:
        monkeypatch.undo()
        blocks._configure_native()


def test_without_the_extension_no_c_is_called(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "blockscan", None)
    assert not blocks._choose_scan()


def test_an_extension_refusing_the_tables_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """As an extension built from an older _blockscan.c, whose configure took other
    arguments: one warning and the Python code, not an import error."""
    if native.blockscan is None:
        pytest.skip("the _blockscan C extension is not built here")

    class Older:
        def configure(self, *args: object) -> None:
            raise TypeError("configure() takes no keyword arguments")

    monkeypatch.setattr(native, "blockscan", Older())
    with pytest.warns(RuntimeWarning, match="refuses blocks.py's tables") as record:
        assert not blocks._choose_scan()
    assert len(record) == 1
    assert native.blockscan is None
