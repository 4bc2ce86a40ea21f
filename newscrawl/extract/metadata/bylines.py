"""Where bylines live in the markup, and whether a candidate author is a name at all.

A wrong author in a corpus is silently believed, so an author is returned only when it
looks like one (measured by ``bench/bench_metadata.py``): the text of a byline element
(class, id, itemprop or rel naming ``byline``/``author``), or a labelled name, that
`judge_author` accepts: labels and UI words around it removed ("总台记者 王小明",
"李明 我来说两句", "lisa_w 阅读"), and refused when it is a sentence fragment caught by
"by …" in prose ("by the way", "the cards"), a link, a job title, a UI word, or the
site's own name ("CSDN.NET", "网易": that is the source, not the author).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from operator import attrgetter
from urllib.parse import urlsplit

from newscrawl.extract.blocks import DatedTag, Line, PageLines
from newscrawl.extract.clean import tag_attributes
from newscrawl.extract.metadata.lines import TITLE_SEPARATOR_RE, lines_in
from newscrawl.extract.needles import texts_holding

_ELEMENT = attrgetter("element")
BYLINE_WORDS = ("byline", "author", "writer", "reporter", "contributor", "dateline")
_BYLINE_WORD_RE = re.compile(f"(?:{'|'.join(BYLINE_WORDS)})", re.IGNORECASE)
BYLINE_ATTRIBUTES = ("class", "id", "itemprop", "rel")
"""An element that holds the byline has a byline word in one of these attributes' values:
``class="byline"``, ``class="article-author"``, ``itemprop="author"``, ``id="js_author"``."""
BYLINE_LEVELS = 3
"""How many elements up from a line its byline element may be (a span in a p in the div)."""
MAX_BYLINE_CHARS = 120
"""A byline element holds little text; more, and it is a biography or a wrapper."""
_LEAD_LABEL_RE = re.compile(
    r"^(?:by|written by|posted by|von|par|por|autor|author|auteur|作者|撰文|文|记者|编译|执笔)"
    r"\s*[:：/／]?(?:\s+|$)|"
    r"^(?:作者|撰文|文|记者|编译|执笔)\s*[:：/／]\s*|"
    r"^[\u4e00-\u9fff]{0,8}?(?:记者|通讯员|评论员|特约撰稿人)\s*[:：]?\s*",
    re.IGNORECASE,
)
"""A label before the name: "By ", "Von ", "Autor ", "作者：", "文/", "本报记者 ", "晨报记者
"; or the whole text, where the name is the next element's ("Von" then "<a>Jane
Roe</a>")."""
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*+\.?"
"""An English month's name or abbreviation, in lower case (the patterns ignore case)."""
AFTER_NAME = r"(?:[-–—|｜•·]|/{1,2}|on|at|in|updated|published|posted)"
"""What a byline goes on with after the name, spaced on both sides, in any case: a
separator, or the word before its date, time, place or category ("Posted by Jacob in
Blogging", "by Meghann on November 13", "by Al Tompkins Published Nov. 7")."""
WRITING_VERBS = ("posted", "written", "submitted", "published")
"""The verbs before "by" that open a blog platform's byline ("Posted by …")."""
BYLINE_OPENING = f"(?:{'|'.join(WRITING_VERBS)})" + r"\s*+by"
"""A blog platform's byline label, "Posted by" and its kin (patterns that ignore case)."""
_BYLINE_OPENING_RE = re.compile(BYLINE_OPENING + r"\b", re.IGNORECASE)


def opens_with_a_byline(text: str) -> bool:
    """Whether a line opens with a blog platform's byline ("Posted by Ross Tucker on …",
    "Submitted by Kyle Mantyla on Thu, 08/09/2012")."""
    return _BYLINE_OPENING_RE.match(text) is not None


