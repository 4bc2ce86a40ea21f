"""Stores made by earlier releases upgrade to this release's schema with every row kept.

The fixtures in tests/fixtures/store_v2 are one store as schema version 2 (the last release
before Alembic) wrote it, dumped from SQLite and from PostgreSQL.
"""

from __future__ import annotations

import ast
import random
import re
import sqlite3
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import SAWarning
from store_support import article_text, pg_connect, pg_schema_url, record

from newscrawl import fingerprint
from newscrawl.cli import main
from newscrawl.fingerprint import INDEXED_PLANES, content_key
from newscrawl.store import StoreUnavailable, open_store
from newscrawl.store.migrations import head
from newscrawl.store.migrations.frozen_fingerprints import lookup_keys_v1, simhash_v1
from newscrawl.store.schema import simhash_keys
from newscrawl.store.sql import SqlStore, create_store_engine

FIXTURES = Path(__file__).parent / "fixtures" / "store_v2"
VERSIONS = Path(__file__).parent.parent / "newscrawl" / "store" / "migrations" / "versions"
OLD_COLUMNS = (
    "canonical_url, fetched_url, site, title, body, published_at, author, source, language, "
    "encoding, content_hash, simhash, near_duplicate_of, extractor_method, "
    "extractor_version, confidence"
)
NEW_COLUMNS = OLD_COLUMNS.replace("fetched_url", "final_url")


def load_sqlite(path: Path, *, version: int = 2) -> str:
    """A SQLite store from the version 2 dump; with `version=1`, as version 1 left it (no
    confidence column, version 1 recorded)."""
    with sqlite3.connect(path) as db:
        db.executescript((FIXTURES / "sqlite.sql").read_text(encoding="utf-8"))
        if version == 1:
            db.execute("ALTER TABLE articles DROP COLUMN confidence")
            db.execute("UPDATE schema_version SET version = 1")
    return f"sqlite:///{path}"


@pytest.fixture
def pg_schema_name() -> Iterator[str]:
    """A fresh PostgreSQL schema name, dropped afterwards."""
    name = f"nc_migrate_{uuid.uuid4().hex[:10]}"
    yield name
    with pg_connect() as admin:
        admin.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


