"""Hand-written blog pages, one per failure class seen on blogs and unseen sites: the
default method keeps the post and leaves the rest. None copies a dataset page."""

from __future__ import annotations

import pytest

from newscrawl.extract import Article, Options, extract
from newscrawl.extract.title import site_names

DEFAULT = Options(method="default", with_metadata=False)

POST = (
    "Last spring our team moved the whole newsletter to a new platform, and the first month "
    "was rough.",
    "We lost a third of our open rate overnight, mostly because the new sender address "
    "landed in spam folders.",
)
HEADLINE = "Moving the newsletter"
SITE = "Jane Doe Writes About Email and Small Business"
COMMENTS = "".join(
    f"<li class='comment'><cite>Reader {number}</cite><p>Thanks for writing this up, we are "
    f"planning the same move next month and had not thought about warming up the domain "
    f"first. Did you keep the old list running in parallel? ({number})</p></li>"
    for number in range(12)
)


def blog_page(post_classes: str, heading: str) -> str:
    """A blog theme's page: the site's name in a header, the post's headline in `heading`
    inside the post's container, which carries the platform's taxonomy classes, and a
    comment thread longer than the post."""
    paragraphs = "".join(f"<p>{text}</p>" for text in POST)
    return (
        f"<html><head><title>{HEADLINE} &#8211; {SITE}</title></head><body>"
        f"<div id='header'><p class='site-title'><a href='/'>{SITE}</a></p></div>"
        f"<div id='content'><div id='post-42' class='{post_classes}'>"
        f"<{heading} class='entry-title'>{HEADLINE}</{heading}>"
        f"<div class='entry-content'>{paragraphs}</div></div>"
        f"<div id='comments'><h3>12 Comments</h3><ol class='commentlist'>{COMMENTS}</ol></div>"
        "</div></body></html>"
    )


def kept_post(article: Article) -> bool:
    return all(text in article.body for text in POST)


@pytest.mark.parametrize(
    ("post_classes", "heading"),
    [
        ("hentry p1 post publish author-jane category-advertising tag-share", "h2"),
        ("post entry-author-jane entry-category-social_media authored-by-jane-doe", "h3"),
        ("post hentry author-admin sponsored-links", "h2"),
    ],
)
def test_class_words_on_the_posts_own_container_do_not_condemn_it(
    post_classes: str, heading: str
) -> None:
    """Blog platforms name the post's author, category and tags in its container's
    classes; with its headline in an ``<h2>`` or ``<h3>`` the head confirms, the container
    is the post's, whatever words those classes hold."""
    article = extract(blog_page(post_classes, heading), options=DEFAULT)
    assert article.title == HEADLINE
    assert kept_post(article)
    assert "Thanks for writing this up" not in article.body


def test_a_subheading_the_head_does_not_confirm_is_not_the_title() -> None:
    html = blog_page("post hentry author-jane", "h2").replace(
        f">{HEADLINE}</h2>", ">Posted in the archive</h2>"
    )
    assert extract(html, options=DEFAULT).title != "Posted in the archive"


LONG_POST = POST * 2


def untitled_blog_page(post_classes: str, post_id: str = "entry-42") -> str:
    """A blog page whose head names only the blog, so no heading is confirmed as the
    headline: the post's container must hold its own against the comments."""
    paragraphs = "".join(f"<p>{text}</p>" for text in LONG_POST)
    return (
        f"<html><head><title>{SITE}</title></head><body>"
        f"<div id='header'><p class='site-title'><a href='/'>{SITE}</a></p></div>"
        f"<div id='{post_id}' class='{post_classes}'><h3>{HEADLINE}</h3>"
        f"<div class='entry-body'>{paragraphs}</div></div>"
        f"<div id='comments'><ol class='commentlist'>{COMMENTS}</ol></div></body></html>"
    )


@pytest.mark.parametrize(
    "post_classes",
    [
        "entry-author-jane_doe entry-type-post entry",
        "journal-entry-wrapper post-text authored-by-janedoe",
        "hentry p1 post publish author-jane category-social-media",
    ],
)
def test_a_post_container_outweighs_the_taxonomy_words_in_its_classes(post_classes: str) -> None:
    article = extract(untitled_blog_page(post_classes), options=DEFAULT)
    assert kept_post(article)
    assert "Thanks for writing this up" not in article.body


