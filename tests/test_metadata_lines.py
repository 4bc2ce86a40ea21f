"""The visible lines metadata reads: the body pass's lines, boxes about other content out;
the keywords it looks up in them."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newscrawl.extract import Options, extract
from newscrawl.extract.blocks import page_lines
from newscrawl.extract.metadata import KEYWORDS, extract_metadata
from newscrawl.extract.metadata.lines import (
    DIRECT_OPENING_TESTS,
    Keyword,
    PageText,
    VisibleLine,
    _opening_test,
    _opens_in,
    link_list_items,
    other_content_boxes,
    reads_as_body,
    title_index,
    visible_lines,
)
from newscrawl.extract.title import folded, site_names

BODY = "<p>" + "这是正文的一句话，用来模拟文章主体内容。" * 12 + "</p>"


def lines_of(html: str) -> list[VisibleLine]:
    page = page_lines(html)
    return visible_lines(page, other_content_boxes(page))


def texts(html: str) -> list[str]:
    return [line.text for line in lines_of(html)]


def test_boxes_about_other_articles_are_left_out() -> None:
    html = (
        "<h1>本文标题</h1><div class='related-news'><p>另一篇 2020-01-01</p></div>"
        "<aside><p>侧栏 2019-05-05</p></aside><div id='comment-list'><p>网友 2024-01-01</p></div>"
    )
    assert texts(html) == ["本文标题"]


def test_share_bars_and_toolbars_stay_as_they_may_hold_the_byline() -> None:
    html = "<div class='share-toolbar'><span>2024-05-10 09:00</span> 来源：新华网</div>"
    assert texts(html) == ["2024-05-10 09:00 来源：新华网"]


def test_a_br_starts_a_line_of_its_own_and_headings_are_marked() -> None:
    lines = lines_of("<h2>标题在这里</h2><p>作者：张三<br>来源：人民网</p>")
    assert [(line.text, line.heading) for line in lines] == [
        ("标题在这里", True),
        ("作者：张三", False),
        ("来源：人民网", False),
    ]


def test_extract_reuses_the_body_lines_with_the_same_result() -> None:
    html = (
        "<html><head><title>有轨电车之困_新闻中心</title></head><body><h1>有轨电车之困</h1>"
        f"<div class='info'>2024-05-10 09:00<br>作者：张三 来源：新华网</div>{BODY}"
        "<div class='recommend'><p>推荐阅读 2023-01-01 09:00</p></div></body></html>"
    )
    from_extract = extract(html, options=Options()).metadata
    alone = extract_metadata(html)
    assert from_extract == alone
    assert alone.published is not None and alone.published.year == 2024
    assert alone.author == "张三"


def test_linked_list_items_next_to_each_other_are_a_list_of_links() -> None:
    html = (
        "<ul><li>发布时间：2021-06-15</li><li>来源：<a href='/'>新华网</a></li></ul>"
        "<p>正文 <a href='/x'>链接</a></p>"
        "<ul><li><a href='/a'>另一篇</a> 2021-07-01</li><li><a href='/b'>又一篇</a> 2021-07-02</li>"
        "<li>没有链接的一项</li></ul>"
    )
    visible = lines_of(html)
    assert [line.linked for line in visible] == [False, True, True, True, True, False]
    assert link_list_items(visible) == {3, 4}


def test_an_exact_keyword_is_words_without_a_letter_the_c_search_folds() -> None:
    keyword = Keyword.words("记者", "评论员")
    assert keyword.exact and keyword.needles == ("记者", "评论员")
    assert keyword.pattern.search("本报记者 王明") and not keyword.pattern.search("记 者")
    for word in ("by", "来源ſ"):
        with pytest.raises(ValueError):
            Keyword.words(word)


BLOG_POST = (
    "<html><head><title>Dorf on Law: Wasted Talent and the Middle Class</title></head><body>"
    "<h1>Dorf on Law</h1><p>Thoughts on law, politics, economics and more from the two of "
    "us, and now and then from others too</p>"
    "<h2 class='date-header'>Thursday, August 09, 2012</h2>"
    "<h3 class='post-title'>Wasted Talent and the Middle Class</h3>"
    "<p>-- Posted by Neil H. Buchanan</p>"
    + "<p>Late in the spring of this year, I posted some thoughts on public employment.</p>" * 6
    + "</body></html>"
)


def headline_index(html: str, url: str | None, page_title: str) -> int | None:
    page = page_lines(html)
    visible = visible_lines(page, other_content_boxes(page))
    found = title_index(PageText.of(visible, KEYWORDS), visible, page_title, site_names(url))
    return None if found is None else found - texts(html).index("Dorf on Law")


def test_the_headline_is_not_a_masthead_that_spells_the_site_name() -> None:
    post = texts(BLOG_POST).index("Wasted Talent and the Middle Class")
    url = "http://www.dorfonlaw.org/wasted-talent.html"
    assert headline_index(BLOG_POST, url, "Dorf on Law: Wasted Talent") == post
    # Without the address nothing says the masthead names the site: the first heading.
    assert headline_index(BLOG_POST, None, "Dorf on Law: Wasted Talent") == 0


def test_of_two_headings_the_title_joins_the_lower_one_is_the_headline() -> None:
    """ "Blog: Post": the blog's name comes first on the page, the post's headline below."""
    post = texts(BLOG_POST).index("Wasted Talent and the Middle Class")
    title = "Dorf on Law: Wasted Talent and the Middle Class"
    assert headline_index(BLOG_POST, None, title) == post


@pytest.mark.parametrize("sidebar_headings", [3, 300])
def test_the_headline_under_many_sidebar_headings_is_found_alike(sidebar_headings: int) -> None:
    """Past `DIRECT_OPENING_TESTS` headings the <title> is searched through its windows:
    the same headline comes out as with a few (and an almost matching heading is none)."""
    sidebar = "".join(
        f"<h3>Wasted Time {number} in other news</h3>" for number in range(sidebar_headings)
    )
    html = f"<div class='menu'>{sidebar}</div><h2>Wasted Talent and the Middle Class</h2>{BODY}"
    page = page_lines(html)
    visible = visible_lines(page, other_content_boxes(page))
    title = "Wasted Talent and the Middle Class - Dorf on Law"
    found = title_index(PageText.of(visible, KEYWORDS), visible, title)
    assert found is not None
    assert visible[found].text == "Wasted Talent and the Middle Class"


@settings(max_examples=300, deadline=None)
@given(
    title=st.text(alphabet="aAbB -–’'", max_size=40),
    heading=st.text(alphabet="aAbB -–’'", min_size=1, max_size=20),
)
def test_a_headings_opening_is_found_in_the_title_windows_as_by_a_search(
    title: str, heading: str
) -> None:
    folded_title = folded(title)
    direct = _opening_test(folded_title, folded, DIRECT_OPENING_TESTS)
    by_windows = _opening_test(folded_title, folded, DIRECT_OPENING_TESTS + 1)
    assert by_windows(heading) == direct(heading) == _opens_in(heading, folded_title, folded)


def test_a_date_above_a_blog_posts_headline_under_the_masthead_is_read() -> None:
    for url in ("http://www.dorfonlaw.org/wasted-talent.html", "http://example.org/w.html"):
        meta = extract_metadata(BLOG_POST, url)
        assert meta.published is not None and meta.published.date() == date(2012, 8, 9)
    # A title naming the blog alone anchors the header at its masthead; the blog's
    # description under it is one sentence over a short line, read past as a deck.
    blog_only = BLOG_POST.replace(": Wasted Talent and the Middle Class</title>", "</title>")
    meta = extract_metadata(blog_only, "http://example.org/w.html")
    assert meta.published is not None and meta.published.date() == date(2012, 8, 9)


def test_a_posts_title_that_is_no_heading_beats_the_masthead() -> None:
    """The post's title in a ``<div>`` under the site's name in an ``<h1>``: the title
    line, not the masthead, anchors the header, and the date under it is read."""
    post = BLOG_POST.replace(
        "<h3 class='post-title'>Wasted Talent and the Middle Class</h3>",
        "<div class='post-title'>Wasted Talent and the Middle Class</div>",
    ).replace("<h2 class='date-header'>Thursday, August 09, 2012</h2>", "")
    post = post.replace("<p>-- Posted by", "<p>Posted on August 9, 2012 by")
    title = "Wasted Talent and the Middle Class | Dorf on Law"
    url = "http://www.dorfonlaw.org/wasted-talent.html"
    assert headline_index(post, url, title) == texts(post).index(
        "Wasted Talent and the Middle Class"
    )
    meta = extract_metadata(
        post.replace("Dorf on Law: Wasted Talent and the Middle Class", title), url
    )
    assert meta.published is not None and meta.published.date() == date(2012, 8, 9)


def test_a_box_named_after_its_sidebar_that_holds_the_only_headline_is_the_articles() -> None:
    """Themes name the wrapper of the post and its sidebar after the sidebar
    (``content-sidebar-wrap``, ``has-sidebar``); where it holds the only heading the
    <title> starts with, its byline and date are the post's. A copy of the headline in a
    list of posts, with the headline itself outside, does not make that list the post's."""
    paragraph = "<p>Late in the spring of this year, I posted some thoughts on work.</p>"
    comments = "<div class='comments'>" + "<p>I agree with every word of this.</p>" * 40
    post = (
        "<html><head><title>Wasted Talent and the Middle Class</title></head><body>"
        "<div id='content-sidebar-wrap'><div class='post'>"
        "<h1>Wasted Talent and the Middle Class</h1>"
        "<p class='meta'>November 3, 2012 By George Ambler</p>" + paragraph * 4 + "</div>"
        "<div class='widget'><h4>Archives</h4><ul><li>October 2012</li></ul></div></div>"
        + comments
        + "</div></body></html>"
    )
    meta = extract_metadata(post, "https://blog.example.org/wasted-talent")
    assert meta.author == "George Ambler"
    assert meta.published is not None and meta.published.date() == date(2012, 11, 3)
    headline = "Wasted Talent and the Middle Class"
    wrapper = "<div id='content-sidebar-wrap'><div class='post'>"
    listed = post.replace(
        f"{wrapper}<h1>{headline}</h1>", f"<h1>{headline}</h1>{wrapper}<h3>{headline}</h3>"
    )
    assert extract_metadata(listed, "https://blog.example.org/wasted-talent").author is None


