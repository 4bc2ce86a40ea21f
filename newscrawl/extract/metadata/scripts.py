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
from collections.abc import Collection, Iterator, Sequence
from datetime import UTC, datetime
from itertools import groupby

from newscrawl.extract import native


def substrings_in(texts: Sequence[str], names: tuple[str, ...]) -> list[tuple[str, ...]]:
    """For each of `texts`, those of `names` (non-empty) that occur in it, in their order.
    In C one pass over each text finds them all (``_blockscan.substrings_in``); this Python
    one, the reference and the fallback, reads each text once per name."""
    if native.blockscan is None:
        return [tuple(name for name in names if name in text) for text in texts]
    found: list[tuple[str, ...]] = native.blockscan.substrings_in(texts, names)
    return found


class PageScripts:
    """A page's inline scripts, each with the names it holds of those the rules look for
    (`searched`), found for all of them at once on first use (`substrings_in`): a substring
    test per name and rule read the scripts a dozen times, a tenth of the metadata's time.
    Most scripts hold none, and no rule reads those."""

    def __init__(self, texts: Sequence[str], searched: Sequence[str]) -> None:
        self.texts = tuple(texts)
        self.searched = frozenset(searched)
        if "" in self.searched:
            raise ValueError("an empty name to look for")
        self._held: tuple[frozenset[str], ...] | None = None

    def holding(self, names: Collection[str]) -> Iterator[tuple[str, frozenset[str]]]:
        """The scripts that hold one of `names`, in order, each with those it holds; every
        name must be one of those looked for (`searched`)."""
        if not self.searched.issuperset(names):
            raise ValueError(f"not looked for: {sorted(set(names) - self.searched)}")
        if self._held is None:
            found = substrings_in(self.texts, tuple(self.searched))
            self._held = tuple(map(frozenset, found))
        for text, held in zip(self.texts, self._held, strict=True):
            if not held.isdisjoint(names):
                yield text, held.intersection(names)


class ScriptVariables:
    """The string values assigned to variables (or object keys) named `names`, in order;
    a value may be wrapped in WeChat's ``htmlDecode(…)`` (entities are left to the caller)."""

    def __init__(self, names: Sequence[str], min_chars: int, max_chars: int) -> None:
        self.names = tuple(names)
        self._named = frozenset(names)
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

    def values(self, script: str, held: Collection[str]) -> Iterator[str]:
        """The values in `script`, which holds the names `held` (`PageScripts.holding`)."""
        if not self._named.isdisjoint(held):
            yield from (match.group(1) for match in self._pattern.finditer(script))


class ScriptTimestamps:
    """Unix times (seconds, or milliseconds) assigned to variables or keys named `names`, as
    aware UTC datetimes, in order; values before 2000 or not a time are skipped."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
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

    def values(self, script: str, held: Collection[str]) -> Iterator[datetime]:
        """The times in `script`, which holds the names `held` (`PageScripts.holding`).

        No match starts inside another (a name follows no word character, and a match
        holds no letter past its name), so the matches of each name, merged by position,
        are those of all names at once."""
        matches = sorted(
            (match.start(), match.group(1))
            for name in self.names
            if name in held
            for match in self._patterns[name].finditer(script)
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


STATE_AUTHOR_KEYS = frozenset({'"author"', '"media', '"account"'})
"""What every author object of a JSON state (`state_author_names`) holds."""


def state_author_names(script: str, held: Collection[str]) -> Iterator[str]:
    """Names of the author (or account) objects of a page's JSON state:
    ``"author": {"id": 7, "name": "央视新闻"}``, in `script`, which holds the names `held`
    (`PageScripts.holding`)."""
    if not STATE_AUTHOR_KEYS.isdisjoint(held):
        yield from (match.group(1) for match in _AUTHOR_OBJECT_RE.finditer(script))
