"""Values that a page's inline JavaScript assigns to variables of known names.

Blogs keep the post's time and the writer's display name in JS (``var postTime =
"2024-11-19 16:16:18"``, CSDN ``var nickName = "中草药z"``) rather than in the markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import groupby


class ScriptVariables:
    """The string values assigned to variables (or object keys) named `names`, in order."""

    def __init__(self, names: Sequence[str], min_chars: int, max_chars: int) -> None:
        self.names = tuple(names)
        self._pattern = re.compile(
            "(?:"
            + "|".join(
                f"{first}(?<!\\w{first})(?:{'|'.join(name[1:] for name in group)})"
                for first, group in groupby(sorted(self.names), key=lambda name: name[0])
            )
            + ")\\b[\"']?\\s*[:=]\\s*[\"']"
            + f"([^\"'\\n]{{{min_chars},{max_chars}}})[\"']"
        )
        """A name at a word boundary. The boundary is checked after the first letter, not
        with a leading \\b, so that the regex engine skips ahead to that letter."""

    def values(self, script: str) -> Iterator[str]:
        # Most scripts name none of the variables: a substring test per name rules them out
        # far quicker than the regex.
        if any(name in script for name in self.names):
            yield from (match.group(1) for match in self._pattern.finditer(script))
