# ruff: noqa: E501 (the pages' markup is kept as the platforms write it, one element run a line)
"""Blog platforms' post pages, written here after each platform's published markup (class
names, nesting, the boxes around a post: subscribe forms, share bars, related posts,
comments, about-me widgets): the default method keeps the post's paragraphs, and only
them, at three lengths (six paragraphs, two, one). Blogs are where held-out pages showed
the extractor weakest; these pin what it gets right and name what it does not (xfail)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from newscrawl.extract import extract

P = [
    "I spent most of last winter rebuilding the old greenhouse behind the house, and this post is the long version of how that went, what it cost, and what I would do differently next time.",
    "The frame was sound, which surprised me. The glazing was not: about a third of the panes had cracked, and the putty had turned to powder, so every pane had to come out and be bedded again.",
    "I ordered horticultural glass from a local supplier rather than the big online shops. It was a little dearer, but they cut it to size and delivered it on a pallet, and nothing broke on the way.",
    "Bedding the panes took far longer than I had planned. A good day saw twenty panes in; a cold one saw six, because the linseed putty would not work below about eight degrees.",
    "If you are thinking of doing the same, my advice is simple: start in late spring, not in November, buy twice the clips you think you need, and keep the panes flat and dry until the day you fit them.",
    "The whole job cost a little under four hundred pounds, against the two thousand I was quoted for a new aluminium house of the same size. I think that is worth a winter of cold fingers.",
]
COMMENTS = [
    "Lovely write-up, thank you. We have a Victorian lean-to that needs the same treatment and I have been putting it off for years because I had no idea where to start.",
    "Did you consider polycarbonate instead of glass? It is lighter and does not break, though I know it yellows after a few years in full sun.",
    "Great post. One tip from a glazier: warm the putty in a bucket of hot water for ten minutes before you use it and it works much better on cold days.",
    "How did you deal with the rotten sill at the front? Ours has gone soft along the whole length and I am not sure whether to splice or replace it entirely.",
]
TITLE = "Rebuilding a Victorian greenhouse on a budget"
ABOUT = "Hi, I'm Sam. I write about gardening, old houses and fixing things that other people would throw away. This blog started in 2011 as a diary of our allotment and grew from there."
RELATED = [
    (
        "Ten seed catalogues worth reading",
        "Every January I sit down with a stack of catalogues and a pot of tea; these are the ones that are actually worth your time, and why.",
    ),
    (
        "Why I stopped using peat",
        "It took me three seasons to find a mix that my seedlings liked as much, but the results are now better than they ever were with peat compost.",
    ),
    (
        "A cold frame from an old window",
        "Two reclaimed sash windows, some offcuts of decking and an afternoon of work gave us the most useful thing in the whole garden.",
    ),
]
NAV = '<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li><li><a href="/garden">Garden</a></li><li><a href="/house">House</a></li><li><a href="/contact">Contact</a></li></ul></nav>'


def paras(ps: Sequence[str], cls: str = "") -> str:
    """The paragraphs as ``<p>`` elements, of class `cls` where given."""
    c = f' class="{cls}"' if cls else ""
    return "".join(f"<p{c}>{p}</p>" for p in ps)


def page(head_title: str, body: str) -> str:
    """A whole page: its head, and `body` as the body."""
    return f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{head_title}</title><meta name="description" content="{P[0][:120]}"></head><body>{body}</body></html>'


def substack(ps: Sequence[str] = P) -> str:
    """Substack: the post in ``available-content`` with a subscribe widget inside, comments and recommendations after."""
    comments = "".join(
        f'<div class="comment"><div class="comment-meta"><a class="comment-author">reader{i}</a> <span class="comment-date">Mar {i + 4}</span></div><div class="comment-body"><p>{c}</p></div><div class="comment-actions"><a>Like</a><a>Reply</a></div></div>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"{TITLE} - by Sam Hollis - Old Houses",
        f"""
