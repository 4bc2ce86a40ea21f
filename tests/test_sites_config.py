"""Site configs: the bundled eight, validation messages, user directories, spider settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy import Request
from site_fixtures import project_settings

from newscrawl.discovery import API_PARSERS
from newscrawl.sites import SiteConfigError, find_sites, load_site
from newscrawl.spiders.errors import BrokenSiteError
from newscrawl.spiders.loader import SiteSpiderLoader
from newscrawl.urls import Canonicalizer

PROJECT_ROOT = Path(__file__).resolve().parents[1]
BUILTIN = PROJECT_ROOT / "newscrawl" / "configs" / "sites"
SITES = ["cnblogs", "csdn", "netease", "people", "sina", "sinablog", "sohu", "xinhua"]

MINIMAL = """\
allowed_domains = ["example.com"]

[urls]
article = ['^https://example\\.com/a/\\d+$']

[[entry]]
kind = "html"
url = "https://example.com/"
"""


def write_site(directory: Path, name: str, text: str = MINIMAL) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_sites_are_valid_and_complete() -> None:
    sites = find_sites([BUILTIN])
    assert sorted(sites) == SITES
    for site in sites.values():
        assert site.entries and site.article and site.allowed_domains
        assert all(entry.parser in API_PARSERS for entry in site.entries if entry.kind == "api")


def test_a_full_config_is_read_into_its_fields(tmp_path: Path) -> None:
    path = write_site(
        tmp_path,
        "example",
        """\
description = "An example portal"
allowed_domains = ["example.com", "example.cn"]
charset = "gbk"
timezone = "UTC"

[headers]
Referer = "https://example.com/"

[politeness]
download_delay = 2
concurrency = 1
depth_limit = 3

[urls]
article = ['^https://example\\.com/a/\\d+$']
follow = ['^https://example\\.com/list/\\d+$']
deny = ['/a/0$']
drop_params = ["spm", "utm_*"]

[[entry]]
kind = "api"
parser = "sina_roll"
url = "https://api.example.com/roll?page={page}"
pages = 2

