"""Never a wrong author: each wrong-author class seen on dev pages, on a page written here.

Every page gives either its real author or none; a name caught by "by …" in prose, a button,
a label fragment, an ad widget, a disclaimer or the site's own name is never the author.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from newscrawl.cli import main
from newscrawl.extract import extract
from newscrawl.extract.metadata.bylines import judge_author, outlet_names

EN_PARAGRAPH = (
    "The council approved the new transit plan on Tuesday, adding three bus lines that will "
    "connect the eastern districts with the university campus and the business park."
)
ZH_PARAGRAPH = (
    "记者从市交通运输局获悉，本市今年将新开通三条公交线路，进一步方便市民出行。新线路覆盖"
    "城东新区、高新园区和大学城，预计日均客流量将超过五万人次，有效缓解早晚高峰的交通压力。"
)


def english(byline: str, after: str = "", title: str = "Council approves transit plan") -> bytes:
    body = f"<p>{EN_PARAGRAPH}</p>" * 3
    return (
        f"<html lang='en'><head><title>{title}</title></head><body><article>"
        f"<h1>{title}</h1>{byline}{body}{after}</article></body></html>"
    ).encode()


def chinese(byline: str, after: str = "", title: str = "本市新开三条公交线路_新闻中心") -> bytes:
    body = f"<p>{ZH_PARAGRAPH}</p>" * 3
    headline = title.split("_")[0]
    return (
        f"<html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<h1>{headline}</h1>{byline}{body}{after}</body></html>"
    ).encode()


def author(page: bytes, url: str = "https://news.example.com/a/1.html") -> str | None:
    return extract(page, url).metadata.author


@pytest.mark.parametrize(
    "sentence",
    [
        "<p>Coverage is computed by your test suite, one run at a time, as you would expect.</p>",
        "<p>The rules were changed by Congress. Lawmakers argued over them for many weeks.</p>",
        "<p>A study by Stanford University found that riders prefer frequent service, a lot.</p>",
    ],
)
def test_by_in_prose_is_no_byline(sentence: str) -> None:
    assert author(english("", after=sentence)) is None


def test_an_english_byline_element_gives_the_writer() -> None:
    byline = "<div class='byline'>By Dan Goodin - Mar 2, 2015 1:04pm UTC</div>"
    assert author(english(byline)) == "Dan Goodin"


def test_an_ad_widget_is_no_byline() -> None:
    widget = "<div class='ads'><span>Sponsored Links by Taboola</span> by Taboola</div>"
    assert author(english("", after=widget)) is None


def test_a_label_fragment_is_no_name() -> None:
    assert author(chinese("<div>来源：光明网 作者：责任</div>")) is None
    assert author(chinese("<div>作者：刘满仓 责任编辑：李四</div>")) == "刘满仓"
    assert author(chinese("<div>作者：未知 责任编辑：李四</div>")) is None


def test_a_follow_button_is_no_name() -> None:
    assert author(chinese("<div class='author'>城市交通 关注</div>")) == "城市交通"
    assert author(chinese("<div class='author'>关注</div>")) is None


def test_the_sites_own_name_is_no_author() -> None:
    page = chinese("<div>作者：CSDN.NET</div>", title="本市新开三条公交线路_交通博客-CSDN博客")
    assert author(page, "https://blog.csdn.net/x/article/details/1") is None
    netease = chinese("<div>作者：网易</div>", title="本市新开三条公交线路_网易政务")
    assert author(netease, "https://www.163.com/dy/article/1.html") is None


def test_a_hosting_disclaimer_is_no_author() -> None:
    disclaimer = (
        "<div class='byline'>This article is by a user of NetEase Hao, which is a "
        "self-media platform</div>"
    )
    assert author(english(disclaimer)) is None


def test_an_email_link_beside_the_name_is_no_name() -> None:
    """News bylines end in an "Email" link to the writer: alone in the byline element,
    the word is no author."""
    byline = "<div class='byline'>By <a href='mailto:x@example.com'>Email</a></div>"
    assert author(english(byline)) is None


def test_a_reporter_label_before_the_name_goes() -> None:
    assert author(chinese("<div>总台记者 张倩</div>")) == "张倩"
    assert author(chinese("<div>作者：姚峰 上海报道</div>")) == "姚峰"


@pytest.mark.parametrize(
    ("candidate", "expected"),
    [
        ("By Jane Roe and John Doe", "Jane Roe and John Doe"),
        ("Jong, Michiel de", "Jong, Michiel de"),
        ("Thu 3 Jan 2019 02.00 EST", None),
        ("Laura June Topolsky July 10", "Laura June Topolsky"),
        ("http://www.liberation.fr/auteur/2005-afp", None),
        ("中国国际经济交流中心世界经济研究部部长", None),
        ("郭励弘 我来说两句", "郭励弘"),
        ("the cards", None),
        ("Email", None),
        ("By Jane Roe | E-mail", "Jane Roe"),
        ("posted by Sofia ●", "Sofia"),
        ("Autor Mark Newton:", "Mark Newton"),
        ("Von", None),
        ("By :", None),
        ("By Ed Silverman // November 6th, 2012 // 6:25 pm", "Ed Silverman"),
        ("Posted by Alexandra Grigorescu / November 13, 2012", "Alexandra Grigorescu"),
        ("/ Cory Doctorow / 10:08 am Fri Jul 19, 2013", "Cory Doctorow"),
        ("Dezember 10, 2019 · von freeman1984", None),
        ("Name", None),
        ("publisher", None),
        ("Guest Author", None),
        ("Guest Posts", None),
        ("Herr", None),
        ("anónimo", None),
        ("Creator Name", "Creator Name"),
        ("By Our Foreign Staff", None),
        ("TMZ STAFF", None),
        ("Newsdesk", None),
        ("Redaktion", None),
        ("Support Team", None),
        ("Staffan Larsson", "Staffan Larsson"),
        ("Tom Krisher, AP Auto Writer", "Tom Krisher"),
        ("Peter Hamby, CNN Political Reporter", "Peter Hamby"),
        ("Jessica Holly, Gail Levy", "Jessica Holly, Gail Levy"),
        ("Harm, Robert", "Harm, Robert"),
    ],
)
def test_judge_author(candidate: str, expected: str | None) -> None:
    assert judge_author(candidate, latin_page=True)[0] == expected


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("By Sandee LaMotte, CNN", "Sandee LaMotte"),
        ("By Jill Disis, CNN Business", "Jill Disis"),
        ("By Meg Kinnard, Associated Press", "Meg Kinnard, Associated Press"),
    ],
)
def test_the_sites_own_name_after_the_writers_is_cut(byline: str, expected: str) -> None:
    """An outlet after the comma is the site's own (its name or its name's first word); an
    agency the page does not name itself by stays."""
    page = english(
        f"<div class='byline'>{byline}</div>", title="Council approves transit plan - CNN"
    )
    assert author(page, "https://edition.cnn.com/2024/01/02/a.html") == expected


def test_outlet_names_fold_the_site() -> None:
    names = outlet_names("新浪网", "标题_新浪财经", "https://finance.sina.com.cn/a.html")
    assert {"新浪网", "新浪财经", "sina", "finance"} <= names
    assert judge_author("新浪", names)[0] is None  # the start of the site's name
    assert judge_author("张三", outlet_names(None, "文章_张三的博客", None))[0] == "张三"


def test_a_photo_credit_is_not_the_reporter() -> None:
    caption = (
        "<figure><img src='a.jpg'><figcaption>Photo by James Martin/CNET</figcaption></figure>"
    )
    assert author(english(caption)) is None
    byline = "<p class='byline'>By Steven Musil</p>"
    assert author(english(caption + byline)) == "Steven Musil"


def test_json_ld_in_a_cdata_section_is_read() -> None:
    ld = (
        '<script type="application/ld+json">\n<![CDATA[\n{"@context":"https://schema.org",'
        '"@type":"Article","datePublished":"2018-04-05T06:00:00-04:00",'
        '"author":[{"@type":"Person","name":"Daniel Kahn Gillmor"}]}\n]]>\n</script>'
    )
    page = english("").replace(b"</head>", ld.encode() + b"</head>")
    meta = extract(page, "https://www.example.org/blog/1").metadata
    assert meta.author == "Daniel Kahn Gillmor"
    assert meta.published is not None and meta.published.isoformat().startswith("2018-04-05")


def test_a_meta_naming_two_properties_counts_for_both() -> None:
    dublin_core = '<meta property="dc:creator twitter:site_name" content="Creator Name">'
    page = english("").replace(b"</head>", dublin_core.encode() + b"</head>")
    assert author(page) == "Creator Name"


def test_initials_are_no_sentence_end() -> None:
    meta = '<meta name="author" content="John C. Welch">'
    assert author(english("").replace(b"</head>", meta.encode() + b"</head>")) == "John C. Welch"


def test_structured_data_may_name_an_organisation() -> None:
    ld = (
        '<script type="application/ld+json">{"@type":"Article","author":'
        '{"@type":"Organization","name":"Contributors to Wikimedia projects"}}</script>'
    )
    page = english("").replace(b"</head>", ld.encode() + b"</head>")
    assert author(page) == "Contributors to Wikimedia projects"


def test_software_credits_and_link_texts_are_no_author() -> None:
    metas = (
        '<meta name="generator" content="Discuz! X3.4">'
        '<meta name="author" content="Discuz! Team and Comsenz UI Team">'
    )
    forum = chinese("").replace(b"</head>", metas.encode() + b"</head>")
    assert author(forum) is None
    assert judge_author("[点击此处收藏本文]")[0] is None
    assert judge_author("Last Updated")[0] is None


def test_explain_names_where_each_value_came_from_and_what_was_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    byline = "<div class='byline'>By Dan Goodin - Mar 2, 2015</div>"
    meta = extract(english(byline), "https://news.example.com/a/1.html").metadata
    assert meta.evidence["author"] == "byline element" and meta.evidence["lang"] == "declared"
    refusing = extract(chinese("<div>来源：光明网 作者：责任</div>")).metadata
    assert refusing.author is None and refusing.evidence["source"] == "header label"
    refused = "'责任' (header label): a label, a button or a date, no name"
    assert refused in refusing.refused_authors
    page = tmp_path / "page.html"
    page.write_bytes(chinese("<div>来源：光明网 作者：责任</div>"))
    assert main(["extract", str(page), "--explain", "--format", "text"]) == 0
    shown = capsys.readouterr().out
    assert "source: 光明网 (from header label)" in shown
    assert "author: none (every candidate refused)" in shown and "refused author '责任'" in shown


def test_a_script_props_author_is_read() -> None:
    script = '<script>this.props.headline="x";this.props.author="Erin Cunningham";</script>'
    assert author(english("", after=script)) == "Erin Cunningham"


def test_a_blogs_platform_credit_is_no_author() -> None:
    sidebar = "<div>Blog powered by TypePad</div><div>Hosted by Blogger</div>"
    page = english("", title="Council approves transit plan").replace(
        b"<h1>", sidebar.encode() + b"<h1>"
    )
    assert author(page) is None


@pytest.mark.parametrize(
    "line",
    [
        "Web Toolbar by Wibiya",  # a widget's credit
        "Subscribe by RSS",  # a call to subscribe
        "The winner will receive a sewing machine by Bernina.",  # a maker
    ],
)
def test_by_after_another_word_credits_a_thing_not_a_writer(line: str) -> None:
    assert author(english(f"<div>{line}</div>")) is None


def test_a_blog_named_with_by_is_no_byline_and_the_posts_own_comes_next() -> None:
    header = "<div>Angry by Choice</div><div>Posted on August 5, 2012 by The Lorax</div>"
    assert author(english(header)) == "The Lorax"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("By Dan Cross", "Dan Cross"),
        ("Article by Steph, filed under Cities", "Steph"),
        ("Posted August 8th, 2012 at 11:08 am by Rebecca Bollwitt", "Rebecca Bollwitt"),
        ("2/26/2015 7:11 AM PST BY Jane Roe", "Jane Roe"),
        ("November 4, 2012 — By Long Zheng", "Long Zheng"),
        ("Written by Grant Tinsley, PhD", "Grant Tinsley"),
        ("By Walter O'Brien/NJ.com", "Walter O'Brien"),
    ],
)
def test_by_opening_a_byline_names_the_writer(line: str, expected: str) -> None:
    assert author(english(f"<div>{line}</div>")) == expected


def test_the_headline_in_a_box_named_after_its_author_is_no_byline() -> None:
    """TypePad puts ``entry-author-<blog>`` on the box that holds the post, headline and all."""
    title = "Permission To Be Bad"
    body = f"<p>{EN_PARAGRAPH}</p>" * 3
    page = (
        f"<html lang='en'><head><title>Everything Yoga: {title}</title></head><body>"
        f"<h1>Everything Yoga</h1><h2 class='date-header'>November 05, 2012</h2>"
        f"<div class='entry-author-everythingyoga entry'><h3 class='entry-header'>{title}</h3>"
        f"<div class='entry-content'><div class='entry-body'><div>{body}</div></div></div>"
        "</div></body></html>"
    ).encode()
    article = extract(page, "https://yoga.example.com/2012/11/permission.html")
    assert article.metadata.author is None
    assert article.metadata.published is not None


def test_a_photos_credit_box_named_author_is_no_byline() -> None:
    byline = (
        "<figure><img src='a.jpg'><div class='article__image-author'>PAP/ Rafał Guz</div>"
        "</figure><div class='article__author'>Michał Kolanko</div>"
    )
    assert author(english(byline)) == "Michał Kolanko"


def test_a_byline_run_on_into_a_link_gives_way_to_the_meta_author() -> None:
    """ "By Jason Paur" and an "Email Author" link with no space between: the meta tag
    names the writer; a second name after a comma is kept."""
    page = english("<div class='byline'>By Jason Paur<a href='/mail'>Email Author</a></div>")
    meta = b"<meta name='author' content='Jason Paur'></head>"
    assert author(page.replace(b"</head>", meta)) == "Jason Paur"
    two = english("<div class='byline'>By Jessica Holly, Gail Levy</div>")
    meta = b"<meta name='author' content='Jessica Holly'></head>"
    assert author(two.replace(b"</head>", meta)) == "Jessica Holly, Gail Levy"


@pytest.mark.parametrize("label", ["By", "By:", "Von", "par", "Autor"])
def test_a_label_in_an_element_of_its_own_gives_way_to_the_name_after_it(label: str) -> None:
    """Themes write the label in a block of its own (``<div>Von</div> <a>Name</a>``,
    ``<dt>By</dt><dd><a>Name</a></dd>``): two lines, the name second."""
    name = "<a href='/author/pc'>Patrick Czerny</a>"
    by_div = f"<div class='post-author-name'><div class='author-by'>{label}</div> {name}</div>"
    by_term = f"<dl class='storyBlogByline'><dt>{label} </dt><dd>{name}</dd></dl>"
    assert author(english(by_div)) == "Patrick Czerny"
    assert author(english(by_term)) == "Patrick Czerny"


def test_an_entity_in_a_json_ld_name_is_decoded() -> None:
    """CMSs escape the name for HTML before writing it into the JSON."""
    ld = (
        '<script type="application/ld+json">{"@context":"https://schema.org",'
        '"@type":"NewsArticle","author":{"@type":"Person","name":"Lindsey O&#039;Donnell"}}'
        "</script></head>"
    )
    assert author(english("").replace(b"</head>", ld.encode())) == "Lindsey O'Donnell"


@pytest.mark.parametrize(
    "markup",
    [
        "<meta name='author' content='publisher'>",  # a CMS's default
        '<script>var labels = {"author":"Name","email":"E-Mail"};</script>',  # a form's
    ],
)
def test_a_templates_placeholder_is_no_author(markup: str) -> None:
    assert author(english("").replace(b"</head>", markup.encode() + b"</head>")) is None


def test_a_desks_byline_gives_way_to_the_writers_meta_author() -> None:
    """A desk's or a team's name in the byline is no one's; a person named elsewhere on the
    page is the author, else none is."""
    byline = "<div class='byline'>By Our Foreign Staff</div>"
    assert author(english("", after=byline)) is None
    meta = "<meta name='author' content='Jane Roe'></head>"
    assert author(english("", after=byline).replace(b"</head>", meta.encode())) == "Jane Roe"


def test_an_itemprop_author_past_the_items_meta_tags_is_read() -> None:
    """Blogger's footer: the author's item holds a ``<meta itemprop="url">`` before its
    name."""
    footer = (
        "<div class='post-footer'><span class='post-author vcard'>Posted by <span class='fn' "
        "itemprop='author' itemscope='itemscope' itemtype='http://schema.org/Person'>"
        "<meta content='https://www.blogger.com/profile/1' itemprop='url'>"
        "<a class='g-profile' href='https://www.blogger.com/profile/1'>"
        "<span itemprop='name'>T. V. Raman</span></a></span></span></div>"
    )
    assert author(english("", after=footer)) == "T. V. Raman"


CLASSIC_BLOGGER_FOOTER = (
    "<div class='post-footer'><div class='post-footer-line'><span class='post-author vcard'>"
    "Posted by <span class='fn'>{name}</span></span> <span class='post-timestamp'>{when} "
    "<a class='timestamp-link'><abbr class='published' title='2012-10-01T21:00:00-05:00'>"
    "9:00 PM</abbr></a></span></div></div>"
)


@pytest.mark.parametrize(
    ("name", "when", "expected"),
    [
        ("Chef John", "at", "Chef John"),
        ("David J. Phillips", "on", "David J. Phillips"),
        ("Bill McBride", "|", "Bill McBride"),
    ],
)
def test_a_post_footers_byline_names_the_writer(name: str, when: str, expected: str) -> None:
    """Classic Blogger templates write the author only in the post's footer, marked as the
    post's by its microformats publish time, with no ``itemprop``."""
    footer = CLASSIC_BLOGGER_FOOTER.format(name=name, when=when)
    assert author(english("", after=footer)) == expected