<div class="main-menu"><a class="navbar-title" href="/">Old Houses</a><a>Subscribe</a><a>Sign in</a></div>
<div class="single-post-container"><div class="container"><div class="single-post"><article class="typography newsletter-post post">
<div class="post-header"><h1 class="post-title published">{TITLE}</h1><h3 class="subtitle">What a winter of cold fingers taught me</h3>
<div class="post-meta"><div class="pencraft"><a href="/profile">Sam Hollis</a></div><div class="pencraft">Mar 03, 2024</div></div></div>
<div class="available-content"><div dir="auto" class="body markup">{paras(ps)}
<div class="subscription-widget-wrap-editor"><div class="subscription-widget"><div class="preamble"><p>Thanks for reading Old Houses! Subscribe for free to receive new posts and support my work.</p></div><form><input type="email" placeholder="Type your email..."><input type="submit" value="Subscribe"></form></div></div>
</div></div>
<div class="post-footer"><a>12 Likes</a><a>4 Comments</a><a>Share</a></div>
</article></div>
<div class="comments-section"><h4>Discussion about this post</h4><div class="comments-list">{comments}</div></div>
<div class="post-recommendations"><h3>Recommended</h3>{"".join(f'<div class="post-preview"><a class="post-preview-title">{t}</a><div class="post-preview-description">{d}</div></div>' for t, d in RELATED)}</div>
</div></div>
<div class="footer-wrap"><div class="footer">© 2024 Sam Hollis · Privacy ∙ Terms ∙ Collection notice</div><div>Substack is the home for great culture</div></div>""",
    )


def ghost(ps: Sequence[str] = P) -> str:
    """Ghost (Casper): the article's header (tag, excerpt, byline, image) above ``gh-content``, a sign-up box and read-more cards after."""
    return page(
        f"{TITLE}",
        f"""
<div class="viewport"><header id="gh-head" class="gh-head outer"><div class="gh-head-inner inner"><a class="gh-head-logo" href="/">Old Houses</a>{NAV}<div class="gh-head-actions"><a class="gh-head-button">Subscribe</a></div></div></header>
<div class="site-content"><main id="site-main" class="site-main">
<article class="article post tag-garden tag-glass featured">
<header class="article-header gh-canvas"><div class="article-tag post-card-primary-tag"><a href="/tag/garden/">Garden</a></div>
<h1 class="article-title">{TITLE}</h1><p class="article-excerpt">What a winter of cold fingers taught me about glass, putty and patience.</p>
<div class="article-byline"><div class="article-byline-content"><div class="article-byline-meta"><h4 class="author-name"><a href="/author/sam/">Sam Hollis</a></h4><div class="byline-meta-content"><time class="byline-meta-date" datetime="2024-03-03">Mar 3, 2024</time><span class="byline-reading-time">5 min read</span></div></div></div></div>
<figure class="article-image"><img src="/g.jpg" alt="The greenhouse"><figcaption>The greenhouse in February</figcaption></figure></header>
<section class="gh-content gh-canvas">{paras(ps)}</section>
</article></main>
<section class="footer-cta outer"><div class="inner"><h2 class="footer-cta-title">Sign up for more like this.</h2><a class="footer-cta-button">Enter your email <span>Subscribe</span></a></div></section>
<aside class="read-more-wrap outer"><div class="read-more inner">{"".join(f'<article class="post-card post"><a class="post-card-image-link"></a><div class="post-card-content"><header class="post-card-header"><h2 class="post-card-title">{t}</h2></header><div class="post-card-excerpt">{d}</div></div><footer class="post-card-meta"><time>Feb 2, 2024</time><span>4 min read</span></footer></article>' for t, d in RELATED)}</div></aside>
</div>
<footer class="site-footer outer"><div class="inner"><section class="copyright"><a href="/">Old Houses</a> © 2024</section><nav class="site-footer-nav"><a>Sign up</a></nav><div class="gh-powered-by"><a>Powered by Ghost</a></div></div></footer></div>""",
    )


