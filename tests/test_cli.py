"""`newscrawl extract` end to end: in-process through `main`, once through a real subprocess.

Pages are written here by hand into tmp_path; URL input is served from 127.0.0.1 only.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import unicodedata
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from newscrawl import cli
from newscrawl.bounded import PAGE_SIZE_LIMIT
from newscrawl.cli import main
from newscrawl.extract import Options, default

TITLE = "市政府通报上半年经济运行情况"
NAV = "首页 | 新闻 | 体育 | 财经 | 科技"
PARA1 = (
    "本报讯 今天上午，市政府召开新闻发布会，通报了全市上半年经济运行情况。发布会上，"
    "市统计局负责人介绍，上半年全市地区生产总值同比增长百分之五点八，增速高于全国平均水平。"
)
PARA2 = (
    "这位负责人表示，下半年将继续加大稳增长政策力度，推动消费持续恢复，扩大有效投资，"
    "全力以赴完成全年目标任务，为经济社会高质量发展打下坚实基础。"
)
EDITOR = "责任编辑：王小明"
FAR = (
    "相关新闻：本市举行夏季大型招聘会，共有三百余家企业参加，提供就业岗位一万两千多个，"
    "涵盖制造、信息技术、金融、教育、医疗等多个行业，吸引了大批应届毕业生和求职者到场。"
)
FOOTER = "版权所有 2024 示例新闻网"
SHORT_LINES = (
    "今天上午市里召开了一场新闻发布会。",
    "会上介绍了上半年的经济运行情况。",
    "下半年将继续推动消费持续恢复。",
)
BIG5_TITLE = "市政府召開記者會"
BIG5_PARA = "本報訊 今天上午，市政府召開記者會，說明上半年經濟運行情況。" * 3


def news_page(*, charset: str | None = "utf-8", gap: int = 12) -> str:
    """Nav, a two-paragraph group ending in an editor line, `gap` empty lines, a far story.

    Body lines are numbered from ``<body>`` (line 1): nav 2, PARA1 4, PARA2 5, EDITOR 6,
    FAR at 7 + gap, so the default D=10 cuts FAR off when gap >= 10.
    """
    meta = f'<meta charset="{charset}">' if charset else ""
    return "\n".join(
        [
            f"<html><head>{meta}<title>{TITLE}</title></head>",
            "<body>",
            f"<div class='nav'>{NAV}</div>",
            "",
            f"<p>{PARA1}</p>",
            f"<p>{PARA2}</p>",
            f"<p>{EDITOR}</p>",
            *[""] * gap,
            f"<p>{FAR}</p>",
            "",
            f"<div>{FOOTER}</div>",
            "</body></html>",
        ]
    )


BYLINE = "2026年11月20日 09:30 来源：示例新闻网 作者：张明"
LINK_NAV = ("首页", "新闻", "体育", "财经", "科技")


def byline_page() -> str:
    """A page as CMSs write it: a menu of links, the headline, a byline, the story."""
    menu = " | ".join(f"<a href='/c{number}'>{name}</a>" for number, name in enumerate(LINK_NAV))
    return "\n".join(
        [
            f'<html><head><meta charset="utf-8"><title>{TITLE}_示例新闻网</title></head>',
            "<body>",
            f"<div>{menu}</div>",
            f"<h1>{TITLE}</h1>",
            f"<div class='info'>{BYLINE}</div>",
            f"<div class='article'><p>{PARA1}</p><p>{PARA2}</p><p>{EDITOR}</p></div>",
            f"<div class='footer'>{FOOTER}</div>",
            "</body></html>",
        ]
    )


def short_line_page() -> str:
    """Hard-wrapped text: no line reaches the fallback L=60, so defaults extract nothing."""
    body = "\n".join(f"<p>{line}</p>" for line in SHORT_LINES)
    return f"<html><head><title>短行</title></head><body>\n{body}\n</body></html>"


def empty_page() -> str:
    """No text at all: an empty body under either method."""
    return "<html><head><title>空</title></head><body></body></html>"


def big5_page() -> bytes:
    """Big5 bytes without any declaration: they also decode (wrongly) as GB18030."""
    html = (
        f"<html><head><title>{BIG5_TITLE}</title></head><body>\n<p>{BIG5_PARA}</p>\n</body></html>"
    )
    return html.encode("big5")


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["extract", *args]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "one input prints exactly one JSON object on one line"
    return json.loads(out)


def jsonl(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines()]


def columns(line: str) -> int:
    """Terminal columns `line` takes (CJK wide and fullwidth characters take two)."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in line)