_CUT_RE = re.compile(
    r"(?<!\s)(?:\s++" + AFTER_NAME + r"\s++.*+$|\s++@.*+$|"
    r"\s*+[|｜•·]\s*+.*+$|"
    rf"\s*+\d{{1,4}}\s*+(?:[-/.年月]|{MONTH}\b).*+$|\s*+\b{MONTH}\s++\d.*+$|"
    r"\s*+\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b.*+$)|"
    r"[,，]\s*+\d.*+$",
    re.IGNORECASE,
)
_WEEKDAY_RE = re.compile(r"(?:mon|tue|wed|thu|fri|sat|sun)\.?,?", re.IGNORECASE)
"""What follows the name on a byline line: " - Mar 2, 2015", " | Staff", " // Nov 6th",
", 10:04 AM", " July 10", " Monday, March 3"; a weekday alone is a date's, not a name. Tried only
where a run of spaces starts, its repeats possessive: linear in the candidate's length."""
_NUMBER_WORD_RE = re.compile(r"(?<!\S)\d+(?!\S)")
"""A word of digits alone: a day or a count ("Dezember 10"), never part of a name."""
PLACEHOLDER_NAMES = frozenset({"网络", "互联网", "网友", "未知", "佚名", "匿名"})
"""What a page writes where it does not know the writer or the source ("来源：网络",
"作者：佚名"): no one's name, so the field stays empty."""
NOT_A_PERSON = frozenset(
    {
        "name",
        "author",
        "publisher",
        "user",
        "guest",
        "guest author",
        "guest post",
        "guest posts",
        "unknown",
        "anonymous",
        "anonym",
        "anonyme",
        "anónimo",
        "anonimo",
        "herr",
        "frau",
        "mr",
        "mrs",
        "ms",
        "about",
        "about me",
        "about us",
    }
)
"""What a template writes where a name goes (a form's "Name", a CMS's "publisher" or
"Guest Author", a theme's author link to its "About" page) or a title with no name after it
("Herr"): no one's name, compared whole in lower case ("Creator Name" is a name)."""
DESK_WORD_RE = re.compile(
    r"\b(?:staff|team|desk|newsdesk|newsroom|editorial|editors|redaktion|rédaction|redacción"
    r"|redazione)\b",
    re.IGNORECASE,
)
"""A word that names a newsroom's desk or a team where a byline names its writer ("Our
Foreign Staff", "TMZ STAFF", "Editorial Staff", "Redaktion", "Newsdesk", "Support Team"):
the article is the outlet's, and no one's name is there to report."""
JOB_WORD_RE = re.compile(
    r"\b(?:writer|reporter|correspondent|editor|columnist|contributor|producer|analyst)",
    re.IGNORECASE,
)
"""A newsroom post after a writer's name and a comma ("AP Sports Writer", "CNN Political
Reporter", "CNN Editor-at-large")."""
UI_WORDS = frozenset(
    {
        "关注",
        "已关注",
        "订阅",
        "分享",
        "收藏",
        "评论",
        "点赞",
        "转发",
        "举报",
        "阅读",
        "我来说两句",
        "出自",
        "责任",
        "责编",
        "编辑",
        "来源",
        "原创",
        "转载",
        "新闻",
        "小编",
        "admin",
        "administrator",
        "by",
        "follow",
        "following",
        "share",
        "subscribe",
        "comment",
        "comments",
        "login",
        "email",
        "e-mail",
        "fail",
        "cc",
        "ssh",
    }
    | PLACEHOLDER_NAMES
)
"""Words next to a name in bylines (buttons, counters, label fragments) and placeholders
that are no one's name; compared in lower case."""
_REPORT_SUFFIX_RE = re.compile(r"(?:(?<!\s)|(?!\s))\s*+\S{0,6}(?:报道|摄影|摄|供图|整理)$")
"""A dateline or role after the name: "李明 上海报道", "张三 摄". Never tried inside a run of
spaces: linear in the name's length."""
CONTRIBUTION_MARKS = ("对此文", "对本文", "对此稿")
"""What a contributor line says ("张三对此文亦有贡献"): the names it holds helped, and are
not the byline."""
_STRONG_SEPARATOR_RE = re.compile(r"[\s；;，,]")
"""What separates a byline's names from a contributor clause after them; "、" joins the
contributors' own names."""
_COLUMN_RE = re.compile(r"专栏$")
"""A column's name ("某某网专栏"), given where an author is: no one's name."""
JOB_TITLE_RE = re.compile(r"(?:部长|主任|教授|研究员|院长|总监|主编|经理|主席|秘书长|所长)$")
"""A name that ends in a job title is someone's position, not a byline name."""
_LATIN_PARTICLES = frozenset(
    {"de", "del", "der", "den", "van", "von", "da", "di", "du", "la", "le", "al", "bin", "and"}
)
_NOT_A_NAME_RE = re.compile(
    r"[:\[\]【】]|点击|^(?:last\s+)?(?:updated|published|posted|modified)\b", re.IGNORECASE
)
"""A label ("Last Updated"), a bracketed link text ("[点击此处收藏本文]"): no one's name."""
_SENTENCE_END_RE = re.compile(r"[a-z]{2}[.!?;]\s|[!?;]")
"""A sentence ending inside: "… by the cards. Then"; an initial ("Jane Q. Roe") is none."""
_LATIN_WORD_RE = re.compile(r"[A-Za-zÀ-ÿ][\w'’.-]*")
MAX_LATIN_WORDS = 8
_LINK_RE = re.compile(r"https?:|www\.|://|\.(?:com|net|org|cn)\b", re.IGNORECASE)
_SITE_SUFFIX_RE = re.compile(r"\.(?:com|net|org|cn|co|io|gov|edu)(?:\.cn)?$", re.IGNORECASE)
_FOLD_RE = re.compile(r"[\s\W_]+")