def test_a_footer_not_marked_as_the_posts_names_no_one() -> None:
    """A page footer (or a teaser's) has no publish-time markup and opens with no
    platform byline: its "by" is not the post's."""
    footer = "<div class='footer'><p>Latest: Storm season ahead, by Jane Roe</p></div>"
    assert author(english("", after=footer)) is None


def test_a_post_footer_that_opens_with_a_byline_names_the_writer() -> None:
    """Blogger templates without microformats: the footer's own "Posted by … on …" line
    marks it as the post's."""
    footer = (
        "<div class='post-footer'><p class='post-footer-line'><span class='post-author'>"
        "Posted by Ross Tucker and Jonathan Dugas</span> <span class='post-timestamp'>on "
        "<a class='timestamp-link' href='/2012/10/p.html'>Monday</a></span></p></div>"
    )
    assert author(english("", after=footer)) == "Ross Tucker and Jonathan Dugas"


def test_a_post_footers_by_in_prose_names_no_one() -> None:
    footer = CLASSIC_BLOGGER_FOOTER.format(name="Chef John", when="at").replace(
        "Posted by", "Caused by the cards, stories told by"
    )
    assert author(english("", after=footer)) is None


def test_the_meta_author_comes_before_a_post_footers_byline() -> None:
    """A footer whose byline runs into the date ("By JANE ROE JAN. 20, 2017") gives way to
    the author the page declares."""
    footer = CLASSIC_BLOGGER_FOOTER.format(name="Chef John", when="at")
    page = english("", after=footer).replace(
        b"</head>", b"<meta name='author' content='John Mitchell'></head>"
    )
    assert author(page) == "John Mitchell"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Submitted by Kyle Mantyla on Thu, 08/09/2012 - 3:04pm", "Kyle Mantyla"),
        ("Posted by Jacob in Blogging, Early Retirement Tips", "Jacob"),
        ("Written By: Jason Shafrin - Nov 06 2012", "Jason Shafrin"),
        ("Published by Alexandra Grigorescu / November 13, 2012", "Alexandra Grigorescu"),
    ],
)
def test_a_blog_platforms_byline_under_the_headline_names_the_writer(
    line: str, expected: str
) -> None:
    """A byline "Posted by <name> on <date>": the name ends where the date or category starts
    (a byline label alone took the whole line, dates and all, or nothing)."""
    assert author(english(f"<p class='meta'>{line}</p>")) == expected


