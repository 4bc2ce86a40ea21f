"""Metadata benchmark: publication time, author and title, ours against the gold and the peers.

Gold: zh_cwce, the `sites` set and readability (scrapinghub has none of these fields, so there
we only count how often a value is returned; dragnet_dev's hand-copied text gives a title
only); peers: htmldate, trafilatura and GNE (when
installed), side by side with ours on zh_cwce and sites.

    .venv/bin/python bench/bench_metadata.py [--shared ../shared] [--repeat 3] [--no-peers]
        [--failures]

The field measures below are in-sample: the metadata rules were written with these pages in
view. ``bench/metadata_lodo.py`` gives the view that is not: each rule chosen on the other
gold datasets and scored on the one left out, with the pages and sites each rule decides and
fires on.

Peers table (zh_cwce and sites; ours is `extract_metadata` on the decoded text).
Date scoring (per page with a gold date): *correct* when ours equals the gold to the minute
(gold with a time) or to the day/month/year (gold with only those); ours counts only as far
as its precision goes (a "month" value is compared to the month, a "day" one to the day), so
*coarse* is ours agreeing with a more precise gold as far as it goes (a day for a gold with a
time, a month for a gold with a day); *wrong* otherwise; *missing* when we
give none. Pages whose gold says there is no date: *absent ok* when we give none,
*spurious* when we give one. Gold values that are not dates (e.g. a name) are skipped.
Author scoring (pages with a gold author): *match* when at least one gold name, with
spaces and punctuation removed, is contained in our author or source (same
normalisation); *all* when every gold name is.

Field measures (every dataset; ours is `extract(bytes, url)`, what a user gets):
- The gold *says none* (zh_cwce's UNKNOWN) or *is silent*: readability's null byline or
  publishedTime only means readability found none (it reads the time from meta tags and
  JSON-LD alone), so a value we return there is not judged but counted apart (and listed by
  --failures).
- Author *right*: our `author` alone (never `source` or `editor`) compared as names,
  case-folded with spaces and punctuation removed. The gold byline loses a leading label
  (By, Written by, Par, 作者, 文/ ...) and splits into names at commas, 、, |, ;, /, brackets,
  new lines, "and"/"und"/"et"/"y"/"avec"/"with", digits (dates in bylines), URLs and spaces
  between Chinese characters; parts made of role or date words only ("Staff writer",
  "March") are not names. Ours is right when it equals the whole byline or all its names run
  together, when each of its own names (split alike) is a gold name, or when its words are a
  run of the byline's words with at least two that are not such words (a whole name, not a
  fragment like "Staff"). So an outlet or an editor in `author` is wrong unless the gold
  names it, and so is a label or extra word next to the right name ("总台记者 张倩",
  "zboygirl 阅读"). *precision* = right / judged values returned (a value where the gold
  says none is wrong); the lower bound also counts values where the gold is silent as
  wrong; *recall* = right / pages naming an author. *in author or source*: a gold name
  contained in our author and source run together (the peers table's lenient rule, with
  these names).
- Date *right to the day*: on pages whose gold has a date, ours (at least as precise as the
  gold, up to the day) on the gold's calendar day. An offset in the gold (readability)
  is the zone to compare in; without one, zh_cwce and sites are Beijing time as shown, and a
  readability time is compared in the offset we found (both as the page wrote them).
  *spurious*: a date where the gold says there is none.
- Title *exact*: the default method's headline equal to the gold after whitespace
  normalisation (sites: the headline without the site suffix; readability: its own title;
  dragnet_dev: the first line of its hand-copied text, usually the headline as shown).
  *opens the gold*: the gold's words start with ours, and ours are at least half of them
  (a date or a comment count copied onto the headline's line is no miss there).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path

from lxml.html import document_fromstring
from recorded import recorded

from newscrawl.evaluation.datasets import Page as DatasetPage
from newscrawl.evaluation.datasets import load_dataset
from newscrawl.extract import extract
from newscrawl.extract.decode import decode_html
from newscrawl.extract.metadata import SHANGHAI, Metadata, extract_metadata

ROOT = Path(__file__).resolve().parents[1]
GOLD_DATE_RE = re.compile(
    r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[ T](\d{1,2})[-:](\d{2})(?:[-:](\d{2}))?)?)?)?$"
)
_NAME_NOISE_RE = re.compile(r"[\s\u3000、,，;；%·•&()（）\[\]【】:：/]+")
ABSENT = {"UNKNOWN", "UNKNWON", "NONE", "NULL"}
PRECISION_FIELDS = {"month": 2, "day": 3}
"""How many of (y, m, d, H, M) a value of that precision fixes (all five otherwise)."""
GOLD_ISSUES = {
    (
        "05e98007",
        "date",
    ): "page says 发布日期 7/5/2005 9:23:57 PM (US order, the text reports 2005-07-03); "
    "gold swapped month and day",
    ("0ef8393b", "date"): "same instant: gold is the page's Paris wall clock (13:48 CET = 12:48Z), "
    "we report it in Shanghai time (20:48)",
    ("c3f7d079", "date"): "gold is the 2003年5月 report date in the body; the portal byline says "
    "2005-03-06 16:17:00",
    ("d5bced5e", "date"): "Wikipedia: gold is a maintenance-notice date "
    "(此条目需要补充更多来源 2020年4月17日); "
    "JSON-LD datePublished is 2011-06-17",
    (
        "e8847578",
        "date",
    ): "government notice: gold is 成文日期 (written 01-27), the page's 发布日期 and meta "
    "PubDate are 01-28",
    ("274a65d9", "date"): "gold says no date; the e-paper page shows its issue date 2022年02月12日",
    (
        "6dc2d508",
        "date",
    ): "gold says no date; the forum's first post shows 时间：2005-08-28 20:56:20",
    (
        "2bac7fb2",
        "author",
    ): "gold author is the editor (编辑：山石); editors fill `editor`, not `author`",
    ("33a95b71", "author"): "gold author is the editor (责任编辑：魏喆)",
    ("500b350d", "author"): "gold author is the editor (编辑：苏亮)",
    ("8baa71e3", "author"): "gold author is the editor (责任编辑：刘林源)",
    ("d5bced5e", "author"): "Wikipedia: gold says no author; the JSON-LD author is the "
    "Organization 维基媒体项目贡献者 (readability's gold names its English twin as the byline)",
    ("salon-1", "author"): "gold names the writer of another story higher on the page; the "
    "byline under the headline links Richard (R.J.) Eskow as rel=author",
    ("people-article-4", "author"): "the lead credits 本报讯（记者叶婉）; the gold gives the "
    "outlet 北京青年报",
    ("xinhua-article-3", "author"): "the dateline credits 新华社乌鲁木齐5月9日电（记者邹伟）; the "
    "gold gives the outlet 新华网",
}
"""Misses we judge to be gold defects or conventions (checked by hand against the page), shown
next to the failure so that they are not mistaken for extractor bugs."""
GOLD_NOT_A_NAME = {
    "royal-road": "the byline is the text of a 'Follow Author' button",
    "seattletimes-1": "the byline is the date line",
    "spiceworks": "the byline is a 'Last Updated:' date line",
}
"""readability bylines that name nobody: the gold is silent on these pages' author."""
_LABEL_RE = re.compile(
    r"^\s*(?:(?:(?:written|edited|posted|reported)\s+)?by(?=[\s:：])|par\s|por\s|von\s|avec\s|with\s"
    r"|作者|记者|記者|撰文|文\s*[/／])[\s:：]*",
    re.IGNORECASE,
)
_NAME_SPLIT_RE = re.compile(
    r"\S+://\S*|[\n|,，、;；/／()（）\[\]【】]|\d+|\s(?:and|und|et|y|avec|with)\s"
    r"|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])",
    re.IGNORECASE,
)
NON_NAME_WORDS = frozenset(
    (
        *("staff", "writer", "writers", "reporter", "correspondent", "editor", "editors"),
        *("contributor", "contributing", "senior", "special", "news", "desk", "wire"),
        *("updated", "last", "follow", "author", "am", "pm", "at", "ma", "phd"),
        *("记者", "编辑", "责任编辑", "特约", "通讯员", "实习生"),
        *("january", "february", "march", "april", "june", "july", "august"),
        *("september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun"),
        *("jul", "aug", "sep", "sept", "oct", "nov", "dec"),
    )
)
"""Roles and date words: a byline part made of these alone names no one."""