def medium(ps: Sequence[str] = P) -> str:
    """Medium: generated atomic class names everywhere, the byline strip under the title, linked teaser cards after."""
    return page(
        f"{TITLE} | by Sam Hollis | Medium",
        f"""
<div id="root"><div class="a b c"><div class="l m n o"><nav class="bk bl"><a href="/">Medium</a><a>Write</a><a>Sign up</a><a>Sign in</a></nav></div>
<div class="ab ca"><div class="ch bg ew ex ey ez"><article><div class="l"><div class="l"><section><div><div class="gn go gp gq gr"></div><div class="ab ca"><div class="ch bg ew ex ey ez">
<div><h1 id="7c1a" class="pw-post-title gs gt gu bf gv gw gx gy gz ha hb hc hd he hf hg hh hi hj hk hl hm hn ho hp hq bk" data-testid="storyTitle">{TITLE}</h1></div>
<div><div class="speechify-ignore ab co"><div class="speechify-ignore bg l"><div class="hr hs ht hu hv ab"><div><div class="ab hw"><a href="/@sam" rel="noopener follow"><div class="l hx hy by hz ia"><img alt="Sam Hollis" class="l ep by dc dd cx" src="/a.jpg"></div></a></div></div><div class="bm bg l"><div class="ab"><div style="flex:1"><span class="bf b bg z bk"><div class="ib ab q"><div class="ab q ic"><div class="ab q"><div><a class="af ag ah ai aj ak al am an ao ap aq ar as ie" href="/@sam">Sam Hollis</a></div></div><span class="if ig" aria-hidden="true"><span class="bf b bg z dx">·</span></span><p class="bf b bg z dx"><span><a class="ih ii ah ai aj ak al am an ao ap aq ar ex ij ik">Follow</a></span></p></div></div></span></div></div><div class="l ib"><span class="bf b bg z dx"><div class="ab cn il im in"><span class="bf b bg z dx">5 min read</span><div class="io ip l" aria-hidden="true"><span class="l" aria-hidden="true"><span class="bf b bg z dx">·</span></span></div><span data-testid="storyPublishDate">Mar 3, 2024</span></div></span></div></div></div>
<div class="ab co iq ir is it iu iv iw ix iy iz ja jb jc jd je jf"><div class="h k w ea eb q"><div class="jv l"><div class="ab q jw jx"><div class="pw-multi-vote-icon ed pj jy jz ka"><div class=""><div class="kb kc kd ke kf kg kh am ki kj kk ka"><svg></svg></div></div></div><div class="pw-multi-vote-count l kl km kn ko kp kq kr"><p class="bf b dy z dx"><span class="kc">1.2K</span></p></div></div></div><div><div class="bm" aria-hidden="false"><button class="ao kc kv kw ab q ee kx ky" aria-label="responses"><svg></svg><p class="bf b dy z dx"><span class="pw-responses-count ks kt">14</span></p></button></div></div></div></div></div></div></div>
{paras(ps, "pw-post-body-paragraph ne nf gu ng b nh ni nj nk nl nm nn no np nq nr ns nt nu nv nw nx ny nz oa ob gn bk")}
</div></div></section></div></div></article></div></div>
<div class="ab ca"><div class="ch bg ew ex ey ez"><div class="ri rj ab ie"><h2 class="bf ho rk rl rm rn ro rp rq rr rs rt ru">More from Sam Hollis</h2>{"".join(f'<div class="sd se l"><a href="/@sam/p{len(t)}" rel="noopener follow"><h2 class="bf gv sl dz jn hs sm sn so sp sq sr ss st su sv sw sx bk">{t}</h2><div class="sy l"><h3 class="bf b ga z ed sz ta tb tc td te tf tg dx">{d}</h3></div></a><div class="ab q"><span>4 min read</span><span>·</span><span>Feb 2, 2024</span></div></div>' for t, d in RELATED)}</div></div></div>
<div class="footer"><a>Help</a><a>Status</a><a>About</a><a>Careers</a><a>Press</a><a>Blog</a><a>Privacy</a><a>Terms</a><a>Text to speech</a><a>Teams</a></div></div></div>""",
    )


