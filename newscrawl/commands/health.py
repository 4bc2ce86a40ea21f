"""``newscrawl health``: per site, how its scheduled crawls have been going.

From the scheduler's run history (`newscrawl.schedule.history`) and, where it exists, the
article store: the last run's outcome and why, the last ok run, articles per run over the
last runs (a sparkline; ``--plot`` draws them to a PNG), what the last run dropped, and the
stored articles' mean confidence and body length. Exits with the status of the worst last
outcome (`verdict.EXIT_STATUS`: 1 failed, 3 degraded), so cron can alert on it: a changed
layout shows up after one run instead of weeks.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from newscrawl.commands import UsageError, write_utf8
from newscrawl.commands.export import store_failed
from newscrawl.commands.schedule import add_state_dir_argument
from newscrawl.schedule import StateDir, read_runs
from newscrawl.schedule.history import RunRecord
from newscrawl.schedule.verdict import EXIT_STATUS, worst
from newscrawl.store import SiteSummary, StoreError, database_url, open_store

SPARK = "▁▂▃▄▅▆▇█"
DEFAULT_RUNS = 10


@dataclass(frozen=True, slots=True)
class SiteHealth:
    """One site's recent runs (oldest first) and its stored articles' summary."""

    site: str
    runs: tuple[RunRecord, ...]
    stored: SiteSummary | None

    @property
    def last(self) -> RunRecord:
        return self.runs[-1]

    @property
    def last_ok(self) -> RunRecord | None:
        return next((run for run in reversed(self.runs) if run.outcome == "ok"), None)

    @property
    def nothing_new(self) -> bool:
        """The last run found nothing new to fetch (its 0 articles are no drop in yield)."""
        return bool((self.last.summary or {}).get("nothing_new"))

    @property
    def yields(self) -> list[int]:
        """Articles per run (0 for a run without a summary: it died or could not start)."""
        return [int(run.summary["articles"]) if run.summary else 0 for run in self.runs]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``health`` parser and its handler."""
    parser = subparsers.add_parser(
        "health",
        help="per site: last outcome, articles per run, drops; non-zero exit when one failed",
        description="How each site's scheduled crawls have been going, from the scheduler's "
        "run history and the article store. Exit status: 0 when every site's last run was "
        "ok, 1 when one failed, 3 when one was degraded.",
    )
    add_state_dir_argument(parser)
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the article store for confidence and body length (default: NEWSCRAWL_DB_URL "
        "or sqlite:///data/newscrawl.db, when it exists)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=DEFAULT_RUNS,
        metavar="N",
        help=f"how many recent runs per site to show (default: {DEFAULT_RUNS})",
    )
    parser.add_argument("--site", action="append", help="only this site (repeatable)")
    parser.add_argument("--plot", type=Path, metavar="PNG", help="draw articles per run to PNG")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the health table; the exit status of the worst last outcome."""
    if args.runs < 1:
        raise UsageError(f"--runs must be at least 1, got {args.runs}")
    history = StateDir(args.state_dir).history
    if not history.exists():
        raise UsageError(f"no run history at {history} (newscrawl schedule writes it)")
    stored = _stored(args.db)
    if stored is None and args.db:
        return 2  # the store's error is printed
    sites = site_health(read_runs(history), stored or {}, args.runs, args.site)
    if not sites:
        raise UsageError(f"no runs of {', '.join(args.site)} in {history}")
    if args.plot:
        plot(sites, args.plot)
    write_utf8(render(sites))
    return EXIT_STATUS[worst([health.last.outcome for health in sites])]


def _stored(url: str | None) -> dict[str, SiteSummary] | None:
    """The store's per-site summaries; None when it cannot be read (an explicit ``--db``
    says why on stderr; the default store may just not exist yet)."""
    try:
        with open_store(database_url(url), create=False) as store:
            return {summary.site: summary for summary in store.site_summaries()}
    except StoreError as error:
        if url:
            store_failed("health", error)
        return None


def site_health(
    runs: Sequence[RunRecord],
    stored: Mapping[str, SiteSummary],
    last: int,
    only: Sequence[str] | None = None,
) -> list[SiteHealth]:
    """The `last` crawl runs of each site (scrapyd submissions have no outcome to judge)."""
    by_site: dict[str, list[RunRecord]] = {}
    for record in sorted(runs, key=lambda record: record.started):
        if record.outcome not in ("submitted", "rejected"):
            by_site.setdefault(record.site, []).append(record)
    return [
        SiteHealth(site, tuple(records[-last:]), stored.get(site))
        for site, records in sorted(by_site.items())
        if not only or site in only
    ]


def sparkline(values: Sequence[int]) -> str:
    """One block character per value, scaled to the largest."""
    top = max(values, default=0)
    if top == 0:
        return SPARK[0] * len(values)
    return "".join(SPARK[round(value / top * (len(SPARK) - 1))] for value in values)


def render(sites: Sequence[SiteHealth]) -> str:
    """The health table, then the reasons of every site whose last run was not ok."""
    header = (
        "site",
        "last run",
        "outcome",
        "last ok",
        "articles/run",
        "dropped (last)",
        "conf",
        "chars",
    )
    rows = [header]
    for health in sites:
        last_ok = health.last_ok
        summary = health.last.summary or {}
        dropped = summary.get("dropped") or {}
        stored = health.stored
        rows.append(
            (
                health.site,
                health.last.ended[:16].replace("T", " "),
                health.last.outcome,
                last_ok.ended[:16].replace("T", " ") if last_ok else "never",
                f"{sparkline(health.yields)} {health.yields[-1]}"
                + (" (nothing new)" if health.nothing_new else ""),
                ", ".join(f"{n} {reason}" for reason, n in dropped.items()) or "-",
                _number(stored.mean_confidence if stored else None, "{:.2f}"),
                _number(stored.mean_body_chars if stored else None, "{:.0f}"),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    for health in sites:
        for reason in health.last.reasons:
            lines.append(f"{health.site}: {health.last.outcome}: {reason}")
    return "\n".join(lines) + "\n"


def _number(value: float | None, form: str) -> str:
    return "-" if value is None else form.format(value)


def plot(sites: Sequence[SiteHealth], path: Path) -> None:
    """Articles per run, one line per site, to a PNG at `path`."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError(
            "--plot needs matplotlib: pip install matplotlib "
            "(from a clone: pip install -e '.[bench]')"
        ) from None
    figure, axes = plt.subplots(figsize=(8, 4))
    for health in sites:
        axes.plot(range(1, len(health.yields) + 1), health.yields, marker="o", label=health.site)
    axes.set_xlabel("run (oldest first)")
    axes.set_ylabel("articles")
    axes.set_title("articles per crawl run")
    axes.legend()
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