@dataclass(frozen=True)
class Page:
    name: str
    html: bytes
    """As saved: the field measures run `extract` on bytes, as a user does."""
    text: str
    """Decoded at load, outside the timings: the peers and `extract_metadata` take text."""
    url: str | None
    gold_date: str | None
    """Raw gold value; None when the gold says the page has no date, "" when it is silent."""
    gold_author: str | None
    """Likewise: None when the gold says the page names no author, "" when it is silent."""
    gold_title: str | None = None
    gold_zone: tzinfo | None = SHANGHAI
    """The zone of a gold time written without an offset; None: the offset we found (both as
    the page wrote them)."""


@dataclass(frozen=True)
class Guess:
    fields: tuple[int, ...] | None
    """(y, m[, d[, H, M]]) of the guessed time, as far as its precision goes, or None."""
    author: str = ""


@dataclass
class Score:
    correct: int = 0
    coarse: int = 0
    wrong: int = 0
    missing: int = 0
    absent_ok: int = 0
    spurious: int = 0
    skipped: int = 0
    author_total: int = 0
    author_match: int = 0
    author_all: int = 0
    seconds: float = 0.0
    pages: int = 0
    failures: list[str] = field(default_factory=list)


def load_zh_cwce(shared: Path) -> list[Page]:
    base = shared / "datasets" / "zh_cwce"
    pages = []
    for page in load_dataset("zh_cwce", shared).pages:
        date = (base / "date" / f"{page.id}.txt").read_text("utf-8").strip()
        author = (base / "author" / f"{page.id}.txt").read_text("utf-8").strip()
        pages.append(
            Page(
                page.id[:8],
                page.html,
                decode_html(page.html).text,
                None,
                None if date.upper() in ABSENT else date,
                None if author.upper() in ABSENT else author,
            )
        )
    return pages


