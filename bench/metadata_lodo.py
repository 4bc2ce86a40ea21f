"""The metadata rules, one by one: which dataset pages each decides or fires on, on how
many sites, and whether it earns its place leave-one-dataset-out (LODO).

    .venv/bin/python bench/metadata_lodo.py [--shared ../shared]
        [--out bench/results/metadata-lodo.json]

Every page of the six datasets is run through ``extract_metadata(bytes, url)`` (what
``extract`` returns as its metadata) once with every rule on, and once with each rule
switched off (by patching `newscrawl.extract.metadata` from here: nothing under
``newscrawl/`` is edited). A rule *decides* a page when switching it off changes the
page's author, source, editor or publish time. An author or source rule *fires* on a page
when its candidate is found and accepted there, even where an earlier rule's value is the
one returned: `bylines.first_author` and `people._first_found` are wrapped so that every
candidate of a chain is tried (a chain that is not consulted at all, such as the
fallbacks after a reporter credit, is not). A page's site is its `sites` folder, else its
URL's host, else (zh_cwce has no URLs) the host most of its absolute links point to.

LODO, on the three datasets with metadata gold (zh_cwce, sites, readability; scored by
`bench_metadata`'s field measures, leaving out the values its `GOLD_ISSUES` lists as gold
errors; dragnet_dev's dates, as its hand-copied text shows them, are a weak gold of 470
pages that would outweigh the others' sum, so `bench_metadata` reports them apart): a
dataset's score is authors right - authors wrong +
dates right to the day - dates wrong - dates where the gold says none (a wrong value costs
what a right one gains: none is better than a wrong one). For each held-out dataset a rule
is dropped when dropping it raises the other datasets' summed score; its held-out gain
is the held-out score with that decision minus the score without the rule. The tuned
thresholds (`PARAMETERS`) are swept over a small grid each, one at a time, and chosen the
same way (the default unless a value is strictly better on the others). The whole
method per fold (every rule the other datasets drop dropped and every threshold at the
value they choose, at once) is scored on the held-out dataset beside its in-sample figures.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

from bench_metadata import (
    GOLD_ISSUES,
    Fields,
    Page,
    _measure_author,
    _measure_date,
    load_readability,
    load_sites,
    load_zh_cwce,
)
from recorded import recorded

import newscrawl.extract.metadata as metadata_module
from newscrawl.evaluation.datasets import load_dataset
from newscrawl.extract.metadata import (
    Metadata,
    bylines,
    dates,
    extract_metadata,
    jsonld,
    lines,
    people,
)
from newscrawl.extract.metadata.scripts import ScriptTimestamps, ScriptVariables

ROOT = Path(__file__).resolve().parents[1]
NEVER = re.compile(r"(?!)")
GOLD_SETS = ("zh_cwce", "sites", "readability")
OTHER_SETS = ("scrapinghub", "trafilatura_dev", "dragnet_dev")
_HOST_RE = re.compile(rb"""href=["']?https?://([\w.-]+)""")


def _none(*_args: Any, **_kwargs: Any) -> None:
    return None


_BYLINE_ELEMENT_TEXT = people._byline_element_text


def _never(*_args: Any, **_kwargs: Any) -> bool:
    return False


def _first_in_header(byline_texts: Any, header_text: Any, _headline: Any) -> str | None:
    """`people._byline_element_text` told of no headline: any byline text in the header."""
    return _BYLINE_ELEMENT_TEXT(byline_texts, header_text, None)


def _lines_alone(header: Any) -> Iterator[tuple[int, str]]:
    """`dates._header_texts` without its date badges: each header line alone."""
    return ((index, line.text.strip()) for index, line in enumerate(header))


def _always(*_args: Any, **_kwargs: Any) -> bool:
    return True


def _nothing(*_args: Any, **_kwargs: Any) -> list[Any]:
    return []


def _no_items(*_args: Any, **_kwargs: Any) -> frozenset[int]:
    return frozenset()


def _unchanged(name: str) -> str:
    return name


