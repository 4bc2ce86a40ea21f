"""Author, source and editor lines: an editor is never the author, a reporter credit beats
a byline that only names the outlet, ids in meta tags are not names."""

from __future__ import annotations

import random

import pytest

from newscrawl.extract.metadata import extract_metadata, people
from newscrawl.extract.metadata.lines import PageText

BODY = "<p>" + "这是正文的一句话，用来模拟文章主体内容。" * 12 + "</p>"


def page(head: str = "", byline: str = "", after: str = "") -> str:
    return (
        f"<html><head><title>一个标题：测试署名_新闻</title>{head}</head><body>"
        f"<h1>一个标题：测试署名</h1><div class='info'>{byline}</div>"
        f"<div id='article'>{BODY}{after}</div></body></html>"
    )


def test_source_and_author_lines() -> None:
    meta = extract_metadata(page(byline="2024-05-10 09:00 来源：新华网 作者：张三"))
    assert (meta.source, meta.author, meta.editor) == ("新华网", "张三", None)


def test_editor_is_not_the_author() -> None:
    meta = extract_metadata(page(after="<p>（责任编辑：李四）</p>"))
    assert (meta.author, meta.editor) == (None, "李四")


def test_short_editor_label_and_list_of_editors() -> None:
    assert extract_metadata(page(after="<div class='edit'>(责编：牛镛、岳弘彬)</div>")).editor == (
        "牛镛、岳弘彬"
    )


def test_reporter_credit_replaces_an_outlet_byline() -> None:
    meta = extract_metadata(
        page(byline="来源：新京报 作者：新京报", after="<p>（总台央视记者 奚丹霓 张赛）</p>")
    )
    assert (meta.author, meta.source) == ("奚丹霓 张赛", "新京报")


def test_reporter_credit_line_with_outlet_prefix() -> None:
    meta = extract_metadata(page(after="<p>□ 本报记者 葛灵丹</p>"))
    assert meta.author == "葛灵丹"


def test_dateline_credit_in_the_lead() -> None:
    lead = "<p>据新华社拉萨电（记者 格桑边觉）记者近日从西藏自治区农业农村厅了解到，情况良好。</p>"
    assert extract_metadata(page(after=lead)).author == "格桑边觉"


def test_a_sentence_starting_with_reporter_is_not_a_credit() -> None:
    meta = extract_metadata(page(after="<p>记者首先前往视频拍摄的地点。</p>"))
    assert meta.author is None


@pytest.mark.parametrize("placeholder", ["网络", "互联网", "网友", "未知", "佚名", "匿名"])
def test_a_placeholder_source_or_author_is_none(placeholder: str) -> None:
    """Portals fill the source of a copied story with "网络" or "互联网" and an unknown
    writer with "佚名": no one's name, so no value."""
    meta = extract_metadata(
        page(byline=f"2024-05-10 09:00 来源：{placeholder} 作者：{placeholder}")
    )
    assert (meta.source, meta.author) == (None, None)


def test_a_placeholder_source_gives_way_to_the_next_one_found() -> None:
    meta = extract_metadata(
        page(head='<meta name="source" content="中国新闻网">', byline="来源：网络 作者：张三")
    )
    assert (meta.source, meta.author) == ("中国新闻网", "张三")


def test_a_column_s_name_is_not_the_author() -> None:
    meta = extract_metadata(page(byline="2024-05-10 09:00 作者：某某网专栏"))
    assert meta.author is None
    assert any("a column's name" in refused for refused in meta.refused_authors)


@pytest.mark.parametrize(
    ("credit", "author"),
    [
        ("（记者 李四 张三对此文亦有贡献）", "李四"),
        ("（本报记者 李四；张三、王五对此文亦有贡献）", "李四"),
        ("记者张三对本文亦有贡献", None),
    ],
)
def test_contributors_named_after_the_byline_are_not_authors(
    credit: str, author: str | None
) -> None:
    """ "张三对此文亦有贡献" says who helped: the credit's byline is the names before it."""
    assert extract_metadata(page(after=f"<p>{credit}</p>")).author == author