def load_sites(shared: Path) -> list[Page]:
    base = shared / "datasets" / "sites"
    pages = []
    for page in load_dataset("sites", shared).pages:
        name = page.id.replace("/", "-")
        gold = json.loads((base / "gold" / f"{name}.json").read_text("utf-8"))
        pages.append(
            Page(
                name,
                page.html,
                decode_html(page.html).text,
                gold.get("url"),
                gold.get("published"),
                gold.get("author"),
                gold.get("title"),
            )
        )
    return pages


def load_readability(shared: Path) -> list[Page]:
    """Its gold is mozilla/readability's expected metadata; null is silence, not "none"."""
    gold = json.loads((shared / "datasets" / "readability" / "gold.json").read_text("utf-8"))
    return [
        _offset_page(
            page,
            gold[page.id]["published"] or "",
            "" if page.id in GOLD_NOT_A_NAME else gold[page.id]["byline"] or "",
            gold[page.id]["title"],
        )
        for page in load_dataset("readability", shared).pages
    ]


def _offset_page(page: DatasetPage, date: str, author: str, title: str) -> Page:
    """A dataset page with its gold date, author and title; a gold time without an offset
    is compared in the offset we found (both as the page wrote them)."""
    return Page(
        page.id, page.html, decode_html(page.html).text, page.url, date, author, title, None
    )


