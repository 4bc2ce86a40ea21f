"""Link discovery of the site spiders, offline: saved listing pages against their gold links,
and hand-built feeds, sitemaps and list-API responses (tests/fixtures/discovery/)."""

from __future__ import annotations

import asyncio
import csv
import gzip
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import CloseSpider
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from site_fixtures import (
    ARTICLE_REQUESTS,
    article_response,
    fixture_response,
    make_spider,
    stats,
)
from twisted.internet.error import TimeoutError as TwistedTimeoutError
from twisted.python.failure import Failure

from newscrawl.crawl_contract import FOUND_ON
from newscrawl.discovery import MalformedListError, parse_datetime, parse_feed, parse_sitemap
from newscrawl.discovery.xml import refused_entities
from newscrawl.items import RawPage
from newscrawl.spiders.site import SiteSpider

SHANGHAI = timezone(timedelta(hours=8))
SINCE = "2026-11-01"

LISTINGS = [
    ("cnblogs", 1),
    ("csdn", 1),
    ("netease", 1),
    ("netease", 2),
    ("netease", 3),
    ("sina", 1),
    ("sinablog", 1),
    ("sohu", 1),
    ("sohu", 2),
]
"""Every saved listing page with gold links (people and xinhua have none saved)."""

FOLLOWED = {
    "cnblogs": "the site home's pagination, /sitehome/p/<n>",
    "csdn": "the blog's column (category_<id>) pages, whose lists hold more posts",
    "netease": "the per-channel rank tables (rank_<channel>.html) and the domestic/world channels",
    "sina": "the news channel front pages (news.sina.com.cn/china|world|society/)",
    "sinablog": "the article list's own pagination (articlelist_<uid>_0_<n>)",
}
"""Why a site's spider follows non-article links of a listing (its `urls.follow` patterns).
Sohu follows none: its home page links straight to articles."""

EXPLAINED_EXTRA_ARTICLES: dict[str, str] = {}
"""Article links a spider yields that the gold lacks, with the reason. None at present."""


def discover(spider: SiteSpider, response: Response) -> tuple[list[str], list[str]]:
    """The article URLs and the followed listing URLs a listing page yields."""
    requests = list(spider.parse(response))
    articles = [r.url for r in requests if r.callback == spider.parse_article]
    followed = [r.url for r in requests if r.callback == spider.parse]
    assert len(articles) + len(followed) == len(requests)
    return articles, followed


def page_url(shared_dir: Path, site: str, number: int) -> str:
    """The listing's URL, from the gold file, checked against MANIFEST.tsv."""
    gold = json.loads(
        (shared_dir / f"datasets/sites/gold/{site}-listing-{number}.links.json").read_text()
    )
    with (shared_dir / "datasets/sites/pages/MANIFEST.tsv").open(encoding="utf-8") as handle:
        rows = {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}
    manifest_url = rows[f"{site}/listing-{number}.html"]["page_url_if_known"]
    assert manifest_url.startswith(gold["page_url"])
    return gold["page_url"]


@pytest.mark.parametrize(("site", "number"), LISTINGS)
def test_listing_discovery_finds_every_gold_link(shared_dir: Path, site: str, number: int) -> None:
    gold = json.loads(
        (shared_dir / f"datasets/sites/gold/{site}-listing-{number}.links.json").read_text()
    )
    body = (shared_dir / f"datasets/sites/pages/{site}/listing-{number}.html").read_bytes()
    spider = make_spider(site)
    response = HtmlResponse(page_url(shared_dir, site, number), body=body)

    articles, followed = discover(spider, response)

    missing = [link for link in gold["links"] if link not in set(articles)]
    assert missing == [], f"{len(missing)} of {len(gold['links'])} gold links not found"
    extra = set(articles) - set(gold["links"])
    assert extra <= set(EXPLAINED_EXTRA_ARTICLES), sorted(extra)[:10]
    if followed:
        assert site in FOLLOWED, f"{site} follows {followed[:5]} without a reason"
    for url in followed:
        assert spider.site.is_followed(url)
        assert not spider.site.is_article(url)


