"""Publication time: one hand-written page per source of evidence, plus the traps
(sidebar/related/comment dates, edit dates, recommendation dates) that must be ignored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from newscrawl.extract.metadata import extract_metadata

SHANGHAI = ZoneInfo("Asia/Shanghai")
BODY = "<p>" + "这是正文的一句话，用来模拟文章主体内容。" * 12 + "</p>"


def page(head: str = "", before: str = "", byline: str = "", after: str = "") -> str:
    """A small article page: nav, headline, byline, body, then whatever follows."""
    return article_page(
        "有轨电车之困：一边上马一边叫停_新闻中心", "有轨电车之困：一边上马一边叫停", BODY,
        head=head, before=f"<div class='nav'>首页 | 国内</div>{before}", byline=byline, after=after,
    )  # fmt: skip


def article_page(
    title: str, headline: str, body: str, *, head: str, before: str, byline: str, after: str
) -> str:
    """`head` and `before` the headline, its byline, the body, then `after`."""
    return (
        f"<html><head><title>{title}</title>{head}</head><body>{before}"
        f"<h1>{headline}</h1><div class='byline'>{byline}</div>"
        f"<div id='article'>{body}</div>{after}</body></html>"
    )


def shanghai(*fields: int) -> datetime:
    return datetime(*fields, tzinfo=SHANGHAI)  # type: ignore[misc]


def test_json_ld_date_published_comes_first() -> None:
    ld = (
        '<script type="application/ld+json">{"@context": "https://schema.org",'
        '"@type": "NewsArticle", "datePublished": "2024-09-29T17:00:56+08:00",}</script>'
    )
    meta = extract_metadata(page(head=ld + '<meta name="pubdate" content="2020-01-01">'))
    assert meta.published == shanghai(2024, 9, 29, 17, 0, 56)
    assert (meta.published_precision, meta.published_source) == ("second", "json-ld")


def test_json_ld_of_another_kind_is_not_a_publication_date() -> None:
    ld = (
        '<script type="application/ld+json">'
        '{"@type": "Person", "datePublished": "2001-01-01"}</script>'
    )
    assert extract_metadata(page(head=ld)).published is None


@pytest.mark.parametrize(
    ("attribute", "key", "value", "expected", "precision"),
    [
        (
            "property",
            "article:published_time",
            "2025-10-16T20:02:18+08:00",
            (2025, 10, 16, 20, 2, 18),
            "second",
        ),
        ("name", "publishdate", "2024-04-24", (2024, 4, 24), "day"),
        ("name", "pubdate", "2024-05-10 06:58", (2024, 5, 10, 6, 58), "minute"),
        ("property", "og:release_date", "2023-11-02 20:13", (2023, 11, 2, 20, 13), "minute"),
        ("name", "PubDate", "2022-02-11 09:52:25", (2022, 2, 11, 9, 52, 25), "second"),
        ("itemprop", "datePublished", "2024-05-13 06:15", (2024, 5, 13, 6, 15), "minute"),
        ("name", "publishdate", "20240510", (2024, 5, 10), "day"),
    ],
)
def test_meta_tags(
    attribute: str, key: str, value: str, expected: tuple[int, ...], precision: str
) -> None:
    meta = extract_metadata(page(head=f'<meta {attribute}="{key}" content="{value}">'))
    assert meta.published == shanghai(*expected)
    assert meta.published_precision == precision
    assert meta.published_source == f"meta:{key.lower()}"


def test_time_element_keeps_its_own_offset() -> None:
    meta = extract_metadata(page(byline='<time datetime="2024-05-10T08:00:00Z">今天</time>'))
    assert meta.published == datetime(2024, 5, 10, 8, 0, tzinfo=UTC)
    assert meta.published is not None and meta.published.utcoffset() == timedelta(0)
    assert meta.published.astimezone(SHANGHAI).hour == 16


def test_data_publishtime_attribute() -> None:
    html = page().replace("<html>", '<html data-publishtime="2020-07-04 01:55:04">')
    meta = extract_metadata(html)
    assert meta.published == shanghai(2020, 7, 4, 1, 55, 4)
    assert meta.published_source == "attr:data-publishtime"


def test_empty_date_attribute_is_skipped_for_the_next_one() -> None:
    # An empty data-time once raised StopIteration inside the attribute search.
    html = page(byline='<span data-time="">x</span><span data-pubtime="2021-03-02 10:00">y</span>')
    meta = extract_metadata(html)
    assert meta.published == shanghai(2021, 3, 2, 10, 0)
    assert meta.published_source == "attr:data-pubtime"


def test_itemprop_date_published_in_page_order_with_time_elements() -> None:
    byline = (
        '<span itemprop="datePublished" content="2022-01-05T09:30:00+08:00"></span>'
        '<time datetime="2023-01-01T00:00:00+08:00">x</time>'
    )
    meta = extract_metadata(page(byline=byline))
    assert meta.published == shanghai(2022, 1, 5, 9, 30)
    assert meta.published_source == "span"


def blog_post(byline: str, after: str = "") -> str:
    """An English blog post whose byline is `byline`, then `after`."""
    body = "<p>" + "I rebuilt the old greenhouse behind the house this winter. " * 8 + "</p>"
    return article_page(
        "Rebuilding a greenhouse", "Rebuilding a greenhouse", body,
        head="", before="", byline=byline, after=after,
    )  # fmt: skip


def test_an_abbr_marked_date_published_gives_its_title() -> None:
    # Blogger: the machine-readable time is the abbr's title, its text a short clock time.
    byline = (
        "Posted at <abbr class='published' itemprop='datePublished' "
        "title='2012-08-09T08:57:00-05:00'>8:57 AM</abbr>"
    )
    meta = extract_metadata(blog_post(byline))
    assert meta.published == datetime(2012, 8, 9, 8, 57, tzinfo=timezone(timedelta(hours=-5)))
    assert meta.published_source == "abbr"


def test_a_microformats_published_abbr_gives_its_title() -> None:
    byline = 'Posted on <abbr class="published" title="2012-09-16T19:05:06+0000">Sunday</abbr>'
    meta = extract_metadata(blog_post(byline))
    assert meta.published == datetime(2012, 9, 16, 19, 5, 6, tzinfo=UTC)
    assert meta.published_source == "microformat"


def test_a_microformats_abbr_comes_after_the_tags_the_page_dates_itself_with() -> None:
    # A feed of tweets marks each one up as an hAtom entry of its own.
    byline = (
        '<time datetime="2012-11-07T16:25:02Z">1 hour ago</time>'
        '<abbr class="published updated" title="2012-11-07T17:12:00+0000">tweet</abbr>'
    )
    meta = extract_metadata(blog_post(byline))
    assert meta.published == datetime(2012, 11, 7, 16, 25, 2, tzinfo=UTC)


@pytest.mark.parametrize(
    "abbr",
    [
        '<abbr title="Really Simple Syndication">RSS</abbr>',  # no published class
        '<abbr class="updated" title="2012-07-26T11:19:03+00:00">July 26</abbr>',  # an edit
        '<span class="published" title="2012-07-26T11:19:03+00:00">tooltip</span>',  # no abbr
    ],
)
def test_other_abbr_and_title_attributes_date_nothing(abbr: str) -> None:
    assert extract_metadata(blog_post(abbr)).published is None


BLOGGER_FOOTER = (
    "<div class='post-footer'><div class='post-footer-line'>Posted by <span class='fn' "
    "itemprop='author'>ZapperZ</span> at <a class='timestamp-link'><abbr class='published' "
    "itemprop='datePublished' title='2012-08-09T08:57:00-05:00'>8:57 AM</abbr></a></div></div>"
)


def test_a_posts_footer_with_a_microformats_time_dates_the_post() -> None:
    # Blogger closes each post with "Posted by … at …" in a box named a footer.
    meta = extract_metadata(blog_post("", after=BLOGGER_FOOTER))
    assert meta.published == datetime(2012, 8, 9, 8, 57, tzinfo=timezone(timedelta(hours=-5)))
    assert meta.author == "ZapperZ"


def test_a_footer_without_microformats_dates_nothing() -> None:
    footer = (
        "<div class='footer'>Last updated <time datetime='2019-01-02T03:04:05Z'>Jan 2</time></div>"
    )
    assert extract_metadata(blog_post("", after=footer)).published is None


def test_a_microformats_abbr_in_a_sidebar_is_another_posts_date() -> None:
    sidebar = (
        '<div class="sidebar"><h3>Recent posts</h3><ul><li>Seed catalogues '
        '<abbr class="published" title="2012-01-02T10:00:00+00:00">Jan 2</abbr></li></ul></div>'
    )
    assert extract_metadata(blog_post("", after=sidebar)).published is None


@pytest.mark.parametrize(
    ("badge", "expected"),
    [
        (("11", "July", "2012"), "2012-07-11"),
        (("Oct", "30", "2012"), "2012-10-30"),
    ],
    ids=["day month year", "month day year"],
)
def test_a_date_badge_of_three_boxes_dates_the_post(
    badge: tuple[str, str, str], expected: str
) -> None:
    """Blog themes set the date above the headline as a day, a month and a year in boxes
    of their own, one line each."""
    boxes = "".join(f"<div class='part'>{part}</div>" for part in badge)
    body = "<p>" + "I rebuilt the old greenhouse behind the house this winter. " * 8 + "</p>"
    post = article_page(
        "Rebuilding a greenhouse", "Rebuilding a greenhouse", body,
        head="", before=f"<div class='date'>{boxes}</div>", byline="", after="",
    )  # fmt: skip
    published = extract_metadata(post, "https://blog.example.org/greenhouse").published
    assert published is not None and published.date().isoformat() == expected


def test_three_short_lines_that_make_no_date_date_nothing() -> None:
    menu = "<div>Home</div><div>About</div><div>12</div>"
    assert extract_metadata(blog_post("", after=""), None).published is None
    post = blog_post("").replace("<h1>", f"{menu}<h1>")
    assert extract_metadata(post, "https://blog.example.org/greenhouse").published is None


def test_csdn_like_script_variable() -> None:
    script = '<script>var username = "x"; var postTime = "2024-11-19 16:16:18";</script>'
    meta = extract_metadata(page(after=script))
    assert meta.published == shanghai(2024, 11, 19, 16, 16, 18)
    assert meta.published_source == "script"


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("2024年05月10日 00:26 每日经济新闻", (2024, 5, 10, 0, 26)),
        ("2016年05月25日10:10 新浪财经", (2016, 5, 25, 10, 10)),
        ("2024-05-13 09:16:04 来源: 北青网", (2024, 5, 13, 9, 16, 4)),
        ("2024 05/09 22:27:02", (2024, 5, 9, 22, 27, 2)),
        ("2022.01.20 16:31 来源：河南日报", (2022, 1, 20, 16, 31)),
        ("2005/05/17 22:11:42 by 眉间尺", (2005, 5, 17, 22, 11, 42)),
        ("发布时间：2022-02-13 04:22:18 来源：云南日报", (2022, 2, 13, 4, 22, 18)),
        ("发布日期： 9/17/2004 5:54:13 AM", (2004, 9, 17, 5, 54, 13)),
        ("2005年3月11日 下午3:05", (2005, 3, 11, 15, 5)),
        ("2005年08月16日 来源：新华网", (2005, 8, 16)),
    ],
)
def test_visible_chinese_formats(byline: str, expected: tuple[int, ...]) -> None:
    meta = extract_metadata(page(byline=byline))
    assert meta.published == shanghai(*expected)
    assert meta.published_precision == {3: "day", 5: "minute", 6: "second"}[len(expected)]


def test_a_post_that_writes_no_date_is_dated_by_its_permalinks_day() -> None:
    meta = extract_metadata(blog_post(""), "https://blog.example.org/2012/10/25/greenhouse/")
    assert meta.published == shanghai(2012, 10, 25)
    assert (meta.published_precision, meta.published_source) == ("day", "url")


@pytest.mark.parametrize(
    "url",
    [
        "https://blog.example.org/2012/02/30/greenhouse/",  # no such day
        "https://blog.example.org/2012/10/greenhouse/",  # a month only
        "https://blog.example.org/archive/20121025/greenhouse/",  # not a permalink's path
        "https://blog.example.org/2031/10/25/greenhouse/",  # after the fetch
    ],
)
def test_an_address_without_a_permalinks_day_dates_nothing(url: str) -> None:
    fetched = datetime(2024, 5, 1, tzinfo=UTC)
    assert extract_metadata(blog_post(""), url, fetched_at=fetched).published is None


def test_a_written_date_beats_the_permalinks_day() -> None:
    post = blog_post("Posted on October 27, 2012")
    meta = extract_metadata(post, "https://blog.example.org/2012/10/25/greenhouse/")
    assert meta.published is not None and meta.published.date().isoformat() == "2012-10-27"


def test_year_less_byline_takes_the_year_from_the_url() -> None:
    url = "http://www.news.cn/politics/20240509/3dd6e33c/c.html"
    meta = extract_metadata(page(byline="05/09 22:27:02"), url)
    assert meta.published == shanghai(2024, 5, 9, 22, 27, 2)


def test_year_less_byline_takes_the_year_from_the_fetch_time() -> None:
    fetched = shanghai(2025, 1, 3, 8, 0)
    meta = extract_metadata(page(byline="12/30 10:00"), None, fetched)
    assert meta.published == shanghai(2024, 12, 30, 10, 0)  # not in the future: last year


def test_a_year_less_byline_is_the_latest_such_date_not_after_the_fetch() -> None:
    byline = "发布时间：06-15 09:30"
    after = extract_metadata(page(byline=byline), None, shanghai(2024, 6, 20, 8, 0))
    before = extract_metadata(page(byline=byline), None, shanghai(2024, 6, 1, 8, 0))
    assert (after.published, before.published) == (
        shanghai(2024, 6, 15, 9, 30),
        shanghai(2023, 6, 15, 9, 30),
    )
    assert after.published_source == "text:no-year, year from the fetch time"


def test_year_less_byline_without_any_year_gives_nothing() -> None:
    assert extract_metadata(page(byline="05/09 22:27:02")).published is None


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("昨天 10:05", (2024, 5, 9, 10, 5)),
        ("今天 08:30", (2024, 5, 10, 8, 30)),
        ("前天", (2024, 5, 8)),
        ("发布于 15分钟前", (2024, 5, 10, 11, 45)),
    ],
)
def test_relative_dates_count_from_fetched_at(byline: str, expected: tuple[int, ...]) -> None:
    fetched = shanghai(2024, 5, 10, 12, 0)
    assert extract_metadata(page(byline=byline), None, fetched).published == shanghai(*expected)


@pytest.mark.parametrize(
    ("byline", "expected", "precision"),
    [
        ("发布时间：21-06-15 09:30 来源：某某日报", (2021, 6, 15, 9, 30), "minute"),
        ("发布日期：21/06/15", (2021, 6, 15), "day"),
        ("发表于 21.6.5 18:02", (2021, 6, 5, 18, 2), "minute"),
        ("发布时间：99-06-15 09:30", (1999, 6, 15, 9, 30), "minute"),
    ],
)
def test_a_two_digit_year_after_a_chinese_publish_label(
    byline: str, expected: tuple[int, ...], precision: str
) -> None:
    """Portals write "发布时间：21-06-15 09:30": the year in this century unless that
    would be after the fetch (then the last one)."""
    meta = extract_metadata(page(byline=byline), None, shanghai(2024, 5, 10, 12, 0))
    assert (meta.published, meta.published_precision) == (shanghai(*expected), precision)


@pytest.mark.parametrize(
    "byline",
    ["21-06-15 09:30", "Written by Jane Roe on 19/10/12", "更新时间：21-06-15 09:30"],
)
def test_a_two_digit_year_without_a_chinese_publish_label_is_no_date(byline: str) -> None:
    """Unlabelled, or after an English label (19/10/12 is 19 October 2012 there), the
    order of a two-digit date is unknown; an update time is no publish time."""
    assert (
        extract_metadata(page(byline=byline), None, shanghai(2024, 5, 10, 12, 0)).published is None
    )


TEASERS = (
    "<ul>"
    + "".join(
        f"<li><a href='/a{i}'>另一篇文章的标题第{i}篇</a> 发布时间：2021-07-0{i} 10:00</li>"
        for i in range(1, 6)
    )
    + "</ul>"
)
"""A list of links to other pages, each with its own labelled date."""


def test_a_date_in_a_list_of_links_is_not_the_article_s() -> None:
    """The page's own unlabelled date under the headline beats the labelled dates of a
    list of other articles between it and the body; with no date of its own the page has
    none (a wrong date is worse than none)."""
    own = "<p>2021-06-15 09:30 某某网[整理]</p>"
    assert extract_metadata(page(byline=own + TEASERS)).published == (shanghai(2021, 6, 15, 9, 30))
    assert extract_metadata(page(after=TEASERS)).published is None


@pytest.mark.parametrize(
    "title",
    ["有轨电车之困：一边上马一边叫停_新闻中心", "新闻中心", "欢迎访问新闻中心"],
    ids=["title-names-the-headline", "title-names-the-site", "title-names-neither"],
)
@pytest.mark.parametrize(
    "byline",
    [
        "2021年06月15日  某某传媒",
        "<span>2021年06月15日</span>&nbsp;&nbsp;<span>某某传媒</span>",
    ],
    ids=["one-text", "two-spans"],
)
def test_a_date_beside_the_headline_with_the_outlet_after_it(title: str, byline: str) -> None:
    """A day with no label or time, the outlet after it, under the headline: found whether
    or not <title> names the headline, and over a date in the navigation above."""
    html = page(before="<div>2021年06月14日 星期一</div>", byline=byline).replace(
        "<title>有轨电车之困：一边上马一边叫停_新闻中心</title>", f"<title>{title}</title>"
    )
    meta = extract_metadata(html)
    assert (meta.published, meta.published_precision) == (shanghai(2021, 6, 15), "day")


def test_a_byline_set_as_a_list_keeps_its_date() -> None:
    byline = "<ul><li>发布时间：2021-06-15 09:30</li><li>来源：<a href='/'>新华网</a></li></ul>"
    meta = extract_metadata(page(byline=byline))
    assert (meta.published, meta.source) == (shanghai(2021, 6, 15, 9, 30), "新华网")


def test_relative_dates_need_fetched_at() -> None:
    assert extract_metadata(page(byline="昨天 10:05")).published is None


def test_sidebar_related_and_comment_dates_are_ignored() -> None:
    html = page(
        before="<div class='sidebar'>热门 2023-01-01 10:00</div>",
        byline="2024-05-10 09:00 来源：新华网",
        after=(
            "<div class='related-news'><a>另一篇 2024-05-11 11:00</a></div>"
            "<div id='comments'><p>网友 2024-05-12 12:00</p></div>"
        ),
    )
    assert extract_metadata(html).published == shanghai(2024, 5, 10, 9, 0)


def test_only_noise_dates_give_no_date() -> None:
    html = page(
        before="<aside>2023-01-01 10:00</aside>",
        after="<ul class='recommend-list'><li>推荐 2024-05-11 11:00</li></ul>"
        "<div class='comment-box'>2024-05-12 12:00</div>",
    )
    assert extract_metadata(html).published is None


def test_page_without_a_date() -> None:
    meta = extract_metadata(page(byline="来源：新华网"))
    assert (meta.published, meta.published_precision, meta.published_source) == (None,) * 3


def test_edit_and_recommendation_dates_are_vetoed() -> None:
    byline = (
        "<div>crispsea 已于 2024-11-19 16:21:47 修改</div>"
        "<div>最新推荐文章于 2024-03-05 18:15:56 发布</div>"
        "<div>于 2024-11-19 16:16:18 首次发布</div>"
    )
    assert extract_metadata(page(byline=byline)).published == shanghai(2024, 11, 19, 16, 16, 18)


def test_byline_refines_a_structured_time_of_the_same_day() -> None:
    head = '<meta property="article:published_time" content="2024-05-10T05:54:20+08:00">'
    meta = extract_metadata(page(head=head, byline="2024年05月10日 00:26"))
    assert meta.published == shanghai(2024, 5, 10, 0, 26)


def test_structured_date_wins_over_a_byline_that_disagrees() -> None:
    head = '<meta property="article:published_time" content="2024-05-10T05:54:20+08:00">'
    meta = extract_metadata(page(head=head, byline="2019-01-01 10:00"))
    assert meta.published == shanghai(2024, 5, 10, 5, 54, 20)


def test_day_only_byline_does_not_replace_a_structured_time() -> None:
    head = '<meta property="article:published_time" content="2024-05-10T05:54:20+08:00">'
    meta = extract_metadata(page(head=head, byline="2024年05月10日"))
    assert meta.published_precision == "second"


def test_labelled_date_below_the_post_is_found() -> None:
    html = page(after="<div class='postDesc'>posted @ 2024-05-09 14:45 好看的hk</div>")
    assert extract_metadata(html).published == shanghai(2024, 5, 9, 14, 45)


def test_zone_defaults_to_shanghai_and_can_be_changed() -> None:
    html = page(byline="2024-05-10 09:00")
    assert extract_metadata(html).published == shanghai(2024, 5, 10, 9, 0)
    tokyo = ZoneInfo("Asia/Tokyo")
    assert extract_metadata(html, zone=tokyo).published == datetime(2024, 5, 10, 9, 0, tzinfo=tokyo)


def test_explicit_offset_is_kept() -> None:
    head = '<meta property="article:published_time" content="2024-05-10T09:00:00+09:00">'
    published = extract_metadata(page(head=head)).published
    assert published is not None and published.utcoffset() == timedelta(hours=9)


def test_dates_after_the_fetch_are_rejected() -> None:
    fetched = shanghai(2024, 1, 1, 0, 0)
    assert extract_metadata(page(byline="2024-05-10 09:00"), None, fetched).published is None


def test_logo_heading_is_not_the_headline() -> None:
    html = (
        "<html><head><title>松花江网</title></head><body><h1>松花江网</h1>"
        "<div>新闻 | 民生</div><div>土豆不土</div><div>2022-02-13 09:57 光明网</div>"
        f"{BODY}<ul><li>旧闻 2021-01-01 10:00</li></ul></body></html>"
    )
    assert extract_metadata(html).published == shanghai(2022, 2, 13, 9, 57)


@pytest.mark.parametrize(
    "citation", ["——《某某之春》1998年3月号", "（原载《某某月刊》1998年3月号）"]
)
def test_issue_citation_gives_the_month(citation: str) -> None:
    """A reprinted essay without any full date: its closing issue citation dates it, in
    the monthly magazines' "1998年3月号" form, after a dash or in a 原载 note."""
    meta = extract_metadata(page(after=f"<p>{citation}</p>"))
    assert (meta.published, meta.published_precision) == (shanghai(1998, 3, 1), "month")
    assert meta.published_source == "text:month"