def test_a_posts_closing_byline_names_the_writer() -> None:
    """Company blogs sign the post at its end: "Posted by <name>, <role>"."""
    signature = "<p>Posted by Ka-Ping Yee, Software Engineer, Crisis Response</p>"
    assert author(english("", after=signature)) == "Ka-Ping Yee"


def test_a_posted_by_line_above_the_headline_names_no_one() -> None:
    """Lines above the headline, beyond the few a byline may stand in, are a sidebar's
    (another post's byline)."""
    menu = "".join(f"<li><a href='/s/{n}'>Section {n}</a></li>" for n in range(6))
    sidebar = f"<div><p>Posted by Jane Roe on Monday</p><ul>{menu}</ul></div>"
    page = english("").replace(b"<article>", sidebar.encode() + b"<article>")
    assert author(page) is None


def test_the_posts_own_posted_by_line_comes_before_its_readers() -> None:
    comments = "<p>Great post, thanks for writing it up.</p><p>Posted by: Jonathan at 5:23 PM</p>"
    byline = "<p>Posted by Menzie Chinn at October 29, 2012 05:10 PM</p>"
    assert author(english("", after=byline + comments)) == "Menzie Chinn"


@pytest.mark.parametrize(
    "line",
    [
        "Written by Tim Ferriss Topics: Entrepreneurship",  # the next label's word
        "Caused by the storm in the north",  # no verb of writing: prose
        "Posted by admin on August 9, 2012",  # no capitalised name
    ],
)
def test_a_posted_by_line_that_names_no_writer_gives_no_author(line: str) -> None:
    assert author(english("", after=f"<p>{line}</p>")) is None


