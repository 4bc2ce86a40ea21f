"""Hostile pages whose scans used to grow faster than the page: extraction must finish and
still find what the page says.

Each page repeats what made one scan of page content quadratic (or worse), at a size where
that scan took minutes. Extraction runs in a forked process given a generous limit: a
guard that it does not hang, not a timing measure (the timings are in
``bench/bench_pathological.py`` and BENCHMARKS.md). The page's own article and byline
must come out as from the page without the hostile part.
"""

from __future__ import annotations

import html
import json
import multiprocessing
import re
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newscrawl.discovery.apis import load_json_or_jsonp
from newscrawl.discovery.model import MalformedListError
from newscrawl.extract import default, extract
from newscrawl.extract import title as title_module
from newscrawl.extract.blocks import page_lines
from newscrawl.extract.clean import FEW_AMPERSANDS, unescape
from newscrawl.extract.metadata import MAX_DATED_TAGS, dates, extract_metadata, people
from newscrawl.extract.metadata.bylines import byline_elements, judge_author, outlet_names
from newscrawl.extract.title import two_parts_of

LIMIT_SECONDS = 60.0
"""Far above what any of these pages takes now (milliseconds), far below what they took."""
ARTICLE = (
    "<html><head><title>Storm closes the harbour - Daily News</title></head><body>"
    "<h1>Storm closes the harbour</h1>{hostile}"
    '<div class="byline">By Jane Doe</div>'
    + "<p>The harbour closed on Monday as the storm reached the coast, and ships waited "
    "offshore for the wind to drop.</p>" * 8 + "</body></html>"
)


def _call_into(function: Callable[[Any], Any], argument: Any, sender: Connection) -> None:
    sender.send(function(argument))


def within_limit(function: Callable[[Any], Any], argument: Any) -> Any:
    """`function(argument)`, run in a forked process that must finish within
    `LIMIT_SECONDS`."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_call_into, args=(function, argument, sender), daemon=True)
    process.start()
    try:
        if not receiver.poll(LIMIT_SECONDS):
            pytest.fail(f"{function.__name__}() still running after {LIMIT_SECONDS:.0f} s")
        return receiver.recv()
    finally:
        process.kill()
        process.join()


def title_body_author(page: bytes) -> tuple[str, str, str | None]:
    article = extract(page)
    return article.title, article.body, article.metadata.author


def hostile_page(hostile: str) -> bytes:
    return ARTICLE.format(hostile=hostile).encode("utf-8")


PLAIN = extract(hostile_page(""))


@pytest.mark.parametrize(
    "hostile",
    [
        # A byline word, then a key (id=, class=) repeated in any attribute's value: every
        # key started a search to the end of the value.
        '<div title="author ' + "id=" * 60_000 + '">x</div>',
    ],
    ids=["id= in a title attribute"],
)
def test_a_hostile_page_is_extracted_as_the_page_without_it(hostile: str) -> None:
    title, body, author = within_limit(title_body_author, hostile_page(hostile))
    assert (title, body, author) == (PLAIN.title, PLAIN.body, PLAIN.metadata.author)
    assert author == "Jane Doe"


@pytest.mark.parametrize(
    ("attributes", "byline"),
    [
        ('class="byline"', True),
        ('class="article-Author small"', True),
        ("itemprop=author", True),
        ("id='js_author'", True),
        ('rel="author"', True),
        ('title="id=author"', False),
        ('data-id="author"', False),
        ('class="meta" data-role="author"', False),
        ('class="author', True),
    ],
)
def test_a_byline_element_has_a_byline_word_in_its_class_id_itemprop_or_rel(
    attributes: str, byline: bool
) -> None:
    page = page_lines(f"<body><div {attributes}>Jane Doe</div></body>")
    assert bool(byline_elements(page)) is byline


def jsonp_error(body: str) -> str:
    """Why `body` is refused as JSON or JSONP ("" if it is read)."""
    try:
        load_json_or_jsonp(body)
    except MalformedListError as error:
        return str(error)
    return ""


@pytest.mark.parametrize(
    "body",
    [
        '{"result": {"status": {"code": 0}, "data": [' + "7" * 5000 + "]}}",
        "callback(" + "[" * 100_000 + "]" * 100_000 + ")",
    ],
    ids=["an integer past int's digit limit", "nesting past the recursion limit"],
)
def test_a_list_api_answer_past_python_s_limits_is_refused(body: str) -> None:
    assert jsonp_error(body).startswith("not JSON or JSONP")


def test_a_cut_list_api_answer_with_long_spaces_after_brackets_is_refused() -> None:
    # Two whitespace runs around an optional ";" after each ")" split every long run of
    # spaces every way, at each ")" the JSONP pattern backed over looking for its end.
    items = [f"item {n})" + " " * 8_000 + "end" for n in range(40)]
    body = "callback(" + json.dumps(items)  # cut before its ")"
    assert within_limit(jsonp_error, body).startswith("not JSON or JSONP")
    assert within_limit(jsonp_error, body + ");") == ""


def counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of `module.name` (one entry per call)."""
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_nested_articles_are_each_checked_for_a_named_box_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each <article> walked up through all its ancestors: 200 deep, 20,000 elements.
    nest = "<article>" * 200 + "x" + "</article>" * 200
    page = page_lines(f'<body><div class="comment">{nest}</div>{nest * 99}</body>')
    calls = counting(monkeypatch, default, "noise_word")
    marks = default.landmarks(page)
    assert len(calls) <= len(page.tags)
    articles = [element for element, tag in enumerate(page.tags) if tag == "article"]
    assert marks == set(articles[200:])  # the first nest is inside the comment box