def test_issue_citation_of_a_viewer_page_without_a_headline() -> None:
    html = (
        "<html><head><title>显示</title></head><body><p><b>犬儒病(上)</b></p>"
        f"<p>胡平<br>{BODY}<br>(原载《读书》2001年5月)</p></body></html>"
    )
    meta = extract_metadata(html)
    assert (meta.published, meta.published_precision) == (shanghai(2001, 5, 1), "month")


def test_labelled_month_near_the_headline() -> None:
    meta = extract_metadata(page(byline="出版日期：2003年5月"))
    assert (meta.published, meta.published_precision) == (shanghai(2003, 5, 1), "month")


@pytest.mark.parametrize(
    ("head", "after", "expected"),
    [
        ('<meta name="pubdate" content="2005-03-06">', "", shanghai(2005, 3, 6)),
        ("", "<div class='postDesc'>发表于 2005-03-06 16:17</div>", shanghai(2005, 3, 6, 16, 17)),
    ],
)
def test_a_full_date_anywhere_wins_over_a_month(head: str, after: str, expected: datetime) -> None:
    citation = "<p>——《北京之春》1998年3月号</p>"
    html = page(head=head, byline="出版日期：2003年5月", after=after + citation)
    assert extract_metadata(html).published == expected


def test_months_in_running_text_lists_and_sidebars_are_no_date() -> None:
    html = page(
        byline="2004年9月，播客刚刚出现",
        after=(
            "<p>据《北京之春》1998年3月号报道，会议如期召开。</p>"
            "<ul><li>2005年7月 (1)</li><li>2005年5月 (2)</li></ul>"
            "<div class='sidebar'><p>——《北京之春》1996年6月号</p></div>"
        ),
    )
    assert extract_metadata(html).published is None