def test_listing_links_are_found_on_the_listing(shared_dir: Path) -> None:
    body = (shared_dir / "datasets/sites/pages/cnblogs/listing-1.html").read_bytes()
    spider = make_spider("cnblogs")
    requests = list(spider.parse(HtmlResponse("https://www.cnblogs.com/", body=body)))
    assert {r.meta.get(FOUND_ON) for r in requests if r.callback == spider.parse_article} == {
        "https://www.cnblogs.com/"
    }
    assert "https://www.cnblogs.com/sitehome/p/2" in {r.url for r in requests}


def test_listing_drops_tracking_parameters_fragments_and_other_domains() -> None:
    body = b"""<html><body>
    <a href="/a/433320600_429139?spm=smpc.home.top-news1.1.1&scm=1002.0&_f=index#comment">a</a>
    <a href="https://www.sohu.com/a/433320600_429139">same article</a>
    <a href="https://www.example.com/a/1_2">not Sohu</a>
    <a href="https://www.sohu.com/picture/123">gallery</a>
    <a href="https://www.sohu.com/a/433320601_429139%C2%A0">trailing nbsp</a>
    <a href="https://www.sohu.com/a/433320602_429139\xc2\xa0">raw nbsp</a>
    </body></html>"""
    spider = make_spider("sohu")
    response = HtmlResponse("https://www.sohu.com/", body=body, encoding="utf-8")
    articles, followed = discover(spider, response)
    assert set(articles) == {
        "https://www.sohu.com/a/433320600_429139",
        "https://www.sohu.com/a/433320602_429139",
    }
    assert followed == []


def test_gbk_listing_is_read_with_the_extractor_rules() -> None:
    html = '<html><head><meta charset="gb2312"><title>排行榜</title></head><body>'
    html += '<a href="https://news.163.com/20/0704/01/FGH7QDAD0001899O.html">美国新冠肺炎</a>'
    spider = make_spider("netease")
    response = HtmlResponse(
        "https://news.163.com/special/0001386F/rank_whole.html", body=html.encode("gbk")
    )
    articles, _ = discover(spider, response)
    assert articles == ["https://news.163.com/20/0704/01/FGH7QDAD0001899O.html"]


API_CASES = [
    pytest.param(
        "sina",
        "sina_roll",
        "sina_roll.json",
        "https://feed.mix.sina.com.cn/api/roll/get?pageid=153&lid=2509&k=&num=50&page=1",
        [
            "https://news.sina.com.cn/c/2026-11-02/doc-inausehc2630922.shtml",
            "https://news.sina.com.cn/w/2026-11-01/doc-inavmmfi1968342.shtml",
        ],
        {"newscrawl/discovery/too_old": 1, "newscrawl/discovery/not_article": 1},
        id="sina-roll-json",
    ),
    pytest.param(
        "sina",
        "sina_roll",
        "sina_roll.jsonp",
        "https://feed.mix.sina.com.cn/api/roll/get?pageid=153&lid=2509&callback=jQuery1",
        ["https://news.sina.com.cn/c/2026-11-02/doc-inausehc2630922.shtml"],
        {},
        id="sina-roll-jsonp",
    ),
    pytest.param(
        "netease",
        "netease_jsonp",
        "netease_yaowen.jsonp",
        "https://news.163.com/special/cm_yaowen20200213/?callback=data_callback",
        ["https://www.163.com/news/article/KC12OUHK000189FH.html"],
        {"newscrawl/discovery/too_old": 1, "newscrawl/discovery/not_article": 1},
        id="netease-jsonp",
    ),
    pytest.param(
        "xinhua",
        "xinhua_datasource",
        "xinhua_ds.json",
        "https://www.news.cn/ds_9b2ae7a0d5074ed4a4d8d1d0c2ad1ad2.json",
        [
            "https://www.news.cn/politics/leaders/20261102/3dd6e33cc6d749fbaae01fea337ff400/c.html",
            "http://www.he.news.cn/20261101/d59c39d4160a4fe4b3084c3e4abfb450/c.html",
        ],
        {},
        id="xinhua-datasource",
    ),
    pytest.param(
        "csdn",
        "csdn_business_list",
        "csdn_business_list.json",
        "https://blog.csdn.net/community/home-api/v1/get-business-list?page=1&username=sereasuesue",
        ["https://blog.csdn.net/sereasuesue/article/details/143888439"],
        {"newscrawl/discovery/too_old": 1},
        id="csdn-business-list",
    ),
    pytest.param(
        "csdn",
        "csdn_hot_rank",
        "csdn_hot_rank.json",
        "https://blog.csdn.net/phoenix/web/blog/hot-rank?page=0&pageSize=30",
        [
            "https://blog.csdn.net/user_one/article/details/143000001",
            "https://blog.csdn.net/user-two/article/details/143000002",
        ],
        {},
        id="csdn-hot-rank-undated",
    ),
]