_STOP_BEFORE = people._STOP.replace(
    r"(?<!\s)(?=\s++(?:(?i:"
    + people.AFTER_NAME
    + r")\s|@|\d|(?i:"
    + people.MONTH
    + r")\s++\d)|\s*+(?:",
    r"(?=\s*(?:",
)
"""`people._STOP` without the ends before what a byline goes on with (the date, place,
handle, a number): where a name ended at a separator, a year or the line's end only."""


def _first_ld_without(key: str) -> Callable[..., str | None]:
    original = people._first_ld

    def first_ld(objects: Any, wanted: str) -> str | None:
        return None if wanted == key else original(objects, wanted)

    return first_ld


@dataclass(frozen=True)
class Rule:
    name: str
    field: str
    """author, source, editor or published."""
    what: str
    patches: tuple[tuple[Any, str, Any], ...]
    """(module, attribute, replacement): what switches the rule off."""
    where: tuple[str, ...] = ()
    """The evidence labels (`Metadata.evidence`) of its candidates, for "fires on"."""


RULES: tuple[Rule, ...] = (
    Rule(
        "json-ld author",
        "author",
        "JSON-LD author",
        ((people, "_first_ld", _first_ld_without("author")),),
        ("json-ld",),
    ),
    Rule(
        "itemprop author",
        "author",
        "microdata itemprop=author",
        ((bylines, "itemprop_authors", _nothing),),
        ("itemprop",),
    ),
    Rule(
        "byline element",
        "author",
        "text of an element whose class/id names a byline, in the header",
        ((bylines, "byline_texts", _nothing),),
        ("byline element",),
    ),
    Rule(
        "labelled author, header",
        "author",
        "作者：/记者：/文/ /by … in the header window",
        ((people, "_AUTHOR_RE", NEVER),),
        ("header label",),
    ),
    Rule(
        "labelled author, anywhere",
        "author",
        "作者：/记者：/文/ … anywhere",
        ((people, "_LABELLED_AUTHOR_RE", NEVER),),
        ("label",),
    ),
    Rule(
        "blog byline",
        "author",
        "name beside the date: 于 2024-05-12 发布, posted @ … name",
        ((people, "_BYLINE_NAME_RE", NEVER),),
        ("blog byline",),
    ),
    Rule(
        "reporter credit",
        "author",
        "（记者 刘洋 陈静）, □ 本报记者 王小明",
        ((people, "_credit", _none),),
        ("reporter credit",),
    ),
    Rule(
        "closing names",
        "author",
        "bare names in brackets closing the last paragraph",
        ((people, "_trailing_names", _none),),
        ("closing names",),
    ),
    Rule(
        "meta author",
        "author",
        "<meta name=author> and its kin",
        ((people, "_meta_author", _none),),
        ("meta",),
    ),
    Rule(
        "script author",
        "author",
        "display names in script state (nickName, mediaName)",
        ((people, "_script_author", _none),),
        ("script",),
    ),
    Rule(
        "account names",
        "author",
        "one lower-case word is a name where a platform writes its user's account",
        ((people, "handle", _unchanged),),
    ),
    Rule(
        "rel author",
        "author",
        "the text of an <a rel=author> link (WordPress's link to the author's posts)",
        ((bylines, "rel_authors", _nothing),),
        ("rel author",),
    ),
    Rule(
        "hcard author",
        "author",
        "the fn of an hAtom entry's author card (class=author vcard), not a comment's",
        ((bylines, "hcard_authors", _nothing),),
        ("hcard author",),
    ),
    Rule(
        "post footer byline",
        "author",
        "Posted by <name> at <time> in a footer marked as the post's (Blogger's classic)",
        ((metadata_module, "_post_footer_lines", _nothing),),
        ("post footer",),
    ),
    Rule(
        "posted by lines",
        "author",
        "a visible line from the headline on opening Posted by / Written by / Submitted by",
        ((people, "_posted_by_line", _none),),
        ("posted by",),
    ),
    Rule(
        "blog owner",
        "author",
        "a blog's heading: 张三的博客",
        ((people, "_OWNER_RE", NEVER),),
        ("blog owner",),
    ),
    Rule(
        "names under the headline",
        "author",
        "a surname-led names-only line under the headline",
        ((people, "_name_line", _none),),
        ("names under the headline",),
    ),
    Rule(
        "essay layout",
        "author",
        "names under the headline's second copy, prose after",
        ((people, "_essay_writer", _none),),
        ("essay layout",),
    ),
    Rule(
        "profile card",
        "author",
        "name above 作者简介 / under 个人资料",
        ((people, "_profile_card", _none),),
        ("profile card",),
    ),
    Rule(
        "contributor clauses",
        "author",
        "张三对此文亦有贡献 is no byline",
        ((bylines, "_without_contributors", _unchanged),),
    ),
    Rule("column names", "author", "某某网专栏 is no author", ((bylines, "_COLUMN_RE", NEVER),)),
    Rule(
        "headline no byline",
        "author",
        "a byline box's text that is the headline (entry-author-<blog> on the post's box)",
        ((people, "_byline_element_text", _first_in_header),),
    ),
    Rule(
        "platform credits",
        "author",
        "powered by / hosted by … is no byline",
        (
            (
                people,
                "_AUTHOR_RE",
                re.compile(people._AUTHOR_RE.pattern.replace(people._NOT_A_PLATFORM, "")),
            ),
        ),
    ),
    Rule(
        "name ends",
        "author",
        "a header byline's name ends before on/at/in, a spaced dash or bullet, Published, @, 6",
        (
            (
                people,
                "_AUTHOR_RE",
                re.compile(people._AUTHOR_RE.pattern.replace(people._STOP, _STOP_BEFORE)),
            ),
        ),
    ),
    Rule(
        "by after another word",
        "author",
        "a thing's credit is no byline: Web Toolbar by Wibiya, Subscribe by RSS",
        ((people, "_labels_a_writer", _always),),
    ),
    Rule(
        "label alone",
        "author",
        "a byline label in an element of its own (Von, By) gives way to the name after it",
        ((people, "is_label_alone", _never),),
    ),
    Rule(
        "placeholders",
        "author",
        "a template's word where a name goes (Name, publisher, Guest Author, Herr)",
        ((bylines, "NOT_A_PERSON", frozenset()),),
    ),
    Rule(
        "desk names",
        "author",
        "a desk's or a team's name where the writer's goes (Our Foreign Staff, Newsdesk)",
        ((bylines, "DESK_WORD_RE", NEVER),),
    ),
    Rule(
        "affiliations",
        "author",
        "the site's name or a newsroom post after a comma goes (Josh Levs, CNN; AP Sports Writer)",
        ((bylines, "_without_affiliation", lambda name, _outlets: name),),
    ),
    Rule(
        "number words",
        "author",
        "a word of digits is a date or a count (Dezember 10), no name",
        ((bylines, "_NUMBER_WORD_RE", NEVER),),
    ),
    Rule(
        "slash separators",
        "author",
        "a byline's name ends at / or // (By Ed Silverman // November 6th)",
        (
            (
                bylines,
                "_CUT_RE",
                re.compile(bylines._CUT_RE.pattern.replace("|/{1,2}", ""), re.IGNORECASE),
            ),
        ),
    ),
    Rule(
        "JSON-LD entities",
        "author",
        "HTML entities in a JSON-LD name decoded (O&#039;Donnell)",
        ((jsonld, "unescape", _unchanged),),
    ),
    Rule(
        "photo credit boxes",
        "author",
        "a byline word in a photo's box (article__image-author) is its credit",
        ((bylines, "PHOTO_WORD_RE", NEVER),),
    ),
    Rule(
        "meta over a run-on byline",
        "author",
        "'Jason PaurEmail Author' gives way to the meta author 'Jason Paur'",
        ((people, "_runs_on", _never),),
    ),
    Rule(
        "photo credits",
        "author",
        "摄影/图 lines are not the byline",
        ((people, "without_photo_credits", list),),
    ),
    Rule(
        "source label",
        "source",
        "来源：/稿源： lines",
        ((people, "_SOURCE_RE", NEVER),),
        ("header label", "label"),
    ),
    Rule(
        "source meta",
        "source",
        "<meta name=source>, og:site_name …",
        ((people, "SOURCE_META", ()),),
        ("meta",),
    ),
    Rule(
        "json-ld publisher",
        "source",
        "JSON-LD publisher",
        ((people, "_first_ld", _first_ld_without("publisher")),),
        ("json-ld publisher",),
    ),
    Rule(
        "script account",
        "source",
        "a WeChat account's nickname",
        ((people, "_script_account", _none),),
        ("script account",),
    ),
    Rule(
        "placeholder sources",
        "source",
        "网络, 未知, 佚名 … are no source",
        ((people, "PLACEHOLDER_NAMES", frozenset()),),
    ),
    Rule("editor label", "editor", "责任编辑：/编辑：", ((people, "_EDITOR_RE", NEVER),)),
    Rule(
        "structured date",
        "published",
        "JSON-LD, meta, <time>, attributes, script variables",
        ((dates, "_structured", _none),),
    ),
    Rule(
        "microformat times",
        "published",
        "an <abbr>'s title: itemprop=datePublished, or class=published (hAtom)",
        ((dates, "_abbr_title", _none),),
    ),
    Rule(
        "quotations",
        "published",
        "lines inside a <blockquote> (a quotation, an embedded post) are set aside",
        ((lines, "without_quotations", _unchanged),),
    ),
    Rule(
        "platform byline dates",
        "published",
        "a bare 'on' introduces the date in a line opening Posted by / Submitted by",
        ((dates, "opens_with_a_byline", _never),),
    ),
    Rule(
        "post footers",
        "published",
        "a footer holding itemprop=author, an <abbr> publish time or author card closes the post",
        ((metadata_module, "_post_footers", _no_items),),
    ),
    Rule(
        "script times",
        "published",
        "date strings in script variables",
        ((dates, "_SCRIPT_TIMES", ScriptVariables(("\0",), 1, 1)),),
    ),
    Rule(
        "script Unix times",
        "published",
        "Unix times in script variables (WeChat ct)",
        ((dates, "_SCRIPT_EPOCHS", ScriptTimestamps(("\0",))),),
    ),
    Rule(
        "header date",
        "published",
        "the byline date in the header window",
        ((dates, "visible", _none),),
    ),
    Rule(
        "labelled date",
        "published",
        "a publish-labelled date anywhere (发布时间：, posted @)",
        ((dates, "labelled", _none),),
    ),
    Rule(
        "first timed line",
        "published",
        "no headline: the first date with a time above the body",
        ((dates, "_first_timed", _none),),
    ),
    Rule(
        "month only",
        "published",
        "a labelled month or a print-issue citation",
        ((dates, "month", _none),),
    ),
    Rule(
        "two-digit years",
        "published",
        "发布时间：21-06-15 09:30",
        ((dates, "_SHORT_YMD_RE", NEVER),),
    ),
    Rule("m/d/y dates", "published", "7/5/2005 9:23:57 PM", ((dates, "_MDY_RE", NEVER),)),
    Rule(
        "month-name dates",
        "published",
        "January 31, 2011; 8. November 2021; 1er février 2022",
        ((dates, "_NAMED_MDY_RE", NEVER), (dates, "_NAMED_DMY_RE", NEVER)),
    ),
    Rule(
        "the headline's box",
        "published",
        "a box named other content that holds the only headline heading is the article's",
        ((lines, "headline_boxes", _no_items),),
    ),
    Rule(
        "URL days",
        "published",
        "a permalink's /YYYY/MM/DD/ dates a page that writes no date",
        ((dates, "url_day", _none),),
    ),
    Rule(
        "date badges",
        "published",
        "three short header lines joined: a day, a month and a year in boxes of their own",
        ((dates, "_header_texts", _lines_alone),),
    ),
    Rule(
        "the lower of two title parts",
        "published",
        "of two headings the <title> joins ('Blog: Post'), the lower anchors the header",
        ((lines, "two_parts_of", _never),),
    ),
    Rule(
        "no masthead as the headline",
        "published",
        "the header is read under the post's heading or title line, not the blog's name",
        ((lines, "spells_site", _never),),
    ),
    Rule(
        "headline in other case or marks",
        "published",
        "the <title> writes the heading in its own case, or with ASCII quotes and dashes",
        ((lines, "folded", str),),
    ),
    Rule(
        "a deck over the byline",
        "published",
        "a sentence or two under the headline, a short line under it: the header goes on",
        ((lines, "_deck_over_a_byline", _never),),
    ),
    Rule(
        "structured time says more",
        "published",
        "its seconds, or in UTC the instant of a byline time whole half hours off ('8:03 a.m.')",
        ((dates, "_structured_says_more", _never),),
    ),
    Rule(
        "year-less dates",
        "published",
        "06-15 09:30, the year from other evidence",
        ((dates, "_MD_TIME_RE", NEVER),),
    ),
    Rule("relative dates", "published", "昨天 10:00, 3小时前", ((dates, "_RELATIVE_RE", NEVER),)),
    Rule(
        "date vetoes",
        "published",
        "修改/更新/评论, updated/founded … before or after a date",
        ((dates, "_REJECT_BEFORE_RE", NEVER), (dates, "_REJECT_AFTER_RE", NEVER)),
    ),
    Rule(
        "link lists",
        "published",
        "dates in lists of links are other pages'",
        ((dates, "link_list_items", _no_items), (lines, "link_list_items", _no_items)),
    ),
)