def test_a_box_whose_own_name_is_a_boilerplate_word_stays_boilerplate() -> None:
    """``<div class="post" id="author">`` is an author box, however long its bio."""
    bio = (
        "Jane Doe is a marketer and writer who has run newsletters for small businesses for "
        "ten years, and she teaches a course on email deliverability every spring. "
    ) * 2
    paragraphs = "".join(f"<p>{text}</p>" for text in LONG_POST * 2)
    html = (
        f"<html><head><title>{HEADLINE} | {SITE}</title></head><body><h1>{HEADLINE}</h1>"
        f"<div class='entry-body'>{paragraphs}</div>"
        f"<div class='post' id='author'><p>{bio}</p></div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert kept_post(article)
    assert "Jane Doe is a marketer" not in article.body


NEWS = (
    "The council voted on Tuesday to keep the central library open on Sundays, after a "
    "petition signed by four thousand residents.",
    "The extra day will cost about two hundred thousand a year, which the council plans to "
    "pay from the parking budget.",
    "Library staff said Sunday opening would mostly help students and families who work "
    "during the week.",
)
REPLIES = (
    "Great news, my kids will be thrilled. We used to drive to the next town on Sundays.",
    "Who decided to take this out of the parking budget? The car parks are a mess already.",
    "About time. Students have been asking for this for years, and it costs very little.",
    "I hope they keep the study rooms open too, that is what people actually need.",
)


NEWS_PARAGRAPHS = "".join(f"<p>{text}</p>" for text in NEWS)


def news_page(content: str) -> str:
    """A news page: its head's title, its headline, then `content`."""
    return (
        "<html><head><title>Library to open on Sundays | Town Times</title></head><body>"
        f"<h1>Library to open on Sundays</h1>{content}</body></html>"
    )


def news_with_comments(stamp_first: bool) -> str:
    """A news article, then readers' comments in boxes whose classes name nothing, each
    stamped with the reader's name and the date before or after its text."""
    stamps = [
        f"<p>{name} | March {day}, 2012 at 9:{day}0 am</p>"
        for name, day in zip(("Ann Lee", "Bob", "Carla M.", "Dev"), range(1, 5), strict=True)
    ]
    replies = "".join(
        f"<div class='c-{number}'>{stamp}<p>{reply}</p></div>"
        if stamp_first
        else f"<div class='c-{number}'><p>{reply}</p>{stamp}</div>"
        for number, (stamp, reply) in enumerate(zip(stamps, REPLIES, strict=True))
    )
    return news_page(f"<div class='main'>{NEWS_PARAGRAPHS}<h3>Reactions</h3>{replies}</div>")


@pytest.mark.parametrize("stamp_first", [True, False], ids=["stamp before", "stamp after"])
def test_reader_comments_without_comment_words_are_left_out(stamp_first: bool) -> None:
    article = extract(news_with_comments(stamp_first), options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert not any(reply in article.body for reply in REPLIES)
    rules = {line.rule for line in article.lines if any(r in line.text for r in REPLIES)}
    assert rules == {"reader comments: a run of dated signatures after the article"}


@pytest.mark.parametrize(
    "ages",
    [
        ("3 hours ago", "5 hours ago", "a day ago", "2 days ago"),
        ("vor 3 Stunden", "vor 5 Stunden", "vor einem Tag", "vor 2 Tagen"),
        ("il y a 3 heures", "il y a 5 heures", "il y a un jour", "il y a 2 jours"),
        ("hace 3 horas", "hace 5 horas", "hace un día", "hace 2 días"),
        ("3 часа назад", "5 часов назад", "1 день назад", "2 дня назад"),
        ("3小时前", "5小时前", "1天前", "2天前"),
        ("3時間前", "5時間前", "1日前", "2日前"),
    ],
    ids=["english", "german", "french", "spanish", "russian", "chinese", "japanese"],
)
def test_reader_comments_stamped_with_their_age_are_left_out(ages: tuple[str, ...]) -> None:
    """Comment systems stamp a comment with how long ago it was posted, not a date; in
    boxes whose classes name nothing, those stamps still make a thread."""
    replies = "".join(
        f"<div class='c-{number}'><p><b>{name}</b> · {age}</p><p>{reply}</p>"
        "<a href='#reply'>Reply</a></div>"
        for number, (name, age, reply) in enumerate(
            zip(("Ann Lee", "Bob", "Carla M.", "Dev"), ages, REPLIES, strict=True)
        )
    )
    html = news_page(f"<div class='main'>{NEWS_PARAGRAPHS}<h3>4 Reactions</h3>{replies}</div>")
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert not any(reply in article.body for reply in REPLIES)


def test_a_list_of_teasers_with_their_age_inside_an_article_stays() -> None:
    """Linked-to stories listed with their age and no prose between them are no thread."""
    teasers = "".join(
        f"<p>{title} - {age}</p>"
        for title, age in zip(
            ("Bridge reopens", "New bus line", "Market moves", "Park gets lights"),
            ("2 hours ago", "4 hours ago", "a day ago", "3 days ago"),
            strict=True,
        )
    )
    opening = "".join(f"<p>{text}</p>" for text in NEWS[:2])
    html = news_page(f"<div class='main'>{opening}{teasers}<p>{NEWS[2]}</p></div>")
    body = extract(html, options=DEFAULT).body
    assert all(text in body for text in NEWS)
    assert "Park gets lights - 3 days ago" in body


def test_a_thread_whose_last_comment_is_its_longest_is_still_left_out() -> None:
    """Stamps before their comments: what follows the last stamp is that comment, and it
    may be the longest of the thread without being the article going on."""
    longest = REPLIES[3] + " Thanks for the update."
    replies = "".join(
        f"<div><div><b>{name}</b> March {day}, 2012 at 9:{day}0 am</div><p>{reply}</p></div>"
        for name, day, reply in zip(
            ("Ann Lee", "Bob", "Carla M."),
            (1, 2, 3),
            (REPLIES[0], REPLIES[1], longest),
            strict=True,
        )
    )
    html = news_page(f"<div class='main'>{NEWS_PARAGRAPHS}<h3>3 Replies</h3>{replies}</div>")
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert not any(reply in article.body for reply in REPLIES)


def test_a_subscription_box_inside_a_post_is_left_out() -> None:
    """Newsletter platforms put a sign-up box between a post's paragraphs; its class names
    a subscription ("subscription-widget"), not "subscribe"."""
    box = (
        "<div class='subscription-widget-wrap'><p>Thanks for reading! Subscribe for free to "
        "receive new posts and support my work.</p><input type='email'>"
        "<button>Subscribe</button></div>"
    )
    paragraphs = [f"<p>{text}</p>" for text in NEWS]
    html = news_page(f"<div class='main'>{paragraphs[0]}{box}{''.join(paragraphs[1:])}</div>")
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert "Thanks for reading" not in article.body


def test_dated_lines_inside_an_article_are_not_a_comment_thread() -> None:
    """A timeline (dates with no prose between them) and embedded posts quoted in the
    article (its prose goes on after them) stay in the body."""
    timeline = "".join(f"<p>Branch {n} opened - May {n}, 199{n}</p>" for n in range(1, 6))
    quotes = "".join(
        f"<blockquote><p>{reply}</p><p>{name} (@{name.lower()}) June {day}, 2012</p></blockquote>"
        for name, day, reply in zip(("Ann", "Bob", "Cy"), (1, 2, 3), REPLIES, strict=False)
    )
    after = "<p>" + " ".join(NEWS) + "</p>"
    html = news_with_comments(True).replace(
        "<h3>Reactions</h3>", f"<h3>Timeline</h3>{timeline}{quotes}{after}<h3>Reactions</h3>"
    )
    body = extract(html, options=DEFAULT).body
    assert "Branch 5 opened - May 5, 1995" in body
    assert all(reply in body for reply in REPLIES[:3])


@pytest.mark.parametrize(
    ("head_title", "post_heading"),
    [
        ("Jane Doe Writes About Email &#8211; Moving the newsletter", "h3"),
        ("Jane Doe Writes About Email &rsaquo; Moving the newsletter", "h2"),
        ("Moving the newsletter &laquo; Jane Doe Writes About Email", "h2"),
    ],
)
def test_the_blogs_name_in_the_logo_heading_is_not_the_title(
    head_title: str, post_heading: str
) -> None:
    """The head's title joins the site and the post, the site's name is the logo's
    ``<h1>`` and the post's headline a lower heading: the headline is the post's."""
    paragraphs = "".join(f"<p>{text}</p>" for text in LONG_POST)
    html = (
        f"<html><head><title>{head_title}</title></head><body>"
        "<h1><a href='/'>Jane Doe Writes About Email</a></h1>"
        f"<div class='post'><{post_heading}>Moving the newsletter</{post_heading}>"
        f"{paragraphs}</div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert article.title == "Moving the newsletter"
    assert kept_post(article)


ABOUT_ME = (
    "I am a street-style photographer based in Oslo. I shoot what people wear on their way "
    "to work, and I post a new photo almost every day. Write to me if you want to be "
    "featured here, or if you want to use one of my photos for your own magazine."
)


FOUR_COMMENTS = "".join(
    f"<li class='comment'><p>Love this look, the boots are perfect with velvet! ({number})</p></li>"
    for number in range(4)
)


@pytest.mark.parametrize("box", ["widget Profile", "profile-card author-bio"])
def test_a_photo_posts_caption_beats_the_about_me_box(box: str) -> None:
    """A tiny post (a photo and its caption) with its readers' comments, beside a longer
    about-me box: the box names itself a profile, the caption is the post."""
    caption = "Velvet jacket, silk shirt and old boots: the best outfit I saw this week."
    html = (
        "<html><head><title>Velvet and shine | Oslo Street Style</title></head><body>"
        "<div id='header'><a href='/'>Oslo Street Style</a></div>"
        "<div class='post'><h2><a href='/2012/velvet'>Velvet and shine</a></h2>"
        f"<p>Posted July 8th, 2012</p><p><img src='a.jpg'></p><p>{caption}</p></div>"
        f"<div id='comments'><h4>4 comments:</h4><ol>{FOUR_COMMENTS}</ol></div>"
        f"<div class='{box}'><h3>About me</h3><p>{ABOUT_ME}</p></div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert caption in article.body
    assert "street-style photographer" not in article.body


MORE_NEWS = (
    "The council's vote followed a year of Saturday trials, which drew twice as many "
    "visitors as a weekday, most of them in the reading rooms and the children's corner.",
    "Opening on Sundays starts in March; the library will open at ten and close at four, "
    "and the cafe on the ground floor will keep the same hours.",
)


@pytest.mark.parametrize("holder", ["noscript", "template"])
def test_an_article_shipped_in_noscript_or_template_is_read(holder: str) -> None:
    """Pages that render their article with a script ship it in ``<noscript>`` (for
    readers without scripts) or ``<template>``: it is the page's prose, not furniture."""
    article_paragraphs = NEWS_PARAGRAPHS + "".join(f"<p>{text}</p>" for text in MORE_NEWS)
    html = news_page(
        f"<div id='app'>Loading...</div><{holder}>{article_paragraphs}</{holder}>"
        "<div id='footer'><p>Town Times is published by Town Media Ltd. All articles are "
        "written by our own reporters and checked by an editor before publication.</p></div>"
    )
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert "Town Media" not in article.body


def test_a_noscript_notice_beside_the_article_stays_out() -> None:
    notice = "Please enable JavaScript in your browser to see the comments and the videos."
    html = news_page(f"{NEWS_PARAGRAPHS}<noscript><p>{notice}</p></noscript>")
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)
    assert notice not in article.body


DISCLAIMER = (
    "Disclaimer: Lens Rumours has no affiliation with any of the makers named on this site. "
    "Prices and stock change by the hour, so check the shop before you order anything.",
    "Everything here is gathered from readers, shops and forums; a rumour is talk without a "
    "known source, and we mark how sure we are of each one.",
    "Content copyright Lens Rumours. Quotes are fine with a link back to the post they come "
    "from; whole posts and photos are not, unless we say so in writing.",
)


LENS_POST = (
    "The new 35-100mm zoom is in stock in the United States for the first time: one shop "
    "has two left, and the price is the same as in Europe, where it shipped last week."
)


def short_post_beside(box: str) -> str:
    """A one-paragraph post, then a named box whose prose outruns it by a few lines."""
    disclaimer = "".join(f"<p>{text}</p>" for text in DISCLAIMER)
    return (
        "<html><head><title>New zoom lens in stock | Lens Rumours</title></head><body>"
        "<div id='main'><h1>New zoom lens in stock</h1><p class='date'>October 30, 2012</p>"
        f"<div class='entry'><p>{LENS_POST}</p></div></div>"
        f"<div {box}><h3>Disclaimer</h3>{disclaimer}</div></body></html>"
    )


@pytest.mark.parametrize("box", ["id='sidebar'", "class='copyright'", "class='author-bio'"])
def test_a_named_box_that_outruns_a_short_post_stays_boilerplate(box: str) -> None:
    """A sidebar, a copyright notice or an about box a little longer than the post holds
    most of the page's prose, but its name weighs against it: the post is the article."""
    article = extract(short_post_beside(box), options=DEFAULT)
    assert article.body == LENS_POST


def test_an_article_that_opens_outside_a_misnamed_box_and_goes_on_in_it_is_read_whole() -> None:
    """The first paragraph under the headline, then the rest in a box its component library
    named with a boilerplate word: the box's prose far outweighs its names."""
    first = f"{NEWS[0]} {NEWS[1]}"
    rest = (
        NEWS[2],
        *MORE_NEWS,
        *(f"{text} ({day})" for day in ("Monday", "Friday") for text in MORE_NEWS),
    )
    html = news_page(
        f"<p>{first}</p><div class='o-media js-lightbox-gallery'>"
        + "".join(f"<p>{text}</p>" for text in rest)
        + "</div>"
    )
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in (first, *rest))


def test_a_misnamed_box_around_the_whole_article_is_still_read() -> None:
    """An article body inside a box whose class holds a boilerplate word by its component
    library's naming (a gallery, a sharing container) far outweighs that name."""
    html = news_page(f"<div class='o-media js-lightbox-gallery'>{NEWS_PARAGRAPHS}</div>")
    article = extract(html, options=DEFAULT)
    assert all(text in article.body for text in NEWS)


def test_a_page_whose_root_is_named_boilerplate_keeps_its_text() -> None:
    """A box holding all of the page's prose is the page, whatever its class says."""
    html = (
        "<html class='feature_commentimages'><head><title>Storm photos</title></head><body>"
        f"<h1>Storm photos</h1><p>{POST[0]}</p><p>{POST[1]}</p></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert kept_post(article)


BIO = (
    "I write ads for a living and this blog for fun. Nineteen years in agencies in New York, "
    "and I still read every billboard on the way to work. I post the best of what I find "
    "every week, and I answer every email, even the angry ones. Send me tips: the address "
    "is on the contact page, and tell me where you saw it so I can credit the photographer "
    "and the agency behind the work.",
    "Before the blog I kept a scrapbook of print ads, cut out of magazines on trains and in "
    "waiting rooms. It grew to eleven volumes, and some of it is here now, scanned a page at "
    "a time. Nothing on this site speaks for any agency or client I have worked for, and "
    "the opinions are mine, as are the typos.",
    "When I am not writing I teach a night class on copywriting at a community college, "
    "where the students are better at headlines than I ever was.",
)


def post_beside_sidebar(headline_in_sidebar: bool) -> str:
    """A short list post, beside a sidebar whose profile box outruns it by far; the sidebar
    may also list recent posts, the post's own headline among them as a link."""
    recent = f"<ul><li><a href='/top-5'>{HEADLINE}</a></li></ul>" if headline_in_sidebar else ""
    bio = "".join(f"<p>{text}</p>" for text in BIO)
    return (
        f"<html><head><title>{HEADLINE} | Ad Blog</title></head><body>"
        f"<div id='sidebar'>{recent}<div class='profile-text'>{bio}</div></div>"
        f"<div class='main'><h3>{HEADLINE}</h3><p>{POST[0]} {POST[1]}</p></div>"
        "</body></html>"
    )


@pytest.mark.parametrize("headline_in_sidebar", [False, True])
def test_a_box_inside_another_named_box_carries_both_names(headline_in_sidebar: bool) -> None:
    """A profile box inside a sidebar holds most of the page's prose, but each name around
    it weighs against it; the post's headline linked in the sidebar's list of recent posts
    is not the headline."""
    article = extract(post_beside_sidebar(headline_in_sidebar), options=DEFAULT)
    assert kept_post(article)
    assert "Nineteen years" not in article.body and "scrapbook" not in article.body


SIDEBAR_HEADINGS = "".join(
    f"<h2>{name}</h2><ul><li><a href='/'>x</a></li></ul>"
    for name in ("Archive", "Labels", "Followers", "Blog roll", "About me", "Links")
)


def titled_post(title: str, before: str, heading: str, post_classes: str = "post") -> str:
    """A page whose ``<title>`` is `title`: `before` (a masthead, a sidebar), then the post's
    container holding `heading` and the post's paragraphs."""
    paragraphs = "".join(f"<p>{text}</p>" for text in POST)
    return (
        f"<html><head><title>{title}</title></head><body>{before}"
        f"<div class='{post_classes}'>{heading}{paragraphs}</div></body></html>"
    )


@pytest.mark.parametrize("title", [f"{SITE}: {HEADLINE}", f"{HEADLINE} | {SITE}"])
def test_the_posts_subheading_beats_the_logo_heading_the_title_joins_it_to(title: str) -> None:
    """A blog theme's ``<h1>`` is its name linking home; the ``<title>`` joins that name to
    the post's headline, an ``<h3>`` that sidebar headings come before."""
    html = titled_post(
        title,
        f"<h1><a href='/'>{SITE}</a></h1><div id='side'>{SIDEBAR_HEADINGS}</div>",
        f"<h3>{HEADLINE}</h3>",
        "post entry-author-jane",
    )
    article = extract(html, options=DEFAULT)
    assert article.title == HEADLINE
    assert kept_post(article)


BLOG_NAME = "Jane Doe Writes About Email"


@pytest.mark.parametrize(
    ("title", "masthead", "post_heading"),
    [
        (f"{BLOG_NAME}: {HEADLINE}", "h1", "h3"),
        (f"{BLOG_NAME} | {HEADLINE}", "h1", "h1"),
        (f"{HEADLINE} &laquo; {BLOG_NAME}", "h2", "h2"),
    ],
)
def test_the_blogs_name_in_a_masthead_above_the_post_is_not_the_title(
    title: str, masthead: str, post_heading: str
) -> None:
    """The blog's name in an unlinked heading at the top, the post's headline in a heading
    below it, the ``<title>`` joining the two: the first is the site's name."""
    html = titled_post(
        title,
        f"<{masthead}>{BLOG_NAME}</{masthead}>",
        f"<{post_heading}>{HEADLINE}</{post_heading}>",
    )
    article = extract(html, options=DEFAULT)
    assert article.title == HEADLINE
    assert kept_post(article)


@pytest.mark.parametrize(
    ("title", "above"),
    [
        (f"Email in practice - {HEADLINE}", "<h3>Email in practice</h3>"),
        (f"{HEADLINE} | {BLOG_NAME}", f"<h2><a href='/'>{BLOG_NAME}</a></h2>"),
    ],
)
def test_a_heading_above_the_headline_that_the_title_joins_to_it_is_not_the_title(
    title: str, above: str
) -> None:
    """A kicker or the site's linked name above the ``<h1>`` headline, the ``<title>``
    joining the two ("Kicker - Headline", "Headline | Site"): the headline is the lower
    one, the ``<h1>``."""
    html = titled_post(title, above, f"<h1>{HEADLINE}</h1>")
    article = extract(html, options=DEFAULT)
    assert article.title == HEADLINE


def test_the_posts_heading_below_a_sidebars_headings_is_the_title() -> None:
    """A theme that puts the sidebar first: six headings come before the post's, which is
    the part of the head title after the blog's name ("Blog: Post")."""
    html = titled_post(
        f"{BLOG_NAME}: {HEADLINE}",
        f"<div id='side'>{SIDEBAR_HEADINGS}</div>",
        f"<h3>{HEADLINE}</h3>",
    )
    article = extract(html, options=DEFAULT)
    assert article.title == HEADLINE


SITE_URL = "https://www.janedoewrites.example/2012/10/moving-the-newsletter/"
"""A post's address: its host spells the blog's name, "Jane Doe Writes"."""


def test_a_heading_that_spells_the_sites_host_is_not_the_title() -> None:
    """The blog's name in an ``<h1>`` (here in the footer), the post's in an ``<h2>``, the
    ``<title>`` holding both without a separator between them: each is most of the title,
    and the one that spells the page's host name is the site's."""
    html = titled_post(
        f"&raquo; {HEADLINE} :Jane Doe Writes On Email",
        "<div id='side'><h3>Recent posts</h3></div>",
        f"<h2>{HEADLINE}</h2>",
    ).replace("</body>", "<div id='footer'><h1>Jane Doe Writes On Email</h1></div></body>")
    url = "http://janedoewritesonemail.example/moving/"
    assert extract(html, url, options=DEFAULT).title == HEADLINE
    assert extract(html, options=DEFAULT).title == "Jane Doe Writes On Email"  # no host


@pytest.mark.parametrize(
    "og_title",
    [
        f"{HEADLINE} - Jane Doe Writes - Notes on email and small business",
        f"{HEADLINE} | Money | JaneDoeWrites",
    ],
)
def test_og_title_loses_the_part_that_spells_the_host(og_title: str) -> None:
    """``og:title`` with the site's name in it (and a tagline, or a channel's name, around
    it): the headline is the text on the other side of the site's part, without the short
    channel names trailing it."""
    html = titled_post("Jane Doe Writes", "", "<h4>Posted in Money</h4>").replace(
        "</head>", f"<meta property='og:title' content='{og_title}'></head>"
    )
    assert extract(html, SITE_URL, options=DEFAULT).title == HEADLINE


def test_the_headline_as_shown_keeps_its_typographic_quotes() -> None:
    """The head writes "It's" and 'Farce' where the page's heading shows "It’s" and
    ‘Farce’: the heading is the headline the head names, and the title is as shown."""
    shown = "It’s a ‘Farce’, the newsletter’s new platform"
    html = titled_post(
        "It's a 'Farce', the newsletter's new platform | Jane Doe Writes", "", f"<h1>{shown}</h1>"
    ).replace(
        "</head>",
        "<meta property='og:title' content=\"It's a 'Farce', the newsletter's new platform\">"
        "</head>",
    )
    assert extract(html, SITE_URL, options=DEFAULT).title == shown


def test_a_german_headings_low_quotes_are_the_head_titles_plain_ones() -> None:
    """A German heading opens its quotes low („Wort“) where the head title writes plain
    ones: the heading is the headline as shown."""
    shown = "Warum ich lieber „Bauchgeburt“ statt Kaiserschnitt sage"
    html = titled_post(
        'Warum ich lieber "Bauchgeburt" statt Kaiserschnitt sage - Jane Doe Writes',
        "",
        f"<h1>{shown}</h1>",
    )
    assert extract(html, SITE_URL, options=DEFAULT).title == shown


def test_a_headings_ellipsis_is_the_head_titles_three_dots() -> None:
    """A CMS sets "…" in the page's heading where the head title keeps "...": the heading
    is the headline as shown, without the site's name."""
    shown = "Only those who love themselves…"
    html = titled_post(
        "Only those who love themselves... — Jane Doe Writes", "", f"<h1>{shown}</h1>"
    )
    assert extract(html, SITE_URL, options=DEFAULT).title == shown


def with_og_title(html: str, og_title: str) -> str:
    return html.replace("</head>", f"<meta property='og:title' content='{og_title}'></head>")


def test_a_heading_the_head_words_differently_is_the_headline_as_shown() -> None:
    """The head shortens the page's headline ("HS" for "High School"): no heading spells
    it, but the ``<h1>`` shares most of its words, so it is the headline as shown, and its
    line leaves the body."""
    shown = "High School Roundup: Viera defeats Rockledge to remain undefeated"
    html = with_og_title(
        titled_post("HS Roundup | Jane Doe Writes", "", f"<h1>{shown}</h1>"),
        "HS Roundup: Viera defeats Rockledge to remain undefeated",
    )
    article = extract(html, SITE_URL, options=DEFAULT)
    assert article.title == shown
    assert kept_post(article)
    assert shown not in article.body


def test_the_opening_before_a_table_of_contents_stays_under_a_reworded_headline() -> None:
    """A tutorial opens with a paragraph, then a table of contents of in-page links, then
    its sections. The head leaves "(5 Examples)" out of the headline; with the heading
    found as the headline, the opening paragraph joins the article across the links."""
    shown = "Change Font Size of Plots in R (5 Examples) | Axis Text and Legend"
    sections = "".join(
        f"<h3>Example {number}: Change the Size of Part {number}</h3>"
        f"<p>{POST[0]} This example changes part {number}, as the code below shows.</p>"
        f"<p>{POST[1]}</p>"
        for number in range(1, 6)
    )
    contents = "".join(
        f"<li><a href='#example-{number}'>Example {number}: Change the Size of Part "
        f"{number}</a></li>"
        for number in range(1, 6)
    )
    opening = "In this article, I will explain how to increase and decrease the font sizes."
    html = with_og_title(
        "<html><head><title>Font sizes in R</title></head><body>"
        f"<div class='entry'><h1>{shown}</h1><p>{opening}</p>"
        f"<p>The tutorial consists of these blocks:</p><ul>{contents}</ul>"
        f"{sections}</div></body></html>",
        "Change Font Size of Plots in R | Axis Text and Legend",
    )
    article = extract(html, SITE_URL, options=DEFAULT)
    assert article.title == shown
    assert opening in article.body
    assert POST[1] in article.body


def test_a_comment_count_heading_holding_the_title_is_not_a_reworded_headline() -> None:
    """A heading that holds the head's headline and more ("《标题》已有1件评论": the post
    has one comment) shares most of its characters with it, but it is the comment
    thread's: the title is the head's."""
    headline = "播客热潮迅速蔓延 挑逗传统传媒业"
    paragraphs = "".join(
        f"<p>每个人都可以当主持人，任何人都可以通过软件免费下载播客提供的节目，第{n}段。</p>"
        for n in range(8)
    )
    html = (
        f"<html><head><title>多维博客 » {headline}</title></head><body>"
        f"<div class='post'>{paragraphs}</div>"
        f"<div class='feedback'><h3>《{headline}》已有1件评论</h3></div></body></html>"
    )
    assert extract(html, options=DEFAULT).title == headline


DASHED = "Moving the newsletter – what the first month taught us"


@pytest.mark.parametrize(
    "title",
    [
        "Moving the newsletter - what the first month taught us - Jane Doe - Email Notes",
        "Moving the newsletter - what the first month taught us",
    ],
)
def test_a_head_title_writing_a_hyphen_for_the_headings_dash_confirms_it(title: str) -> None:
    """The head writes a hyphen where the heading shows an en dash, alone or before the
    author's and site's names: the heading is the headline as shown, found among the
    page's lines, so it leaves the body."""
    html = titled_post(title, "", f"<h1>{DASHED}</h1>")
    article = extract(html, SITE_URL, options=DEFAULT)
    assert article.title == DASHED
    assert kept_post(article)
    assert DASHED not in article.body
    assert "no headline among the page's lines" not in article.confidence_reasons


def test_a_tagline_heading_inside_the_dash_folded_title_is_not_the_title() -> None:
    """A heading that is only a part of the head title once its dashes are folded (the
    blog's tagline, after the post's headline) does not agree with it."""
    tagline = "Tcritic – The T-Shirt Blog Covering Culture"
    html = titled_post(
        f"{HEADLINE} – Tcritic - The T-Shirt Blog Covering Culture",
        f"<div id='header'><h1>{tagline}</h1></div>",
        "",
    )
    assert extract(html, SITE_URL, options=DEFAULT).title != tagline


def test_soft_hyphens_in_the_head_title_are_not_the_headlines() -> None:
    """A CMS that hyphenates long words writes soft hyphens (``&shy;``) into ``og:title``
    too; the page's lines lose them, and so does the title, which is then the heading."""
    shown = "Anforderungen an Genesenennachweise und Impfnachweise"
    hyphenated = "Anforderungen an Genesenen&shy;nachweise und Impf&shy;nachweise"
    html = titled_post(f"{hyphenated} | Jane Doe Writes", "", f"<h1>{hyphenated}</h1>").replace(
        "</head>", f"<meta property='og:title' content='{hyphenated}'></head>"
    )
    article = extract(html, SITE_URL, options=DEFAULT)
    assert article.title == shown
    assert shown not in article.body


@pytest.mark.parametrize(
    ("url", "names"),
    [
        ("https://www.janedoewrites.com/2012/10/post/", {"janedoewrites"}),
        ("http://news.example.org/a", {"news", "example"}),
        ("https://my-blog.co.uk/", {"myblog"}),
        (None, set()),
    ],
)
def test_a_hosts_labels_but_the_last_and_www_are_the_names_it_spells(
    url: str | None, names: set[str]
) -> None:
    """Letters and digits of each label but the top-level domain and "www"; a label
    under three characters ("co") names no site."""
    assert site_names(url) == names


def test_an_address_that_does_not_parse_names_no_site() -> None:
    """The page's address is the caller's input: one that does not parse spells no site,
    and the title is the one without an address."""
    html = titled_post(f"{HEADLINE} | Jane Doe Writes", "", "<h4>Posted in Money</h4>")
    assert extract(html, "http://[janedoewrites/", options=DEFAULT).title == HEADLINE


LEASING = "Leasing or loans? Pros, cons - and a calculator"


@pytest.mark.parametrize(
    ("title", "headline"),
    [
        (f"{HEADLINE} &#8211; JaneDoeWrites - The Blog About Email and Small Business", HEADLINE),
        (f"{LEASING} | JANE DOE WRITES", LEASING),
        (f"Jane Doe Writes | {LEASING}", LEASING),
        ("Jane Doe Writes About Leasing", "Jane Doe Writes About Leasing"),
    ],
)
def test_the_head_titles_part_that_spells_the_host_is_the_sites(title: str, headline: str) -> None:
    """With no heading the head confirms, the title is the head title's text on the other
    side of the part that spells the host's name, whatever separators the headline holds
    (not the longest part: a tagline, or half of the headline); a headline that starts with
    the site's name holds no site part."""
    html = titled_post(title, "", "<h4>Posted in Money</h4>")
    assert extract(html, SITE_URL, options=DEFAULT).title == headline


def test_a_comment_count_heading_quoting_the_title_is_not_the_title() -> None:
    """Far down the page, a heading that holds the head's title and more is the comment
    thread's ("3 comments on 'Title'"), not the headline."""
    paragraphs = "".join(f"<p>{text}</p>" for text in POST)
    sections = "".join(f"<h2>Part {number}</h2>{paragraphs}" for number in range(6))
    html = (
        f"<html><head><title>{HEADLINE}</title></head><body>"
        f"<div class='post'><h1>{HEADLINE}, and what three months of spam folders taught "
        f"us about sender reputation</h1>{sections}</div>"
        f"<div id='comments'><h2>3 comments on &#8220;{HEADLINE}&#8221;</h2></div>"
        "</body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert article.title == HEADLINE


def test_a_one_line_post_under_its_headline_holds_its_container() -> None:
    """A photo post's short caption right under the headline scores too little to vote as
    a paragraph, but there every line votes: it outvotes a blurb in a link-heavy column
    further down (a box whose name says nothing)."""
    caption = "Paper leaves punched from old maps, for autumn."
    blurb = "Our shop sends craft kits all over the country, with the paper and glue today."
    menu = "".join(
        f"<li><a href='/{number}'>Craft kit number {number}</a></li>" for number in range(25)
    )
    html = (
        "<html><head><title>Map leaves | Crafty Things</title></head><body>"
        "<div class='main'><h2>Map leaves</h2><div class='caption'>"
        f"<img src='a.jpg'><p>{caption}</p></div></div><div class='col'><ul>{menu}</ul>"
        f"<div class='box'><h4>Our shop</h4><p>{blurb}</p></div></div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert article.body == caption


def test_a_tiny_post_is_not_lost_to_a_longer_footer_notice_that_joined_it() -> None:
    """A link post's one sentence under its linked headline, and a site footer's notices
    (a sibling of the post's column, so it joins the article's elements; its lines vote
    for the page's wrapper) longer than the post: the body holds a line of the container
    the votes chose, so the footer alone never wins."""
    post = "A perfect song by a band from the coast, thanks to a friend for the tip!"
    menu = "".join(f"<li><a href='/tag/{number}'>Tag {number}</a></li>" for number in range(20))
    html = (
        "<html><head><title>Broken Arrows | Curious Mind</title></head><body><div id='wrap'>"
        "<div id='content'><div class='post'><h2><a href='/p/7'>Broken Arrows</a></h2>"
        f"<div class='story'><p>{post}</p></div>"
        "<div class='feedback'><a href='#comments'>Comments (0)</a></div></div></div>"
        f"<div id='menu'><ul>{menu}</ul></div><div class='credit'>"
        "If you find anything interesting here and decide to share it, please link back.<br>"
        "Curious Mind | powered by WordPress"
        "</div></div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert post in article.body
    assert "link back" not in article.body


def test_a_tiny_post_is_not_lost_to_a_copyright_notice_at_the_pages_foot() -> None:
    """A photo post's one line of credit under its tags line, and at the page's foot a
    plea to link back with the site's copyright notice, more text than the post: the
    notice is a statement line, and what is left of the footer is no rival."""
    post = "I love pixel art and I love heroes, made by <a href='/artist'>an artist</a>"
    archive = "".join(f"<li><a href='/m/{number}'>Month {number}</a></li>" for number in range(30))
    html = (
        "<html><head><title>Pixel Heroes | Curious Mind</title></head><body>"
        "<div class='post'><h2><a href='/p/7'>Pixel Heroes</a></h2>"
        "<small><a href='/c/1'>images</a> — Tags: <a href='/t/2'>design</a></small>"
        f"<div class='story'><img src='a.png'>{post}</div></div>"
        f"<div id='sidebar'><ul>{archive}</ul></div><div class='bottom'>"
        "If you find anything interesting here and decide to share it pls link back :-)<br>"
        "(c) 2012 Curious Mind | powered by WordPress with Barecity</div></body></html>"
    )
    article = extract(html, options=DEFAULT)
    assert "I love pixel art" in article.body
    assert "link back" not in article.body


TAGS = (
    *("hosting", "email", "deliverability", "small business", "platforms", "spam"),
    *("open rates", "sender address", "domains", "warm-up", "lists", "migration"),
    *("tools", "metrics", "lessons", "spring"),
)
READERS = tuple(f"reader_{number}" for number in range(240))


def links(names: tuple[str, ...]) -> str:
    return ", ".join(f"<a href='/u/{name}'>{name}</a>" for name in names)


def post_closed_by(closing: str) -> Article:
    """The post's paragraphs and then `closing`, in the post's own box, extracted."""
    paragraphs = "".join(f"<p>{text}</p>" for text in POST)
    html = (
        f"<html><head><title>{HEADLINE}</title></head><body><div class='post'>"
        f"<h1>{HEADLINE}</h1><div class='entry'>{paragraphs}{closing}</div></div>"
        "</body></html>"
    )
    return extract(html, options=DEFAULT)


@pytest.mark.parametrize(
    "link_list",
    [
        f"<p>Tagged in: {links(TAGS)}</p>",
        f"<p>{links(READERS)} and 1,812 guests left kudos on this work! (collapse)</p>",
    ],
)
def test_a_comma_separated_link_list_after_the_post_is_not_body(link_list: str) -> None:
    """Tag lists and lists of the readers who liked a post are links joined by commas: their
    own text is long enough to pass for a sentence, but it is mostly marks. They are link
    lines, not the post's last paragraph."""
    article = post_closed_by(link_list)
    assert kept_post(article)
    assert "deliverability" not in article.body and "reader_7" not in article.body
    assert "guests left kudos" not in article.body and "Tagged" not in article.body


def test_a_paragraph_with_linked_names_and_a_sentence_of_its_own_is_body() -> None:
    """Mostly link text, but its own text is words with a mark or two: prose."""
    names = links(("Jane Doe of Example Mail", "John Roe of the Sample Post Office"))
    closing = f"<p>{names} both said, when we asked them last week, that warming up helps.</p>"
    article = post_closed_by(closing)
    assert kept_post(article)
    assert "when we asked them last week, that warming up helps." in article.body
