"""Page-level facts (language, canonical URL, description, tags, lead image), the input
forms (bytes, text, a parsed tree) and robustness: bad input gives an empty Metadata."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html

from newscrawl.extract.metadata import Metadata, extract_metadata, jsonld

HEAD = (
    '<link rel="canonical" href="/a/733320600_429139">'
    '<meta name="description" content="  一段  描述 ">'
    '<meta name="keywords" content="有轨电车,珠海，拆除、有轨电车">'
    '<meta property="article:tag" content="交通">'
    '<meta property="og:image" content="//img.example.cn/lead.jpg">'
)
PAGE = (
    f'<html lang="zh-CN"><head><title>标题</title>{HEAD}</head>'
    "<body><h1>标题</h1><p>正文。</p></body></html>"
)
URL = "https://www.sohu.com/a/1_2?spm=x"


def test_page_facts() -> None:
    meta = extract_metadata(PAGE, URL)
    assert meta.lang == "zh"
    assert meta.canonical_url == "https://www.sohu.com/a/733320600_429139"
    assert meta.description == "一段 描述"
    assert meta.tags == ("有轨电车", "珠海", "拆除", "交通")
    assert meta.top_image == "https://img.example.cn/lead.jpg"


def test_og_url_when_there_is_no_canonical_link() -> None:
    html = '<html><head><meta property="og:url" content="https://news.sina.com.cn/c/x.shtml"></head></html>'
    assert extract_metadata(html).canonical_url == "https://news.sina.com.cn/c/x.shtml"


def test_language_from_meta_then_from_the_script() -> None:
    meta_lang = '<html><head><meta http-equiv="content-language" content="en-US"></head></html>'
    assert extract_metadata(meta_lang).lang == "en"
    chinese = "<html><body><p>" + "这是一段足够长的中文文字。" * 5 + "</p></body></html>"
    assert extract_metadata(chinese).lang == "zh"
    english = (
        "<html><body><p>"
        + "This is a reasonably long English sentence. " * 5
        + "</p></body></html>"
    )
    assert extract_metadata(english).lang == "en"
    assert extract_metadata("<html><body><p>短</p></body></html>").lang is None


def test_bytes_text_and_tree_give_the_same_result() -> None:
    from_text = extract_metadata(PAGE, URL)
    assert (
        extract_metadata(
            PAGE.encode("gb18030").replace(b"<head>", b'<head><meta charset="gbk">'), URL
        )
        == from_text
    )
    assert extract_metadata(lxml_html.document_fromstring(PAGE), URL) == from_text


def test_to_dict_is_json_ready() -> None:
    html = '<html><head><meta name="pubdate" content="2024-05-10 09:00"></head></html>'
    data = extract_metadata(html).to_dict()
    assert data["published"] == "2024-05-10T09:00:00+08:00"
    assert data["tags"] == []


def test_bad_input_gives_empty_metadata() -> None:
    for bad in (
        b"",
        "",
        "   ",
        "no markup at all",
        b"\x00\x01\xff\xfe" * 50,
        "<html",
        "<<<>>>",
        "<?xml version='1.0' encoding='utf-8'?><html><body></body></html>",
        "\x00<p>\x0b</p>",
    ):
        meta = extract_metadata(bad)
        assert meta.published is None and meta.author is None, bad


def test_empty_metadata_is_the_default() -> None:
    assert extract_metadata(b"") == Metadata()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_never_raises(data: bytes | str) -> None:
    assert isinstance(extract_metadata(data, "http://x/", None), Metadata)


@pytest.mark.parametrize(
    ("escaped", "value"),
    [
        (r"王\u0000五", "王\ufffd五"),
        (r"王\ud800五", "王\ufffd五"),
        (r"王\uDC00五", "王\ufffd五"),
        (r"\ud83d\ude00", "\U0001f600"),  # a surrogate pair is a character
        (r"\\u0000", "\\u0000"),  # an escaped backslash, then the letters
        (r"\\\u0000", "\\\ufffd"),
        (r"\u4e2d\u6587", "中文"),
    ],
)
def test_json_ld_escapes_of_nul_and_lone_surrogates_read_as_replacement(
    escaped: str, value: str
) -> None:
    """A database's text column refuses NUL, and UTF-8 cannot encode a lone surrogate."""
    assert jsonld.parse(f'{{"author": "{escaped}"}}') == {"author": value}