class Structured(str):
    """A candidate from structured data (JSON-LD, meta, itemprop): the page states it is
    the author, so it need not look like a byline in prose (an organisation's name,
    "Contributors to the project wiki", has lower-case words)."""


def structured(value: str | None) -> Structured | None:
    """`value` marked as `Structured` (None stays None)."""
    return None if value is None else Structured(value)


class Handle(str):
    """A candidate from where blog platforms write their user's account name (a link to the
    author's posts, a "Posted by" line): one word in any case is a name there ("timothy",
    "jbat"), as it is on pages not in Latin script."""


def handle(value: str | None) -> Handle | None:
    """`value` marked as a `Handle` (None stays None)."""
    return None if value is None else Handle(value)


def byline_texts(page: PageLines, other_content: Collection[int]) -> list[str]:
    """The lines inside byline elements (`byline_elements`, up to `BYLINE_LEVELS`
    elements up) that hold at most `MAX_BYLINE_CHARS` of text in all (a wrapper whose class
    says "author" around the headline and the category is no byline), outside boxes about
    other content, in page order."""
    marked = byline_elements(page)
    if not marked:
        return []
    within = _within_levels(page.parents, marked)
    parent = page.parents.get
    near: list[tuple[Line, list[int]]] = []
    for line in map(page.lines.__getitem__, lines_in(page.lines, within)):
        chain = [line.element]
        for _ in range(BYLINE_LEVELS - 1):
            chain.append(parent(chain[-1], 0))
        near.append((line, [element for element in chain if element in marked]))
    held = dict.fromkeys(marked, 0)
    for line, chain in near:
        for element in chain:
            held[element] += len(line.text)
    return [
        line.text
        for line, chain in near
        if line.noise_element not in other_content
        and any(held[element] <= MAX_BYLINE_CHARS for element in chain)
    ]


def _within_levels(parents: dict[int, int], marked: set[int]) -> set[int]:
    """The `marked` elements and their descendants down to `BYLINE_LEVELS` - 1 levels.

    Ids grow in document order and an element's descendants follow it, so each marked
    subtree is walked forward from its root until an element whose parent lies outside
    it; a marked element inside a subtree walked already is walked with it. Only the
    marked subtrees are visited, not the page's hundreds of elements (nor each line's
    ancestors)."""
    within = set(marked)
    below: dict[int, int] = {}  # walked element -> levels below its nearest marked ancestor
    for root in sorted(marked):
        if root in below:
            continue
        below[root] = 0
        element = root + 1
        while (parent := parents.get(element)) is not None and parent in below:
            below[element] = 0 if element in marked else below[parent] + 1
            if below[element] < BYLINE_LEVELS:
                within.add(element)
            element += 1
    return within


def byline_elements(page: PageLines) -> set[int]:
    """The elements that have a `BYLINE_WORDS` word in a `BYLINE_ATTRIBUTES` value.

    The attribute texts holding a byline word are found in one pass over them all
    (`needles.texts_holding`, which folds letters as the case-blind pattern does); only
    those few elements have their attributes parsed (`clean.tag_attributes`, one forward
    pass) and those values searched. A full parse of every element cost more than the rest
    of the byline work, and a pattern reading from each ``id=`` to a word further on read a
    long attribute once per ``id=`` in it (quadratic)."""
    elements = list(page.attributes)
    texts = list(page.attributes.values())
    (worded,) = texts_holding(texts, (BYLINE_WORDS,))
    return {elements[i] for i in worded if _names_a_byline(texts[i])}


