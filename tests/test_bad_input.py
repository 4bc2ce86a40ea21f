"""Bad and hostile input: every method returns an `Article` and never raises.

An empty body must come with a reason. Inputs are kept moderate so this file runs in
seconds; speed on large pathological pages is measured by bench/bench_pathological.py,
not asserted here.
"""

from __future__ import annotations

import random
import zlib

import pytest

from newscrawl.extract import METHODS, Article, Method, Options, clean, extract

TITLE = "国务院召开常务会议"
PARAGRAPHS = [
    "新华社北京3月5日电，国务院总理今天主持召开国务院常务会议，部署进一步做好稳就业工作，"
    "要求各地区各部门把稳就业放在更加突出的位置，确保就业形势总体稳定。",
    "会议指出，今年以来，各地区各部门认真贯彻党中央、国务院决策部署，就业形势保持总体稳定，"
    "城镇新增就业稳步增长，重点群体就业得到有效保障。",
    "会议强调，要加大对中小微企业的支持力度，落实减税降费政策，帮助企业渡过难关，稳定岗位，"
    "同时做好高校毕业生、农民工等重点群体的就业服务工作。",
]
ARTICLE = (
    f"<html><head><meta charset='utf-8'><title>{TITLE}</title>"
    "<script>var nav = '<p>不是正文</p>';</script><style>p { color: red }</style></head>\n"
    "<body><div class='nav'><a href='/'>首页</a> <a href='/news'>新闻</a></div>\n"
    f"<h1>{TITLE}</h1>\n"
    + "".join(f"<p>{paragraph}</p>\n" for paragraph in PARAGRAPHS)
    + "<div class='footer'>版权所有</div>\n</body></html>"
)


def options(method: Method) -> Options:
    return Options(method=method)


def check(article: Article, method: Method) -> Article:
    """The contract every answer keeps, whatever the input."""
    assert isinstance(article, Article)
    assert article.method == method
    assert isinstance(article.title, str) and isinstance(article.body, str)
    if not article.body:
        assert article.reason, "an empty body must say why"
    return article


def run(page: str | bytes, method: Method) -> Article:
    return check(extract(page, "http://example.com/a", options=options(method)), method)


def png() -> bytes:
    """A PNG signature and header chunk followed by seeded random bytes."""
    header = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes.fromhex("00000100000001000806000000")
    return header + random.Random(7).randbytes(50_000)


def pdf() -> bytes:
    """A minimal PDF with a compressed content stream."""
    stream = zlib.compress(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET")
    return (
        b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/Contents 4 0 R>>endobj\n"
        + f"4 0 obj<</Length {len(stream)}/Filter/FlateDecode>>stream\n".encode("ascii")
        + stream
        + b"\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
    )


EMPTYISH: dict[str, str | bytes] = {
    "empty str": "",
    "empty bytes": b"",
    "whitespace str": " \n\t\r\n\u3000\xa0 ",
    "whitespace bytes": b" \n\t\r\n \x0c",
    "only tags": "<html><head></head><body><div><span></span></div></body></html>",
}
HOSTILE: dict[str, str | bytes] = {
    "png": png(),
    "pdf": pdf(),
    "nul bytes": b"\x00" * 10_000,
    "nested divs": "<div>" * 100_000 + "正文" + "</div>" * 100_000,
    "unclosed script starts": "<script" * 200_000,
    "unclosed style starts": "<style>" * 100_000,
    "unclosed comment starts": "<!--" * 200_000,
    "lone lt": "<" * 200_000,
    "lt letter": "<a" * 200_000,
    "meta starts": "<meta name=title " * 200_000,
    "json-ld script starts": '"articleBody"' + "<script " * 200_000,
    "title starts": "<title" * 200_000,
    "entity starts": "&#" * 200_000 + "&" * 200_000,
    "huge numeric references": "<p>&#" + "9" * 10_000 + ";&#" + "0" * 10_000 + "65;</p>",
    "many lines": "\n" * 200_000,
}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(EMPTYISH))
def test_empty_input_has_empty_body_and_reason(name: str, method: Method) -> None:
    article = run(EMPTYISH[name], method)
    assert article.body == ""


SHOWN_TEXT = {
    "nested divs": "正文",
    "lone lt": "<" * 200_000,
    "json-ld script starts": '"articleBody"',
    "entity starts": "&#" * 200_000 + "&" * 200_000,
    "huge numeric references": "\ufffdA",
}
"""The text a browser shows of each hostile page that shows any (the rest show none)."""
BINARY = {"png", "pdf", "nul bytes"}


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_gives_at_most_the_text_it_shows(name: str, method: Method) -> None:
    """Never a raise, never markup as text: the body is the page's shown text or empty
    (the paper's method keeps no line shorter than L), and a binary file says so."""
    article = run(HOSTILE[name], method)
    assert article.body in ("", SHOWN_TEXT.get(name, ""))
    assert article.title == ""
    if name in BINARY:
        assert (article.reason or "").startswith("not HTML")


JSON_LD_PYTHON_REFUSES = {
    "an integer past int's digit limit": "1" * 5000,
    "arrays nested past the recursion limit": "[" * 100_000 + "]" * 100_000,
    "objects nested just under it": '{"a":' * 990 + "1" + "}" * 990,
}
"""JSON values that `json.loads` refuses with errors of Python's own limits (a ValueError
that is no JSONDecodeError, a RecursionError), or that reach deep into the readers."""


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", list(JSON_LD_PYTHON_REFUSES))
def test_json_ld_past_python_s_limits_is_a_block_that_does_not_parse(
    name: str, method: Method
) -> None:
    value = JSON_LD_PYTHON_REFUSES[name]
    block = f'{{"@type": "NewsArticle", "x": {value}, "articleBody": "{PARAGRAPHS[0]}"}}'
    page = ARTICLE.replace("</head>", f'<script type="application/ld+json">{block}</script></head>')
    article = run(page, method)
    assert PARAGRAPHS[1] in article.body
    assert article.title == TITLE


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_plain_text_without_markup(method: Method, as_bytes: bool) -> None:
    text = "\n\n".join(PARAGRAPHS)
    article = run(text.encode("gbk") if as_bytes else text, method)
    assert not article.body or PARAGRAPHS[0] in article.body


