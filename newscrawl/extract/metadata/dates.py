"""The publication time of a page, with its precision and the evidence it came from.

Structured evidence in order of trust: schema.org JSON-LD `datePublished`, `<meta>` tags,
`<time datetime>`/`itemprop=datePublished`, attributes such as `data-publishtime`,
microformats' `<abbr class="published" title>`, inline script variables (CSDN's
`postTime`, cnblogs' `currentPostDateAdded`). Then the visible byline next to the
headline; failing that, the first publish-labelled date anywhere (发表于, posted @: blogs
put it below the post), and on pages whose headline cannot be found, the first date with a
time above the body text. A page that writes no date at all is dated by the day its
address spells as a permalink does (``/2012/10/25/slug/``). Only when the page has no
full date at all does a month do: a labelled month near the headline
(出版日期：1998年3月) or a line citing a print issue (——《某某月刊》1998年3月号),
with precision "month".

When a structured date and a visible one both exist and agree within a day, the visible
time is kept (in the structured date's zone, where the visible one wrote none: an English
byline's "8:02 PM" beside a meta time in UTC): it is what readers see, and on the gold
pages CMS meta times are sometimes index or update times (Sina: meta 05:54, byline and
gold 00:26). When they disagree the structured date wins, since the byline search may have
caught another article's date; so does a structured time that says the same or more: the
byline's time to the second, or, in UTC, a zone-less byline time whole half hours from it,
the same instant on the site's clock ("8:03 a.m." beside "13:03Z").

Times without a zone are read in Asia/Shanghai (the portals' zone), or the caller's zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any, Literal
from zoneinfo import ZoneInfo

from newscrawl.extract.blocks import DatedTag
from newscrawl.extract.clean import tag_attributes, unescape
from newscrawl.extract.metadata.bylines import opens_with_a_byline
from newscrawl.extract.metadata.lines import (
    Keyword,
    PageText,
    VisibleLine,
    link_list_items,
    reads_as_body,
)
from newscrawl.extract.metadata.patterns import any_case, not_after, one_of
from newscrawl.extract.metadata.scripts import PageScripts, ScriptTimestamps, ScriptVariables

Precision = Literal["month", "day", "minute", "second"]
"""How far a value can be trusted; a "month" value is the first day of its month."""
SHANGHAI = ZoneInfo("Asia/Shanghai")
MIN_YEAR = 1980
AGREEMENT = timedelta(days=1)
MAX_SEARCHED_LINES = 50
MAX_SEARCHED_CHARS = 500
"""Bounds of the whole-page date searches (a labelled date anywhere, a timed date above
the body): a byline is among the first lines that carry a label or a date, and near the
start of its line. A page with a thousand such lines (a script pasted as text) would
otherwise cost a date search over every one of them."""
"""A byline within this distance of the structured date refines it (see module docstring)."""
FUTURE_SLACK = timedelta(days=1)

META_KEYS = (
    "article:published_time",
    "og:article:published_time",
    "datepublished",
    "og:release_date",
    "publishdate",
    "publish_date",
    "publish-date",
    "pubdate",
    "pubtime",
    "publishtime",
    "publish_time",
    "weibo: article:create_at",
    "parsely-pub-date",
    "sailthru.date",
    "article.published",
    "originalpublicationdate",
    "dc.date.issued",
    "dcterms.issued",
    "dcterms.created",
    "citation_publication_date",
    "citation_date",
    "prism.publicationdate",
    "dc.date",
    "dcterms.date",
    "date",
    "og:published_time",
    "release_date",
)
"""Meta names/properties that carry the publication time, most specific first."""
ATTRIBUTES = ("data-publishtime", "data-publish-time", "data-pubtime", "data-ptime", "data-time")
_SCRIPT_TIMES = ScriptVariables(
    (
        "postTime",
        "publishTime",
        "publish_time",
        "pubTime",
        "pubtime",
        "publishDate",
        "pub_date",
        "ptime",
        "pagepubtime",
        "currentPostDateAdded",
        "cb_entryCreatedDate",
    ),
    min_chars=8,
    max_chars=40,
)
_SCRIPT_EPOCHS = ScriptTimestamps(
    ("ct", "publish_time", "publishTime", "pubTime", "create_time", "createTime", "ptime")
)
"""Unix times in script state: WeChat's ``var ct = "1701234567"``, Toutiao-style JSON
``"publishTime": 1701234567``."""
SCRIPT_NAMES = frozenset(_SCRIPT_EPOCHS.names + _SCRIPT_TIMES.names)
"""The names this module looks for in a page's scripts (`PageScripts`)."""
_TIME = (
    r"(?:\s*(?:T|\s)?\s*(?:星期.|周.)?\s*(?P<half>上午|下午|晚上|早上|凌晨|中午)?\s*"
    r"(?P<H>\d{1,2})\s*[:：时点]\s*(?P<M>\d{2})(?:\s*[:：分]\s*(?P<S>\d{2}))?(?:\.\d+)?\s*秒?"
    r"\s*(?P<ampm>[AaPp]\.?[Mm]\.?(?![A-Za-z]))?\s*(?P<tz>Z|[+-]\d{2}:?\d{2}(?!\d))?)?"
)
_YEAR = "(?P<y>" + one_of([not_after(r"\d", "1") + "9", not_after(r"\d", "2") + "0"]) + r"\d{2})"
"""A year from 1900 to 2099 that follows no digit. The date patterns start with their first
digit, not with the look-behind before it (`patterns.not_after`), so that the regex engine
skips ahead to digits."""
_YMD_RE = re.compile(
    _YEAR + r"(?:\s*[-/.年]\s*|\s+(?=\d{1,2}/))(?P<m>\d{1,2})\s*[-/.月]\s*"
    r"(?P<d>\d{1,2})(?!\d)\s*日?" + _TIME
)
_MDY_RE = re.compile(
    "(?P<m>"
    + not_after(r"[\d/]", r"\d")
    + r"\d?)/(?P<d>\d{1,2})/(?P<y>(?:19|20)\d{2})(?!\d)"
    + _TIME
)
MONTH_NAMES = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan", "januar", "janvier", "enero"),
            ("february", "feb", "februar", "février", "fevrier", "febrero"),
            ("march", "mar", "märz", "maerz", "mär", "mars", "marzo"),
            ("april", "apr", "avril", "abril"),
            ("may", "mai", "mayo"),
            ("june", "jun", "juni", "juin", "junio"),
            ("july", "jul", "juli", "juillet", "julio"),
            ("august", "aug", "août", "aout", "agosto"),
            ("september", "sept", "sep", "septembre", "septiembre", "setiembre"),
            ("october", "oct", "oktober", "okt", "octobre", "octubre"),
            ("november", "nov", "novembre", "noviembre"),
            ("december", "dec", "dezember", "dez", "décembre", "decembre", "diciembre"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
"""Month names and their abbreviations, lower case: English, German, French and Spanish."""
_NAMED_MONTH = r"(?P<month>" + "|".join(sorted(MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_ORDINAL = r"(?:st|nd|rd|th|\.|er)?"
ZONE_NAMES = {
    "utc": 0, "gmt": 0, "est": -5, "edt": -4, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8,
    "pdt": -7, "akst": -9, "akdt": -8, "hst": -10, "bst": 1, "cet": 1, "cest": 2, "mez": 1,
    "mesz": 2, "jst": 9, "kst": 9, "hkt": 8, "sgt": 8, "aest": 10, "aedt": 11,
}  # fmt: skip
"""Zone abbreviations a byline writes after its time ("6:33 PM EST"), as hours from UTC;
read in capitals only (the French "à 14h05 est …" is a verb). The ambiguous ones are left
out (CST: China's or US Central; IST: India's, Israel's or Ireland's), so the page's zone
applies to them."""
_ZONE_NAME = "(?-i:" + "|".join(ZONE_NAMES).upper() + r")(?![A-Za-z])"
_NAMED_TIME = (
    r"(?:(?:\s*(?:,|at\b|@|-|–|um\b|à\b)\s*|\s*)(?P<H>\d{1,2})[:h](?P<M>\d{2})(?::(?P<S>\d{2}))?"
    r"\s*(?P<ampm>[AaPp]\.?[Mm]\.?(?![A-Za-z]))?"
    r"(?:\s*\(?(?P<tz>[+-]\d{2}:?\d{2}(?!\d)|" + _ZONE_NAME + "))?)?"
)
_NAMED_MDY_RE = re.compile(
    r"\b" + _NAMED_MONTH + r"\s+(?P<d>\d{1,2})" + _ORDINAL
    + r",?\s+(?P<y>(?:19|20)\d{2})(?!\d)" + _NAMED_TIME,
    re.IGNORECASE,
)  # fmt: skip
_NAMED_DMY_RE = re.compile(
    r"(?<!\d)(?P<d>\d{1,2})" + _ORDINAL + r"\s+(?:of\s+|de\s+)?" + _NAMED_MONTH
    + r",?\s+(?:de\s+)?(?P<y>(?:19|20)\d{2})(?!\d)" + _NAMED_TIME,
    re.IGNORECASE,
)  # fmt: skip
"""Dates with the month's name ("January 31, 2011", "Aug. 28th, 2012 at 3:04pm", "20 July
2012", "8. November 2021", "1er février 2022", "8 de noviembre de 2021"): the bylines of
English, German, French and Spanish sites, which rarely write the month as a number. Read
only in lines holding a year and none of the numeric forms."""
_SHORT_YMD_RE = re.compile(
    "(?P<y>" + not_after(r"[\d/.-]", r"\d") + r"\d)(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)"
    r"(?P<d>\d{1,2})(?![\d/.-])" + _TIME
)
"""A date with a two-digit year ("21-06-15 09:30"); read only after a Chinese publish
label ("发布时间：21-06-15"), whose pages write year-month-day: alone, or after an English
label ("Written by ... on 19/10/12", 19 October 2012), it may as well be day-month-year."""
_MD_TIME_RE = re.compile(
    "(?P<m>" + not_after(r"[\d/.-]", r"\d") + r"\d?)\s*[-/月]\s*(?P<d>\d{1,2})\s*日?(?!\d)\s*"
    r"(?P<H>\d{1,2})[:：](?P<M>\d{2})(?::(?P<S>\d{2}))?(?!\d)"
)
"""A year-less byline ("05/09 22:27:02"); only read with a time, so leads like
"6月15日消息" never count."""
RELATIVE_DAYS = ("今天", "昨天", "前天")
"""Today, yesterday, the day before: 0, 1 and 2 days before the fetch."""
_RELATIVE_RE = re.compile(
    f"(?P<day>{'|'.join(RELATIVE_DAYS)})"
    + r"\s*(?:(?P<H>\d{1,2})[:：](?P<M>\d{2})(?::(?P<S>\d{2}))?)?|(?P<minutes>\d{1,2})\s*分钟前"
)
"""Searched only in lines holding one of `RELATIVE_DAYS` or 分钟前: it has no first
character the regex engine could skip ahead to."""
_COMPACT_RE = re.compile(r"^(?P<y>(?:19|20)\d{2})(?P<m>\d{2})(?P<d>\d{2})$")
CHINESE_PUBLISH_WORDS = ("时间", "日期", "发布于", "发表于")
"""The publish labels of Chinese pages ("发布时间", "出版日期", "发表于"), which write a
two-digit year first (`_SHORT_YMD_RE`): a label is only ever looked for, never read, so
the words it ends in stand for it."""
_WORD_LABELS = (
    "|".join(CHINESE_PUBLISH_WORDS)
    + r"|posted\s*@?|published|publish|veröffentlicht|publié|publicado"
)
_PUBLISH_LABEL_RE = re.compile(_WORD_LABELS + r"|\bon\b", re.IGNORECASE)
_WORD_LABEL_RE = re.compile(_WORD_LABELS, re.IGNORECASE)
"""`_PUBLISH_LABEL_RE` but its bare "on": the labels that say what was done."""
_REJECT_BEFORE_RE = re.compile(
    r"修改|最后更新|更新时间|更新于|推荐|评论|回复|成文|出生|截止|报名|访问|\bre:"
    r"|\bupdate\b|updated|modified|born|founded|established|deadline|expire"
    r"|geändert|geboren|gegründet|mis à jour|actualizado",
    re.I,
)
_LABEL_KEY = Keyword(
    re.compile(
        one_of(
            ["时间", "日期", "于", *any_case("post"), *any_case("publish")]
            + [on + r"\b" for on in any_case("on")]
        )
    ),
    ("时间", "日期", "于", "post", "publish", "on"),
)
"""Words a labelled date's line needs (`_PUBLISH_LABEL_RE` or "于 … 发布"); a flat
alternation with the case spelled out (`patterns`), so that the search skips ahead."""
_DATE_HINT_RE = re.compile(r"[\d今昨前](?:(?<=\d)|天)")
"""What every date pattern needs in a line, a digit or a `RELATIVE_DAYS` word: lines without
it skip the four date regexes. Led by the class of their first characters, so that the
regex engine skips ahead to them (an alternation led by ``\\d`` is tried at every
position)."""
_YEAR_HINT_RE = re.compile(r"(?:19|20)\d\d")
"""What `_YMD_RE` and `_MDY_RE` need in a line; searched only in lines holding "19" or "20"
(two substring tests rule most lines out at a fraction of its cost)."""
_PUBLISHED_AFTER_RE = re.compile(r"^[^。，,]{0,20}?(?:首次)?(?:发布|发表)")
_REJECT_AFTER_RE = re.compile(r"^\s*(?:修改|编辑|更新\S*于)")
_MONTH_RE = re.compile(_YEAR + r"\s*年\s*(?P<m>\d{1,2})\s*月(?!\s*\d)(?:号|刊)?")
"""A month with no day after it ("1998年3月", "1998年3月号": a magazine's issue)."""
_ISSUE_LINE_RE = re.compile(
    r"^[\s—–\-－(（]*(?:原载|载于|刊于|摘自|选自|转载自|来源[:：]|出处[:：])?\s*《[^《》]{1,40}》"
    r"\s*(?:第\s*)?(?P<month>(?:19|20)\d{2}\s*年\s*\d{1,2}\s*月(?:号|刊)?)"
    r"[\s)）。.]*$"
)
"""A line that only cites the print issue the article appeared in: "——《某某月刊》1998年3月号",
"(原载《读书》2001年5月)". Its month is the article's publication month."""
_ISSUE_KEY = Keyword(re.compile(r"》\s*(?:第\s*)?(?:19|20)\d{2}\s*年"), ("》",))
KEYWORDS = (_LABEL_KEY, _ISSUE_KEY)
"""The keywords this module looks up with `PageText.having`."""
_URL_YEAR_RE = re.compile(r"(?<!\d)((?:19|20)\d{2})(?:[-/_]?(?:0[1-9]|1[0-2]))")
CONTEXT = 12
"""Characters before/after a date searched for a label (发布时间：) or a veto (修改)."""
_HALF_PM = frozenset({"下午", "晚上", "中午"})


@dataclass(frozen=True, slots=True)
class DateEvidence:
    """A publication time and where it came from (e.g. "meta:article:published_time")."""

    value: datetime
    precision: Precision
    source: str


@dataclass(frozen=True, slots=True)
class _Context:
    zone: tzinfo
    fetched_at: datetime | None
    url: str | None


def structured(
    dated: Sequence[DatedTag],
    metas: Mapping[str, str],
    ld_objects: Sequence[Mapping[str, Any]],
    scripts: PageScripts,
    url: str | None,
    fetched_at: datetime | None,
    zone: tzinfo = SHANGHAI,
) -> DateEvidence | None:
    """The first parseable structured date (JSON-LD, meta, <time>, attributes, script
    variables); `dated` are the page scan's `DatedTag`s outside boxes about other content."""
    return _structured(dated, metas, ld_objects, scripts, _Context(zone, fetched_at, url))


def published(
    structured: DateEvidence | None,
    header: Sequence[VisibleLine],
    title_at: int | None,
    page: PageText,
    url: str | None,
    fetched_at: datetime | None,
    zone: tzinfo = SHANGHAI,
) -> DateEvidence | None:
    """The page's publication time, or None rather than a guess (see module docstring).

    `header` is the header window and `title_at` the headline's index in it (None when no
    headline was found). When the header holds no date, the first publish-labelled date
    among all visible `lines` (发表于, 发布时间：, posted @) stands in for the byline: blogs
    and forums put it below the post. A month-only date comes last, never over a full one.
    """
    context = _Context(zone, fetched_at, url)
    byline = (
        (visible(header, title_at, context, structured) if title_at is not None else None)
        or labelled(page.having(_LABEL_KEY, outside_link_lists=True), context, structured)
        or (
            None
            if title_at is not None
            else _first_timed(page.outside_link_lists(), context, structured)
        )
    )
    if byline is None:
        return structured or url_day(context) or month(header, page, context)
    if structured is None:
        return byline
    if _structured_says_more(byline, structured, zone):
        return structured
    wrote_no_zone = byline.value.tzinfo is zone
    if wrote_no_zone or structured.precision == "day":
        # Wall times compared: the byline's is the page's where it wrote no zone, and a day
        # without a time names no instant ("2012-10-29" beside "October 29, 2012 9:35 PM EST").
        wall = byline.value.replace(tzinfo=None) - structured.value.replace(tzinfo=None)
        agree = abs(wall) <= AGREEMENT
        if wrote_no_zone:
            byline = replace(byline, value=byline.value.replace(tzinfo=structured.value.tzinfo))
    else:
        agree = abs(byline.value - structured.value) <= AGREEMENT
    if agree and (byline.precision != "day" or structured.precision == "day"):
        return byline
    return structured


TIMED = ("minute", "second")
ZONES_APART = timedelta(hours=14)
"""The farthest two zones' wall clocks are apart (UTC+14 and UTC)."""


def _structured_says_more(byline: DateEvidence, structured: DateEvidence, zone: tzinfo) -> bool:
    """Whether the structured time is the byline's time, told with more: its seconds, or
    its zone where the byline wrote none. A zone-less byline time whole half hours from a
    structured time in UTC, not more than `ZONES_APART`, is that instant on the site's
    local clock ("8:03 a.m." beside "13:03:41Z"). A byline minutes off its CMS time (an
    index or update time: Sina's meta 05:54, its byline 00:26) is not, nor one hours off a
    structured time in another zone: CMSs write UTC clocks with the site's offset
    ("04:31:13-06:00" beside "10:31 pm"), and the byline stays the time."""
    if byline.precision not in TIMED or structured.precision not in TIMED:
        return False
    minute = structured.value.replace(second=0, microsecond=0)
    if byline.value.tzinfo is not zone:
        return structured.precision == "second" and byline.value == minute
    wall = byline.value.replace(tzinfo=None) - minute.replace(tzinfo=None)
    if not wall:
        return structured.precision == "second"
    in_utc = structured.value.tzinfo is not zone and not structured.value.utcoffset()
    return in_utc and abs(wall) <= ZONES_APART and not wall % timedelta(minutes=30)


def _structured(
    dated: Sequence[DatedTag],
    metas: Mapping[str, str],
    ld_objects: Sequence[Mapping[str, Any]],
    scripts: PageScripts,
    context: _Context,
) -> DateEvidence | None:
    for source, value in _structured_values(dated, metas, ld_objects, scripts, context.zone):
        found = parse_value(value, context)
        if found is not None:
            return DateEvidence(found[0], found[1], source)
    return None


def _structured_values(
    dated: Sequence[DatedTag],
    metas: Mapping[str, str],
    ld_objects: Sequence[Mapping[str, Any]],
    scripts: PageScripts,
    zone: tzinfo,
) -> Iterator[tuple[str, str]]:
    """(source, raw value) pairs in order of trust, lazily: most pages stop at JSON-LD or
    meta. A Unix time, which has no zone of its own, is written in `zone` (the page's
    clock, as its written dates are read), not in UTC."""
    for obj in ld_objects:
        raw = obj.get("datePublished")
        if isinstance(raw, str):
            yield "json-ld", raw
    yield from ((f"meta:{key}", metas[key]) for key in META_KEYS if key in metas)
    tags = _read_tags(dated)
    yield from _time_values(tags)
    yield from _attribute_values(tags)
    yield from _microformat_values(tags)
    for script, held in scripts.holding(SCRIPT_NAMES):
        # A Unix time is to the second: before a written date.
        yield from (
            ("script", value.astimezone(zone).isoformat())
            for value in _SCRIPT_EPOCHS.values(script, held)
        )
        yield from (("script", value) for value in _SCRIPT_TIMES.values(script, held))


_Tag = tuple[str, dict[str, str], str]
"""A dated tag's name, attributes (names lower-cased, values raw) and following text."""


def _read_tags(dated: Sequence[DatedTag]) -> list[_Tag]:
    """The `_Tag`s of the dated tags; an attribute string repeated (a tag duplicated a
    thousand times in a broken page) is read once."""
    read: dict[str, dict[str, str]] = {}
    tags: list[_Tag] = []
    for tag in dated:
        attributes = read.get(tag.attributes)
        if attributes is None:
            attributes = read[tag.attributes] = tag_attributes(tag.attributes)
        tags.append((tag.tag, attributes, tag.text))
    return tags


def _time_values(tags: list[_Tag]) -> Iterator[tuple[str, str]]:
    """`<time datetime>` and ``itemprop=datePublished`` tags, in page order. An ``<abbr>``
    gives its ``title``: the abbr pattern of microformats (Blogger's templates) writes the
    machine-readable time there and a short one as its text ("8:57 AM")."""
    for tag, attributes, text in tags:
        if (tag == "time" and "datetime" in attributes) or (
            attributes.get("itemprop") == "datePublished"
        ):
            raw = (
                attributes.get("datetime")
                or attributes.get("content")
                or _abbr_title(tag, attributes)
            )
            yield tag, unescape(raw) if raw else unescape(text)


PUBLISHED_CLASSES = frozenset({"published", "dt-published"})
"""The class of a microformats publish time: hAtom's, and microformats2's."""


def _microformat_values(tags: list[_Tag]) -> Iterator[tuple[str, str]]:
    """The ``title`` of ``<abbr class="published">`` tags (hAtom, the publish time of
    WordPress themes and blogs of the 2000s), in page order. After the other tags: a
    page can embed other hAtom entries (a feed of tweets), so a date the page marks up
    for itself comes first."""
    for tag, attributes, _ in tags:
        title = _abbr_title(tag, attributes)
        if title and _published_class(attributes):
            yield "microformat", unescape(title)


def marks_a_publish_time(tag: DatedTag) -> bool:
    """Whether a dated tag is a microformats publish time: an ``<abbr>`` with a ``title``,
    marked ``itemprop=datePublished`` or of a `PUBLISHED_CLASSES` class."""
    if tag.tag != "abbr":
        return False
    attributes = tag_attributes(tag.attributes)
    return bool(_abbr_title(tag.tag, attributes)) and (
        attributes.get("itemprop") == "datePublished" or _published_class(attributes)
    )


def _published_class(attributes: Mapping[str, str]) -> bool:
    return not PUBLISHED_CLASSES.isdisjoint(attributes.get("class", "").split())


def _abbr_title(tag: str, attributes: Mapping[str, str]) -> str | None:
    """An ``<abbr>``'s ``title``, where microformats write a machine-readable value."""
    return attributes.get("title") if tag == "abbr" else None


def _attribute_values(tags: list[_Tag]) -> Iterator[tuple[str, str]]:
    """Tags with a non-empty date attribute (`ATTRIBUTES`, first named first)."""
    for _, attributes, _ in tags:
        name = next((name for name in ATTRIBUTES if attributes.get(name)), None)
        if name is not None:
            yield f"attr:{name}", unescape(attributes[name])


def parse_value(value: str, context: _Context) -> tuple[datetime, Precision] | None:
    """A machine-written date (ISO-8601, "2024-05-10 00:26:45", "20240510")."""
    value = value.strip()
    compact = _COMPACT_RE.match(value)
    if compact:
        return _build(compact.groupdict(), context)
    match = _YMD_RE.search(value[:40])
    return _build(match.groupdict(), context) if match else None


def visible(
    header: Sequence[VisibleLine],
    title_at: int,
    context: _Context,
    structured: DateEvidence | None,
) -> DateEvidence | None:
    """The byline date in the header window: after the headline first, a publish label
    (发布时间：, 发表于) before an unlabelled date, and never a vetoed one (修改, 推荐) nor
    one in a list of links (`lines.link_list_items`: other pages' dates) but the line right
    under the headline, where the byline sits even when a theme sets the post's details as
    a list that links its author and its categories."""
    best: tuple[tuple[bool, bool, int], DateEvidence] | None = None
    order = 0
    listed = link_list_items(header)
    for index, text in _header_texts(header):
        if index in listed and index != title_at + 1:
            continue
        for labelled, found in _line_dates(text, context, structured):
            key = (index < title_at, not labelled, order)
            order += 1
            if best is None or key < best[0]:
                best = (key, found)
    return best[1] if best else None


BADGE_PART_CHARS = 9
"""The longest part of a date badge: a day, a month's name or a year on a line of its own."""


def _header_texts(header: Sequence[VisibleLine]) -> Iterator[tuple[int, str]]:
    """Each header line's index and text, and after it, where it and the next two lines
    are short (`BADGE_PART_CHARS`), the three joined: a date badge, which blog themes set
    as a day, a month and a year in boxes of their own ("11" "July" "2012")."""
    texts = [line.text.strip() for line in header]
    for index, text in enumerate(texts):
        yield index, text
        badge = texts[index : index + 3]
        if len(badge) == 3 and all(0 < len(part) <= BADGE_PART_CHARS for part in badge):
            yield index, " ".join(badge)


def labelled(
    texts: Sequence[str], context: _Context, structured: DateEvidence | None
) -> DateEvidence | None:
    """The first date anywhere in the visible text that a publish label introduces
    (among the first `MAX_SEARCHED_LINES` candidate lines). Away from the headline a bare
    "on" is no label (`_WORD_LABEL_RE`): "This entry was posted on …" is a byline, "stepped
    down on April 3, 2014" is prose; but in a line that opens with a blog platform's
    byline it is ("Posted by Kathy on April 6, 2007": `bylines.opens_with_a_byline`)."""
    for text in texts[:MAX_SEARCHED_LINES]:
        bare_on = opens_with_a_byline(text)
        lines = _line_dates(text[:MAX_SEARCHED_CHARS], context, structured, bare_on=bare_on)
        for is_labelled, found in lines:
            if is_labelled:
                return found
    return None


def _first_timed(
    texts: Sequence[str], context: _Context, structured: DateEvidence | None
) -> DateEvidence | None:
    """Without a headline to anchor on: the first date with a time above the body text.

    Old table layouts put the byline in a cell the headline search cannot tie to <title>;
    a date *with a time* above the first sentence-long line is that byline far more often
    than a teaser's date (which comes in lists further down).
    """
    hinted = 0
    for text in texts:
        if reads_as_body(text):
            return None
        if _DATE_HINT_RE.search(text) is None:
            continue
        hinted += 1
        if hinted > MAX_SEARCHED_LINES:
            return None
        for _, found in _line_dates(text[:MAX_SEARCHED_CHARS], context, structured):
            if found.precision != "day":
                return found
    return None


_URL_DAY_RE = re.compile(r"/(?P<y>(?:19|20)\d{2})/(?P<m>0[1-9]|1[0-2])/(?P<d>0[1-9]|[12]\d|3[01])/")
"""A day as a post's address spells it (``/2012/10/25/pasta-fazool/``: WordPress's and
Blogger-like permalinks): the day the post was published."""


def url_day(context: _Context) -> DateEvidence | None:
    """The day the page's address holds (`_URL_DAY_RE`), for a page that writes no date:
    blog platforms put the post's day in its permalink, and a theme may show none, or only
    the day it was modified ("Modified on …", which is vetoed)."""
    match = _URL_DAY_RE.search(context.url) if context.url else None
    built = _build(match.groupdict(), context) if match else None
    return DateEvidence(built[0], built[1], "url") if built else None


def month(header: Sequence[VisibleLine], page: PageText, context: _Context) -> DateEvidence | None:
    """A month-only date, for pages that give no full date anywhere: a labelled month or
    an issue citation in the header window, else a line anywhere that only cites the print
    issue (such lines close reprinted essays). Month dates in running text ("2004年9月，…")
    and in archive lists ("2005年7月 (1)") are neither."""
    for line in header:
        for match in _MONTH_RE.finditer(line.text):
            label = _label(line.text, match)
            if label is None or not (label or match.group(0)[-1] in "号刊"):
                continue
            found = _month_value(match, context)
            if found is not None:
                return found
    for text in page.having(_ISSUE_KEY):
        citation = _ISSUE_LINE_RE.match(text)
        issue = _MONTH_RE.match(citation.group("month")) if citation else None
        found = _month_value(issue, context) if issue else None
        if found is not None:
            return found
    return None


def _month_value(match: re.Match[str], context: _Context) -> DateEvidence | None:
    year, number = int(match.group("y")), int(match.group("m"))
    if not 1 <= number <= 12 or year < MIN_YEAR:
        return None
    checked = _checked(datetime(year, number, 1, tzinfo=context.zone), "month", context)
    return DateEvidence(checked[0], checked[1], "text:month") if checked else None


def _line_dates(
    text: str, context: _Context, structured: DateEvidence | None, bare_on: bool = True
) -> list[tuple[bool, DateEvidence]]:
    """Every date of a line with whether a publish label introduces it. Each pattern runs
    only on lines holding what it cannot match without (a year; a colon; 今天 or 分钟前):
    led by a look-behind, the patterns test every position of a line, and most lines
    have no date."""
    found: list[tuple[bool, DateEvidence]] = []
    with_year = ("19" in text or "20" in text) and _YEAR_HINT_RE.search(text) is not None
    for pattern, source in ((_YMD_RE, "text"), (_MDY_RE, "text:m/d/y")):
        for match in pattern.finditer(text) if with_year else ():
            label = _label(text, match, bare_on)
            built = _build(match.groupdict(), context) if label is not None else None
            if label is not None and built is not None:
                found.append((label, DateEvidence(built[0], built[1], source)))
    for pattern in (_NAMED_MDY_RE, _NAMED_DMY_RE) if with_year and not found else ():
        for match in pattern.finditer(text):
            label = _label(text, match, bare_on)
            month = str(MONTH_NAMES[match.group("month").lower()])
            built = (
                _build({**match.groupdict(), "m": month}, context) if label is not None else None
            )
            if label is not None and built is not None:
                found.append((label, DateEvidence(built[0], built[1], "text:month name")))
    if found:
        return found
    for match in _SHORT_YMD_RE.finditer(text) if _has_chinese_publish_label(text) else ():
        before = text[max(0, match.start() - CONTEXT) : match.start()]
        if not _has_chinese_publish_label(before) or not _label(text, match, bare_on):
            continue
        built = _build(match.groupdict(), context, _full_year(int(match.group("y")), context))
        if built is not None:
            found.append((True, DateEvidence(built[0], built[1], "text:short-year")))
    if found:
        return found
    for match in _MD_TIME_RE.finditer(text) if ":" in text or "：" in text else ():
        label = _label(text, match, bare_on)
        year, where = _guess_year(context, structured)
        if label is None or year is None:
            continue
        built = _build(match.groupdict(), context, year)
        if built is not None:
            source = f"text:no-year, year from the {where}"
            found.append((label, DateEvidence(built[0], built[1], source)))
    has_relative = "分钟前" in text or any(day in text for day in RELATIVE_DAYS)
    for match in _RELATIVE_RE.finditer(text) if has_relative else ():
        label = _label(text, match, bare_on)
        relative = _relative(match, context)
        if label is not None and relative is not None:
            found.append((label, relative))
    return found


def _has_chinese_publish_label(text: str) -> bool:
    """Whether `text` holds a `CHINESE_PUBLISH_WORDS` label: a substring test per word
    (a regex of the labels, with no first character to skip ahead to, was tried at every
    position of each line, at more than the date patterns cost)."""
    return any(word in text for word in CHINESE_PUBLISH_WORDS)


def _label(text: str, match: re.Match[str], bare_on: bool = True) -> bool | None:
    """True when a publish label precedes the date (a bare "on" only with `bare_on`), None
    when the context vetoes it."""
    before = text[max(0, match.start() - CONTEXT) : match.start()]
    after = text[match.end() : match.end() + CONTEXT]
    if _REJECT_BEFORE_RE.search(before) or _REJECT_AFTER_RE.search(after):
        return None
    if (_PUBLISH_LABEL_RE if bare_on else _WORD_LABEL_RE).search(before):
        return True
    # "于 2024-05-12 09:24:57 发布" (CSDN), but not "写于"/"建立于" (signatures, blog info).
    wide_after = text[match.end() : match.end() + 2 * CONTEXT]
    return before.rstrip().endswith("于") and bool(_PUBLISHED_AFTER_RE.match(wide_after))


def _full_year(short: int, context: _Context) -> int:
    """The year a two-digit one means: in this century unless that is after the fetch
    time's year (or the present's, for a page read from a file), else in the last one."""
    now = context.fetched_at.year if context.fetched_at is not None else date.today().year
    year = 2000 + short
    return year if year <= now else year - 100


def _guess_year(context: _Context, structured: DateEvidence | None) -> tuple[int | None, str]:
    """The year of a year-less byline and where it comes from: another date on the page,
    the URL, the fetch time (`_build` moves a date after the fetch a year back, so the
    byline is the most recent such date not after it); none without any of them (a file
    read without a fetch time and without a dated URL)."""
    if structured is not None:
        return structured.value.year, "structured date"
    if context.url:
        match = _URL_YEAR_RE.search(context.url)
        if match:
            return int(match.group(1)), "URL"
    if context.fetched_at is not None:
        return context.fetched_at.year, "fetch time"
    return None, ""


def _build(
    groups: Mapping[str, str | None], context: _Context, year: int | None = None
) -> tuple[datetime, Precision] | None:
    """The date (and time) of a pattern's groups: y, m, d, and H, M, S, half, ampm, tz."""
    try:
        day = date(year or int(groups["y"] or 0), int(groups["m"] or 0), int(groups["d"] or 0))
    except ValueError:
        return None
    if day.year < MIN_YEAR:
        return None
    hour_text, minute_text, second_text = groups.get("H"), groups.get("M"), groups.get("S")
    if hour_text is None or minute_text is None:
        value = datetime(day.year, day.month, day.day, tzinfo=context.zone)
        return _checked(value, "day", context)
    hour, minute = int(hour_text), int(minute_text)
    second = int(second_text) if second_text else None
    hour = _twelve_hour(hour, groups.get("half"), groups.get("ampm"))
    if hour > 23 or minute > 59 or (second or 0) > 59:
        return None
    zone = _zone(groups.get("tz")) or context.zone
    value = datetime(day.year, day.month, day.day, hour, minute, second or 0, tzinfo=zone)
    if (
        year is not None
        and context.fetched_at is not None
        and value > _aware(context.fetched_at, context.zone) + FUTURE_SLACK
    ):
        value = value.replace(year=value.year - 1)
    return _checked(value, "second" if second is not None else "minute", context)


def _twelve_hour(hour: int, half: str | None, ampm: str | None) -> int:
    pm = (half in _HALF_PM) or (ampm is not None and ampm[0] in "Pp")
    am = (half is not None and not pm) or (ampm is not None and ampm[0] in "Aa")
    if pm and hour < 12:
        return hour + 12
    if am and hour == 12:
        return 0
    return hour


def _zone(text: str | None) -> tzinfo | None:
    """The zone of an offset such as ``+08:00`` or of a `ZONE_NAMES` name; None for none, or
    for one that is no zone (``+88:00``, out of the ±24 h range: a corrupted page), so the
    default zone applies."""
    if not text:
        return None
    if text == "Z":
        return ZoneInfo("UTC")
    if (hours := ZONE_NAMES.get(text.lower())) is not None:
        return timezone(timedelta(hours=hours))
    try:
        return datetime.strptime(text.replace(":", ""), "%z").tzinfo
    except ValueError:
        return None


def _relative(match: re.Match[str], context: _Context) -> DateEvidence | None:
    """今天/昨天/前天 [HH:MM] and N分钟前, counted from the fetch time (None without one)."""
    if context.fetched_at is None:
        return None
    now = _aware(context.fetched_at, context.zone).astimezone(context.zone)
    if match.group("minutes"):
        value = (now - timedelta(minutes=int(match.group("minutes")))).replace(
            second=0, microsecond=0
        )
        return DateEvidence(value, "minute", "text:relative")
    day = now.date() - timedelta(days=RELATIVE_DAYS.index(match.group("day")))
    if match.group("H") is None:
        value = datetime(day.year, day.month, day.day, tzinfo=context.zone)
        return DateEvidence(value, "day", "text:relative")
    hour, minute = int(match.group("H")), int(match.group("M"))
    second = int(match.group("S") or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    value = datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=context.zone)
    return DateEvidence(value, "second" if match.group("S") else "minute", "text:relative")


def _aware(moment: datetime, zone: tzinfo) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _checked(
    value: datetime, precision: Precision, context: _Context
) -> tuple[datetime, Precision] | None:
    """Drops dates after the fetch time: a page cannot be published after it was fetched."""
    if (
        context.fetched_at is not None
        and value > _aware(context.fetched_at, context.zone) + FUTURE_SLACK
    ):
        return None
    return value, precision
