"""The optional C extensions, each None where it did not build (setup.py marks them
optional; the Python code then runs). One place imports them, so that every module that
takes a C path agrees on what is there."""

from __future__ import annotations

import importlib
from typing import Any


def _optional(name: str) -> Any:
    try:
        return importlib.import_module(f"newscrawl.extract.{name}")
    except ImportError:  # built without a C compiler
        return None


blockscan = _optional("_blockscan")
"""The line scan (`blocks`)."""
textscan = _optional("_textscan")
"""The text scans of the metadata and the head (`metadata.lines`, `metadata.page_meta`,
`head`)."""
