"""Decoding page bytes: declarations, their precedence, and what to do when they lie.

Every page here is built from text in the test, so the expected text is known exactly.
"""

from __future__ import annotations

import codecs
import gzip
import json
import random
from pathlib import Path

import pytest

from newscrawl.extract import decode_html, extract
from newscrawl.extract.decode import SNIFF_ORDER, _decode, _own_replacements

TITLE = "国务院总理朱镕基会见张喆"
"""镕 and 喆 are GBK characters outside GB2312: a GB2312 codec cannot decode them."""
PARAGRAPH = "新华社北京电，今天上午，国务院召开常务会议，研究部署经济工作。" * 4


def page(meta: str = "", body: str = PARAGRAPH, title: str = TITLE) -> str:
    """A small news page, with `meta` (markup) in its head."""
    return (
        f"<html><head>{meta}<title>{title}</title></head>\n"
        f"<body><h1>{title}</h1>\n<p>{body}</p>\n</body></html>"
    )


def meta_charset(label: str) -> str:
    return f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'


def test_gbk_page_declared_gbk() -> None:
    text = page(meta_charset("gbk"))
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "meta")


@pytest.mark.parametrize("label", ["gb2312", "GB2312", "gb_2312-80", "chinese", "csiso58gb231280"])
def test_gb2312_label_reads_gbk_only_characters(label: str) -> None:
    text = page(f'<meta charset="{label}">')
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.encoding, decoded.source) == ("gb18030", "meta")
    assert decoded.text == text
    assert "朱镕基" in decoded.text and "张喆" in decoded.text


@pytest.mark.parametrize("label", ["gb2312", "gbk", "gb18030"])
def test_utf8_bytes_under_a_gb_meta_are_utf8(label: str) -> None:
    text = page(meta_charset(label))
    decoded = decode_html(text.encode("utf-8"))
    assert (decoded.text, decoded.encoding) == (text, "utf-8")


def test_ascii_page_with_gb_meta_keeps_the_declaration() -> None:
    """Pure ASCII is valid UTF-8 too, but then the meta is not contradicted: keep it."""
    text = page(meta_charset("gb2312"), body="Only ASCII here.", title="News")
    decoded = decode_html(text.encode("ascii"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "meta")


def test_http_gbk_is_trusted_over_utf8_looking_bytes() -> None:
    """Bytes valid in both UTF-8 and GB18030: the header decides, the meta rule does not."""
    text = "<html><head><title>中国新闻</title></head><body><p>今天天气很好</p></body></html>"
    data = text.encode("utf-8")
    expected = data.decode("gb18030")  # strict: these bytes are valid GB18030 as well
    for meta in ("", meta_charset("gbk")):
        full = meta.encode("ascii") + data
        decoded = decode_html(full, http_charset="gbk")
        assert decoded.text == meta + expected
        assert (decoded.encoding, decoded.source) == ("gb18030", "http")


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ],
)
def test_bom_decides_and_is_removed(bom: bytes, encoding: str) -> None:
    text = page(meta_charset("gbk"))  # a wrong declaration: the BOM beats it
    decoded = decode_html(bom + text.encode(encoding), http_charset="gbk")
    assert (decoded.text, decoded.encoding, decoded.source) == (text, encoding, "bom")


def test_undeclared_gbk_is_sniffed() -> None:
    text = page()
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "sniff")


def test_undeclared_utf8_is_sniffed() -> None:
    text = page()
    decoded = decode_html(text.encode("utf-8"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "utf-8", "sniff")


def test_empty_bytes() -> None:
    assert decode_html(b"").text == decode_html(b"", http_charset="gbk").text == ""


STRAY = b"\xff"
"""Invalid in both UTF-8 and GB18030."""


def with_stray_bytes(text: str, encoding: str, meta: str) -> tuple[bytes, str]:
    """`text` encoded, with a stray byte after every 100th character, and its expected decoding."""
    pieces = [text[start : start + 100] for start in range(0, len(text), 100)]
    data = meta.encode("ascii") + STRAY.join(piece.encode(encoding) for piece in pieces)
    return data, meta + "\ufffd".join(pieces)


@pytest.mark.parametrize("meta", ["", '<meta charset="utf-8">'])
def test_utf8_with_a_few_stray_bytes(meta: str) -> None:
    data, expected = with_stray_bytes(page(body=PARAGRAPH * 3), "utf-8", meta)
    decoded = decode_html(data)
    assert decoded.encoding == "utf-8"
    assert decoded.text == expected
    assert decoded.text.count("\ufffd") == data.count(STRAY)


@pytest.mark.parametrize("meta", ["", '<meta charset="gbk">'])
def test_gbk_with_a_few_stray_bytes(meta: str) -> None:
    data, expected = with_stray_bytes(page(body=PARAGRAPH * 3), "gbk", meta)
    decoded = decode_html(data)
    assert decoded.encoding == "gb18030"
    assert decoded.text == expected
    assert decoded.text.count("\ufffd") == data.count(STRAY)


def test_lone_0x80_in_gbk_is_the_euro_sign() -> None:
    """Windows code page 936 (and browsers) read a lone 0x80 as €; Python's codec rejects it."""
    data = '<meta charset="gbk"><p>价格'.encode("gbk") + b"\x80" + "100元</p>".encode("gbk")
    assert decode_html(data).text == '<meta charset="gbk"><p>价格€100元</p>'


def test_declaration_contradicted_by_the_bytes_is_ignored() -> None:
    text = page('<meta charset="utf-8">')
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "sniff")