@pytest.mark.parametrize(("site", "parser", "fixture", "url", "expected", "counted"), API_CASES)
def test_list_api_entries_become_article_requests(
    site: str, parser: str, fixture: str, url: str, expected: list[str], counted: dict[str, int]
) -> None:
    spider = make_spider(site, since=SINCE)
    requests = list(spider.parse_api(fixture_response(url, fixture), parser=parser))
    assert [r.url for r in requests] == expected
    assert all(r.callback == spider.parse_article for r in requests)
    assert all(r.meta[FOUND_ON] == url for r in requests)
    assert stats(spider) == counted
    assert spider.crawler.stats.get_value(ARTICLE_REQUESTS, 0) == len(requests)


@pytest.mark.parametrize(
    ("site", "parser", "fixture"),
    [
        ("sina", "sina_roll", "sina_roll_error.json"),
        ("sina", "sina_roll", "netease_yaowen.jsonp"),
        ("netease", "netease_jsonp", "truncated.jsonp"),
        ("xinhua", "xinhua_datasource", "sina_roll.json"),
        ("csdn", "csdn_business_list", "not_a_feed.xml"),
    ],
)
def test_malformed_list_api_response_is_counted_not_raised(
    site: str, parser: str, fixture: str
) -> None:
    spider = make_spider(site)
    response = fixture_response("https://example.invalid/list", fixture)
    assert list(spider.parse_api(response, parser=parser)) == []
    assert stats(spider) == {f"newscrawl/discovery/malformed/api/{parser}": 1}


def test_list_api_answering_with_a_non_text_content_type_is_still_read() -> None:
    body = (Path(__file__).parent / "fixtures/discovery/sina_roll.json").read_bytes()
    response = Response("https://feed.mix.sina.com.cn/api/roll/get?page=1", body=body)
    spider = make_spider("sina")
    assert len(list(spider.parse_api(response, parser="sina_roll"))) == 3


def test_rss_feed_in_gb2312_gives_recent_article_entries() -> None:
    spider = make_spider("people", since=SINCE)
    response = fixture_response(
        "http://www.people.com.cn/rss/politics.xml", "people_politics.rss", "text/xml"
    )
    requests = list(spider.parse_feed(response))
    assert [r.url for r in requests] == [
        "http://politics.people.com.cn/n1/2026/1102/c1001-40223222.html",
        "http://js.people.com.cn/n2/2026/1101/c360300-40223223.html",
    ]
    assert stats(spider) == {"newscrawl/discovery/too_old": 1, "newscrawl/discovery/not_article": 1}


def test_atom_feed_entries_use_the_alternate_link() -> None:
    spider = make_spider("cnblogs", since=SINCE)
    response = fixture_response("https://www.cnblogs.com/good-looking-hk/rss", "cnblogs.atom")
    assert [r.url for r in spider.parse_feed(response)] == [
        "https://www.cnblogs.com/good-looking-hk/p/18182241"
    ]


