"""The HTML tokenizer: how page source splits into text, tags, comments and the content of
elements that is not markup (scripts, styles). One definition, read three ways:

* the line scan (`blocks`) reads the page token by token with it (`TEXT_AND_TAG_RE`,
  `quoted_tag_end`, `comment_end`, `content_end`); its C loop (``_blockscan.c``) takes the
  character classes below at import (`ascii_class`), and an import-time probe and the
  tests hold it to the Python loop;
* the paper's preprocessing (`clean`) deletes comments, script and style elements and
  tags with regular expressions built from the patterns here (`COMMENT_PATTERN`,
  `raw_element_pattern`, `start_tag_pattern`): one pass of the regex engine each, several
  times faster than a token loop in Python;
* the head (`head.PageHead`) finds its start tags with `start_tag_pattern` and the end of
  a script's or title's content with `content_end`.

What remains separate, and why: each of these, made one, changes the output on some
dataset pages, and the output is kept as it is until such a change is made and scored on
its own (how many pages each would move: CHANGELOG.md, "Defaults as first measured").
The paper's preprocessing keeps three rules of its own, as the paper's method is
reproduced as published (docs/method.md, section 1): a tag ends at its first ``>``
(``<[^>]*>``), where the scan reads past a ``>`` inside a quoted attribute value
(`quoted_tag_end`: ``onload="if(w>450)..."``), as browsers do; ``</`` starts a tag whatever
follows, where the scan wants a letter after it (``</^Backfill>`` is text there); and only
scripts and styles have their content dropped, where the scan also skips what a reader
does not see as text (``<noscript>``, ``<textarea>``, ``<title>`` ...:
`blocks.SKIPPED_TAGS`). The head searches the page's text for its tags instead of reading
the scan's tokens, so it also finds them in comments and skipped elements (see `head`).

Tag names are matched ASCII-case-insensitively, as HTML reads them. Every scan here moves
forward only and every pattern either fails within a few characters or always succeeds
(each closer has an end-of-page alternative), so tokenizing is linear on any input.
"""

from __future__ import annotations

import re

NAME_START = "a-zA-Z"
NAME_CHARACTERS = "a-zA-Z0-9:-"
"""Tag names (character class bodies): a letter, then letters, digits, ``:`` and ``-``
(``o:p``, custom elements). A name ends at the first other character, so ``<meta/>`` and
``<meta.x>`` are both ``meta`` tags."""
TAG_OPEN = f"<(?:/?[{NAME_START}]|[!?])"
"""What starts a tag: a ``<`` followed by a name, ``/`` and a name, ``!`` or ``?``. Any
other ``<`` is text (``a < b``, ``</ x>``)."""

TEXT_AND_TAG_RE = re.compile(
    rf"([^<]*+(?:<(?!{TAG_OPEN[1:]})[^<]*+)*+)"
    rf"(<(?:(/?)([{NAME_START}][{NAME_CHARACTERS}]*)([^>]*)>|!--|[!?][^>]*>))?"
)
"""Text (a ``<`` that starts no tag is text), then the tag after it, if any: a named start
or end tag (groups: closing ``/``, name, attribute text), the opener of a comment, or a
declaration or processing instruction up to its ``>``. Every ``<`` the text stops at
starts a tag that matches up to a ``>``, so the caller reads up to the page's last ``>``
and no attempt fails after reading ahead. The text's repeats are possessive, as in
`raw_element_pattern`: no backtracking state is kept for each ``<`` of a run of them."""
_QUOTED_TAG_RE = re.compile(r"""(?:[^>"'=]++|=\s*+(?:"[^"]*+"|'[^']*+')?|["'])*+>""")
"""The rest of a tag whose ``>`` may be quoted: quotes open a value only after ``=``
(possessive, so a value that never closes costs one forward scan, no backtracking)."""
COMMENT_PATTERN = r"<!--(?:-?>|[^-]*+(?:-(?!->)[^-]*+)*+(?:-->|\Z))"
"""A comment: up to the first ``-->``, or the end of the page when it never closes;
``<!-->`` and ``<!--->`` are empty comments, as in browsers."""
_COMMENT_RE = re.compile(COMMENT_PATTERN)
_TAG_OPEN_RE = re.compile(TAG_OPEN)
_END_TAG_RES: dict[str, re.Pattern[str]] = {}