def load_dragnet(shared: Path) -> list[Page]:
    """Body gold only, copied by hand from the rendered page: its first line is the gold
    title (usually the headline, sometimes with a date or a count, sometimes a byline), and
    a date written out in its first `DRAGNET_DATE_LINES` lines is the gold date (the
    byline's, as shown; silent where none is)."""
    return [
        _offset_page(page, shown_date(str(page.gold)), "", str(page.gold).strip().split("\n", 1)[0])
        for page in load_dataset("dragnet_dev", shared).pages
    ]


DRAGNET_DATE_LINES = 4
"""The gold's lines a byline's date is read from: the headline, the byline, a dateline."""
_SHOWN_DATE_FORMATS = ("%B %d %Y", "%b %d %Y")
_SHOWN_DATE_RE = re.compile(
    r"\b(?:([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)?\s+"
    r"([A-Za-z]{3,9})\.?),?\s+((?:19|20)\d\d)\b"
)


def shown_date(gold: str) -> str:
    """The first date written with its month's name in the gold's opening lines, as
    YYYY-MM-DD ("" for none): parsed here by ``datetime.strptime``, not by the extractor."""
    opening = " ".join(gold.strip().split("\n")[:DRAGNET_DATE_LINES])
    for match in _SHOWN_DATE_RE.finditer(opening):
        month, day = (match[1], match[2]) if match[1] else (match[4], match[3])
        for form in _SHOWN_DATE_FORMATS:
            try:
                shown = datetime.strptime(f"{month} {day} {match[5]}", form)
            except ValueError:
                continue
            return shown.strftime("%Y-%m-%d")
    return ""


def load_scrapinghub(shared: Path) -> list[Page]:
    """Body gold only: the field measures say how often we return a value, nothing more."""
    return [
        Page(page.id, page.html, decode_html(page.html).text, page.url, "", "")
        for page in load_dataset("scrapinghub", shared).pages
    ]


def gold_fields(value: str) -> tuple[int, ...] | None:
    match = GOLD_DATE_RE.match(value.strip())
    if not match:
        return None
    parts = [int(p) for p in match.groups()[:5] if p is not None]
    return tuple(parts)


def names(value: str) -> list[str]:
    return [
        n for n in (_NAME_NOISE_RE.sub("", part) for part in re.split(r"[\s、,，]+", value)) if n
    ]


def _norm(value: str) -> str:
    return re.sub(r"[\W_]+", "", value.casefold())


def _words(value: str) -> list[str]:
    return re.findall(r"[^\W_]+", value.casefold())


def byline_names(value: str, *, labels: bool = True) -> list[str]:
    """The normalised names of a byline (`labels`: with the By/作者 labels that lead it or
    its parts dropped); parts made of role or date words only are not names."""
    if labels:
        value = _LABEL_RE.sub("", value)
    found = []
    for part in _NAME_SPLIT_RE.split(value):
        if labels:
            part = _LABEL_RE.sub("", part)
        words = _words(part)
        if words and not all(word in NON_NAME_WORDS for word in words):
            found.append(_norm(part))
    return found


def author_right(ours: str, gold: str) -> bool:
    """Whether our author names the byline's author(s) and nothing else (module docstring)."""
    mine = _norm(ours)
    if not mine:
        return False
    byline = _LABEL_RE.sub("", gold)
    gold_names = byline_names(byline)
    if mine in (_norm(byline), "".join(gold_names)):
        return True
    own = byline_names(ours, labels=False)
    if own and all(name in gold_names for name in own):
        return True
    words, gold_words = _words(ours), _words(byline)
    if sum(word not in NON_NAME_WORDS for word in words) < 2:
        return False
    return any(
        gold_words[i : i + len(words)] == words for i in range(len(gold_words) - len(words) + 1)
    )