def test_malformed_feed_is_counted() -> None:
    spider = make_spider("people")
    response = fixture_response("http://www.people.com.cn/rss/x.xml", "not_a_feed.xml")
    assert list(spider.parse_feed(response)) == []
    assert stats(spider) == {"newscrawl/discovery/malformed/rss": 1}


def test_sitemap_index_follows_child_sitemaps_changed_since() -> None:
    spider = make_spider("people", since=SINCE)
    response = fixture_response(
        "http://www.people.cn/sitemap_index.xml", "people_sitemap_index.xml", "text/xml"
    )
    requests = list(spider.parse_sitemap(response))
    assert [r.url for r in requests] == [
        "http://www.people.cn/sitemap/politics_20261102.xml",
        "http://www.people.cn/sitemap/static.xml",
    ]
    assert all(r.callback == spider.parse_sitemap for r in requests)


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "gzip"])
def test_sitemap_pages_filtered_by_lastmod_and_article_pattern(compress: bool) -> None:
    spider = make_spider("people", since=SINCE)
    body = (Path(__file__).parent / "fixtures/discovery/people_sitemap.xml").read_bytes()
    url = "http://www.people.cn/sitemap/politics_20261102.xml"
    if compress:
        url, body = url + ".gz", gzip.compress(body)
    response = Response(url, body=body)
    requests = list(spider.parse_sitemap(response))
    assert [r.url for r in requests] == [
        "http://politics.people.com.cn/n1/2026/1102/c1001-40223222.html",
        "http://politics.people.com.cn/n1/2026/1101/c1001-40223300.html",
    ]
    assert stats(spider) == {"newscrawl/discovery/too_old": 1, "newscrawl/discovery/not_article": 1}


def test_robots_txt_entry_stands_for_its_sitemaps() -> None:
    spider = make_spider("people")
    robots = (
        b"User-agent: *\nDisallow: /cgi-bin/\nSitemap: http://www.people.cn/sitemap_index.xml\n"
    )
    response = TextResponse("http://www.people.cn/robots.txt", body=robots, encoding="utf-8")
    requests = list(spider.parse_sitemap(response))
    assert [(r.url, r.callback) for r in requests] == [
        ("http://www.people.cn/sitemap_index.xml", spider.parse_sitemap)
    ]


def test_malformed_sitemap_is_counted() -> None:
    spider = make_spider("people")
    response = Response("http://www.people.cn/sitemap.xml.gz", body=b"\x1f\x8b not gzip at all")
    assert list(spider.parse_sitemap(response)) == []
    assert stats(spider) == {"newscrawl/discovery/malformed/sitemap": 1}


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"   \n",
        b"Service Unavailable",
        b"<html><body><p>not a sitemap</p></body></html>",
        (Path(__file__).parent / "fixtures/discovery/people_politics.rss").read_bytes(),
    ],
    ids=["empty", "blank", "text", "html", "a-feed"],
)
def test_a_sitemap_url_answering_something_else_is_counted(body: bytes) -> None:
    spider = make_spider("people")
    response = Response("http://www.people.cn/sitemap.xml", body=body)
    assert list(spider.parse_sitemap(response)) == []
    assert stats(spider) == {"newscrawl/discovery/malformed/sitemap": 1}


def test_gzip_sitemap_beyond_the_size_limit_is_refused() -> None:
    body = gzip.compress(b"<urlset>" + b" " * 2_000_000 + b"</urlset>")
    with pytest.raises(MalformedListError, match="bad gzip sitemap"):
        parse_sitemap(body, "http://www.people.cn/s.xml.gz", SHANGHAI, max_size=1_000_000)


