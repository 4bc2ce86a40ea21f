"""The default method's title: the headline as shown, without the site's suffix.

``<title>`` usually carries the site ("标题_新浪新闻", "Headline - Site"), ``og:title``
usually does not, and the page's own ``<h1>`` is the headline as shown when the head
agrees with it (a page's first ``<h1>`` is often its logo or section name, hence the check).
Many blog themes set the post's headline in an ``<h2>`` or ``<h3>`` under a site name in
``<h1>`` (or in no ``<h1>`` at all): such a heading is the headline when the head agrees
with it and no ``<h1>`` does. Where two headings the head confirms are the two parts of
its title ("Blog: Post", "Post « Blog"), the upper one is the site's name (or a kicker) and
the lower one the headline. The page's host spells the site's name (janedoewrites.com is
the blog "Jane Doe Writes"): such a heading is never the headline, and such a part of a
head title marks the site's side of it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from urllib.parse import urlsplit

from newscrawl.extract.blocks import Line
from newscrawl.extract.head_hints import HeadHints
from newscrawl.extract.words import words

_SITE_SEPARATOR_RE = re.compile(
    r"(?:(?<!\s)|(?!\s))(?:\s++[-|–—·:：»«›‹]\s++|\s*+(?:--|[_|｜–]|(?<!—)—(?!—))\s*+|\s++-)"
    r"|-\s++|(?<=[^\x00-\x7f])-(?=[^\x00-\x7f])"
)
"""Where a site name is joined to a headline: spaced dashes, bars and colons, ``--``, ``_``,
a single ``—``, and a bare ``-`` between two non-ASCII characters ("…城！-新华网"; "COVID-19"
keeps its own). A run of ``——`` is the Chinese dash (破折号) inside the headline, leading its
subtitle ("…力量——热烈祝贺…开幕_市政府网"), not a separator. Never tried inside a run of
spaces, its repeats possessive: linear in the title's length."""
SUBHEADING_TAGS = frozenset({"h2", "h3"})
"""Headings that can hold the headline when no ``<h1>`` does."""
MAX_SUFFIX_CHARS = 12
"""A trailing part this short after a separator is a site or channel name, not headline."""
MAX_SUFFIXES = 3
"""At most this many trailing names are removed (site, channel, sub-channel)."""
MAX_HEADINGS = 5
"""The first headings of each kind, which a head title confirms as it does any heading
(`_agree`); the headline is among them unless a sidebar's headings come first, and past
them a heading must be part of a head title, not hold it."""
MIN_TITLE_SHARE = 0.4
"""A heading confirmed by a head title covers at least this share of it."""
REWORDED_SHARE = 0.6
"""A heading sharing at least this share of its and the head title's words (of the two
together) is the headline the head reworded (`_reworded`; measured: BENCHMARKS.md, "Every
rule and parameter, leave one dataset out")."""
MIN_LEADING_CHARS = 7
"""A heading that leads a head title is confirmed from this length: shorter ones may be the
site's name leading a title written "站名 - 标题" ("新浪网", "CSDN博客")."""


def choose_title(hints: HeadHints, heading_lines: Sequence[Line], url: str | None) -> str:
    """The headline among the page's `heading_lines` (its ``<h1>`` to ``<h3>`` lines, in page
    order): a subheading (``<h2>``, ``<h3>``) that a head title joins to the logo (the
    first ``<h1>`` when it is mostly a link, as a blog's name linking home is: "Post - Blog",
    "Blog: Post"; `_logo_and_post`), else a heading (``<h1>``, else a subheading) the head's
    titles confirm, else a heading that words the head's headline differently
    (`_reworded`), else og:title, else the longest part of ``<title>`` split at its
    separators, else the first ``<h1>``. Where a confirmed heading and a later one are the
    two parts of a head title ("TED Blog | Post", "Post « Blog": the blog's name in an
    ``<h1>`` or ``<h2>`` masthead, the post's headline below it), the first is the site's
    name and the later one the headline. A heading that spells the name of the `url`'s host
    is the site's masthead, never the headline (`site_names`), and a ``<title>`` part that
    spells it marks the site's side of the title (`_without_site`)."""
    head_titles = [title for title in (hints.og_title, hints.title) if title]
    h1_lines = [line for line in heading_lines if line.tag == "h1"]
    headings = [line.text for line in h1_lines]
    subheading_lines = [line for line in heading_lines if line.tag in SUBHEADING_TAGS]
    subheadings = [line.text for line in subheading_lines]
    logo = next((line.text for line in h1_lines[:1] if 2 * line.link_chars > line.chars), "")
    if logo and (post := _logo_and_post(head_titles, logo, subheadings)):
        return post
    first_at: dict[str, int] = {}
    for at, line in enumerate(heading_lines):
        first_at.setdefault(line.text, at)
    titles = [(title, _plain(title)) for title in head_titles]

    def confirmed(candidates: Sequence[str]) -> list[str]:
        """The `candidates` a head title confirms; past the first `MAX_HEADINGS`, only a
        part of one as written (no more, and no dash read as its hyphen)."""
        found = []
        for at, heading in enumerate(candidates):
            first = at < MAX_HEADINGS
            plain_heading = _plain(heading)
            if len(heading) > 1 and any(
                _agree(heading, plain_heading, title, plain, holding=first, dashes=first)
                for title, plain in titles
            ):
                found.append(heading)
        return found

    sites = site_names(url)
    confirmed_headings = _not_the_site(confirmed(headings), sites)
    confirmed_subheadings = _not_the_site(confirmed(subheadings), sites)
    if confirmed_headings:
        others = [*confirmed_headings[1:], *confirmed_subheadings]
        return _below_the_site(confirmed_headings[0], others, first_at, head_titles)
    if confirmed_subheadings:
        others = confirmed_subheadings[1:]
        return _below_the_site(confirmed_subheadings[0], others, first_at, head_titles)
    head_title = _head_title(hints, sites)
    first_headings = [*h1_lines[:MAX_HEADINGS], *subheading_lines[:MAX_HEADINGS]]
    if head_title and (shown := _reworded(head_title, first_headings, sites)):
        return shown
    return head_title or (headings[0] if headings else "")