def gold_day(value: str) -> tuple[tuple[int, ...], tzinfo | None] | None:
    """(y[, m[, d]]) of a gold date and the offset it is written with (None without one);
    None when the value is not a date."""
    fields = gold_fields(value)
    if fields is not None:
        return fields[:3], None
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return (when.year, when.month, when.day), when.tzinfo


def right_day(
    published: datetime,
    precision: str | None,
    gold: tuple[tuple[int, ...], tzinfo | None],
    zone: tzinfo | None,
) -> bool:
    """Whether our time falls on the `gold_day` (in the gold's offset, else in `zone`, else in
    ours), or in its month or year when the gold goes no further; ours must go as far."""
    fields, offset = gold
    offset = offset or zone
    local = published.astimezone(offset) if offset else published
    ours = (local.year, local.month, local.day)[: PRECISION_FIELDS.get(precision or "", 3)]
    return len(ours) >= len(fields) and ours[: len(fields)] == fields


def score(
    pages: list[Page], guess: Callable[[Page], Guess], repeat: int, *, peer: bool = True
) -> Score:
    """Runs `guess` on every page; a peer that raises gives nothing, ours must not raise."""
    result = Score()
    guesses = {}
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            try:
                guesses[page.name] = guess(page)
            except Exception as error:  # a peer crashing counts as giving nothing
                if not peer:
                    raise
                guesses[page.name] = Guess(None)
                result.failures.append(f"{page.name}: {type(error).__name__}")
    result.seconds = time.perf_counter() - start
    result.pages = len(pages) * repeat
    for page in pages:
        ours = guesses[page.name]
        _score_date(result, page, ours)
        if page.gold_author:
            result.author_total += 1
            have = _NAME_NOISE_RE.sub("", ours.author)
            gold = names(page.gold_author)
            hits = [name in have for name in gold] if have else [False]
            result.author_match += any(hits)
            result.author_all += all(hits)
            if not any(hits) and not peer:
                result.failures.append(
                    f"{page.name}: author: gold {page.gold_author!r} got {ours.author!r}"
                    f"{_gold_note(page, 'author')}"
                )
    return result


def _score_date(result: Score, page: Page, ours: Guess) -> None:
    if page.gold_date is None:
        if ours.fields is None:
            result.absent_ok += 1
        else:
            result.spurious += 1
            result.failures.append(
                f"{page.name}: date: gold none got {ours.fields}{_gold_note(page)}"
            )
        return
    gold = gold_fields(page.gold_date)
    if gold is None:
        result.skipped += 1
        return
    if ours.fields is None:
        result.missing += 1
        result.failures.append(f"{page.name}: date: gold {page.gold_date} got none")
    elif ours.fields[: len(gold)] == gold:
        result.correct += 1
    elif len(ours.fields) < len(gold) and ours.fields == gold[: len(ours.fields)]:
        result.coarse += 1
    else:
        result.wrong += 1
        result.failures.append(
            f"{page.name}: date: gold {page.gold_date} got {ours.fields}{_gold_note(page)}"
        )


def _gold_note(page: Page, field: str = "date") -> str:
    note = GOLD_ISSUES.get((page.name, field))
    return f"  [gold issue: {note}]" if note else ""


def ours(page: Page) -> Guess:
    meta = extract_metadata(page.text, page.url)
    author = " ".join(filter(None, (meta.author, meta.source)))
    if meta.published is None:
        return Guess(None, author)
    local = meta.published.astimezone(SHANGHAI)
    full = (local.year, local.month, local.day, local.hour, local.minute)
    return Guess(full[: PRECISION_FIELDS.get(meta.published_precision or "", 5)], author)


def _fields_from_string(value: str | None) -> tuple[int, ...] | None:
    if not value:
        return None
    match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?", str(value))
    if not match:
        return None
    parts = tuple(int(p) for p in match.groups() if p is not None)
    return parts[:3] if parts[3:] == (0, 0) else parts


