"""``newscrawl reextract`` over archives written here (plain warcio, or `ArchiveWriter` with
the recorded site and page kind), into JSONL and a SQLite store, in-process.

Real recorded crawls, and the PostgreSQL store, are in `test_reextract_crawl.py`.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import version
from io import BytesIO
from pathlib import Path

import pytest
from sqlalchemy import select
from store_support import db_url_fixture  # noqa: F401 (fixture)
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

import newscrawl.settings
from newscrawl.archive import ArchivedRequest, ArchivedResponse, ArchiveWriter
from newscrawl.archive.middleware import CALLBACK_KINDS
from newscrawl.article import ITEM_FIELDS
from newscrawl.cli import main
from newscrawl.fingerprint import CONTENT_PLANE, INDEXED_PLANES
from newscrawl.spiders.site import SiteSpider
from newscrawl.store import StoreError, open_store
from newscrawl.store.schema import simhash_keys
from newscrawl.store.sql import SqlStore

FETCHED = "2024-05-10T08:30:00Z"
HTML = [("Content-Type", "text/html; charset=utf-8")]
NEWS_TOML = """\
allowed_domains = ["news.example.cn"]

[urls]
article = ['^http://news\\.example\\.cn/2024/\\w+\\.html$']

[[entry]]
kind = "html"
url = "http://news.example.cn/"
"""


@dataclass(frozen=True)
class Article:
    url: str
    title: str
    paragraphs: tuple[str, ...]

    def html(self) -> str:
        body = "".join(f"<p>{p}</p>\n" for p in self.paragraphs)
        return (
            f"<html><head><title>{self.title}</title></head><body>\n"
            '<div class="nav"><a href="/">首页</a> <a href="/news">新闻</a></div>\n'
            f"<h1>{self.title}</h1>\n{body}<div>版权所有 2024</div>\n</body></html>"
        )

    @property
    def body(self) -> str:
        return "\n".join(self.paragraphs)


BUS = Article(
    "http://news.example.cn/2024/bus.html",
    "本市新开三条公交线路",
    (
        "记者从市交通运输局获悉，本市今年将新开通三条公交线路，进一步方便市民出行。新线路覆盖"
        "城东新区、高新园区和大学城，预计日均客流量将超过五万人次，有效缓解早晚高峰的交通压力。",
        "交通部门有关负责人表示，新线路全部采用新能源公交车，车内配备空调和无障碍设施。市民可"
        "通过手机应用实时查询车辆位置，候车时间将比现有线路缩短约三分之一，服务质量明显提升。",
    ),
)
LIBRARY = Article(
    "http://news.example.cn/2024/library.html",
    "市图书馆延长开放时间",
    (
        "为满足读者日益增长的阅读需求，市图书馆决定从下月起延长开放时间，工作日闭馆时间由晚上"
        "六点推迟到晚上九点，周末和法定节假日照常开放，读者凭身份证或读者证即可免费入馆阅读。",
    ),
)
RAIN = Article(
    "http://news.example.cn/2024/rain.html",
    "气象台发布暴雨预警",
    (
        "市气象台今天上午发布暴雨黄色预警信号，预计未来二十四小时内本市大部分地区将出现暴雨，"
        "局部地区有大暴雨，并伴有雷电和短时大风，请市民注意防范，尽量减少外出，注意出行安全。",
    ),
)
LISTING = (
    '<html><body><ul><li><a href="/2024/bus.html">本市新开三条公交线路</a></li>'
    '<li><a href="/2024/library.html">市图书馆延长开放时间</a></li></ul></body></html>'
)


def chunked(data: bytes) -> bytes:
    """`data` in HTTP/1.1 chunked transfer coding, as some crawlers store bodies."""
    return f"{len(data):x}\r\n".encode() + data + b"\r\n0\r\n\r\n"


def write_old_archive(
    path: Path, responses: list[tuple[str, str, list[tuple[str, str]], bytes]]
) -> None:
    """A WARC of (url, status line, headers, body) response records plus the usual extras,
    as other tools (and newscrawl before page kinds) write them: no site, no page kind."""
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=path.name.endswith(".gz"))
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
        for url, status, headers, body in responses:
            response = writer.create_warc_record(
                url,
                "response",
                payload=BytesIO(body),
                warc_headers_dict={"WARC-Date": FETCHED},
                http_headers=StatusAndHeaders(status, headers, protocol="HTTP/1.1"),
            )
            request = writer.create_warc_record(
                url,
                "request",
                http_headers=StatusAndHeaders("GET / HTTP/1.1", [], is_http_request=True),
            )
            writer.write_request_response_pair(request, response)


def write_archive(path: Path, responses: list[ArchivedResponse]) -> None:
    """What the crawl's recorder writes: each response with its site and page kind."""
    with ArchiveWriter(path, {"software": "test"}) as writer:
        for response in responses:
            writer.write(ArchivedRequest("GET", response.url, ()), response)


