"""Self-media articles: the publish time and the account name come from script state.

WeChat official-account articles, Baijiahao and Toutiao-style pages fill their visible byline
from script, so the page as fetched has no date or author in its text. These pages are
written here in the shape those platforms ship (script variables, JSON state).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from newscrawl.extract import extract
from newscrawl.extract.metadata import SHANGHAI
from newscrawl.extract.metadata.scripts import (
    STATE_AUTHOR_KEYS,
    PageScripts,
    ScriptTimestamps,
    state_author_names,
)

PARAGRAPH = (
    "记者从市交通运输局获悉，本市今年将新开通三条公交线路，进一步方便市民出行。新线路覆盖"
    "城东新区、高新园区和大学城，预计日均客流量将超过五万人次，有效缓解早晚高峰的交通压力。"
)
BODY = f"<p>{PARAGRAPH}</p>" * 4
FETCHED = datetime(2023, 12, 1, 10, 0, tzinfo=SHANGHAI)

WECHAT = f"""<html><head><meta charset="utf-8"><title>本市新开三条公交线路</title>
<meta property="og:title" content="本市新开三条公交线路"></head><body>
<div id="img-content"><h1 class="rich_media_title" id="activity-name">本市新开三条公交线路</h1>
<div id="meta_content" class="rich_media_meta_list">
<span class="rich_media_meta rich_media_meta_nickname" id="profileBt">
<a href="javascript:void(0);" id="js_name"> 城市交通 </a></span>
<em id="publish_time" class="rich_media_meta rich_media_meta_text"></em></div>
<div class="rich_media_content" id="js_content">{BODY}</div></div>
<script>
var biz = "MzA3MDM3NjE5NQ==" || "";
var user_name = "gh_0123456789ab";
var nickname = htmlDecode("城市交通");
var ct = "1701226200";
var publish_time = "2023-11-29" || "";
var msg_title = '本市新开三条公交线路'.html(false);
</script></body></html>"""

BAIJIAHAO = f"""<html><head><meta charset="utf-8"><title>本市新开三条公交线路</title>
</head><body><div id="ssr-content"><div class="article-title"><h2>本市新开三条公交线路</h2>
</div><div class="article-source"><span class="date"></span></div>
<div class="article-content">{BODY}</div></div>
<script>window.jsonData = {{"bsData":{{"header":{{"title":"本市新开三条公交线路",
"author":{{"id":"1612345678901234","name":"城市交通","type":"media","verified":true}},
"publishTime":"2023-11-29 10:50:00","dt":"11-29"}},"comment":{{"count":12}}}}}};</script>
</body></html>"""

TOUTIAO = f"""<html><head><meta charset="utf-8"><title>本市新开三条公交线路 - 今日头条</title>
</head><body><div class="article-content"><h1>本市新开三条公交线路</h1>
<div class="article-meta"></div><article>{BODY}</article></div>
<script>window._SSR_HYDRATED_DATA={{"articleInfo":{{"title":"本市新开三条公交线路",
"mediaUser":{{"id":"6612345678"}},"mediaName":"城市交通","publishTime":1701226200,
"readCount":3021,"itemId":"7306000000000000000"}}}};</script></body></html>"""


@pytest.mark.parametrize(
    ("page", "published"),
    [
        (WECHAT, datetime(2023, 11, 29, 10, 50, tzinfo=SHANGHAI)),
        (BAIJIAHAO, datetime(2023, 11, 29, 10, 50, tzinfo=SHANGHAI)),
        (TOUTIAO, datetime(2023, 11, 29, 10, 50, tzinfo=SHANGHAI)),
    ],
    ids=["wechat", "baijiahao", "toutiao"],
)
def test_self_media_time_and_account_come_from_script_state(page: str, published: datetime) -> None:
    article = extract(page.encode(), "https://example.com/s/1", fetched_at=FETCHED)
    meta = article.metadata
    assert (meta.published, meta.published_precision) == (published, "second")
    assert meta.published is not None
    assert meta.published.utcoffset() == timedelta(hours=8)  # the page's clock, not UTC
    assert meta.published_source == "script"
    assert meta.author == "城市交通"
    assert PARAGRAPH in article.body


@pytest.mark.parametrize(
    ("script", "seconds"),
    [
        ('var ct = "1701226200";', [1701226200]),
        ("ct=1701226200", [1701226200]),  # at the start of the script
        ('function f(){} {"publishTime":1701226300,"ct":1701226200}', [1701226300, 1701226200]),
        ('{"publishTime":1701226200123,"x":1}', [1701226200.123]),
        ('{"createTime": 946684799}', []),  # before 2000: a counter, not a time
        ('var act = "1701226200";', []),  # another name that ends in "ct"
        ('data.ct = "1701226200"', []),  # a property of some other object
        ('var ct = "17012262001";', []),  # eleven digits: no Unix time
    ],
)
def test_unix_times_in_scripts(script: str, seconds: list[float]) -> None:
    names = ("ct", "publishTime", "createTime")
    variables = ScriptTimestamps(names)
    times = [
        value
        for text, held in PageScripts([script], names).holding(names)
        for value in variables.values(text, held)
    ]
    assert [value.timestamp() for value in times] == seconds


def test_author_objects_of_json_state() -> None:
    def names(script: str) -> list[str]:
        scripts = PageScripts([script], tuple(STATE_AUTHOR_KEYS))
        return [
            name
            for text, held in scripts.holding(STATE_AUTHOR_KEYS)
            for name in state_author_names(text, held)
        ]

    assert names('{"author":{"id":7,"name":"央视新闻"},"related":[{"name":"别的"}]}') == [
        "央视新闻"
    ]
    assert names('{"name":"央视新闻"}') == []  # not an author's object


def test_an_article_s_named_author_beats_the_account_in_script_state() -> None:
    """A WeChat article names its writer in its author meta; the account that publishes it
    is the source, and its nickname the author only where the page names no one."""
    page = WECHAT.replace("<meta property", '<meta name="author" content="张三"><meta property')
    meta = extract(page.encode(), "https://example.com/s/1", fetched_at=FETCHED).metadata
    assert (meta.author, meta.evidence["author"]) == ("张三", "meta")
    assert (meta.source, meta.evidence["source"]) == ("城市交通", "script account")
