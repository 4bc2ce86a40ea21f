"""Docstrings and comments under ``newscrawl/`` say what the code does and why, not its history.

The project's rule: short docstrings that say what and why, never issue numbers, commit
hashes or dataset page ids. Measurements belong in BENCHMARKS.md ("Where the defaults come
from" for the values the code uses) and history in CHANGELOG.md, where they are kept up to
date; in the code they go stale and a newcomer cannot check them. This test fails on a
docstring, attribute docstring (a string right after an assignment) or comment holding an
issue number ("issue 18"), a hex id of 7-64 digits (a commit or a dataset page id) or a
score delta ("0.9615 -> 0.9650"), and lists every place found.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "newscrawl"

FORBIDDEN = {
    "an issue number": re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE),
    "a hex id": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,64}\b"),
    "a score delta": re.compile(r"\d\.\d+\s*->\s*\d"),
}


def _prose(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of each docstring, attribute docstring and comment of a module.

    Every statement that is a bare string is one of the first two (a module's, class's or
    function's first statement, or a string after an assignment); other string literals
    are code and are not read."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def _offences(path: Path) -> Iterator[str]:
    where = path.relative_to(PACKAGE.parent)
    for line, text in _prose(path.read_text("utf-8")):
        for what, pattern in FORBIDDEN.items():
            for match in pattern.finditer(text):
                at = line + text.count("\n", 0, match.start())
                yield f"{where}:{at}: {what}: {match.group(0)!r}"


def test_docstrings_and_comments_carry_no_history() -> None:
    offences = [found for path in sorted(PACKAGE.rglob("*.py")) for found in _offences(path)]
    assert not offences, (
        "docstrings and comments must not carry issue numbers, hex ids or score deltas "
        "(measurements go to BENCHMARKS.md, history to CHANGELOG.md):\n" + "\n".join(offences)
    )


def test_the_patterns_find_what_they_guard_against() -> None:
    """The scan itself: each kind found in a docstring, an attribute docstring and a comment,
    and nothing in a string literal the code uses."""
    source = (
        '"""Chosen in issue 18."""\n'
        "LIMIT = 3\n"
        '"""Measured: 0.9615 -> 0.9650 F1."""\n'
        "NAME = 'issue 7 5f9c5ed5 0.1 -> 0.2'\n"
        "# page 5f9c5ed5\n"
    )
    found = list(_prose(source))
    hits = {
        what: [line for line, text in found if pattern.search(text)]
        for what, pattern in FORBIDDEN.items()
    }
    assert hits == {"an issue number": [1], "a hex id": [5], "a score delta": [3]}
