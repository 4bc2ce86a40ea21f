"""The head scan shared by the body method and the metadata package."""

from __future__ import annotations

from newscrawl.extract import clean
from newscrawl.extract.head import PageHead, Script

PAGE = """<!DOCTYPE html><HTML Lang="zh-CN"><head>
<Title> 标题 &amp; 副题_新浪网 </Title>
<meta name="description" content="  第一个  ">
<meta name="description" content="第二个">
<meta property="og:title" name="title" content="Tom &amp; Jerry">
<meta name="keywords" content="">
<meta content='单引号' itemprop=datePublished>
<link rel="stylesheet" href="/a.css"><link REL="Canonical" href=" https://x.cn/a.html ">
<script src="/app.js"></script>
<script type="Application/LD+JSON">{"@type": "NewsArticle"}</script>
</head><body><script>var nickName = "张三";</script></body></HTML>"""


def test_title_metas_link_and_language() -> None:
    head = PageHead(PAGE)
    assert head.title == "标题 & 副题_新浪网"
    assert head.lang == "zh-CN"
    assert head.canonical == "https://x.cn/a.html"
    assert head.metas == (
        ("description", "第一个"),
        ("description", "第二个"),
        ("og:title", "Tom & Jerry"),
        ("title", "Tom & Jerry"),
        ("datepublished", "单引号"),
    )
    assert head.meta_map["description"] == "第一个"


def test_inline_scripts_only_with_their_type() -> None:
    assert PageHead(PAGE).scripts == (
        Script("application/ld+json", '{"@type": "NewsArticle"}'),
        Script("", 'var nickName = "张三";'),
    )


def test_unclosed_title_and_script_do_not_swallow_or_crash() -> None:
    head = PageHead("<title>标题<p>正文" + "字" * 1000 + "<script>var a = 1;")
    assert head.title == ""
    assert head.scripts == (Script("", "var a = 1;"),)
    assert PageHead("").metas == () and PageHead("<meta").meta_map == {}


def test_metas_inside_a_script_template_are_not_the_pages() -> None:
    page = (
        '<meta name="keywords" content="新闻">'
        '<script type="text/template"><meta property="article:tag" content="{{ tag }}"></script>'
        '<meta property="article:tag" content="经济">'
    )
    assert PageHead(page).metas == (("keywords", "新闻"), ("article:tag", "经济"))


def test_a_tag_full_of_junk_is_read_up_to_its_first_16_kb() -> None:
    """Found by the fuzz run: 1 MB of "a a a" inside a meta made half a million attributes."""
    junk = " a" * 500_000
    head = PageHead(f'<html lang="zh"{junk}><meta name="description" content="摘要"{junk}>')
    assert head.meta_map == {"description": "摘要"} and head.lang == "zh"
    late = PageHead(f'<meta{junk} name="description" content="太远">')
    assert late.meta_map == {}


def test_a_tag_full_of_bare_words_is_read_up_to_its_first_256_attributes() -> None:
    """Found by the fuzz run: 10 KB of "a a a" inside a script tag made 5,000 attributes,
    and the page five times slower per MB than the median."""
    junk = " a" * 5_000
    head = PageHead(
        f'<script src="/x.js"{junk}></script><script{junk} src="/late.js">var x;</script>'
    )
    assert head.scripts == (Script("", "var x;"),)  # the late src is past the 256th attribute
    assert len(clean.tag_attributes(" ".join(f"x{n}=1" for n in range(300)))) == 256


def test_a_title_is_read_up_to_its_first_2000_characters() -> None:
    """Found by the fuzz run: a 1 MB junk title cost every title rule a megabyte."""
    head = PageHead("<title>标题" + " a" * 500_000 + "</title>")
    assert head.title.startswith("标题 a a") and len(head.title) <= 2000


def test_a_meta_repeated_a_thousand_times_reads_like_each_copy() -> None:
    meta = '<meta name="author" content="张三 &amp; 李四"><meta property="og:title" content="">'
    head = PageHead(f"<html><head>{meta * 1000}<meta name=x content=y></head></html>")
    assert head.metas == (("author", "张三 & 李四"),) * 1000 + (("x", "y"),)
    assert head.meta_map == {"author": "张三 & 李四", "x": "y"}


def test_tag_names_are_read_whole_and_in_ascii_case_only() -> None:
    head = PageHead(
        "<metadata name=x content=no><META/name=a content=b><scripts>x</scripts>"
        "<script>var a = '</ſcript>';</SCRIPT ><title>t</TITLE>"
    )
    assert head.metas == (("a", "b"),)
    assert head.scripts == (Script("", "var a = '</ſcript>';"),)  # "ſ" is not an "s" in tags
    assert head.title == "t"


def test_soft_hyphens_and_zero_width_spaces_leave_the_title_and_metas() -> None:
    """A CMS hyphenates the head's texts as its body's (``&shy;``) and leaves zero-width
    characters in them; the page's lines lose those, and so do the head's texts, which are
    matched against the lines and stored with the article (a tag "Gummi\\xadfische")."""
    head = PageHead(
        "<html><head><title>Genesenen&shy;nachweise\u200b</title>"
        "<meta name='keywords' content='Gummi&shy;fische'>"
        "<meta name='description' content='\ufeff Katzendecke'></head></html>"
    )
    assert head.title == "Genesenennachweise"
    assert head.meta_map["keywords"] == "Gummifische"
    assert head.meta_map["description"] == "Katzendecke"