def _names_a_byline(attributes: str) -> bool:
    """Whether a `BYLINE_ATTRIBUTES` value of the tag's `attributes` holds a byline word,
    and not one of a photo's (`PHOTO_WORD_RE`: "article__image-author" is its credit)."""
    values = tag_attributes(attributes)
    return any(
        _BYLINE_WORD_RE.search(value) and not PHOTO_WORD_RE.search(value)
        for value in (values.get(name, "") for name in BYLINE_ATTRIBUTES)
    )


PHOTO_WORD_RE = re.compile(r"photo|image|img|foto|picture|caption|credit", re.IGNORECASE)
"""Words of an element's name that make its byline word a photo's credit."""


PHOTO_CREDIT_RE = re.compile(
    r"\b(?:photo|photograph|image|illustration|video|graphic|picture|credit)s?\b"
    r"[^.]{0,30}?\bby\b",
    re.IGNORECASE,
)
"""A caption's credit ("Photo by James Martin/CNET"): the photographer, not the reporter."""


def without_photo_credits(texts: Sequence[str]) -> list[str]:
    """`texts` but the lines that credit a photo, video or illustration. The case-blind
    pattern, led by ``\\b``, is tried at every position: it only runs on lines holding
    "by" once lower-cased (no character beyond ASCII folds to "b" or "y")."""
    return [text for text in texts if not ("by" in text.lower() and PHOTO_CREDIT_RE.search(text))]


_ITEMPROP_AUTHOR_RE = re.compile(r"""itemprop\s*=\s*["']?author\b""", re.IGNORECASE)
ITEMPROP_AUTHOR_WORDS = ("temprop", "author")
"""What a text that `_ITEMPROP_AUTHOR_RE` matches holds once lower-cased: of the pattern's
letters only "i" matches a character beyond ASCII (`needles.CASE_FOLDS_TO_ASCII`)."""
_ATTRIBUTES = attrgetter("attributes")


ITEM_TAGS_READ = 6
"""How many recorded tags after an ``itemprop="author"`` tag with no text of its own are
read for its ``itemprop="name"``: the item's ``<meta>`` properties and its links to the
author's page (``<a rel="author">``) come first."""


def itemprop_authors(dated: Sequence[DatedTag]) -> list[str]:
    """The names of ``itemprop="author"`` tags: their own text, or that of the first
    ``itemprop`` tag inside them where it is the ``name``, past the ``<meta>`` tags that
    carry the item's other properties (Blogger's ``<meta itemprop="url">``) and the links
    to the author's page. Most pages have none:
    the tags' attributes are ruled out together, and then each (`ITEMPROP_AUTHOR_WORDS`),
    before the case-blind pattern, which is tried at every position."""
    folded = list(map(str.lower, map(_ATTRIBUTES, dated)))
    if not _may_name_an_author("\n".join(folded)):
        return []
    names: list[str] = []
    for i, tag in enumerate(dated):
        if not _may_name_an_author(folded[i]) or not marks_an_author(tag.attributes):
            continue
        text = tag.text.strip() or _item_name(dated, folded, i)
        if text:
            names.append(text)
    return names


def _item_name(dated: Sequence[DatedTag], folded: Sequence[str], item: int) -> str:
    """The text of the first ``itemprop`` tag (not a ``<meta>``) among the `ITEM_TAGS_READ`
    recorded tags after the `item`'s, where it is the ``name``; `folded`: the tags'
    attributes in lower case."""
    for at in range(item + 1, min(item + 1 + ITEM_TAGS_READ, len(dated))):
        if dated[at].tag != "meta" and "itemprop" in folded[at]:
            return dated[at].text.strip() if "name" in folded[at] else ""
    return ""


def rel_authors(dated: Sequence[DatedTag]) -> Iterator[str]:
    """The texts of ``<a rel="author">`` links, in page order (a generator: the tags are
    read only as far as a caller asks): HTML's link to the author of the article
    (WordPress's author link, "Posts by …"). Only the links whose attributes hold "rel" and
    "author" are parsed."""
    for tag in dated:
        if tag.tag != "a":
            continue
        folded = tag.attributes.lower()
        if "rel" not in folded or "author" not in folded:
            continue
        if "author" in tag_attributes(tag.attributes).get("rel", "").lower().split():
            text = tag.text.strip()
            if text:
                yield text


