"""The near-duplicate key index: sorted levels merged in bulk, in one table.

A stored simhash has 14 keys (`newscrawl.fingerprint.lookup_keys`), and a new article's keys
are looked up among them. Kept in one B-tree, every key lands on a random page: once the
index outgrows the database's cache, a batch of 1,000 articles dirtied 14,000 scattered
pages, and with 1,000,000 articles stored the store wrote at a quarter of its rate with
10,000 (issue 18).

So `simhash_keys` is ordered by ``(level, key, article_id)`` and a level is one region of
it, as in a log-structured merge tree (O'Neil et al. 1996; LevelDB's levels). New keys go to
level 0, which holds at most `LEVEL0_KEYS` and so stays in the cache. When a level holds
more than its capacity (`capacity`: `LEVEL0_KEYS` times `FANOUT` per level) all its keys
move to the next level in one statement, in key order: a pass that writes each page of the
next level once, for many keys, instead of one page per key. A key moves at most once per
level, and there are about log_FANOUT(keys / LEVEL0_KEYS) + 1 levels: 3 up to 2,500,000
articles, 4 up to 40,000,000. A lookup probes every level that holds keys, level 0 with
all 14 keys of an article and each deeper level with those of its keys the level's Bloom
filter (`newscrawl.store.key_filter`, in `simhash_key_filters`) lets through: 0.8% of keys
the level does not hold. The filters change only when a merge moves keys, so a process
reads one again only when its generation has moved; a key removed from a level leaves its
bits behind, a false positive, never a missed key.

`simhash_key_levels` counts the keys each level has received since it was last emptied
(keys deleted since are not subtracted): the trigger of a merge, and the list of levels a
lookup probes.

PostgreSQL differs in three ways, because several workers write to it at once and a row
moved there is a deletion and an insertion:

- Each level is a table of its own (a partition of `simhash_keys`), and once a merge has
  committed, the level it emptied is vacuumed (`vacuum`): its dead rows and index entries
  would otherwise stay until autovacuum came by (one table for all levels, merged without
  vacuuming, grew 3.6 times as large and wrote 4.7 times as slowly, BENCHMARKS.md).
- Level 0 is not counted, as a row every writer updated would make the writers wait for
  each other's commits. A writer counts level 0's rows itself once it has added a quarter
  of its capacity since it last looked (`CHECKS_PER_LEVEL0`), and merges only when it takes
  the merge lock (`_MERGE_LOCK`) without waiting: one merge at a time, and a writer that
  finds another merging goes on.
- No filters: a filter read in one statement and the probes sent in the next could straddle
  a merge another worker commits in between, and turn away keys just moved into the level.
  For the same reason a lookup probes every level from 0 to one below the deepest counted,
  whatever the counts say.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Iterable, Iterator
from typing import Any

import numpy as np
from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Integer,
    SmallInteger,
    bindparam,
    delete,
    func,
    literal,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from newscrawl.fingerprint import KEY_PLANES
from newscrawl.store.base import driver_reason
from newscrawl.store.dialect import in_values, upsert
from newscrawl.store.key_filter import BITS_PER_KEY, KeyFilter
from newscrawl.store.schema import (
    KEY_LEVELS,
    articles,
    key_level_partition,
    simhash_key_filters,
    simhash_key_levels,
    simhash_keys,
)

logger = logging.getLogger(__name__)

LEVEL0_KEYS = 140_000
"""Keys level 0 holds before it is merged: those of 10,000 articles, about 500 pages of
4 KiB, which a batch of 1,000 articles may dirty all of and the cache keeps."""
FANOUT = 16
"""How many times the previous level's capacity a level holds. Larger means fewer levels
to probe and to move each key through, but more passes over the next level per key
moved."""
EAGER_FILTER_BYTES = 64 << 20
"""A level's filter is planned for all the keys the level can hold when that takes at most
this much memory (levels 1 and 2: 3 and 48 MB), so it is only ever added to. A deeper
level's is planned for twice its keys and rebuilt from them when it outgrows that: each
rebuild reads the level (0.16 µs a key, `_keys_at`), paid once per doubling."""
CHECKS_PER_LEVEL0 = 4
"""PostgreSQL: how many times a writer counts level 0 while filling it once (each count
reads up to `LEVEL0_KEYS` rows); level 0 may outgrow its capacity by that share per
writer before one of them merges it."""

_COLUMNS = ["level", "key", "article_id"]


def capacity(level: int) -> int:
    """The keys `level` holds before they move to the next level."""
    return int(LEVEL0_KEYS * FANOUT**level)


def bulk_level(keys: int) -> int:
    """The level `keys` loaded at once belong in (an upgrade, a bulk load): the first that
    holds them all, or the last."""
    return next((level for level in range(KEY_LEVELS) if capacity(level) >= keys), KEY_LEVELS - 1)


def candidates(conn: Connection, keys: Collection[int]) -> list[tuple[int, str, int]]:
    """(key, canonical_url, simhash) for each stored article having one of `keys`: the rows
    a near-duplicate check fetches."""
    levels = _levels(conn) if keys else []
    probes = _probes(conn, keys, levels) if levels else {}
    if not probes:
        return []
    matches = conn.execute(_key_matches(conn, probes)).all()
    if not matches:
        return []
    found = {
        row_id: (url, fingerprint)
        for row_id, url, fingerprint in conn.execute(
            select(articles.c.id, articles.c.canonical_url, articles.c.simhash).where(
                in_values(conn, articles.c.id, {row_id for _, row_id in matches})
            )
        )
        if fingerprint is not None
    }
    return [(key, *found[row_id]) for key, row_id in matches if row_id in found]


def add(conn: Connection, rows: list[tuple[int, int]]) -> list[int]:
    """Index ``(key, article_id)`` rows at level 0, then merge each level that is full; return
    the levels the merges emptied, for `vacuum` once the transaction has committed."""
    if not rows:
        return []
    rows = sorted(rows)
    if conn.dialect.name == "postgresql":  # two array parameters rather than two per row
        keys = bindparam("keys", [k for k, _ in rows], type_=postgresql.ARRAY(BigInteger))
        ids = bindparam("ids", [a for _, a in rows], type_=postgresql.ARRAY(Integer))
        source = func.unnest(keys, ids).table_valued("key", "article_id").render_derived()
        at_level0 = select(literal(0, SmallInteger), source.c.key, source.c.article_id)
        conn.execute(postgresql.insert(simhash_keys).from_select(_COLUMNS, at_level0))
    else:  # the driver's executemany of tuples: SQLAlchemy's dicts cost 40 ms per 14,000
        conn.exec_driver_sql(_SQLITE_INSERT_AT_LEVEL0, rows)
    held = _held_when_due(conn, len(rows))
    emptied: list[int] = []
    level = 0  # a level fills only by a merge into it; the last one never merges
    while held and level + 1 < KEY_LEVELS and held.get(level, 0) > capacity(level):
        held[level + 1] = held.get(level + 1, 0) + _merge(conn, level, held)
        emptied.append(level)
        level += 1
    return emptied


def keeps_filters(db: Connection | Engine) -> bool:
    """Whether levels below 0 have Bloom filters: on SQLite only (the module's docstring)."""
    return db.dialect.name == "sqlite"


def vacuum(engine: Engine, levels: list[int]) -> None:
    """PostgreSQL: reclaim the rows the merges of a committed write left dead in the levels
    they emptied (VACUUM runs outside a transaction). A failure leaves them to autovacuum,
    and says so."""
    if engine.dialect.name != "postgresql" or not levels:
        return
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for level in levels:
                conn.exec_driver_sql(f"VACUUM {key_level_partition(level)}")
    except SQLAlchemyError as exc:
        logger.warning(
            "vacuuming the near-duplicate key index failed (autovacuum will reclaim its dead"
            " rows later): %s",
            driver_reason(exc),
        )


_MERGE_LOCK = text("SELECT pg_try_advisory_xact_lock(hashtext('newscrawl.key_merge'))")
_UNCHECKED = "newscrawl.level0_keys_unchecked"
"""The key of `Connection.info` where a PostgreSQL connection counts the keys it has added
to level 0 since it last counted the level's rows."""


def _held_when_due(conn: Connection, added: int) -> dict[int, int]:
    """The keys each level holds, if this writer is to merge the full ones now, else {}.

    SQLite counts level 0 as keys are added and checks at every write. PostgreSQL checks
    once the writer has added a `CHECKS_PER_LEVEL0`-th of level 0's capacity since it last
    did, and only if no other writer is merging (see the module's docstring)."""
    counts = select(simhash_key_levels.c.level, simhash_key_levels.c.key_count)
    if conn.dialect.name != "postgresql":
        _count(conn, 0, added)
        return dict(conn.execute(counts).all())
    unchecked = conn.info.get(_UNCHECKED, 0) + added
    due = unchecked >= capacity(0) // CHECKS_PER_LEVEL0
    conn.info[_UNCHECKED] = 0 if due else unchecked
    if not due or not conn.execute(_MERGE_LOCK).scalar_one():
        return {}
    held = dict(conn.execute(counts.where(simhash_key_levels.c.level > 0)).all())
    at_level0 = select(literal(1)).where(simhash_keys.c.level == 0).limit(capacity(0) + 1)
    held[0] = conn.execute(select(func.count()).select_from(at_level0.subquery())).scalar_one()
    return held


_SQLITE_INSERT_AT_LEVEL0 = "INSERT INTO simhash_keys (level, key, article_id) VALUES (0, ?, ?)"


def remove(conn: Connection, rows: Iterable[tuple[int, int]]) -> None:
    """Drop ``(key, article_id)`` rows, at whichever level each is (one seek per level)."""
    rows = list(rows)
    params = [
        {"level": level, "key": key, "article_id": row_id}
        for level in (_levels(conn) if rows else [])
        for key, row_id in rows
    ]
    if params:
        conn.execute(
            delete(simhash_keys).where(
                simhash_keys.c.level == bindparam("level"),
                simhash_keys.c.key == bindparam("key"),
                simhash_keys.c.article_id == bindparam("article_id"),
            ),
            params,
        )


def _levels(conn: Connection) -> list[int]:
    """The levels that may hold keys, in order: on SQLite those counted to; on PostgreSQL,
    where level 0 is not counted and another writer may merge between this read and the
    probes, every level down to one below the deepest counted."""
    held = select(simhash_key_levels.c.level).where(simhash_key_levels.c.key_count > 0)
    levels = list(conn.execute(held.order_by(simhash_key_levels.c.level)).scalars())
    if conn.dialect.name != "postgresql":
        return levels
    return list(range(min(max(levels, default=0) + 2, KEY_LEVELS)))


def _count(conn: Connection, level: int, added: int) -> None:
    """Add `added` to the keys `level` has received (its row made on first use)."""
    stmt = upsert(conn)(simhash_key_levels).values(level=level, key_count=added)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[simhash_key_levels.c.level],
            set_={"key_count": simhash_key_levels.c.key_count + stmt.excluded.key_count},
        )
    )


