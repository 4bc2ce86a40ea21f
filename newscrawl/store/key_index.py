"""The near-duplicate key index: levels in one table, merged in bulk (SQLite) or sealed.

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
(485 against 2,289 a second, BENCHMARKS.md, issue 18). There a level is filled once and
never moved: new keys go to the level of the newest article id (`ARTICLES_PER_LEVEL` ids a
level), so the pages they change are those of one region of the B-tree that stays in the
buffers, however large the index; kept as one region for all keys, the index made writes
at 1,000,000 articles half as fast as at 10,000. Once keys go to a later level, the earlier
one is sealed (`_seal`): its filter is built from its keys and it receives no more, and a
lookup probes it for the keys the filter lets through. Writers take a level's advisory lock
shared and the sealer exclusively, so a level is sealed only after every writer's keys in
it are committed. Nothing is counted: no row every writer updates, which would make them
wait for each other's commits.
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
    Text,
    bindparam,
    cast,
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

ARTICLES_PER_LEVEL = 1 << 16
"""PostgreSQL: the span of article ids whose keys fill one level (917,504 keys, about 40 MB
of index, which the server's default 128 MB of shared buffers keep while it fills)."""

SEALED_BITS_PER_KEY = 16
"""PostgreSQL: the bits per key of a sealed level's filter (11 hashes: 0.046% of the keys a
level does not hold let through, against 0.8% at `BITS_PER_KEY`). Sealed levels multiply
with the corpus, 15 at a million articles and 152 at ten million, and each key a filter lets
through is a seek into a region of the index no cache keeps: at a million articles and 10
bits, 1,600 page reads a batch of 1,000 (100 µs each on this machine, a third of the
batch's time; BENCHMARKS.md, issue 18). At 16 bits: 0.1 seeks an article at 15 levels,
about 1 at 152, for 1.8 MB a level held by each writing process (280 MB at ten million)."""

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
    """Index ``(key, article_id)`` rows: on SQLite at level 0, then merge each level that is
    full; on PostgreSQL at the level open for writing (`_open_level`)."""
    if not rows:
        return
    rows = sorted(rows)
    if not merges_levels(conn):  # two array parameters rather than two per row
        keys = bindparam("keys", [k for k, _ in rows], type_=postgresql.ARRAY(BigInteger))
        ids = bindparam("ids", [a for _, a in rows], type_=postgresql.ARRAY(Integer))
        source = func.unnest(keys, ids).table_valued("key", "article_id").render_derived()
        open_level = literal(_open_level(conn), SmallInteger)
        at_level = select(open_level, source.c.key, source.c.article_id)
        conn.execute(postgresql.insert(simhash_keys).from_select(_COLUMNS, at_level))
        return
    # The driver's executemany of tuples: SQLAlchemy's dicts cost 40 ms per 14,000.
    conn.exec_driver_sql(_SQLITE_INSERT_AT_LEVEL0, rows)
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
    """Drop ``(key, article_id)`` rows, at whichever level each is: one seek per level whose
    filter, if it has one, lets the key through."""
    rows = list(rows)
    levels = _levels(conn) if rows else []
    probes = _probes(conn, {key for key, _ in rows}, levels) if levels else {}
    probed = {level: set(keys) for level, keys in probes.items()}
    params = [
        {"level": level, "key": key, "article_id": row_id}
        for level, keys in probed.items()
        for key, row_id in rows
        if key in keys
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
    """The levels holding keys, in order: on PostgreSQL every level up to the newest, those
    below it sealed first (`_seal`) where they are not yet."""
    if not merges_levels(conn):
        newest = conn.execute(select(func.max(simhash_keys.c.level))).scalar()
        if newest is None:
            return []
        for level in set(range(newest)) - set(_filters(conn)):  # every row has its bits
            _seal(conn, level)
        return list(range(newest + 1))
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
    _store_filter(conn, level, full if eager else 2 * held)


def _store_filter(
    conn: Connection, level: int, planned: int, bits_per_key: int = BITS_PER_KEY
) -> None:
    """Build a filter planned for `planned` keys from the keys stored at `level`, one plane
    at a time, and store it."""
    level_filter = KeyFilter(planned, bits_per_key=bits_per_key)
    for keys in _keys_at(conn, level):
        level_filter.add(keys)
    _save_filter(conn, level, level_filter)


def _open_level(conn: Connection) -> int:
    """PostgreSQL: the level this transaction's new keys go to, the one of the newest
    article id (`ARTICLES_PER_LEVEL`), or a later one where that is sealed; it holds the
    level's shared lock until it ends, so that no `_seal` reads the level before its keys
    are committed, and none is sealed under it."""
    newest = conn.execute(select(func.coalesce(func.max(articles.c.id), 0))).scalar_one()
    level = newest // ARTICLES_PER_LEVEL
    while True:
        conn.execute(select(func.pg_advisory_xact_lock_shared(_LOCK_SPACE, level)))
        if conn.execute(_SEALED, {"level": level}).first() is None:
            return int(level)
        level += 1


def _seal(conn: Connection, level: int) -> None:
    """PostgreSQL: build and store the filter of `level`, which new keys have left for a
    later one, if no writer still holds it (then a later lookup tries again).

    In a transaction of its own on another connection, so that the filter is committed
    before the lock that writers wait for is released, and a writer that computed this
    level before then finds it sealed. Only tries the lock: this connection's own
    transaction may hold the level, and waiting for it would wait forever."""
    with conn.engine.connect() as sealer, sealer.begin():
        locked = sealer.execute(select(func.pg_try_advisory_xact_lock(_LOCK_SPACE, level)))
        if not locked.scalar_one() or sealer.execute(_SEALED, {"level": level}).first():
            return
        held = sealer.execute(
            select(func.count()).select_from(simhash_keys).where(simhash_keys.c.level == level)
        ).scalar_one()  # more than a level's worth where keys were stored before levels
        planned = max(ARTICLES_PER_LEVEL * len(KEY_PLANES), held)
        _store_filter(sealer, level, planned, SEALED_BITS_PER_KEY)


_LOCK_SPACE = func.hashtext(literal("newscrawl.simhash_keys ") + func.current_schema())
"""The first half of the key of a level's advisory lock (the level is the second): one
per schema, so that stores sharing a database do not share locks."""
_SEALED = select(simhash_key_filters.c.level).where(
    simhash_key_filters.c.level == bindparam("level")
)


def _probes(conn: Connection, keys: Collection[int], levels: list[int]) -> dict[int, list[int]]:
    """The keys worth a seek at each level: every key at a level without a filter (SQLite's
    level 0, PostgreSQL's levels not yet sealed), else those its filter lets through."""
    ordered = sorted(keys)
    filters = _filters(conn)
    if not filters:
        return {level: ordered for level in levels}
    wanted = np.array(ordered, np.uint64)
    positions: dict[tuple[int, int], np.ndarray] = {}  # PostgreSQL's are mostly of one shape
    probes: dict[int, list[int]] = {}
    for level in levels:
        level_filter = filters.get(level)
        if level_filter is None:
            probes[level] = ordered
            continue
        if level_filter.shape not in positions:
            positions[level_filter.shape] = level_filter.positions(wanted)
        chosen = wanted[level_filter.might_hold_at(positions[level_filter.shape])]
        if len(chosen):
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
    if conn.dialect.name == "postgresql":
        listed = func.string_agg(cast(simhash_keys.c.key, Text), literal(","))
    else:
        listed = func.group_concat(simhash_keys.c.key)
    for plane in range(len(KEY_PLANES)):
        in_plane = simhash_keys.c.key.between(plane << 32, (plane + 1 << 32) - 1)
        text_of = conn.execute(
            select(listed).where(simhash_keys.c.level == level, in_plane)
        ).scalar_one()
        yield np.fromstring(text_of or "", dtype=np.uint64, sep=",")


def _key_matches(conn: Connection, probes: dict[int, list[int]]) -> Any:
    """``(key, article_id)`` of the rows matching the keys `probes` lists for each level: a
    join of those keys with the index, one seek per key and level (in key order, for
    locality).

    The keys come from a table function, SQLite's ``json_each`` over one JSON parameter or
    PostgreSQL's ``unnest`` of one array (`probe_each`: ``key IN (…)`` may read the whole
    table where PostgreSQL has no statistics)."""
    # A probe is level * 2**40 + key (keys are below 2**36), split again in SQL.
    encoded = [level << _LEVEL_SHIFT | key for level, keys in probes.items() for key in keys]
    if conn.dialect.name == "postgresql":
        matched, joined = probe_each(
            encoded,
            BigInteger,
            "probe",
            lambda probe: select(simhash_keys.c.key, simhash_keys.c.article_id).where(
                simhash_keys.c.level == probe.op(">>")(_LEVEL_SHIFT),
                simhash_keys.c.key == probe.op("&")((1 << _LEVEL_SHIFT) - 1),
            ),
        )
        return select(matched.c.key, matched.c.article_id).select_from(joined)
    # CROSS JOIN fixes SQLite's join order: its planner would otherwise scan a whole level
    # and the probe keys for each row of it.
    return text(
        "SELECT k.key, k.article_id FROM json_each(:probes) AS probe CROSS JOIN simhash_keys AS k"
        f" WHERE k.level = probe.value >> {_LEVEL_SHIFT}"
        f" AND k.key = probe.value & {(1 << _LEVEL_SHIFT) - 1}"
    ).bindparams(probes=json.dumps(encoded))


_LEVEL_SHIFT = 40