def hcard_authors(dated: Sequence[DatedTag]) -> Iterator[str]:
    """The names of hAtom entry authors, in page order (a generator, as `rel_authors`): the
    text of the ``fn`` tag of an entry's author card (`is_entry_author_card`: its own, or
    the first among the next `ITEM_TAGS_READ` recorded tags before another card starts)."""
    for i, tag in enumerate(dated):
        if is_entry_author_card(tag) and (name := _card_name(tag, dated[i + 1 :])):
            yield name


def _card_name(card: DatedTag, after: Sequence[DatedTag]) -> str:
    """The text of the card's ``fn``: its own, or of one of the next `ITEM_TAGS_READ`
    tags before another card (a teaser's photo credit, ``credit vcard fn org``)."""
    if "fn" in _classes(card, "fn"):
        return card.text.strip()
    for tag in after[:ITEM_TAGS_READ]:
        classes = _classes(tag, "vcard", "fn")
        if "vcard" in classes:
            return ""
        if "fn" in classes:
            return tag.text.strip()
    return ""


def is_entry_author_card(tag: DatedTag) -> bool:
    """Whether a tag is an hAtom entry's author card, ``class="author vcard"``; a comment's
    is ``comment-author vcard``, no entry author."""
    return {"vcard", "author"} <= _classes(tag, "vcard", "author")


def _classes(tag: DatedTag, *wanted: str) -> set[str]:
    """The tag's classes, in lower case, where its attribute text holds one of `wanted`
    (else none: the attributes are parsed only then)."""
    folded = tag.attributes.lower()
    if not any(word in folded for word in wanted):
        return set()
    return set(tag_attributes(tag.attributes).get("class", "").lower().split())


def marks_an_author(attributes: str) -> bool:
    """Whether a tag's raw `attributes` say ``itemprop="author"``."""
    return _ITEMPROP_AUTHOR_RE.search(attributes) is not None


def _may_name_an_author(folded: str) -> bool:
    """Whether lower-cased attributes hold every `ITEMPROP_AUTHOR_WORDS` word."""
    return all(word in folded for word in ITEMPROP_AUTHOR_WORDS)


def outlet_names(site_name: str | None, title: str, url: str | None) -> frozenset[str]:
    """Folded names of the site: og:site_name, the <title>'s last segment, the host's
    labels. An author equal to one of them, or the start of one ("网易" of "网易政务"), is
    the site naming itself."""
    names = {site_name or ""}
    segments = TITLE_SEPARATOR_RE.split(title.strip())
    if len(segments) > 1:
        names.add(segments[-1])
    if url:
        host = (urlsplit(url).hostname or "").removeprefix("www.")
        names.update(host.split("."))
        names.add(_SITE_SUFFIX_RE.sub("", host))
    return frozenset(folded for name in names if (folded := fold(name)))


def fold(name: str) -> str:
    """`name` compared loosely: case, spaces, punctuation and a ``.com``-like suffix gone."""
    return _FOLD_RE.sub("", _SITE_SUFFIX_RE.sub("", name.strip()).casefold())


def judge_author(
    candidate: str, outlets: Collection[str] = (), latin_page: bool = False
) -> tuple[str | None, str]:
    """(the name, "") when `candidate` is an author's name once labels and UI words around
    it are removed, else (None, why not). `outlets` are the site's own names. On a page in
    Latin script a Latin name must be capitalised unless it comes from structured data or
    is a `Handle`; elsewhere a lower-case handle ("lisa_w") is a blog's writer."""
    name = _LEAD_LABEL_RE.sub("", candidate.strip(), count=1)
    cut = _CUT_RE.sub("", name)
    name = _without_contributors(cut)
    if cut and not name:
        return None, "a contributor line, not the byline"
    name = name.strip(" \t:：·•●-—|,，;；/／")
    words = [word for word in name.split() if word.casefold() not in UI_WORDS]
    name = _without_affiliation(_REPORT_SUFFIX_RE.sub("", " ".join(words)).strip(), outlets)
    if name.endswith(".") and not name.endswith(" Jr.") and name[-2:-1].isalpha():
        name = name[:-1] if len(name.split()[-1]) > 2 else name
    if (
        not name
        or name.casefold() in UI_WORDS
        or _WEEKDAY_RE.fullmatch(name)
        or _NUMBER_WORD_RE.search(name)
    ):
        return None, "a label, a button or a date, no name"
    if name.casefold() in NOT_A_PERSON:
        return None, "a placeholder, no one's name"
    if "\ufffd" in name:  # bytes the page's encoding could not read, a NUL escape
        return None, "garbled: it holds a replacement character"
    if DESK_WORD_RE.search(name):
        return None, "a desk or a team, no one's name"
    if _LINK_RE.search(name) or _NOT_A_NAME_RE.search(name):
        return None, "a link or a label"
    if JOB_TITLE_RE.search(name):
        return None, "a job title"
    if _COLUMN_RE.search(name):
        return None, "a column's name"
    if _names_the_site(fold(name), outlets):
        return None, "the site's own name"
    if (
        not isinstance(candidate, Structured)
        and _is_latin(name)
        and not _latin_name(name, handle_ok=not latin_page or isinstance(candidate, Handle))
    ):
        return None, "not a capitalised name (prose caught by a byline pattern?)"
    return name, ""