@dataclass(frozen=True)
class Parameter:
    name: str
    places: tuple[tuple[Any, str], ...]
    """(module, attribute): where the value is read (a name imported twice is set in both)."""
    grid: tuple[Any, ...]
    """Values tried; the default among them."""

    @property
    def default(self) -> Any:
        module, attribute = self.places[0]
        return getattr(module, attribute)


def _days(*counts: int) -> tuple[timedelta, ...]:
    return tuple(timedelta(days=count) for count in counts)


PARAMETERS: tuple[Parameter, ...] = (
    Parameter("HEADER_LINES_BEFORE", ((lines, "HEADER_LINES_BEFORE"),), (1, 3, 5, 8)),
    Parameter("HEADER_LINES_AFTER", ((lines, "HEADER_LINES_AFTER"),), (6, 12, 20)),
    Parameter("HEADER_CHARS_AFTER", ((lines, "HEADER_CHARS_AFTER"),), (300, 600, 1000)),
    Parameter("MIN_TITLE_CHARS", ((lines, "MIN_TITLE_CHARS"),), (4, 6, 10)),
    Parameter("DECK_SENTENCES", ((lines, "DECK_SENTENCES"),), (1, 2, 3)),
    Parameter("BODY_LINE_CHARS", ((lines, "BODY_LINE_CHARS"), (dates, "BODY_LINE_CHARS")),
              (60, 90, 150)),
    Parameter("AGREEMENT", ((dates, "AGREEMENT"),), _days(0, 1, 3)),
    Parameter("MAX_SEARCHED_LINES", ((dates, "MAX_SEARCHED_LINES"),), (20, 50, 100)),
    Parameter("CONTEXT", ((dates, "CONTEXT"),), (6, 12, 20)),
    Parameter("CREDIT_LINE_CHARS", ((people, "CREDIT_LINE_CHARS"),), (25, 40, 60)),
    Parameter("MAX_BYLINE_CHARS", ((bylines, "MAX_BYLINE_CHARS"),), (60, 120, 200)),
    Parameter("BYLINE_LEVELS", ((bylines, "BYLINE_LEVELS"),), (1, 3, 5)),
    Parameter("MAX_LATIN_WORDS", ((bylines, "MAX_LATIN_WORDS"),), (4, 8, 12)),
)  # fmt: skip
"""The metadata's tuned thresholds (each module's docstring says what they bound)."""
PARAMETERS_BY_NAME = {parameter.name: parameter for parameter in PARAMETERS}


