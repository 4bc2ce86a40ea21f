"""The duplicate key index: levels of article ids, each sealed with a Bloom filter.

A stored article has 15 keys: its simhash's 14 (`newscrawl.fingerprint.lookup_keys`) and its
content hash's (`newscrawl.fingerprint.content_key`), and a new article's keys are looked up
among them, for a near-twin and for an exact copy in one lookup. Kept in one B-tree, every
key lands on a random page: once the index outgrows the database's cache, a batch of 1,000
articles dirties 15,000 scattered pages, and the store writes at a fraction of its rate
when small (measured: BENCHMARKS.md, "Where the defaults come from"). An index of the
content hash on `articles` would do the same with one page an article, so the content
hash's key is kept here too.

So `simhash_keys` is ordered by ``(level, key, article_id)`` and a level is one region of
it. New keys go to the level of the newest article id (`ARTICLES_PER_LEVEL` ids a level),
so the pages a batch changes are those of one region that stays in the cache however
large the index grows; on SQLite they pass through a smaller buffer first
(`BUFFER_LEVEL`). Once keys go to a later level, the earlier one is sealed (`_seal`): its
Bloom filter (`newscrawl.store.key_filter`, in `simhash_key_filters`) is built from its
keys, and it receives no more. A lookup probes the open level (and the buffer) with every
key and each sealed level with the keys its filter lets through (0.046% of those it does
not hold). Keys of an updated article are deleted where they are, leaving their bits
behind, a false positive, never a missed key.

Levels that merge in bulk into ever larger ones, as in a log-structured merge tree, are
not used on either database: each merge rewrites every page of the level it goes into,
pauses of seconds that slow SQLite's writes at a million articles (its buffer moves into a
level of at most `ARTICLES_PER_LEVEL` ids instead), and in PostgreSQL a moved row is a
deletion and an insertion whose dead rows stay until a vacuum, a table several times as
large and slower to write (measured: CHANGELOG.md, "Defaults as first measured").

Writers on PostgreSQL take a level's advisory lock shared and the sealer exclusively, so a
level is sealed only after every writer's keys in it are committed. SQLite has one writer
at a time, and seals in the lookup's own transaction. Nothing is counted: no row every
writer updates, which would make them wait for each other's commits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, NamedTuple

import numpy as np
from sqlalchemy import (
    BigInteger,
    Connection,
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
)
from sqlalchemy.dialects import postgresql, sqlite

from newscrawl.fingerprint import INDEXED_PLANES
from newscrawl.store.base import KeysRebuilt
from newscrawl.store.dialect import in_values, probe_each, upsert
from newscrawl.store.key_filter import KeyFilter
from newscrawl.store.schema import articles, simhash_key_filters, simhash_keys

ARTICLES_PER_LEVEL = 1 << 16
"""The span of article ids whose keys fill one level (983,040 keys, about 43 MB of index,
which PostgreSQL's default 128 MB of shared buffers and SQLite's 256 MB cache keep while it
fills)."""

BUFFER_LEVEL = -1
"""SQLite: the level new keys go to first. SQLite's commit writes every page the transaction
changed to its write-ahead log whole, and a batch's 15,000 keys scattered over the open
level of up to 983,040 keys change thousands of its 4 KiB pages: with keys written there
directly, the store wrote at a million articles well below its rate at 10,000 (measured:
CHANGELOG.md, "Defaults as first measured"). The buffer holds at most `BUFFER_KEYS`
(about 600 pages, which the cache keeps), and moves to the open level in key order every 10
batches or so. PostgreSQL's write-ahead log records rows, and its buffers write a page back
once per checkpoint however many transactions changed it, so its keys go to the open level
directly (where a moved row would be a dead one until a vacuum)."""
BUFFER_KEYS = 150_000
"""SQLite: the keys the buffer holds before they move: 10,000 articles' worth."""

_COLUMNS = ["level", "key", "article_id"]