def load_postgresql(schema: str) -> str:
    """The version 2 store in PostgreSQL schema `schema`, from the pg_dump fixture."""
    dump = (FIXTURES / "postgresql.sql").read_text(encoding="utf-8")
    dump = re.sub(r"^\\.*$", "", dump, flags=re.MULTILINE)  # psql meta-commands
    with pg_connect() as admin:
        admin.execute(dump.replace("store_v2", schema).encode())
    return pg_schema_url(schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def old_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a store as schema version 2 left it, on each backend."""
    if request.param == "sqlite":
        yield load_sqlite(tmp_path / "old.db")
        return
    schema = f"nc_migrate_{uuid.uuid4().hex[:10]}"
    try:
        yield load_postgresql(schema)
    finally:
        with pg_connect() as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def select_all(url: str, sql: str) -> list[tuple[Any, ...]]:
    engine = create_store_engine(url, create=False)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


def index_shape(index: Any) -> tuple[str, ...]:
    """An index's columns, or its expressions (``substr(content_hash, 1, 16)``; PostgreSQL
    spells out the cast of a column an older release made VARCHAR)."""
    return tuple(e.replace("::text", "") for e in index.get("expressions") or []) or tuple(
        index["column_names"]
    )


INDEX_NAMES = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    "postgresql": "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()",
}


def table_shape(url: str) -> dict[str, Any]:
    """Columns (name, nullable) and indexed column lists of each store table, and the names
    of all indexes (SQLAlchemy does not reflect SQLite's indexes on expressions)."""
    engine = create_store_engine(url, create=False)
    try:
        with engine.connect() as conn, warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Skipped unsupported reflection", SAWarning)
            inspector = inspect(conn)
            shape: dict[str, Any] = {
                table: (
                    sorted((c["name"], c["nullable"]) for c in inspector.get_columns(table)),
                    sorted(index_shape(i) for i in inspector.get_indexes(table)),
                )
                for table in ("articles", "aliases", "simhash_keys")
            }
            shape["index names"] = sorted(
                conn.execute(text(INDEX_NAMES[conn.dialect.name])).scalars()
            )
            return shape
    finally:
        engine.dispose()


def test_a_version_2_store_upgrades_with_every_row_kept(old_store: str) -> None:
    articles = select_all(old_store, f"SELECT {OLD_COLUMNS} FROM articles ORDER BY id")
    aliases = select_all(old_store, "SELECT * FROM aliases ORDER BY alias_url")
    assert len(articles) == 4 and len(aliases) == 2

    with open_store(old_store, create=False) as store:
        change = store.schema_change
        assert store.count_articles() == 4
    assert not change.created and change.revision == head() == "0010"
    assert [step.split(":")[0] for step in change.upgrades] == [
        "0003",
        "0004",
        "0005",
        "0006",
        "0007",
        "0008",
        "0009",
        "0010",
    ]
    assert "upgraded the store's schema to 0010" in (change.describe() or "")

    kept = NEW_COLUMNS.replace("simhash, ", "")  # refingerprinted by 0004, checked below
    assert select_all(old_store, f"SELECT {kept} FROM articles ORDER BY id") == [
        row[:11] + row[12:] for row in articles
    ]
    with open_store(old_store, create=False) as store:
        fingerprints = [(row["canonical_url"], row["body"]) for row in store.iter_articles()]
    stored = dict(select_all(old_store, "SELECT canonical_url, simhash FROM articles"))
    assert all(
        (stored[url] or 0) % (1 << 64) == (simhash_v1(body) or 0) for url, body in fingerprints
    )
    keyed = select_all(old_store, "SELECT id, simhash FROM articles WHERE simhash IS NOT NULL")
    hashed = select_all(old_store, "SELECT id, content_hash FROM articles")
    assert keyed and set(select_all(old_store, "SELECT key, article_id FROM simhash_keys")) == {
        (key, row_id) for row_id, fp in keyed for key in lookup_keys_v1(fp % (1 << 64))
    } | {(content_key(content_hash), row_id) for row_id, content_hash in hashed if content_hash}
    assert select_all(old_store, "SELECT * FROM aliases ORDER BY alias_url") == aliases
    new_fields = "editor, description, tags, top_image, published_precision, status, referer"
    assert set(select_all(old_store, f"SELECT {new_fields} FROM articles")) == {(None,) * 7}
    with open_store(old_store, create=False) as store:  # a second open changes nothing
        assert store.schema_change.describe() is None


def test_an_upgraded_store_takes_every_field_and_keeps_its_dedup(old_store: str) -> None:
    with open_store(old_store) as store:
        outcomes = store.write(
            [
                record("https://news.example.cn/a/4", article_text(1), editor="李四"),  # alias
                record("https://news.example.cn/a/6", article_text(6), tags=("经济", "统计")),
            ]
        )
        assert [str(o) for o in outcomes.values()] == ["duplicate", "new"]
        [(tags,)] = select_all(
            old_store, "SELECT tags FROM articles WHERE canonical_url LIKE '%a/6'"
        )
        assert tags in (["经济", "统计"], '["\\u7ecf\\u6d4e", "\\u7edf\\u8ba1"]')
        assert store.count_articles() == 5


def test_an_upgraded_store_and_a_new_one_have_the_same_tables(
    old_store: str, tmp_path: Path, pg_schema_name: str
) -> None:
    if old_store.startswith("sqlite"):
        new_store = f"sqlite:///{tmp_path}/new.db"
    else:
        with pg_connect() as admin:
            admin.execute(f'CREATE SCHEMA "{pg_schema_name}"')
        new_store = pg_schema_url(pg_schema_name)
    open_store(new_store).close()
    open_store(old_store).close()
    assert table_shape(old_store) == table_shape(new_store)


def test_a_version_1_store_upgrades_through_both_migrations(tmp_path: Path) -> None:
    url = load_sqlite(tmp_path / "v1.db", version=1)
    with open_store(url, create=False) as store:
        steps = [step.split(":")[0] for step in store.schema_change.upgrades]
        assert steps == ["0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010"]
        assert {row["confidence"] for row in store.iter_articles()} == {None}
        assert store.count_articles() == 4


def test_a_store_from_a_newer_release_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/store.db"
    open_store(url).close()
    with sqlite3.connect(tmp_path / "store.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(StoreUnavailable, match="newer than this release"):
        open_store(url)


def test_db_upgrade_says_what_it_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = load_sqlite(tmp_path / "old.db")
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"upgraded the store's schema to {head()}" in capsys.readouterr().err
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"up to date (schema {head()})" in capsys.readouterr().err
    assert main(["db", "upgrade", "--db", f"sqlite:///{tmp_path}/missing.db"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "does not exist" in error
    assert not (tmp_path / "missing.db").exists()


def test_migrations_import_no_application_code() -> None:
    """A revision writes what it wrote when it was made: it may use Alembic, SQLAlchemy and
    its own frozen helpers (`newscrawl.store.migrations.*`), never live application code."""
    offenders = []
    for path in sorted(VERSIONS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{path.name}: {name}"
                for name in names
                if name.split(".")[0] == "newscrawl"
                and not name.startswith("newscrawl.store.migrations")
            ]
    assert offenders == []


@pytest.mark.parametrize("length", [0, 99, 100, 101, 2_000])
def test_live_fingerprints_still_match_the_frozen_ones(length: int) -> None:
    """While this holds, stores fingerprinted by revisions 0004 and 0005 compare with new
    articles. When the live algorithm changes on purpose, this fails: add a revision that
    fingerprints stored bodies again, and keep the frozen ones as they are."""
    chooser = random.Random(length)
    alphabet = "新闻记者报道北京上海发布会议经济，。、：ＡＢ１２ abc\u3000\n"
    for _ in range(5):
        body = "".join(chooser.choice(alphabet) for _ in range(length))
        assert fingerprint.simhash(body) == simhash_v1(body)
        value = chooser.getrandbits(64)
        assert fingerprint.lookup_keys(value) == lookup_keys_v1(value)


def test_db_rebuild_keys_indexes_a_store_written_with_detection_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/store.db"
    with SqlStore.open(url, near_duplicate_bits=0) as store:
        store.write([record(f"https://a/{i}", article_text(i)) for i in range(3)])
    assert main(["db", "rebuild-keys", "--db", url]) == 0
    said = capsys.readouterr().err
    assert f"keys rebuilt for 3 articles: {3 * INDEXED_PLANES} keys, 0 sealed levels" in said
    with SqlStore.open(url) as store, store.engine.connect() as conn:
        planes = {key >> 32 for key in conn.execute(select(simhash_keys.c.key)).scalars()}
    assert planes == set(range(INDEXED_PLANES))
    assert main(["db", "rebuild-keys", "--db", f"sqlite:///{tmp_path}/missing.db"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "does not exist" in error