def test_a_link_to_the_authors_page_names_the_writer() -> None:
    """WordPress themes link the post to its author's archive, ``rel="author"``, in an
    inline ``<span>`` the element tree does not hold."""
    meta = (
        "<p class='entry-meta'>Posted on <time datetime='2012-11-05'>November 5</time> "
        "<span class='byline'><span class='author vcard'><a class='url fn n' "
        "href='/author/laura/' title='Posts by Laura Vecsey' rel='author'>Laura Vecsey</a>"
        "</span></span></p>"
    )
    assert author(english(meta)) == "Laura Vecsey"


def test_an_itemprop_authors_name_is_read_past_its_links() -> None:
    """The author item holds links to the author's page before its ``itemprop="name"``."""
    item = (
        "<ul><li itemprop='author' itemscope itemtype='http://schema.org/Person'>"
        "<a rel='author' href='/profiles/musil/'><img src='/m.jpg'></a>"
        "<a rel='author' class='author' href='/profiles/musil/'>"
        "<span itemprop='name'>Steven Musil</span></a></li></ul>"
    )
    assert author(english(item)) == "Steven Musil"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("by Meghann on November 13, 2012", "Meghann"),
        ("By Sarah Moore • Nov 6, 2012 • Chicago", "Sarah Moore"),
        ("by Al Tompkins Published Nov. 7, 2012 2:25 pm", "Al Tompkins"),
        ("By Kim Blake @kimkblake", "Kim Blake"),
        ("by Chris Pearson · 131 comments", "Chris Pearson"),
        ("by Jasmine Velasco 6 Nov 2012, 3:00 PM PDT", "Jasmine Velasco"),
        ("By Gillian Mohney March 11, 2015", "Gillian Mohney"),
    ],
)
def test_a_header_bylines_name_ends_where_its_date_or_place_begins(
    line: str, expected: str
) -> None:
    """The name had to end the line or meet a separator: "by X on <date>" gave nothing."""
    assert author(english(f"<p class='meta'>{line}</p>")) == expected