def recorded(
    article: Article | str, kind: str, site: str = "news", found_on: str | None = None
) -> ArchivedResponse:
    """A 200 HTML response as the recorder keeps it (an `Article`, or a listing's URL)."""
    url, html = (
        (article.url, article.html()) if isinstance(article, Article) else (article, LISTING)
    )
    when = datetime(2024, 5, 10, 8, 30, tzinfo=UTC)
    return ArchivedResponse(
        url, 200, tuple(HTML), html.encode(), when, site=site, page_kind=kind, found_on=found_on
    )


@pytest.fixture
def sites(tmp_path: Path) -> Path:
    """A sites directory with ``news``: articles are http://news.example.cn/2024/<word>.html."""
    folder = tmp_path / "sites"
    folder.mkdir()
    (folder / "news.toml").write_text(NEWS_TOML, encoding="utf-8")
    return folder


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """An old archive: UTF-8, GBK and gzip+chunked articles, a listing, an image and a 404
    at article URLs, and a page of a site no config covers."""
    path = tmp_path / "pages.warc.gz"
    write_old_archive(
        path,
        [
            ("http://news.example.cn/", "200 OK", HTML, LISTING.encode()),
            (BUS.url, "200 OK", HTML, BUS.html().encode()),
            (
                LIBRARY.url,
                "200 OK",
                [("Content-Type", "text/html; charset=gbk")],
                LIBRARY.html().encode("gbk"),
            ),
            (
                RAIN.url,
                "200 OK",
                [
                    ("Content-Type", "text/html"),
                    ("Content-Encoding", "gzip"),
                    ("Transfer-Encoding", "chunked"),
                ],
                chunked(gzip.compress(RAIN.html().encode())),
            ),
            (
                "http://news.example.cn/2024/chart.html",
                "200 OK",
                [("Content-Type", "image/png")],
                b"\x89PNG",
            ),
            ("http://news.example.cn/2024/gone.html", "404 Not Found", HTML, b"<html>"),
            ("http://elsewhere.example.com/2024/bus.html", "200 OK", HTML, BUS.html().encode()),
        ],
    )
    return path


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_bytes().decode("utf-8").splitlines()]


def reextract(*args: str | Path) -> int:
    return main(["reextract", *map(str, args)])


def stored(db_url: str) -> dict[str, dict[str, object]]:
    with open_store(db_url, create=False) as store:
        return {row["canonical_url"]: row for row in store.iter_articles()}


# --- old archives: the site configs' patterns say which pages are articles ------------------


