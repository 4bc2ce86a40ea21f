"""The store's tables, derived from the article's fields, and the open that creates or
upgrades them.

`articles` has one column per stored field of `newscrawl.article.FIELDS` (typed by its kind);
`aliases` maps other URLs to an article; `simhash_keys` (with `simhash_key_filters`)
indexes near-duplicates. `ensure_schema` runs on every open (see
there); the migrations live in `newscrawl/store/migrations`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    Table,
    Text,
    TypeDecorator,
    inspect,
    text,
)
from sqlalchemy.exc import DBAPIError

from newscrawl.article import STORED_FIELDS, ArticleField, Kind
from newscrawl.store import migrations
from newscrawl.store.base import SchemaChange

LEGACY_VERSION_TABLE = "schema_version"
"""Where releases before Alembic recorded their schema version (1 or 2)."""


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware datetime stored as UTC on every dialect.

    SQLite has no timezone type and SQLAlchemy's DateTime there drops the offset, so values
    go in converted to UTC and come back with UTC attached.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: store timezone-aware times only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Fingerprint(TypeDecorator[int]):
    """An unsigned 64-bit fingerprint in a signed BIGINT column (no dialect has unsigned)."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> int | None:
        return value - (1 << 64) if value is not None and value >= 1 << 63 else value

    def process_result_value(self, value: int | None, dialect: Any) -> int | None:
        return value + (1 << 64) if value is not None and value < 0 else value


metadata = MetaData()

_COLUMN_TYPES: dict[Kind, Any] = {
    Kind.TEXT: Text,
    Kind.INTEGER: Integer,
    Kind.NUMBER: Float,
    Kind.TIME: UtcDateTime,
    Kind.TEXTS: JSON,
    Kind.FINGERPRINT: Fingerprint,
}
_CONSTRAINTS: dict[str, tuple[Any, ...]] = {
    "near_duplicate_of": (ForeignKey("articles.canonical_url"),),
}


def _column(article_field: ArticleField) -> Column[Any]:
    """The `articles` column of a stored field, typed by its kind."""
    return Column(
        article_field.name,
        _COLUMN_TYPES[article_field.kind],
        *_CONSTRAINTS.get(article_field.name, ()),
        nullable=not article_field.required,
        unique=article_field.name == "canonical_url" or None,
    )


articles = Table(
    "articles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    *(_column(f) for f in STORED_FIELDS),
)
# Each index costs every insert a B-tree write; these earn it. canonical_url (unique, above):
# the upsert's conflict target and the incremental skip. last_changed: ``export --since``.
# site, first_seen: ``--site`` and the stats. Exact copies are looked up by their content
# hash's key in `simhash_keys`, not by an index here: one on a hash puts every new article
# on a random page of it, and once it outgrows the cache each such page is a write.
Index("ix_articles_last_changed", articles.c.last_changed)
Index("ix_articles_site_first_seen", articles.c.site, articles.c.first_seen)

simhash_keys = Table(
    "simhash_keys",
    metadata,
    # The keys of each stored article (newscrawl.store.sql.index_keys: its content hash's
    # and its simhash's), in the levels of newscrawl.store.key_index: a new article's keys
    # are looked up here: in the open level (and SQLite's buffer) every key, in a sealed
    # level only the keys its filter in simhash_key_filters lets through (the name is from
    # when it held the simhash's alone). The primary key is the only index, and SQLite
    # stores the table in it (WITHOUT ROWID): one B-tree write per key, not two.
    Column("level", SmallInteger, primary_key=True, autoincrement=False),
    Column("key", BigInteger, primary_key=True, autoincrement=False),
    Column("article_id", Integer, primary_key=True, autoincrement=False),
    # No foreign key to articles.id: cascading a delete would scan this table (article_id
    # is not indexed), and a key left behind only makes a candidate that fails the check.
    sqlite_with_rowid=False,
)

simhash_key_filters = Table(
    "simhash_key_filters",
    metadata,
    # newscrawl.store.key_filter's Bloom filter of each sealed level of simhash_keys: a row
    # means the level is sealed (no row: the open level, or one a PostgreSQL writer still
    # held when it was due; probed with every key). Every seal and rebuild takes a
    # `generation` above all those in the table, so a process knows when the filter it holds
    # is stale.
    Column("level", SmallInteger, primary_key=True, autoincrement=False),
    Column("generation", BigInteger, nullable=False),
    Column("planned_keys", BigInteger),
    Column("bits", LargeBinary),
)

aliases = Table(
    "aliases",
    metadata,
    Column("alias_url", Text, primary_key=True),
    Column(
        "canonical_url",
        Text,
        ForeignKey("articles.canonical_url", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("first_seen", UtcDateTime, nullable=False),
)


class SchemaError(RuntimeError):
    """The database holds a schema this release cannot use."""


def ensure_schema(engine: Engine, *, create: bool = True) -> SchemaChange:
    """Create the tables on first use, or bring an older schema up to date with Alembic.

    A new database gets the tables as `metadata` declares them and is stamped with the
    newest revision; an older one runs the migrations in `newscrawl/store/migrations` (a
    database from before Alembic, which recorded its version in ``schema_version``, is
    first stamped with that version's revision). A database written by a newer release is
    refused rather than corrupted. Without `create`, a database that holds no store raises
    `SchemaError`: a reading command pointed at the wrong database must not turn it into
    an empty store.
    """
    with engine.begin() as conn:
        # Serialise concurrent first opens (a crawl's pipeline and middleware, or several
        # workers) so only one creates or migrates the tables.
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('newscrawl.schema'))"))
        elif conn.dialect.name == "sqlite":  # pysqlite would not begin before DDL by itself
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        tables = set(inspect(conn).get_table_names())
        if not tables & {"articles", migrations.VERSION_TABLE}:
            if not create:
                raise SchemaError("the database holds no newscrawl store (a crawl creates it)")
            metadata.create_all(conn)
            if conn.dialect.name == "postgresql":
                _compress_bodies_with_lz4(conn)
            return SchemaChange(created=True, revision=migrations.stamp_head(conn))
        applied = migrations.upgrade(conn, legacy_version=_legacy_version(conn, tables))
        return SchemaChange(upgrades=applied, revision=migrations.current(conn))


def _legacy_version(conn: Connection, tables: set[str]) -> int | None:
    """The version a database from before Alembic recorded, or None for any other."""
    if migrations.VERSION_TABLE in tables or LEGACY_VERSION_TABLE not in tables:
        return None
    found = conn.execute(text(f"SELECT max(version) FROM {LEGACY_VERSION_TABLE}")).scalar()
    return int(found or 0)


def _compress_bodies_with_lz4(conn: Connection) -> None:
    """Bodies are TOASTed; lz4 (PostgreSQL 14+ built with it) instead of the default pglz
    doubles batched insert throughput (bench/bench_store.py). Skipped where unsupported."""
    try:
        with conn.begin_nested():
            conn.execute(text("ALTER TABLE articles ALTER COLUMN body SET COMPRESSION lz4"))
    except DBAPIError:
        pass
