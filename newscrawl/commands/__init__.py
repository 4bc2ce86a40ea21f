"""The subcommands of ``newscrawl``, one module each, and the few helpers they share.

Every command module exposes ``register(subparsers) -> None``: it adds its own parser and
sets ``func(args) -> int`` as the handler. `newscrawl.cli` only lists the modules, so a new
command never touches the dispatcher beyond one tuple entry.
"""

from __future__ import annotations

import sys
from typing import TextIO


class UsageError(Exception):
    """A bad argument combination argparse cannot check; the CLI reports it with status 2."""


def fail(command: str, message: object, status: int = 2) -> int:
    """Print ``newscrawl <command>: error: <message>`` (one line) on stderr; return `status`.

    For errors whose fix is not in ``--help`` (a database that does not answer, a missing
    dependency), so the CLI's "see --help" line that follows a `UsageError` would mislead.
    """
    print(f"newscrawl {command}: error: {message}", file=sys.stderr)
    return status


def write_utf8(text: str, stream: TextIO | None = None) -> None:
    """Write `text` as UTF-8 bytes, whatever the locale says.

    Under a C or ASCII locale ``print`` would fail on Chinese or tempt callers into
    ``ensure_ascii`` output full of ``\\uXXXX``; going through the byte buffer avoids both.
    The stream is looked up at call time so redirections (and pytest's capture) apply.
    """
    target = sys.stdout if stream is None else stream
    buffer = getattr(target, "buffer", None)
    if buffer is None:  # a text-only stream such as io.StringIO
        target.write(text)
        target.flush()
        return
    target.flush()  # keep ordering with anything already written through the text layer
    buffer.write(text.encode("utf-8", "replace"))
    buffer.flush()


def is_terminal(stream: TextIO | None) -> bool:
    """Whether `stream` is an interactive terminal (False for pipes, files, closed streams)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False