def test_sitemap_links_are_resolved_and_empty_ones_dropped() -> None:
    body = b"""<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc> </loc></url><url><loc>/n1/2026/1102/c1001-1.html</loc></url>
    <url><loc>http://www.people.cn/a?id=1&type=2</loc></url>
    <url><loc><![CDATA[http://www.people.cn/b?id=1&type=2]]></loc></url></urlset>"""
    sitemap = parse_sitemap(body, "http://www.people.cn/sitemap.xml", SHANGHAI)
    assert [entry.url for entry in sitemap.entries] == [
        "http://www.people.cn/n1/2026/1102/c1001-1.html",
        "http://www.people.cn/a?id=1&type=2",
        "http://www.people.cn/b?id=1&type=2",
    ]


def test_a_gzipped_sitemap_declaring_entities_says_they_were_refused() -> None:
    body = gzip.compress(
        b'<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY host "www.people.cn">]>\n'
        b"<urlset><url><loc>http://www.people.cn/a.html</loc><lastmod>&host;</lastmod></url>"
        b"<url><loc>http://www.people.cn/b.html</loc></url></urlset>"
    )
    sitemap = parse_sitemap(body, "http://www.people.cn/s.xml.gz", SHANGHAI)
    assert sitemap.refused == "DTD entities not expanded (refused): host"
    assert [entry.url for entry in sitemap.entries] == [
        "http://www.people.cn/a.html",
        "http://www.people.cn/b.html",
    ]
    plain = parse_sitemap(gzip.decompress(body).split(b"]>\n", 1)[1], "http://a.cn/", SHANGHAI)
    assert plain.refused is None


def test_utf16_sitemap_is_read() -> None:
    text = (
        '<?xml version="1.0" encoding="UTF-16"?><urlset><url><loc>http://a.cn/a?b=1&amp;c=中</loc>'
    )
    body = (text + "</url></urlset>").encode("utf-16")
    assert [e.url for e in parse_sitemap(body, "http://a.cn/", SHANGHAI).entries] == [
        "http://a.cn/a?b=1&c=中"
    ]


def test_feed_links_with_a_bare_ampersand_stay_whole() -> None:
    body = b"""<rss version="2.0"><channel>
    <item><link>http://www.people.com.cn/a?id=1&type=2</link></item>
    <item><link>http://www.people.com.cn/b?id=1&amp;type=2</link>
    <description><![CDATA[<a href="/x?y=1&amp;z=2">&</a>]]></description></item>
    </channel></rss>"""
    entries = parse_feed(body, "http://www.people.com.cn/rss/x.xml", SHANGHAI)
    assert [entry.url for entry in entries] == [
        "http://www.people.com.cn/a?id=1&type=2",
        "http://www.people.com.cn/b?id=1&type=2",
    ]


async def collect(requests: AsyncIterator[Request]) -> list[Request]:
    return [request async for request in requests]


def test_configured_entry_points_start_the_crawl() -> None:
    spider = make_spider("sina")
    requests = asyncio.run(collect(spider.start()))
    api = [r for r in requests if r.callback == spider.parse_api]
    assert [r.url for r in api] == [
        f"https://feed.mix.sina.com.cn/api/roll/get?pageid=153&lid=2509&k=&num=50&page={page}"
        for page in (1, 2, 3)
    ]
    assert all(r.cb_kwargs == {"parser": "sina_roll"} for r in api)
    assert {r.url for r in requests if r.callback == spider.parse} == {
        "https://www.sina.com.cn/",
        "https://news.sina.com.cn/china/",
    }


def test_start_urls_argument_replaces_entry_points_and_sniffs_their_kind() -> None:
    article = "http://politics.people.com.cn/n1/2026/1102/c1001-40223222.html"
    spider = make_spider("people", start_urls=f"http://www.people.com.cn/rss/a.xml, {article}")
    requests = asyncio.run(collect(spider.start()))
    assert [(r.url, r.callback) for r in requests] == [
        ("http://www.people.com.cn/rss/a.xml", spider.parse_sniffed),
        (article, spider.parse_article),
    ]
    rss = fixture_response("http://www.people.com.cn/rss/a.xml", "people_politics.rss", "text/xml")
    assert len(list(spider.parse_sniffed(rss))) == 3
    sitemap = fixture_response("http://www.people.cn/s.xml", "people_sitemap.xml", "text/xml")
    assert len(list(spider.parse_sniffed(sitemap))) == 3
    html = HtmlResponse(
        "http://www.people.com.cn/GB/59476/index.html",
        body=f'<html><body><a href="{article}">x</a></body></html>'.encode(),
    )
    assert [r.url for r in spider.parse_sniffed(html)] == [article]