@pytest.mark.parametrize("method", METHODS)
def test_well_formed_article_is_extracted(method: Method) -> None:
    """The reference the broken variants below are compared with."""
    article = run(ARTICLE.encode("utf-8"), method)
    assert TITLE in article.title
    assert all(paragraph in article.body for paragraph in PARAGRAPHS)
    assert "不是正文" not in article.body


@pytest.mark.parametrize("method", METHODS)
def test_truncated_mid_tag_and_mid_character(method: Method) -> None:
    data = ARTICLE.encode("utf-8")
    third = data.index(f"<p>{PARAGRAPHS[2]}".encode())
    cut_tag = data[: third + 2]  # ends in "<p"
    cut_char = data[: third + 3 + 4]  # one character of the paragraph and a third
    for page in (cut_tag, cut_char):
        article = run(page, method)
        assert article.title == TITLE
        assert PARAGRAPHS[0] in article.body
    assert "\ufffd" not in run(cut_char, method).body.replace(PARAGRAPHS[2][0] + "\ufffd", "")


@pytest.mark.parametrize("method", METHODS)
def test_truncated_in_head(method: Method) -> None:
    """Cut before the body arrived: the title is as much of it as arrived, and so is any
    text given as the body (never the script's text)."""
    data = ARTICLE.encode("utf-8")
    for end in (5, data.index(b"<title>") + 10, data.index(b"<script>") + 12):
        article = run(data[:end], method)
        assert TITLE.startswith(article.title)
        assert TITLE.startswith(article.body)


@pytest.mark.parametrize("method", METHODS)
def test_unclosed_tags(method: Method) -> None:
    page = ARTICLE.replace("</p>", "").replace("</div>", "").replace("</body></html>", "")
    article = run(page, method)
    assert article.title == TITLE
    assert PARAGRAPHS[1] in article.body


@pytest.mark.parametrize("method", METHODS)
def test_unclosed_title_does_not_swallow_the_page(method: Method) -> None:
    article = run(ARTICLE.replace("</title>", ""), method)
    assert len(article.title) < 100


@pytest.mark.parametrize("method", METHODS)
def test_script_without_end_hides_only_what_follows(method: Method) -> None:
    page = ARTICLE.replace("</body></html>", "<script>var a = '<p>脚本里的字</p>';")
    article = run(page, method)
    assert PARAGRAPHS[0] in article.body
    assert "脚本里的字" not in article.body


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("closed", [True, False], ids=["closed", "open to the end"])
def test_a_script_of_a_megabyte_of_lt_signs_is_dropped_whole(method: Method, closed: bool) -> None:
    """Every ``<`` of a script is checked for its end tag; a run of them (the fuzz's
    hostile run) is read in one pass, and the script hides nothing but itself."""
    script = "<script>" + "<" * 1_000_000 + ("</script>" if closed else "")
    page = ARTICLE.replace("<body>", "<body>" + script) if closed else ARTICLE + script
    article = run(page, method)
    assert PARAGRAPHS[0] in article.body
    assert "<<" not in article.body


@pytest.mark.parametrize("method", METHODS)
def test_lt_without_closing_gt(method: Method) -> None:
    page = ARTICLE.replace("<div class='footer'>版权所有</div>\n</body></html>", "<div class='x")
    article = run(page, method)
    assert PARAGRAPHS[0] in article.body


@pytest.mark.parametrize("method", METHODS)
def test_page_of_only_links(method: Method) -> None:
    links = "".join(
        f"<li><a href='/news/{number}.html'>第{number}条新闻标题，今日要闻速览</a></li>\n"
        for number in range(2_000)
    )
    article = run(f"<html><body><ul>\n{links}</ul></body></html>", method)
    assert (article.title, article.body) == ("", "")
    assert article.reason


@pytest.mark.parametrize("method", METHODS)
def test_ten_megabytes_on_one_line(method: Method) -> None:
    sentence = "这是一个非常长的单行文本，用来测试提取器在极端输入下的表现。"
    page = "<html><body><p>" + sentence * (10_000_000 // (3 * len(sentence))) + "</p></body></html>"
    article = run(page.encode("utf-8"), method)
    assert len(page.encode("utf-8")) > 9_000_000
    assert not article.body or sentence in article.body


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("comment", ["<!-->", "<!--->"])
def test_abruptly_closed_comment_hides_nothing(method: Method, comment: str) -> None:
    """``<!-->`` is a whole (empty) comment in HTML, not the start of one."""
    article = run(ARTICLE.replace(f"<h1>{TITLE}</h1>", f"<h1>{TITLE}</h1>{comment}"), method)
    assert all(paragraph in article.body for paragraph in PARAGRAPHS)


@pytest.mark.parametrize(
    ("reference", "text"),
    [
        ("&#65;", "A"),
        ("&#" + "0" * 5_000 + "65;", "A"),
        ("&#000000020013;", "中"),
        ("&#1114112;", "\ufffd"),
        ("&#" + "9" * 5_000, "\ufffd"),
        ("&#x" + "f" * 5_000 + ";", "\ufffd"),
    ],
)
def test_numeric_references_of_any_length(reference: str, text: str) -> None:
    assert clean.unescape(f"a{reference}b") == f"a{text}b"