class Candidate(NamedTuple):
    """A stored article having a key looked up, with what tells a copy or a twin."""

    key: int
    canonical_url: str
    simhash: int | None
    content_hash: str | None


def candidates(conn: Connection, keys: Collection[int]) -> list[Candidate]:
    """Each stored article having one of `keys`, once for each such key: the rows a
    duplicate check fetches."""
    levels = _levels(conn) if keys else []
    probes = _probes(conn, keys, levels) if levels else {}
    if not probes:
        return []
    matches = conn.execute(_key_matches(conn, probes)).all()
    if not matches:
        return []
    found = {
        row_id: (url, fingerprint, content_hash)
        for row_id, url, fingerprint, content_hash in conn.execute(
            select(
                articles.c.id,
                articles.c.canonical_url,
                articles.c.simhash,
                articles.c.content_hash,
            ).where(in_values(conn, articles.c.id, {row_id for _, row_id in matches}))
        )
    }
    return [Candidate(key, *found[row_id]) for key, row_id in matches if row_id in found]


def add(conn: Connection, rows: list[tuple[int, int]]) -> None:
    """Index ``(key, article_id)`` rows: on PostgreSQL at the level open for writing
    (`_open_level`), on SQLite in the buffer, moved there once it is full."""
    if not rows:
        return
    rows = sorted(rows)
    if conn.dialect.name == "postgresql":
        _insert_at(conn, _open_level(conn), rows)
        return
    _insert_at(conn, BUFFER_LEVEL, rows)
    buffered = select(func.count()).select_from(simhash_keys).where(_IN_BUFFER)
    if conn.execute(buffered).scalar_one() >= BUFFER_KEYS:
        _empty_buffer(conn)


_SQLITE_INSERT = "INSERT INTO simhash_keys (level, key, article_id) VALUES (?, ?, ?)"
_IN_BUFFER = simhash_keys.c.level == BUFFER_LEVEL


def _empty_buffer(conn: Connection) -> None:
    """SQLite: move the buffer's keys to the open level in key order, one pass over the
    pages they go to (a row the level already holds is not stored twice)."""
    moved = select(
        literal(_open_level(conn), SmallInteger), simhash_keys.c.key, simhash_keys.c.article_id
    ).where(_IN_BUFFER)
    conn.execute(
        sqlite.insert(simhash_keys)
        .from_select(_COLUMNS, moved.order_by(simhash_keys.c.key))
        .on_conflict_do_nothing()
    )
    conn.execute(delete(simhash_keys).where(_IN_BUFFER))


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
    """The levels holding keys, in order: SQLite's buffer if it holds any, then every level
    up to the newest, those below it sealed first (`_seal`) where they are not yet."""
    # Two queries: SQLite reads min() or max() alone from the end of the index, both at once
    # from the whole table.
    newest = conn.execute(select(func.max(simhash_keys.c.level))).scalar()
    lowest = conn.execute(select(func.min(simhash_keys.c.level))).scalar()
    if newest is None:
        return []
    for level in set(range(newest)) - set(_filters(conn)):  # every row has its bits
        _seal(conn, level)
    return ([BUFFER_LEVEL] if lowest == BUFFER_LEVEL else []) + list(range(newest + 1))


def _open_level(conn: Connection) -> int:
    """The level this transaction's new keys go to, the one of the newest article id
    (`ARTICLES_PER_LEVEL`), or a later one where that is sealed. On PostgreSQL it holds the
    level's shared lock until it ends, so that no `_seal` reads the level before its keys
    are committed, and none is sealed under it."""
    newest = conn.execute(select(func.coalesce(func.max(articles.c.id), 0))).scalar_one()
    level = newest // ARTICLES_PER_LEVEL
    while True:
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_advisory_xact_lock_shared(_LOCK_SPACE, level)))
        if conn.execute(_SEALED, {"level": level}).first() is None:
            return int(level)
        level += 1


