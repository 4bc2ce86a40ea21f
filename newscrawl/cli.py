"""The ``newscrawl`` command: a thin argparse dispatcher over `newscrawl.commands`.

Each subcommand lives in its own module; adding one (eval, export, reextract, schedule …)
means writing the module and adding its name to `COMMANDS`. Run as ``newscrawl …``
(console script) or ``python -m newscrawl.cli …``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from newscrawl.commands import UsageError, fail
from newscrawl.identity import release

COMMANDS = (
    "extract",
    "reextract",
    "eval",
    "export",
    "stats",
    "import_spool",
    "db",
    "schedule",
    "health",
)
"""The modules of `newscrawl.commands`, in the order `--help` lists them; each registers the
command of its name, "_" written "-". Only the module of the command a command line names is
imported (the others bring Scrapy and SQLAlchemy, over a second to import: a one-page
``newscrawl extract`` would wait for them); all of them for ``--help`` or a name none has."""

SIGPIPE_STATUS = 128 + 13
"""What a shell reports for a process killed by SIGPIPE (e.g. ``newscrawl extract dir | head``)."""


def command_modules(argv: Sequence[str] = ()) -> list[ModuleType]:
    """The modules to register for `argv`: the one of the command its first word names,
    else (an option first, such as ``--help``, or no command's name) all of them."""
    named = argv[0] if argv else None
    names = [name for name in COMMANDS if name.replace("_", "-") == named] or COMMANDS
    return [importlib.import_module(f"newscrawl.commands.{name}") for name in names]


def build_parser(commands: Sequence[ModuleType] | None = None) -> argparse.ArgumentParser:
    """The top-level parser with one subparser per command module (default: all)."""
    parser = argparse.ArgumentParser(
        prog="newscrawl",
        description="Crawl Chinese news sites and extract article text. "
        "Crawling itself runs through Scrapy (`scrapy crawl <site>`); these commands "
        "work on pages and results.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {release() or 'unknown'}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in command_modules() if commands is None else commands:
        command.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse `argv` (default: ``sys.argv[1:]``), run the command, return its exit status.

    Returns instead of exiting so tests and other Python code can call it in-process;
    usage errors give 2, as argparse's own do.
    """
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(command_modules(words))
    try:
        args = parser.parse_args(words)
    except SystemExit as stop:  # --help, --version and usage errors
        return _status(stop.code)
    try:
        return int(args.func(args))
    except UsageError as error:
        print(f"newscrawl {args.command}: error: {error}", file=sys.stderr)
        print(f"(see: newscrawl {args.command} --help)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _detach_stdout()
        return SIGPIPE_STATUS
    except Exception as error:
        if _is_setting_error(error):  # a project setting: its fix is there, not in --help
            return fail(args.command, error)
        raise


def _is_setting_error(error: Exception) -> bool:
    """Whether `error` is a `newscrawl.settings_check.SettingValueError`. Only a command that
    read the project's settings raises one, having imported that module (with Scrapy) to
    do so: the command line does not import it for every command."""
    settings_check = sys.modules.get("newscrawl.settings_check")
    return settings_check is not None and isinstance(error, settings_check.SettingValueError)


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