def test_the_metadata_reads_the_first_dated_tags_of_a_page_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    times = "".join(f'<time data-n="{n}">x</time>' for n in range(50_000))
    page = hostile_page('<time datetime="2024-05-10T10:30:00+08:00">May 10</time>' + times)
    calls = counting(monkeypatch, dates, "tag_attributes")
    metadata = extract_metadata(page)
    assert len(calls) <= MAX_DATED_TAGS
    assert metadata.published is not None
    assert metadata.published.isoformat() == "2024-05-10T10:30:00+08:00"


REFERENCE_PIECES = st.sampled_from(
    ("&", "#", "x", "X", ";", " ", "\n", "<", "a", "1", "f", "amp", "ampamp", "lt", "not",
     "notin", "nbsp", "copy", "Aacute", "CounterClockwiseContourIntegral", "&#", "&#x", "中",
     "12345678901234567890", "&#1114112;", "&#0;", "&#xD800;", "&#x110000")
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(text=st.lists(REFERENCE_PIECES, max_size=16).map("".join))
def test_unescape_is_html_unescape(text: str) -> None:
    assert unescape(text) == html.unescape(text)
    many = text * (FEW_AMPERSANDS + 1)  # past the share left to html.unescape when it has "&"
    assert unescape(many) == html.unescape(many)


def test_ampersands_that_start_no_reference_cost_no_python_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # html.unescape calls its replacement for each "&" + a run (here "?a=1"): a megabyte
    # of a URL shown as text took twenty times the median page.
    calls = counting(monkeypatch, html, "_replace_charref")
    text = "?a=1&b=2&#169;&copy;" * 10_000
    assert unescape(text) == "?a=1&b=2©©" * 10_000
    assert len(calls) == 10_000  # the numeric references only


def test_a_page_of_dated_lines_in_many_forms_is_read_once() -> None:
    """Short dated lines in a thousand forms, three of each (each form a possible run of
    comment stamps), with prose between them: the search for a comment thread counts the
    prose once, not once per form."""
    lines = "".join(
        f"<p>{'-' * (n % 30)}{'+' * (n // 30 % 40)} Ann | March 1, 2012</p>"
        "<p>A reply, long enough to count.</p>"
        for n in range(3600)
    )
    article = within_limit(extract, hostile_page(lines))
    assert article.title == "Storm closes the harbour" and article.body


def line_dates(text: str) -> list[tuple[bool, str]]:
    """Each date `dates._line_dates` reads in `text`, with whether a label introduces it."""
    context = dates._Context(dates.SHANGHAI, None, None)
    found = dates._line_dates(text, context, None)
    return [(label, evidence.value.isoformat()) for label, evidence in found]


@pytest.mark.parametrize(
    ("hostile", "expected"),
    [
        ("2012" + "\xa0" * 200_000 + "-", []),  # a year, then spaces the date forms split two ways
        ("on January 31, 2012" + " " * 200_000 + "x", [(True, "2012-01-31T00:00:00+08:00")]),
    ],
    ids=["spaces after a year", "spaces after a named date"],
)
def test_a_date_before_a_run_of_spaces_is_read_in_linear_time(
    hostile: str, expected: list[tuple[bool, str]]
) -> None:
    """The date patterns' spaces around a separator are one run each, not two ways to
    split one run (which took minutes on a line of a year and 200,000 spaces)."""
    assert within_limit(line_dates, hostile) == expected


def author_name(candidate: str) -> str | None:
    return judge_author(candidate, latin_page=True)[0]


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        ("By Jane" + " " * 60_000 + "Roe", "Jane Roe"),
        ("Jane" + " \t" * 30_000 + "Roe", "Jane Roe"),
        ("Jane" + " " * 60_000 + "- March 2, 2015", "Jane"),
    ],
    ids=["spaces", "spaces and tabs", "spaces before a date"],
)
def test_a_byline_with_a_long_run_of_spaces_is_judged_in_linear_time(
    candidate: str, expected: str
) -> None:
    """What follows a name is cut where a run of spaces starts, not at each of its spaces
    (a byline of 8,000 spaces took five seconds)."""
    assert within_limit(author_name, candidate) == expected