@pytest.mark.parametrize(
    "http_charset",
    [
        "gbk",
        "GBK",
        " gbk ",
        "charset=gbk",
        "text/html; charset=gbk",
        'text/html;charset="GBK"',
        "Content-Type: text/html; charset=gbk",
    ],
)
def test_http_charset_wins_over_meta(http_charset: str) -> None:
    text = page('<meta charset="big5">')
    decoded = decode_html(text.encode("gbk"), http_charset=http_charset)
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "http")


def test_http_charset_contradicted_by_the_bytes_gives_way_to_meta() -> None:
    """A server default (utf-8) on a GBK page: the page's own declaration is next."""
    text = page('<meta charset="gbk">')
    decoded = decode_html(text.encode("gbk"), http_charset="text/html; charset=utf-8")
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "meta")


@pytest.mark.parametrize("http_charset", ["", "text/html", "text/html; charset=", "x-no-such"])
def test_http_value_without_usable_charset_falls_back_to_meta(http_charset: str) -> None:
    text = page('<meta charset="gbk">')
    decoded = decode_html(text.encode("gbk"), http_charset=http_charset)
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "meta")


def test_xml_declaration_encoding() -> None:
    text = f'<?xml version="1.0" encoding="GBK"?>\n{page()}'
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "meta")


@pytest.mark.parametrize("encoding", ["gbk", "utf-8"])
def test_unknown_label_falls_back_to_sniffing(encoding: str) -> None:
    text = page('<meta charset="x-no-such-charset">')
    decoded = decode_html(text.encode(encoding), http_charset="text/html; charset=klingon")
    assert (decoded.text, decoded.source) == (text, "sniff")
    assert decoded.encoding == ("gb18030" if encoding == "gbk" else "utf-8")


@pytest.mark.parametrize("label", ["utf-16", "UTF-16LE", "utf-16be", "utf-32", "cp500"])
def test_ascii_incompatible_declaration_does_not_garble_the_page(label: str) -> None:
    ascii_text = page(f'<meta charset="{label}">', body="Plain ASCII body text.", title="News")
    assert decode_html(ascii_text.encode("ascii")).text == ascii_text
    assert decode_html(ascii_text.encode("ascii"), http_charset=label).text == ascii_text
    chinese = page(f'<meta charset="{label}">')
    assert decode_html(chinese.encode("utf-8")).text == chinese


@pytest.mark.parametrize(
    "label",
    [
        "zlib",
        "base64",
        "hex",
        "rot13",
        "idna",
        "punycode",
        "undefined",
        "unicode_escape",
        "utf-7",
        "a\x00b",
        "\u4e2d\u6587",
    ],
)
def test_labels_that_are_not_page_charsets_are_ignored(label: str) -> None:
    text = page(f'<meta charset="{label}">', body=PARAGRAPH + " \\N{x} \\u12 +ADw-")
    for encoding in ("utf-8", "gbk"):
        assert decode_html(text.encode(encoding)).text == text
        assert decode_html(text.encode(encoding), http_charset=label).text == text


def test_extract_reports_the_encoding() -> None:
    article = extract(page(meta_charset("gb2312")).encode("gbk"))
    assert (article.title, article.encoding) == (TITLE, "gb18030")


# Real pages from ../shared (skipped when it is absent, failed under CI).

FFFD_IN_SOURCE_LIMIT = 16
"""Two zh_cwce pages carry half characters in their bytes (a GBK lead byte cut off before
``&quot;``: 12 and 2 of them), which every decoder must show as U+FFFD. A wrong decoding
of a whole page produces thousands."""


