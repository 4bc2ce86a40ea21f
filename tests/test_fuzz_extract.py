"""Property tests of `newscrawl.extract` on generated and mutated HTML, every method.

The README promises: `extract` never raises on bad input, is thread-safe and keeps no state
between calls, and any bytes decode. These tests check those promises, and that the body
only holds text that is in the page (no invented or corrupted text). Under CI (CI=true) the
examples are derandomized so a run is reproducible; ``bench/fuzz_extract.py`` is the long run.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

from conftest import UNDER_CI, load_bench
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from newscrawl.evaluation.scoring import tokenize
from newscrawl.extract import METHODS, Method, Options, decode_html, extract
from newscrawl.extract.clean import remove_noise, strip_tags, unescape
from newscrawl.extract.metadata import jsonld

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=UNDER_CI,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Small enough that the file runs in well under a minute; fixed examples under CI."""

ENCODINGS = (
    "utf-8", "gbk", "gb18030", "gb2312", "big5", "utf-16", "latin-1", "cp1252", "shift_jis",
    "euc-kr",
)  # fmt: skip
"""The common Chinese and Western encodings (``utf-16`` writes a BOM)."""

WORDS = (
    "新华社", "北京", "电", "国务院", "会议", "经济", "发展", "記者", "報導", "新聞",
    "the", "market", "said", "Beijing", "2024", "café", "naïve", "Straße", "日本", "한국",
)  # fmt: skip
ENTITIES = ("&amp;", "&lt;", "&gt;", "&nbsp;", "&#20013;", "&#x6587;", "&quot;", "&copy;", "&")
PUNCTUATION = ("，", "。", "、", "！", ", ", ". ", " ", "\n", "：", "“", "”")
BLOCKS = ("p", "div", "li", "td", "h1", "h2", "section", "article", "blockquote", "pre")
INLINES = ("span", "a", "b", "em", "font", "strong")
SKIPPED = ("script", "style", "noscript", "template", "textarea")
CLASSES = ("", "content", "article", "footer", "nav", "comment", "related", "ad", "share")

_LD_RE = re.compile(
    r"<script[^>]*application/ld\+json[^>]*>(.*?)</script", re.IGNORECASE | re.DOTALL
)


HOSTILE_VARIANTS = load_bench("bench_pathological").VARIANTS
"""Each a unit (``id=``, ``&``, ``<time>``, ``发布时间：`` ...) repeated into a context (an
attribute, a script, JSON-LD, a URL, many lines ...)."""

text_runs = st.lists(st.sampled_from(WORDS + ENTITIES + PUNCTUATION), max_size=30).map("".join)


@st.composite
def elements(draw: st.DrawFn, depth: int = 0) -> str:
    """One element with text and children; skipped elements keep spaces around them."""
    kind = draw(st.sampled_from(("block", "block", "inline", "skip", "br", "hidden")))
    if kind == "br":
        return "<br>"
    if kind == "skip":
        tag = draw(st.sampled_from(SKIPPED))
        return f" <{tag}>{draw(text_runs)}</{tag}> "
    tag = draw(st.sampled_from(BLOCKS if kind != "inline" else INLINES))
    attributes = f' class="{draw(st.sampled_from(CLASSES))}"'
    if kind == "hidden":
        attributes += draw(st.sampled_from((" hidden", ' style="display:none"')))
    if tag == "a":
        attributes += ' href="/news/2024/1.html"'
    children = [draw(text_runs)]
    if depth < 4:
        children += draw(st.lists(elements(depth + 1), max_size=4))
    children.append(draw(text_runs))
    return f"<{tag}{attributes}>{''.join(children)}</{tag}>"


@st.composite
def pages(draw: st.DrawFn) -> str:
    """A whole page: head with title, description and maybe JSON-LD, then a body."""
    head = [f"<title>{draw(text_runs)}</title>"]
    if draw(st.booleans()):
        head.append(f'<meta name="description" content="{draw(text_runs)}">')
    if draw(st.booleans()):
        ld = {"@type": "NewsArticle", "articleBody": draw(text_runs)}
        ascii_only = draw(st.booleans())
        head.append(
            f'<script type="application/ld+json">{json.dumps(ld, ensure_ascii=ascii_only)}</script>'
        )
    body = "".join(draw(st.lists(elements(), min_size=1, max_size=8)))
    return f"<!DOCTYPE html><html><head>{''.join(head)}</head><body>{body}</body></html>"


