"""The project carries the docs its code cites: no citation points outside the repository.

A clone from a forge has no ``../shared`` folder beside it, so code comments, docstrings,
site configs, bench scripts and the README must cite ``docs/<name>.md`` in this repository,
never ``../shared/docs/...``. Pointers to ``../shared/datasets`` (the evaluation datasets, read
at run time; see docs/scoring.md) are data, not docs, and are allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SITE_CONFIGS = PROJECT_ROOT / "newscrawl" / "configs" / "sites"

TEXT_SUFFIXES = frozenset({".py", ".pyi", ".c", ".h", ".toml", ".md", ".txt", ".cfg", ".rst"})
SKIPPED_DIRS = frozenset({"__pycache__", "results", ".mypy_cache", ".ruff_cache"})
SCANNED_DIRS = ("newscrawl", "bench", "docs", "configs", "tests")
SCANNED_FILES = ("README.md", "BENCHMARKS.md", "pyproject.toml", "scrapy.cfg", "setup.py")
CITING_DIRS = ("newscrawl", "bench")
CITING_FILES = ("README.md", "BENCHMARKS.md")

OUTSIDE_DOCS_RE = re.compile(r"(?<![\w-])shared/docs\b")
"""``../shared/docs/x.md``, ``shared/docs/x.md``, ``/abs/path/shared/docs``: docs outside."""
DOC_PATH_RE = re.compile(r"(?<![\w./-])docs/([\w./-]+?\.md)\b")
"""``docs/<name>.md`` as written from the project root (not ``../docs``, not ``x/docs``)."""
DOC_SECTION_RE = re.compile(r"(?<![\w./-])docs/([\w./-]+?\.md)(?:,? section|\s*§)\s*(\d+)")
"""``docs/sites.md §6``, ``docs/method.md, section 2``: a numbered section of a doc."""
MARKDOWN_LINK_RE = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)")


def _text_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        if SKIPPED_DIRS.intersection(path.relative_to(PROJECT_ROOT).parts):
            continue
        if path.resolve() == Path(__file__).resolve():
            continue  # this file names the patterns it forbids
        yield path


def _files(dirs: tuple[str, ...], files: tuple[str, ...]) -> list[Path]:
    found = [path for name in dirs for path in _text_files(PROJECT_ROOT / name)]
    found += [PROJECT_ROOT / name for name in files if (PROJECT_ROOT / name).is_file()]
    return found


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text(encoding="utf-8", errors="replace")
    yield from enumerate(text.splitlines(), start=1)


def _where(path: Path, number: int) -> str:
    return f"{path.relative_to(PROJECT_ROOT)}:{number}"


def test_the_scan_covers_code_bench_readme_and_site_configs() -> None:
    scanned = set(_files(SCANNED_DIRS, SCANNED_FILES))
    site_configs = sorted(SITE_CONFIGS.glob("*.toml"))
    assert site_configs, f"no site configs under {SITE_CONFIGS}"
    assert set(site_configs) <= scanned
    assert PROJECT_ROOT / "README.md" in scanned
    assert any(path.parent.name == "bench" for path in scanned)
    assert any(path.suffix == ".py" and "newscrawl" in path.parts for path in scanned)


def test_no_doc_outside_the_repository_is_cited() -> None:
    outside = [
        f"{_where(path, number)}: {line.strip()}"
        for path in _files(SCANNED_DIRS, SCANNED_FILES)
        for number, line in _lines(path)
        if OUTSIDE_DOCS_RE.search(line)
    ]
    assert not outside, "cite docs/<name>.md in this repository instead:\n" + "\n".join(outside)


def test_every_cited_doc_exists_in_the_repository() -> None:
    missing = [
        f"{_where(path, number)}: docs/{name}"
        for path in _files(CITING_DIRS, CITING_FILES)
        for number, line in _lines(path)
        for name in DOC_PATH_RE.findall(line)
        if not (PROJECT_ROOT / "docs" / name).is_file()
    ]
    assert not missing, "cited docs missing from docs/:\n" + "\n".join(missing)


def test_every_cited_numbered_section_exists() -> None:
    missing = []
    for path in _files(CITING_DIRS, CITING_FILES):
        for number, line in _lines(path):
            for name, section in DOC_SECTION_RE.findall(line):
                doc = PROJECT_ROOT / "docs" / name
                heading = re.compile(rf"^#+ {section}\.\s", re.MULTILINE)
                if not doc.is_file() or not heading.search(doc.read_text(encoding="utf-8")):
                    missing.append(f"{_where(path, number)}: docs/{name} section {section}")
    assert not missing, "cited sections missing:\n" + "\n".join(missing)


def test_relative_markdown_links_to_docs_resolve() -> None:
    broken = [
        f"{_where(path, number)}: {target}"
        for path in _files(SCANNED_DIRS, SCANNED_FILES)
        if path.suffix == ".md"
        for number, line in _lines(path)
        for target in MARKDOWN_LINK_RE.findall(line)
        if "://" not in target and not (path.parent / target).is_file()
    ]
    assert not broken, "markdown links to missing files:\n" + "\n".join(broken)


def test_the_docs_the_code_relies_on_are_there() -> None:
    for name in ("method.md", "scoring.md", "pitfalls.md", "sites.md"):
        doc = PROJECT_ROOT / "docs" / name
        assert doc.is_file(), f"docs/{name} is missing"
        assert doc.read_text(encoding="utf-8").startswith("# "), f"docs/{name} has no title"