def test_a_hyphen_inside_a_name_is_no_separator() -> None:
    """A spaced dash ends a name; the hyphen of a double name does not."""
    assert author(english("<p class='meta'>By Jean-Pierre Gassin - Nov 6, 2012</p>")) == (
        "Jean-Pierre Gassin"
    )


@pytest.mark.parametrize(
    "markup",
    [
        "<p class='meta'>Posted by timothy on Tuesday July 24, @09:04AM</p>",
        "<p class='meta'>Filed <a href='/author/timothy/' rel='author'>timothy</a></p>",
    ],
)
def test_a_platforms_account_name_is_the_writer(markup: str) -> None:
    """Where a platform writes its user's account ("Posted by", an author link), one word in
    lower case is a name."""
    assert author(english(markup)) == "timothy"


def test_a_lower_case_word_after_a_bare_by_is_no_name() -> None:
    """After a plain "by" on an English page it is more often prose than a handle."""
    assert author(english("<p class='meta'>by timothy on Tuesday July 24</p>")) is None


ENTRY_FOOTER = (
    "<footer class='entry-meta'>Posted <time datetime='2012-11-12T15:00:30+00:00'>"
    "November 12</time> by <span class='author vcard'><span class='fn'>Daljeet</span></span>"
    "</footer>"
)