def blogger(ps: Sequence[str] = P) -> str:
    """Blogger: paragraphs split by ``<br>`` in ``post-body``, a post footer, comments, an about-me and popular-posts sidebar."""
    body = "<br /><br />".join(ps)
    comments = "".join(
        f'<dt class="comment-author" id="c{i}"><a href="/p/{i}">Reader {i}</a> said...</dt><dd class="comment-body"><p>{c}</p></dd><dd class="comment-footer"><span class="comment-timestamp"><a title="comment permalink">March {i + 4}, 2024 at 9:1{i} AM</a></span></dd>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"Old Houses: {TITLE}",
        f"""
<div class="content-outer"><div class="header-outer"><div class="header section" id="header"><div class="widget Header" id="Header1"><div id="header-inner"><div class="titlewrapper"><h1 class="title"><a href="/">Old Houses</a></h1></div><div class="descriptionwrapper"><p class="description"><span>Gardening, old houses and fixing things</span></p></div></div></div></div></div>
<div class="main-outer"><div class="columns fauxcolumns"><div class="main-inner"><div class="column-center-outer"><div class="main section" id="main"><div class="widget Blog" id="Blog1"><div class="blog-posts hfeed">
<div class="date-outer"><h2 class="date-header"><span>Sunday, March 3, 2024</span></h2><div class="date-posts"><div class="post-outer"><div class="post hentry uncustomized-post-template">
<h3 class="post-title entry-title">{TITLE}</h3><div class="post-header"><div class="post-header-line-1"></div></div>
<div class="post-body entry-content" id="post-body-8812">{body}<div style="clear: both;"></div></div>
<div class="post-footer"><div class="post-footer-line post-footer-line-1"><span class="post-author vcard">Posted by <span class="fn">Sam</span></span> <span class="post-timestamp">at <a class="timestamp-link"><abbr class="published">10:41 AM</abbr></a></span> <span class="post-comment-link"><a class="comment-link">4 comments:</a></span></div><div class="post-share-buttons"><a class="share-button sb-email">Email This</a><a class="share-button sb-blog">BlogThis!</a><a class="share-button sb-twitter">Share to Twitter</a><a class="share-button sb-facebook">Share to Facebook</a></div><div class="post-footer-line post-footer-line-2"><span class="post-labels">Labels: <a rel="tag">garden</a>, <a rel="tag">greenhouse</a></span></div></div></div>
<div class="comments" id="comments"><a name="comments"></a><h4>4 comments:</h4><div id="Blog1_comments-block-wrapper"><dl class="avatar-comment-indent" id="comments-block">{comments}</dl></div><p class="comment-footer"><a>Post a Comment</a></p></div>
</div></div></div></div>
<div class="blog-pager" id="blog-pager"><a class="blog-pager-newer-link">Newer Post</a> <a class="blog-pager-older-link">Older Post</a> <a class="home-link">Home</a></div>
<div class="post-feeds"><div class="feed-links">Subscribe to: <a class="feed-link">Post Comments (Atom)</a></div></div>
</div></div></div>
<div class="column-right-outer"><div class="column-right-inner"><aside><div class="sidebar section" id="sidebar-right-1"><div class="widget Profile" id="Profile1"><h2>About Me</h2><div class="widget-content"><a><img class="profile-img" src="/me.jpg"></a><dl class="profile-datablock"><dt class="profile-data"><a class="profile-name-link">Sam</a></dt><dd class="profile-textblock">{ABOUT}</dd></dl><a class="profile-link">View my complete profile</a></div></div>
<div class="widget PopularPosts" id="PopularPosts1"><h2>Popular Posts</h2><div class="widget-content popular-posts"><ul>{"".join(f'<li><div class="item-content"><div class="item-title"><a>{t}</a></div><div class="item-snippet">{d}</div></div></li>' for t, d in RELATED)}</ul></div></div>
<div class="widget BlogArchive" id="BlogArchive1"><h2>Blog Archive</h2><div class="widget-content"><ul class="hierarchy"><li class="archivedate expanded"><a>2024</a> (12)</li><li class="archivedate collapsed"><a>2023</a> (31)</li><li class="archivedate collapsed"><a>2022</a> (28)</li></ul></div></div></div></aside></div></div>
</div></div></div>
<footer><div class="footer-outer"><div class="widget Attribution"><div class="widget-content">Simple theme. Powered by <a>Blogger</a>.</div></div></div></footer></div>""",
    )


def wp_block(ps: Sequence[str] = P) -> str:
    """WordPress block theme: ``wp-block-post-content``, comments with a reply form, the site's about text in the footer."""
    comments = "".join(
        f'<li id="comment-{i}" class="comment even thread-even depth-1"><div class="wp-block-group"><div class="wp-block-comment-author-name"><a>Reader {i}</a></div><div class="wp-block-comment-date"><time>March {i + 4}, 2024 at 9:1{i} am</time></div><div class="wp-block-comment-content"><p>{c}</p></div><div class="wp-block-comment-reply-link"><a class="comment-reply-link">Reply</a></div></div></li>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"{TITLE} – Old Houses",
        f"""
<div class="wp-site-blocks"><header class="wp-block-template-part"><div class="wp-block-group alignwide"><p class="wp-block-site-title"><a href="/">Old Houses</a></p><nav class="wp-block-navigation">{NAV}</nav></div></header>
<main class="wp-block-group"><div class="wp-block-group"><div class="wp-block-group"><h1 class="wp-block-post-title">{TITLE}</h1><div class="wp-block-template-part"><div class="wp-block-group post-meta"><div class="wp-block-post-date"><time datetime="2024-03-03T10:41:00+00:00">March 3, 2024</time></div><p>— by</p><div class="wp-block-post-author-name"><a href="/author/sam/">Sam</a></div><p>in</p><div class="taxonomy-category wp-block-post-terms"><a rel="tag">Garden</a></div></div></div></div></div>
<div class="entry-content alignfull wp-block-post-content has-global-padding is-layout-constrained">{paras(ps)}</div>
<div class="wp-block-group"><div class="taxonomy-post_tag wp-block-post-terms"><a rel="tag">glass</a><a rel="tag">greenhouse</a></div></div>
<div class="wp-block-comments"><h2 class="wp-block-comments-title">4 responses to “{TITLE}”</h2><ol class="wp-block-comment-template">{comments}</ol>
<div id="respond" class="comment-respond wp-block-post-comments-form"><h3 id="reply-title" class="comment-reply-title">Leave a Reply</h3><form class="comment-form"><p class="comment-notes">Your email address will not be published. Required fields are marked *</p><p class="comment-form-comment"><label>Comment *</label><textarea></textarea></p><p class="comment-form-cookies-consent"><input type="checkbox"><label>Save my name, email, and website in this browser for the next time I comment.</label></p></form></div></div>
<nav class="wp-block-group" aria-label="Posts"><div class="post-navigation-link-previous wp-block-post-navigation-link"><a>Ten seed catalogues worth reading</a></div><div class="post-navigation-link-next wp-block-post-navigation-link"><a>Why I stopped using peat</a></div></nav></main>
<footer class="wp-block-template-part"><div class="wp-block-group"><h2 class="wp-block-heading">About</h2><p>{ABOUT}</p><p class="has-text-align-right">Designed with <a>WordPress</a></p></div></footer></div>""",
    )


