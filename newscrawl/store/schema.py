"""The store's tables, their version, and the hook that migrates an older database.

`ensure_schema` runs on every open: it creates missing tables, records `SCHEMA_VERSION` in
`schema_version` on a new database, applies `MIGRATIONS` in order to an older one, and
refuses a database written by a newer release rather than corrupting it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    func,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError

from newscrawl.fingerprint import BANDS

SCHEMA_VERSION = 2


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

articles = Table(
    "articles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("canonical_url", Text, nullable=False, unique=True),
    Column("fetched_url", Text, nullable=False),
    Column("site", String(200), nullable=False),
    Column("title", Text, nullable=False),
    Column("body", Text, nullable=False),
    Column("published_at", UtcDateTime),
    Column("author", Text),
    Column("source", Text),
    Column("language", String(20)),
    Column("encoding", String(40)),
    Column("first_seen", UtcDateTime, nullable=False),
    Column("last_fetched", UtcDateTime, nullable=False),
    Column("last_changed", UtcDateTime, nullable=False, index=True),
    Column("content_hash", String(64), index=True),
    Column("simhash", Fingerprint),
    *(Column(f"simhash_band{i}", Integer, index=True) for i in range(BANDS)),
    Column("near_duplicate_of", Text, ForeignKey("articles.canonical_url")),
    Column("extractor_method", String(40)),
    Column("extractor_version", String(40)),
    Column("confidence", Float),  # from schema version 2 on (MIGRATIONS[1])
)
Index("ix_articles_site_first_seen", articles.c.site, articles.c.first_seen)

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

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("applied_at", UtcDateTime, nullable=False),
)

Migration = Callable[[Connection], None]


def _add_column(column: Column[Any]) -> Migration:
    """A migration adding a nullable `column` as its table now declares it (rows get NULL).

    Added columns go last in the table declaration, so a migrated table and a new one list
    the same columns in the same order."""

    def migrate(conn: Connection) -> None:
        prepare = conn.dialect.identifier_preparer
        kind = column.type.compile(dialect=conn.dialect)
        conn.execute(
            text(
                f"ALTER TABLE {prepare.format_table(column.table)} "
                f"ADD COLUMN {prepare.format_column(column)} {kind}"
            )
        )

    return migrate


MIGRATIONS: Mapping[int, Migration] = MappingProxyType({1: _add_column(articles.c.confidence)})
"""`MIGRATIONS[v]` upgrades a database from version v to v + 1 inside the open transaction."""


class SchemaError(RuntimeError):
    """The database holds a schema this release cannot use."""


def ensure_schema(engine: Engine, *, create: bool = True) -> None:
    """Create the tables on first use and bring an older schema up to `SCHEMA_VERSION`.

    Without `create`, a database that holds no store raises `SchemaError` instead: a
    reading command pointed at the wrong database must not turn it into an empty store.
    """
    with engine.begin() as conn:
        # Serialise concurrent first opens (a crawl's pipeline and middleware, or several
        # workers) so only one creates the tables.
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('newscrawl.schema'))"))
        elif conn.dialect.name == "sqlite":  # pysqlite would not begin before DDL by itself
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        if not inspect(conn).has_table(schema_version.name):
            if not create:
                raise SchemaError("the database holds no newscrawl store (a crawl creates it)")
            metadata.create_all(conn)
            if conn.dialect.name == "postgresql":
                _compress_bodies_with_lz4(conn)
            _record(conn, SCHEMA_VERSION)
            return
        current = conn.execute(select(func.max(schema_version.c.version))).scalar() or 0
        if current > SCHEMA_VERSION:
            raise SchemaError(
                f"database schema version {current} is newer than this release's "
                f"{SCHEMA_VERSION}: upgrade newscrawl"
            )
        for version in range(current, SCHEMA_VERSION):
            if version not in MIGRATIONS:
                raise SchemaError(f"no migration from schema version {version}")
            MIGRATIONS[version](conn)
            _record(conn, version + 1)


def _compress_bodies_with_lz4(conn: Connection) -> None:
    """Bodies are TOASTed; lz4 (PostgreSQL 14+ built with it) instead of the default pglz
    doubles batched insert throughput (bench/bench_store.py). Skipped where unsupported."""
    try:
        with conn.begin_nested():
            conn.execute(text("ALTER TABLE articles ALTER COLUMN body SET COMPRESSION lz4"))
    except DBAPIError:
        pass


def _record(conn: Connection, version: int) -> None:
    conn.execute(insert(schema_version).values(version=version, applied_at=datetime.now(UTC)))