def _shown(value: Any) -> str:
    return f"{value.days}d" if isinstance(value, timedelta) else str(value)


@contextmanager
def configured(
    rules_off: Sequence[Rule], values: Mapping[str, Any] | None = None
) -> Iterator[None]:
    """`rules_off` switched off and the named `PARAMETERS` set to `values`, for the run."""
    with ExitStack() as stack:
        for rule in rules_off:
            for module, attribute, replacement in rule.patches:
                stack.enter_context(mock.patch.object(module, attribute, replacement))
        for name, value in (values or {}).items():
            for module, attribute in PARAMETERS_BY_NAME[name].places:
                stack.enter_context(mock.patch.object(module, attribute, value))
        yield


class Firing:
    """Records every author and source candidate accepted on the current page."""

    def __init__(self) -> None:
        self.found: set[tuple[str, str]] = set()
        self._calls = 0

    def next_page(self) -> None:
        self.found = set()
        self._calls = 0

    @contextmanager
    def recording(self) -> Iterator[None]:
        original_author, original_found = people.first_author, people._first_found

        def first_author(candidates: Any, outlets: Any, latin: bool, refused: list[str]) -> Any:
            tried = list(candidates)
            for where, candidate in tried:
                if candidate and bylines.judge_author(candidate, outlets, latin)[0]:
                    self.found.add(("author", where))
            return original_author(tried, outlets, latin, refused)

        def first_found(*candidates: Any) -> Any:
            field = "source" if self._calls % 2 == 0 else "editor"
            self._calls += 1
            for where, candidate in candidates:
                if candidate():
                    self.found.add((field, where))
            return original_found(*candidates)

        with (
            mock.patch.object(people, "first_author", first_author),
            mock.patch.object(people, "_first_found", first_found),
        ):
            yield