def jekyll(ps: Sequence[str] = P) -> str:
    """Jekyll (minima): microformats2 classes (``h-entry``, ``e-content``), related posts, an about text in the footer."""
    return page(
        f"{TITLE} | Old Houses",
        f"""
<header class="site-header"><div class="wrapper"><a class="site-title" rel="author" href="/">Old Houses</a><nav class="site-nav"><div class="trigger"><a class="page-link" href="/about/">About</a><a class="page-link" href="/archive/">Archive</a></div></nav></div></header>
<main class="page-content" aria-label="Content"><div class="wrapper"><article class="post h-entry" itemscope itemtype="http://schema.org/BlogPosting">
<header class="post-header"><h1 class="post-title p-name" itemprop="name headline">{TITLE}</h1><p class="post-meta"><time class="dt-published" datetime="2024-03-03T10:41:00+00:00" itemprop="datePublished">Mar 3, 2024</time> • <span itemprop="author" itemscope itemtype="http://schema.org/Person"><span class="p-author h-card" itemprop="name">Sam Hollis</span></span></p></header>
<div class="post-content e-content" itemprop="articleBody">{paras(ps)}</div>
<a class="u-url" href="/2024/03/03/greenhouse.html" hidden></a></article>
<div class="related"><h2>Related posts</h2><ul class="related-posts">{"".join(f"<li><h3><a>{t}</a></h3><p>{d}</p></li>" for t, d in RELATED)}</ul></div></div></main>
<footer class="site-footer h-card"><data class="u-url" href="/"></data><div class="wrapper"><h2 class="footer-heading">Old Houses</h2><div class="footer-col-wrapper"><div class="footer-col footer-col-1"><ul class="contact-list"><li class="p-name">Sam Hollis</li><li><a class="u-email">sam@example.org</a></li></ul></div><div class="footer-col footer-col-3"><p>{ABOUT}</p></div></div></div></footer>""",
    )


def squarespace(ps: Sequence[str] = P) -> str:
    """Squarespace: the post split into ``sqs-block`` boxes around an image block, pagination, a newsletter footer."""
    blocks = "".join(
        f'<div class="sqs-block html-block sqs-block-html" data-block-type="2" id="block-{i}"><div class="sqs-block-content"><div class="sqs-html-content"><p class="" style="white-space:pre-wrap;">{p}</p></div></div></div>'
        + (
            f'<div class="sqs-block image-block sqs-block-image"><div class="sqs-block-content"><figure class="sqs-block-image-figure intrinsic"><img src="/i{i}.jpg"></figure></div></div>'
            if i == 1
            else ""
        )
        for i, p in enumerate(ps)
    )
    return page(
        f"{TITLE} — Old Houses",
        f"""
<header class="Header"><div class="Header-inner"><a class="Header-branding" href="/">Old Houses</a><nav class="Header-nav"><a href="/blog">Blog</a><a href="/about">About</a><a href="/shop">Shop</a></nav></div></header>
<main class="Main Main--blog-item"><section class="Main-content" data-content-field="main-content">
<article class="BlogItem hentry category-garden author-sam-hollis post-type-text article-index-1" id="article-5f2">
<div class="BlogItem-meta"><time class="Blog-meta-item Blog-meta-item--date" datetime="2024-03-03">March 3, 2024</time><a class="Blog-meta-item Blog-meta-item--author" href="/blog?author=5f">Sam Hollis</a></div>
<h1 class="BlogItem-title" data-content-field="title">{TITLE}</h1>
<div class="sqs-layout sqs-grid-12 columns-12" data-type="item" id="item-5f2"><div class="row sqs-row"><div class="col sqs-col-12 span-12">{blocks}</div></div></div>
<div class="BlogItem-share"><div class="Share"><a class="Share-buttons-item Share-buttons-item--facebook">Facebook</a><a class="Share-buttons-item--twitter">Twitter</a></div></div>
<div class="BlogItem-pagination"><a class="BlogItem-pagination-link BlogItem-pagination-link--prev"><div class="BlogItem-pagination-link-label">Previous</div><h2 class="BlogItem-pagination-link-title">{RELATED[0][0]}</h2></a><a class="BlogItem-pagination-link--next"><div>Next</div><h2>{RELATED[1][0]}</h2></a></div>
<div class="BlogItem-comments"><div class="squarespace-comments"><div class="comment-count">4 Comments</div></div></div>
</article></section></main>
<footer class="Footer"><div class="Footer-blocks"><div class="sqs-block html-block"><div class="sqs-block-content"><p>{ABOUT}</p></div></div><div class="sqs-block newsletter-block"><h2>Get new posts by email</h2><form><input placeholder="Email Address"><button>Sign Up</button></form><p>We respect your privacy.</p></div></div></footer>""",
    )