def _merge(conn: Connection, level: int, held: dict[int, int]) -> int:
    """Move every key of `level` to the next level, in key order; count and return them,
    and bring both levels' filters up to date where there are filters (`held`: the keys
    each level is counted to hold)."""
    target = level + 1
    expected = held.get(target, 0) + held.get(level, 0)
    filtered = keeps_filters(conn)
    target_filter = _filters(conn).get(target) if filtered else None
    if target_filter is not None and expected <= target_filter.planned:
        for keys in _keys_at(conn, level):
            target_filter.add(keys)
    else:
        target_filter = None  # built from the level's keys once they are there
    moved = _move(conn, level)
    conn.execute(
        update(simhash_key_levels).where(simhash_key_levels.c.level == level).values(key_count=0)
    )
    _count(conn, target, moved)
    if not filtered:
        return moved
    if level > 0:
        _save_filter(conn, level, None)
    if target_filter is None:
        rebuild_filter(conn, target, expected)
    else:
        _save_filter(conn, target, target_filter)
    return moved


_PG_MOVE = text(  # as text: SQLAlchemy reports no rowcount for an insert fed by RETURNING
    "WITH taken AS (DELETE FROM simhash_keys WHERE level = :level RETURNING key, article_id)"
    " INSERT INTO simhash_keys (level, key, article_id)"
    " SELECT :target, key, article_id FROM taken ORDER BY key ON CONFLICT DO NOTHING"
)