@pytest.mark.parametrize(
    ("argument", "value"), [("since", "yesterday"), ("max_pages", "0"), ("max_pages", "x")]
)
def test_bad_spider_arguments_fail_at_start(argument: str, value: str) -> None:
    with pytest.raises(ValueError, match=argument):
        make_spider("sohu", **{argument: value})


SOHU_PAGE = b"<html><head><title>t</title></head><body><p>text</p></body></html>"


def test_article_page_is_yielded_whole_with_where_it_was_found() -> None:
    spider = make_spider("sohu")
    response = article_response(
        "https://www.sohu.com/a/733320600_429139",
        SOHU_PAGE,
        found_on="https://www.sohu.com/",
        redirected_from="http://www.sohu.com/a/733320600_429139",
    )
    [page] = list(spider.parse_article(response))
    assert isinstance(page, RawPage)
    assert page.url == "http://www.sohu.com/a/733320600_429139"
    assert page.final_url == "https://www.sohu.com/a/733320600_429139"
    assert (page.status, page.body, page.site) == (200, SOHU_PAGE, "sohu")
    assert page.headers == {"Content-Type": ["text/html"]}
    assert page.referer == "https://www.sohu.com/"
    assert page.charset is None
    fetched = datetime.fromisoformat(page.fetched)
    assert fetched.tzinfo is not None and fetched <= datetime.now(UTC)


def test_pages_carry_the_site_charset_override(tmp_path: Path) -> None:
    bundled = Path(__file__).parents[1] / "newscrawl/configs/sites/sohu.toml"
    config = bundled.read_text(encoding="utf-8")
    (tmp_path / "sohu.toml").write_text('charset = "gb18030"\n' + config, encoding="utf-8")
    spider = make_spider("sohu", settings={"NEWSCRAWL_SITES_DIR": str(tmp_path)})
    url = "https://www.sohu.com/a/733320600_429139"
    [page] = list(spider.parse_article(article_response(url, SOHU_PAGE)))
    assert page.charset == "gb18030"


def test_pages_carry_the_site_time_zone(tmp_path: Path) -> None:
    bundled = Path(__file__).parents[1] / "newscrawl/configs/sites/sohu.toml"
    config = bundled.read_text(encoding="utf-8")
    (tmp_path / "sohu.toml").write_text('timezone = "Europe/Berlin"\n' + config, encoding="utf-8")
    url = "https://www.sohu.com/a/733320600_429139"
    configured = make_spider("sohu", settings={"NEWSCRAWL_SITES_DIR": str(tmp_path)})
    [page] = list(configured.parse_article(article_response(url, SOHU_PAGE)))
    [default] = list(make_spider("sohu").parse_article(article_response(url, SOHU_PAGE)))
    assert (page.timezone, default.timezone) == ("Europe/Berlin", "Asia/Shanghai")


def test_non_article_pages_are_not_yielded() -> None:
    spider = make_spider("sohu")
    redirected_home = article_response(
        "https://www.sohu.com/", SOHU_PAGE, redirected_from="https://www.sohu.com/a/1_2"
    )
    binary = Response("https://www.sohu.com/a/1_2", body=b"\x89PNG\r\n\x1a\n\x00\x00")
    pdf = TextResponse(
        "https://www.sohu.com/a/1_3", body=b"%PDF-1.4", headers={"Content-Type": "application/pdf"}
    )
    for response in (redirected_home, binary, pdf):
        assert list(spider.parse_article(response)) == []
    assert list(spider.parse(pdf)) == []
    assert stats(spider) == {
        "newscrawl/skipped/redirected_off_pattern": 1,
        "newscrawl/skipped/not_html/png": 1,
        "newscrawl/skipped/not_html/pdf": 2,
    }