def test_a_labelled_date_among_a_thousand_label_lines_is_the_first_one() -> None:
    junk = "".join(f"<p>posted on item {n}: 2020-01-{n % 28 + 1:02d} x</p>" for n in range(1000))
    html = (
        "<html><head><title>站点首页</title></head><body>"
        f"<p>发布时间：2024-05-10 09:00</p>{BODY}{junk}</body></html>"
    )
    assert extract_metadata(html).published == shanghai(2024, 5, 10, 9, 0)


@pytest.mark.parametrize("offset", ["+88:00", "+8800", "-24:00"])
def test_an_offset_out_of_range_falls_back_to_the_default_zone(offset: str) -> None:
    """Found by the fuzz run: a flipped byte in an offset made strptime raise."""
    head = f'<meta property="article:published_time" content="2024-05-10T09:00:00{offset}">'
    assert extract_metadata(page(head=head)).published == shanghai(2024, 5, 10, 9, 0)


def test_time_element_inside_a_page_wide_nav_class_still_counts() -> None:
    # <body class="nav-..."> makes every line's nearest box "nav"; a box holding most of the
    # page's text is a wrapper, not a box about other content.
    html = page(byline='<time datetime="2021-06-01T10:00:00+08:00">June 1</time>').replace(
        "<body>", '<body class="nav-no-loaded">'
    )
    meta = extract_metadata(html)
    assert meta.published == shanghai(2021, 6, 1, 10, 0)
    assert meta.published_source == "time"


