"""Values that a page's inline JavaScript assigns to variables of known names.

Blogs keep the post's time and the writer's display name in JS (``var postTime =
"2024-06-15 09:30:00"``, CSDN ``var nickName = "木子"``) rather than in the markup, and
self-media platforms ship the whole article as script state: a WeChat official-account
article has ``var nickname = htmlDecode("人民日报")`` and ``var ct = "1701234567"`` (Unix
seconds), and Baijiahao/Toutiao-style pages a JSON state with ``"publishTime": 1701234567``
and ``"author": {"name": "央视新闻", …}`` (the account). Their visible byline is filled in by
that script, so the raw page shows none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from itertools import groupby


class _NamedVariables:
    """Variables (or object keys) of known names in a page's scripts."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)

    def named_in(self, text: str) -> bool:
        """Whether `text` holds one of the names: most scripts hold none, and a substring
        test per name rules them out far quicker than a regex (a page's scripts joined by
        "\\n" are ruled out at once)."""
        return any(name in text for name in self.names)


class ScriptVariables(_NamedVariables):
    """The string values assigned to variables (or object keys) named `names`, in order;
    a value may be wrapped in WeChat's ``htmlDecode(…)`` (entities are left to the caller)."""

    def __init__(self, names: Sequence[str], min_chars: int, max_chars: int) -> None:
        super().__init__(names)
        self._pattern = re.compile(
            "(?:"
            + "|".join(
                f"{first}(?<!\\w{first})(?:{'|'.join(name[1:] for name in group)})"
                for first, group in groupby(sorted(self.names), key=lambda name: name[0])
            )
            + ")\\b[\"']?\\s*[:=]\\s*(?:htmlDecode\\(\\s*)?[\"']"
            + f"([^\"'\\n]{{{min_chars},{max_chars}}})[\"']"
        )
        """A name at a word boundary. The boundary is checked after the first letter, not
        with a leading \\b, so that the regex engine skips ahead to that letter."""

    def values(self, script: str) -> Iterator[str]:
        if self.named_in(script):
            yield from (match.group(1) for match in self._pattern.finditer(script))


class ScriptTimestamps(_NamedVariables):
    """Unix times (seconds, or milliseconds) assigned to variables or keys named `names`, as
    aware UTC datetimes, in order; values before 2000 or not a time are skipped."""

    def __init__(self, names: Sequence[str]) -> None:
        super().__init__(names)
        self._patterns = {
            name: re.compile(
                f"{re.escape(name)}(?<![\\w.]{re.escape(name)})"
                + "[\"']?\\s*[:=]\\s*[\"']?(\\d{10}|\\d{13})(?![\\d.])"
            )
            for name in self.names
        }
        """Per name, the name (after no word character nor ".": not a property of
        something else) and the time assigned to it. A pattern per name starts with the
        name's text, which the regex engine skips ahead to; it tries one pattern of all
        the names at every position where a first letter of one stands (for "ct", every
        "c" of a script)."""

    def values(self, script: str) -> Iterator[datetime]:
        """No match starts inside another (a name follows no word character, and a match
        holds no letter past its name), so the matches of each name, merged by position,
        are those of all names at once."""
        matches = sorted(
            (match.start(), match.group(1))
            for name, pattern in self._patterns.items()
            if name in script
            for match in pattern.finditer(script)
        )
        for _, digits in matches:
            seconds = int(digits) / (1000 if len(digits) == 13 else 1)
            if seconds >= EARLIEST:
                yield datetime.fromtimestamp(seconds, UTC)


EARLIEST = datetime(2000, 1, 1, tzinfo=UTC).timestamp()
"""A "time" before this is a counter or an id, not when an article was published."""

_AUTHOR_OBJECT_RE = re.compile(
    r'"(?:author|media|account|mediaInfo|media_info)"\s*:\s*\{[^{}]{0,400}?'
    r'"(?:name|nickname|nickName|screen_name|displayName)"\s*:\s*"([^"\\\n]{1,40})"'
)


def mentions_state_author(text: str) -> bool:
    """Whether `text` may hold an author object of a JSON state (`state_author_names`)."""
    return '"author"' in text or '"media' in text or '"account"' in text


def state_author_names(script: str) -> Iterator[str]:
    """Names of the author (or account) objects of a page's JSON state:
    ``"author": {"id": 7, "name": "央视新闻"}``."""
    if mentions_state_author(script):
        yield from (match.group(1) for match in _AUTHOR_OBJECT_RE.finditer(script))
