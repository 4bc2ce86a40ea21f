"""``newscrawl reextract`` over archives written here with plain warcio."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newscrawl.cli import main

FETCHED = "2024-05-10T08:30:00Z"


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


def chunked(data: bytes) -> bytes:
    """`data` in HTTP/1.1 chunked transfer coding, as some crawlers store bodies."""
    return f"{len(data):x}\r\n".encode() + data + b"\r\n0\r\n\r\n"


def write_archive(
    path: Path, responses: list[tuple[str, str, list[tuple[str, str]], bytes]]
) -> None:
    """A WARC of (url, status line, headers, body) response records plus the usual extras."""
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


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """UTF-8, GBK and gzip+chunked HTML pages, an image and a 404."""
    path = tmp_path / "pages.warc.gz"
    write_archive(
        path,
        [
            (
                BUS.url,
                "200 OK",
                [("Content-Type", "text/html; charset=utf-8")],
                BUS.html().encode(),
            ),
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
                "http://news.example.cn/logo.png",
                "200 OK",
                [("Content-Type", "image/png")],
                b"\x89PNG",
            ),
            (
                "http://news.example.cn/gone.html",
                "404 Not Found",
                [("Content-Type", "text/html")],
                b"<html>",
            ),
        ],
    )
    return path


def read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_bytes().decode("utf-8").splitlines()]


def test_one_utf8_json_line_per_html_page(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    assert main(["reextract", str(archive), "-o", str(out)]) == 0
    records = read_jsonl(out)
    assert [(r["url"], r["title"], r["body"]) for r in records] == [
        (a.url, a.title, "\n".join(a.paragraphs)) for a in (BUS, LIBRARY, RAIN)
    ]
    assert [r["encoding"] for r in records] == ["utf-8", "gb18030", "utf-8"]
    assert {r["method"] for r in records} == {"default"}
    assert {r["fetched"] for r in records} == {"2024-05-10T08:30:00+00:00"}
    assert BUS.title.encode("utf-8") in out.read_bytes()  # Chinese as UTF-8, not \uXXXX


def test_skipped_records_are_counted_on_stderr(
    archive: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reextract", str(archive), "-o", str(tmp_path / "out.jsonl")]) == 0
    summary = capsys.readouterr().err
    assert "3 page(s)" in summary
    assert "2 record(s) skipped (not HTML: 1, status 404: 1)" in summary


def test_directory_of_archives_and_paper_method(archive: Path, tmp_path: Path) -> None:
    folder = tmp_path / "archives"
    folder.mkdir()
    archive.rename(folder / archive.name)
    write_archive(
        folder / "more.warc",
        [
            (
                "http://news.example.cn/only",
                "200 OK",
                [("Content-Type", "text/html")],
                BUS.html().encode(),
            )
        ],
    )
    out = tmp_path / "out.jsonl"
    assert main(["reextract", str(folder), "-o", str(out), "--method", "paper"]) == 0
    records = read_jsonl(out)
    assert len(records) == 4
    assert {r["method"] for r in records} == {"paper"}


def test_output_to_stdout(archive: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reextract", str(archive), "-o", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["title"] for line in lines] == [BUS.title, LIBRARY.title, RAIN.title]


def test_missing_archive_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["reextract", str(tmp_path / "nope.warc.gz"), "-o", str(tmp_path / "o")]) == 2
    assert "no such archive" in capsys.readouterr().err