def summary(stderr: str) -> tuple[int, int, int]:
    match = re.search(r"(\d+) pages, (\d+) empty, (\d+) errors", stderr)
    assert match, stderr
    pages, empty, errors = (int(group) for group in match.groups())
    return pages, empty, errors


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    return write(tmp_path / "news.html", news_page())


# ----------------------------------------------------------------- single page


def test_json_output_is_the_article(capsys: pytest.CaptureFixture[str], page_file: Path) -> None:
    data = run_json(capsys, str(page_file))
    assert data["title"] == TITLE
    assert data["body"] == f"{PARA1}\n{PARA2}"
    assert data["encoding"] == "utf-8"
    assert data["method"] == "default"
    assert data["reason"] is None
    assert data["parameters"] == default.parameters(Options())
    assert data["fallback"] is None
    assert isinstance(data["metadata"], dict)
    assert data["url"] is None
    assert "lines" not in data


def test_default_method_reports_metadata_from_the_byline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "byline.html", byline_page())
    data = run_json(capsys, str(path), "--method", "default")
    assert data["method"] == "default"
    assert data["title"] == TITLE
    assert PARA1 in str(data["body"]) and PARA2 in str(data["body"])
    assert BYLINE not in str(data["body"])
    assert data["fallback"] is None
    metadata = data["metadata"]
    assert isinstance(metadata, dict)
    assert metadata["published"] == "2026-11-20T09:30:00+08:00"  # the page's time is Beijing's
    assert metadata["author"] == "张明"


def test_default_method_falls_back_to_the_json_ld_body(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A page whose script renders the story: only the head's JSON-LD has the text."""
    article_body = PARA1 + PARA2 + PARA1
    ld = json.dumps({"@type": "NewsArticle", "articleBody": article_body}, ensure_ascii=False)
    html = (
        f"<html><head><title>{TITLE}</title>"
        f'<script type="application/ld+json">{ld}</script></head>'
        "<body><div id='app'>加载中</div></body></html>"
    )
    path = write(tmp_path / "script.html", html)
    data = run_json(capsys, str(path))
    assert data["body"] == article_body
    assert data["fallback"] == "json-ld articleBody"
    assert main(["extract", str(path), "--format", "text", "--explain"]) == 0
    assert "body from: json-ld articleBody" in capsys.readouterr().out


def test_json_keeps_chinese_as_utf8(
    capfdbinary: pytest.CaptureFixture[bytes], page_file: Path
) -> None:
    assert main(["extract", str(page_file)]) == 0
    out = capfdbinary.readouterr().out
    assert TITLE.encode("utf-8") in out
    assert b"\\u" not in out


def test_method_paper(capsys: pytest.CaptureFixture[str], page_file: Path) -> None:
    data = run_json(capsys, str(page_file), "--method", "paper")
    assert data["method"] == "paper"
    assert data["body"] == f"{PARA1}\n{PARA2}"
    assert data["parameters"] == {"L": 80, "D": 10}
    assert data["fallback"] is None


def test_text_output_is_title_blank_line_body(
    capsys: pytest.CaptureFixture[str], page_file: Path
) -> None:
    assert main(["extract", str(page_file), "--format", "text"]) == 0
    assert capsys.readouterr().out == f"{TITLE}\n\n{PARA1}\n{PARA2}\n"


def test_gbk_bytes_decode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "gbk.html", news_page(charset="gbk").encode("gbk"))
    data = run_json(capsys, str(path))
    assert data["encoding"] == "gb18030"
    assert data["title"] == TITLE
    assert data["body"] == f"{PARA1}\n{PARA2}"