def test_an_entrys_author_card_names_the_writer() -> None:
    """hAtom themes mark the entry's author ``author vcard`` with its name in ``fn``, in
    the entry's footer, which the card (like a publish time) marks as the post's."""
    meta = extract(english("", after=ENTRY_FOOTER), "https://news.example.com/a/1.html").metadata
    assert meta.author == "Daljeet"
    assert meta.published is not None and meta.published.hour == 15


@pytest.mark.parametrize(
    "markup",
    [
        # a theme's author link to its "About" page
        "<p class='entry-meta'>Filed by <a href='/about/' rel='author'>About Us</a></p>",
        # another post's author link, in a sidebar
        "<div class='sidebar'><h3>Recent posts</h3><ul><li><a href='/p/2'>Seed catalogues</a> "
        "by <a href='/author/jo/' rel='author'>Jo March</a></li></ul></div>",
        # a reader's card (``comment-author vcard``), outside any box named for comments
        "<div class='comment-author vcard'><cite class='fn'>Francisca</cite> says:</div>",
        # an author card with no ``fn``, then a teaser photo's credit card
        "<div class='txt vcard author contributor'><span class='org'>NBC</span></div>"
        "<p>More news</p><span class='credit vcard fn org contributor'>Reuters</span>",
    ],
)
def test_author_markup_that_names_no_writer_of_this_article(markup: str) -> None:
    assert author(english("", after=markup)) is None


EMBEDDED_POST = (
    "<div class='fb-post'><blockquote cite='https://www.facebook.com/party/posts/1'>"
    "<p>Rents must not rise again this spring.</p><p>Posted by <a href='https://www.facebook"
    ".com/party'>Party Office</a> on <a href='https://www.facebook.com/party/posts/1'>Monday,"
    " February 7, 2022</a></p></blockquote></div>"
)


def test_an_embedded_posts_byline_and_date_are_not_the_articles() -> None:
    """A quotation names its own writer and date: an embedded Facebook post's "Posted by …
    on …" inside the article."""
    meta = extract(english("", after=EMBEDDED_POST), "https://news.example.com/a/1.html").metadata
    assert meta.author is None
    assert meta.published is None


def test_a_platform_bylines_date_dates_the_post() -> None:
    """ "Posted by Kathy on April 6, 2007": after a platform's byline a bare "on" introduces
    the post's date, far from the headline too."""
    footer = "<p>Posted by Kathy on April 6, 2007 | <a href='/p/1'>Permalink</a></p>"
    meta = extract(english("", after=footer), "https://news.example.com/a/1.html").metadata
    assert meta.author == "Kathy"
    assert meta.published is not None
    assert meta.published.date().isoformat() == "2007-04-06"