def jetpack(ps: Sequence[str] = P) -> str:
    """A classic WordPress theme with Jetpack: share and like boxes and related posts inside ``entry-content``, comments, a sidebar."""
    comments = "".join(
        f'<li class="comment byuser even thread-even depth-1" id="li-comment-{i}"><article id="comment-{i}" class="comment"><footer class="comment-meta"><div class="comment-author vcard"><img class="avatar"><b class="fn">Reader {i}</b> <span class="says">says:</span></div><div class="comment-metadata"><a><time datetime="2024-03-0{i + 4}T09:10:00+00:00">March {i + 4}, 2024 at 9:10 am</time></a></div></footer><div class="comment-content"><p>{c}</p></div><div class="reply"><a class="comment-reply-link">Reply</a></div></article></li>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"{TITLE} | Old Houses",
        f"""
<div id="page" class="hfeed site"><header id="masthead" class="site-header"><div class="site-branding"><p class="site-title"><a href="/">Old Houses</a></p><p class="site-description">Gardening, old houses and fixing things</p></div><nav id="site-navigation" class="main-navigation">{NAV}</nav></header>
<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
<article id="post-412" class="post-412 post type-post status-publish format-standard hentry category-garden tag-glass tag-greenhouse">
<header class="entry-header"><h1 class="entry-title">{TITLE}</h1><div class="entry-meta"><span class="posted-on">Posted on <a rel="bookmark"><time class="entry-date published" datetime="2024-03-03T10:41:00+00:00">March 3, 2024</time></a></span><span class="byline"> by <span class="author vcard"><a class="url fn n" href="/author/sam/">Sam Hollis</a></span></span></div></header>
<div class="entry-content">{paras(ps)}
<div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social sd-social-icon-text sd-sharing"><h3 class="sd-title">Share this:</h3><div class="sd-content"><ul><li class="share-twitter"><a class="share-twitter sd-button"><span>Twitter</span></a></li><li class="share-facebook"><a class="share-facebook sd-button"><span>Facebook</span></a></li></ul></div></div></div>
<div class="sharedaddy sd-block sd-like jetpack-likes-widget-wrapper jetpack-likes-widget-unloaded" id="like-post-wrapper"><h3 class="sd-title">Like this:</h3><div class="likes-widget-placeholder post-likes-widget-placeholder"><span class="button"><span>Like</span></span> <span class="loading">Loading...</span></div></div>
<div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related</em></h3>{"".join(f'<div class="jp-relatedposts-post"><h4 class="jp-relatedposts-post-title"><a>{t}</a></h4><p class="jp-relatedposts-post-excerpt">{d}</p><p class="jp-relatedposts-post-context">In "Garden"</p></div>' for t, d in RELATED)}</div>
</div>
<footer class="entry-footer"><span class="cat-links">Posted in <a rel="category tag">Garden</a></span><span class="tags-links">Tagged <a rel="tag">glass</a>, <a rel="tag">greenhouse</a></span></footer>
</article>
<nav class="navigation post-navigation"><h2 class="screen-reader-text">Post navigation</h2><div class="nav-links"><div class="nav-previous"><a rel="prev">{RELATED[0][0]}</a></div><div class="nav-next"><a rel="next">{RELATED[1][0]}</a></div></div></nav>
<div id="comments" class="comments-area"><h2 class="comments-title">4 thoughts on &ldquo;{TITLE}&rdquo;</h2><ol class="comment-list">{comments}</ol>
<div id="respond" class="comment-respond"><h3 id="reply-title" class="comment-reply-title">Leave a Reply</h3><form class="comment-form"><p class="comment-notes">Your email address will not be published.</p></form></div></div>
</main></div>
<aside id="secondary" class="widget-area"><section class="widget widget_text"><h2 class="widget-title">About</h2><div class="textwidget"><p>{ABOUT}</p></div></section><section class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>{"".join(f"<li><a>{t}</a></li>" for t, _ in RELATED)}</ul></section></aside></div>
<footer id="colophon" class="site-footer"><div class="site-info"><a>Proudly powered by WordPress</a> | Theme: Twenty Fifteen.</div></footer></div>""",
    )