def load_pages(shared: Path) -> dict[str, list[Page]]:
    pages = {
        "zh_cwce": load_zh_cwce(shared),
        "sites": load_sites(shared),
        "readability": load_readability(shared),
    }
    for name in OTHER_SETS:
        pages[name] = [
            Page(page.id, page.html, "", page.url, "", "")
            for page in load_dataset(name, shared).pages
        ]
    return pages


def page_site(dataset: str, page: Page) -> str:
    if dataset == "sites":
        return page.name.split("-")[0]
    if page.url:
        return urlsplit(page.url).hostname or "?"
    hosts = Counter(_HOST_RE.findall(page.html))
    return hosts.most_common(1)[0][0].decode() if hosts else "?"


def field_values(meta: Metadata) -> tuple[str | None, ...]:
    published = meta.published.isoformat() if meta.published else None
    return meta.author, meta.source, meta.editor, published


@dataclass
class Run:
    outputs: dict[str, tuple[str | None, ...]]
    """Per "dataset/page": (author, source, editor, published)."""
    fields: dict[str, Fields]
    fired: dict[str, set[tuple[str, str]]]


def run(
    pages: dict[str, list[Page]],
    off: Sequence[Rule],
    firing: Firing | None = None,
    values: Mapping[str, Any] | None = None,
) -> Run:
    outputs: dict[str, tuple[str | None, ...]] = {}
    fields = {name: Fields(pages=len(pages[name])) for name in GOLD_SETS}
    fired: dict[str, set[tuple[str, str]]] = {}
    with configured(off, values), firing.recording() if firing else ExitStack():
        for dataset, dataset_pages in pages.items():
            for page in dataset_pages:
                if firing:
                    firing.next_page()
                meta = extract_metadata(page.html, page.url)
                key = f"{dataset}/{page.name}"
                outputs[key] = field_values(meta)
                if firing:
                    fired[key] = firing.found
                if dataset in fields and (page.name, "author") not in GOLD_ISSUES:
                    _measure_author(fields[dataset], page, meta)
                if dataset in fields and (page.name, "date") not in GOLD_ISSUES:
                    _measure_date(fields[dataset], page, meta)
    return Run(outputs, fields, fired)


