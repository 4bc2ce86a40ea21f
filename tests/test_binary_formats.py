"""Binary files (PDF, images, archives, office, media, fonts, executables) are not pages.

Every fixture is built here from a few bytes or with the standard library; `binary_kind`
must name each one and must name no text, whatever its charset, BOM or first characters.
"""

from __future__ import annotations

import asyncio
import bz2
import gzip
import io
import json
import lzma
import struct
import tarfile
import wave
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import DropItem
from site_fixtures import make_spider

from newscrawl.cli import main
from newscrawl.extract import METHODS, Method, Options, extract
from newscrawl.extract.decode import looks_binary
from newscrawl.extract.formats import (
    UNKNOWN_BINARY,
    binary_kind,
    not_html,
    not_html_kind,
    not_html_reason,
)
from newscrawl.items import RawPage
from newscrawl.pipelines.extract import ExtractPipeline

PDF = (
    b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
    b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n"
    b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"
)
"""A PDF whose first kilobyte has no NUL: the NUL heuristic alone lets it through."""

PARAGRAPH = (
    "国家统计局今天发布的数据显示，十月份全国规模以上工业增加值同比增长百分之五点三，"
    "比上月加快零点一个百分点，制造业投资继续保持较快增长，市场预期总体稳定向好。"
)
HTML = (
    "<html><head><meta charset='utf-8'><title>十月经济数据发布_新闻中心</title></head>"
    f"<body><div id='article'><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p></div>"
    "</body></html>"
)


def png() -> bytes:
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + chunk + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def zipped(*names: str, stored: bool = False) -> bytes:
    buffer = io.BytesIO()
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name in names:
            data = "application/vnd.oasis.opendocument.text" if name == "mimetype" else "<x/>"
            archive.writestr(name, data)
    return buffer.getvalue()


def tarred() -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("page.html")
        info.size = len(HTML.encode())
        archive.addfile(info, io.BytesIO(HTML.encode()))
    return buffer.getvalue()


def wav() -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(8000)
        sound.writeframes(b"\x00\x00" * 8)
    return buffer.getvalue()


def riff(form: bytes, rest: bytes) -> bytes:
    return b"RIFF" + struct.pack("<I", 4 + len(rest)) + form + rest


def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def pe() -> bytes:
    dos = bytearray(b"MZ" + b"\x90\x00" * 29)
    dos[0x3C:0x40] = struct.pack("<I", 0x80)
    return bytes(dos.ljust(0x80, b"\x00")) + b"PE\x00\x00" + b"\x4c\x01" + b"\x00" * 18


