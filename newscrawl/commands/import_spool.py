"""``newscrawl import-spool``: load articles a crawl spooled while its database was down.

Writes go through the store's normal upsert, so importing a file twice, or one whose
articles were stored meanwhile, leaves each article once. The store must exist (the crawl
that spooled the articles made it): a mistyped ``--db`` must not start a new database.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from itertools import islice
from pathlib import Path

from newscrawl.commands import UsageError
from newscrawl.commands.export import add_db_argument, store_failed
from newscrawl.commands.near_duplicate_limit import add_near_duplicate_argument, near_duplicate_bits
from newscrawl.store import StoreError, database_url, each_record_outcome, open_store
from newscrawl.store.spool import read_spool

BATCH = 500


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``import-spool`` parser and its handler."""
    parser = subparsers.add_parser(
        "import-spool",
        help="load spooled articles (written when the database failed) into the store",
        description="Upsert the articles of spool files (data/spool/*.jsonl) into the store.",
    )
    add_db_argument(parser)
    add_near_duplicate_argument(parser)
    parser.add_argument("spools", nargs="+", type=Path, metavar="FILE", help="spool JSONL file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import every file; print the outcome counts."""
    missing = [str(path) for path in args.spools if not path.is_file()]
    if missing:
        raise UsageError(f"no such spool file: {', '.join(missing)}")
    bits = near_duplicate_bits(args)
    counts: Counter[str] = Counter()
    try:
        with open_store(database_url(args.db), create=False, near_duplicate_bits=bits) as store:
            for path in args.spools:
                records = read_spool(path)
                while batch := list(islice(records, BATCH)):
                    outcomes = each_record_outcome(batch, store.write(batch))
                    counts.update(str(outcome) for outcome in outcomes)
    except StoreError as error:
        return store_failed("import-spool", error)
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "nothing"
    print(f"imported: {summary}", file=sys.stderr)
    return 0