def _seal(conn: Connection, level: int) -> None:
    """Build and store the filter of `level`, which new keys have left for a later one.

    SQLite has one writer at a time: the level's keys are all committed, or this
    transaction's, and the filter is written in it. On PostgreSQL only if no writer still
    holds the level (else a later lookup tries again), in a transaction of its own on
    another connection, so that the filter is committed before the lock that writers wait
    for is released, and a writer that computed this level before then finds it sealed.
    It only tries the lock: this connection's own transaction may hold the level, and
    waiting for it would wait forever."""
    if conn.dialect.name != "postgresql":
        _store_filter(conn, level)
        return
    with conn.engine.connect() as sealer, sealer.begin():
        locked = sealer.execute(select(func.pg_try_advisory_xact_lock(_LOCK_SPACE, level)))
        if locked.scalar_one() and not sealer.execute(_SEALED, {"level": level}).first():
            _store_filter(sealer, level)


def _store_filter(conn: Connection, level: int, *, replace: bool = False) -> None:
    """Build the filter of `level` from its keys, one plane at a time, and store it: planned
    for a level's worth of keys, or all it holds where keys were stored before levels. A
    filter the level has already is replaced only if `replace` (`_save_filter`)."""
    held = conn.execute(
        select(func.count()).select_from(simhash_keys).where(simhash_keys.c.level == level)
    ).scalar_one()
    level_filter = KeyFilter(max(ARTICLES_PER_LEVEL * INDEXED_PLANES, held))
    for keys in _keys_at(conn, level):
        level_filter.add(keys)
    _save_filter(conn, level, level_filter, replace=replace)


