"""The SQL store: one SQLAlchemy Core code path for SQLite and PostgreSQL.

Dialect differences live in `newscrawl.store.dialect` (``INSERT … ON CONFLICT``, ``IN``),
`_on_connect` (connection settings) and the duplicate key index
(`newscrawl.store.key_index`); everything else is portable Core.

A batch is classified before it is written: a URL already stored is *unchanged* or *updated*
by its content hash, a new URL whose body equals a stored article's is a *duplicate* (kept
as an alias), anything else is *new*. New and updated articles are looked up by their keys
(`index_keys`) in one lookup: a copy shares its content hash's key, a near-twin one of its
simhash's keys; a near-twin is marked, not dropped.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    union_all,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from newscrawl.article import EXPORT_FIELDS, RECORD_FIELDS
from newscrawl.fingerprint import NEAR_DUPLICATE_BITS, content_key, hamming, lookup_keys
from newscrawl.store import key_index
from newscrawl.store.base import (
    MAX_KEY_URL_BYTES,
    DayCount,
    KeysRebuilt,
    SiteSummary,
    Store,
    StoreError,
    StoreUnavailable,
    WriteOutcome,
    fits_a_key,
)
from newscrawl.store.dialect import in_values, upsert
from newscrawl.store.migrations import UnknownRevision
from newscrawl.store.records import ArticleRecord
from newscrawl.store.schema import (
    SchemaError,
    UtcDateTime,
    aliases,
    articles,
    ensure_schema,
)

logger = logging.getLogger(__name__)


def _known_statement(*, with_age: bool) -> Any:
    """Is a URL stored, as an article or an alias (and born before ``:before``)?

    Built once: constructing a statement costs more than running this lookup."""
    direct = select(articles.c.id).where(articles.c.canonical_url == bindparam("url"))
    via_alias = (
        select(articles.c.id)
        .join(aliases, aliases.c.canonical_url == articles.c.canonical_url)
        .where(aliases.c.alias_url == bindparam("url"))
    )
    if with_age:
        born = func.coalesce(articles.c.published_at, articles.c.first_seen)
        direct = direct.where(born < bindparam("before", type_=UtcDateTime))
        via_alias = via_alias.where(born < bindparam("before", type_=UtcDateTime))
    return union_all(direct, via_alias).limit(1)


_KNOWN = _known_statement(with_age=False)
_KNOWN_BEFORE = _known_statement(with_age=True)


def index_keys(content_hash: str | None, fingerprint: int | None, *, near: bool) -> list[int]:
    """The keys an article is indexed and looked up by: its content hash's, and (`near`:
    near-duplicate detection on) its simhash's. An empty body has no hash and no simhash."""
    keys = [content_key(content_hash)] if content_hash else []
    if near and fingerprint is not None:
        keys.extend(lookup_keys(fingerprint))
    return keys


def _replace_keys(
    conn: Connection,
    keys_of: dict[str, list[int]],
    was: dict[str, tuple[int, list[int]]],
) -> None:
    """Index the new and changed articles by their keys (`keys_of`); `was` holds the updated
    articles' ids and old keys: an updated article loses the old keys it no longer has and
    gains only those it did not have."""
    stale: list[tuple[int, int]] = []
    fresh: dict[str, list[int]] = {}
    for url, keys in keys_of.items():
        row_id, old = was.get(url, (0, []))
        stale.extend((key, row_id) for key in set(old) - set(keys))
        if added := [key for key in keys if key not in old]:
            fresh[url] = added
    key_index.remove(conn, stale)
    if not fresh:
        return
    ids = {url: row_id for url, (row_id, _) in was.items()}
    if inserted := [url for url in fresh if url not in ids]:  # their ids are new
        ids.update(
            conn.execute(
                select(articles.c.canonical_url, articles.c.id).where(
                    in_values(conn, articles.c.canonical_url, inserted)
                )
            ).all()
        )
    key_index.add(conn, [(key, ids[url]) for url, keys in fresh.items() for key in keys])


def _owners_of(by_key: dict[int, list[key_index.Candidate]], hashes: set[str]) -> dict[str, str]:
    """For each of `hashes` stored, the smallest canonical URL of an article with that body,
    among those sharing the hash's key (`by_key`)."""
    owners: dict[str, str] = {}
    for content_hash in hashes:
        same = [
            c.canonical_url
            for c in by_key.get(content_key(content_hash), ())
            if c.content_hash == content_hash
        ]
        if same:
            owners[content_hash] = min(same)
    return owners


