"""``newscrawl db upgrade``: bring a store's schema up to this release's, saying what changed.

Every open of a store (a crawl, an export) upgrades it too and logs the same line; this
command does it on purpose, before a crawl, e.g. after upgrading newscrawl on a shared
PostgreSQL that several workers use. It never creates a store: a mistyped ``--db`` fails.
"""

from __future__ import annotations

import argparse
import sys

from newscrawl.commands.export import add_db_argument, store_failed
from newscrawl.store import StoreError, database_url, open_store
from newscrawl.store.sql import shown_url


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``db`` parser, its ``upgrade`` subcommand and their handler."""
    parser = subparsers.add_parser(
        "db",
        help="manage the store's schema (upgrade it to this release's)",
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