def score(fields: Fields) -> int:
    return (
        fields.author_right
        - fields.author_wrong
        + fields.date_right
        - fields.date_wrong
        - fields.date_spurious
    )


def figures(fields: Fields) -> dict[str, Any]:
    judged = fields.author_right + fields.author_wrong
    return {
        "score": score(fields),
        "author right": fields.author_right,
        "author wrong": fields.author_wrong,
        "author precision": round(fields.author_right / judged, 4) if judged else None,
        "author recall": round(fields.author_right / fields.author_gold, 4)
        if fields.author_gold
        else None,
        "date right": fields.date_right,
        "date wrong": fields.date_wrong,
        "date spurious": fields.date_spurious,
    }


FIELD_INDEX = {"author": 0, "source": 1, "editor": 2, "published": 3}


def rule_report(rule: Rule, base: Run, without: Run, sites: dict[str, str]) -> dict[str, Any]:
    decides = sorted(key for key in base.outputs if base.outputs[key] != without.outputs[key])
    fires = sorted(
        key
        for key, found in base.fired.items()
        if any((rule.field, where) in found for where in rule.where)
    )
    pages = sorted(set(decides) | set(fires))
    in_sample = {name: score(base.fields[name]) - score(without.fields[name]) for name in GOLD_SETS}
    lodo = {}
    for held_out in GOLD_SETS:
        others = sum(gain for name, gain in in_sample.items() if name != held_out)
        keep = others >= 0
        lodo[held_out] = {"kept": keep, "held-out gain": in_sample[held_out] if keep else 0}
    return {
        "field": rule.field,
        "what": rule.what,
        "decides": decides,
        "fires": fires,
        "sites": sorted({sites[key] for key in pages}),
        "in-sample gain": in_sample,
        "lodo": lodo,
    }