def peers() -> dict[str, Callable[[Page], Guess]]:
    """The peers that are installed (the `bench` extra installs them)."""
    found: dict[str, Callable[[Page], Guess]] = {}
    try:
        from htmldate import find_date
    except ImportError:
        pass
    else:

        def htmldate_fast(page: Page) -> Guess:
            value = find_date(
                page.text,
                url=page.url,
                extensive_search=False,
                original_date=True,
                outputformat="%Y-%m-%d %H:%M",
            )
            return Guess(_fields_from_string(value))

        def htmldate_extensive(page: Page) -> Guess:
            value = find_date(
                page.text,
                url=page.url,
                extensive_search=True,
                original_date=True,
                outputformat="%Y-%m-%d %H:%M",
            )
            return Guess(_fields_from_string(value))

        found["htmldate (fast)"] = htmldate_fast
        found["htmldate (extensive)"] = htmldate_extensive
    try:
        import trafilatura
    except ImportError:
        pass
    else:

        def trafilatura_meta(page: Page) -> Guess:
            meta = trafilatura.extract_metadata(page.text, default_url=page.url)
            if meta is None:
                return Guess(None)
            author = " ".join(filter(None, (meta.author, meta.sitename)))
            return Guess(_fields_from_string(meta.date), author)

        found["trafilatura"] = trafilatura_meta
    try:
        from gne import GeneralNewsExtractor
    except ImportError:
        pass
    else:

        def gne(page: Page) -> Guess:
            result = GeneralNewsExtractor().extract(page.text)
            return Guess(
                _fields_from_string(result.get("publish_time")), result.get("author") or ""
            )

        found["GNE"] = gne
    return found


@dataclass
class Fields:
    """Field measures of ours on one dataset (module docstring); judged values only in
    `*_right`/`*_wrong`, values where the gold is silent in `*_silent`."""

    pages: int = 0
    author_returned: int = 0
    author_gold: int = 0
    author_right: int = 0
    author_wrong: int = 0
    author_silent: int = 0
    author_in_either: int = 0
    date_returned: int = 0
    date_gold: int = 0
    date_right: int = 0
    date_wrong: int = 0
    date_skipped: int = 0
    date_gold_none: int = 0
    date_spurious: int = 0
    date_silent: int = 0
    title_returned: int = 0
    title_gold: int = 0
    title_exact: int = 0
    title_opening: int = 0
    failures: dict[str, list[str]] = field(default_factory=dict)
    """Failure lines by kind ("author wrong", "date missing" ...), for --failures."""

    def fail(self, kind: str, line: str) -> None:
        self.failures.setdefault(kind, []).append(line)


def field_measures(pages: list[Page]) -> Fields:
    """Runs `extract(bytes, url)` once per page and scores its title and metadata."""
    result = Fields(pages=len(pages))
    for page in pages:
        article = extract(page.html, page.url)
        _measure_author(result, page, article.metadata)
        _measure_date(result, page, article.metadata)
        result.title_returned += bool(article.title)
        if page.gold_title is not None:
            result.title_gold += 1
            ours, gold = article.title.split(), page.gold_title.split()
            result.title_exact += ours == gold
            result.title_opening += bool(ours) and _opens(ours, gold)
            if ours != gold:
                result.fail(
                    "title", f"{page.name}: ours {article.title!r} gold {page.gold_title!r}"
                )
    return result


def _opens(ours: list[str], gold: list[str]) -> bool:
    """Whether the words `gold` start with the words `ours`, at least half of them."""
    return gold[: len(ours)] == ours and 2 * len(ours) >= len(gold)