def test_time_element_in_a_related_box_is_ignored() -> None:
    related = '<div class="related"><time datetime="2019-01-01T00:00:00+08:00">x</time></div>'
    assert extract_metadata(page(after=related)).published is None


def test_a_dated_tag_repeated_a_thousand_times_reads_like_one() -> None:
    repeated = '<span data-pubtime="">x</span>' * 1000 + '<span data-pubtime="2022-03-04 05:06">'
    meta = extract_metadata(page(byline=repeated))
    assert meta.published == shanghai(2022, 3, 4, 5, 6)


ENGLISH_BODY = "<p>" + "This is a sentence of the article, standing for its body. " * 8 + "</p>"


def english_page(byline: str = "", head: str = "", after: str = "") -> str:
    """An English blog post: headline, byline, body, then whatever follows."""
    headline = "The Dangerous Hubris of Startups"
    return article_page(
        headline, headline, ENGLISH_BODY, head=head, before="", byline=byline, after=after
    )


@pytest.mark.parametrize(
    ("byline", "expected", "precision"),
    [
        ("by randfish on January 31, 2011", (2011, 1, 31), "day"),
        ("Posted on August 28th, 2012 • 23 Comments", (2012, 8, 28), "day"),
        ("20 July 2012", (2012, 7, 20), "day"),
        ("Saturday, Nov. 10, 2012", (2012, 11, 10), "day"),
        ("November 4, 2012, 7:37 pm", (2012, 11, 4, 19, 37), "minute"),
        ("By: Ann Parks | Posted: October 27, 2012 at 12:54 AM", (2012, 10, 27, 0, 54), "minute"),
        ("Published Nov. 7, 2012 11:11 am Updated Nov. 8, 2012", (2012, 11, 7, 11, 11), "minute"),
    ],
)
def test_english_bylines_name_the_month(
    byline: str, expected: tuple[int, ...], precision: str
) -> None:
    """English blogs and news sites write the byline's month as a name."""
    meta = extract_metadata(english_page(byline), zone=UTC)
    assert meta.published == datetime(*expected, tzinfo=UTC)  # type: ignore[misc]
    assert (meta.published_precision, meta.published_source) == (precision, "text:month name")