def parameter_report(parameter: Parameter, gold_pages: dict[str, list[Page]]) -> dict[str, Any]:
    """Scores on each gold dataset at each grid value; per held-out dataset the value with
    the best summed score on the other two (the default unless one is strictly better),
    and the held-out score there minus at the default."""
    scores = {
        _shown(value): {
            name: score(fields)
            for name, fields in run(gold_pages, (), values={parameter.name: value}).fields.items()
        }
        for value in parameter.grid
    }
    default = _shown(parameter.default)
    lodo = {}
    for held_out in GOLD_SETS:

        def others(value: str, held_out: str = held_out) -> int:
            return sum(got for name, got in scores[value].items() if name != held_out)

        best = max(scores, key=others)
        chosen = best if others(best) > others(default) else default
        gain = scores[chosen][held_out] - scores[default][held_out]
        lodo[held_out] = {"chosen": chosen, "held-out gain": gain}
    return {"default": default, "scores": scores, "lodo": lodo}


def whole_method(
    gold_pages: dict[str, list[Page]],
    base: Run,
    reports: dict[str, dict[str, Any]],
    parameters: dict[str, dict[str, Any]],
) -> dict[str, Any]:
    """Per held-out dataset: every rule the other two drop dropped and every parameter at
    the value they choose, at once."""
    folds = {}
    for held_out in GOLD_SETS:
        dropped = [rule for rule in RULES if not reports[rule.name]["lodo"][held_out]["kept"]]
        values = {
            parameter.name: next(
                value
                for value in parameter.grid
                if _shown(value) == parameters[parameter.name]["lodo"][held_out]["chosen"]
            )
            for parameter in PARAMETERS
            if parameters[parameter.name]["lodo"][held_out]["chosen"]
            != parameters[parameter.name]["default"]
        }
        changed = bool(dropped or values)
        fields = (
            run(gold_pages, dropped, values=values).fields[held_out]
            if changed
            else base.fields[held_out]
        )
        folds[held_out] = {
            "dropped": [rule.name for rule in dropped],
            "changed": {name: _shown(value) for name, value in values.items()},
            "lodo": figures(fields),
            "in-sample": figures(base.fields[held_out]),
        }
    return folds


