"""`newscrawl export` (JSONL, CSV, Parquet) and `newscrawl stats` on a filled store."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sqlalchemy import select
from store_support import article_text, db_url_fixture, record  # noqa: F401 (fixture)

from newscrawl.cli import main
from newscrawl.fingerprint import CONTENT_PLANE
from newscrawl.store import open_store
from newscrawl.store.export import FORMATS, PARQUET_ROW_GROUP
from newscrawl.store.schema import simhash_keys
from newscrawl.store.spool import Spool
from newscrawl.store.sql import SqlStore

T0 = datetime(2024, 5, 10, 8, 0, tzinfo=UTC)


@pytest.fixture
def filled(db_url: str) -> str:
    with open_store(db_url) as store:
        store.write(
            [
                record(
                    "https://a/1",
                    '第一段\n第二段，含"引号"与逗号',
                    at=T0,
                    site="sina",
                    confidence=0.875,
                    language="zh",
                ),
                record("https://a/2", "", at=T0 + timedelta(days=1), site="sina", language="zh-CN"),
                record(
                    "https://b/1",
                    article_text(9),
                    at=T0,
                    site="people",
                    confidence=0.25,
                    language="en",
                ),
            ]
        )
    return db_url


def export(db_url: str, out: Path, *args: str) -> None:
    assert main(["export", "--db", db_url, "-o", str(out), *args]) == 0


def test_jsonl_export_keeps_chinese_and_filters(filled: str, tmp_path: Path) -> None:
    out = tmp_path / "corpus.jsonl"
    export(filled, out, "--format", "jsonl", "--site", "sina", "--since", "2024-05-10T12:00")
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == 1
    row = json.loads(lines[0])
    assert row["canonical_url"] == "https://a/2" and row["site"] == "sina"
    assert row["first_seen"] == "2024-05-11T08:00:00+00:00"
    export(filled, out)
    text = out.read_text("utf-8")
    assert "第一段" in text and "\\u" not in text
    assert len(text.splitlines()) == 3


def test_csv_export_round_trips_bodies(filled: str, tmp_path: Path) -> None:
    out = tmp_path / "corpus.csv"
    export(filled, out, "--format", "csv", "--site", "sina")
    rows = list(csv.DictReader(io.StringIO(out.read_text("utf-8"), newline="")))
    assert [r["canonical_url"] for r in rows] == ["https://a/1", "https://a/2"]
    assert rows[0]["body"] == '第一段\n第二段，含"引号"与逗号'
    assert rows[1]["published_at"] == ""


def test_parquet_export(filled: str, tmp_path: Path) -> None:
    out = tmp_path / "corpus.parquet"
    export(filled, out, "--format", "parquet")
    table = pq.read_table(out)
    assert table.num_rows == 3
    assert table.column("site").to_pylist() == ["sina", "sina", "people"]
    assert table.column("first_seen").to_pylist()[0] == T0
    assert pq.ParquetFile(out).metadata.num_row_groups == 1 <= PARQUET_ROW_GROUP


def test_parquet_export_of_an_empty_selection(filled: str, tmp_path: Path) -> None:
    out = tmp_path / "none.parquet"
    export(filled, out, "--format", "parquet", "--site", "nowhere")
    assert pq.read_table(out).num_rows == 0


def _jsonl_confidences(path: Path) -> list[float | None]:
    return [json.loads(line)["confidence"] for line in path.read_text("utf-8").splitlines()]


def _csv_confidences(path: Path) -> list[float | None]:
    rows = csv.DictReader(io.StringIO(path.read_text("utf-8"), newline=""))
    return [float(r["confidence"]) if r["confidence"] else None for r in rows]


def _parquet_confidences(path: Path) -> list[float | None]:
    assert pq.read_schema(path).field("confidence").type == pa.float64()
    return pq.read_table(path).column("confidence").to_pylist()


CONFIDENCE_READERS: dict[str, Callable[[Path], list[float | None]]] = {
    "jsonl": _jsonl_confidences,
    "csv": _csv_confidences,
    "parquet": _parquet_confidences,
}


@pytest.mark.parametrize("kind", FORMATS)
def test_every_format_carries_confidence(filled: str, tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"corpus.{kind}"
    export(filled, out, "--format", kind)
    assert CONFIDENCE_READERS[kind](out) == [0.875, None, 0.25]


@pytest.mark.parametrize(
    ("minimum", "expected"),
    [
        ("0.5", ["https://a/1"]),
        ("0.25", ["https://a/1", "https://b/1"]),  # at the minimum is in
        ("0", ["https://a/1", "https://b/1"]),  # without a confidence is never in
    ],
)
def test_export_min_confidence_leaves_out_lower_and_unknown_confidence(
    filled: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    minimum: str,
    expected: list[str],
) -> None:
    out = tmp_path / "corpus.jsonl"
    export(filled, out, "--min-confidence", minimum)
    urls = [json.loads(line)["canonical_url"] for line in out.read_text("utf-8").splitlines()]
    assert urls == expected
    assert f"exported {len(urls)} articles" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--lang", "zh"], ["https://a/1", "https://a/2"]),  # a variant (zh-CN) is in
        (["--lang", "ZH-cn"], ["https://a/2"]),  # case is ignored
        (["--lang", "en"], ["https://b/1"]),
        (["--lang", "zh-C"], []),  # whole subtags, not a prefix of the text
        (["--lang", "zh", "--min-confidence", "0.5"], ["https://a/1"]),
    ],
)
def test_export_lang_selects_a_language_and_its_variants(
    filled: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    expected: list[str],
) -> None:
    out = tmp_path / "corpus.jsonl"
    export(filled, out, *args)
    urls = [json.loads(line)["canonical_url"] for line in out.read_text("utf-8").splitlines()]
    assert urls == expected
    assert f"exported {len(urls)} articles" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        *(
            ("--min-confidence", value, f"must be a number from 0 to 1, not '{value}'")
            for value in ("1.5", "-1", "high")
        ),
        *(
            ("--lang", value, f"not a BCP 47 language tag such as zh or zh-CN: '{value}'")
            for value in ("zh_CN", "中文", "zh-", "e", "")
        ),
    ],
)
def test_export_rejects_a_bad_filter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    out = tmp_path / "corpus.jsonl"
    command = ["export", "--db", f"sqlite:///{tmp_path}/s.db", "-o", str(out)]
    assert main([*command, option, value]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_stats_report(filled: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--db", filled]) == 0
    report = capsys.readouterr().out
    lines = [line.split() for line in report.splitlines() if line]
    assert ["people", "1", "0.0%", "2024-05-10", "08:00:00", "UTC"] in lines
    assert ["sina", "2", "50.0%", "2024-05-11", "08:00:00", "UTC"] in lines
    assert ["(all)", "3", "33.3%", "2024-05-11", "08:00:00", "UTC"] in lines
    assert ["sina", "2024-05-11", "1", "1"] in lines
    assert ["people", "2024-05-10", "1", "0"] in lines


def test_stats_of_an_empty_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    open_store(f"sqlite:///{tmp_path}/empty.db").close()  # as a crawl that stored nothing
    assert main(["stats", "--db", f"sqlite:///{tmp_path}/empty.db"]) == 0
    assert "no articles" in capsys.readouterr().out


def test_import_spool_loads_spooled_articles_once(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spool = Spool(tmp_path, "crawl")
    published = datetime(2024, 5, 9, 16, 26, tzinfo=UTC)
    spool.append(
        [
            record("https://a/1", article_text(1), at=T0, aliases=("https://a/old",)),
            record("https://a/2", article_text(2), at=T0, published_at=published, confidence=0.5),
        ]
    )
    open_store(db_url).close()  # the crawl that spooled them made the store
    assert main(["import-spool", "--db", db_url, str(spool.path)]) == 0
    assert "2 new" in capsys.readouterr().err
    assert main(["import-spool", "--db", db_url, str(spool.path)]) == 0
    assert "2 unchanged" in capsys.readouterr().err
    with open_store(db_url) as store:
        rows = {row["canonical_url"]: row for row in store.iter_articles()}
        assert set(rows) == {"https://a/1", "https://a/2"}
        assert rows["https://a/2"]["published_at"] == published
        assert (rows["https://a/1"]["confidence"], rows["https://a/2"]["confidence"]) == (None, 0.5)
        assert store.is_known("https://a/old")


def test_import_spool_takes_the_crawl_s_near_duplicate_limit(tmp_path: Path) -> None:
    """With detection off, as the crawl that spooled them may have run, the articles are
    indexed by their content keys alone."""
    spool = Spool(tmp_path, "crawl")
    spool.append([record(f"https://a/{i}", article_text(i), at=T0) for i in range(2)])
    url = f"sqlite:///{tmp_path}/s.db"
    open_store(url).close()
    assert main(["import-spool", "--db", url, "--near-duplicate-bits", "0", str(spool.path)]) == 0
    with SqlStore.open(url) as store, store.engine.connect() as conn:
        keys = conn.execute(select(simhash_keys.c.key)).scalars().all()
    assert len(keys) == 2 and {key >> 32 for key in keys} == {CONTENT_PLANE}


def test_import_spool_needs_existing_files(tmp_path: Path) -> None:
    assert main(["import-spool", "--db", f"sqlite:///{tmp_path}/s.db", "nope.jsonl"]) == 2
