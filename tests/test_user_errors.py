"""A user's mistake is one line of error, never a traceback, and nothing is created or skipped
silently (issue 15): bad site configs, a missing ``NEWSCRAWL_SITES_DIR``, an unreachable or
missing database, bad spider arguments, Parquet without pyarrow, and explicit start URLs
outside a site's domains.

``newscrawl`` commands run in-process (`newscrawl.cli.main`); Scrapy runs in a subprocess
(one Twisted reactor per process) with the working directory a temporary one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from local_server import LocalServer, QuietHandler, send_page
from site_fixtures import make_spider, project_settings
from test_sites_config import MINIMAL, SITES, run_scrapy

from newscrawl.cli import main
from newscrawl.settings_check import check_settings
from newscrawl.spiders.errors import (
    BrokenSiteError,
    CrawlUsageError,
    SitesDirError,
    SpiderArgumentError,
)
from newscrawl.spiders.loader import SiteSpiderLoader, check_sites_dir
from newscrawl.spiders.preflight import check_crawl
from newscrawl.spiders.site import check_spider_arguments
from newscrawl.store import StoreUnavailable, check_store_url, open_store

DOWN_URL = "postgresql://postgres:secret@127.0.0.1:5999/test"
"""Nothing listens on 5999; the password must never be shown."""
DOWN_SHOWN = "postgresql://postgres:***@127.0.0.1:5999/test"
BAD_REGEX = MINIMAL.replace("\\d+$'", "(?<x'")
PARAGRAPH = (
    "国家统计局今天发布的数据显示，十月份全国规模以上工业增加值同比增长百分之五点三，"
    "比上月加快零点一个百分点，制造业投资继续保持较快增长，市场预期总体稳定向好。"
)


def write_site(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def scrapy(cwd: Path, *args: str, sites_dir: str = "") -> subprocess.CompletedProcess[str]:
    """``scrapy <args>`` in `cwd` with the project settings."""
    return run_scrapy(*args, sites_dir=sites_dir, cwd=cwd)


def crawl_settings(db_url: str) -> list[str]:
    settings = (
        f"NEWSCRAWL_DB_URL={db_url}",
        "NEWSCRAWL_DEFAULT_FEED=",
        "ROBOTSTXT_OBEY=False",
        "AUTOTHROTTLE_ENABLED=False",
        "TELNETCONSOLE_ENABLED=False",
        "RETRY_TIMES=0",
    )
    return [arg for setting in settings for arg in ("-s", setting)]


def error_lines(stderr: str) -> list[str]:
    """The lines of `stderr` that report an error (log records and Scrapy's usage error)."""
    return [line for line in stderr.splitlines() if " ERROR: " in line or "error:" in line]


def assert_no_traceback_of_ours(stderr: str) -> None:
    """No traceback from Scrapy's start or close, the store, the loader or asyncio (the
    crawl's monitors may print their own report)."""
    for sign in (
        "Task exception was never retrieved",
        "Error caught on signal handler",
        "CoreStats.spider_closed",
        "StoreError",
        "StoreUnavailable",
        "psycopg.OperationalError",
        "SiteConfigError",
        "Spider not found",
    ):
        assert sign not in stderr, stderr


# -- 1. a bad site config ---------------------------------------------------------------


def test_crawling_a_site_whose_config_is_invalid_fails_with_its_error(tmp_path: Path) -> None:
    path = write_site(tmp_path / "sites", "broken", BAD_REGEX)
    result = scrapy(tmp_path, "crawl", "broken", sites_dir=str(path.parent))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    [line] = [line for line in result.stderr.splitlines() if str(path) in line]
    assert "invalid" in line
    assert f"{path}: urls.article[0]: bad regular expression" in line


def test_check_crawl_names_the_invalid_config(tmp_path: Path) -> None:
    path = write_site(tmp_path, "broken", BAD_REGEX)
    settings = project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path))
    with pytest.raises(BrokenSiteError) as raised:
        check_crawl(SiteSpiderLoader(settings), settings, "broken", {})
    assert str(raised.value).startswith(
        f"site 'broken' has an invalid config: {path}: urls.article[0]: bad regular expression "
    )