def test_meta_ids_are_not_names_but_meta_names_are() -> None:
    assert extract_metadata(page(head='<meta name="author" content="105092">')).author is None
    assert extract_metadata(page(head='<meta name="author" content="李楠">')).author == "李楠"


def test_meta_source_drops_its_label() -> None:
    meta = extract_metadata(page(head='<meta name="source" content="来源：新华日报">'))
    assert meta.source == "新华日报"


def test_json_ld_authors() -> None:
    ld = (
        '<script type="application/ld+json">{"@type": "NewsArticle", "author": '
        '[{"@type": "Person", "name": "王乐文"}, {"name": "方敏"}],'
        '"publisher": {"name": "人民日报"}}</script>'
    )
    meta = extract_metadata(page(head=ld))
    assert (meta.author, meta.source) == ("王乐文 方敏", "人民日报")


def test_blog_bylines() -> None:
    csdn = page(byline="<div>crispsea 已于 2024-11-19 16:21:47 修改</div>")
    assert extract_metadata(csdn).author == "crispsea"
    cnblogs = page(after="<div class='postDesc'>posted @ 2024-05-09 14:45 好看的hk 阅读(430)</div>")
    assert extract_metadata(cnblogs).author == "好看的hk"


def test_script_nickname() -> None:
    html = page(after='<script>var nickName = "中草药z";</script>')
    assert extract_metadata(html).author == "中草药z"


def test_licence_text_is_not_an_author() -> None:
    html = page(byline="版权声明：本文遵循 CC 4.0 BY-SA 版权协议")
    assert extract_metadata(html).author is None


def test_names_closing_the_last_paragraph() -> None:
    html = page(after="<p>用别具一格的形式表达了决心，过一个廉洁的新春佳节。（常书香 马丹阳）</p>")
    assert extract_metadata(html).author == "常书香 马丹阳"
    photo = page(after="<p>一张照片说明了一切。（资料图）</p>")
    assert extract_metadata(photo).author is None


def test_signature_and_forum_poster() -> None:
    assert extract_metadata(page(after="<p>海姑娘写于2005年6月12日</p>")).author == "海姑娘"
    forum = page(after="<p>本贴由大卫于2005年8月12日16:12:21在〖心灵体操〗发表.</p>")
    assert extract_metadata(forum).author == "大卫"


def test_source_ends_before_the_ip_location() -> None:
    meta = extract_metadata(page(byline="2025-10-16 20:02:18 来源: 总台环球资讯广播 北京"))
    assert meta.source == "总台环球资讯广播"


def test_markup_leaking_from_a_template_is_not_a_name() -> None:
    meta = extract_metadata(page(byline='作者： size="20" 来源： size="20"'))
    assert (meta.author, meta.source) == (None, None)


def test_bare_names_under_the_headline() -> None:
    meta = extract_metadata(page(byline="赵延东、风笑天"))
    assert meta.author == "赵延东、风笑天"


def test_a_bare_word_line_without_a_surname_is_no_byline() -> None:
    assert extract_metadata(page(byline="新闻中心")).author is None


def test_names_in_parentheses_on_their_own_line_after_the_body() -> None:
    assert extract_metadata(page(after="<div>（袁源）</div>")).author == "袁源"
    assert extract_metadata(page(after="<p>结尾一句。（常书香 马丹阳 ）</p>")).author == (
        "常书香 马丹阳"
    )


def test_reporter_credits_above_the_headline_are_menus() -> None:
    html = (
        "<html><head><title>一个标题：测试署名_新闻</title></head><body>"
        "<ul><li>记者调查 民意调查</li></ul><h1>一个标题：测试署名</h1>"
        f"<div id='article'>{BODY}</div></body></html>"
    )
    assert extract_metadata(html).author is None


def test_issuing_body_of_a_government_notice_is_the_source() -> None:
    meta = extract_metadata(page(byline="发布机构：某某市人民政府办公室"))
    assert meta.source == "某某市人民政府办公室"


def test_an_empty_label_does_not_take_the_next_label() -> None:
    for empty in (
        "<table><tr><td>来源：</td><td>作者：</td></tr></table>",
        "<div>来源：</div><div>作者：</div>",
    ):
        meta = extract_metadata(page(after=empty))
        assert (meta.source, meta.author) == (None, None)