def _pages_cell(keys: Sequence[str], limit: int = 4) -> str:
    shown = ", ".join(key.split("/", 1)[0] + " " + key.split("/", 1)[1][:8] for key in keys[:limit])
    return f"{len(keys)}: {shown}{', …' if len(keys) > limit else ''}" if keys else "0"


def markdown(
    reports: dict[str, dict[str, Any]],
    parameters: dict[str, dict[str, Any]],
    folds: dict[str, Any],
) -> str:
    rows = [
        "| rule | field | what it reads | decides (pages) | fires on (pages) | sites | "
        "held-out gain " + " / ".join(GOLD_SETS) + " |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, report in reports.items():
        gains = " / ".join(
            f"{report['lodo'][held]['held-out gain']:+d}"
            + ("" if report["lodo"][held]["kept"] else " (dropped)")
            for held in GOLD_SETS
        )
        sites = report["sites"]
        shown = ", ".join(sites[:4]) + (", …" if len(sites) > 4 else "")
        rows.append(
            f"| {name} | {report['field']} | {report['what']} | {_pages_cell(report['decides'])} "
            f"| {_pages_cell(report['fires']) if report['fires'] else '–'} "
            f"| {len(sites)}{': ' + shown if sites else ''} | {gains} |"
        )
    tuned = [
        "| parameter | default | score at each value (" + " / ".join(GOLD_SETS) + ") | "
        "chosen on the others when held out: " + " / ".join(GOLD_SETS) + " | held-out gain |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, report in parameters.items():
        cells = "; ".join(
            f"{value}: " + " / ".join(str(got[held]) for held in GOLD_SETS)
            for value, got in report["scores"].items()
        )
        chosen = " / ".join(report["lodo"][held]["chosen"] for held in GOLD_SETS)
        gains = " / ".join(f"{report['lodo'][held]['held-out gain']:+d}" for held in GOLD_SETS)
        tuned.append(f"| {name} | {report['default']} | {cells} | {chosen} | {gains} |")
    whole = [
        "| held out | rules dropped, parameters changed on the others | score LODO / in-sample "
        "| author precision LODO / in-sample | author recall LODO / in-sample "
        "| dates right LODO / in-sample |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for held, fold in folds.items():
        lodo, own = fold["lodo"], fold["in-sample"]
        whole.append(
            f"| {held} | {_changes(fold)} | {lodo['score']} / {own['score']} "
            f"| {lodo['author precision']} / {own['author precision']} "
            f"| {lodo['author recall']} / {own['author recall']} "
            f"| {lodo['date right']} / {own['date right']} |"
        )
    return "\n".join([*rows, "", *tuned, "", *whole, ""])


def _changes(fold: Mapping[str, Any]) -> str:
    changes = [*fold["dropped"], *(f"{name}={value}" for name, value in fold["changed"].items())]
    return ", ".join(changes) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench" / "results" / "metadata-lodo.json"
    )
    args = parser.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    command = " ".join([".venv/bin/python", "bench/metadata_lodo.py", *given])
    pages = load_pages(args.shared)
    sites = {f"{name}/{page.name}": page_site(name, page) for name in pages for page in pages[name]}
    base = run(pages, (), Firing())
    reports = {rule.name: rule_report(rule, base, run(pages, (rule,)), sites) for rule in RULES}
    gold_pages = {name: pages[name] for name in GOLD_SETS}
    parameters = {
        parameter.name: parameter_report(parameter, gold_pages) for parameter in PARAMETERS
    }
    folds = whole_method(gold_pages, base, reports, parameters)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"command": command, "rules": reports, "parameters": parameters, "whole": folds},
            indent=1,
            ensure_ascii=False,
        )
    )
    print(markdown(reports, parameters, folds))
    return 0


if __name__ == "__main__":
    with recorded("metadata-lodo", "The metadata rules, leave one dataset out"):
        raise SystemExit(main())
