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

from newscrawl.store.base import EXPORT_FIELDS

FORMATS = ("jsonl", "csv", "parquet")
PARQUET_ROW_GROUP = 10_000
_TIME_FIELDS = frozenset({"published_at", "first_seen", "last_fetched", "last_changed"})
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
    """One JSON object per line, UTF-8 (Chinese as is), times in ISO 8601."""
    count = 0
    for row in rows:
        line = json.dumps({k: _text_value(row[k]) for k in EXPORT_FIELDS}, ensure_ascii=False)
        out.write(line.encode() + b"\n")
        count += 1
    return count


def write_csv(rows: Iterable[Mapping[str, Any]], out: IO[bytes]) -> int:
    """RFC 4180 CSV with a header row, UTF-8; bodies keep their newlines inside quotes."""
    text = _TextOut(out)
    writer = csv.writer(text)
    writer.writerow(EXPORT_FIELDS)
    count = 0
    for row in rows:
        writer.writerow(["" if row[k] is None else _text_value(row[k]) for k in EXPORT_FIELDS])
        count += 1
    return count


def write_parquet(rows: Iterable[Mapping[str, Any]], out: IO[bytes]) -> int:
    """Parquet in row groups of `PARQUET_ROW_GROUP`; times as UTC timestamps, the
    confidence as a double, the rest as strings."""
    pa, pq = _pyarrow()
    types = dict.fromkeys(_TIME_FIELDS, pa.timestamp("us", tz="UTC")) | {"confidence": pa.float64()}
    schema = pa.schema([(name, types.get(name, pa.string())) for name in EXPORT_FIELDS])
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