def _head_title(hints: HeadHints, sites: frozenset[str]) -> str:
    """The headline the head states where no heading agrees with it: og:title, else the
    ``<title>`` without its site's side, else its longest part; "" without either."""
    if hints.og_title:
        return _without_site_suffix(_without_site(hints.og_title, sites) or hints.og_title)
    if post_title := _without_site(hints.title, sites):
        return _without_site_suffix(post_title)
    if hints.title:
        return max(_SITE_SEPARATOR_RE.split(hints.title), key=len).strip() or hints.title
    return ""


def _reworded(head_title: str, heading_lines: Sequence[Line], sites: frozenset[str]) -> str:
    """The first heading among `heading_lines` (the first `MAX_HEADINGS` ``<h1>`` lines, then
    the first subheadings: the headline is among them), not mostly a link nor the site's
    name, that shares the most of its words with `head_title`, at least `REWORDED_SHARE` of
    the two together (by distinct words, case aside); "" for none. The head may state the headline
    in other words than the page shows it: shortened ("HS Roundup" for "High School
    Roundup"), without a count ("(5 Examples)"), or reworded for search ("Chasing Instagram
    Analytics, My Friend Became a Grocery Store" for "Why My Friend Became a Grocery Store
    on Instagram"); the heading is the headline as shown, and its line anchors the article.
    A heading that holds the head title or is part of it is not reworded: `_agree` found it
    no headline (a comment count quoting the title, "《标题》已有1件评论")."""
    title_words, plain_title = _words(head_title), _plain(head_title)
    best, best_share = "", REWORDED_SHARE
    for line in heading_lines:
        if 2 * line.link_chars > line.chars or spells_site(line.text, sites):
            continue
        plain_heading = _plain(line.text)
        if plain_title in plain_heading or plain_heading in plain_title:
            continue  # `_agree`'s to judge: a comment count quoting the title, a section
        heading_words = _words(line.text)
        shared = len(title_words & heading_words)
        share = shared / len(title_words | heading_words) if shared else 0.0
        if share > best_share or (share == best_share and not best):
            best, best_share = line.text, share
    return best


def _words(text: str) -> frozenset[str]:
    """The distinct words of `text`, lower-cased (`words.words`)."""
    return frozenset(word.lower() for word in words(text))


LOGO_SEPARATORS = ("-", "|", "–", "—", "·", ":", "：", "»", "«", "›", "‹", "--")
"""What joins a blog's name to a post's headline in its ``<title>`` (spaces aside)."""


def _logo_and_post(head_titles: Sequence[str], logo: str, subheadings: Sequence[str]) -> str:
    """The first of `subheadings` that a head title joins to `logo` with one of
    `LOGO_SEPARATORS` ("sub SEP logo" or "logo SEP sub", whitespace and case aside), or ""."""
    plain_logo = _plain(logo)
    if len(plain_logo) < 2:
        return ""
    titles = [_plain(title) for title in head_titles]
    for subheading in subheadings:
        plain_sub = _plain(subheading)
        if len(plain_sub) < 2 or plain_sub == plain_logo:
            continue
        if any(_joined(plain_sub, plain_logo, title) for title in titles):
            return subheading
    return ""


