"""``newscrawl export``: stream a corpus out of the article store to JSONL, CSV or Parquet.

Rows are read with a server-side cursor (``yield_per``) and written as they arrive, so
memory stays flat whatever the store's size; a progress bar shows on a terminal.

Failures are one line on stderr: a store that cannot be opened (a mistyped SQLite path, a
server that does not answer) or a missing pyarrow exit 2 before the output file is created;
a store failing midway exits 1 and removes the partial output.
"""

from __future__ import annotations

import argparse
import re
import sys
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from tqdm import tqdm

from newscrawl.commands import UsageError, fail, is_terminal
from newscrawl.items import confidence_threshold
from newscrawl.store import StoreError, StoreUnavailable, database_url, open_store
from newscrawl.store.export import FORMATS, WRITERS, MissingDependency, check_format


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``export`` parser and its handler."""
    parser = subparsers.add_parser(
        "export",
        help="export stored articles to JSONL, CSV or Parquet",
        description="Stream articles from the store (in constant memory) to a file.",
    )
    add_db_argument(parser)
    parser.add_argument("--format", choices=FORMATS, default="jsonl", help="output format")
    parser.add_argument("--site", help="only this site")
    parser.add_argument(
        "--since",
        type=parse_time,
        metavar="TIME",
        help="only articles new or changed at or after TIME (ISO 8601; UTC unless given)",
    )
    parser.add_argument(
        "--min-confidence",
        type=parse_confidence,
        metavar="X",
        help="only articles whose extraction confidence is X (0 to 1) or more; "
        "those with none are left out",
    )
    parser.add_argument(
        "--lang",
        type=parse_language,
        metavar="TAG",
        help="only articles in this language or a variant of it (BCP 47, any case: zh also "
        "selects zh-CN); the extractor records the primary tag (zh, en), so give that",
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="output file ('-': stdout)"
    )
    parser.set_defaults(func=run)


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--db URL`` option shared by the store commands."""
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: $NEWSCRAWL_DB_URL, else sqlite:///data/newscrawl.db)",
    )


def store_failed(command: str, error: StoreError) -> int:
    """Report a store error as one line: status 2 when the store could not be opened (the
    URL must change or its server be started first), 1 when it failed after opening."""
    return fail(command, error, 2 if isinstance(error, StoreUnavailable) else 1)


def parse_time(value: str) -> datetime:
    """An ISO 8601 date or time; a naive one is taken as UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 date or time: {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_confidence(value: str) -> float:
    """A minimum confidence, from 0 to 1."""
    try:
        return confidence_threshold(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*+")


def parse_language(value: str) -> str:
    """A BCP 47 tag, checked so a misspelt one (``zh_CN``) is an error, not an empty export."""
    if not _LANGUAGE_TAG.fullmatch(value):
        raise argparse.ArgumentTypeError(
            f"not a BCP 47 language tag such as zh or zh-CN: {value!r}"
        )
    return value


def run(args: argparse.Namespace) -> int:
    """Write the selected articles; print how many to stderr."""
    if args.output == "-" and args.format == "parquet":
        raise UsageError("parquet needs a file: give -o FILE")
    try:
        check_format(args.format)
    except MissingDependency as error:
        return fail("export", error)
    output = None if args.output == "-" else Path(args.output)
    try:
        count = _export(args, output)
    except StoreError as error:
        return store_failed("export", error)
    except OutputError as error:
        return fail("export", error)
    print(f"exported {count} articles to {args.output}", file=sys.stderr)
    return 0


class OutputError(Exception):
    """The output file cannot be created (no such directory, no permission)."""


def _export(args: argparse.Namespace, output: Path | None) -> int:
    """Stream the selection to `output` (None: stdout). The store is opened first, so a
    store that cannot be opened leaves no file; one that fails midway leaves none either."""
    created = False
    try:
        with ExitStack() as stack:
            store = stack.enter_context(open_store(database_url(args.db), create=False))
            # One selection for both calls, so the progress bar's total is the rows' count.
            selection: dict[str, Any] = {
                "site": args.site,
                "since": args.since,
                "min_confidence": args.min_confidence,
                "language": args.lang,
            }
            total = store.count_articles(**selection)
            rows = store.iter_articles(**selection)
            bar = stack.enter_context(
                tqdm(rows, total=total, unit="article", disable=not is_terminal(sys.stderr))
            )
            out: IO[bytes] = sys.stdout.buffer
            if output is not None:
                existed = output.exists()
                try:
                    out = stack.enter_context(output.open("wb"))
                except OSError as error:
                    problem = error.strerror or str(error)
                    raise OutputError(f"cannot write {output}: {problem}") from None
                created = not existed
            return WRITERS[args.format](bar, out)
    except StoreError:
        if created and output is not None:
            output.unlink(missing_ok=True)
        raise