def _move(conn: Connection, level: int) -> int:
    """Move `level`'s keys to the next level in key order, and return how many moved.

    PostgreSQL moves, in one statement, exactly the rows its snapshot sees (``DELETE …
    RETURNING`` feeding the insert): keys other writers add meanwhile stay where they are,
    for the next merge. SQLite has one writer at a time, so nothing is added meanwhile."""
    if conn.dialect.name == "postgresql":
        return int(conn.execute(_PG_MOVE, {"level": level, "target": level + 1}).rowcount)
    source = (
        select(literal(level + 1, SmallInteger), simhash_keys.c.key, simhash_keys.c.article_id)
        .where(simhash_keys.c.level == level)
        .order_by(simhash_keys.c.key)
    )
    inserted = conn.execute(
        sqlite.insert(simhash_keys).from_select(_COLUMNS, source).on_conflict_do_nothing()
    ).rowcount
    conn.execute(delete(simhash_keys).where(simhash_keys.c.level == level))
    return int(inserted)


def rebuild_filter(conn: Connection, level: int, held: int) -> None:
    """Build `level`'s filter from the keys stored there (counted to be `held`) and store it:
    planned for all the level can hold where that fits `EAGER_FILTER_BYTES`, else for twice
    its keys."""
    full = capacity(level) + capacity(level - 1)
    eager = full * BITS_PER_KEY // 8 <= EAGER_FILTER_BYTES
    level_filter = KeyFilter(full if eager else 2 * held)
    for keys in _keys_at(conn, level):
        level_filter.add(keys)
    _save_filter(conn, level, level_filter)