def _below_the_site(
    heading: str, others: Sequence[str], first_at: Mapping[str, int], head_titles: Sequence[str]
) -> str:
    """The first of `others` below `heading` on the page (`first_at`: each heading's place)
    that makes the other part of a head title with it, else `heading`: the site's name, a
    masthead, comes first."""
    for other in others:
        if first_at[other] > first_at[heading] and any(
            two_parts_of(heading, other, title) for title in head_titles
        ):
            return other
    return heading


def _joined(first: str, second: str, title: str) -> bool:
    """Whether the plain `title` is the plain `first` and `second` joined by one of
    `LOGO_SEPARATORS`, in either order."""
    for one, other in ((first, second), (second, first)):
        middle = len(title) - len(one) - len(other)
        if (
            0 < middle <= 2
            and title.startswith(one)
            and title.endswith(other)
            and title[len(one) : len(one) + middle] in LOGO_SEPARATORS
        ):
            return True
    return False


def two_parts_of(first: str, second: str, title: str) -> bool:
    """Whether `first` and `second` are two different parts of `title`: split at its
    separators, or the whole title joined by one of `LOGO_SEPARATORS` ("Blog: Post", a
    colon a headline may hold too, so only both parts whole)."""
    parts, plain_title = _title_parts(title)
    first, second = _plain(first), _plain(second)
    return first != second and (
        (first in parts and second in parts) or _joined(first, second, plain_title)
    )


@lru_cache(maxsize=4)
def _title_parts(title: str) -> tuple[frozenset[str], str]:
    """The `_plain` parts of `title` split at its separators, and the whole title `_plain`:
    `two_parts_of` asks for the same page's title once per pair of headings."""
    return frozenset(_plain(part) for part in _SITE_SEPARATOR_RE.split(title)), _plain(title)


MIN_SITE_CHARS = 3
"""A host label shorter than this ("co", "m") names no site."""


@lru_cache(maxsize=4)
def site_names(url: str | None) -> frozenset[str]:
    """The names the `url`'s host spells for its site, in `_letters`: each label of the host
    name but the last (the top-level domain) and ``www``, of `MIN_SITE_CHARS` or more
    ("janedoewrites" for www.janedoewrites.com; "news" and "example" for news.example.org).
    A second-level label ("com" of .com.au) is named too: no heading or title part spells
    it alone, so the public suffix list is not needed here. The last few are kept: the
    body's title and the metadata's headline ask for the same page's."""
    if not url:
        return frozenset()
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:  # an unparseable address ("http://[::1") names no site
        return frozenset()
    labels = host.split(".")[:-1]
    return frozenset(
        name for name in map(_letters, labels) if len(name) >= MIN_SITE_CHARS and name != "www"
    )


def _not_the_site(headings: list[str], sites: frozenset[str]) -> list[str]:
    """`headings` but those that spell one of `sites` (the site's masthead)."""
    if not sites:
        return headings
    return [heading for heading in headings if not spells_site(heading, sites)]


def spells_site(text: str, sites: frozenset[str]) -> bool:
    """Whether `text` spells one of the `site_names` `sites` ("Dorf on Law" for
    dorfonlaw.org): a masthead, not a headline."""
    return _letters(text) in sites


def _without_site(title: str, sites: frozenset[str]) -> str:
    """The part of the head `title` on the headline's side of a part that spells the site's
    name: the text before it ("Post – Site - tagline"), else the text after it ("Site |
    Post"); "" where no part spells it, or the site's name is all there is."""
    if not sites or not title:
        return ""
    start = 0
    for separator in [*_SITE_SEPARATOR_RE.finditer(title), None]:
        end = len(title) if separator is None else separator.start()
        if _letters(title[start:end]) in sites:
            before, after = title[:start], title[end:]
            return before.strip(SEPARATOR_MARKS) or after.strip(SEPARATOR_MARKS)
        if separator is not None:
            start = separator.end()
    return ""


SEPARATOR_MARKS = " \t\n\r\f\v\xa0\u3000-|–—·:：»«›‹_｜"
"""The separators and spaces that join a site's part to the rest of a head title."""


_NOT_LETTERS_RE = re.compile(r"[\W_]+")


def _letters(text: str) -> str:
    """`text`'s letters and digits, lower-cased: how a host spells a name written with
    spaces, capitals and marks ("Early Retirement Extreme", "9to5Mac")."""
    return _NOT_LETTERS_RE.sub("", text.lower())


