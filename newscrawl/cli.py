"""The ``newscrawl`` command: a thin argparse dispatcher over `newscrawl.commands`.

Each subcommand lives in its own module; adding one (eval, export, reextract, schedule …)
means writing the module and adding it to `COMMANDS`. Run as ``newscrawl …`` (console
script) or ``python -m newscrawl.cli …``.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from newscrawl.commands import UsageError, fail
from newscrawl.commands import db as db_command
from newscrawl.commands import eval as eval_command
from newscrawl.commands import export as export_command
from newscrawl.commands import extract as extract_command
from newscrawl.commands import health as health_command
from newscrawl.commands import import_spool as import_spool_command
from newscrawl.commands import reextract as reextract_command
from newscrawl.commands import schedule as schedule_command
from newscrawl.commands import stats as stats_command
from newscrawl.identity import release
from newscrawl.settings_check import SettingValueError

COMMANDS: tuple[ModuleType, ...] = (
    extract_command,
    reextract_command,
    eval_command,
    export_command,
    stats_command,
    import_spool_command,
    db_command,
    schedule_command,
    health_command,
)
"""Command modules, in the order `--help` lists them."""

SIGPIPE_STATUS = 128 + 13
"""What a shell reports for a process killed by SIGPIPE (e.g. ``newscrawl extract dir | head``)."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one subparser per command module."""
    parser = argparse.ArgumentParser(
        prog="newscrawl",
        description="Crawl Chinese news sites and extract article text. "
        "Crawling itself runs through Scrapy (`scrapy crawl <site>`); these commands "
        "work on pages and results.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {release() or 'unknown'}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: ``sys.argv[1:]``), run the command, return its exit status.

    Returns instead of exiting so tests and other Python code can call it in-process;
    usage errors give 2, as argparse's own do.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version and usage errors
        return _status(stop.code)
    try:
        return int(args.func(args))
    except UsageError as error:
        print(f"newscrawl {args.command}: error: {error}", file=sys.stderr)
        print(f"(see: newscrawl {args.command} --help)", file=sys.stderr)
        return 2
    except SettingValueError as error:  # a project setting: its fix is there, not in --help
        return fail(args.command, error)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _detach_stdout()
        return SIGPIPE_STATUS


def _status(code: object) -> int:
    """The exit status a ``SystemExit`` code stands for."""
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _detach_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