def site_names(title: str) -> frozenset[str]:
    return outlet_names(None, title, None)


def test_a_title_with_a_long_run_of_spaces_is_split_in_linear_time() -> None:
    """A separator's spaces are one run (a title of 20,000 spaces took eight seconds)."""
    title = "Storm" + " " * 100_000 + "closes the harbour - Daily News"
    assert "dailynews" in within_limit(site_names, title)


def test_headings_under_a_long_head_title_are_each_compared_at_their_own_cost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Thousands of headings that nearly spell a long og:title: the head's title is made
    plain once, not once per heading (a 100 KB page of them took 60 times a plain page's
    time), and the headline is still the page's."""
    long_title = "a - b " * 2_700
    headings = "<h2>a - b a - b a - b</h2>" * 2_000
    page = hostile_page(headings).replace(
        b"<head>", f'<head><meta property="og:title" content="{long_title}">'.encode(), 1
    )
    plained: list[int] = []
    original = title_module._plain

    def counted(text: str) -> str:
        plained.append(len(text))
        return original(text)

    monkeypatch.setattr(title_module, "_plain", counted)
    article = extract(page)
    assert sum(plained) <= 4 * len(page)
    assert "The harbour closed on Monday" in article.body


def title_parts(title: str) -> bool:
    return two_parts_of("Storm closes the harbour", "Daily News", title)


def a_writers_label(text: str) -> bool:
    return people._labels_a_writer(text, re.search("by", text))


def test_a_title_separator_after_a_long_run_of_spaces_is_found_in_linear_time() -> None:
    """The site separators are never tried inside a run of spaces (a title of 30,000
    line breaks did not finish in two seconds)."""
    title = "Storm" + "\r\n" * 100_000 + "closes the harbour | Daily News"
    assert within_limit(title_parts, title)


def test_the_word_before_by_is_found_in_linear_time() -> None:
    """The last word before a "by" is sought only where a word starts (a 20,000-letter
    word before a comma took three seconds)."""
    assert within_limit(a_writers_label, "a" * 200_000 + ", by Jane Roe")


def a_post_footers_writer(line: str) -> str | None:
    match = people._POSTED_BY_RE.match(line)
    return match["name"] if match else None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Posted by" + " " * 200_000 + "1", None),
        ("Posted by Jane Roe" + " " * 200_000 + "at 9:00 PM", "Jane Roe"),
    ],
)
def test_a_post_footers_byline_is_read_in_linear_time(line: str, expected: str | None) -> None:
    """The spaces after "by" and after the name are one run each (a footer line of 8,000
    spaces after its "by" took a third of a second, four times as long at twice the size)."""
    assert within_limit(a_post_footers_writer, line) == expected


def a_header_bylines_writer(line: str) -> str | None:
    match = people._AUTHOR_RE.search(line)
    return match["name"] if match else None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("By Jane Roe" + " " * 200_000 + "on Monday", "Jane Roe"),
        ("By Jane Roe" + " on" * 100_000, "Jane Roe"),
    ],
)
def test_a_bylines_name_end_is_found_in_linear_time(line: str, expected: str) -> None:
    """The date or place after a name is looked for once per run of spaces."""
    assert within_limit(a_header_bylines_writer, line) == expected


def test_nested_quotations_are_set_aside_in_linear_time() -> None:
    """Each element is looked at once however deep the blockquotes nest."""
    quotes = "<blockquote>" * 20_000 + "Posted by Jo Roe on May 2, 2001" + "</blockquote>" * 20_000
    page = ARTICLE.format(hostile=quotes)
    meta = within_limit(extract_metadata, page)
    assert meta.author == "Jane Doe"


def a_photo_credit(line: str) -> bool:
    return default._is_photo_credit(line, len(line))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("A river (Photo by" + " " * 200_000 + "J. Smith)", False),
        ("A river (AP Photo/J. Smith)" + " " * 200_000, True),
        ("(Photo: x) " * 50_000 + "x", False),
    ],
    ids=["spaces after by", "spaces after the credit", "many credits"],
)
def test_a_caption_closed_by_its_credit_is_found_in_linear_time(line: str, expected: bool) -> None:
    """A credit in parentheses is sought from each opening one only up to its close."""
    assert within_limit(a_photo_credit, line) is expected
