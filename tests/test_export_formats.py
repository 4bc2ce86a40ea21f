"""What a researcher gets out of the store: every field of an article in each export format,
the Parquet export typed as pandas and Hugging Face `datasets` read it, and the SQLite store
searchable through an FTS5 table added the way the README shows (sqlite-utils).

The article is filled from `newscrawl.article`'s declarations, so a field declared there is
covered here without a change to this file.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Mapping
from contextlib import closing
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from store_support import article_text, db_url_fixture, record  # noqa: F401 (fixture)

from newscrawl.article import EXPORT_FIELDS, EXTRACTED_FIELDS, RECORD_FIELDS, ArticleField, Kind
from newscrawl.cli import main
from newscrawl.store import open_store
from newscrawl.store.export import FORMATS

T0 = datetime(2024, 5, 10, 8, 0, 0, 123456, tzinfo=UTC)
BEIJING = timezone(timedelta(hours=8))
NAMES = [f.name for f in EXPORT_FIELDS]
TWIN_URL = "https://news.example.cn/a/1.html"
"""Stored first, with nearly the same body: the full article is marked its near-duplicate."""
URL = "https://news.example.cn/a/2.html"
TWIN_BODY = article_text(1, 1500)  # within 3 bits of BODY: a band is shared, so a twin
BODY = TWIN_BODY + '\n末段，含"引号", 逗号。'


def sample(index: int, article_field: ArticleField) -> Any:
    """A value of the field's kind, different for each field, with what tends to break a
    format: Chinese, quotes, commas and newlines, a time in +08:00 with microseconds."""
    match article_field.kind:
        case Kind.TEXT:
            return f'{article_field.name}：中文, "引号"\n第二行'
        case Kind.INTEGER:
            return 200 + index
        case Kind.NUMBER:
            return index / 64  # exact in binary, so equality is fair
        case Kind.TIME:
            return (T0 - timedelta(days=index)).astimezone(BEIJING)
        case Kind.TEXTS:
            return [f"{article_field.name}标签", 'a, "quoted" tag']
    raise AssertionError(f"no sample value for a {article_field.kind} field")


@pytest.fixture
def corpus(db_url: str) -> tuple[str, dict[str, Any]]:
    """A store holding an article with every field filled (and its near-twin), and the row
    every export must give for that article."""
    values = {f.name: sample(i, f) for i, f in enumerate(RECORD_FIELDS)} | {"body": BODY}
    full = record(URL, at=T0, **values)
    with open_store(db_url) as store:
        store.write([record(TWIN_URL, TWIN_BODY, at=T0 - timedelta(days=1))])
        store.write([full])
    by_store = {
        "canonical_url": URL,
        "first_seen": T0,
        "last_fetched": T0,
        "last_changed": T0,
        "content_hash": full.content_hash,
        "near_duplicate_of": TWIN_URL,
    }
    expected = {name: (values | by_store)[name] for name in NAMES}
    assert None not in expected.values()
    return db_url, expected


def export(db_url: str, out: Path, *args: str) -> Path:
    assert main(["export", "--db", db_url, "-o", str(out), *args]) == 0
    return out


def _typed(row: Mapping[str, Any], parsers: Mapping[Kind, Callable[[Any], Any]]) -> dict[str, Any]:
    """A row read from a text format, the values of `parsers`' kinds parsed back."""
    return {
        f.name: None if row[f.name] in (None, "") else parsers.get(f.kind, _same)(row[f.name])
        for f in EXPORT_FIELDS
    }


def _same(value: Any) -> Any:
    return value


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    assert all(list(row) == NAMES for row in rows)
    return [_typed(row, {Kind.TIME: datetime.fromisoformat}) for row in rows]


def read_csv(path: Path) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(path.read_text("utf-8"), newline=""))
    assert reader.fieldnames == NAMES
    parsers = {
        Kind.INTEGER: int,
        Kind.NUMBER: float,
        Kind.TIME: datetime.fromisoformat,
        Kind.TEXTS: json.loads,  # a JSON array in one cell
    }
    return [_typed(row, parsers) for row in reader]


def read_parquet(path: Path) -> list[dict[str, Any]]:
    table = pq.read_table(path)
    assert table.schema.names == NAMES
    return table.to_pylist()