@pytest.mark.parametrize(
    "byline",
    ["Updated November 4, 2012", "Founded February 28, 1998; 18 years ago", "Mayday 12 2012"],
)
def test_an_english_date_of_another_event_is_no_publish_date(byline: str) -> None:
    """An update, a founding (an encyclopedia's infobox) or no month at all."""
    assert extract_metadata(english_page(byline)).published is None


def test_prose_far_from_the_headline_does_not_label_a_date_with_on() -> None:
    """Away from the headline only a word that says what was done labels a date: a
    sentence's "stepped down on April 3, 2014" is no byline, "This entry was posted on"
    is."""
    prose = "<p>He stepped down on April 3, 2014 and the board posted a statement.</p>"
    assert extract_metadata(english_page(after=prose)).published is None
    footer = "<p>This entry was posted on 23 October 2012 at 8:14 pm and is filed under News.</p>"
    meta = extract_metadata(english_page(after=footer), zone=UTC)
    assert meta.published == datetime(2012, 10, 23, 20, 14, tzinfo=UTC)


def test_a_bylines_wall_time_is_read_in_the_structured_dates_zone() -> None:
    """The byline shows "8:02 PM" and the head's time says 20:05 in UTC: the byline (what
    readers see) is kept, in the zone the head gave, not the default zone."""
    head = '<meta property="article:published_time" content="2015-04-16T20:05:01+00:00">'
    meta = extract_metadata(english_page("April 16, 2015 8:02 PM", head=head))
    assert meta.published == datetime(2015, 4, 16, 20, 2, tzinfo=UTC)
    assert meta.published_source == "text:month name"


