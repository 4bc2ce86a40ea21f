"""``newscrawl db``: the store's schema and indexes, on purpose.

``upgrade`` brings a store's schema up to this release's, saying what changed. Every open of
a store (a crawl, an export) upgrades it too and logs the same line; this command does it
before a crawl, e.g. after upgrading newscrawl on a shared PostgreSQL that several workers
use. ``rebuild-keys`` indexes every stored article's duplicate keys again
(`Store.rebuild_keys`): after a crawl with near-duplicate detection off, or to index under
another limit. Neither ever creates a store: a mistyped ``--db`` fails.
"""

from __future__ import annotations

import argparse
import sys

from newscrawl.commands.export import add_db_argument, store_failed
from newscrawl.commands.near_duplicate_limit import add_near_duplicate_argument, near_duplicate_bits
from newscrawl.store import StoreError, database_url, open_store
from newscrawl.store.sql import shown_url


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``db`` parser, its ``upgrade`` subcommand and their handler."""
    parser = subparsers.add_parser(
        "db",
        help="manage the store's schema and indexes (upgrade, rebuild-keys)",
        description="Manage the article store's database schema.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    upgrade = actions.add_parser(
        "upgrade",
        help="apply the schema migrations the store lacks",
        description="Apply the schema migrations the store lacks (Alembic), keeping every "
        "row, and print what was done.",
    )
    add_db_argument(upgrade)
    upgrade.set_defaults(func=run_upgrade)
    rebuild = actions.add_parser(
        "rebuild-keys",
        help="index every stored article's duplicate keys again",
        description="Write the exact-copy and near-duplicate keys of every stored article "
        "again, from the content hashes and simhashes in the store, and build every sealed "
        "level's filter afresh; stored articles keep their near-duplicate marks. For a store "
        "written with near-duplicate detection off (its articles are not found as twins "
        "until then) or with keys lost. Stop every crawl, re-extraction and spool import "
        "writing to the store first; on PostgreSQL the key table is locked while it runs.",
    )
    add_db_argument(rebuild)
    add_near_duplicate_argument(rebuild)
    rebuild.set_defaults(func=run_rebuild_keys)


def run_upgrade(args: argparse.Namespace) -> int:
    """Open the store (which upgrades it) and print what that did."""
    url = database_url(args.db)
    try:
        with open_store(url, create=False) as store:
            change = store.schema_change
    except StoreError as error:
        return store_failed("db upgrade", error)
    done = change.describe() or f"the store is up to date (schema {change.revision})"
    print(f"{shown_url(url)}: {done}", file=sys.stderr)
    return 0


def run_rebuild_keys(args: argparse.Namespace) -> int:
    """Rebuild the duplicate keys of the store at ``--db``; print what was written."""
    url = database_url(args.db)
    bits = near_duplicate_bits(args)
    try:
        with open_store(url, create=False, near_duplicate_bits=bits) as store:
            done = store.rebuild_keys()
    except StoreError as error:
        return store_failed("db rebuild-keys", error)
    print(
        f"{shown_url(url)}: keys rebuilt for {done.articles:,} articles: {done.keys:,} keys, "
        f"{done.sealed_levels} sealed levels (near-duplicate bits {bits})",
        file=sys.stderr,
    )
    return 0