def _on_connect(dialect_name: str) -> Callable[[Any, Any], None]:
    """Per-connection settings: SQLite in WAL mode with foreign keys; PostgreSQL in UTC
    (so `date()` groups by the UTC day on both). The rest was chosen with
    ``bench/bench_store.py`` (measured: CHANGELOG.md, "Defaults as first measured")."""
    statements = {
        "sqlite": (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            # A batch's near-twin keys land on thousands of scattered index pages, and the
            # default checkpoint after every 1,000 pages of WAL wrote each of them back at
            # every commit; every 100,000 pages (400 MB) a page changed by several batches
            # is written back once, and a large store inserts faster. The WAL file is cut
            # back to 64 MiB after a checkpoint.
            "PRAGMA wal_autocheckpoint=100000",
            "PRAGMA journal_size_limit=67108864",
            # Up to 256 MiB of pages cached per connection (default 2 MiB), taken only as
            # pages are read: the upper levels and much of the key index stay in memory,
            # and a large store inserts faster again.
            "PRAGMA cache_size=-262144",
        ),
        # No JIT: without statistics the planner's estimates for the near-twin lookup run
        # to millions of rows, and compiling for them took a large share of the query.
        "postgresql": ("SET TIME ZONE 'UTC'", "SET jit = off"),
    }[dialect_name]

    def configure(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        for statement in statements:
            cursor.execute(statement)
        cursor.close()
        if dialect_name == "postgresql":
            dbapi_conn.commit()

    return configure


def shown_url(url: str | URL) -> str:
    """`url` as messages show it: the password masked (``***``), the rest as given."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an unparsable URL)"


def driver_reason(error: BaseException) -> str:
    """The first line of the driver's own message: SQLAlchemy's wrapper adds the statement,
    a link and, for psycopg, a hint line, none of which says more."""
    reason = getattr(error, "orig", None) or error
    lines = str(reason).strip().splitlines()
    return lines[0] if lines else type(reason).__name__


def parse_store_url(url: str, *, create: bool = True) -> URL:
    """`url` checked for what needs no connection: SQLite or PostgreSQL, a driver installed,
    and (unless `create`) an SQLite file that exists. Raises `StoreUnavailable`.

    Without `create` no file or directory is made: a reading command given a mistyped path
    must fail, not report an empty store it has just created.
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        shown = url if "@" not in url else "(not shown: it may hold a password)"
        raise StoreUnavailable(
            f"not a database URL: {shown} (expected sqlite:///PATH or postgresql://USER@HOST/DB)"
        ) from None
    backend = parsed.get_backend_name()
    if backend in ("postgresql", "postgres"):
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        try:
            parsed.get_dialect().import_dbapi()
        except ImportError:
            raise StoreUnavailable(
                f"cannot open the store at {shown_url(url)}: PostgreSQL needs psycopg: "
                "pip install 'psycopg[binary]' (from a clone: pip install -e '.[postgres]')"
            ) from None
        return parsed
    if backend != "sqlite":
        raise StoreUnavailable(
            f"cannot open the store at {shown_url(url)}: unsupported database {backend!r} "
            "(use sqlite:///PATH or postgresql://USER@HOST/DB)"
        )
    if parsed.database in (None, "", ":memory:"):
        return parsed
    path = Path(parsed.database)
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.is_file():
        problem = "is a directory" if path.is_dir() else "does not exist (a crawl creates it)"
        raise StoreUnavailable(f"no store at {shown_url(url)}: {path.absolute()} {problem}")
    return parsed


def create_store_engine(url: str, *, create: bool = True) -> Engine:
    """An engine for a database URL; ``postgresql://`` is served by psycopg 3.

    Raises `StoreUnavailable` for a URL `parse_store_url` rejects."""
    engine = create_engine(parse_store_url(url, create=create), pool_pre_ping=True)
    event.listen(engine, "connect", _on_connect(engine.dialect.name))
    return engine


class SqlStore(Store):
    """`Store` over a SQLAlchemy engine (SQLite or PostgreSQL).

    A new or changed article is marked a near-duplicate of the closest stored one (or one
    earlier in its batch) at most `near_duplicate_bits` apart among those sharing a key
    with it: every one within `newscrawl.fingerprint.GUARANTEED_BITS` (3) shares a key,
    further apart some do. 0 turns detection off: no simhash keys are written or looked up
    (the content hash's still are, for exact copies), and articles stored meanwhile stay
    unknown to the near-twin lookup once it is turned on again, until `rebuild_keys`.
    """

    def __init__(self, engine: Engine, *, near_duplicate_bits: int = NEAR_DUPLICATE_BITS) -> None:
        self._engine = engine
        self._near_bits = near_duplicate_bits
        self._detect = near_duplicate_bits > 0
        self._lookup: Connection | None = None
        self._shown_url = shown_url(engine.url)

    @classmethod
    def open(
        cls, url: str, *, create: bool = True, near_duplicate_bits: int = NEAR_DUPLICATE_BITS
    ) -> SqlStore:
        """Connect, create (if `create`) or migrate the schema, and return the store.

        Raises `StoreUnavailable` with one line: the URL (password masked) and the driver's
        reason. Without `create`, a database that holds no store yet is refused too.
        """
        engine = create_store_engine(url, create=create)
        try:
            change = ensure_schema(engine, create=create)
        except (SQLAlchemyError, SchemaError, UnknownRevision) as exc:
            engine.dispose()
            reason = driver_reason(exc)
            raise StoreUnavailable(f"cannot open the store at {shown_url(url)}: {reason}") from exc
        store = cls(engine, near_duplicate_bits=near_duplicate_bits)
        store.schema_change = change
        if (done := change.describe()) is not None:
            logger.info("%s: %s", shown_url(url), done)
        return store

    def rebuild_keys(self) -> KeysRebuilt:
        try:
            with self._engine.begin() as conn:
                return key_index.rebuild(conn, partial(index_keys, near=self._detect))
        except SQLAlchemyError as exc:
            raise StoreError(
                f"rebuilding the keys of {self._shown_url} failed: {driver_reason(exc)}"
            ) from exc

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        self._close_lookup()
        self._engine.dispose()

    # -- writing -----------------------------------------------------------------------

    def write(
        self, records: Sequence[ArticleRecord], *, changed_at: datetime | None = None
    ) -> dict[str, WriteOutcome]:
        batch = list({r.canonical_url: r for r in records}.values())
        refused = {
            r.canonical_url: WriteOutcome.REFUSED for r in batch if not fits_a_key(r.canonical_url)
        }
        for url in refused:
            logger.warning("not stored: its URL is over %d bytes: %.200s…", MAX_KEY_URL_BYTES, url)
        batch = [r for r in batch if r.canonical_url not in refused]
        if not batch:
            return refused
        try:
            with self._engine.begin() as conn:
                return self._write(conn, batch, changed_at) | refused
        except SQLAlchemyError as exc:
            raise StoreError(
                f"writing {len(batch)} articles to {self._shown_url} failed: {driver_reason(exc)}"
            ) from exc

    def _write(
        self, conn: Connection, batch: list[ArticleRecord], changed_at: datetime | None
    ) -> dict[str, WriteOutcome]:
        urls = [r.canonical_url for r in batch]
        found = conn.execute(
            select(
                articles.c.canonical_url, articles.c.content_hash, articles.c.id, articles.c.simhash
            ).where(in_values(conn, articles.c.canonical_url, urls))
        ).all()
        stored = {url: content for url, content, _, _ in found}
        looked_up = {  # every article new or changed, in one lookup
            r.canonical_url: index_keys(r.content_hash, r.simhash, near=self._detect)
            for r in batch
            if r.canonical_url not in stored or stored[r.canonical_url] != r.content_hash
        }
        wanted = {key for keys in looked_up.values() for key in keys}
        by_key: dict[int, list[key_index.Candidate]] = defaultdict(list)
        for candidate in key_index.candidates(conn, wanted):
            by_key[candidate.key].append(candidate)
        hashes = {r.content_hash for r in batch if r.content_hash and r.canonical_url not in stored}
        owner_of_hash = _owners_of(by_key, hashes)

        outcomes: dict[str, WriteOutcome] = {}
        alias_rows: list[dict[str, Any]] = []
        for record in batch:
            url = owner = record.canonical_url
            if url in stored:
                same = stored[url] == record.content_hash
                outcomes[url] = WriteOutcome.UNCHANGED if same else WriteOutcome.UPDATED
            elif record.content_hash in owner_of_hash:
                outcomes[url] = WriteOutcome.DUPLICATE
                owner = owner_of_hash[record.content_hash]
                alias_rows.append(_alias(url, owner, record))
            else:
                outcomes[url] = WriteOutcome.NEW
                if record.content_hash:
                    owner_of_hash[record.content_hash] = url
            alias_rows.extend(
                _alias(a, owner, record) for a in record.aliases if a != owner and fits_a_key(a)
            )

        changed = [
            r
            for r in batch
            if outcomes[r.canonical_url] in (WriteOutcome.NEW, WriteOutcome.UPDATED)
        ]
        keys_of = {r.canonical_url: looked_up[r.canonical_url] for r in changed}  # not copies
        twins = self._near_twins(by_key, changed, keys_of) if self._detect else {}
        new_urls = [
            r.canonical_url for r in changed if outcomes[r.canonical_url] is WriteOutcome.NEW
        ]
        if new_urls:  # a URL that was an alias of another article is now an article itself
            conn.execute(delete(aliases).where(in_values(conn, aliases.c.alias_url, new_urls)))
        stored_rows = [r for r in batch if outcomes[r.canonical_url] is not WriteOutcome.DUPLICATE]
        if stored_rows:
            self._upsert(
                conn, [_row(r, twins.get(r.canonical_url), changed_at) for r in stored_rows]
            )
        if alias_rows:
            conn.execute(upsert(conn)(aliases).on_conflict_do_nothing(), alias_rows)
        was = {  # the old keys of the articles updated, not of the unchanged ones
            url: (row_id, index_keys(content, fingerprint, near=self._detect))
            for url, content, row_id, fingerprint in found
            if url in keys_of
        }
        _replace_keys(conn, keys_of, was)
        return outcomes

    def _upsert(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        """Insert or update keyed on the canonical URL; `first_seen` never moves,
        `last_fetched` never moves back, and `last_changed` and the near-duplicate mark
        change only when the body's hash differs."""
        stmt = upsert(conn)(articles)
        new = stmt.excluded
        same_body = articles.c.content_hash.is_not_distinct_from(new.content_hash)
        keep = {"id", "canonical_url", "first_seen"}
        values: dict[str, Any] = {c.name: new[c.name] for c in articles.c if c.name not in keep}
        for name in ("last_changed", "near_duplicate_of"):
            values[name] = case((same_body, articles.c[name]), else_=new[name])
        values["last_fetched"] = _later(conn, articles.c.last_fetched, new.last_fetched)
        values["published_at"] = func.coalesce(new.published_at, articles.c.published_at)
        conn.execute(
            stmt.on_conflict_do_update(index_elements=[articles.c.canonical_url], set_=values),
            rows,
        )

    def _near_twins(
        self,
        by_key: dict[int, list[key_index.Candidate]],
        changed: list[ArticleRecord],
        keys_of: dict[str, list[int]],
    ) -> dict[str, str]:
        """For each changed record with a simhash, the closest other article within the bit
        limit (stored, or earlier in this batch) among those sharing one of its keys
        (`keys_of`); ties go to the smaller URL. `by_key`: the stored articles having each
        key."""
        seen: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for key, found in by_key.items():
            seen[key] = [(c.canonical_url, c.simhash) for c in found if c.simhash is not None]
        twins: dict[str, str] = {}
        for record in changed:
            url, fingerprint = record.canonical_url, record.simhash
            if fingerprint is None:
                continue
            keys = keys_of[url]
            candidates = {c for key in keys for c in seen.get(key, ())}
            best = min(
                ((hamming(fingerprint, fp), other) for other, fp in candidates if other != url),
                default=None,
            )
            if best is not None and best[0] <= self._near_bits:
                twins[url] = best[1]
            for key in keys:
                seen[key].append((url, fingerprint))
        return twins

    # -- reading -----------------------------------------------------------------------

    def is_known(self, canonical_url: str, *, older_than: datetime | None = None) -> bool:
        """One indexed lookup on a connection kept for these calls, in autocommit mode: a
        pool checkout per request would cost a ping, a transaction a round trip more, and
        SQLite sees new writes. Meant for one thread, the crawl's."""
        stmt = _KNOWN if older_than is None else _KNOWN_BEFORE
        params = {"url": canonical_url, "before": older_than}
        try:
            if self._lookup is None:
                self._lookup = self._engine.connect().execution_options(
                    isolation_level="AUTOCOMMIT"
                )
            return self._lookup.execute(stmt, params).first() is not None
        except SQLAlchemyError as exc:
            self._close_lookup()
            raise StoreError(
                f"reading the store at {self._shown_url} failed: {driver_reason(exc)}"
            ) from exc

    def _close_lookup(self) -> None:
        if self._lookup is not None:
            with suppress(SQLAlchemyError):
                self._lookup.close()
            self._lookup = None

    def count_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
        language: str | None = None,
    ) -> int:
        stmt = _filtered(
            select(func.count()).select_from(articles), site, since, min_confidence, language
        )
        with _Reading(self._engine) as conn:
            return int(conn.execute(stmt).scalar_one())

    def iter_articles(
        self,
        *,
        site: str | None = None,
        since: datetime | None = None,
        min_confidence: float | None = None,
        language: str | None = None,
        chunk: int = 1000,
    ) -> Iterator[dict[str, Any]]:
        stmt = _filtered(
            select(*(articles.c[f.name] for f in EXPORT_FIELDS)),
            site,
            since,
            min_confidence,
            language,
        ).order_by(articles.c.id)
        with _Reading(self._engine) as conn:
            for row in conn.execution_options(yield_per=chunk).execute(stmt):
                yield row._asdict()

    def daily_counts(self) -> list[DayCount]:
        day = func.date(articles.c.first_seen)
        stmt = (
            select(articles.c.site, day, func.count(), func.sum(_empty_body()))
            .group_by(articles.c.site, day)
            .order_by(articles.c.site, day)
        )
        with _Reading(self._engine) as conn:
            return [
                DayCount(site, datetime.fromisoformat(str(d)[:10]).date(), n, int(e or 0))
                for site, d, n, e in conn.execute(stmt).all()
            ]

    def site_summaries(self) -> list[SiteSummary]:
        stmt = (
            select(
                articles.c.site,
                func.count(),
                func.sum(_empty_body()),
                func.max(articles.c.last_fetched),
                func.avg(articles.c.confidence),
                func.avg(func.length(articles.c.body)),
            )
            .group_by(articles.c.site)
            .order_by(articles.c.site)
        )
        with _Reading(self._engine) as conn:
            return [
                SiteSummary(site, n, int(e or 0), last, _float(conf), _float(chars))
                for site, n, e, last, conf, chars in conn.execute(stmt).all()
            ]


def _float(value: Any) -> float | None:
    """An aggregate as a float (PostgreSQL's avg is a Decimal), None for SQL NULL."""
    return None if value is None else float(value)


class _Reading:
    """Context manager: a connection whose SQLAlchemy errors surface as `StoreError`."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._conn: Connection | None = None

    def __enter__(self) -> Connection:
        try:
            self._conn = self._engine.connect()
        except SQLAlchemyError as exc:
            where = shown_url(self._engine.url)
            raise StoreError(f"cannot read the store at {where}: {driver_reason(exc)}") from exc
        return self._conn

    def __exit__(self, _exc_type: Any, exc: BaseException | None, _tb: Any) -> None:
        assert self._conn is not None
        self._conn.close()
        if isinstance(exc, SQLAlchemyError):
            where = shown_url(self._engine.url)
            raise StoreError(f"reading the store at {where} failed: {driver_reason(exc)}") from exc


def _empty_body() -> Any:
    return case((articles.c.body == "", 1), else_=0)


def _filtered(
    stmt: Any,
    site: str | None,
    since: datetime | None,
    min_confidence: float | None,
    language: str | None,
) -> Any:
    if site is not None:
        stmt = stmt.where(articles.c.site == site)
    if since is not None:
        stmt = stmt.where(articles.c.last_changed >= since)
    if min_confidence is not None:  # SQL's NULL >= x is not true: NULL rows drop out
        stmt = stmt.where(articles.c.confidence >= min_confidence)
    if language is not None:  # BCP 47 tags ignore case; zh also selects zh-CN, zh-Hans …
        tag = func.lower(articles.c.language)
        wanted = language.lower()
        stmt = stmt.where(or_(tag == wanted, tag.startswith(f"{wanted}-", autoescape=True)))
    return stmt


def _alias(alias_url: str, canonical_url: str, record: ArticleRecord) -> dict[str, Any]:
    return {"alias_url": alias_url, "canonical_url": canonical_url, "first_seen": record.fetched_at}


def _row(
    record: ArticleRecord, near_twin: str | None, changed_at: datetime | None
) -> dict[str, Any]:
    """The `articles` row of a record: its values, and what the store adds."""
    row: dict[str, Any] = {f.name: record[f.name] for f in RECORD_FIELDS}
    row["tags"] = list(row["tags"])
    row.update(
        canonical_url=record.canonical_url,
        first_seen=record.fetched_at,
        last_fetched=record.fetched_at,
        last_changed=changed_at or record.fetched_at,
        content_hash=record.content_hash,
        simhash=record.simhash,
        near_duplicate_of=near_twin,
    )
    return row


def _later(conn: Connection, stored: Any, new: Any) -> Any:
    """The later of two times (SQLite's two-argument max, PostgreSQL's greatest)."""
    later = func.greatest if conn.dialect.name == "postgresql" else func.max
    return later(stored, new)