def test_stdin_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(news_page(charset="gb2312").encode("gbk")))
    monkeypatch.setattr(sys, "stdin", stdin)
    data = run_json(capsys, "-")
    assert data["title"] == TITLE
    assert data["body"] == f"{PARA1}\n{PARA2}"


def test_gz_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "news.html.gz", gzip.compress(news_page().encode("utf-8")))
    data = run_json(capsys, str(path))
    assert data["title"] == TITLE
    assert data["body"] == f"{PARA1}\n{PARA2}"


def test_charset_overrides_decoding(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "big5.html", big5_page())
    sniffed = run_json(capsys, str(path))
    assert sniffed["title"] != BIG5_TITLE  # undeclared Big5 sniffs as GB18030: mojibake
    forced = run_json(capsys, str(path), "--charset", "big5")
    assert forced["title"] == BIG5_TITLE
    assert forced["body"] == BIG5_PARA


# ----------------------------------------------------------------- parameters


def test_max_gap_override_keeps_the_far_group(
    capsys: pytest.CaptureFixture[str], page_file: Path
) -> None:
    default = run_json(capsys, str(page_file), "--method", "paper")
    assert FAR not in str(default["body"])
    wider = run_json(capsys, str(page_file), "--method", "paper", "--max-gap", "20")
    assert wider["parameters"] == {"L": 80, "D": 20}
    assert wider["body"] == f"{PARA1}\n{PARA2}\n{EDITOR}\n{FAR}"


@pytest.mark.parametrize("flag", ["--min-line-length", "--fallback-line-length"])
def test_line_length_override_rescues_short_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, flag: str
) -> None:
    path = write(tmp_path / "short.html", short_line_page())
    default = run_json(capsys, str(path), "--method", "paper")
    assert default["body"] == ""
    assert "L=60" in str(default["reason"])
    tuned = run_json(capsys, str(path), "--method", "paper", flag, "10")
    assert tuned["parameters"] == {"L": 10, "D": 10}
    assert tuned["body"] == "\n".join(SHORT_LINES)
    assert tuned["reason"] is None