def _probes(conn: Connection, keys: Collection[int], levels: list[int]) -> dict[int, list[int]]:
    """The keys worth a seek at each level: every key at a level without a filter (level 0,
    and every level on PostgreSQL), else those its filter lets through."""
    ordered = sorted(keys)
    filters = _filters(conn) if keeps_filters(conn) else {}
    if not filters:
        return {level: ordered for level in levels}
    wanted = np.array(ordered, np.uint64)
    probes: dict[int, list[int]] = {}
    for level in levels:
        level_filter = filters.get(level)
        if level_filter is None:
            probes[level] = ordered
        elif len(chosen := wanted[level_filter.might_hold(wanted)]):
            probes[level] = chosen.tolist()
    return probes


_FILTERS = "newscrawl.key_filters"
"""The key of `Connection.info` (kept with the database connection, across checkouts) where
a connection keeps the filters it has loaded: {level: (generation, filter or None)}."""


def _filters(conn: Connection) -> dict[int, KeyFilter]:
    """The current filter of each level that has one, read from the database only when its
    generation moved since this connection last read it (another process merged)."""
    held: dict[int, tuple[int, KeyFilter | None]] = conn.info.setdefault(_FILTERS, {})
    generations = select(simhash_key_filters.c.level, simhash_key_filters.c.generation)
    for level, generation in conn.execute(generations).all():
        if level not in held or held[level][0] != generation:
            planned, bits = conn.execute(
                select(simhash_key_filters.c.planned_keys, simhash_key_filters.c.bits).where(
                    simhash_key_filters.c.level == level
                )
            ).one()
            loaded = None if bits is None else KeyFilter.from_bytes(planned, bits)
            held[level] = (generation, loaded)
    return {level: level_filter for level, (_, level_filter) in held.items() if level_filter}


