"""The optional C extension of `newscrawl.extract`, ``_blockscan``: the line scan's
per-tag loop (`blocks`), the head's tag search (`head`), the metadata's passes over its
lines (`metadata.lines`), scripts (`metadata.scripts`) and first text
(`metadata.page_facts`), the byline elements' lines (`metadata.bylines`), the search of
many texts for a few words (`needles`), and the default selection's passes over every
line or element (`default`), or None where it did not build (setup.py marks it optional, so an
install without a C compiler succeeds and the pure-Python code runs). One place imports
it, so that every module that takes a C path agrees on what is there.

Running without it is said once, by a warning: a user without a compiler should know that
extraction runs its slower Python reference (measured in the README's set-up section:
about 4.7 times the work per page), and how to get the compiled one.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def warn_fallback(reason: str) -> None:
    """The one warning that extraction runs without the C loop, and why."""
    warnings.warn(
        f"newscrawl: {reason}; extraction runs its pure-Python code, about 4.7 times "
        "slower. Install a C compiler and reinstall (pip install -e .), or install a "
        "prebuilt wheel, to get the compiled one.",
        RuntimeWarning,
        stacklevel=3,
    )


def _optional(name: str) -> Any:
    """The extension `name`, or None after `warn_fallback`."""
    try:
        return importlib.import_module(f"newscrawl.extract.{name}")
    except ImportError as error:  # built without a C compiler
        warn_fallback(f"the C extension {name} is not built ({error})")
        return None


blockscan = _optional("_blockscan")
"""The extension; `blocks` configures it and checks it against its Python loop at import
(`blocks._choose_scan`)."""


def refuse(reason: str) -> None:
    """Stop using the extension (it reads `blocks`' probe page otherwise: built from
    another version of the C), after `warn_fallback`: every module takes its Python path,
    as they read `blockscan` on each use."""
    global blockscan
    warn_fallback(reason)
    blockscan = None
