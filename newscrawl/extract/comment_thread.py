"""Reader comments that carry no comment class words, told by their repeated stamps.

Many blogs and news sites print a reader's comment as its text and a short stamp with the
reader's name and the date ("Posted by: Ann | Mar 26, 2007 2:00 PM", "12. Ann - August 8,
2012") or how long ago it was posted ("Ann · 3 hours ago", "vor 2 Tagen", "5小时前"), in
boxes whose class and id name nothing a boilerplate word catches. Such a thread
follows the article inside the best region, and as prose it scores like the article.

What sets it apart is its shape: three or more short dated lines of one form (the same
words and marks once the name and date are reduced to placeholders), most pairs with prose
between them, and nothing after the last one longer than a comment. The thread starts at
the first such stamp; where the stamps close their comments (no comment follows the last
one), it starts at the heading or dated line just before the first comment. A list of dated
items (a filmography, references, a timeline) has no prose between its dates; embedded posts
quoted inside an article have the article's prose after them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import accumulate, pairwise

from newscrawl.extract.blocks import Line

COMMENT_THREAD = "reader comments: a run of dated signatures after the article"
"""The drop rule of a thread's lines, as ``--explain`` shows it."""

MIN_STAMPS = 3
"""Fewer dated lines of one form are a byline and an update note, not a thread."""
MAX_STAMP_CHARS = 100
"""A stamp is a name, a date and a few words."""
MIN_COMMENT_CHARS = 20
"""A punctuated line this long between two stamps is a comment's text."""
MAX_HEADING_CHARS = 30
"""An unpunctuated line this short before the first comment heads the thread
("Comments", "12 Responses")."""
MIN_ARTICLE_CHARS = 200
"""The thread is cut off only after this much of the article's prose."""
ARTICLE_GOES_ON = 1.5
"""The article goes on after dated lines (quoted posts) when the prose after the last one
is more than this many times the most prose between two of them: a thread's last comment
is as often as not its longest, so a little more than one comment is still the thread, and
an article's remainder is longer (measured: CHANGELOG.md, "Defaults as first
measured")."""

_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}\.?"
_DATE_RE = re.compile(
    r"(?=[a-z\d])(?:"
    rf"\b{_MONTH}\s{{1,3}}\d{{1,2}}(?:st|nd|rd|th)?,?\s{{1,3}}(?:19|20)\d\d\b"
    rf"|\b\d{{1,2}}\.?\s{{1,3}}{_MONTH},?\s{{1,3}}(?:19|20)\d\d\b"
    r"|\b(?:19|20)\d\d[-/.]\d{1,2}[-/.]\d{1,2}\b"
    r"|\b\d{1,2}[-/.]\d{1,2}[-/.](?:19|20)?\d\d\b"
    r"|(?:19|20)\d\d年\d{1,2}月\d{1,2}日)",
    re.IGNORECASE,
)
"""A calendar date with its year, in the English, numeric and Chinese forms stamps use.
Every form starts with a letter or a digit: the lookahead saying so lets the regex engine
skip to such characters instead of trying five forms at each one (so do the lookaheads of
the two patterns below; all three run on every short line with a number)."""
_RELATIVE_RE = re.compile(
    r"(?=[\daovih])(?:"
    r"\b(?:\d{1,3}|an?|one)\s{1,3}(?:sec(?:ond)?s?|min(?:ute)?s?|hours?|hrs?|days?|weeks?"
    r"|months?|years?)\s{1,3}ago\b"
    r"|\bvor\s{1,3}(?:\d{1,3}|einer|einem)\s{1,3}(?:sekunden?|minuten?|stunden?|tag(?:en)?"
    r"|wochen?|monat(?:en)?|jahr(?:en)?)\b"
    r"|\bil\s{1,3}y\s{1,3}a\s{1,3}(?:\d{1,3}|une?)\s{1,3}(?:secondes?|minutes?|heures?|jours?"
    r"|semaines?|mois|ans?)\b"
    r"|\b(?:hace|há)\s{1,3}(?:\d{1,3}|una?|uma?)\s{1,3}(?:segundos?|minutos?|horas?|d[ií]as?"
    r"|semanas?|mes(?:es)?|mês|años?|anos?)\b"
    r"|\d{1,3}\s{1,3}(?:секунд[уы]?|минут[уы]?|час(?:а|ов)?|д(?:ень|ня|ней)|недел[юиь]"
    r"|месяц(?:а|ев)?|год(?:а)?|лет)\s{1,3}назад\b"
    r"|\d{1,3}\s?(?:秒|分钟|分|小时|時間|天|日|周|週間|个月|か月|ヶ月|年)前)",
    re.IGNORECASE,
)
"""How long ago a comment was posted, as comment systems stamp it, in English, German,
French, Spanish, Portuguese, Russian, Chinese and Japanese ("3 hours ago", "a day ago",
"vor 2 Tagen", "il y a 3 heures", "hace 2 días", "3 часа назад", "5小时前", "3時間前").
Every form starts with a digit or one of a, o, v, i, h: the lookahead lets the regex
engine skip other characters."""
_RELATIVE_HINTS = ("ago", "vor", "il y a", "hace", "há", "назад")
"""A word every alphabetic `_RELATIVE_RE` form holds (in lower case): a page's short lines
holding none of them (most pages) are not searched for one."""
_CJK_RELATIVE_HINT = "前"
"""What every Chinese and Japanese form holds: common in Chinese prose, so on a page whose
lines hold no other hint only the lines holding it are searched."""
_DIGITS_RE = re.compile(r"\d\d")
"""What every `_DATE_RE` match holds (a year, or a two-digit one closing the numeric form):
the cheap test before it, which most lines with a number fail."""
_TIME_RE = re.compile(r"(?=\d)\b\d{1,2}:\d\d(?::\d\d)?(?:\s?[ap]\.?m\.?)?", re.IGNORECASE)
_WORDS_RE = re.compile(r"(?=[^\W_])(?:[^\W\d_]+\.?|\d+)(?:\s(?:[^\W\d_]+\.?|\d+))*+")
"""A run of words (a name with its initials: "Carla M."), each run one placeholder."""


