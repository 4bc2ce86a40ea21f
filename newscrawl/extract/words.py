"""How text is counted in words whatever its script: each CJK character is a word (Chinese
and Japanese write no spaces between words), and so is any other run of word characters.

The scorer counts its tokens this way (`newscrawl.evaluation.scoring.tokenize`, as the
reference scorer of docs/scoring.md does), and the confidence measures a short body so: a
hundred characters of Chinese are a news brief, a hundred of English a sentence or two.
"""

from __future__ import annotations

import re
from itertools import islice

CJK = (
    "\u2e80-\u2eff\u2f00-\u2fdf\u3005-\u3007\u3021-\u3029\u3038-\u303b"
    "\u3040-\u309f\u30a0-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u31bf"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af"
    "\ud7b0-\ud7ff\uf900-\ufaff\uff66-\uff9f\uffa0-\uffdc\u1100-\u11ff"
    "\U00020000-\U0002ebef\U0002f800-\U0002fa1f\U00030000-\U000323af"
)
"""CJK ideographs (URO, extensions A-H, compatibility, radicals), kana, hangul, bopomofo
and iteration marks (a character class body)."""
CJK_CHAR_RE = re.compile(f"[{CJK}]")
WORD_RE = re.compile(f"[{CJK}]|[^\\W{CJK}]+")
"""One word: a CJK character, or a run of other word characters."""


def words(text: str) -> list[str]:
    """The words of `text`, in order."""
    return WORD_RE.findall(text)


def words_up_to(text: str, limit: int) -> int:
    """How many words `text` has, counted up to `limit` (the scan stops there: a long body
    costs no more than a short one)."""
    return sum(1 for _ in islice(WORD_RE.finditer(text), limit))
