"""Keep what a benchmark prints, with its command, machine, date and commit, for BENCHMARKS.md.

A benchmark runs its work inside ``with recorded(name, title):``. What it prints to stdout
still reaches the terminal and is also kept; when the block ends without an exception,
``bench/figures/<name>.json`` holds the output with the command line, the machine, the date
and the commit the run started at. ``bench/report.py`` renders BENCHMARKS.md from those
files alone, so every figure there is the output of the last run of its benchmark, and a
table cannot outlive a re-run.

Progress and diagnostics go to stderr, which is not kept. A run that is not the canonical
one (fewer pages, other sizes) is still recorded: the section shows the command that made it.
"""

from __future__ import annotations

import io
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "bench" / "figures"


class _Tee(io.TextIOBase):
    """Writes to the terminal's stream and to a buffer."""

    def __init__(self, terminal: TextIO) -> None:
        self.terminal = terminal
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.terminal.write(text)
        self.kept.write(text)
        return len(text)

    def flush(self) -> None:
        self.terminal.flush()


def machine() -> dict[str, Any]:
    """The CPU model, cores this process may use, memory, Python and the load when it starts."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    memory = (
        os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") if hasattr(os, "sysconf") else 0
    )
    return {
        "cpu": model or "unknown CPU",
        "cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "memory_gib": round(memory / 2**30),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "load_average": [round(load, 2) for load in os.getloadavg()],
    }


def commit() -> str:
    """The checkout's short commit, with ``+changes`` when tracked files under newscrawl/ or
    bench/ (the figures aside) differ from it: the figures then come from code that no
    commit holds."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git(
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        "newscrawl",
        "bench",
        ":(exclude)bench/figures",
    )
    return f"{head}+changes" if changed else head


def command_line() -> str:
    """How this process was started, as a command to type from the project root."""
    script = Path(sys.argv[0]).resolve()
    try:
        shown = str(script.relative_to(ROOT))
    except ValueError:
        shown = sys.argv[0]
    return shlex.join(["python", shown, *sys.argv[1:]])


def _usage_only(status: object, output: str) -> bool:
    """Whether a run stopped at its arguments: argparse's help (status 0, the usage
    printed) or its usage error (status 2, nothing printed but to stderr). Such a run
    measured nothing, so its figures must not replace the last run's."""
    return (status in (0, None) and output.startswith("usage:")) or (status == 2 and not output)


@contextmanager
def recorded(name: str, title: str) -> Iterator[None]:
    """Tee stdout while the block runs; write ``bench/figures/<name>.json`` when it ends
    without an exception (a `SystemExit` counts as an end, with its status kept, unless
    the run stopped at its arguments: `_usage_only`)."""
    started = datetime.now(UTC)
    facts = {"machine": machine(), "commit": commit(), "command": command_line()}
    terminal = sys.stdout
    tee = _Tee(terminal)
    sys.stdout = tee

    def keep(status: object) -> None:
        sys.stdout = terminal
        if _usage_only(status, tee.kept.getvalue()):
            return
        write(
            name,
            {
                "name": name,
                "title": title,
                "started": started.isoformat(timespec="seconds"),
                "seconds": round((datetime.now(UTC) - started).total_seconds()),
                **facts,
                "exit_status": status if isinstance(status, int) else int(bool(status)),
                "output": tee.kept.getvalue(),
            },
        )

    try:
        yield
    except SystemExit as stop:
        keep(stop.code)
        raise
    except BaseException:
        sys.stdout = terminal
        raise
    keep(0)


def write(name: str, figures: dict[str, Any]) -> Path:
    """Store one benchmark's figures where `bench/report.py` reads them."""
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"figures kept in {path}", file=sys.stderr)
    return path