READERS: dict[str, Callable[[Path], list[dict[str, Any]]]] = {
    "jsonl": read_jsonl,
    "csv": read_csv,
    "parquet": read_parquet,
}


def test_every_extracted_field_is_exported() -> None:
    assert [f.name for f in EXTRACTED_FIELDS if f.name not in NAMES] == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_field_round_trips(
    corpus: tuple[str, dict[str, Any]], tmp_path: Path, fmt: str
) -> None:
    db_url, expected = corpus
    out = export(db_url, tmp_path / f"corpus.{fmt}", "--format", fmt)
    rows = {row["canonical_url"]: row for row in READERS[fmt](out)}
    assert list(rows) == [TWIN_URL, URL]
    # dict equality: times compare as instants, and a naive time never equals an aware one.
    assert rows[URL] == expected


def test_pandas_reads_the_parquet_export_typed(
    corpus: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    db_url, expected = corpus
    frame = pd.read_parquet(export(db_url, tmp_path / "c.parquet", "--format", "parquet"))
    row = frame.loc[frame["canonical_url"] == URL].iloc[0]
    for f in EXPORT_FIELDS:
        if f.kind is Kind.TIME:
            assert str(frame[f.name].dtype) == "datetime64[us, UTC]", f.name
        if f.kind is Kind.TEXTS:  # a NumPy array of str per row
            assert list(row[f.name]) == expected[f.name], f.name
        else:
            assert row[f.name] == expected[f.name], f.name


def test_datasets_loads_the_parquet_export_typed(
    corpus: tuple[str, dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_url, expected = corpus
    out = export(db_url, tmp_path / "c.parquet", "--format", "parquet")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    import datasets  # only now: it reads those variables when first imported

    corpus_set = datasets.load_dataset(
        "parquet", data_files=str(out), split="train", cache_dir=str(tmp_path / "cache")
    )
    features = {
        Kind.TEXT: datasets.Value("string"),
        Kind.INTEGER: datasets.Value("int64"),
        Kind.NUMBER: datasets.Value("float64"),
        Kind.TIME: datasets.Value("timestamp[us, tz=UTC]"),
        Kind.TEXTS: datasets.List(datasets.Value("string")),
    }
    assert corpus_set.features == datasets.Features(
        {f.name: features[f.kind] for f in EXPORT_FIELDS}
    )
    rows = {row["canonical_url"]: row for row in corpus_set}
    assert rows[URL] == expected


def enable_fts(db: Path) -> None:
    """The README's command, as a user runs it."""
    command = ["enable-fts", str(db), "articles", "title", "body", "--fts5", "--create-triggers"]
    subprocess.run(
        [sys.executable, "-m", "sqlite_utils", *command, "--tokenize", "trigram"], check=True
    )


def search(db: Path, phrase: str) -> list[str]:
    """The canonical URLs of the articles whose title or body holds `phrase`, after FTS5
    confirms its index matches the articles table."""
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        found = conn.execute(
            "SELECT a.canonical_url FROM articles_fts JOIN articles a ON a.rowid = "
            "articles_fts.rowid WHERE articles_fts MATCH ? ORDER BY a.canonical_url",
            [json.dumps(phrase, ensure_ascii=False)],  # one quoted FTS5 phrase
        ).fetchall()
    return [url for (url,) in found]


def test_an_fts_table_added_with_sqlite_utils_follows_the_stores_writes(tmp_path: Path) -> None:
    db = tmp_path / "newscrawl.db"
    url = f"sqlite:///{db}"
    with open_store(url) as store:
        store.write([record("https://a/1", "上海今日发布新的交通规划。", at=T0)])
    enable_fts(db)
    assert search(db, "交通规划") == ["https://a/1"]  # indexed when the table was added
    with open_store(url) as store:
        new = record("https://a/2", "北京大学图书馆今天开放。", at=T0, title="图书馆开放")
        updated = record("https://a/1", "上海今日发布新的地铁规划。", at=T0 + timedelta(hours=1))
        store.write([new, updated])  # one upsert: an insert and an update
        store.write([record("https://a/2", new["body"], at=T0, title="图书馆重新开放")])
    assert search(db, "图书馆") == ["https://a/2"]
    assert search(db, "重新开放") == ["https://a/2"]  # an unchanged body, a new title
    assert search(db, "地铁规划") == ["https://a/1"]
    assert search(db, "交通规划") == []