def _without_affiliation(name: str, outlets: Collection[str]) -> str:
    """`name` without what follows its first comma where that is the writer's outlet or
    post ("Sandee LaMotte, CNN", "Peter Hamby, CNN Political Reporter", "Tom Krisher, AP
    Auto Writer"): the site's own name (`outlets`), whole or as the first word, or a part
    holding a newsroom post (`JOB_WORD_RE`). Two names ("Jessica Holly, Gail Levy"), a name
    written surname first ("Harm, Robert") and credentials ("Lisa Sanders, M.D.") stay."""
    head, comma, tail = name.partition(",")
    if not comma or not head.strip():
        return name
    first_word = next(iter(tail.split(maxsplit=1)), "")
    if JOB_WORD_RE.search(tail) or (
        outlets and (fold(tail) in outlets or fold(first_word) in outlets)
    ):
        return head.strip()
    return name


def is_label_alone(text: str) -> bool:
    """Whether `text` is a byline's label and nothing more ("Von", "By:", "本报记者"): the
    name is in the next element."""
    return not _LEAD_LABEL_RE.sub("", text.strip(), count=1)


def _without_contributors(name: str) -> str:
    """`name` cut before a contributor clause and the names it joins ("李四 张三、王五对此文
    亦有贡献" -> "李四"; a credit that is all contributors -> "")."""
    if "贡献" not in name:
        return name
    marks = [name.find(mark) for mark in CONTRIBUTION_MARKS if mark in name]
    if not marks:
        return name
    separators = [match.end() for match in _STRONG_SEPARATOR_RE.finditer(name, 0, min(marks))]
    return name[: separators[-1] - 1] if separators else ""


def _names_the_site(folded: str, outlets: Collection[str]) -> bool:
    """`folded` is a site name or starts one; a personal site ("张三的博客") is its
    writer's, so only an exact match counts there."""
    return folded in outlets or any(
        len(folded) >= 2 and outlet.startswith(folded) and "的" not in outlet for outlet in outlets
    )


def _is_latin(name: str) -> bool:
    return not re.search(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", name)


def _latin_name(name: str, *, handle_ok: bool) -> bool:
    """Capitalised words (particles aside), a few of them, no sentence inside: "Jane
    Roe", "Berg, Anna van den", "Jane Roe and John Doe"; not "by the way". With
    `handle_ok`, one word in any case is a user name."""
    words = _LATIN_WORD_RE.findall(name)
    if not words or len(words) > MAX_LATIN_WORDS or _SENTENCE_END_RE.search(name):
        return False
    if handle_ok and len(words) == 1:
        return True
    return all(word[0].isupper() or word.lower() in _LATIN_PARTICLES for word in words)


def first_author(
    candidates: Iterable[tuple[str, str | None]],
    outlets: Collection[str],
    latin_page: bool,
    refused: list[str],
) -> tuple[str | None, str | None]:
    """The first (name, where it was found) of `candidates` ((where, candidate) pairs)
    that `judge_author` accepts; each refused one is added to `refused` with its reason."""
    for where, candidate in candidates:
        if not candidate:
            continue
        name, why = judge_author(candidate, outlets, latin_page)
        if name:
            return name, where
        refused.append(f"{candidate!r} ({where}): {why}")
    return None, None
