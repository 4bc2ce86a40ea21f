"""Article storage: pick a database by URL and open it.

SQLite at `DEFAULT_DB_URL` is the embedded default; a ``postgresql://`` URL (from the
`NEWSCRAWL_DB_URL` setting or, failing that, the environment variable of the same name)
selects a shared PostgreSQL. Credentials come only from that URL.

Only a crawl creates a database (``create=True``, the default of `open_store`); the commands
that read or load a store open it with ``create=False`` and fail on a missing SQLite file or
a database without a store. Every failure to open raises `StoreUnavailable`, one line.
"""

from __future__ import annotations

import os

from newscrawl.fingerprint import NEAR_DUPLICATE_BITS
from newscrawl.store.base import (
    STATS_PREFIX,
    DayCount,
    KeysRebuilt,
    SiteSummary,
    Store,
    StoreError,
    StoreUnavailable,
    WriteOutcome,
    each_record_outcome,
)
from newscrawl.store.records import ArticleRecord
from newscrawl.store.sql import SqlStore

DEFAULT_DB_URL = "sqlite:///data/newscrawl.db"
ENV_VAR = "NEWSCRAWL_DB_URL"


def database_url(configured: str | None = None) -> str:
    """The URL to use: the configured one, else the environment's, else the default."""
    return configured or os.environ.get(ENV_VAR) or DEFAULT_DB_URL


def open_store(
    url: str, *, create: bool = True, near_duplicate_bits: int = NEAR_DUPLICATE_BITS
) -> Store:
    """Open (creating or migrating the schema) the store at a database URL.

    With ``create=False`` nothing is created: a missing SQLite file, or a database without
    a store, raises `StoreUnavailable` like an unreachable server does.
    """
    return SqlStore.open(url, create=create, near_duplicate_bits=near_duplicate_bits)


def check_store_url(url: str, *, create: bool = True) -> None:
    """Open and close the store at `url`; raises `StoreUnavailable` (one line) if it cannot.

    For ``scrapy crawl`` to fail before it starts rather than after opening the spider.
    With `create` (a crawl's case) a new SQLite file and the schema are made, as the crawl
    would make them a moment later.
    """
    open_store(url, create=create).close()


__all__ = [
    "DEFAULT_DB_URL",
    "STATS_PREFIX",
    "ArticleRecord",
    "DayCount",
    "KeysRebuilt",
    "SiteSummary",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "WriteOutcome",
    "check_store_url",
    "database_url",
    "each_record_outcome",
    "open_store",
]
