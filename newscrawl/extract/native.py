"""The optional C extensions, each None where it did not build (setup.py marks them
optional; the Python code then runs). One place imports them, so that every module that
takes a C path agrees on what is there."""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def _optional(name: str) -> Any:
    """The extension `name`, or None with a visible warning: a user without a C compiler
    should know that extraction runs its slower Python reference."""
    try:
        return importlib.import_module(f"newscrawl.extract.{name}")
    except ImportError as error:  # built without a C compiler
        warnings.warn(
            f"newscrawl: the C extension {name} is not built ({error}); the pure-Python "
            "fallback runs, several times slower. Install a C compiler and reinstall "
            "(pip install -e .) to build it.",
            RuntimeWarning,
            stacklevel=2,
        )
        return None


blockscan = _optional("_blockscan")
"""The line scan (`blocks`)."""
textscan = _optional("_textscan")
"""The text scans of the metadata and the head (`metadata.lines`, `metadata.page_facts`,
`head`)."""