def rebuild(
    conn: Connection, keys_of: Callable[[str | None, int | None], list[int]]
) -> KeysRebuilt:
    """Write every stored article's keys again (`keys_of` its content hash and simhash), at
    the level of its id, and give every level below the newest article's, and every level
    sealed before, a filter built from its new keys.

    For a store whose keys were lost or written with detection off. The old filters are
    replaced, not deleted, so generations keep growing and a running process never takes a
    rebuilt filter for the one it holds; on PostgreSQL the key table is locked against
    writers until the transaction ends. Levels are rebuilt one at a time, their keys inserted
    in key order."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("LOCK TABLE simhash_keys IN EXCLUSIVE MODE"))
    conn.execute(delete(simhash_keys))
    conn.info.pop(_FILTERS, None)
    newest = conn.execute(select(func.max(articles.c.id))).scalar()
    sealed = {level for (level,) in conn.execute(select(simhash_key_filters.c.level))}
    stored = written = 0
    last_level = -1 if newest is None else newest // ARTICLES_PER_LEVEL
    for level in range(last_level + 1):
        first = level * ARTICLES_PER_LEVEL
        rows: list[tuple[int, int]] = []
        for row_id, content_hash, fingerprint in conn.execute(
            select(articles.c.id, articles.c.content_hash, articles.c.simhash).where(
                articles.c.id.between(first, first + ARTICLES_PER_LEVEL - 1)
            )
        ):
            stored += 1
            rows.extend((key, row_id) for key in keys_of(content_hash, fingerprint))
        _insert_at(conn, level, sorted(rows))
        written += len(rows)
    to_seal = sorted(sealed | set(range(last_level)))
    for level in to_seal:
        _store_filter(conn, level, replace=True)
    return KeysRebuilt(stored, written, len(to_seal))


def _insert_at(conn: Connection, level: int, rows: list[tuple[int, int]]) -> None:
    """Insert ``(key, article_id)`` rows at `level`: on PostgreSQL in one statement of two
    array parameters rather than two parameters a row; on SQLite by the driver's executemany
    of tuples (SQLAlchemy's dicts cost about 40 ms a batch)."""
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        keys = bindparam("keys", [k for k, _ in rows], type_=postgresql.ARRAY(BigInteger))
        ids = bindparam("ids", [a for _, a in rows], type_=postgresql.ARRAY(Integer))
        source = func.unnest(keys, ids).table_valued("key", "article_id").render_derived()
        at_level = select(literal(level, SmallInteger), source.c.key, source.c.article_id)
        conn.execute(postgresql.insert(simhash_keys).from_select(_COLUMNS, at_level))
        return
    conn.exec_driver_sql(_SQLITE_INSERT, [(level, key, row_id) for key, row_id in rows])


_LOCK_SPACE = func.hashtext(literal("newscrawl.simhash_keys ") + func.current_schema())
"""The first half of the key of a level's advisory lock (the level is the second): one
per schema, so that stores sharing a database do not share locks."""
_SEALED = select(simhash_key_filters.c.level).where(
    simhash_key_filters.c.level == bindparam("level")
)


def _probes(conn: Connection, keys: Collection[int], levels: list[int]) -> dict[int, list[int]]:
    """The keys worth a seek at each level: every key at a level without a filter (the open
    level, or one not yet sealed), else those its filter lets through."""
    ordered = sorted(keys)
    filters = _filters(conn)
    if not filters:
        return {level: ordered for level in levels}
    wanted = np.array(ordered, np.uint64)
    positions: dict[tuple[int, int], np.ndarray] = {}  # sealed levels share one shape
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
a connection keeps the filters it has loaded: {level: (generation, filter)}."""


def _filters(conn: Connection) -> dict[int, KeyFilter]:
    """The filter of each sealed level, read from the database only when its generation
    moved since this connection last read it (another process sealed it again)."""
    held: dict[int, tuple[int, KeyFilter]] = conn.info.setdefault(_FILTERS, {})
    generations = select(simhash_key_filters.c.level, simhash_key_filters.c.generation)
    current = {level: generation for level, generation in conn.execute(generations)}
    for level, generation in current.items():
        if level not in held or held[level][0] != generation:
            planned, bits = conn.execute(
                select(simhash_key_filters.c.planned_keys, simhash_key_filters.c.bits).where(
                    simhash_key_filters.c.level == level
                )
            ).one()
            held[level] = (generation, KeyFilter.from_bytes(planned, bits))
    return {level: held[level][1] for level in current}


def _save_filter(conn: Connection, level: int, level_filter: KeyFilter, *, replace: bool) -> None:
    """Store `level`'s filter under a new generation. Every connection, this one too, reads
    it back when it next looks up: a generation cached here before the transaction commits
    would outlive a rollback and might be reused.

    A seal (not `replace`) leaves a filter the level got meanwhile: on PostgreSQL one that
    `rebuild` wrote while the seal read the old keys, whose generation the seal's may equal."""
    generation = conn.execute(
        select(func.coalesce(func.max(simhash_key_filters.c.generation), 0) + 1)
    ).scalar_one()
    stmt = upsert(conn)(simhash_key_filters).values(
        level=level,
        generation=generation,
        planned_keys=level_filter.planned,
        bits=level_filter.to_bytes(),
    )
    if not replace:
        conn.execute(stmt.on_conflict_do_nothing(index_elements=[simhash_key_filters.c.level]))
        return
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[simhash_key_filters.c.level],
            set_={c: stmt.excluded[c] for c in ("generation", "planned_keys", "bits")},
        )
    )


def _keys_at(conn: Connection, level: int) -> Iterator[np.ndarray]:
    """Every key stored at `level`, to build or extend its filter from, one plane at a time
    (one plane of ten million articles' keys is 10 million keys, not all 150 million): each
    plane's keys as one string of numbers parsed by numpy, three times as fast as a row per
    key (0.16 against 0.47 s for a million keys)."""
    if conn.dialect.name == "postgresql":
        listed = func.string_agg(cast(simhash_keys.c.key, Text), literal(","))
    else:
        listed = func.group_concat(simhash_keys.c.key)
    for plane in range(INDEXED_PLANES):
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