def _measure_author(result: Fields, page: Page, meta: Metadata) -> None:
    ours = meta.author or ""
    result.author_returned += bool(ours)
    line = f"{page.name}: ours {ours!r} gold {page.gold_author!r}{_gold_note(page, 'author')}"
    if page.gold_author:
        result.author_gold += 1
        gold_names = byline_names(page.gold_author)
        either = _norm(" ".join(filter(None, (meta.author, meta.source))))
        result.author_in_either += any(name in either for name in gold_names)
        if author_right(ours, page.gold_author):
            result.author_right += 1
        elif ours:
            result.author_wrong += 1
            result.fail("author wrong", line)
        else:
            result.fail("author missing", line)
    elif ours and page.gold_author is None:
        result.author_wrong += 1
        result.fail("author wrong", line)
    elif ours:
        result.author_silent += 1
        result.fail("author where the gold is silent", f"{page.name}: ours {ours!r}")


def _measure_date(result: Fields, page: Page, meta: Metadata) -> None:
    ours = (
        f"{meta.published.isoformat()} ({meta.published_precision}, {meta.published_source})"
        if meta.published
        else "none"
    )
    result.date_returned += meta.published is not None
    line = f"{page.name}: ours {ours} gold {page.gold_date}{_gold_note(page)}"
    if page.gold_date is None:
        result.date_gold_none += 1
        if meta.published is not None:
            result.date_spurious += 1
            result.fail("date spurious", line)
    elif not page.gold_date:
        if meta.published is not None:
            result.date_silent += 1
            result.fail("date where the gold is silent", f"{page.name}: ours {ours}")
    elif (day := gold_day(page.gold_date)) is None:
        result.date_skipped += 1
    else:
        result.date_gold += 1
        if meta.published is None:
            result.fail("date missing", line)
        elif right_day(meta.published, meta.published_precision, day, page.gold_zone):
            result.date_right += 1
        else:
            result.date_wrong += 1
            result.fail("date wrong", line)