def read_page(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def site_pages(shared_dir: Path) -> list[Path]:
    pages = sorted((shared_dir / "datasets/sites/pages").glob("*/*.html*"))
    assert pages, "no pages found under datasets/sites/pages"
    return pages


def test_sites_pages_show_their_gold_title(shared_dir: Path) -> None:
    gold_dir = shared_dir / "datasets/sites/gold"
    failures = []
    titles_checked = 0
    for path in site_pages(shared_dir):
        decoded = decode_html(read_page(path))
        gold = gold_dir / f"{path.parent.name}-{path.name.split('.')[0]}.json"
        if gold.exists():
            titles_checked += 1
            if json.loads(gold.read_text("utf-8"))["title"] not in decoded.text:
                failures.append(f"{path}: gold title not in text decoded as {decoded.encoding}")
        if decoded.text.count("\ufffd") > FFFD_IN_SOURCE_LIMIT:
            failures.append(f"{path}: {decoded.text.count(chr(0xFFFD))} U+FFFD")
    assert not failures
    assert titles_checked >= 30


@pytest.mark.parametrize(
    ("name", "encoding"),
    [
        ("people/article-1.html.gz", "utf-8"),  # meta GB2312, stored UTF-8
        ("people/article-2.html", "gb18030"),  # real GBK
        ("people/article-3.html", "utf-8"),
        ("people/article-4.html", "utf-8"),
        ("netease/listing-1.html", "utf-8"),  # meta gb2312, stored UTF-8
        ("netease/listing-2.html", "utf-8"),  # meta gbk, stored UTF-8
    ],
)
def test_sites_pages_known_encodings(shared_dir: Path, name: str, encoding: str) -> None:
    path = shared_dir / "datasets/sites/pages" / name
    assert decode_html(read_page(path)).encoding == encoding


def test_zh_cwce_pages_decode_cleanly(shared_dir: Path) -> None:
    paths = sorted((shared_dir / "datasets/zh_cwce/original").glob("*.html"))
    assert paths, "no zh_cwce pages found"
    counts = {path.name: decode_html(path.read_bytes()).text.count("\ufffd") for path in paths}
    assert {name: n for name, n in counts.items() if n > FFFD_IN_SOURCE_LIMIT} == {}


@pytest.mark.parametrize("seed", range(20))
def test_own_replacements_counted_as_bytes_match_a_decoding(seed: int) -> None:
    """In UTF-8 the page's own U+FFFD are counted as bytes (`decode._own_replacements`):
    as many as a decoding that drops the invalid sequences keeps, whatever bytes surround
    them (truncated sequences, stray continuation and lead bytes)."""
    rng = random.Random(seed)
    pieces = [
        b"\xef\xbf\xbd",
        b"\xef\xbf",
        b"\xe0",
        b"\xbf",
        b"\xbd",
        b"\xf0\x9f",
        b"a",
        "中".encode(),
    ]
    data = b"".join(rng.choice(pieces) for _ in range(200))
    assert _own_replacements(data, "utf-8") == data.decode("utf-8", "ignore").count("\ufffd")


@pytest.mark.parametrize("declared", ["", '<meta charset="utf-8">'])
def test_gbk_bytes_sniffed_past_utf8_without_decoding_it(declared: str) -> None:
    """A GBK page, undeclared or declared UTF-8, is read as GB18030 whether or not its
    UTF-8 decoding is made (`decode._decode_if_it_may_fit` skips it), and junk that fits
    no candidate is still decoded by the one with the fewest errors."""
    page = (f"<html><head>{declared}</head><body><p>" + TITLE * 40 + "</p></body></html>").encode(
        "gb18030"
    )
    decoded = decode_html(page)
    assert (decoded.encoding, TITLE in decoded.text) == ("gb18030", True)
    junk = bytes(range(128, 256)) * 8
    shares = [(_decode(junk, name)[1], name) for name in SNIFF_ORDER]
    assert decode_html(junk).encoding == min(shares)[1]


WESTERN = {
    "german": "Die Straße führt über die Brücke, und später öffnet sich der Blick auf das Tal.",
    "french": "Le château était déjà fermé à la fin de l'été, à côté de la forêt.",
    "spanish": "El niño pidió un café en la estación, y después siguió su camino.",
}


@pytest.mark.parametrize("language", sorted(WESTERN))
@pytest.mark.parametrize("menu_items", [0, 2000])
def test_an_undeclared_western_page_is_read_as_windows_1252(language: str, menu_items: int) -> None:
    """A page saved without its charset, in windows-1252: its accented letters are lone
    bytes among ASCII ones. GB18030 reads each with the letter after it as one Chinese
    character without an error, and UTF-8 fits a long page (the markup dilutes its
    errors) with U+FFFD for each: windows-1252 comes first, as browsers fall back to it."""
    menu = "<li><a href='/x'>menu item</a></li>" * menu_items
    text = page(body=WESTERN[language] * 20, title=WESTERN[language][:20]) + menu
    decoded = decode_html(text.encode("cp1252"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "cp1252", "sniff")
    assert WESTERN[language] in extract(text.encode("cp1252")).body


def test_undeclared_gbk_with_broken_bytes_and_utf8_with_a_broken_sequence_keep_theirs() -> None:
    """The Western shape does not take pages whose characters are byte pairs or runs: a GBK
    page with one byte in 25 overwritten stays GB18030, and a UTF-8 page with accents and
    one truncated sequence stays UTF-8."""
    gbk = bytearray(page().encode("gbk"))
    rng = random.Random(7)
    for at in rng.sample(range(len(gbk)), len(gbk) // 25):
        if gbk[at] >= 0x80:
            gbk[at] = 0xFF
    decoded = decode_html(bytes(gbk))
    assert (decoded.encoding, TITLE[:2] in decoded.text) == ("gb18030", True)
    accented = "The café’s crème brûlée, a naïve résumé. " * 20
    utf8 = page(body=accented).encode() + b"\xe2\x80 broken"
    decoded = decode_html(utf8)
    assert (decoded.encoding, accented in decoded.text) == ("utf-8", True)


ALPHABETS = {
    "cp1251": "Новый парк открылся в субботу на севере города, сообщили в мэрии. "
    "На территории высадили три тысячи деревьев и построили детские площадки.",
    "koi8_r": "Жители района давно просили благоустроить заброшенную территорию, где "
    "раньше располагались склады, и теперь проект наконец завершён.",
    "cp1253": "Ένα νέο πάρκο άνοιξε το Σάββατο στο κέντρο της πόλης, ανακοίνωσε ο δήμος. "
    "Φυτεύτηκαν περισσότερα από δύο χιλιάδες δέντρα στην περιοχή.",
    "cp1256": "افتتحت البلدية يوم السبت أكبر مكتبة عامة في المدينة، وتضم أكثر من مئتي "
    "ألف كتاب في مختلف المجالات والعلوم والآداب.",
    "cp1255": "הספרייה העירונית החדשה נפתחה ביום שבת, ובה יותר ממאתיים אלף ספרים "
    "בתחומים שונים של המדע והספרות.",
}


@pytest.mark.parametrize("encoding", sorted(ALPHABETS))
def test_an_undeclared_page_in_another_alphabets_code_page_is_read_in_it(
    encoding: str,
) -> None:
    """GB18030 reads a Russian page in windows-1251 (or a Greek, Arabic or Hebrew one in
    its code page) without an error, every two letters as one Chinese character. Its
    letters end words before spaces as no Chinese text does, and the code page is then
    found by its letter frequencies."""
    text = page(body=ALPHABETS[encoding] * 8, title=ALPHABETS[encoding][:30])
    decoded = decode_html(text.encode(encoding))
    assert (decoded.text, codecs.lookup(decoded.encoding).name, decoded.source) == (
        text,
        codecs.lookup(encoding).name,
        "sniff",
    )


def test_an_undeclared_gbk_page_asks_no_code_page_detector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Chinese page leaves no spaces between its words, so the detector, which can take
    GBK for windows-1251, is never asked."""

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("detector asked")

    monkeypatch.setattr("charset_normalizer.from_bytes", refuse)
    text = page(body=PARAGRAPH * 6)
    decoded = decode_html(text.encode("gbk"))
    assert (decoded.text, decoded.encoding, decoded.source) == (text, "gb18030", "sniff")


@pytest.mark.parametrize("tail", ["<meta", "<META", "<Meta"])
@pytest.mark.parametrize("http_charset", [None, "text/html"])
def test_a_page_cut_off_inside_a_meta_tag_decodes(tail: str, http_charset: str | None) -> None:
    """A response that ends right after ``<meta`` (a connection dropped in the head, or a
    hostile page): the declared-encoding prescan finds no declaration and the page decodes.
    (w3lib 2.6.0's prescan raises a panic, a BaseException, on these bytes: it froze the
    crawl; pyproject.toml keeps that release out.)"""
    text = f"<title>{TITLE}</title><p>{PARAGRAPH}</p>{tail}"
    decoded = decode_html(text.encode("utf-8"), http_charset)
    assert (decoded.text, decoded.encoding) == (text, "utf-8")
    assert extract(text.encode("utf-8"), "http://news.example.cn/a.html").body == PARAGRAPH