ESSAY_PROSE = "<p>那年秋天，我第一次走进村里的小学。</p>"


def essay(top: str) -> str:
    return (
        "<html><head><title>欢迎访问本站</title></head><body><div>首页 | 专栏</div>"
        f"{top}<div id='article'>{ESSAY_PROSE}{BODY}</div></body></html>"
    )


@pytest.mark.parametrize(
    "top",
    [
        # The headline led by the writer's pen name, a byline line, the headline again.
        "<p><b>茉莉：我在乡村教书的十年</b></p><p>作者： 来源：</p>"
        "<p>我在乡村教书的十年</p><p>茉莉</p>",
        # The headline twice (page title, then the essay's own), the writers under it.
        "<p>2003-5-29 09:07 高山流水</p><h2>我在乡村教书的十年</h2>"
        "<p>我在乡村教书的十年</p><p>风笑天、茉莉</p>",
    ],
)
def test_essay_layout_names_the_writer_under_the_headline_s_second_copy(top: str) -> None:
    author = extract_metadata(essay(top)).author
    assert author is not None and author.endswith("茉莉")


def test_a_menu_written_twice_is_no_essay_layout() -> None:
    top = "<ul><li>登录/注册</li><li>登录/注册</li><li>蒙古文版</li><li>快捷菜单</li></ul>"
    assert extract_metadata(essay(top)).author is None


def test_a_topic_leading_the_headline_is_no_writer() -> None:
    html = (
        "<html><head><title>欢迎访问本站</title></head><body>"
        "<p><b>专访：我是怎样卷入那场运动的</b></p><p>我是怎样卷入那场运动的</p>"
        f"<div id='article'>{BODY}</div><p>专访的其他内容</p></body></html>"
    )
    assert extract_metadata(html).author is None


def test_blog_profile_card() -> None:
    above = "<div class='card'><p>太小心</p><hr>[作者简介] (个人情况保密)</div>"
    assert extract_metadata(page(after=above)).author == "太小心"
    below = "<div class='profile'><h3>个人资料</h3><p>谢莱纳</p><p>加好友 发纸条</p></div>"
    assert extract_metadata(page(after=below)).author == "谢莱纳"


def test_a_profile_heading_over_a_menu_is_no_card() -> None:
    menu = "<ul><li>我的邮箱</li><li>个人资料</li><li>退出</li></ul>"
    assert extract_metadata(page(after=menu)).author is None


def blog_post(owner_line: str, article: str) -> str:
    return (
        "<html><head><title>孩子，夏令营让你得到了什么？</title></head><body>"
        f"<div class='header'><h2>{owner_line}</h2></div>"
        f"<h1>孩子，夏令营让你得到了什么？</h1><div id='article'>{article}</div></body></html>"
    )


def test_blog_owner_heading_names_the_writer() -> None:
    assert extract_metadata(blog_post("谢莱纳的博客", BODY)).author == "谢莱纳"
    assert extract_metadata(blog_post("bjreader的博客", BODY)).author == "bjreader"


def test_a_reporter_credit_in_a_reposted_article_beats_the_blog_owner() -> None:
    reposted = BODY + "<p>（记者 王燕平 方云凤）</p>"
    assert extract_metadata(blog_post("bjreader的博客", reposted)).author == "王燕平 方云凤"


def test_trailing_names_searched_by_line_find_what_a_search_of_the_page_finds() -> None:
    """`people._trailing_names` searches only the lines ending in a closing bracket: the
    same last name as the pattern run over the whole page text."""
    rng = random.Random(7)
    pieces = [*"。！”\n（(）)张三李四 、x", "报道"]
    for _ in range(5000):
        joined = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        names = [
            match.group("name")
            for match in people._TRAILING_NAMES_RE.finditer(joined)
            if match.group("name") not in people.NOT_NAMES
        ]
        page = PageText(tuple(joined.split("\n")), joined, ())
        assert people._trailing_names(page) == (names[-1] if names else None), repr(joined)