def print_table(title: str, rows: dict[str, Score]) -> None:
    print(f"\n## {title}\n")
    print(
        "| extractor | dates | correct | coarse | wrong | missing | absent ok | spurious "
        "| skipped | author match | author all | pages/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, s in rows.items():
        dated = s.correct + s.coarse + s.wrong + s.missing
        rate = f"{s.correct}/{dated} ({100 * s.correct / max(1, dated):.1f}%)"
        share = 100 * s.author_match / max(1, s.author_total)
        author = f"{s.author_match}/{s.author_total} ({share:.1f}%)"
        print(
            f"| {name} | {dated} | {rate} | {s.coarse} | {s.wrong} | {s.missing} | {s.absent_ok} "
            f"| {s.spurious} | {s.skipped} | {author} | {s.author_all} "
            f"| {s.pages / max(s.seconds, 1e-9):.0f} |"
        )


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "–"


def print_fields(rows: dict[str, Fields]) -> None:
    """The field measures of every dataset: author, published and title tables."""
    print(
        "\n## Field measures (ours: `extract(bytes, url)`; in-sample: the metadata rules "
        "were written with these pages in view)\n"
    )
    print(
        "| dataset | pages | author returned | gold names an author | right | wrong | precision "
        "| precision, silent gold as wrong | recall | gold name in author or source |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, f in rows.items():
        judged = f.author_right + f.author_wrong
        lower = _share(f.author_right, judged + f.author_silent) if judged else "–"
        print(
            f"| {name} | {f.pages} | {_share(f.author_returned, f.pages)} | {f.author_gold} "
            f"| {f.author_right} | {f.author_wrong} | {_share(f.author_right, judged)} | {lower} "
            f"| {_share(f.author_right, f.author_gold)} "
            f"| {_share(f.author_in_either, f.author_gold)} |"
        )
    print(
        "\n| dataset | date returned | gold has a date | right to the day | wrong | missing "
        "| gold not a date | gold says none | spurious | dated where gold silent |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, f in rows.items():
        missing = f.date_gold - f.date_right - f.date_wrong
        print(
            f"| {name} | {_share(f.date_returned, f.pages)} | {f.date_gold} "
            f"| {_share(f.date_right, f.date_gold)} | {f.date_wrong} | {missing} "
            f"| {f.date_skipped} | {f.date_gold_none} "
            f"| {_share(f.date_spurious, f.date_gold_none)} | {f.date_silent} |"
        )
    print(
        "\n| dataset | title returned | gold titles | exact | opens the gold |"
        "\n|---|---|---|---|---|"
    )
    for name, f in rows.items():
        print(
            f"| {name} | {_share(f.title_returned, f.pages)} | {f.title_gold} "
            f"| {_share(f.title_exact, f.title_gold)} | {_share(f.title_opening, f.title_gold)} |"
        )


FAILURE_KINDS = (
    "author wrong",
    "author missing",
    "author where the gold is silent",
    "date wrong",
    "date missing",
    "date spurious",
    "date where the gold is silent",
    "title",
)
"""The order of --failures' groups (the kinds `_measure_author` and friends record)."""


def print_field_failures(rows: dict[str, Fields]) -> None:
    """Every failure by dataset and kind; values where the gold is silent are listed only on a
    dataset with gold for that field (elsewhere, as on scrapinghub, they are only counted)."""
    for name, f in rows.items():
        print(f"\n### {name}: field failures")
        graded = {"author": f.author_gold, "date": f.date_gold}
        listed = [
            kind
            for kind in FAILURE_KINDS
            if f.failures.get(kind) and ("silent" not in kind or graded[kind.split()[0]])
        ]
        if not listed:
            print("\nnone listed (no gold to judge against)")
        for kind in listed:
            print(f"\n{kind} ({len(f.failures[kind])}):")
            for line in f.failures[kind]:
                print("  -", line)


def speed(pages: list[Page], repeat: int) -> dict[str, float]:
    """Pages/s of the parse alone, of ours on text (parse included) and on a parsed tree
    (what `extract()` pays when it shares its parse with the metadata step)."""
    trees = [document_fromstring(page.text) for page in pages]
    timings: dict[str, float] = {}
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            document_fromstring(page.text)
    timings["lxml parse only"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            extract_metadata(page.text, page.url)
    timings["newscrawl, from text"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for page, tree in zip(pages, trees, strict=True):
            extract_metadata(tree, page.url)
    timings["newscrawl, from a parsed tree"] = time.perf_counter() - start
    return {name: len(pages) * repeat / seconds for name, seconds in timings.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page for pages/s (ours)")
    parser.add_argument(
        "--failures",
        action="store_true",
        help="list our wrong, missing and spurious dates and authors (gold issues noted)",
    )
    parser.add_argument(
        "--no-peers", action="store_true", help="leave the peers out of the tables (quick runs)"
    )
    args = parser.parse_args(argv)
    installed = {} if args.no_peers else peers()
    for title, loader in (("zh_cwce", load_zh_cwce), ("sites", load_sites)):
        pages = loader(args.shared)
        rows = {"newscrawl": score(pages, ours, args.repeat, peer=False)}
        for name, peer in installed.items():
            rows[name] = score(pages, peer, 1)
        print_table(f"{title} ({len(pages)} pages)", rows)
        print("\n| speed | pages/s |\n|---|---|")
        for name, rate in speed(pages, args.repeat).items():
            print(f"| {name} | {rate:.0f} |")
        if args.failures:
            for line in rows["newscrawl"].failures:
                print("  -", line)
    fields = {
        title: field_measures(loader(args.shared))
        for title, loader in (
            ("zh_cwce", load_zh_cwce),
            ("sites", load_sites),
            ("scrapinghub", load_scrapinghub),
            ("readability", load_readability),
            ("dragnet_dev", load_dragnet),
        )
    }
    print_fields(fields)
    if args.failures:
        print_field_failures(fields)
    return 0


if __name__ == "__main__":
    with recorded("metadata", "Metadata: publish time, author and title"):
        raise SystemExit(main())