BINARIES: dict[str, tuple[bytes, str]] = {
    "pdf": (PDF, "pdf"),
    "png": (png(), "png"),
    "jpeg": (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00", "jpeg"),
    "gif89a": (b"GIF89a\x01\x00\x01\x00\x80\x00\x00", "gif"),
    "gif87a": (b"GIF87a\x01\x00\x01\x00\x80\x00\x00", "gif"),
    "webp": (riff(b"WEBP", b"VP8 \x00\x00\x00\x00"), "webp"),
    "bmp": (b"BM" + struct.pack("<I", 58) + b"\x00\x00\x00\x00" + struct.pack("<I", 54), "bmp"),
    "ico": (b"\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00", "ico"),
    "tiff-le": (b"II*\x00\x08\x00\x00\x00", "tiff"),
    "tiff-be": (b"MM\x00*\x00\x00\x00\x08", "tiff"),
    "avif": (box(b"ftyp", b"avif\x00\x00\x00\x00mif1miaf"), "avif"),
    "heic": (box(b"ftyp", b"heic\x00\x00\x00\x00mif1heic"), "heic"),
    "zip": (zipped("notes.txt", "images/a.png"), "zip"),
    "empty-zip": (zipped(), "zip"),
    "docx": (zipped("[Content_Types].xml", "_rels/.rels", "word/document.xml"), "office"),
    "xlsx-rels-first": (zipped("_rels/.rels", "xl/workbook.xml"), "office"),
    "odt": (zipped("mimetype", "content.xml", stored=True), "office"),
    "ole2-doc": (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 16 + b"\x3e\x00", "office"),
    "gzip": (gzip.compress(HTML.encode()), "gzip"),
    "bzip2": (bz2.compress(HTML.encode()), "bzip2"),
    "empty-bzip2": (bz2.compress(b""), "bzip2"),
    "xz": (lzma.compress(HTML.encode()), "xz"),
    "7z": (b"7z\xbc\xaf\x27\x1c\x00\x04" + b"\x00" * 24, "7z"),
    "rar": (b"Rar!\x1a\x07\x01\x00", "rar"),
    "tar": (tarred(), "tar"),
    "mp3-id3": (b"ID3\x04\x00\x00\x00\x00\x00\x0f" + b"\x00" * 15, "mp3"),
    "mp3-frame": (b"\xff\xfb\x90\x64" + b"\x00" * 60, "mp3"),
    "mp4": (box(b"ftyp", b"isom\x00\x00\x02\x00isomiso2mp41"), "mp4"),
    "webm": (b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm\x42\x87\x81\x04", "webm"),
    "mkv": (b"\x1a\x45\xdf\xa3\xa3\x42\x86\x81\x01\x42\x82\x88matroska", "matroska"),
    "ogg": (b"OggS\x00\x02" + b"\x00" * 20, "ogg"),
    "wav": (wav(), "wav"),
    "avi": (riff(b"AVI ", b"LIST\x00\x00\x00\x00hdrl"), "avi"),
    "flac": (b"fLaC\x80\x00\x00\x22" + b"\x00" * 34, "flac"),
    "woff": (b"wOFF\x00\x01\x00\x00" + b"\x00" * 36, "woff"),
    "woff2": (b"wOF2\x00\x01\x00\x00" + b"\x00" * 40, "woff2"),
    "ttf": (b"\x00\x01\x00\x00\x00\x0c\x00\x80\x00\x03\x00\x40", "ttf"),
    "otf": (b"OTTO\x00\x0b\x00\x80\x00\x03\x00\x30", "otf"),
    "elf": (b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8, "elf"),
    "exe": (pe(), "exe"),
}

TEXTS: dict[str, bytes] = {
    "html": HTML.encode("utf-8"),
    "gbk html": HTML.replace("utf-8", "gb2312").encode("gbk"),
    "utf-8 bom": b"\xef\xbb\xbf" + HTML.encode("utf-8"),
    "utf-16 le bom": HTML.encode("utf-16"),
    "utf-16 be bom": b"\xfe\xff" + HTML.encode("utf-16-be"),
    "utf-32 bom": HTML.encode("utf-32"),
    "leading whitespace": b"\r\n\t  \n" + HTML.encode("utf-8"),
    "leading comment": b"<!-- saved from url=(0042)https://news.example.cn/ -->\n" + HTML.encode(),
    "doctype": b"<!DOCTYPE html>\n" + HTML.encode(),
    "xhtml": b'<?xml version="1.0" encoding="utf-8"?>\n'
    b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>',
    "plain text": "十月份全国规模以上工业增加值同比增长。\n".encode(),
    "json": b'{"title": "x", "body": "y"}',
    "empty": b"",
    # Short ASCII signatures that text can start with, followed by text:
    "MZ text": b"MZ is a town in Poland. " * 4,
    "BMW text": b"BMW announced record sales this quarter. " * 4,
    "ID3 text": b"ID3 tags hold an MP3's title and artist. " * 4,
    "BZh text": b"BZh9 is the header of a bzip2 file. " * 4,
    "OTTO text": b"OTTO von Bismarck was chancellor. " * 4,
    "RIFF text": b"RIFF raffs and WEBP files are different. " * 4,
    "PK text": b"PK: the penalty shoot-out decided the match. " * 4,
    "true text": b"true story: a page that starts with a boolean. " * 4,
    "fLaC text": b"fLaC is how the format spells itself. " * 4,
}


@pytest.mark.parametrize(("data", "kind"), BINARIES.values(), ids=BINARIES.keys())
def test_binary_files_are_named_by_their_magic_number(data: bytes, kind: str) -> None:
    assert binary_kind(data) == kind
    assert not_html(data) == kind


@pytest.mark.parametrize("data", TEXTS.values(), ids=TEXTS.keys())
def test_text_is_never_a_binary_format(data: bytes) -> None:
    assert binary_kind(data) is None
    assert not_html(data) is None


def test_a_pdf_without_nul_bytes_is_caught_by_its_signature() -> None:
    assert not looks_binary(PDF)  # what let it through before
    assert binary_kind(PDF) == "pdf"


def test_utf16_without_a_bom_has_no_format() -> None:
    """It holds NULs, so it is refused as `UNKNOWN_BINARY` as before, but named by nothing."""
    data = HTML.encode("utf-16-le")
    assert binary_kind(data) is None
    assert not_html(data) == UNKNOWN_BINARY


def test_unknown_bytes_with_nul_are_binary_without_a_format() -> None:
    data = b"\x01\x02\x03\x00\x00\x00some unknown container" * 10
    assert binary_kind(data) is None
    assert not_html(data) == UNKNOWN_BINARY


def test_truncated_signatures_do_not_raise() -> None:
    for data, _ in BINARIES.values():
        for end in range(min(len(data), 300)):
            binary_kind(data[:end])


def test_only_the_first_bytes_are_read() -> None:
    """A body's size does not matter, and a signature later in it is ignored."""
    assert binary_kind(PDF + b"x" * 10_000_000) == "pdf"
    assert binary_kind(b"<html>" + PDF) is None
    assert binary_kind(b"<html>" + png()) is None


@pytest.mark.parametrize("kind", ["pdf", "png", "office", "mp4", UNKNOWN_BINARY])
def test_reason_and_kind_round_trip(kind: str) -> None:
    reason = not_html_reason(kind)
    assert reason.startswith("not HTML: ")
    assert "binary" in reason
    assert not_html_kind(reason) == kind


def test_other_reasons_have_no_kind() -> None:
    assert not_html_kind(None) is None
    assert not_html_kind("no text lines") is None


# ------------------------------------------------------------------ extract()


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("name", "kind"), [("pdf", "pdf"), ("png", "png"), ("docx", "office")])
def test_extract_refuses_a_binary_file_with_its_kind(method: Method, name: str, kind: str) -> None:
    data, _ = BINARIES[name]
    article = extract(data, "https://news.example.cn/a.pdf", options=Options(method=method))
    assert article.body == "" and article.title == ""
    assert article.reason == f"not HTML: {kind} (binary file)"
    assert article.encoding is None  # never decoded
    assert article.url == "https://news.example.cn/a.pdf"


def test_extract_refuses_unknown_binary_bytes() -> None:
    article = extract(b"\x01\x02\x00\x00" * 100)
    assert article.body == ""
    assert article.reason == "not HTML: binary file"


def test_extract_still_reads_pages_that_only_look_odd() -> None:
    for name in ("utf-8 bom", "utf-16 le bom", "leading whitespace", "leading comment"):
        article = extract(TEXTS[name], options=Options(with_metadata=False))
        assert PARAGRAPH in article.body, name
        assert article.reason is None


def test_a_str_is_text_whatever_it_starts_with() -> None:
    article = extract("%PDF-1.4\n" + HTML, options=Options(with_metadata=False))
    assert PARAGRAPH in article.body
    assert not_html_kind(article.reason) is None


# ------------------------------------------------------------------ the crawl's pipeline


def raw_page(body: bytes) -> RawPage:
    return RawPage(
        url="https://news.example.cn/a/1.html",
        final_url="https://news.example.cn/a/1.html",
        status=200,
        headers={"Content-Type": ["text/html"]},
        body=body,
        fetched="2026-11-02T01:30:00+00:00",
        site="people",
        referer=None,
    )


def pipeline(**settings: Any) -> ExtractPipeline:
    return ExtractPipeline.from_crawler(make_spider("people", settings=settings).crawler)


def newscrawl_stats(pipe: ExtractPipeline) -> dict[str, Any]:
    return {k: v for k, v in pipe.stats.get_stats().items() if k.startswith("newscrawl/")}


def test_the_pipeline_skips_a_pdf_served_as_html_and_counts_its_kind() -> None:
    pipe = pipeline()
    with pytest.raises(DropItem, match=r"not HTML: .* binary file \(pdf\)"):
        asyncio.run(pipe.process_item(raw_page(PDF)))
    with pytest.raises(DropItem):
        asyncio.run(pipe.process_item(raw_page(png())))
    with pytest.raises(DropItem):
        asyncio.run(pipe.process_item(raw_page(b"\x01\x02\x00\x00" * 100)))
    assert newscrawl_stats(pipe) == {
        "newscrawl/skipped/not_html/pdf": 1,
        "newscrawl/skipped/not_html/png": 1,
        "newscrawl/skipped/not_html/binary": 1,
    }


def test_the_kind_reaches_the_stats_from_extraction_processes() -> None:
    pipe = pipeline(NEWSCRAWL_EXTRACT_PROCESSES=1)
    items = [raw_page(PDF), raw_page(BINARIES["docx"][0]), raw_page(HTML.encode())]

    async def through_workers() -> list[Any]:
        try:
            return await asyncio.gather(
                *(pipe.process_item(item) for item in items), return_exceptions=True
            )
        finally:
            await pipe.close_spider()

    results = asyncio.run(through_workers())
    assert [type(result).__name__ for result in results] == ["DropItem", "DropItem", "ArticleItem"]
    assert newscrawl_stats(pipe) == {
        "newscrawl/skipped/not_html/pdf": 1,
        "newscrawl/skipped/not_html/office": 1,
        "newscrawl/extracted": 1,
        "newscrawl/extract_pool_restarts": 0,
    }


# ------------------------------------------------------------------ newscrawl extract


def test_the_extract_command_says_a_pdf_is_not_html(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(PDF)
    assert main(["extract", str(path)]) == 0  # processed, no article: as for empty pages
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["body"] == ""
    assert result["reason"] == "not HTML: pdf (binary file)"
    assert captured.err == (
        f"newscrawl extract: {path}: not an HTML page but a binary file (pdf): nothing to extract\n"
    )
    assert "empty body" not in captured.err


def test_the_extract_command_text_format_and_batches_name_binary_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pdf, page = tmp_path / "a.html", tmp_path / "b.html"
    pdf.write_bytes(PDF)  # a PDF saved under a page's name
    page.write_text(HTML, encoding="utf-8")
    assert main(["extract", "--format", "text", str(pdf)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "" and "%PDF" not in captured.out
    assert "binary file (pdf)" in captured.err
    assert main(["extract", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["reason"] for line in lines] == ["not HTML: pdf (binary file)", None]
    assert f"{pdf}: not an HTML page but a binary file (pdf)" in captured.err
    assert "2 pages, 1 empty, 0 errors" in captured.err
