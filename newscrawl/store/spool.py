"""A local JSONL file for records the database could not take, so none is lost silently.

When the store fails mid-crawl the pending batch, and every article still in flight, is
appended here; the path is logged so the rows can be loaded once the database is back.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from newscrawl.store.base import ArticleRecord


class Spool:
    """Appends records as JSON lines to one file, created on first use."""

    def __init__(self, directory: Path, name: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        self.path = directory / f"{name}-{stamp}-{os.getpid()}.jsonl"

    def append(self, records: Iterable[ArticleRecord]) -> int:
        """Write the records (flushed and fsynced before returning); how many were written."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        count = 0
        with self.path.open("a", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(_jsonable(record), ensure_ascii=False) + "\n")
                count += 1
            out.flush()
            os.fsync(out.fileno())
        return count


def _jsonable(record: ArticleRecord) -> dict[str, Any]:
    data = dataclasses.asdict(record)
    for key, value in data.items():
        if isinstance(value, datetime):
            data[key] = value.isoformat()
        elif isinstance(value, tuple):
            data[key] = list(value)
    return data