@st.composite
def mutated_pages(draw: st.DrawFn) -> str:
    """A generated page broken the ways real pages are: cut, tags lost or doubled, junk,
    and the hostile runs of ``bench/bench_pathological.py`` (up to 30 KB here)."""
    page = draw(pages())
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(page)))
        mutation = draw(
            st.sampled_from(
                ("truncate", "delete", "duplicate", "insert", "nest", "attribute", "hostile")
            )
        )
        if mutation == "truncate":
            page = page[:at]
        elif mutation in ("delete", "duplicate") and (tag := re.search(r"<[^<>]*>", page[at:])):
            start, end = at + tag.start(), at + tag.end()
            page = (
                page[:end] + page[start:] if mutation == "duplicate" else page[:start] + page[end:]
            )
        elif mutation == "insert":
            junk = draw(
                st.sampled_from(("\x00", "<", ">", "&#", "<!--", "</", "<script", "\ufffd"))
            )
            page = page[:at] + junk + page[at:]
        elif mutation == "nest":
            depth = draw(st.integers(1, 2000))
            page = page[:at] + "<div><span>" * depth + page[at:]
        elif mutation == "attribute":
            page = page[:at] + f'<p title="{"x" * draw(st.integers(0, 100_000))}">' + page[at:]
        else:
            variant = draw(st.sampled_from(HOSTILE_VARIANTS))
            run = variant.context.head(variant.unit) + variant.run(draw(st.integers(1, 30_000)))
            page = page[:at] + run + page[at:]
    return page


def page_texts(page: str) -> list[str]:
    """Where body text may come from, with tags stripped and entities decoded.

    The visible text (scripts, styles and comments dropped, so words around them may join);
    the whole page with tags stripped (the head's title, and text that a broken tag hides
    from one reading but not the other); the raw page with entities decoded (the
    description's attribute value); and each JSON-LD block's strings (``\\u`` escapes).
    """
    texts = [unescape(strip_tags(remove_noise(page))), unescape(strip_tags(page)), unescape(page)]
    for block in _LD_RE.findall(page):
        value = jsonld.parse(block)  # as the extractor reads it
        if value is not None:
            texts.append(unescape(strip_tags(json.dumps(value, ensure_ascii=False))))
    return texts


def foreign_tokens(body: str, page: str) -> list[str]:
    """Body tokens (a CJK character or a run of word characters) found in no page text."""
    texts = page_texts(page)
    return [token for token in tokenize(body) if not any(token in text for text in texts)]


@FUZZ
@given(page=st.one_of(pages(), mutated_pages()), method=st.sampled_from(METHODS))
def test_extract_never_raises_and_the_body_comes_from_the_page(page: str, method: Method) -> None:
    article = extract(page, options=Options(method=method))
    assert not foreign_tokens(article.body, page)
    assert article.body or article.reason


@FUZZ
@given(page=mutated_pages(), method=st.sampled_from(METHODS))
def test_the_result_is_the_same_twice_and_from_several_threads(page: str, method: Method) -> None:
    data = page.encode("utf-8", "surrogatepass")
    options = Options(method=method)
    first = extract(data, "https://example.com/a.html", options=options).to_dict()
    assert extract(data, "https://example.com/a.html", options=options).to_dict() == first
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = pool.map(
            lambda _: extract(data, "https://example.com/a.html", options=options).to_dict(),
            range(8),
        )
        assert all(result == first for result in results)


DECLARATIONS = st.sampled_from((None, "right", "wrong", "nonsense"))


def _label(choice: str | None, encoding: str, wrong: str) -> str | None:
    return {"right": encoding, "wrong": wrong, "nonsense": "x-no-such-charset"}.get(choice or "")


@FUZZ
@given(
    page=pages(),
    encoding=st.sampled_from(ENCODINGS),
    wrong=st.sampled_from(ENCODINGS),
    meta=DECLARATIONS,
    http=DECLARATIONS,
    method=st.sampled_from(METHODS),
)
def test_bytes_in_common_encodings_decode_and_extract(
    page: str, encoding: str, wrong: str, meta: str | None, http: str | None, method: Method
) -> None:
    if meta_label := _label(meta, encoding, wrong):
        page = page.replace("<head>", f'<head><meta charset="{meta_label}">', 1)
    data = page.encode(encoding, "xmlcharrefreplace")
    http_charset = _label(http, encoding, wrong)
    decoded = decode_html(data, http_charset)
    if http == "right" or encoding == "utf-16":
        assert decoded.text == data.decode(encoding).lstrip("\ufeff")
    extract(data, options=Options(method=method), http_charset=http_charset)
