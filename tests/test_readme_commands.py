"""The README's and the user guide's shell commands work as written: each shell block is run
here, or says where it is run, or says that it needs the network.

A shell block (```sh) is preceded by one marker line:

- ``<!-- readme-test: run -->``: this module runs each of its command lines with bash in a
  scratch folder holding ``page.html``, ``pages/`` and a store at ``data/newscrawl.db``
  (``$NEWSCRAWL_DB_URL`` points at it), and each must exit 0;
- ``<!-- readme-test: ci -->``: ``.ci/run`` runs each of the block's commands verbatim;
- ``<!-- readme-test: tests/test_x.py::test_name -->``: that test runs the commands;
- ``<!-- readme-test: network -->``: it needs the network (live sites, package installs);
- ``<!-- readme-test: long -->``: a developer's run of minutes to hours over the whole
  project (the suite or a part of it, a bench, the long fuzz run).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from store_support import article_text, record

from newscrawl.store import open_store

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCUMENTS = (README, *sorted((ROOT / "docs" / "guide").glob("*.md")))
"""The README and the user guide's pages: the files whose shell blocks are checked."""
SHELL_LANGUAGES = frozenset({"sh", "bash", "shell", "console"})
MARKER_RE = re.compile(r"<!-- readme-test: (run|ci|network|long|tests/[\w/]+\.py::\w+) -->")
FENCE_RE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class ShellBlock:
    line: int
    """The line number of its opening fence."""
    marker: str | None
    commands: tuple[str, ...]
    source: str = "README.md"
    """The file it is in, from the project root."""

    def __str__(self) -> str:
        return f"{self.source}:{self.line}"


def shell_blocks(text: str, source: str = "README.md") -> list[ShellBlock]:
    """Every shell block of `text` with the marker on the line before it (None if none)."""
    blocks = []
    for fence in FENCE_RE.finditer(text):
        if fence[1] not in SHELL_LANGUAGES:
            continue
        before = text[: fence.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER_RE.fullmatch(before.strip())
        commands = tuple(
            line for line in fence[2].splitlines() if line.strip() and not line.startswith("#")
        )
        line = text.count("\n", 0, fence.start()) + 1
        blocks.append(ShellBlock(line, marker[1] if marker else None, commands, source))
    return blocks


BLOCKS = [
    block
    for document in DOCUMENTS
    for block in shell_blocks(document.read_text("utf-8"), str(document.relative_to(ROOT)))
]


def test_every_shell_block_is_marked() -> None:
    assert BLOCKS, "no shell block found in the README or the guide"
    unmarked = [str(block) for block in BLOCKS if block.marker is None]
    assert unmarked == [], "add a <!-- readme-test: ... --> line before each (see this module)"


def test_the_readme_stays_a_first_ten_minutes_page() -> None:
    """What newscrawl is, the set-up, common commands, where to read on; the manual is the
    user guide (docs/guide/)."""
    assert len(README.read_text("utf-8").splitlines()) < 200


def test_the_markers_parse() -> None:
    text = "x\n<!-- readme-test: network -->\n```sh\nscrapy crawl sina\n```\n```sh\nls\n```\n"
    assert [(block.marker, block.commands) for block in shell_blocks(text)] == [
        ("network", ("scrapy crawl sina",)),
        (None, ("ls",)),
    ]


def test_blocks_that_ci_runs_are_in_ci_run_verbatim() -> None:
    ci_script = (ROOT / ".ci" / "run").read_text("utf-8")
    ci_blocks = [block for block in BLOCKS if block.marker == "ci"]
    assert ci_blocks, "the README's test command is marked as run by .ci/run"
    for block in ci_blocks:
        for command in block.commands:
            command = command.split("  #", 1)[0].strip()
            assert command in ci_script, f"{block}: {command!r} is not in .ci/run"


def test_blocks_run_elsewhere_name_a_test_that_exists() -> None:
    for block in BLOCKS:
        if block.marker is None or not block.marker.startswith("tests/"):
            continue
        path, name = block.marker.split("::")
        source = (ROOT / path).read_text("utf-8") if (ROOT / path).is_file() else ""
        assert re.search(rf"^def {name}\(", source, re.MULTILINE), f"{block}: no {block.marker}"


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A folder with the files the README's runnable commands name."""
    sample = ROOT / "examples" / "article-gbk.html"
    shutil.copy(sample, tmp_path / "page.html")
    (tmp_path / "pages").mkdir()
    shutil.copy(sample, tmp_path / "pages" / "a.html")
    (tmp_path / "data").mkdir()
    published = datetime(2026, 11, 5, 8, 30, tzinfo=UTC)
    with open_store(f"sqlite:///{tmp_path / 'data' / 'newscrawl.db'}") as store:
        store.write(
            [
                record(
                    f"https://news.sina.com.cn/c/2026-11-05/doc-{n}.shtml",
                    article_text(n),
                    site="sina",
                    language="zh",
                    confidence=0.9,
                    published_at=published,
                )
                for n in range(3)
            ]
        )
    return tmp_path


RUNNABLE = [block for block in BLOCKS if block.marker == "run"]


@pytest.mark.parametrize("block", RUNNABLE, ids=[str(block) for block in RUNNABLE])
def test_runnable_blocks_run(block: ShellBlock, scratch: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "NEWSCRAWL_DB_URL": "sqlite:///data/newscrawl.db",
    }
    for command in block.commands:
        before = set(scratch.rglob("*"))
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=scratch,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{block}: {command}\n{done.stderr[-2000:]}"
        written = [path for path in set(scratch.rglob("*")) - before if path.stat().st_size]
        assert done.stdout or written, f"{block}: {command} printed and wrote nothing"
