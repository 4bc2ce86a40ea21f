"""One run of a job at a time, across scheduler processes, cron and systemd timers.

An exclusive ``flock`` on ``locks/<job>.lock``: the kernel drops it when the last process
holding the file is gone, so a crashed or killed scheduler never leaves a stale lock (a PID
file would need a liveness check and could name a recycled PID). The runner hands the lock's
descriptor to its crawls, so a crawl that outlives a killed scheduler still holds the lock.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def job_lock(path: Path) -> Iterator[int | None]:
    """Hold the lock at `path` for the block: yields its descriptor, or None when taken."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield None
            return
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # for people looking; the flock decides
        yield fd
    finally:
        os.close(fd)
