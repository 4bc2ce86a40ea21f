"""Article storage: pick a database by URL and open it.

SQLite at `DEFAULT_DB_URL` is the embedded default; a ``postgresql://`` URL (from the
`NEWSCRAWL_DB_URL` setting or, failing that, the environment variable of the same name)
selects a shared PostgreSQL. Credentials come only from that URL.
"""

from __future__ import annotations

import os

from newscrawl.fingerprint import NEAR_DUPLICATE_BITS
from newscrawl.store.base import (
    STATS_PREFIX,
    ArticleRecord,
    DayCount,
    Outcome,
    SiteSummary,
    Store,
    StoreError,
)
from newscrawl.store.sql import SqlStore

DEFAULT_DB_URL = "sqlite:///data/newscrawl.db"
ENV_VAR = "NEWSCRAWL_DB_URL"


def database_url(configured: str | None = None) -> str:
    """The URL to use: the configured one, else the environment's, else the default."""
    return configured or os.environ.get(ENV_VAR) or DEFAULT_DB_URL


def open_store(url: str, *, near_duplicate_bits: int = NEAR_DUPLICATE_BITS) -> Store:
    """Open (creating or migrating the schema) the store at a database URL."""
    return SqlStore.open(url, near_duplicate_bits=near_duplicate_bits)


__all__ = [
    "DEFAULT_DB_URL",
    "STATS_PREFIX",
    "ArticleRecord",
    "DayCount",
    "Outcome",
    "SiteSummary",
    "Store",
    "StoreError",
    "database_url",
    "open_store",
]
