"""A local JSONL file for records the database could not take, so none is lost silently.

When the store fails mid-crawl the pending batch, and every article still in flight, is
appended here; the path is logged, and ``newscrawl import-spool FILE`` loads the records
once the database is back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from newscrawl.store.records import ArticleRecord


class Spool:
    """Appends records as JSON lines to one file, created on first use."""

    def __init__(self, directory: Path, name: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        self.path = directory / f"{name}-{stamp}-{os.getpid()}.jsonl"
        self.count = 0
        """Records written to the file so far, by every `append`."""

    def append(self, records: Iterable[ArticleRecord]) -> int:
        """Write the records (flushed and fsynced before returning); how many were written.

        Raises `OSError` when the file cannot be written (a full disk, no permission)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        count = 0
        with self.path.open("a", encoding="utf-8") as out:
            for record in records:
                out.write(json.dumps(record.to_json(), ensure_ascii=False) + "\n")
                count += 1
            out.flush()
            os.fsync(out.fileno())
        self.count += count
        return count


def read_spool(path: Path) -> Iterator[ArticleRecord]:
    """The records of a spool file, in the order they were spooled."""
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield ArticleRecord.from_json(json.loads(line))