def test_max_pages_closes_the_spider_after_that_many_article_pages() -> None:
    spider = make_spider("sohu", max_pages="2")
    pages = [article_response(f"https://www.sohu.com/a/{n}_1", SOHU_PAGE) for n in (1, 2, 3)]
    assert len(list(spider.parse_article(pages[0]))) == 1
    second: list[Any] = []
    with pytest.raises(CloseSpider) as closed:
        second.extend(spider.parse_article(pages[1]))
    assert closed.value.reason == "max_pages"
    assert len(second) == 1
    assert list(spider.parse_article(pages[2])) == []
    assert stats(spider) == {"newscrawl/skipped/max_pages": 1}


def test_failed_requests_are_counted_by_reason() -> None:
    spider = make_spider("sohu")
    request = Request("https://www.sohu.com/a/1_2")
    not_found = Failure(HttpError(TextResponse(request.url, status=404, request=request)))
    timeout = Failure(TwistedTimeoutError())
    for failure in (not_found, timeout):
        failure.request = request  # type: ignore[attr-defined]  # as Scrapy sets it
        spider.on_error(failure)
    assert stats(spider) == {"newscrawl/failed/http_404": 1, "newscrawl/failed/TimeoutError": 1}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1793583000, datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("1793583000", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("1793583000000", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("2026-11-02 09:30:00", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("2026-11-02T01:30:00Z", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("11/02/2026 09:30:00", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("Mon, 02 Nov 2026 09:30:00 +0800", datetime(2026, 11, 2, 9, 30, tzinfo=SHANGHAI)),
        ("2026-11-02", datetime(2026, 11, 2, tzinfo=SHANGHAI)),
        ("", None),
        ("昨天", None),
        (None, None),
        (True, None),
    ],
)
def test_list_dates_are_read_leniently(value: object, expected: datetime | None) -> None:
    assert parse_datetime(value, SHANGHAI) == expected


@pytest.mark.parametrize(
    ("body", "refused"),
    [
        (b'\xef\xbb\xbf<?xml version="1.0"?><?xml-stylesheet href="s.xsl"?>\n', "x"),
        (b"<!-- a comment <!DOCTYPE x [<!ENTITY y 'z'>]> -->\n<!-- " + b"-" * 9000 + b" -->", "x"),
        (b"<rss><![CDATA[", None),  # a DOCTYPE in the content is no DTD
        (b"<!-- never closed ", None),
        (b'<!DOCTYPE rss SYSTEM "rss.dtd"><rss><![CDATA[', None),  # no internal subset
    ],
)
def test_refused_entities_are_found_in_the_dtd_only(body: bytes, refused: str | None) -> None:
    document = body + b'<!DOCTYPE rss [<!ENTITY x "y">]><rss/>'
    expected = refused and f"DTD entities not expanded (refused): {refused}"
    assert refused_entities(document) == expected


def test_a_gzip_sitemap_with_corrupt_data_is_counted() -> None:
    body = b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' + (
        b"<url><loc>http://www.people.cn/n1/2026/1101/c1001-1.html</loc></url>" * 20
    )
    data = bytearray(gzip.compress(body + b"</urlset>", mtime=0))
    data[10:16] = b"\xff" * 6  # the deflate stream, past the gzip header
    spider = make_spider("people")
    response = Response("http://www.people.cn/sitemap.xml.gz", body=bytes(data))
    assert list(spider.parse_sitemap(response)) == []
    assert stats(spider) == {"newscrawl/discovery/malformed/sitemap": 1}


def test_a_feed_using_an_undeclared_dublin_core_prefix_is_read() -> None:
    body = b"""<?xml version="1.0"?><rss version="2.0"><channel><item>
    <title>t</title><dc:date>2026-11-02T08:30:00+08:00</dc:date>
    <link>http://www.people.com.cn/n1/2026/1102/c1001-2.html</link></item></channel></rss>"""
    [entry] = parse_feed(body, "http://www.people.com.cn/rss/politics.xml", SHANGHAI)
    assert entry.url == "http://www.people.com.cn/n1/2026/1102/c1001-2.html"
    assert entry.published == datetime(2026, 11, 2, 8, 30, tzinfo=SHANGHAI)


GOOD_LINK = "http://www.people.com.cn/n1/2026/1102/c1001-2.html"
UNREADABLE_LINKS = [
    "http://[www.people.com.cn/n1/2026/1102/c1001-3.html",
    "http://www.people.com.cn:99999/n1/2026/1102/c1001-4.html",
]
"""An unclosed IPv6 bracket (``urljoin`` and ``urlsplit`` raise) and a port out of range
(``Request`` raises)."""


def _listing(kind: str, bad: str) -> Response:
    """A feed, sitemap or HTML listing holding the `bad` link before a good one."""
    url = "http://www.people.com.cn/list"
    if kind == "rss":
        items = "".join(f"<item><link>{link}</link></item>" for link in (bad, GOOD_LINK))
        return Response(url, body=f"<rss><channel>{items}</channel></rss>".encode())
    if kind == "sitemap":
        urls = "".join(f"<url><loc>{link}</loc></url>" for link in (bad, GOOD_LINK))
        xmlns = "http://www.sitemaps.org/schemas/sitemap/0.9"
        return Response(url, body=f'<urlset xmlns="{xmlns}">{urls}</urlset>'.encode())
    anchors = "".join(f'<a href="{link}">link</a>' for link in (bad, GOOD_LINK))
    return HtmlResponse(url, body=f"<html><body>{anchors}</body></html>".encode(), encoding="utf-8")


@pytest.mark.parametrize("bad", UNREADABLE_LINKS, ids=["bracket", "port"])
@pytest.mark.parametrize("kind", ["rss", "sitemap", "html"])
def test_a_link_no_url_parser_reads_is_counted_and_the_list_read_on(kind: str, bad: str) -> None:
    spider = make_spider("people")
    parse = {"rss": spider.parse_feed, "sitemap": spider.parse_sitemap, "html": spider.parse}
    requests = list(parse[kind](_listing(kind, bad)))
    assert [request.url for request in requests] == [GOOD_LINK]
    skipped = stats(spider).get("newscrawl/discovery/unreadable_url", 0)
    assert skipped == (0 if kind == "html" else 1)  # Scrapy's link extractor drops it first


def test_a_listing_whose_base_href_no_parser_reads_resolves_against_its_own_url() -> None:
    spider = make_spider("people")
    body = b'<html><head><base href="http://[www.people.com.cn/"></head><body>'
    body += b'<a href="/n1/2026/1102/c1001-2.html">two</a></body></html>'
    response = HtmlResponse("http://www.people.com.cn/list", body=body, encoding="utf-8")
    assert discover(spider, response) == ([GOOD_LINK], [])
    assert stats(spider) == {"newscrawl/discovery/unreadable_base": 1}


@pytest.mark.parametrize(
    "body",
    [
        b'{"items": [{"url": "/n1/2026/1102/c1001-2.html"}]}',
        b'<a href="/n1/2026/1102/c1001-2.html">',
    ],
    ids=["json", "html"],
)
def test_a_listing_served_as_plain_text_is_read_as_html(body: bytes) -> None:
    """Scrapy reads a text/plain body that looks like JSON as JSON, whose root the link
    extractor cannot walk; a listing is HTML whatever its type says."""
    spider = make_spider("people")
    headers = {"Content-Type": "text/plain"}
    response = TextResponse("http://www.people.com.cn/list", body=body, headers=headers)
    assert discover(spider, response) == ([] if body.startswith(b"{") else [GOOD_LINK], [])
