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

Only SQLite merges (`merges_levels`). In PostgreSQL a moved row is a deletion and an
insertion, and the deleted row and its index entry stay until a vacuum: filled to 1,000,000
articles with merges, its key table was 3.6 times as large and writes 4.7 times as slow
(485 against 2,289 a second, BENCHMARKS.md, issue 18). There every key stays at level 0, one
B-tree, which its shared buffers and background writer manage, and no level is counted:
workers sharing the store would all update that one row and wait for each other's commits.
"""

from __future__ import annotations

import json
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
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from newscrawl.fingerprint import KEY_PLANES
from newscrawl.store.dialect import in_values, probe_each, upsert
from newscrawl.store.key_filter import BITS_PER_KEY, KeyFilter
from newscrawl.store.schema import articles, simhash_key_filters, simhash_key_levels, simhash_keys

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

_COLUMNS = ["level", "key", "article_id"]


def capacity(level: int) -> int:
    """The keys `level` holds before they move to the next level."""
    return int(LEVEL0_KEYS * FANOUT**level)


def bulk_level(db: Connection | Engine, keys: int) -> int:
    """The level `keys` loaded at once belong in: the first that holds them all where levels
    merge, else level 0 (an upgrade, a bulk load)."""
    if not merges_levels(db):
        return 0
    return next(level for level in range(64) if capacity(level) >= keys)


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


def add(conn: Connection, rows: list[tuple[int, int]]) -> None:
    """Index ``(key, article_id)`` rows at level 0, then merge each level that is full."""
    if not rows:
        return
    rows = sorted(rows)
    if conn.dialect.name == "postgresql":  # two array parameters rather than two per row
        keys = bindparam("keys", [k for k, _ in rows], type_=postgresql.ARRAY(BigInteger))
        ids = bindparam("ids", [a for _, a in rows], type_=postgresql.ARRAY(Integer))
        source = func.unnest(keys, ids).table_valued("key", "article_id").render_derived()
        at_level0 = select(literal(0, SmallInteger), source.c.key, source.c.article_id)
        conn.execute(postgresql.insert(simhash_keys).from_select(_COLUMNS, at_level0))
    else:  # the driver's executemany of tuples: SQLAlchemy's dicts cost 40 ms per 14,000
        conn.exec_driver_sql(_SQLITE_INSERT_AT_LEVEL0, rows)
    if not merges_levels(conn):  # no count: a row every writer updated would serialise them
        return
    _count(conn, 0, len(rows))
    counts = select(simhash_key_levels.c.level, simhash_key_levels.c.key_count)
    held = dict(conn.execute(counts).all())
    level = 0
    while held.get(level, 0) > capacity(level):  # a level fills only by a merge into it
        held[level + 1] = held.get(level + 1, 0) + _merge(conn, level, held)
        level += 1


def merges_levels(db: Connection | Engine) -> bool:
    """Whether full levels move down: on SQLite only (see the module's docstring)."""
    return db.dialect.name == "sqlite"


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
    """The levels holding keys, in order (level 0 alone where levels never merge)."""
    if not merges_levels(conn):
        return [0]
    held = select(simhash_key_levels.c.level).where(simhash_key_levels.c.key_count > 0)
    return list(conn.execute(held.order_by(simhash_key_levels.c.level)).scalars())


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
    and bring both levels' filters up to date (`held`: the keys each level is counted to
    hold). SQLite has one writer at a time, so nothing is written meanwhile."""
    target = level + 1
    expected = held.get(target, 0) + held.get(level, 0)
    target_filter = _filters(conn).get(target)
    if target_filter is not None and expected <= target_filter.planned:
        for keys in _keys_at(conn, level):
            target_filter.add(keys)
    else:
        target_filter = None  # built from the level's keys once they are there
    source = (
        select(literal(level + 1, SmallInteger), simhash_keys.c.key, simhash_keys.c.article_id)
        .where(simhash_keys.c.level == level)
        .order_by(simhash_keys.c.key)
    )
    moved = conn.execute(
        sqlite.insert(simhash_keys).from_select(_COLUMNS, source).on_conflict_do_nothing()
    ).rowcount
    conn.execute(delete(simhash_keys).where(simhash_keys.c.level == level))
    conn.execute(
        update(simhash_key_levels).where(simhash_key_levels.c.level == level).values(key_count=0)
    )
    _count(conn, level + 1, moved)
    if level > 0:
        _save_filter(conn, level, None)
    if target_filter is None:
        rebuild_filter(conn, target, expected)
    else:
        _save_filter(conn, target, target_filter)
    return int(moved)


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
    and PostgreSQL's only level), else those its filter lets through."""
    ordered = sorted(keys)
    filters = _filters(conn) if merges_levels(conn) else {}
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

    The keys come from a table function, SQLite's ``json_each`` over one JSON parameter or
    PostgreSQL's ``unnest`` of one array (`probe_each`: ``key IN (…)`` may read the whole
    table where PostgreSQL has no statistics)."""
    if conn.dialect.name == "postgresql":  # one level: no filter ever narrows a level's keys
        [(level, ordered)] = probes.items()
        at_levels = in_values(conn, simhash_keys.c.level, [level])
        matched, joined = probe_each(
            ordered,
            BigInteger,
            "key",
            lambda key: select(simhash_keys.c.key, simhash_keys.c.article_id).where(
                at_levels, simhash_keys.c.key == key
            ),
        )
        return select(matched.c.key, matched.c.article_id).select_from(joined)
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
