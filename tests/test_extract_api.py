"""`extract()` as one call: body, title and metadata together, for every method."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest

from newscrawl.extract import METHODS, Method, Options, extract

PAGE = """<html><head><title>公园开放_示例新闻网</title>
<link rel="canonical" href="https://news.example.cn/a/1.html"></head><body>
<h1>公园开放</h1>
<div class="info">昨天 09:30　来源：示例新闻网　作者：张明</div>
<div class="article"><p>{para}</p>
<p>{para}</p></div>
<div class="editor">（责任编辑：王丽）</div>
</body></html>""".format(
    para="经过一年多的改造施工，滨河公园于本周六正式向市民开放，园内绿化面积增加了约百分之三十。"
    * 2
)


@pytest.mark.parametrize("method", METHODS)
def test_every_method_fills_the_metadata(method: Method) -> None:
    fetched = datetime(2026, 11, 21, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai
    article = extract(
        PAGE.encode("utf-8"),
        "https://news.example.cn/a/1.html",
        options=Options(method=method),
        fetched_at=fetched,
    )
    assert "滨河公园" in article.body
    meta = article.metadata
    assert meta.published is not None
    assert meta.published.astimezone(UTC) == datetime(2026, 11, 20, 1, 30, tzinfo=UTC)
    assert (meta.author, meta.source, meta.editor) == ("张明", "示例新闻网", "王丽")
    assert meta.canonical_url == "https://news.example.cn/a/1.html"
    assert meta.lang == "zh"
    assert article.to_dict()["metadata"]["author"] == "张明"  # type: ignore[index]


def test_metadata_can_be_switched_off_for_body_only_runs() -> None:
    article = extract(PAGE, options=Options(with_metadata=False))
    assert "滨河公园" in article.body
    assert article.metadata.published is None and article.metadata.author is None


@pytest.mark.parametrize("method", METHODS)
def test_binary_bytes_are_refused_with_a_reason(method: Method) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
    article = extract(png, options=Options(method=method))
    assert article.body == ""
    assert article.reason is not None and "binary" in article.reason


def test_utf16_text_with_a_bom_is_not_binary() -> None:
    article = extract(PAGE.encode("utf-16"), options=Options(with_metadata=False))
    assert "滨河公园" in article.body


def test_importing_the_extractor_loads_no_numpy_and_no_entity_table() -> None:
    """Both cost a fifth of a second and serve only a fallback (numpy: the script count
    without the C extension) or a text with many "&" (the regex of every entity name): a
    one-page ``newscrawl extract`` or a worker process should not wait for them."""
    probe = (
        "import sys, newscrawl.extract\n"
        "from newscrawl.extract import clean\n"
        "print('numpy' in sys.modules, clean._reference_re.cache_info().currsize)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "0"]
