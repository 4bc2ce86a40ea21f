"""A site config's URL patterns, run by RE2: linear in the URL's length whatever the pattern.

Python's `re` backtracks: a pattern such as ``(a+)+$`` takes exponential time on a URL that
nearly matches, and a match never returns to the signal handlers, so Ctrl-C and SIGTERM
could not stop such a crawl. RE2 (google-re2) has no backtracking; the price is the
constructs that need it, lookarounds and backreferences, which are refused when the config
loads. RE2's ``\\d``, ``\\w``, ``\\s`` and ``\\b`` are ASCII-only (``\\pL``, ``\\p{Han}`` match
letters of any script).
"""

from __future__ import annotations

from dataclasses import dataclass

import re2

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # the error is raised, and reported in one line by the loader


class PatternSyntaxError(ValueError):
    """A pattern RE2 cannot compile; the message is RE2's reason."""


@dataclass(frozen=True, slots=True)
class UrlPattern:
    """One compiled pattern; `search` finds it anywhere in a URL (as `re.search` would)."""

    source: str
    _regexp: re2._Regexp

    @classmethod
    def compile(cls, source: str) -> UrlPattern:
        """`source` compiled; raises `PatternSyntaxError` for what RE2 does not accept."""
        try:
            return cls(source, re2.compile(source, _OPTIONS))
        except re2.error as error:
            raise PatternSyntaxError(_reason(error)) from None

    def search(self, url: str) -> bool:
        """Whether the pattern matches somewhere in `url`."""
        try:
            return self._regexp.search(url) is not None
        except UnicodeEncodeError:  # a lone surrogate: RE2 reads UTF-8
            return self._regexp.search(url.encode("utf-8", "replace").decode()) is not None


def _reason(error: re2.error) -> str:
    reason = error.args[0] if error.args else str(error)
    text = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
    if text.startswith("invalid perl operator: (?"):
        return f"{text} (RE2 has no lookahead or lookbehind)"
    if text.startswith("invalid escape sequence: \\") and text[-1].isdigit():
        return f"{text} (RE2 has no backreferences)"
    return text
