"""Shared fixtures: where ../shared lives, skipping rules for what a machine lacks, and the
C keyword search's fold (`fold`), which its tests hold it to.

Outside CI a missing ../shared folder or service skips the tests that need it, with the
reason; under CI (CI=true) it fails them, so a broken CI machine cannot pass by skipping.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

from newscrawl.extract.needles import CASE_FOLDS_TO_ASCII

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_DIR = PROJECT_ROOT.parent / "shared"
UNDER_CI = os.environ.get("CI", "").lower() == "true"
NATIVE_SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=UNDER_CI,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Hypothesis settings of the tests that hold a C extension to its Python reference:
repeatable under CI, many examples elsewhere."""


def fold(text: str) -> str:
    """`text` as the C keyword search (``_blockscan.line_hits``) compares it: ASCII capitals
    in lower case and `needles.CASE_FOLDS_TO_ASCII` characters as their letters; every
    other character as it is (the definition the searches are tested against)."""
    return "".join(
        chr(ord(char) + 32) if "A" <= char <= "Z" else CASE_FOLDS_TO_ASCII.get(char, char)
        for char in text
    )


def skip_or_fail(reason: str) -> None:
    """Skip with `reason`, or fail under CI where every prerequisite must be present."""
    if UNDER_CI:
        pytest.fail(f"{reason} (required under CI=true)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ../shared material (datasets, reference scorer)."""
    if not (SHARED_DIR / "datasets").is_dir():
        skip_or_fail(f"shared material not found at {SHARED_DIR}")
    return SHARED_DIR


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/bench_metadata.py as a module, so tests score exactly as its published table
    does (the metadata floors and the bench's own scoring rules)."""
    return load_bench("bench_metadata")


def load_bench(name: str) -> ModuleType:
    """bench/<name>.py imported as the module `name` (the bench folder is no package; its
    scripts import each other as a script run from it would)."""
    folder = Path(__file__).resolve().parents[1] / "bench"
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    path = folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


SLOW_MODULES = frozenset(
    {
        # Real crawls, servers and subprocesses (scrapy, scrapyd, Redis workers, schedules).
        "test_addon",
        "test_archive",
        "test_crawl_health",
        "test_distributed",
        "test_download_stack",
        "test_reextract_crawl",
        "test_readme_commands",
        "test_replay_incremental",
        "test_resume",
        "test_schedule",
        "test_scrapyd",
        "test_site_crawl",
        "test_store_crawl",
        "test_store_site_crawl",
        "test_user_errors",
        # Every dataset page, or thousands of generated ones.
        "test_blockscan",
        "test_fuzz_extract",
        "test_quality_gate",
        "test_replay_sites",
        "test_textscan",
    }
)
"""Test modules marked `slow`: 85% of the suite's time (``--durations``). The edit loop is
``pytest -m "not slow"``; CI and the README's command run everything."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