def _without_site_suffix(title: str) -> str:
    """`title` without the short site or channel names trailing it ("标题--健康·生活--人民网")."""
    for _ in range(MAX_SUFFIXES):
        separators = list(_SITE_SEPARATOR_RE.finditer(title))
        if not separators:
            break
        head, tail = title[: separators[-1].start()].strip(), title[separators[-1].end() :].strip()
        if not head or len(tail) > MAX_SUFFIX_CHARS or len(head) < 2 * len(tail):
            break
        title = head
    return title


def _agree(
    heading: str,
    plain_heading: str,
    title: str,
    plain_title: str,
    *,
    holding: bool,
    dashes: bool,
) -> bool:
    """Whether a heading is the headline a head title names (each also given `_plain`): the
    title may add a site name, but the heading is most of it (a logo ``<h1>`` is the site
    name alone), or the heading is the title's whole first part, the site's words all
    following it (blogs add keywords and the site: "标题_关键词-站名"). With `holding`, a
    heading that holds the title and a little more agrees too (a headline longer than the
    head's short title); without it, as for headings past the first `MAX_HEADINGS`, it
    does not: down the page such a heading is a comment count or a section ("3 comments on
    'Title'", "Title in Vases"). With `dashes`, where the heading is the whole title or
    leads it, its dashes may be the title's hyphens ("Post – Part" for "Post - Part -
    Site"), but a heading found inside a dash-folded title is not enough (`DASHES`). Each
    text is searched for the other only where their lengths allow a match to agree, so a
    page of many headings under a long head title costs its length, not their product."""
    if _leads(heading, title, dashes):
        return True
    if not plain_heading or not plain_title:
        return False
    heading_chars, title_chars = len(plain_heading), len(plain_title)
    if heading_chars >= MIN_TITLE_SHARE * title_chars and plain_heading in plain_title:
        return True
    if holding and title_chars >= MIN_TITLE_SHARE * heading_chars and plain_title in plain_heading:
        return True
    return (
        dashes
        and heading_chars == title_chars
        and _as_ascii(plain_heading, DASHES) == _as_ascii(plain_title, DASHES)
    )


def _leads(heading: str, title: str, dashes: bool) -> bool:
    """Whether `title` is `heading` followed by a separator and more (`MIN_LEADING_CHARS`),
    with `dashes` a hyphen in the title standing for a dash of the heading (`DASHES`)."""
    heading = heading.strip()
    if len(heading) < MIN_LEADING_CHARS:
        return False
    if not title.startswith(heading):
        lead = title[: len(heading)]
        if not dashes or (lead.isascii() and heading.isascii()):
            return False
        if _as_ascii(lead, DASHES) != _as_ascii(heading, DASHES):
            return False
    separator = _SITE_SEPARATOR_RE.match(title, len(heading))
    return separator is not None and separator.end() < len(title)


TYPOGRAPHY = (
    ("‘", "'"),
    ("’", "'"),
    ("‛", "'"),
    ("‚", "'"),
    ("“", '"'),
    ("”", '"'),
    ("‟", '"'),
    ("„", '"'),
    ("…", "..."),
)
"""Typographic quotes and the ellipsis, and their ASCII kin: a head title often writes
"It's" where the heading shows "It’s", "Wort" where a German, Polish or Czech heading
shows „Wort“, and "Wait..." where it shows "Wait…" (a CMS sets its typography in the page,
not always in the head)."""
DASHES = (("–", "-"), ("—", "-"))
"""Dashes and the hyphen a head title writes for them. The body's title folds them only
for a heading that is the whole title or leads it: a blog's tagline heading ("Tcritic –
The T-Shirt Blog …") found inside a dash-folded head title ("Post – Tcritic - The T-Shirt
Blog …") would agree with its site part and be taken for the headline."""


def _as_ascii(text: str, marks: tuple[tuple[str, str], ...]) -> str:
    """`text` with each mark of `marks` as its ASCII kin. (``str.replace`` per mark: a
    tenth of ``str.translate``'s time on these short texts.)"""
    for typographic, ascii_kin in marks:
        text = text.replace(typographic, ascii_kin)
    return text


def _plain(text: str) -> str:
    """Lower-cased without spaces, typographic quotes as ASCII (`TYPOGRAPHY`), so line
    breaks, case and a CMS's smart quotes in headings do not matter. (An ASCII text, most
    headings, takes no second call: this runs for every heading and head title pair.)"""
    text = "".join(text.split()).lower()
    return text if text.isascii() else _as_ascii(text, TYPOGRAPHY)


def folded(text: str) -> str:
    """Lower-cased, typographic quotes and dashes as ASCII, spaces kept: the metadata's
    headline match, where case and a CMS's smart punctuation do not matter."""
    text = text.lower()
    return text if text.isascii() else _as_ascii(text, TYPOGRAPHY + DASHES)