def _save_filter(conn: Connection, level: int, level_filter: KeyFilter | None) -> None:
    """Store `level`'s filter (None: the level is empty) under a new generation. Every
    connection, this one too, reads it back when it next looks up: a generation cached here
    before the transaction commits would outlive a rollback and might be reused."""
    generation = conn.execute(
        select(func.coalesce(func.max(simhash_key_filters.c.generation), 0) + 1)
    ).scalar_one()
    stmt = upsert(conn)(simhash_key_filters).values(
        level=level,
        generation=generation,
        planned_keys=None if level_filter is None else level_filter.planned,
        bits=None if level_filter is None else level_filter.to_bytes(),
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[simhash_key_filters.c.level],
            set_={c: stmt.excluded[c] for c in ("generation", "planned_keys", "bits")},
        )
    )


def _keys_at(conn: Connection, level: int) -> Iterator[np.ndarray]:
    """Every key stored at `level`, to build or extend its filter from, one plane at a time
    (one plane of ten million articles' keys is 10 million keys, not 140): each plane's keys
    as one string of numbers parsed by numpy, three times as fast as a row per key (0.16
    against 0.47 s for a million keys)."""
    for plane in range(len(KEY_PLANES)):
        listed = conn.exec_driver_sql(
            "SELECT group_concat(key) FROM simhash_keys WHERE level = ? AND key BETWEEN ? AND ?",
            (level, plane << 32, (plane + 1 << 32) - 1),
        ).scalar_one()
        yield np.fromstring(listed or "", dtype=np.uint64, sep=",")


def _key_matches(conn: Connection, probes: dict[int, list[int]]) -> Any:
    """``(key, article_id)`` of the rows matching the keys `probes` lists for each level: a
    join of those keys with the index, one seek per key and level (in key order, for
    locality).

    Not ``key IN (…)``: PostgreSQL estimates that from table statistics and, without them
    (a fresh table, no ANALYZE yet), reads the whole table. Here the keys come from a table
    function (SQLite's ``json_each`` over one JSON parameter, PostgreSQL's ``unnest`` of one
    array), and PostgreSQL probes the index per key in a LATERAL subquery whose ``OFFSET 0``
    keeps the planner from flattening it into a join that may scan the table."""
    if conn.dialect.name == "postgresql":  # no filters: every level is probed for every key
        ordered = next(iter(probes.values()))
        at_levels = simhash_keys.c.level.in_(list(probes))  # the partitions to read
        array = bindparam("keys", ordered, type_=postgresql.ARRAY(BigInteger))
        probe = func.unnest(array).table_valued("key").render_derived(name="probe")
        per_key = (
            select(simhash_keys.c.key, simhash_keys.c.article_id)
            .where(at_levels, simhash_keys.c.key == probe.c.key)
            .offset(0)
            .lateral("matched")
        )
        return select(per_key.c.key, per_key.c.article_id).select_from(probe).join(per_key, true())
    # A probe is level * 2**40 + key (keys are below 2**36), split again in SQL. CROSS JOIN
    # fixes SQLite's join order: its planner would otherwise scan a whole level and the
    # probe keys for each row of it.
    encoded = [level << _LEVEL_SHIFT | key for level, keys in probes.items() for key in keys]
    return text(
        "SELECT k.key, k.article_id FROM json_each(:probes) AS probe CROSS JOIN simhash_keys AS k"
        f" WHERE k.level = probe.value >> {_LEVEL_SHIFT}"
        f" AND k.key = probe.value & {(1 << _LEVEL_SHIFT) - 1}"
    ).bindparams(probes=json.dumps(encoded))


_LEVEL_SHIFT = 40