def news_page(under_headline: str) -> str:
    """A news article: headline, `under_headline`, then three paragraphs of body."""
    headline = "Samsung Galaxy Tab banned in EU in fresh patent twist"
    paragraph = (
        "<p>A German court has extended the ban to the whole union, a spokesman said on "
        "Tuesday, and the company will appeal the ruling. The decision follows months of "
        "argument over the design of the device and its smaller sibling.</p>"
    )
    return (
        f"<html><head><title>{headline}</title></head><body><h1>{headline}</h1>"
        f"{under_headline}{paragraph * 3}</body></html>"
    )


DECK = (
    "<p class='dek'>Mixed news for Samsung: while its redesigned tablet can go on sale, its "
    "smaller model will see a sales ban extended to the entire EU.</p>"
)


def test_a_deck_under_the_headline_does_not_end_the_header_before_the_byline() -> None:
    """News sites set a sentence or two of summary between the headline and the byline; the
    byline's name and time under it are the article's."""
    byline = "<div class='byline'>by Zack Whittaker</div><div>July 24, 2012 4:16 AM PDT</div>"
    meta = extract_metadata(news_page(DECK + byline))
    assert meta.author == "Zack Whittaker"
    assert meta.published == datetime(2012, 7, 24, 11, 16, tzinfo=UTC)