# -- 2. NEWSCRAWL_SITES_DIR that is not a directory --------------------------------------


def test_scrapy_list_warns_of_a_missing_sites_dir_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir"
    result = scrapy(tmp_path, "list", sites_dir=str(missing))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == SITES
    assert result.stderr.splitlines() == [
        f"NEWSCRAWL_SITES_DIR={missing}: no such directory; only the bundled sites are loaded"
    ]


def test_scrapy_crawl_refuses_a_missing_sites_dir(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir"
    result = scrapy(
        tmp_path, "crawl", "sina", *crawl_settings("sqlite:///x.db"), sites_dir=str(missing)
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert f"error: NEWSCRAWL_SITES_DIR={missing}: no such directory" in result.stderr
    assert not (tmp_path / "x.db").exists()


def test_check_sites_dir(tmp_path: Path) -> None:
    check_sites_dir(project_settings(NEWSCRAWL_SITES_DIR=str(tmp_path)))
    check_sites_dir(project_settings(NEWSCRAWL_SITES_DIR=""))
    not_a_dir = tmp_path / "sites.toml"
    not_a_dir.write_text("", encoding="utf-8")
    with pytest.raises(SitesDirError, match=rf"^NEWSCRAWL_SITES_DIR={not_a_dir}: not a directory$"):
        check_sites_dir(project_settings(NEWSCRAWL_SITES_DIR=str(not_a_dir)))


# -- 3. a database that does not answer ---------------------------------------------------


@pytest.mark.parametrize("command", ["stats", "export", "import-spool"])
def test_commands_report_an_unreachable_database_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = {"stats": [], "export": ["-o", str(tmp_path / "out.jsonl")], "import-spool": []}
    spool = tmp_path / "spool.jsonl"
    spool.write_text("", encoding="utf-8")
    args = [command, "--db", DOWN_URL, *extra[command]]
    if command == "import-spool":
        args.append(str(spool))
    assert main(args) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"newscrawl {command}: error: cannot open the store at {DOWN_SHOWN}: ")
    assert "Connection refused" in line and "secret" not in line
    assert not (tmp_path / "out.jsonl").exists()


def test_check_store_url_fails_fast_without_the_password() -> None:
    with pytest.raises(StoreUnavailable) as raised:
        check_store_url(DOWN_URL)
    message = str(raised.value)
    assert message.startswith(f"cannot open the store at {DOWN_SHOWN}: connection failed: ")
    assert "\n" not in message and "secret" not in message


def test_a_crawl_whose_database_does_not_answer_fails_in_one_line(tmp_path: Path) -> None:
    result = scrapy(tmp_path, "crawl", "sina", *crawl_settings(DOWN_URL))
    assert result.returncode != 0, result.stderr
    assert_no_traceback_of_ours(result.stderr)
    assert "secret" not in result.stderr
    [line] = [line for line in error_lines(result.stderr) if "cannot open the store" in line]
    assert f"cannot open the store at {DOWN_SHOWN}: connection failed: " in line


CRAWL_SCRIPT = """
import sys
from scrapy.crawler import AsyncCrawlerProcess
from scrapy.utils.project import get_project_settings
from newscrawl.crawl_contract import store_failure

settings = get_project_settings()
settings.setdict(dict(arg.split("=", 1) for arg in sys.argv[1:]), priority="cmdline")
process = AsyncCrawlerProcess(settings)
crawler = process.create_crawler("sina")
process.crawl(crawler)
process.start()
print("store_failure:", store_failure(crawler))
print("bootstrap_failed:", process.bootstrap_failed)
"""


def test_the_crawl_closes_cleanly_when_the_store_cannot_be_opened(tmp_path: Path) -> None:
    """What the pipeline and the middleware do when a crawl starts without the pre-flight
    check of ``scrapy crawl`` (Scrapy's API, or a database gone between check and open)."""
    settings = [arg for arg in crawl_settings(DOWN_URL) if arg != "-s"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "newscrawl.settings"}
    result = subprocess.run(
        [sys.executable, "-c", CRAWL_SCRIPT, *settings, "SPIDERMON_ENABLED=False"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    [line] = error_lines(result.stderr)
    assert f"ERROR: The crawl stops: cannot open the store at {DOWN_SHOWN}: " in line
    assert "'finish_reason': 'store_unavailable'" in result.stderr
    assert "Crawled 0 pages" in result.stderr
    assert f"store_failure: cannot open the store at {DOWN_SHOWN}: " in result.stdout
    assert "bootstrap_failed: False" in result.stdout


# -- 4. an SQLite file that does not exist --------------------------------------------------


@pytest.mark.parametrize("command", ["stats", "export", "import-spool"])
def test_reading_commands_do_not_create_a_database(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    spool = tmp_path / "spool.jsonl"
    spool.write_text("", encoding="utf-8")
    extra = {"stats": [], "export": ["-o", "out.jsonl"], "import-spool": [str(spool)]}
    assert main([command, "--db", "sqlite:///data/nonexistent.db", *extra[command]]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"newscrawl {command}: error: no store at sqlite:///data/nonexistent.db: "
        f"{tmp_path}/data/nonexistent.db does not exist (a crawl creates it)"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["spool.jsonl"]


def test_a_database_without_a_store_is_not_made_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.db"
    other.touch()
    assert main(["stats", "--db", f"sqlite:///{other}"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"newscrawl stats: error: cannot open the store at sqlite:///{other}: "
        "the database holds no newscrawl store (a crawl creates it)"
    ]
    with pytest.raises(StoreUnavailable, match="holds no newscrawl store"):
        open_store(f"sqlite:///{other}", create=False)


# -- 5. bad spider arguments ------------------------------------------------------------------

BAD_ARGUMENTS = [
    (
        {"since": "notadate"},
        "since='notadate' is not a date; use YYYY-MM-DD or an ISO 8601 date-time",
    ),
    ({"max_pages": "-1"}, "max_pages='-1' must be a positive integer"),
    ({"max_pages": "ten"}, "max_pages='ten' must be a positive integer"),
    (
        {"start_urls": "www.sina.com.cn"},
        "start_urls: 'www.sina.com.cn' is not an absolute http(s) URL",
    ),
    ({"recrawl": "maybe"}, "recrawl='maybe' must be true or false"),
    (
        {"max_page": "5"},
        "unknown spider argument 'max_page' "
        "(known: article_urls, max_pages, recrawl, since, start_urls)",
    ),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_ARGUMENTS)
def test_bad_spider_arguments_are_one_line_before_and_at_start(
    arguments: dict[str, str], message: str
) -> None:
    spider_cls = SiteSpiderLoader(project_settings()).load("sina")
    with pytest.raises(SpiderArgumentError) as checked:
        check_spider_arguments(spider_cls, arguments)
    assert str(checked.value) == message
    with pytest.raises(SpiderArgumentError) as constructed:  # the spider's own check, the same
        make_spider("sina", **arguments)
    assert str(constructed.value) == message
    assert isinstance(constructed.value, ValueError | CrawlUsageError)


def test_good_spider_arguments_pass() -> None:
    spider_cls = SiteSpiderLoader(project_settings()).load("sina")
    arguments = {"since": "2026-11-01", "max_pages": "3", "recrawl": "true", "_job": "abc"}
    check_spider_arguments(spider_cls, arguments)
    spider = make_spider("sina", **arguments)
    assert spider.max_pages == 3 and spider.since is not None
    assert spider._job == "abc"  # type: ignore[attr-defined]  # what scrapyd passes


def test_scrapy_crawl_reports_a_bad_spider_argument_in_one_line(tmp_path: Path) -> None:
    result = scrapy(
        tmp_path, "crawl", "sina", "-a", "since=notadate", *crawl_settings("sqlite:///x.db")
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = error_lines(result.stderr)  # "scrapy: error: …" ("__main__.py" under -m)
    assert line.endswith(
        ": error: since='notadate' is not a date; use YYYY-MM-DD or an ISO 8601 date-time"
    )


def test_scrapy_crawl_of_an_unknown_spider_lists_the_known_ones(tmp_path: Path) -> None:
    result = scrapy(tmp_path, "crawl", "nosuchsite", *crawl_settings("sqlite:///x.db"))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = error_lines(result.stderr)
    assert line.endswith(f": error: no spider 'nosuchsite'; the spiders are: {', '.join(SITES)}")
    assert not (tmp_path / "x.db").exists()


# -- 6. Parquet without pyarrow ---------------------------------------------------------------


def test_parquet_export_without_pyarrow_says_how_to_install_it_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    out = tmp_path / "corpus.parquet"
    assert main(["export", "--db", db_url, "--format", "parquet", "-o", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "newscrawl export: error: Parquet export needs pyarrow: "
        "pip install pyarrow (from a clone: pip install -e '.[parquet]')"
    ]
    assert not out.exists()


def test_export_to_a_missing_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()
    out = tmp_path / "no-such-dir" / "corpus.jsonl"
    assert main(["export", "--db", db_url, "-o", str(out)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"newscrawl export: error: cannot write {out}: No such file or directory"
    ]


# -- 7. start URLs outside the site's domains -------------------------------------------------


def article(title: str) -> bytes:
    return (
        f"<html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<div><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div></body></html>"
    ).encode()


class RecordingSite(LocalServer):
    """A listing on 127.0.0.1 linking one article on ``localhost`` (the allowed domain) and
    one on 127.0.0.1 (outside it); records the paths asked for."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._lock = threading.Lock()
        super().__init__(self._handler())

    def listing(self) -> bytes:
        port = self.port
        return (
            f'<html><body><a href="http://localhost:{port}/a/1.html">in</a>'
            f'<a href="http://127.0.0.1:{port}/a/2.html">out</a></body></html>'
        ).encode()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        site = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                with site._lock:
                    site.paths.append(self.path)
                pages = {
                    "/index.html": site.listing(),
                    "/a/1.html": article("第一篇"),
                    "/a/2.html": article("第二篇"),
                }
                body = pages.get(self.path)
                headers = [("Content-Type", "text/html; charset=utf-8")]
                send_page(self, 200 if body else 404, headers, body or b"nope")

        return Handler


LOCALHOST_SITE = """\
allowed_domains = ["localhost"]

[politeness]
download_delay = 0

[urls]
article = ['^http://(?:localhost|127\\.0\\.0\\.1):\\d+/a/\\d+\\.html$']

[[entry]]
kind = "html"
url = "http://localhost/"
"""


def test_an_explicit_start_url_outside_the_domains_is_fetched_but_not_its_offsite_links(
    tmp_path: Path,
) -> None:
    """Also: a broken config next to the crawled site is one warning, and the crawl runs."""
    sites = tmp_path / "sites"
    write_site(sites, "local", LOCALHOST_SITE)
    broken = write_site(sites, "broken", BAD_REGEX)
    with RecordingSite() as site:
        start = f"{site.url}/index.html"
        result = scrapy(
            tmp_path,
            "crawl",
            "local",
            "-a",
            f"start_urls={start}",
            "-O",
            "out.jsonl",
            *crawl_settings(f"sqlite:///{tmp_path}/store.db"),
            sites_dir=str(sites),
        )
        paths = sorted(site.paths)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert paths == ["/a/1.html", "/index.html"]  # not /a/2.html, found on 127.0.0.1
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8").count('"url"') == 1
    assert (
        f"INFO: start URL {start} is outside allowed_domains (localhost): fetched as asked; "
        "links found on it are followed only inside those domains"
    ) in result.stderr
    loader_lines = [line for line in result.stderr.splitlines() if "spiders.loader]" in line]
    [warning] = loader_lines
    assert f"site 'broken' skipped, its config is invalid: {broken}: urls.article[0]" in warning


# -- 8. bad settings and arguments: one line, exit 2, nothing created -----------------------

BAD_CRAWL_OPTIONS = [
    (
        ["-s", "NEWSCRAWL_DB_BATCH_SIZE=-5"],
        "NEWSCRAWL_DB_BATCH_SIZE='-5': must be 1 or more",
    ),
    (
        ["-s", "NEWSCRAWL_RECRAWL_AGE=two days"],
        "NEWSCRAWL_RECRAWL_AGE='two days': expected seconds or e.g. 2d/12h, got 'two days'",
    ),
    (
        ["-s", "NEWSCRAWL_MIN_CONFIDENCE=2"],
        "NEWSCRAWL_MIN_CONFIDENCE='2': must be a number from 0 to 1, not '2'",
    ),
    (["-s", "NEWSCRAWL_INCREMENTAL=maybe"], "NEWSCRAWL_INCREMENTAL='maybe': must be true or false"),
    (
        ["-s", "NEWSCRAWL_HOST_TWINS=m.x.cn:www.x.cn"],
        "NEWSCRAWL_HOST_TWINS='m.x.cn:www.x.cn': must be a JSON object",
    ),
    (
        ["-s", "NEWSCRAWL_EXTRACT_METHOD=readability"],
        "NEWSCRAWL_EXTRACT_METHOD='readability': unknown method 'readability'; "
        "choose one of paper, default",
    ),
    (
        ["-s", "NEWSCRAWL_DB_URL=data/newscrawl.db"],
        "not a database URL: data/newscrawl.db "
        "(expected sqlite:///PATH or postgresql://USER@HOST/DB)",
    ),
    (
        ["-s", "NEWSCRAWL_DB_URL=mysql://u@localhost/db"],
        "cannot open the store at mysql://u@localhost/db: unsupported database 'mysql' "
        "(use sqlite:///PATH or postgresql://USER@HOST/DB)",
    ),
    (
        ["-s", "NEWSCRAWL_ARCHIVE=data/sina.warc.zip"],
        "NEWSCRAWL_ARCHIVE='data/sina.warc.zip': must name a *.warc or *.warc.gz file",
    ),
    (["-a", "max_pages=-1"], "max_pages='-1' must be a positive integer"),
]


@pytest.mark.parametrize(("options", "message"), BAD_CRAWL_OPTIONS)
def test_a_bad_setting_or_argument_is_one_line_exit_2_and_creates_nothing(
    tmp_path: Path, options: list[str], message: str
) -> None:
    """With the default store and feed (``data/…`` in the working directory): neither may
    appear, nor anything else."""
    result = scrapy(tmp_path, "crawl", "sina", *options, "-s", "TELNETCONSOLE_ENABLED=False")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [line] = error_lines(result.stderr)
    assert line.endswith(f": error: {message}")
    assert list(tmp_path.iterdir()) == []


def test_the_defaults_and_every_documented_form_pass_the_settings_check() -> None:
    check_settings(project_settings())
    check_settings(
        project_settings(
            NEWSCRAWL_RECRAWL_AGE="2d",
            NEWSCRAWL_MIN_CONFIDENCE="0.8",
            NEWSCRAWL_HOST_TWINS='{"m.sohu.com": "www.sohu.com"}',
            NEWSCRAWL_BACKOFF_HTTP_CODES="429,503",
            NEWSCRAWL_REDIS_URL="redis://localhost:6379/0",
            NEWSCRAWL_INCREMENTAL="false",
        )
    )