def ascii_class(body: str) -> str:
    """The ASCII characters the regex class ``[body]`` matches: how the C loop receives a
    class defined here (``ascii_class(NAME_CHARACTERS)``)."""
    pattern = re.compile(f"[{body}]")
    return "".join(c for c in map(chr, range(128)) if pattern.fullmatch(c))


def quoted_tag_end(page: str, name_end: int, first_close: int) -> int:
    """The position after a tag whose name ends at `name_end` and whose attribute text up
    to its first ``>`` (just before `first_close`) holds an odd number of ``"`` or of
    ``'``, so that ``>`` may be quoted: after the first ``>`` outside values quoted right
    after an ``=`` (as browsers read ``<p onload="if(w>450)...">`` and ``<sup
    value='(<a href="#a">A</a>)'>``), or `first_close` when no such ``>`` follows. (With an
    even number of each, the tag ends at its first ``>``.)"""
    match = _QUOTED_TAG_RE.match(page, name_end)
    return match.end() if match else first_close


def comment_end(page: str, start: int) -> int:
    """The position after the comment whose ``<!--`` is at `start` (`COMMENT_PATTERN`)."""
    match = _COMMENT_RE.match(page, start)
    return match.end() if match else len(page)


def end_tag_pattern(name: str) -> str:
    """What ends the content of a `name` element that is not markup: its end tag's start
    (``</script``), in any ASCII case (matched with re.IGNORECASE | re.ASCII)."""
    return f"</{name}"


def content_end(page: str, name: str, start: int, unclosed_to_end: bool) -> tuple[int, int]:
    """Where the content of a `name` element that starts at `start` and is not markup
    ends, and the position after its end tag (the tag runs to its ``>``, or to the end of
    the page). Without an end tag, the content runs to the end of the page when
    `unclosed_to_end` (scripts and styles, as in browsers), else it is empty."""
    pattern = _END_TAG_RES.get(name)
    if pattern is None:
        pattern = _END_TAG_RES[name] = re.compile(end_tag_pattern(name), re.IGNORECASE | re.ASCII)
    ender = pattern.search(page, start)
    if ender is None:
        return (len(page), len(page)) if unclosed_to_end else (start, start)
    close = page.find(">", ender.end())
    return ender.start(), len(page) if close < 0 else close + 1


def raw_element_pattern(name: str) -> str:
    """A whole `name` element whose content is not markup, as one regex (re.IGNORECASE |
    re.ASCII): its start tag, the content as runs without ``<`` (fast in the engine) with
    each ``<`` checked for the end tag (the two parts cannot match the same text, so
    nothing backtracks), and the end tag up to its ``>``; an element left open runs to
    the end of the page (`content_end` with `unclosed_to_end`). The repeats are
    possessive (``*+``): a greedy group keeps backtracking state for every ``<`` it
    passes, about 150 bytes each, gigabytes for a script of megabytes of ``<``."""
    end = end_tag_pattern(name)
    return (
        f"<{name}(?![{NAME_CHARACTERS}])[^<]*+(?:<(?!{end[1:]})[^<]*+)*+"
        rf"(?:{end}[^>]*(?:>|\Z)|\Z)"
    )


def start_tag_pattern(*names: str) -> str:
    """The start of a start tag of one of `names` (``<title``, the name whole; group 1:
    the name as written), for re.IGNORECASE | re.ASCII. It begins with the literal ``<``,
    so the regex engine skips from one ``<`` to the next."""
    return f"<({'|'.join(names)})(?![{NAME_CHARACTERS}])"


def unclosed_tail(page: str, start: int) -> str:
    """The text from `start` (after the page's last ``>``) up to a tag left open there:
    browsers drop a tag that runs to the end of the page, so its markup is not text."""
    opened = _TAG_OPEN_RE.search(page, start)
    return page[start : opened.start() if opened else len(page)]