def test_a_structured_time_that_says_the_bylines_minute_keeps_its_seconds() -> None:
    head = '<meta property="article:published_time" content="2015-04-16T20:02:01+00:00">'
    meta = extract_metadata(english_page("April 16, 2015 8:02 PM", head=head))
    assert meta.published == datetime(2015, 4, 16, 20, 2, 1, tzinfo=UTC)
    assert (meta.published_precision, meta.published_source) == (
        "second",
        "meta:article:published_time",
    )


@pytest.mark.parametrize(
    ("byline", "structured", "expected"),
    [
        # Written in New York's local time, stated in UTC: one instant.
        ("Nov 13, 2019 4:26 pm", "2019-11-13T21:26:50Z", (2019, 11, 13, 21, 26, 50)),
        ("November 19, 2019 8:03 a.m.", "2019-11-19T13:03:00+00:00", (2019, 11, 19, 13, 3)),
        # India, half an hour off the hour.
        ("20 November 2019 10:18", "2019-11-20T04:48:01Z", (2019, 11, 20, 4, 48, 1)),
    ],
)
def test_a_zone_less_byline_time_whole_half_hours_from_a_zoned_structured_time_is_that_time(
    byline: str, structured: str, expected: tuple[int, ...]
) -> None:
    """A byline writes its time in the site's local zone and names none; the head states
    the same instant in UTC. Their wall clocks differ by the zones' offset, whole
    half hours: the head's instant is the time, not the byline's wall time moved into the
    head's zone (hours off)."""
    head = f'<meta property="article:published_time" content="{structured}">'
    meta = extract_metadata(english_page(byline, head=head))
    assert meta.published == datetime(*expected, tzinfo=UTC)  # type: ignore[misc]
    assert meta.published_source == "meta:article:published_time"