def tumblr(ps: Sequence[str] = P) -> str:
    """Tumblr: the blog's description in the page header above a post whose title is a link, notes after."""
    return page(
        f"Old Houses — {TITLE}",
        f"""
<div id="container"><header id="header"><h1 id="blog-title"><a href="/">Old Houses</a></h1><div id="description"><p>{ABOUT}</p></div><nav><a href="/archive">Archive</a><a href="/ask">Ask me anything</a><a href="/rss">RSS</a></nav></header>
<section id="posts"><article class="post text" id="post-7281"><div class="post-wrapper"><div class="post-content"><h2 class="title"><a href="/post/7281/greenhouse">{TITLE}</a></h2><div class="body-text">{paras(ps)}</div></div>
<footer class="post-footer"><div class="post-meta"><a class="post-date" href="/post/7281">March 3rd, 2024</a><a class="post-notes" href="/post/7281#notes">12 notes</a></div><ul class="tags"><li><a href="/tagged/garden">#garden</a></li><li><a href="/tagged/greenhouse">#greenhouse</a></li></ul><div class="post-controls"><a class="reblog">Reblog</a><a class="like">Like</a></div></footer></div></article>
<section id="notes"><ol class="notes"><li class="note like"><a class="avatar_frame"></a><span class="action"><a>gardenfan</a> liked this</span></li><li class="note reblog"><span class="action"><a>oldhouselover</a> reblogged this from <a>oldhouses</a></span></li></ol></section></section>
<footer id="footer"><p>Theme by <a>Tumblr</a></p></footer></div>""",
    )


TRACKBACK = "I have been meaning to write about our own glasshouse for months, and this account of a winter spent re-bedding every pane finally got me to do it; well worth reading in full."


def typepad(ps: Sequence[str] = P) -> str:
    """TypePad: the entry, its footer's byline, then the weblogs that link to it (trackbacks, with their excerpts) and comments."""
    comments = "".join(
        f'<div class="comment" id="c{i}"><div class="comment-content"><p>{c}</p></div><p class="comment-footer">Posted by: <a>Reader {i}</a> | March {i + 4}, 2024 at 09:1{i} AM</p></div>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"Old Houses: {TITLE}",
        f"""
<div id="container"><div id="container-inner"><div id="banner"><div id="banner-inner"><h1 id="banner-header"><a href="/">Old Houses</a></h1><h2 id="banner-description">Glass, putty and patience</h2></div></div>
<div id="pagebody"><div id="pagebody-inner"><div id="alpha"><div id="alpha-inner">
<div class="entry-category-garden entry-author-sam entry-type-post entry" id="entry-6a00e55"><h3 class="entry-header">{TITLE}</h3><div class="entry-content"><div class="entry-body">{paras(ps)}</div></div>
<div class="entry-footer"><p class="entry-footer-info"><span class="post-footers">Posted by Sam on March 03, 2024 at 10:41 AM in <a>Garden</a></span> <span class="separator">|</span> <a class="permalink">Permalink</a></p></div></div>
<div class="trackbacks"><h3 class="trackbacks-header">TrackBack</h3><div class="trackbacks-info"><p>TrackBack URL for this entry:<br><span class="trackbacks-link">http://www.typepad.com/services/trackback/6a00e5503c889888</span></p><p>Listed below are links to weblogs that reference <a>{TITLE}</a>:</p></div>
<div class="trackbacks-content"><div class="trackback" id="trackback-1"><div class="trackback-content"><p>» <a>Our own glasshouse</a> from Green Fingers<br>{TRACKBACK}</p></div><p class="trackback-footer">Tracked on March 5, 2024 at 08:12:40 AM</p></div></div></div>
<div class="comments"><h3 class="comments-header">Comments</h3><div class="comments-content">{comments}</div></div>
</div></div><div id="beta"><div id="beta-inner"><div class="module-about module"><h2 class="module-header">About</h2><div class="module-content"><p>{ABOUT}</p></div></div></div></div></div></div>
<div id="footer"><p>Powered by <a>TypePad</a></p></div></div></div>""",
    )


