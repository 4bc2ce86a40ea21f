"""``newscrawl stats``: what the store holds, per site and per day.

Two tables: per site the article count, the share with an empty body (extraction
failures worth a look) and the last fetch; then articles per site and day first seen (UTC).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from newscrawl.commands import write_utf8
from newscrawl.commands.export import add_db_argument, store_failed
from newscrawl.store import DayCount, SiteSummary, StoreError, database_url, open_store


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``stats`` parser and its handler."""
    parser = subparsers.add_parser(
        "stats",
        help="articles per site and day, empty-body share, last crawl",
        description="Summarise the article store.",
    )
    add_db_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the two tables (a store that does not exist is an error, not an empty one)."""
    try:
        with open_store(database_url(args.db), create=False) as store:
            summaries = store.site_summaries()
            days = store.daily_counts()
    except StoreError as error:
        return store_failed("stats", error)
    write_utf8(render(summaries, days))
    return 0


def render(summaries: Sequence[SiteSummary], days: Sequence[DayCount]) -> str:
    """The stats report as plain aligned text."""
    if not summaries:
        return "the store holds no articles\n"
    site_rows = [
        (
            s.site,
            str(s.articles),
            f"{100 * s.empty_body / s.articles:.1f}%",
            s.last_fetched.strftime("%Y-%m-%d %H:%M:%S UTC") if s.last_fetched else "-",
        )
        for s in summaries
    ]
    total = sum(s.articles for s in summaries)
    empty = sum(s.empty_body for s in summaries)
    last = max((s.last_fetched for s in summaries if s.last_fetched), default=None)
    site_rows.append(
        (
            "(all)",
            str(total),
            f"{100 * empty / total:.1f}%",
            last.strftime("%Y-%m-%d %H:%M:%S UTC") if last else "-",
        )
    )
    day_rows = [(d.site, d.day.isoformat(), str(d.articles), str(d.empty_body)) for d in days]
    return (
        _table(("site", "articles", "empty body", "last fetched"), site_rows)
        + "\n"
        + _table(("site", "day (UTC)", "articles", "empty body"), day_rows)
    )


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in (header, *rows)
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"