[[entry]]
kind = "sitemap"
url = "https://example.com/sitemap.xml"
""",
    )
    site = load_site(path)
    assert (site.name, site.description, site.charset) == ("example", "An example portal", "gbk")
    assert site.allowed_domains == ("example.com", "example.cn")
    assert dict(site.headers) == {"Referer": "https://example.com/"}
    assert (site.politeness.download_delay, site.politeness.concurrency) == (2.0, 1)
    assert site.politeness.depth_limit == 3
    assert [(e.kind, e.url, e.parser) for e in site.entries] == [
        ("api", "https://api.example.com/roll?page=1", "sina_roll"),
        ("api", "https://api.example.com/roll?page=2", "sina_roll"),
        ("sitemap", "https://example.com/sitemap.xml", None),
    ]
    assert site.is_article("https://example.com/a/12")
    assert not site.is_article("https://example.com/a/0")
    assert site.is_followed("https://example.com/list/2")
    assert site.is_allowed("https://www.example.com:8080/a/1")
    assert not site.is_allowed("https://badexample.com/a/1")
    assert str(site.timezone) == "UTC"


def test_the_readme_example_is_a_valid_config(tmp_path: Path) -> None:
    readme = (BUILTIN / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    site = load_site(write_site(tmp_path, "example", example))
    assert [entry.kind for entry in site.entries] == ["rss", "sitemap", "api", "api", "api", "html"]


def test_not_article_pages_are_followed_but_never_articles(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        "[urls]\n",
        "[urls]\nnot_article = ['/a/0$']\nfollow = ['/a/\\d+$']\ndeny = ['/a/9$']\n",
    )
    site = load_site(write_site(tmp_path, "example", text))
    assert site.is_article("https://example.com/a/1") and site.is_followed(
        "https://example.com/a/1"
    )
    assert not site.is_article("https://example.com/a/0")
    assert site.is_followed("https://example.com/a/0")
    assert not site.is_article("https://example.com/a/9")
    assert not site.is_followed("https://example.com/a/9")


def test_clean_url_drops_tracking_parameters_and_fragment(tmp_path: Path) -> None:
    text = MINIMAL.replace("[urls]\n", '[urls]\ndrop_params = ["spm", "utm_*"]\n')
    site = load_site(write_site(tmp_path, "example", text))
    url = "https://example.com/a/1?id=3&spm=x.y&k=&utm_source=feed&utm_medium=rss&page=2#top"
    assert site.clean_url(url) == "https://example.com/a/1?id=3&k=&page=2"
    assert site.clean_url("https://example.com/a/1?spm=1") == "https://example.com/a/1"


def test_clean_url_drops_the_default_tracking_parameters_as_the_canonical_urls_do(
    tmp_path: Path,
) -> None:
    site = load_site(write_site(tmp_path, "example", MINIMAL))
    url = "http://example.com/a/1?from=wap&id=3&SPM=x&utm_source=feed#top"
    assert site.clean_url(url) == "http://example.com/a/1?id=3"
    assert site.canonicalizer(url) == "https://example.com/a/1?id=3"


INVALID = [
    pytest.param('allowed_domain = ["x"]\n' + MINIMAL, "allowed_domain", "unknown key", id="typo"),
    pytest.param(
        MINIMAL.replace("[urls]\n", "[urls]\narticles = []\n"),
        "urls.articles",
        "unknown key",
        id="typo-in-table",
    ),
    pytest.param(
        MINIMAL.replace('["example.com"]', '"example.com"'),
        "allowed_domains",
        "expected a list of strings",
        id="type",
    ),
    pytest.param(
        MINIMAL.replace('["example.com"]', '["https://example.com/"]'),
        "allowed_domains",
        "bare domain",
        id="domain-is-url",
    ),
    pytest.param(
        MINIMAL.replace("'^https://example\\.com/a/\\d+$'", "'^https://(unclosed'"),
        "urls.article[0]",
        "bad regular expression",
        id="regex",
    ),
    pytest.param(
        MINIMAL.replace("'^https://example\\.com/a/\\d+$'", ""),
        "urls.article",
        "at least one",
        id="no-article-pattern",
    ),
    pytest.param(
        MINIMAL.replace("[urls]\n", "[urls]\nfollow = ['/list/(?!0)\\d+$']\n"),
        "urls.follow[0]",
        "no lookahead or lookbehind",
        id="lookaround",
    ),
    pytest.param(
        MINIMAL + '[headers]\nUser-Agent = "y"\n',
        "headers",
        "user_agent",
        id="user-agent-header",
    ),
    pytest.param(
        MINIMAL.replace("[urls]\n", "[urls]\ndeny = ['/(\\w+)/\\1/']\n"),
        "urls.deny[0]",
        "no backreferences",
        id="backreference",
    ),
    pytest.param(
        MINIMAL.replace('"html"', '"atom"'), "entry[0].kind", "not one of", id="entry-kind"
    ),
    pytest.param(
        MINIMAL.replace('"html"', '"api"'), "entry[0].parser", "not a known", id="api-parser"
    ),
    pytest.param(
        MINIMAL + 'parser = "sina_roll"\n', "entry[0].parser", "only kind", id="html-parser"
    ),
    pytest.param(MINIMAL + "pages = 3\n", "entry[0].pages", "{page}", id="pages-placeholder"),
    pytest.param(
        MINIMAL.replace('"https://example.com/"', '"/news/"'),
        "entry[0].url",
        "absolute",
        id="relative-url",
    ),
    pytest.param(MINIMAL.split("[[entry]]")[0], "entry", "at least one", id="no-entry"),
    pytest.param('charset = "klingon"\n' + MINIMAL, "charset", "unknown encoding", id="charset"),
    pytest.param('timezone = "Mars/Base"\n' + MINIMAL, "timezone", "time zone", id="timezone"),
    pytest.param(
        MINIMAL + "[politeness]\ndownload_delay = -1\n",
        "politeness.download_delay",
        ">= 0",
        id="negative-delay",
    ),
    pytest.param(
        MINIMAL + '[politeness]\nconcurrency = "2"\n',
        "politeness.concurrency",
        "expected an integer, got string",
        id="string-int",
    ),
    pytest.param(
        MINIMAL + "[politeness]\nconcurrency = true\n",
        "politeness.concurrency",
        "expected an integer, got boolean",
        id="bool-int",
    ),
    pytest.param(
        MINIMAL + "[headers]\nReferer = 1\n", "headers.Referer", "expected a string", id="header"
    ),
    pytest.param(MINIMAL + "[urls]\n", "(syntax)", "", id="toml-syntax"),
]


@pytest.mark.parametrize(("text", "key", "problem"), INVALID)
def test_invalid_config_names_file_key_and_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = write_site(tmp_path, "example", text)
    with pytest.raises(SiteConfigError) as raised:
        load_site(path)
    assert raised.value.key == key
    assert problem in raised.value.problem
    assert str(raised.value).startswith(f"{path}: {key}: ")


def test_site_name_comes_from_a_valid_file_name(tmp_path: Path) -> None:
    with pytest.raises(SiteConfigError, match=r"My Site\.toml: \(file name\)"):
        load_site(write_site(tmp_path, "My Site"))


def test_user_sites_dir_adds_and_overrides_spiders(tmp_path: Path) -> None:
    write_site(tmp_path, "example")
    write_site(tmp_path, "sohu", MINIMAL)
    loader = SiteSpiderLoader(project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path)))
    assert loader.list() == sorted([*SITES, "example"])
    spider_class = loader.load("example")
    assert spider_class.name == "example"
    assert spider_class.allowed_domains == ["example.com"]
    assert loader.load("sohu").site.path == tmp_path / "sohu.toml"
    assert loader.find_by_request(Request("https://news.sina.com.cn/c/1")) == ["sina"]
    with pytest.raises(KeyError):
        loader.load("nosuchsite")


def test_a_bad_user_config_leaves_out_that_site_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = write_site(tmp_path, "broken", MINIMAL.replace('"html"', '"atom"'))
    write_site(tmp_path, "example")
    loader = SiteSpiderLoader(project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path)))
    assert loader.list() == sorted([*SITES, "example"])
    assert loader.list() == sorted([*SITES, "example"])  # warned once, not per call
    [warning] = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warning.startswith(f"site 'broken' skipped, its config is invalid: {path}: ")
    assert "entry[0].kind: 'atom' is not one of" in warning
    assert set(loader.config_errors) == {"broken"}
    assert loader.config_errors["broken"].key == "entry[0].kind"
    with pytest.raises(BrokenSiteError, match=r"^site 'broken' has an invalid config: .*kind"):
        loader.load("broken")
    with pytest.raises(KeyError):  # what Scrapy's callers of a spider loader expect
        loader.load("broken")
    assert loader.load("example").name == "example"


def test_a_bad_user_config_hides_the_bundled_site_it_overrides(tmp_path: Path) -> None:
    write_site(tmp_path, "sohu", "[broken")
    loader = SiteSpiderLoader(project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path)))
    assert "sohu" not in loader.list()  # not silently the bundled sohu instead
    assert loader.config_errors["sohu"].key == "(syntax)"


def test_site_politeness_and_headers_become_spider_settings(tmp_path: Path) -> None:
    write_site(
        tmp_path,
        "example",
        MINIMAL.replace(
            "[urls]",
            '[headers]\nReferer = "https://example.com/"\n\n'
            "[politeness]\ndownload_delay = 3.5\nconcurrency = 1\ndepth_limit = 2\n\n[urls]",
        ),
    )
    settings = project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path))
    spider_class = SiteSpiderLoader(settings).load("example")
    spider_class.update_settings(settings)
    assert settings.getfloat("DOWNLOAD_DELAY") == 3.5
    assert settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") == 1
    assert settings.getint("DEPTH_LIMIT") == 2
    headers = settings.getdict("DEFAULT_REQUEST_HEADERS")
    assert headers["Referer"] == "https://example.com/"
    assert "Accept-Language" in headers  # the project defaults are kept


def test_site_tracking_params_and_twin_hosts_reach_the_store_canonical_urls(
    tmp_path: Path,
) -> None:
    urls = '[urls]\ndrop_params = ["ref"]\nhost_twins = { "m.example.com" = "www.example.com" }\n'
    write_site(tmp_path, "example", MINIMAL.replace("[urls]\n", urls))
    settings = project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path))
    SiteSpiderLoader(settings).load("example").update_settings(settings)
    canonical = Canonicalizer.from_settings(settings)
    assert canonical("http://m.example.com/a/1.html?ref=home&id=2&spm=1") == (
        "https://www.example.com/a/1.html?id=2"
    )


def test_command_line_settings_beat_the_site_config() -> None:
    settings = project_settings(DOWNLOAD_DELAY=0.25)
    SiteSpiderLoader(settings).load("sina").update_settings(settings)
    assert settings.getfloat("DOWNLOAD_DELAY") == 0.25


def test_default_feed_only_when_the_user_gave_none() -> None:
    settings = project_settings()
    SiteSpiderLoader(settings).load("sohu").update_settings(settings)
    assert settings.getdict("FEEDS") == {"data/%(name)s/%(time)s.jsonl": {"format": "jsonlines"}}

    given = project_settings(FEEDS={"sohu.jsonl": {"format": "jsonlines", "overwrite": True}})
    SiteSpiderLoader(given).load("sohu").update_settings(given)
    assert list(given.getdict("FEEDS")) == ["sohu.jsonl"]

    disabled = project_settings(NEWSCRAWL_DEFAULT_FEED="")
    SiteSpiderLoader(disabled).load("sohu").update_settings(disabled)
    assert disabled.getdict("FEEDS") == {}


def run_scrapy(
    *args: str, sites_dir: str = "", cwd: Path = PROJECT_ROOT
) -> subprocess.CompletedProcess[str]:
    """``scrapy <args>`` in `cwd` with the project settings (from any directory)."""
    env = {
        **os.environ,
        "NEWSCRAWL_SITES_DIR": sites_dir,
        "SCRAPY_SETTINGS_MODULE": "newscrawl.settings",
    }
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_scrapy_list_shows_the_eight_sites() -> None:
    result = run_scrapy("list")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == SITES


def test_scrapy_list_shows_a_user_site_from_the_environment(tmp_path: Path) -> None:
    write_site(tmp_path, "example")
    result = run_scrapy("list", sites_dir=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "example" in result.stdout.split()


def test_scrapy_list_skips_a_bad_user_config_with_one_line(tmp_path: Path) -> None:
    path = write_site(tmp_path, "broken", MINIMAL.replace("\\d+$'", "(?<x'"))
    write_site(tmp_path, "example")
    result = run_scrapy("list", sites_dir=str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == sorted([*SITES, "example"])
    [line] = result.stderr.splitlines()
    assert line.startswith(f"site 'broken' skipped, its config is invalid: {path}: ")
    assert "urls.article[0]: bad regular expression" in line
