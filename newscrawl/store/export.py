"""Corpus writers for `newscrawl export`: JSONL, CSV and Parquet, fed one row at a time.

Each writer holds at most one Parquet row group in memory, so exporting a store of any size
runs in flat memory. Parquet needs pyarrow (the ``parquet`` extra); `check_format` says so
before the caller creates an output file.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from types import ModuleType
from typing import IO, Any

from newscrawl.article import EXPORT_FIELDS, Kind

FORMATS = ("jsonl", "csv", "parquet")
PARQUET_ROW_GROUP = 10_000
_NAMES = tuple(f.name for f in EXPORT_FIELDS)
PARQUET_INSTALL = "pip install pyarrow (from a clone: pip install -e '.[parquet]')"


class MissingDependency(RuntimeError):
    """An export format whose writer needs a package that is not installed."""


def check_format(fmt: str) -> None:
    """Raise `MissingDependency` when `fmt`'s writer cannot run here (Parquet without
    pyarrow), so a command fails before it creates an empty output file."""
    if fmt == "parquet":
        _pyarrow()


def _pyarrow() -> tuple[ModuleType, ModuleType]:
    """pyarrow and pyarrow.parquet, or `MissingDependency` saying how to install them."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise MissingDependency(f"Parquet export needs pyarrow: {PARQUET_INSTALL}") from None
    return pyarrow, pyarrow.parquet


def _text_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def write_jsonl(rows: Iterable[Mapping[str, Any]], out: IO[bytes]) -> int:
    """One JSON object per line, UTF-8 (Chinese as is), times in ISO 8601, tags a list."""
    count = 0
    for row in rows:
        line = json.dumps({k: _text_value(row[k]) for k in _NAMES}, ensure_ascii=False)
        out.write(line.encode() + b"\n")
        count += 1
    return count


def _csv_value(value: Any) -> Any:
    """A cell: empty for None, times in ISO 8601, a list (tags) as its JSON array."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return json.dumps(list(value), ensure_ascii=False)
    return _text_value(value)


def write_csv(rows: Iterable[Mapping[str, Any]], out: IO[bytes]) -> int:
    """RFC 4180 CSV with a header row, UTF-8; bodies keep their newlines inside quotes."""
    text = _TextOut(out)
    writer = csv.writer(text)
    writer.writerow(_NAMES)
    count = 0
    for row in rows:
        writer.writerow([_csv_value(row[k]) for k in _NAMES])
        count += 1
    return count


def parquet_schema() -> Any:
    """The Parquet schema of an export: each field's type from its kind (times as UTC
    timestamps, tags as a list of strings), so pandas and `datasets` need no casts."""
    pa, _ = _pyarrow()
    types = {
        Kind.TEXT: pa.string(),
        Kind.INTEGER: pa.int64(),
        Kind.NUMBER: pa.float64(),
        Kind.TIME: pa.timestamp("us", tz="UTC"),
        Kind.TEXTS: pa.list_(pa.string()),
    }
    return pa.schema([(f.name, types[f.kind]) for f in EXPORT_FIELDS])


def write_parquet(rows: Iterable[Mapping[str, Any]], out: IO[bytes]) -> int:
    """Parquet in row groups of `PARQUET_ROW_GROUP`, typed by `parquet_schema`."""
    pa, pq = _pyarrow()
    schema = parquet_schema()
    count = 0
    group: list[Mapping[str, Any]] = []
    with pq.ParquetWriter(out, schema, compression="zstd") as writer:
        for row in rows:
            group.append(row)
            if len(group) >= PARQUET_ROW_GROUP:
                writer.write_table(pa.Table.from_pylist(group, schema=schema))
                count += len(group)
                group = []
        if group or count == 0:
            writer.write_table(pa.Table.from_pylist(group, schema=schema))
            count += len(group)
    return count


WRITERS: Mapping[str, Callable[[Iterable[Mapping[str, Any]], IO[bytes]], int]] = {
    "jsonl": write_jsonl,
    "csv": write_csv,
    "parquet": write_parquet,
}


class _TextOut:
    """The minimal text stream `csv.writer` needs, encoding to a binary output."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(text.encode())
        return len(text)
