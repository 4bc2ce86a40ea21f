"""Canonical URLs: the variants of one article link collapse to one key."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from newscrawl.urls import Canonicalizer

canonical = Canonicalizer()


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("https://news.sina.com.cn/c/doc-iabc.shtml", "https://news.sina.com.cn/c/doc-iabc.shtml"),
        ("http://news.sina.com.cn/c/doc-iabc.shtml", "https://news.sina.com.cn/c/doc-iabc.shtml"),
        (
            "HTTPS://NEWS.SINA.COM.CN:443/c/doc-iabc.shtml",
            "https://news.sina.com.cn/c/doc-iabc.shtml",
        ),
        (
            "https://news.sina.com.cn/c/doc-iabc.shtml#comments",
            "https://news.sina.com.cn/c/doc-iabc.shtml",
        ),
        (
            "https://news.sina.com.cn/c/doc-iabc.shtml?from=wap",
            "https://news.sina.com.cn/c/doc-iabc.shtml",
        ),
        ("https://www.sohu.com/a/1?spm=smpc.home.1&scm=9.0", "https://www.sohu.com/a/1"),
        ("https://x.cn/p?utm_source=wx&utm_medium=s&id=7", "https://x.cn/p?id=7"),
        ("https://x.cn/p?b=2&a=1", "https://x.cn/p?a=1&b=2"),
        (
            "https://x.cn/中文/页?q=新闻",
            "https://x.cn/%E4%B8%AD%E6%96%87/%E9%A1%B5?q=%E6%96%B0%E9%97%BB",
        ),
        ("https://x.cn", "https://x.cn/"),
        ("http://x.cn:8080/p", "https://x.cn:8080/p"),
    ],
)
def test_variants_collapse(variant: str, expected: str) -> None:
    assert canonical(variant) == expected


def test_meaningful_parameters_stay() -> None:
    assert canonical("https://blog.csdn.net/u/article/details/1?page=2") == (
        "https://blog.csdn.net/u/article/details/1?page=2"
    )
    assert canonical("https://x.cn/p?fromage=1") == "https://x.cn/p?fromage=1"


def test_site_extends_tracking_parameters_and_twin_hosts() -> None:
    site = Canonicalizer.with_extra(["ref", "src*"], {"m.sohu.com": "www.sohu.com"})
    assert (
        site("https://m.sohu.com/a/1?ref=home&srcid=3&page=2") == "https://www.sohu.com/a/1?page=2"
    )
    assert canonical("https://m.sohu.com/a/1?ref=home") == "https://m.sohu.com/a/1?ref=home"


def test_the_kept_urls_are_shared_by_equal_canonicalizers_only() -> None:
    """Twin hosts are left out of the hash the kept URLs are found by, not out of equality."""
    url = "https://m.sohu.com/a/2"
    twinned = Canonicalizer.with_extra(host_twins={"m.sohu.com": "www.sohu.com"})
    assert hash(twinned) == hash(canonical) and twinned != canonical
    assert (canonical(url), twinned(url)) == (url, "https://www.sohu.com/a/2")
    assert Canonicalizer()(url) == url


def test_built_from_scrapy_settings() -> None:
    settings = Settings(
        {"NEWSCRAWL_TRACKING_PARAMS": ["ref"], "NEWSCRAWL_HOST_TWINS": {"M.X.CN": "www.x.cn"}}
    )
    site = Canonicalizer.from_settings(settings)
    assert site("http://m.x.cn/a?ref=1&spm=2") == "https://www.x.cn/a"