def test_paper_flags_under_the_default_method_are_reported_as_ignored(
    capsys: pytest.CaptureFixture[str], page_file: Path
) -> None:
    assert main(["extract", str(page_file), "--max-gap", "20"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["method"] == "default"
    assert "--max-gap: only --method paper reads these" in captured.err


def test_empty_result_is_not_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path / "short.html", short_line_page())
    assert main(["extract", str(path), "--method", "paper", "--format", "text"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "短行\n\n\n"
    assert "empty body: no text line reaches L=60" in captured.err


# ----------------------------------------------------------------- --explain


def table_row(out: str, text: str) -> str:
    rows = [line for line in out.splitlines() if text in line]
    assert len(rows) == 1, (text, out)
    return rows[0]


def test_explain_text_shows_kept_and_dropped_lines_with_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, page_file: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    args = [str(page_file), "--method", "paper", "--format", "text", "--explain"]
    assert main(["extract", *args]) == 0
    out = capsys.readouterr().out
    article, table = out.split("\nmethod: ", 1)
    assert article == f"{TITLE}\n\n{PARA1}\n{PARA2}\n"
    assert "parameters used: L=80, D=10" in table
    assert "configured: L=80 (fallback L=60" in table
    header = table_row(table, "decision")
    for column in ("line", "length", "full_stop", "group", "rule", "text"):
        assert column in header
    assert re.search(
        r"\b2\s+22\s+no\s+-\s+dropped\s+outside groups\s+首页", table_row(table, NAV[:7])
    )
    start = table_row(table, PARA1[:6])
    assert re.search(r"\b4\s+\d+\s+yes\s+1\s+kept\s+group start: length >= L=80", start)
    assert "kept" in table_row(table, PARA2[:6]) and "in group" in table_row(table, PARA2[:6])
    assert re.search(r"dropped\s+tail: no full stop in last group", table_row(table, EDITOR[:4]))
    assert re.search(
        r"\b19\s.*dropped\s+cut: gap 13 > D=10 above group 2", table_row(table, FAR[:6])
    )
    assert re.search(r"\b7-18\s.*outside groups\s+\(12 empty lines\)", table)
    for line in table.splitlines():  # shortened to the terminal (CJK characters are 2 wide)
        assert columns(line) <= 100, line


def test_explain_text_shows_the_fallback_l(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "160")  # wide enough for the whole row, whatever runs the test
    path = write(tmp_path / "short.html", short_line_page())
    assert main(["extract", str(path), "--method", "paper", "--format", "text", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "parameters used: L=60, D=10" in out
    assert "empty because: no text line reaches L=60 characters" in out
    assert "no line reaches L=60" in table_row(out, SHORT_LINES[0])


def test_explain_json_has_the_line_table(
    capsys: pytest.CaptureFixture[str], page_file: Path
) -> None:
    data = run_json(capsys, str(page_file), "--method", "paper", "--explain")
    assert data["parameters"] == {"L": 80, "D": 10}
    lines = {line["text"]: line for line in data["lines"]}  # type: ignore[union-attr]
    assert lines[PARA1]["kept"] is True
    assert lines[PARA1]["rule"] == "group start: length >= L=80"
    assert lines[PARA1]["features"]["length"] == len(PARA1)
    assert lines[EDITOR]["kept"] is False
    assert lines[EDITOR]["rule"] == "tail: no full stop in last group"
    assert lines[FAR]["kept"] is False
    assert lines[FAR]["rule"].startswith("cut: gap 13 > D=10")
    assert lines[NAV]["group"] is None


def test_explain_text_for_the_default_method_shows_scores_and_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    path = write(tmp_path / "byline.html", byline_page())
    assert main(["extract", str(path), "--format", "text", "--explain"]) == 0
    out = capsys.readouterr().out
    table = out.split("\nmethod: ", 1)[1]
    head, rows = table.split("\n\n", 1)
    assert head.startswith("default  encoding: utf-8")
    assert "parameters used: line_cost=20, " in head
    assert "configured: L=" not in head  # L and D are the paper's
    assert all(columns(line) <= 100 for line in head.splitlines())  # parameters wrapped
    header = table_row(rows, "decision")
    for column in ("chars", "link_chars", "punctuation", "score", "group", "rule", "text"):
        assert column in header
    assert re.search(r"\bdropped\s+\S", table_row(rows, LINK_NAV[0]))
    for paragraph in (PARA1, PARA2):
        assert re.search(r"\bkept\s+\S", table_row(rows, paragraph[:6]))


def test_explain_json_for_the_default_method_has_features_and_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "byline.html", byline_page())
    data = run_json(capsys, str(path), "--explain")
    assert data["method"] == "default"
    assert data["parameters"] == default.parameters(Options())
    lines = data["lines"]
    assert isinstance(lines, list) and lines
    for line in lines:
        assert {"chars", "link_chars", "punctuation", "score"} <= set(line["features"])
        assert line["rule"]
    by_text = {line["text"]: line for line in lines}
    nav = next(line for text, line in by_text.items() if text.startswith(LINK_NAV[0]))
    assert nav["kept"] is False
    assert nav["features"]["link_chars"] > 0
    for paragraph in (PARA1, PARA2):
        assert by_text[paragraph]["kept"] is True
        assert by_text[paragraph]["features"]["score"] > 0


# ----------------------------------------------------------------- several pages


def test_directory_gives_jsonl_and_a_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = tmp_path / "pages"
    write(root / "z_empty.HTML", empty_page())
    write(root / "sub" / "c.htm.gz", gzip.compress(news_page().encode("utf-8")))
    write(root / "sub" / "b.htm", news_page(charset="gbk").encode("gbk"))
    write(root / "a.html", news_page())
    write(root / "notes.txt", "不是网页")
    write(root / "sub" / "data.json", "{}")
    assert main(["extract", str(root), "--format", "text"]) == 0  # JSON lines regardless
    captured = capsys.readouterr()
    records = jsonl(captured.out)
    assert [record["path"] for record in records] == [
        str(root / "a.html"),
        str(root / "sub" / "b.htm"),
        str(root / "sub" / "c.htm.gz"),
        str(root / "z_empty.HTML"),
    ]
    assert [record["title"] for record in records[:3]] == [TITLE] * 3
    assert records[3]["body"] == ""
    assert all("lines" not in record for record in records)
    assert summary(captured.err) == (4, 1, 0)
    assert "\r" not in captured.err  # no progress bar when stderr is not a terminal


def test_several_paths_with_missing_and_broken_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = write(tmp_path / "good.html", news_page())
    missing = tmp_path / "missing.html"
    broken = write(tmp_path / "broken.html.gz", b"<html>not gzip at all</html>")
    assert main(["extract", str(good), str(missing), str(broken), "--explain"]) == 1
    captured = capsys.readouterr()
    records = jsonl(captured.out)
    assert [record["path"] for record in records] == [str(good), str(missing), str(broken)]
    assert records[0]["title"] == TITLE and records[0]["lines"]
    assert records[1] == {"path": str(missing), "error": "cannot read: No such file or directory"}
    assert set(records[2]) == {"path", "error"}
    assert "gzip" in str(records[2]["error"])
    assert summary(captured.err) == (3, 0, 2)


def test_progress_bar_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write(tmp_path / "a.html", news_page())
    write(tmp_path / "b.html", news_page())
    monkeypatch.setattr("newscrawl.commands.extract.is_terminal", lambda stream: True)
    assert main(["extract", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "2/2" in captured.err
    assert len(jsonl(captured.out)) == 2
    assert summary(captured.err) == (2, 0, 0)


def test_an_extractor_crash_on_one_page_is_an_error_record(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import newscrawl.commands.extract as command

    real_extract = command.extract

    def flaky(html: bytes, url: str | None = None, **kwargs: object) -> object:
        if b"crash" in html:
            raise RuntimeError("boom")
        return real_extract(html, url, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "extract", flaky)
    write(tmp_path / "a.html", "<html><body>crash</body></html>")
    write(tmp_path / "b.html", news_page())
    assert main(["extract", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    first, second = jsonl(captured.out)
    assert first["error"] == "extractor failed: RuntimeError: boom"
    assert second["title"] == TITLE
    assert summary(captured.err) == (2, 0, 1)


def test_single_missing_path_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["extract", str(tmp_path / "nope.html")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "No such file or directory" in captured.err


def test_empty_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["extract", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert summary(captured.err) == (0, 0, 0)


# ----------------------------------------------------------------- usage


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["extract"],
        ["extract", "x.html", "--max-gap", "-1"],
        ["extract", "x.html", "--min-line-length", "many"],
        ["extract", "x.html", "--method", "magic"],
        ["extract", "x.html", "--charset", "no-such-charset"],
        ["extract", "x.html", "--timeout", "0"],
        ["extract", "-", "-"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err


def test_extract_help_explains_both_methods(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "until the default extractor lands" not in help_text
    assert "paper: the published algorithm" in help_text
    assert "default: the project's extractor" in help_text
    assert help_text.count("--method paper only") == 3  # L, its fallback and D
    assert "Scrapy" in help_text
    for flag in (
        "--min-line-length",
        "--fallback-line-length",
        "--max-gap",
        "--charset",
        "--timeout",
        "--explain",
    ):
        assert flag in help_text


# ----------------------------------------------------------------- URL input


@dataclass
class Served:
    base: str
    pages: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    encodings: dict[str, str] = field(default_factory=dict)
    user_agents: list[str] = field(default_factory=list)


@pytest.fixture
def server() -> Iterator[Served]:
    """A local HTTP server on an ephemeral port; `pages` maps a path to (body, Content-Type)."""
    served = Served(base="")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.user_agents.append(self.headers.get("User-Agent", ""))
            page = served.pages.get(self.path)
            if page is None:
                self.send_error(404)
                return
            body, content_type = page
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if self.path in served.encodings:
                self.send_header("Content-Encoding", served.encodings[self.path])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield served
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def test_url_input_uses_a_browser_agent_and_the_header_charset(
    capsys: pytest.CaptureFixture[str], server: Served
) -> None:
    server.pages["/gbk"] = (news_page(charset=None).encode("gbk"), "text/html; charset=GBK")
    data = run_json(capsys, f"{server.base}/gbk")
    assert data["url"] == f"{server.base}/gbk"
    assert data["title"] == TITLE
    assert data["body"] == f"{PARA1}\n{PARA2}"
    assert data["encoding"] == "gb18030"
    (agent,) = server.user_agents
    assert agent.startswith("Mozilla/5.0 (")
    assert "Chrome/" in agent
    assert "python" not in agent.lower()


def test_url_header_charset_is_what_decodes(
    capsys: pytest.CaptureFixture[str], server: Served
) -> None:
    """Undeclared Big5 sniffs as GB18030, so a right title proves the header was used."""
    server.pages["/big5"] = (big5_page(), "text/html; charset=big5")
    data = run_json(capsys, f"{server.base}/big5")
    assert data["title"] == BIG5_TITLE
    assert str(data["encoding"]).startswith("big5")


def test_url_errors(capsys: pytest.CaptureFixture[str], server: Served, tmp_path: Path) -> None:
    assert main(["extract", f"{server.base}/missing"]) == 1
    assert "HTTP 404" in capsys.readouterr().err
    good = write(tmp_path / "good.html", news_page())
    assert main(["extract", f"{server.base}/missing", str(good)]) == 1
    records = jsonl(capsys.readouterr().out)
    assert records[0]["error"] == "HTTP 404 Not Found"
    assert records[1]["title"] == TITLE


OVER_THE_LIMIT = PAGE_SIZE_LIMIT + 1024


def test_url_content_codings_are_undone(capsys: pytest.CaptureFixture[str], server: Served) -> None:
    page = news_page().encode()
    halves = gzip.compress(page[:100]) + gzip.compress(page[100:])  # two gzip members
    server.pages["/gz"], server.encodings["/gz"] = (halves, "text/html"), "gzip"
    server.pages["/deflate"] = (zlib.compress(page), "text/html")
    server.encodings["/deflate"] = "deflate"
    assert run_json(capsys, f"{server.base}/gz")["title"] == TITLE
    assert run_json(capsys, f"{server.base}/deflate")["title"] == TITLE


def test_url_gzip_bomb_is_refused_not_inflated(
    capsys: pytest.CaptureFixture[str], server: Served
) -> None:
    """33 KB on the wire, over the crawl's DOWNLOAD_MAXSIZE once inflated."""
    bomb = gzip.compress(b"<p>" + b" " * OVER_THE_LIMIT)
    assert len(bomb) < 100_000
    server.pages["/bomb"], server.encodings["/bomb"] = (bomb, "text/html"), "gzip"
    server.pages["/deflate-bomb"] = (zlib.compress(b" " * OVER_THE_LIMIT), "text/html")
    server.encodings["/deflate-bomb"] = "deflate"
    for path in ("/bomb", "/deflate-bomb"):
        assert main(["extract", f"{server.base}{path}"]) == 1
        err = capsys.readouterr().err
        assert err.strip().splitlines() == [
            f"newscrawl extract: {server.base}{path}: decompressed page larger than 32 MB "
            "(DOWNLOAD_MAXSIZE): not read"
        ]


def test_oversized_url_file_and_stdin_are_refused(
    capsys: pytest.CaptureFixture[str],
    server: Served,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    huge = b"<p>" + b"x" * OVER_THE_LIMIT
    server.pages["/huge"] = (huge, "text/html")
    big_file = tmp_path / "huge.html"
    big_file.write_bytes(huge)
    bomb_file = tmp_path / "bomb.html.gz"
    bomb_file.write_bytes(gzip.compress(huge))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(huge)))
    for source in (f"{server.base}/huge", str(big_file), str(bomb_file), "-"):
        assert main(["extract", source]) == 1
        assert "larger than 32 MB (DOWNLOAD_MAXSIZE): not read" in capsys.readouterr().err


def test_url_timeout_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A server that accepts connections but never answers."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        assert main(["extract", url, "--timeout", "0.2"]) == 1
    assert "timed out" in capsys.readouterr().err


# ----------------------------------------------------------------- console path


def test_subprocess_writes_utf8_under_an_ascii_locale(tmp_path: Path) -> None:
    page = write(tmp_path / "news.html", news_page())
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C", "PYTHONUTF8": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "extract", str(page), "--format", "json"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"\\u" not in done.stdout
    data = json.loads(done.stdout.decode("utf-8"))
    assert data["title"] == TITLE

    text = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "extract", str(page), "--format", "text"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert text.returncode == 0, text.stderr
    assert text.stdout.decode("utf-8").startswith(f"{TITLE}\n\n{PARA1}")

    usage = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "extract"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert usage.returncode == 2


def test_explain_shows_the_confidence_and_what_lowered_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path / "short.html", "<html><body><p>Mon-Fri 9-17</p></body></html>")
    assert main(["extract", str(path), "--format", "text", "--explain"]) == 0
    out = capsys.readouterr().out
    line = table_row(out, "confidence: ")
    assert re.search(r"confidence: 0\.\d\d \(.*short body \(4 words\)", line)
    assert "short page: its whole text kept" in line


def test_a_command_line_imports_only_the_module_of_its_command(page_file: Path) -> None:
    """A one-page ``newscrawl extract`` must not wait for the other commands' Scrapy and
    SQLAlchemy (over a second to import)."""
    probe = (
        "import sys\n"
        "from newscrawl.cli import main\n"
        f"status = main(['extract', '--format', 'text', {str(page_file)!r}])\n"
        "print(status, 'scrapy' in sys.modules, 'sqlalchemy' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stderr.split() == ["0", "False", "False"]
    assert done.stdout.strip()


@pytest.mark.parametrize("name", cli.COMMANDS)
def test_each_command_module_registers_the_command_of_its_name(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    command = name.replace("_", "-")
    assert [module.__name__ for module in cli.command_modules([command, "x"])] == [
        f"newscrawl.commands.{name}"
    ]
    with pytest.raises(SystemExit) as stop:
        cli.build_parser(cli.command_modules([command])).parse_args([command, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: newscrawl {command} ")


@pytest.mark.parametrize("argv", [[], ["--help"], ["-h", "extract"], ["bogus"], ["--version"]])
def test_help_and_other_command_lines_load_every_command(argv: list[str]) -> None:
    assert len(cli.command_modules(argv)) == len(cli.COMMANDS)


def test_the_help_and_a_wrong_name_list_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    listed = capsys.readouterr().out
    assert main(["bogus"]) == 2
    choices = capsys.readouterr().err
    for name in cli.COMMANDS:
        assert name.replace("_", "-") in listed and repr(name.replace("_", "-")) in choices
