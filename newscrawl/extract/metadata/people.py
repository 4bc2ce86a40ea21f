"""Who wrote the article (`author`), which outlet published it (`source`), who edited it
(`editor`).

Chinese pages name all three in short credit lines: "来源：新华网", "作者：张三",
"本报记者 王小明 李娜", "（记者 刘洋 陈静）", "(责编：张伟、赵刚)". An editor is never the
author: 责任编辑/责编/编辑 lines fill `editor` only. Structured data (JSON-LD, meta) comes
first; meta values that are ids ("105092", "L_104485") rather than names are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import unescape
from itertools import chain
from typing import Any

from newscrawl.extract.metadata import jsonld
from newscrawl.extract.metadata.bylines import (
    AFTER_NAME,
    BYLINE_OPENING,
    MONTH,
    PLACEHOLDER_NAMES,
    WRITING_VERBS,
    first_author,
    handle,
    is_label_alone,
    structured,
    without_photo_credits,
)
from newscrawl.extract.metadata.dates import ZONE_NAMES
from newscrawl.extract.metadata.lines import Keyword, PageText, VisibleLine
from newscrawl.extract.metadata.patterns import any_case, one_of
from newscrawl.extract.metadata.scripts import (
    STATE_AUTHOR_KEYS,
    PageScripts,
    ScriptVariables,
    state_author_names,
)

_NOT_IN_NAME = r"|｜()（）\[\]【】:：,，;；<>《》=\""
"""Characters no name contains: separators, brackets, and markup leaking from broken templates
(`来源： size="20"`)."""
_LONE_QUOTE = r"(?<![^\W\d_])'|'(?![^\W\d_])"
"""A quote that is not an apostrophe between two letters ("O'Brien"): no name holds it."""
_STOP = (
    r"(?<!\s)(?=\s++(?:(?i:" + AFTER_NAME + r")\s|@|\d|(?i:" + MONTH + r")\s++\d)"
    r"|\s*+(?:[/／" + _NOT_IN_NAME + r"]|" + _LONE_QUOTE + r"|来源|作者|记者|编辑|责编|时间|日期"
    r"|发布|\d{4}|$))"
)
"""Where a labelled name ends: at a separator, a quote, the next label, a year or the line's
end, or before what a byline goes on with (`bylines.AFTER_NAME`: "by Meghann on November
13", "By Sarah Moore • Nov 6"), a handle ("By Kim Blake @kimkblake"), a number ("by
Jasmine Velasco 6 Nov 2012") or a date ("By Gillian Mohney March 11, 2015"). Tried only
after a non-space, its spaces possessive: linear in a line."""
_NAME = (
    r"(?P<name>[^\s\d'" + _NOT_IN_NAME + r"]"
    r"(?:[^\d'" + _NOT_IN_NAME + r"]|(?<=[^\W\d_])'(?=[^\W\d_])){0,29}?)"
)
"""A name after a label: up to 30 characters, none of `_NOT_IN_NAME` and no quote but an
apostrophe between letters ("Walter O'Brien")."""
_SOURCE_WORDS = ("来源", "来自", "出处", "稿源", "发文机关", "发布机构", "发文单位", "发布单位")
_SOURCE_LABEL = one_of([*_SOURCE_WORDS, *any_case("source")], r"\s*[:：]")
_SOURCE_RE = re.compile(_SOURCE_LABEL + r"\s*[\[【]?\s*(?P<name>[^\s'" + _NOT_IN_NAME + r"]{2,30})")
"""Outlet names have no spaces: "来源: 总台环球资讯广播 北京" ends before the IP location.
Government notices name their issuing body instead (发文机关：某某省人民政府): it is the
publisher, so it is the source."""
_EDITOR_LABEL = r"(?:责任编辑|责编|编辑|编者|审核|校对)\s*[:：/／]"
_EDITOR_RE = re.compile(_EDITOR_LABEL + r"\s*" + _NAME + _STOP)
_AUTHOR_WORDS = ("作者", "撰文", "执笔", "编译", "记者", "评论员", "通讯员", "特约撰稿人")
_NOT_A_PLATFORM = "".join(
    f"(?<!{''.join(f'[{c.lower()}{c.upper()}]' for c in word)}\\s[bB][yY])"
    for word in ("powered", "hosted")
)
"""After "by": not "powered by" nor "hosted by" (fixed-width look-behinds, any case)."""
_AUTHOR_RE = re.compile(
    one_of(
        [
            *(word + r"\s*[:：]" for word in (*_AUTHOR_WORDS, "执笔人")),
            r"文\s*[/／]",
            *(by + _NOT_A_PLATFORM + r"\s+" for by in any_case("by", word_start=True)),
        ]
    )
    + r"\s*"
    + _NAME
    + _STOP
)
"""A labelled byline: "作者：张三", "记者：李四", "文/王五", "by 木子" (never "BY-SA", nor
"powered by TypePad" or "hosted by …": the blog's platform)."""
_AUTHOR_LABEL = one_of(
    [*(word + r"\s*[:：]" for word in (*_AUTHOR_WORDS, "执笔人")), r"文\s*[/／]"]
)
_LABELLED_AUTHOR_RE = re.compile(_AUTHOR_LABEL + r"\s*" + _NAME + _STOP)
"""The same without "by": away from the headline, "by …" is prose ("caused by the cards")."""
_POSTED_BY_RE = re.compile(
    "^" + BYLINE_OPENING + r"(?:\s*+[:：])?\s++" + _NAME + _STOP,
    re.IGNORECASE,
)
"""A line that opens "Posted by", "Written by", "Submitted by" or "Published by" (blog
platforms' bylines: "Posted by Crunchy Chicken at 9:00 PM", "Submitted by Kyle Mantyla on
Thu, 08/09/2012"): the name runs to the time, the date or the category after it. Matched
at a line's start only, where "by" after a verb of writing cannot be prose. The name's end
is tried only after a non-space and its spaces are possessive: linear in a line's length."""
_BYLINE_NAME_RE = re.compile(
    r"(?:^|\s)(?P<name>[^\s\d|｜:：]{2,20})\s+(?:已于|于|发表于)\s*\d{4}"
    r"|(?:^|\s)(?P<writer>[^\s\d|｜:：]{1,20}?)写于\s*\d{4}"
    r"|由(?P<poster>[^\s\d|｜:：]{1,20}?)于\s*\d{4}"
    r"|posted\s*@\s*[\d\s:/-]{10,20}?\s(?P<after>[^\s\d|｜]{2,20})",
    re.I,
)
"""Blog bylines name the writer next to the date: CSDN "木子 于 2024-05-12 09:24:57 发布",
cnblogs "posted @ 2024-05-09 14:45 lisa_w"."""
_BYLINE_HINT_RE = re.compile(r"于\s*\d|@")
"""What every `_BYLINE_NAME_RE` match holds. That pattern tries a 20-character name at
every position of a line, so Chinese body lines (于 is a common word) are only given to it
when they hold this too (0.9 ms a page on a long text-heavy page before)."""
_OWNER_RE = re.compile(r"^(?P<name>[^\s|｜]{2,20})的(?:博客|空间|专栏|个人空间)$")
_SCRIPT_AUTHORS = ScriptVariables(
    (
        "nickName",
        "nickname",
        "authorName",
        "author_name",
        "mediaName",
        "media_name",
        "accountName",
        "account_name",
        "author",
    ),
    min_chars=1,
    max_chars=40,
)
"""Display names in script state: CSDN's ``var nickName``, a WeChat official account's
``var nickname = htmlDecode("…")``, self-media JSON's ``"mediaName"``; the account that
published a self-media article is its author."""
_CREDIT_RE = re.compile(
    r"^[□■（(【\[]?\s*[^\d。，,：:（(]{0,14}?(?:记者|评论员|通讯员|实习生)\s*[:：]?\s*"
    r"(?P<name>[^\d()（）\[\]【】:：。，,！？!?/]{2,24}?)"
    r"\s*(?:[/／]?文|报道|摄|采写|整理|发自\S*|\S{2,6}报道)?\s*[）)】\]]?\s*(?:受访者供图)?$"
)
"""A whole short line that credits reporters: "（记者 刘洋 陈静）", "□ 本报记者 王小明",
"某某日报记者 李明 赵刚"."""
_INLINE_CREDIT_RE = re.compile(
    r"[（(](?:本报|新华社|本台)?(?:记者|评论员|通讯员)\s*(?P<name>[^()（）\d，。,！？]{2,30})[）)]"
)
"""A parenthesised credit inside a line: dateline "新华社北京电（记者 刘洋）" or a closing
"…。（记者宋晨、田中全）"."""
_TRAILING_NAMES_RE = re.compile(
    r"[。！？”]\n?[（(](?P<name>[\u4e00-\u9fff]{2,4}(?:[ 、][\u4e00-\u9fff]{2,4}){0,4})"
    r"(?: ?\S{2,4}报道)? ?[）)](?=\n|\Z)"
)
"""Bare names closing the last paragraph: "…的新春佳节。（常书香 马丹阳 ）", or on a line of
their own right after it ("…外科医生。" then "（袁源）"). Searched over the joined page text."""
SURNAMES = frozenset(
    "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章云苏潘葛"
    "奚范彭郎鲁韦昌马苗凤花方俞任袁柳酆鲍史唐费廉岑薛雷贺倪汤滕殷罗毕郝邬安常乐于时傅皮卞齐康"
    "伍余元卜顾孟平黄和穆萧尹姚邵湛汪祁毛禹狄米贝明臧计伏成戴谈宋茅庞熊纪舒屈项祝董梁杜阮蓝闵"
    "席季麻强贾路娄危江童颜郭梅盛林刁钟徐邱骆高夏蔡田樊胡凌霍虞万支柯昝管卢莫经房裘缪干解应宗"
    "丁宣贲邓郁单杭洪包诸左石崔吉钮龚程嵇邢滑裴陆荣翁荀羊於惠甄曲家封芮羿储靳汲邴糜松井段富巫"
    "乌焦巴弓牧隗山谷车侯宓蓬全郗班仰秋仲伊宫宁仇栾暴甘钭厉戎祖武符刘景詹束龙叶幸司韶郜黎蓟薄"
    "印宿白怀蒲邰从鄂索咸籍赖卓蔺屠蒙池乔阴胥能苍双闻莘党翟谭贡劳逄姬申扶堵冉宰郦雍却璩桑桂濮"
    "牛寿通边扈燕冀郏浦尚农温别庄晏柴瞿阎充慕连茹习宦艾鱼容向古易慎戈廖庾终暨居衡步都耿满弘匡"
    "国文寇广禄阙东欧殳沃利蔚越夔隆师巩厍聂晁勾敖融冷訾辛阚那简饶空曾毋沙乜养鞠须丰巢关蒯相查"
    "后荆红游竺权逯盖益桓公"
)
"""The single-character surnames of the 百家姓: a bare line of short words is only read as a
byline when it starts with one."""
_NAMES = r"[\u4e00-\u9fff]{2,4}(?:[、，, ][\u4e00-\u9fff]{2,4}){0,3}"
"""Person names only: "李明", "张伟、李娜"."""
_NAME_LINE_RE = re.compile(r"^(?P<name>" + _NAMES + r")$")
"""A line that is nothing but person names."""
MAX_NAMES_CHARS = 19
"""The longest line `_NAME_LINE_RE` matches: four names of four characters, three marks."""
_COLONS = (":", "：")
_SLASHES = ("/", "／")
_SOURCE_KEY = Keyword(re.compile(_SOURCE_LABEL), (*_SOURCE_WORDS, "source"), marks=_COLONS)
_AUTHOR_KEY = Keyword(
    re.compile(_AUTHOR_LABEL), (*_AUTHOR_WORDS, "文"), marks=(*_COLONS, *_SLASHES)
)
_EDITOR_KEY = Keyword(
    re.compile(_EDITOR_LABEL), ("编", "审核", "校对"), marks=(*_COLONS, *_SLASHES)
)
_BYLINE_KEY = Keyword(re.compile(one_of(["于", *any_case("posted")])), ("于", "posted"))
_POSTED_KEY = Keyword(
    re.compile(one_of([case for verb in WRITING_VERBS for case in any_case(verb)])),
    WRITING_VERBS,
)
_OWNER_KEY = Keyword.words("的博客", "的空间", "的专栏", "的个人空间")
_CREDIT_KEY = Keyword.words("记者", "评论员", "通讯员", "实习生")
_PROFILE_KEY = Keyword.words("简介", "个人资料")
"""Words each pattern above needs in a line: one search over the whole page picks the
lines worth trying (see `PageText.having`). Patterns are flat alternations with the case
spelled out (`patterns`), so that the regex engine skips ahead to a first character. A
labelled line's keyword is the label itself, with its marks: the words are common in prose
(记者, 文, source), their labels are not, and only labelled lines are searched for a name."""
KEYWORDS = (
    _SOURCE_KEY,
    _AUTHOR_KEY,
    _EDITOR_KEY,
    _BYLINE_KEY,
    _POSTED_KEY,
    _OWNER_KEY,
    _CREDIT_KEY,
    _PROFILE_KEY,
)
"""The keywords this module looks up with `PageText.having`."""
_WRITER_PREFIX_RE = re.compile(r"[\u4e00-\u9fff]{2,6}[:：]")
"""A headline's lead naming its writer: "李明：" (see `_essay_writer`)."""
ESSAY_HEADLINE_CHARS = (4, 80)
"""The length of a headline copy, and the most any line between it and the headline has."""
_PROFILE_CARD_RE = re.compile(
    r"\n(?P<above>[^\s\d:：|｜\[\]【】]{2,12})\n[\[【]?(?:作者|博主)简介"
    r"|\n[\[【]?(?:个人资料|作者简介|博主简介)[\]】]?\n(?P<below>[^\s\d:：|｜\[\]【】]{2,12})(?=\n|\Z)"
)
"""A blog's profile card: the writer's name above its "[作者简介]" heading, or under a
"个人资料" (profile) heading (see `_profile_card`)."""
NOT_NAMES = frozenset({"资料图", "图片", "视频", "截图", "原标题", "待续", "全文完", "供图", "完"})
CREDIT_LINE_CHARS = 40
_ID_RE = re.compile(r"^[A-Za-z_]*\d[\w-]*$")
_PREFIX_RE = re.compile(r"^(?:来源|作者|记者|source|author)\s*[:：]\s*", re.I)
_SPACE_RE = re.compile(r"\s+")
AUTHOR_META = (
    "dc:creator",
    "dcterm:creator",
    "citation_author",
    "citation_authors",
    "author",
    "article:author",
    "og:article:author",
    "dc.creator",
    "dcterms.creator",
    "byl",
    "parsely-author",
    "sailthru.author",
)
SOURCE_META = (
    "source",
    "contentsource",
    "og:site_name",
    "article:publisher",
    "publisher",
    "mediaid",
    "dc.publisher",
)


@dataclass(frozen=True, slots=True)
class Markup:
    """What the page's markup says of its author and its own name, for `people`."""

    byline_texts: Sequence[str] = ()
    """Lines of byline elements (`bylines.byline_texts`)."""
    post_footer_texts: Callable[[], Sequence[str]] = tuple
    """The lines of the footers that close a post (Blogger's "Posted by <name> at <time>"),
    gathered when called: a pass over the page's lines, needed only where no byline before
    them names the author."""
    itemprop_authors: Sequence[str] = ()
    rel_authors: Callable[[], Iterable[str]] = tuple
    """Texts of ``<a rel="author">`` links (`bylines.rel_authors`), read when called, as far
    as the first: most pages name their author before the rules get there."""
    hcard_authors: Callable[[], Iterable[str]] = tuple
    """Names of hAtom entry authors' cards (`bylines.hcard_authors`), read as those are."""
    outlets: frozenset[str] = frozenset()
    """Folded names of the site itself (`bylines.outlet_names`): never the author. An
    outlet the page credits (来源) may be: portals' gold names it as the author."""
    latin: bool = False
    """The page is written in Latin script: a Latin author must be a capitalised name."""


@dataclass(frozen=True, slots=True)
class People:
    """Names found on the page; None when the page gives none."""

    author: str | None
    source: str | None
    editor: str | None
    evidence: Mapping[str, str] = field(default_factory=dict)
    """Where each name was found (``{"author": "byline element", …}``), for ``--explain``."""
    refused: tuple[str, ...] = ()
    """Author candidates refused, each with why: none being right, the author stays None."""


def people(
    scripts: PageScripts,
    header: Sequence[VisibleLine],
    page: PageText,
    metas: Mapping[str, str],
    ld_objects: Sequence[dict[str, Any]],
    lead: Sequence[str] = (),
    title_at: int | None = None,
    *,
    markup: Markup = Markup(),
) -> People:
    """Author, source and editor: JSON-LD and the byline near the headline first, then
    reporter credits, meta tags and labelled lines anywhere in the visible text.

    A reporter credit ("（记者 刘洋 陈静）") replaces a byline author that only repeats the
    outlet (Sina's "作者：新京报"), as the gold of the sites set does. `lead` holds the lines
    right under the headline (`title_at` in `page`): essays and papers put the bare writer
    names there ("李明"). A byline element's text that is the headline itself (a blog
    platform's ``entry-author-<name>`` class on the box that holds the post) is no byline,
    and a byline that starts with the meta author and runs on ("Jason PaurEmail Author", a
    link glued to the name) gives way to it. Every author candidate must pass
    `bylines.judge_author`; the first that does is the author (none does: None, and
    `--explain` says so).
    """
    header_text = [line.text for line in header]
    headline = page.texts[title_at] if title_at is not None else None
    bylines = without_photo_credits(header_text)
    source, source_from = _first_found(
        ("header label", lambda: _first_line_match(_SOURCE_RE, header_text)),
        ("meta", lambda: _first_meta(metas, SOURCE_META)),
        ("json-ld publisher", lambda: _first_ld(ld_objects, "publisher")),
        ("script account", lambda: _script_account(scripts)),
        ("label", lambda: _first_line_match(_SOURCE_RE, page.having(_SOURCE_KEY))),
    )
    refused: list[str] = []

    def first(*candidates: tuple[str, Callable[[], str | None]]) -> tuple[str | None, str | None]:
        found = ((where, candidate()) for where, candidate in candidates)
        return first_author(found, markup.outlets, markup.latin, refused)

    byline = first(
        ("json-ld", lambda: structured(_first_ld(ld_objects, "author"))),
        ("itemprop", lambda: structured(next(iter(markup.itemprop_authors), None))),
        (
            "byline element",
            lambda: _byline_element_text(markup.byline_texts, header_text, headline),
        ),
        ("header label", lambda: _first_line_match(_AUTHOR_RE, bylines, _labels_a_writer)),
        ("blog byline", lambda: _blog_byline(header_text)),
    )
    # Credits go with the article: lines above its headline are menus ("记者调查 民意调查").
    credit = first(
        ("reporter credit", lambda: _credit(page.having(_CREDIT_KEY, title_at or 0))),
        ("closing names", lambda: _trailing_names(page)),
    )
    meta_name = _meta_author(metas)
    if _runs_on(byline[0], meta_name):
        byline = (meta_name, "meta")
    if credit[0] and (byline[0] is None or (source is not None and byline[0] in source)):
        author = credit
    else:
        author = (
            byline
            if byline[0]
            else first(
                (
                    "label",
                    lambda: _first_line_match(_LABELLED_AUTHOR_RE, page.having(_AUTHOR_KEY)),
                ),
                ("meta", lambda: structured(meta_name)),
                ("script", lambda: _script_author(scripts)),
                ("rel author", lambda: handle(next(iter(markup.rel_authors()), None))),
                ("hcard author", lambda: handle(next(iter(markup.hcard_authors()), None))),
                (
                    "post footer",
                    lambda: handle(_first_line_match(_POSTED_BY_RE, markup.post_footer_texts())),
                ),
                ("posted by", lambda: handle(_posted_by_line(page, title_at))),
                ("blog byline", lambda: _blog_byline(page.having(_BYLINE_KEY))),
                ("blog owner", lambda: _first_line_match(_OWNER_RE, page.having(_OWNER_KEY))),
                ("names under the headline", lambda: _name_line(lead)),
                ("essay layout", lambda: _essay_writer(page.texts)),
                ("profile card", lambda: _profile_card(page)),
            )
        )
    editor, editor_from = _first_found(
        ("header label", lambda: _first_line_match(_EDITOR_RE, header_text)),
        ("label", lambda: _first_line_match(_EDITOR_RE, page.having(_EDITOR_KEY))),
    )
    evidence = {"author": author[1], "source": source_from, "editor": editor_from}
    return People(
        author[0],
        source,
        editor,
        {field: where for field, where in evidence.items() if where},
        tuple(refused),
    )


def _first_found(
    *candidates: tuple[str, Callable[[], str | None]],
) -> tuple[str | None, str | None]:
    """The first value found, and where: the label of its candidate."""
    for where, candidate in candidates:
        value = candidate()
        if value:
            return value, where
    return None, None


def _essay_writer(texts: Sequence[str]) -> str | None:
    """The essay layout: the headline written again at the top of the body, the writer's
    names alone on the line under that copy, and the essay's prose next (a line with "，"
    or "。" in its first 80 characters): "我在乡村教书的十年", "李明", "那年秋天，我……". The
    headline above may lead with the writer's name ("李明：我在乡村教书的十年"), and a
    byline line or two may sit between it and its copy. The layout is what makes the line a
    byline, so the names need no surname check (pen names: "木子"); a menu written twice has
    no prose under it. Names lines are few: each is checked, not every line."""
    shortest, longest = ESSAY_HEADLINE_CHARS
    for at in range(2, len(texts) - 1):
        names = texts[at]
        if len(names) > MAX_NAMES_CHARS or not (match := _NAME_LINE_RE.match(names)):
            continue
        copy, prose = texts[at - 1], texts[at + 1][: longest + 1]
        if not shortest <= len(copy) <= longest or ("，" not in prose and "。" not in prose):
            continue
        for headline_at in range(at - 2, max(-1, at - 5), -1):
            if _is_headline_of(texts[headline_at], copy):
                name = _clean(match.group("name"))
                if name and name not in NOT_NAMES:
                    return name
            if len(texts[headline_at]) > longest:
                break
    return None


def _is_headline_of(line: str, copy: str) -> bool:
    """`line` is the headline `copy` repeats, or it with its writer's name in front."""
    if line == copy:
        return True
    lead = line[: len(line) - len(copy)]
    return line.endswith(copy) and _WRITER_PREFIX_RE.fullmatch(lead) is not None


def _profile_card(page: PageText) -> str | None:
    """The name on a blog's profile card (`_PROFILE_CARD_RE`). A name under a "个人资料"
    heading is a bare line, read as a name only when it starts with a surname, as
    `_name_line` reads one: account menus put "个人资料" above "退出" (log out)."""
    if not page.having(_PROFILE_KEY):
        return None
    for match in _PROFILE_CARD_RE.finditer(_lines_text(page)):
        name = _clean(match.group("above") or match.group("below"))
        if name and name not in NOT_NAMES and (match.group("above") or name[0] in SURNAMES):
            return name
    return None


def _lines_text(page: PageText) -> str:
    """The page's lines, each after a "\\n", the first one too: the line patterns above
    start with a literal "\\n" rather than `^|\\n`, so the regex engine skips ahead to line
    starts (3x faster)."""
    return "\n" + page.joined


def _trailing_names(page: PageText) -> str | None:
    """The last paragraph-closing "（name name）" of the page. A match ends a line, and
    starts on it or at the end of the line before (`_TRAILING_NAMES_RE`: no line break
    inside the name), so only the lines that end in a closing bracket are searched, each
    with the last character of the line before."""
    found: str | None = None
    joined = page.joined
    for end in _bracket_line_ends(joined):
        line_start = joined.rfind("\n", 0, end) + 1
        match = _TRAILING_NAMES_RE.search(joined, max(0, line_start - 2), end)
        if match and match.group("name") not in NOT_NAMES:
            found = match.group("name")
    return found


def _bracket_line_ends(joined: str) -> list[int]:
    """The ends (after the bracket) of the lines of `joined` that end in ")" or "）", in
    order."""
    ends = [len(joined)] if joined.endswith((")", "）")) else []
    for closing in (")\n", "）\n"):
        at = joined.find(closing)
        while at >= 0:
            ends.append(at + 1)
            at = joined.find(closing, at + 2)
    return sorted(ends)


def _name_line(lead: Sequence[str]) -> str | None:
    """The first of `lead` that is only person names, the first starting with a surname."""
    for text in lead:
        match = _NAME_LINE_RE.match(text)
        if match and match.group("name")[0] in SURNAMES and match.group("name") not in NOT_NAMES:
            return match.group("name")
    return None


def _posted_by_line(page: PageText, title_at: int | None) -> str | None:
    """The name of the first visible line from the headline on that opens as a blog
    platform's byline (`_POSTED_BY_RE`); lines above the headline are menus and sidebars,
    and a post's own line comes before its readers' ("Posted by: jonathan at …")."""
    return _first_line_match(_POSTED_BY_RE, page.having(_POSTED_KEY, title_at or 0))


def _blog_byline(texts: Sequence[str]) -> str | None:
    for text in texts:
        match = _BYLINE_HINT_RE.search(text) and _BYLINE_NAME_RE.search(text)
        if match:
            name = _clean(
                match.group("name")
                or match.group("writer")
                or match.group("poster")
                or match.group("after")
            )
            if name:
                return name
    return None


_ACCOUNT_RE = re.compile(r'var nickname\s*=\s*htmlDecode\(\s*"([^"\\\n]{1,40})"')
"""A WeChat official account's name in its article's script (``var nickname =
htmlDecode("城市交通")``): the account publishes the article, so it is the source."""
_ACCOUNT_MARK = frozenset({"htmlDecode"})
"""What every `_ACCOUNT_RE` match holds."""
_AUTHOR_NAMES = frozenset(_SCRIPT_AUTHORS.names) | STATE_AUTHOR_KEYS
"""What every script `_script_author` reads a name from holds."""
SCRIPT_NAMES = _ACCOUNT_MARK | _AUTHOR_NAMES
"""The names this module looks for in a page's scripts (`PageScripts`)."""


def _script_account(scripts: PageScripts) -> str | None:
    """The publishing account's name (`_ACCOUNT_RE`) of a self-media article."""
    for script, _ in scripts.holding(_ACCOUNT_MARK):
        if match := _ACCOUNT_RE.search(script):
            return _clean(unescape(match.group(1)))
    return None


def _script_author(scripts: PageScripts) -> str | None:
    """The writer's display name some blogs and self-media platforms keep in inline JS or
    JSON state (`_SCRIPT_AUTHORS`, `scripts.state_author_names`), from the first script
    that names one."""
    for script, held in scripts.holding(_AUTHOR_NAMES):
        found = chain(_SCRIPT_AUTHORS.values(script, held), state_author_names(script, held))
        name = _clean(unescape(next(found, "")))
        if name:
            return name
    return None


def _clean(name: str) -> str | None:
    """A found name with its label prefix and edge marks removed; None for none, an id, a
    run of text too long for a name, or a placeholder (`bylines.PLACEHOLDER_NAMES`: a source
    "网络" gives way to the next source found, as an empty one does)."""
    name = _SPACE_RE.sub(" ", _PREFIX_RE.sub("", name.strip())).strip(" ：:·-—|")
    if not name or name in PLACEHOLDER_NAMES or _ID_RE.match(name) or len(name) > 40:
        return None
    return name


def _first_ld(objects: Sequence[dict[str, Any]], key: str) -> str | None:
    for obj in objects:
        names = [n for n in (_clean(n) for n in jsonld.names(obj.get(key))) if n]
        if names:
            return " ".join(names)
    return None


def _first_meta(metas: Mapping[str, str], keys: Sequence[str]) -> str | None:
    """The first of the `keys`' meta values that `_clean` keeps (the absent ones skipped:
    most pages have none of the author keys, and each clean costs two substitutions)."""
    for key in keys:
        value = metas.get(key)
        if value and (name := _clean(value)):
            return name
    return None


def _byline_element_text(
    byline_texts: Sequence[str], header_text: Sequence[str], headline: str | None
) -> str | None:
    """The first byline element's text in the header but the headline itself (a blog
    platform's ``entry-author-<name>`` class on the box that holds the post) and a label
    alone (``<span>Von</span> <a>Jane Roe</a>``: the name follows)."""
    return next(
        (
            text
            for text in byline_texts
            if text in header_text and text != headline and not is_label_alone(text)
        ),
        None,
    )


def _runs_on(name: str | None, meta_name: str | None) -> bool:
    """Whether `name` is `meta_name` with letters glued on ("Jason PaurEmail Author": a
    link's text after the name with no space between), not a second name after a comma."""
    return bool(
        name
        and meta_name
        and len(name) > len(meta_name)
        and name.startswith(meta_name)
        and name[len(meta_name)].isalpha()
    )


def _meta_author(metas: Mapping[str, str]) -> str | None:
    """The meta author, unless it credits the software that made the page (a forum's
    ``author`` "Discuz! Team and Comsenz UI Team" beside ``generator`` "Discuz! X3.4")."""
    name = _first_meta(metas, AUTHOR_META)
    software = metas.get("generator", "").split()
    if name and software and len(software[0]) >= 3 and software[0].casefold() in name.casefold():
        return None
    return name


def _first_line_match(
    pattern: re.Pattern[str],
    texts: Sequence[str],
    labels: Callable[[str, re.Match[str]], bool] | None = None,
) -> str | None:
    """The first labelled name whose label `labels` accepts (all, for None); an attribute
    (`size="20"`) shown as text is no name, nor is the next label after an empty one
    ("来源： 作者：", cells of a table row)."""
    for text in texts:
        for match in pattern.finditer(text):
            if labels is not None and not labels(text, match):
                continue
            name = _clean(match.group("name"))
            if name and not text[match.end("name") :].lstrip().startswith(("=", ":", "：")):
                return name
    return None


WRITING_WORDS = frozenset(
    {"article", "authored", "column", "created", "edited", "essay", "post", "posted",
     "produced", "published", "reported", "review", "story", "text", "words", "written"}
)  # fmt: skip
"""Words after which an English "by" names who wrote ("Posted by", "Story by")."""
CLOCK_WORDS = frozenset({"am", "pm", *ZONE_NAMES})
"""Words that end a time ("11:08 am", "7:11 AM PST"), after which "by" names the writer."""
_LAST_WORD_RE = re.compile(r"(?<![^\W\d_])[^\W\d_]++$")
"""The last word of a text, tried only where a word starts: linear in the text's length."""


def _labels_a_writer(text: str, match: re.Match[str]) -> bool:
    """Whether the label of an `_AUTHOR_RE` match in `text` names the writer: any label
    but an English "by" does; "by" does where it opens the line or follows a mark, a
    digit, a `WRITING_WORDS` word or a time (`CLOCK_WORDS`): "— By", "October 19, 2019
    by", "Article by", "11:08 am by". After another word it credits a thing, or is part
    of a name: "Web Toolbar by Wibiya", "Subscribe by RSS", "a sewing machine by
    Bernina", a blog called "Angry by Choice"."""
    start = match.start()
    if text[start : start + 2].lower() != "by":
        return True
    last_word = _LAST_WORD_RE.search(text[:start].rstrip())
    return last_word is None or last_word[0].lower() in WRITING_WORDS | CLOCK_WORDS


def _credit(texts: Sequence[str]) -> str | None:
    """The last reporter credit of the page (credits close the article body)."""
    found: str | None = None
    for text in texts:
        match = (_CREDIT_RE.match(text) if len(text) <= CREDIT_LINE_CHARS else None) or (
            _INLINE_CREDIT_RE.search(text) if "(" in text or "（" in text else None
        )
        if match:
            found = _clean(match.group("name")) or found
    return found