def test_a_one_paragraph_posts_prose_is_no_deck() -> None:
    """A short post's paragraph under the headline, prose after it: the header ends there,
    and a "by" in the prose ("sold by Cameta") is no byline."""
    post = (
        "<p>This is the very first time the new lens is in stock via a camera shop on Amazon. "
        "Only two of them are left. In Germany it has been in stock for days now.</p>"
        "<p>P.S.: A long list of the new cameras is sold by Cameta on Amazon (Click here)</p>"
    )
    assert extract_metadata(news_page(post)).author is None
    # Nor is a long paragraph with a short line under it.
    many = "<p>" + "This is a sentence of the article, standing for its body. " * 4 + "</p>"
    assert extract_metadata(news_page(many + "<p>by Cameta</p>")).author is None


def test_a_masthead_over_a_long_description_is_passed_for_the_posts_heading() -> None:
    """A blog's description under its masthead longer than a deck ends a header anchored
    there; the masthead spells the site's name, so the post's heading anchors it."""
    description = (
        "<p>Thoughts on law, politics and economics from the two of us. Now and then from "
        "others too. We write when we can, which is not often. Comments are welcome.</p>"
    )
    long_blurb = BLOG_POST.replace(
        "<p>Thoughts on law, politics, economics and more from the two of us, and now and "
        "then from others too</p>",
        description,
    )
    assert description in long_blurb
    # The title's second part is not the post's heading: the two-parts rule has no say.
    page = long_blurb.replace(
        ": Wasted Talent and the Middle Class</title>", ": Wasted Talent</title>"
    )
    meta = extract_metadata(page, "http://www.dorfonlaw.org/wasted-talent.html")
    assert meta.published is not None and meta.published.date() == date(2012, 8, 9)
    assert extract_metadata(page, "http://example.org/w.html").published is None