def thread_start(lines: Sequence[Line], region: tuple[int, int]) -> int | None:
    """The index of the first line of a comment thread closing `region`, or None."""
    first, last = region
    runs = _stamp_runs(lines, first, last)
    if not runs:
        return None
    prose_before = list(accumulate((_prose(line) for line in lines[first : last + 1]), initial=0))

    def prose(start: int, stop: int) -> int:
        """The prose chars of lines `start` to `stop` (exclusive), from the sums."""
        return prose_before[stop - first] - prose_before[start - first]

    for run in runs:
        pairs = list(pairwise(run))
        longest = max(prose(above + 1, below) for above, below in pairs)
        if prose(run[-1] + 1, last + 1) > ARTICLE_GOES_ON * longest:
            continue  # the article goes on after these dated lines
        start = run[0]
        if last - run[-1] < min(below - above for above, below in pairs):
            # no comment follows the last stamp: stamps close their comments
            start = _thread_heading(lines, first, run[0], max(b - a for a, b in pairs))
        if start > first and prose(first, start) >= MIN_ARTICLE_CHARS:
            return start
        return None
    return None


def _stamp_runs(lines: Sequence[Line], first: int, last: int) -> list[list[int]]:
    """Runs of `MIN_STAMPS` or more stamps of one form, most with a comment between two,
    earliest first. Comments are looked for only on pages with that many stamps, and
    counted once, so that many forms cost no more than one."""
    short = [
        (index, line.text)
        for index, line in enumerate(lines[first : last + 1], first)
        if 0 < line.chars <= MAX_STAMP_CHARS and not _is_link(line)
    ]
    relative = _relative_time_test("\n".join([text for _, text in short]))
    by_form: dict[str, list[int]] = {}
    for index, text in short:
        form = _form(text, relative)
        if form is not None:
            by_form.setdefault(form, []).append(index)
    candidates = [stamps for stamps in by_form.values() if len(stamps) >= MIN_STAMPS]
    if not candidates:
        return []
    comments_before = [0]
    for line in lines[first : last + 1]:
        comments_before.append(comments_before[-1] + _is_comment_text(line))

    def commented_gaps(stamps: list[int]) -> int:
        return sum(
            comments_before[below - first] > comments_before[above + 1 - first]
            for above, below in pairwise(stamps)
        )

    runs = [stamps for stamps in candidates if 2 * commented_gaps(stamps) >= len(stamps) - 1]
    return sorted(runs, key=lambda stamps: stamps[0])


def _form(text: str, relative: Callable[[str], bool] | None) -> str | None:
    """A dated line's words and marks with the date (or the time since posting, where the
    `relative` test finds one) and time taken out and every run of words reduced to ``w``
    (None for a line without a date or without a word beside it)."""
    if _DIGITS_RE.search(text) and _DATE_RE.search(text):
        undated = _DATE_RE.sub(" ", text)
    elif relative is not None and relative(text):
        undated = _RELATIVE_RE.sub(" ", text)
    else:
        return None
    form = _WORDS_RE.sub("w", " ".join(_TIME_RE.sub(" ", undated).split()))
    return form if "w" in form else None


def _relative_time_test(text: str) -> Callable[[str], bool] | None:
    """How to test a line of `text` (a page's short lines, joined) for the time since a
    comment was posted, or None where no line can hold one: the hints are looked for once
    for the page, not line by line."""
    if any(map(text.lower().__contains__, _RELATIVE_HINTS)):
        return _has_relative_time
    if _CJK_RELATIVE_HINT in text:
        return _has_cjk_relative_time
    return None


def _has_relative_time(text: str) -> bool:
    return _RELATIVE_RE.search(text) is not None


def _has_cjk_relative_time(text: str) -> bool:
    return _CJK_RELATIVE_HINT in text and _RELATIVE_RE.search(text) is not None


def _thread_heading(lines: Sequence[Line], first: int, stamp: int, reach: int) -> int:
    """Where the first comment starts when stamps close their comments: the nearest heading
    or dated line above the first stamp, within a comment's reach; else the stamp."""
    for index in range(stamp - 1, max(first, stamp - reach) - 1, -1):
        line = lines[index]
        dated = line.chars <= MAX_STAMP_CHARS and (
            _DATE_RE.search(line.text) is not None or _RELATIVE_RE.search(line.text) is not None
        )
        if dated or (line.chars <= MAX_HEADING_CHARS and not line.punctuation):
            return index
    return stamp


def _is_comment_text(line: Line) -> bool:
    """Prose that is no link and holds no date (a list's long dated items, such as
    references, are no comments between stamps)."""
    return (
        bool(line.punctuation)
        and line.chars >= MIN_COMMENT_CHARS
        and not _is_link(line)
        and _DATE_RE.search(line.text) is None
    )


def _prose(line: Line) -> int:
    """The line's chars if it is prose (punctuated, not a link), else 0."""
    return line.chars if line.punctuation and not _is_link(line) else 0


def _is_link(line: Line) -> bool:
    return 2 * line.link_chars >= line.chars