def test_old_archive_gives_one_item_line_per_article_page(
    archive: Path, sites: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    assert reextract(archive, "-o", out, "--sites", sites) == 0
    items = read_jsonl(out)
    assert [(i["url"], i["title"], i["body"]) for i in items] == [
        (a.url, a.title, a.body) for a in (BUS, LIBRARY, RAIN)
    ]
    assert all(list(item) == [f.name for f in ITEM_FIELDS] for item in items)
    assert [i["encoding"] for i in items] == ["utf-8", "gb18030", "utf-8"]
    for item in items:
        assert item["final_url"] == item["url"]
        assert (item["site"], item["status"], item["referer"]) == ("news", 200, None)
        assert item["fetched"] == "2024-05-10T08:30:00+00:00"
        assert item["extractor_method"] == "default"
        assert item["extractor_version"] == version("newscrawl")
    assert BUS.title.encode("utf-8") in out.read_bytes()  # Chinese as UTF-8, not \uXXXX


def test_what_is_not_extracted_is_counted_by_reason(
    archive: Path, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert reextract(archive, "-o", tmp_path / "out.jsonl", "--sites", sites) == 0
    summary = capsys.readouterr().err
    assert "7 response record(s) from 1 archive file(s)" in summary
    assert "3 article(s) extracted" in summary
    assert "reextract: 0 dropped" in summary
    assert (
        "reextract: 4 skipped (no site config: 1, not HTML (image/png): 1, "
        "not an article URL: 1, status 404: 1)"
    ) in summary


def test_without_site_configs_nothing_is_an_article(
    archive: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No bundled site covers news.example.cn: every page is skipped, and a run that
    extracted nothing from a non-empty archive fails."""
    out = tmp_path / "out.jsonl"
    assert reextract(archive, "-o", out) == 1
    err = capsys.readouterr().err
    assert "reextract: 7 skipped (no site config: 7)" in err
    assert "error: no article extracted from 7 response record(s)" in err
    assert out.read_text() == ""


def test_first_site_by_name_claims_a_page_two_sites_cover(
    archive: Path, sites: Path, tmp_path: Path
) -> None:
    (sites / "aaa.toml").write_text(NEWS_TOML.replace("2024", "20\\d\\d"), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert reextract(archive, "-o", out, "--sites", sites) == 0
    assert {item["site"] for item in read_jsonl(out)} == {"aaa"}


def test_directory_of_archives_and_paper_method(archive: Path, sites: Path, tmp_path: Path) -> None:
    folder = tmp_path / "archives"
    folder.mkdir()
    archive.rename(folder / archive.name)
    only = "http://news.example.cn/2024/only.html"
    write_old_archive(folder / "more.warc", [(only, "200 OK", HTML, BUS.html().encode())])
    out = tmp_path / "out.jsonl"
    assert reextract(folder, "-o", out, "--method", "paper", "--sites", sites) == 0
    items = read_jsonl(out)
    assert [item["url"] for item in items] == [only, BUS.url, LIBRARY.url, RAIN.url]
    assert {item["extractor_method"] for item in items} == {"paper"}


def test_output_to_stdout(archive: Path, sites: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert reextract(archive, "-o", "-", "--sites", sites) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["title"] for line in lines] == [BUS.title, LIBRARY.title, RAIN.title]


def test_sites_directory_defaults_to_the_crawls(
    archive: Path, sites: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEWSCRAWL_SITES_DIR", str(sites))
    out = tmp_path / "out.jsonl"
    assert reextract(archive, "-o", out) == 0
    assert len(read_jsonl(out)) == 3


# --- recorded page kinds -------------------------------------------------------------------


def test_recorded_kind_and_site_decide(
    sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A page recorded as a listing is never an article, even at an article URL; a recorded
    article needs its site's config, and its URL still on the site's article patterns."""
    path = tmp_path / "kinds.warc.gz"
    listing_at_article_url = "http://news.example.cn/2024/index.html"
    write_archive(
        path,
        [
            recorded("http://news.example.cn/", "listing"),
            recorded(listing_at_article_url, "listing"),
            recorded(BUS, "article", found_on="http://news.example.cn/"),
            recorded(LIBRARY, "article", site="gone"),
            recorded(Article("http://news.example.cn/about/x.html", "关于", ()), "article"),
            recorded(RAIN, "feed"),
        ],
    )
    out = tmp_path / "out.jsonl"
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()
    assert reextract(path, "-o", out, "--db", db_url, "--sites", sites) == 0
    items = read_jsonl(out)
    assert [(i["url"], i["site"], i["referer"]) for i in items] == [
        (BUS.url, "news", "http://news.example.cn/")
    ]
    assert list(stored(db_url)) == ["https://news.example.cn/2024/bus.html"]
    assert (
        "reextract: 5 skipped (no site config 'gone': 1, not an article URL: 1, "
        "page kind feed: 1, page kind listing: 2)"
    ) in capsys.readouterr().err


def test_every_kind_callback_is_a_site_spider_method() -> None:
    """The recorder names kinds by callback: a renamed callback must fail here, not turn
    its pages into "other" unnoticed."""
    assert all(callable(getattr(SiteSpider, name, None)) for name in CALLBACK_KINDS)


# --- into the store --------------------------------------------------------------------------


def test_store_outcomes_and_a_page_archived_twice(
    sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each copy of a page is written in archive order: counted each, the later one wins."""
    path = tmp_path / "twice.warc.gz"
    edited = Article(BUS.url, BUS.title, (*BUS.paragraphs, LIBRARY.paragraphs[0]))
    write_archive(path, [recorded(BUS, "article"), recorded(RAIN, "article")])
    write_archive(path, [recorded(edited, "article")])  # a second crawl appended
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()

    assert reextract(path, "--db", db_url, "--sites", sites) == 0
    assert "store: 2 new, 1 changed, 0 unchanged, 0 duplicate" in capsys.readouterr().err
    assert stored(db_url)["https://news.example.cn/2024/bus.html"]["body"] == edited.body

    assert reextract(path, "--db", db_url, "--sites", sites) == 0
    assert "store: 0 new, 2 changed, 1 unchanged, 0 duplicate" in capsys.readouterr().err
    assert stored(db_url)["https://news.example.cn/2024/bus.html"]["body"] == edited.body


def test_a_store_that_does_not_exist_yet_is_created(
    archive: Path, sites: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Filling a new store (SQLite file, or PostgreSQL tables) from an archive."""
    assert reextract(archive, "--db", db_url, "--sites", sites) == 0
    assert "store: 3 new, 0 changed" in capsys.readouterr().err
    assert sorted(stored(db_url)) == [
        "https://news.example.cn/2024/bus.html",
        "https://news.example.cn/2024/library.html",
        "https://news.example.cn/2024/rain.html",
    ]


def test_store_failing_midway_exits_1(
    sites: Path,
    archive: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()

    def broken(*args: object, **kwargs: object) -> None:
        raise StoreError("writing 3 articles to sqlite:///store.db failed: disk I/O error")

    monkeypatch.setattr(SqlStore, "write", broken)
    assert reextract(archive, "--db", db_url, "--sites", sites) == 1
    assert capsys.readouterr().err.endswith(
        "newscrawl reextract: error: writing 3 articles to sqlite:///store.db failed: "
        "disk I/O error\n"
    )


def test_corrupt_record_midway_exits_1(
    sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.warc"
    write_archive(path, [recorded(BUS, "article")])
    with path.open("ab") as stream:
        stream.write(b"this is not a WARC record\r\n\r\n")
    out = tmp_path / "out.jsonl"
    db_url = f"sqlite:///{tmp_path}/store.db"
    open_store(db_url).close()
    assert reextract(path, "-o", out, "--db", db_url, "--sites", sites) == 1
    assert "reading the archive failed after 1 response record(s)" in capsys.readouterr().err
    assert [item["url"] for item in read_jsonl(out)] == [BUS.url]
    assert list(stored(db_url)) == ["https://news.example.cn/2024/bus.html"]  # committed


def test_tunables_a_method_ignores_are_named(
    archive: Path, sites: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert reextract(archive, "-o", tmp_path / "o", "--sites", sites, "--max-gap", "3") == 0
    assert "newscrawl reextract: --max-gap: only --method paper reads these" in (
        capsys.readouterr().err
    )


# --- usage errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["{tmp}/nope.warc.gz", "-o", "{tmp}/o"], "no such archive"),
        (["{archive}"], "give --db URL (the store to update), -o FILE (JSON lines), or both"),
        (["{tmp}/notes.txt", "-o", "{tmp}/o"], "notes.txt: not a WARC file"),
        (["{archive}", "-o", "{tmp}/o", "--sites", "{tmp}/none"], "--sites {tmp}/none: no such"),
        (
            ["{archive}", "-o", "{tmp}/o", "--db", "postgresql://postgres@127.0.0.1:1/test"],
            "cannot open the store at postgresql://postgres@127.0.0.1:1/test",
        ),
        (["{archive}", "--db", "sqlite:///{tmp}/s.db", "-o", "{tmp}"], "cannot write {tmp}: is a"),
        (["{archive}", "-o", "{tmp}/no/such/dir/o"], "cannot write {tmp}/no/such/dir/o"),
    ],
)
def test_usage_errors_exit_2_in_one_line(
    arguments: list[str],
    message: str,
    archive: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "notes.txt").write_text("not an archive\n")
    given = [a.format(tmp=tmp_path, archive=archive) for a in arguments]
    assert reextract(*given) == 2
    err = capsys.readouterr().err
    assert message.format(tmp=tmp_path) in err
    assert err.startswith("newscrawl reextract: error: ") and "Traceback" not in err
    assert not (tmp_path / "o").exists()
    assert not (tmp_path / "s.db").exists()


def test_an_article_s_dates_are_read_in_its_site_s_zone(tmp_path: Path) -> None:
    """As in a crawl: a byline written without an offset is a time of the site's config
    zone (Europe/Berlin here), not of the extractor's default."""
    folder = tmp_path / "berlin-sites"
    folder.mkdir()
    (folder / "news.toml").write_text('timezone = "Europe/Berlin"\n' + NEWS_TOML, "utf-8")
    dated = Article(BUS.url, BUS.title, ("发布时间：2024-05-09 09:30", *BUS.paragraphs))
    path = tmp_path / "dated.warc.gz"
    write_archive(path, [recorded(dated, "article")])
    out = tmp_path / "out.jsonl"
    assert reextract(path, "-o", out, "--sites", folder) == 0
    [item] = read_jsonl(out)
    assert item["published_at"] == "2024-05-09T09:30:00+02:00"


# --- the store's near-duplicate limit --------------------------------------------------------


def key_planes(db_url: str) -> dict[int, int]:
    """How many keys the store holds in each plane (the simhash's 0-13, the content's 14)."""
    with SqlStore.open(db_url, create=False) as store, store.engine.connect() as conn:
        keys = conn.execute(select(simhash_keys.c.key)).scalars().all()
    return dict(Counter(key >> 32 for key in keys))


def test_the_near_duplicate_limit_is_the_crawl_s(
    archive: Path,
    sites: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As the crawl, with its limit: by default the project's ``NEWSCRAWL_NEAR_DUPLICATE_BITS``
    (6: every article's simhash is indexed; 0: its content key alone), or
    ``--near-duplicate-bits N``. A limit below 0, given or set, is one line and status 2."""
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "newscrawl.settings")  # as scrapy.cfg says
    default, off, from_settings = (f"sqlite:///{tmp_path}/{name}.db" for name in "dos")
    assert reextract(archive, "--db", default, "--sites", sites) == 0
    assert reextract(archive, "--db", off, "--sites", sites, "--near-duplicate-bits", "0") == 0
    monkeypatch.setattr(newscrawl.settings, "NEWSCRAWL_NEAR_DUPLICATE_BITS", 0)
    assert reextract(archive, "--db", from_settings, "--sites", sites) == 0
    indexed = key_planes(default)  # the articles long enough for a simhash have one
    assert set(indexed) == set(range(INDEXED_PLANES)) and indexed[CONTENT_PLANE] == 3
    assert key_planes(off) == key_planes(from_settings) == {CONTENT_PLANE: 3}
    capsys.readouterr()
    assert reextract(archive, "--db", off, "--sites", sites, "--near-duplicate-bits", "-1") == 2
    assert "argument --near-duplicate-bits: '-1' must be 0 or more" in capsys.readouterr().err
    monkeypatch.setattr(newscrawl.settings, "NEWSCRAWL_NEAR_DUPLICATE_BITS", -1)
    assert reextract(archive, "--db", off, "--sites", sites) == 2
    assert capsys.readouterr().err == (
        "newscrawl reextract: error: NEWSCRAWL_NEAR_DUPLICATE_BITS=-1: must be 0 or more"
        " (the project's settings)\n"
    )