def devto(ps: Sequence[str] = P) -> str:
    """dev.to (Forem): the article, a comment tree, linked "read next" cards and the author's card in a sidebar."""
    comments = "".join(
        f'<div class="comment single-comment-node root comment--deep-0" id="comment-node-{i}"><div class="comment__inner"><div class="comment__details"><a class="comment__author-name">Reader {i}</a> <time>Mar {i + 4}</time></div><div class="comment__body text-styles body"><p>{c}</p></div><footer class="comment__footer"><button>Like</button><button>Reply</button></footer></div></div>'
        for i, c in enumerate(COMMENTS)
    )
    return page(
        f"{TITLE} - DEV Community",
        f"""
<header class="crayons-header"><a class="site-logo" href="/">DEV Community</a><form><input placeholder="Search..."></form><a>Log in</a><a>Create account</a></header>
<div class="crayons-layout crayons-layout--3-cols"><aside class="crayons-layout__sidebar-left" aria-label="Article actions"><div class="crayons-article-actions"><button>Like 42</button><button>Comments 4</button><button>Save</button></div></aside>
<main id="main-content" class="crayons-layout__content"><div class="article-wrapper"><article class="crayons-card crayons-article mb-4" id="article-show-container" data-article-id="1234">
<header class="crayons-article__header" id="main-title"><div class="crayons-article__subheader"><a class="crayons-link fw-bold">Sam Hollis</a> <span class="fs-xs color-base-60">Posted on <time datetime="2024-03-03T10:41:00Z">Mar 3</time></span></div><h1 class="fs-3xl">{TITLE}</h1><div class="spec__tags"><a class="crayons-tag">#diy</a><a class="crayons-tag">#gardening</a></div></header>
<div class="crayons-article__main"><div class="crayons-article__body text-styles spec__body" data-article-id="1234" id="article-body">{paras(ps)}</div></div></article>
<section id="comments" class="text-padding mb-4 crayons-card comments-container"><header><h2 class="crayons-subtitle-1">Top comments (4)</h2></header><div class="comments" id="comment-trees-container">{comments}</div></section>
<section class="crayons-card crayons-card--secondary"><h2>Read next</h2>{"".join(f'<a class="crayons-link" href="/sam/next"><div><h4>{t}</h4><p>{d}</p></div></a>' for t, d in RELATED)}</section></div></main>
<aside class="crayons-layout__sidebar-right"><div class="crayons-card"><div class="crayons-card__header"><a>Sam Hollis</a></div><div class="crayons-card__body"><p>{ABOUT}</p></div><button>Follow</button></div></aside></div>
<footer class="crayons-footer"><p>DEV Community — A constructive and inclusive social network for software developers. With you every step of your journey.</p><p>Built on Forem — the open source software that powers DEV and other inclusive communities.</p><p>Made with love and Ruby on Rails. DEV Community © 2016 - 2024.</p></footer>""",
    )


PLATFORMS: dict[str, Callable[[Sequence[str]], str]] = {
    "substack": substack,
    "ghost": ghost,
    "medium": medium,
    "blogger": blogger,
    "wordpress blocks": wp_block,
    "jekyll": jekyll,
    "squarespace": squarespace,
    "wordpress jetpack": jetpack,
    "tumblr": tumblr,
    "typepad": typepad,
    "dev.to": devto,
}
LENGTHS = {"six paragraphs": 6, "two paragraphs": 2, "one paragraph": 1}
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def cases() -> list[object]:
    return [
        pytest.param(
            name,
            count,
            id=f"{name}, {length}",
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[(name, length)])]
            if (name, length) in KNOWN_FAILURES
            else [],
        )
        for name in PLATFORMS
        for length, count in LENGTHS.items()
    ]


@pytest.mark.parametrize(("platform", "paragraphs"), cases())
def test_the_post_and_only_the_post_is_kept(platform: str, paragraphs: int) -> None:
    post = P[:paragraphs]
    article = extract(PLATFORMS[platform](post).encode(), "https://blog.example.org/post")
    assert article.title == TITLE
    assert article.body == "\n".join(post)


@pytest.mark.parametrize("platform", ["wordpress blocks", "jekyll", "wordpress jetpack"])
def test_the_posts_own_time_is_read_from_its_markup(platform: str) -> None:
    article = extract(PLATFORMS[platform](P).encode(), "https://blog.example.org/post")
    published = article.metadata.published
    assert published is not None and published.isoformat() == "2024-03-03T10:41:00+00:00"


@pytest.mark.parametrize(
    ("platform", "author"),
    [("ghost", "Sam Hollis"), ("jekyll", "Sam Hollis"), ("wordpress jetpack", "Sam Hollis")],
)
def test_the_byline_names_the_writer(platform: str, author: str) -> None:
    article = extract(PLATFORMS[platform](P).encode(), "https://blog.example.org/post")
    assert article.metadata.author == author
