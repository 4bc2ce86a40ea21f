"""The statements SQLite and PostgreSQL spell differently, for the store's modules.

Everything else the store runs is portable SQLAlchemy Core; the near-duplicate key index
(`newscrawl.store.key_index`) adds its own per-dialect lookup and insertion, and
PostgreSQL's locks around a level's seal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Table, any_, bindparam, func, true
from sqlalchemy.dialects import postgresql, sqlite

from newscrawl.store.base import StoreError


def upsert(conn: Connection) -> Callable[[Table], Any]:
    """The dialect's `insert` construct, the one that knows ``ON CONFLICT``."""
    dialects: dict[str, Callable[[Table], Any]] = {
        "sqlite": sqlite.insert,
        "postgresql": postgresql.insert,
    }
    try:
        return dialects[conn.dialect.name]
    except KeyError:
        raise StoreError(f"unsupported database dialect {conn.dialect.name!r}") from None


def in_values(conn: Connection, column: Any, values: Iterable[Any]) -> Any:
    """``column IN (values)``; on PostgreSQL ``column = ANY(:array)``, one parameter instead of
    thousands that psycopg would parse afresh for every batch (a quarter of the write time)."""
    values = list(values)
    if conn.dialect.name == "postgresql":
        array = bindparam(column.name, values, type_=postgresql.ARRAY(column.type), unique=True)
        return column == any_(array)
    return column.in_(values)


def probe_each(
    values: Iterable[Any], item_type: Any, alias: str, rows_for: Callable[[Any], Any]
) -> tuple[Any, Any]:
    """PostgreSQL: the rows `rows_for` selects for each of `values`, as ``(matched, joined)``:
    the LATERAL subquery of the rows, and the FROM clause that joins it to the values.

    Not ``column = ANY(…)``: PostgreSQL estimates that from table statistics and, without
    them (a fresh table, no ANALYZE yet), reads the whole table. Here the values come from
    ``unnest`` of one array parameter (named `alias`, a column of that name), and
    `rows_for(value)` runs once per value in a LATERAL subquery whose ``OFFSET 0`` keeps the
    planner from flattening it into a join that may scan the table: one index probe each."""
    array = bindparam(alias, list(values), type_=postgresql.ARRAY(item_type))
    wanted = func.unnest(array).table_valued(alias).render_derived(name="probe")
    matched = rows_for(wanted.c[alias]).offset(0).lateral("matched")
    return matched, wanted.join(matched, true())