def test_a_byline_hours_off_a_structured_time_in_another_zone_stays_the_time() -> None:
    """A CMS that writes its UTC clock with the site's offset ("04:31:13-06:00" for 22:31
    the evening before, local): the byline is what readers see, read in that offset."""
    head = '<meta property="article:published_time" content="2019-11-20T04:31:13-06:00">'
    meta = extract_metadata(english_page("Nov 19, 2019, 10:31 pm", head=head))
    assert meta.published == datetime(2019, 11, 19, 22, 31, tzinfo=timezone(timedelta(hours=-6)))
    assert meta.published_source == "text:month name"


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("von Anna Schmidt · 22. Oktober 2019", (2019, 10, 22)),
        ("Veröffentlicht am 01. Dez. 2021 um 10:30", (2021, 12, 1, 10, 30)),
        ("par Marie Dupont, le 1er février 2022 à 14h05", (2022, 2, 1, 14, 5)),
        ("Por: Juan Pérez | 8 de noviembre de 2021", (2021, 11, 8)),
    ],
)
def test_german_french_and_spanish_bylines_name_the_month(
    byline: str, expected: tuple[int, ...]
) -> None:
    """The month's name in German, French and Spanish bylines, with their day marks
    ("22.", "1er") and joining words ("de", "um", "à")."""
    meta = extract_metadata(english_page(byline), zone=UTC)
    assert meta.published == datetime(*expected, tzinfo=UTC)  # type: ignore[misc]
    assert meta.published_source == "text:month name"


def test_a_german_change_date_is_no_publish_date() -> None:
    assert extract_metadata(english_page("Zuletzt geändert: 3. März 2020")).published is None


@pytest.mark.parametrize(
    ("byline", "expected"),
    [
        ("Posted by Josh Alper on November 13, 2012, 6:33 PM EST", (2012, 11, 13, 23, 33)),
        ("July 24, 2012 4:16 AM PDT Follow @writer", (2012, 7, 24, 11, 16)),
        ("by Cyrus Farivar - Nov 9, 2012 1:50 pm UTC", (2012, 11, 9, 13, 50)),
        ("By HNN Staff | November 18, 2019 at 2:26 PM HST", (2019, 11, 19, 0, 26)),
        ("22. Oktober 2019 um 10:30 MESZ", (2019, 10, 22, 8, 30)),
        ("November 13, 2012 6:33 PM (+01:00)", (2012, 11, 13, 17, 33)),
    ],
)
def test_a_zone_written_after_a_bylines_time_is_its_zone(
    byline: str, expected: tuple[int, ...]
) -> None:
    """A zone's abbreviation or offset after the time places it, whatever the page's zone."""
    meta = extract_metadata(english_page(byline))
    assert meta.published == datetime(*expected, tzinfo=UTC)  # type: ignore[misc]