@pytest.mark.parametrize(
    ("heading", "page_title"),
    [
        ("Finding Your Vintage Style Part 2", "Finding your Vintage Style Part 2 | How Does She"),
        ("Melaka – Why It’s Worth A Visit", "Melaka - Why It's Worth A Visit ● As We Travel"),
    ],
    ids=["case", "dash-and-quote"],
)
def test_a_heading_the_title_writes_in_other_case_or_punctuation_is_the_headline(
    heading: str, page_title: str
) -> None:
    """A head title that writes the headline in its own case, or with ASCII marks where
    the heading has a CMS's dashes and quotes, still names the heading: the header window
    is anchored there, not at the site's name a menu away, and the byline under it is
    read."""
    html = (
        f"<html><head><title>{page_title}</title></head><body>"
        f"<div class='logo'>{page_title.split(' ● ')[-1].split(' | ')[-1]}</div><ul>"
        + "".join(f"<li><a href='/c{i}'>Category {i}</a></li>" for i in range(14))
        + "</ul>"
        f"<h1>{heading}</h1><div class='meta'>November 9, 2012 by Cristi</div>"
        + "<p>This is a sentence of the article, standing for its body. </p>" * 6
        + "</body></html>"
    )
    meta = extract_metadata(html, "http://www.example.org/post/")
    assert meta.published is not None and meta.published.date() == date(2012, 11, 9)
    assert meta.author == "Cristi"


def test_an_exact_heading_comes_before_one_that_matches_only_folded() -> None:
    """A masthead whose words recur in the title in lower case ("Foreign Policy Magazine"
    in "… for American foreign policy") is no match while the headline matches as written."""
    headline = "What the election means for American foreign policy"
    html = (
        f"<html><head><title>{headline} | Stephen M. Walt</title></head><body>"
        f"<h1>Foreign Policy Magazine</h1><p>AUGUST 9, 2012</p><h1>{headline}</h1>"
        "<h2>Posted By Stephen M. Walt Thursday, August 9, 2012 - 10:40 AM</h2>"
        + "<p>This is a sentence of the article, standing for its body. </p>" * 6
        + "</body></html>"
    )
    page = page_lines(html)
    visible = visible_lines(page, other_content_boxes(page))
    found = title_index(PageText.of(visible, KEYWORDS), visible, f"{headline} | Walt", frozenset())
    assert found is not None and visible[found].text == headline


def test_a_page_whose_body_class_says_no_sidebars_keeps_its_headline_and_date() -> None:
    """Drupal writes its layout on ``<body>`` ("no-sidebars", "one-sidebar sidebar-first"):
    "no-sidebars" names no sidebar box, so the headline and the date under it are read."""
    headline = "Photo Gallery: Behind the Scenes in June 2012"
    html = (
        f"<html><head><title>{headline} | The White House</title></head>"
        "<body class='not-front page-node no-sidebars'>"
        "<div class='footer'>" + "<p><a href='/x'>Elsewhere on the site</a></p>" * 40 + "</div>"
        f"<h2>{headline}</h2><div class='post-info'>Colleen Curtis</div><div>July 19, 2012</div>"
        + "<p>This is a sentence of the article, standing for its body. </p>" * 3
        + "</body></html>"
    )
    meta = extract_metadata(html, "http://www.example.gov/blog/2012/07/19/photo-gallery")
    assert meta.published is not None and meta.published.date() == date(2012, 7, 19)


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("这是正文的一句话，用来模拟文章主体内容。" * 5, True),
        ("The council opened the new library on Saturday, and hundreds came. " * 2, True),
        (
            "افتتحت البلدية يوم السبت أكبر مكتبة عامة في المدينة، وتضم أكثر من مئتي ألف كتاب" * 2,
            True,
        ),
        ("ห้องสมุดแห่งใหม่เปิดให้บริการ โดยมีหนังสือมากกว่าสองแสนเล่ม" * 3, True),
        (
            "来源：新华网 作者：张三 责任编辑：李四 发布时间：2024-05-10 09:00 浏览：1234 " * 3,
            False,
        ),
        ("The council opened the new library on Saturday, and hundreds came. ", False),
    ],
)
def test_a_long_line_with_its_scripts_sentence_marks_reads_as_body(text: str, body: bool) -> None:
    """Chinese "。" "，", Latin ". " ", ", the other scripts' own marks and the spaces between
    Thai words; not the colons of a long Chinese byline, and not a short line."""
    assert reads_as_body(text) is body