@pytest.mark.parametrize("zone_name", ["CST", "IST", "est"])
def test_an_ambiguous_or_lower_case_zone_name_leaves_the_pages_zone(zone_name: str) -> None:
    """CST is China's or US Central, IST India's, Israel's or Ireland's; a lower-case
    "est" is a word (French "est")."""
    meta = extract_metadata(english_page(f"November 13, 2012 6:33 PM {zone_name}"), zone=UTC)
    assert meta.published == datetime(2012, 11, 13, 18, 33, tzinfo=UTC)


def test_a_zoned_byline_time_agrees_with_a_structured_day_of_the_same_date() -> None:
    """A head date without a time names no instant: "October 29, 2012 9:35 PM EDT" is
    29 October wherever it is read, so the byline (with its time) is kept."""
    head = '<meta name="dc.date.issued" content="2012-10-29">'
    meta = extract_metadata(english_page("October 29, 2012 9:35 PM EDT", head=head))
    assert meta.published == datetime(2012, 10, 30, 1, 35, tzinfo=UTC)
    assert (meta.published_precision, meta.published_source) == ("minute", "text:month name")


def test_a_byline_right_under_the_headline_keeps_its_date_in_a_list_of_links() -> None:
    """A theme sets the post's details as a list linking its author and its categories:
    the item right under the headline is the byline; a list further down is other pages'."""
    details = (
        "<ul class='meta'><li>By: <a href='/a'>Deborah Shane</a> on November 12th, 2012 at "
        "5:30 am</li><li>In <a href='/c'>Networking</a> | <a href='/d'>No Comment</a></li></ul>"
    )
    meta = extract_metadata(english_page(details), zone=UTC)
    assert meta.published == datetime(2012, 11, 12, 5, 30, tzinfo=UTC)
    recent = (
        "<p>Recent posts</p><ul><li><a href='/r1'>Week in Review</a> - November 5, 2012</li>"
        "<li><a href='/r2'>A New Region</a> - November 1, 2012</li></ul>"
    )
    assert extract_metadata(english_page(recent)).published is None


def test_an_update_notice_is_no_publish_time() -> None:
    """The day above the headline is the post's; "UPDATE October 30, 2012 at 10:20" under
    it dates a correction."""
    headline = "The Dangerous Hubris of Startups"
    html = article_page(
        headline,
        headline,
        ENGLISH_BODY,
        head="",
        before="<div>October 30, 2012</div>",
        byline="UPDATE October 30, 2012 at 10:20: a reader wrote in.",
        after="",
    )
    meta = extract_metadata(html)
    assert (meta.published_precision, meta.published_source) == ("day", "text:month name")


SCRIPT_BODIES = {
    "arabic": (
        "افتتحت البلدية يوم السبت أكبر مكتبة عامة في المدينة، وتضم أكثر من مئتي ألف كتاب"
        " في مختلف المجالات والعلوم والآداب."
    ),
    "urdu": (
        "شہر کے مرکز میں ہفتے کے روز ایک نئی عوامی لائبریری کھولی گئی جس میں دو لاکھ سے"
        " زیادہ کتابیں موجود ہیں۔"
    ),
    "amharic": (
        "በከተማው መሃል አዲስ የሕዝብ ቤተ መጻሕፍት ቅዳሜ ተከፈተ፣ ከሁለት መቶ ሺህ በላይ መጻሕፍትም"
        " ለአንባቢዎች ቀርበዋል። ቤተ መጻሕፍቱ ለሁሉም ክፍት ነው።"
    ),
    "thai": (
        "ห้องสมุดประชาชนแห่งใหม่เปิดให้บริการเมื่อวันเสาร์ที่ผ่านมา โดยมีหนังสือมากกว่าสองแสนเล่ม"
        " สำหรับประชาชนทั่วไปที่สนใจ"
    ),
}


@pytest.mark.parametrize("script", sorted(SCRIPT_BODIES))
def test_the_header_ends_at_a_paragraph_in_any_script_with_sentence_marks(script: str) -> None:
    """The byline window under the headline ends where the body starts: a long line with
    the sentence marks of its script (Arabic "،", Urdu "۔", Ethiopic "።", a space between
    Thai words). Read past the body, a short article's window reached the dates of the
    readers' notes under it, in a box no class word names, and took one for the article's
    date: a wrong date, where none is right."""
    paragraph = f"<p>{SCRIPT_BODIES[script]}</p>"
    notes = "".join(
        f"<div><b>reader{day}</b> <span>2023-03-1{day}</span></div>" for day in range(3)
    )
    html = article_page(
        "Library", "Library", paragraph * 3, head="", before="", byline="", after=notes
    )
    assert extract_metadata(html).published is None
    dated = article_page(
        "Library", "Library", paragraph * 3, head="", before="", byline="2023-03-01 10:00",
        after=notes,
    )  # fmt: skip
    assert extract_metadata(dated).published == shanghai(2023, 3, 1, 10, 0)
