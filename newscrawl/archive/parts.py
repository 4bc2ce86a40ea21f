"""How a recorded archive is split into parts, and the order its files are read in.

A crawl with ``NEWSCRAWL_ARCHIVE=data/sina.warc.gz`` writes ``data/sina-00000.warc.gz``,
``data/sina-00001.warc.gz``, … (`newscrawl.archive.writer.RotatingArchiveWriter`): a new
part when the current one reaches ``NEWSCRAWL_ARCHIVE_MAX_BYTES``, and a new part for every
crawl, so a crawl that resumes after a crash never writes after a record the crash cut
short. The numbers are zero-padded,
so plain name order is write order (up to 99999; past that the readers still order parts
by number). Readers take the same name (`archive_files`): it stands for the file of that
name, if one exists (an archive recorded before parts were), followed by its parts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

WARC_SUFFIXES = (".warc", ".warc.gz")
PART_DIGITS = 5
_PART = re.compile(rf"(?P<stem>.+)-(?P<number>\d{{{PART_DIGITS},}})(?P<suffix>\.warc(?:\.gz)?)")


def split_warc_name(name: str) -> tuple[str, str] | None:
    """(stem, suffix) of a WARC file name (``x.warc.gz`` -> ``x``, ``.warc.gz``), or None
    when the name has no WARC suffix."""
    for suffix in sorted(WARC_SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)], suffix
    return None


def part_path(archive: Path, number: int) -> Path:
    """The path of part `number` of `archive` (a name ending in .warc or .warc.gz)."""
    split = split_warc_name(archive.name)
    if split is None:
        raise ValueError(f"{archive}: not a WARC file name (*.warc, *.warc.gz)")
    stem, suffix = split
    return archive.with_name(f"{stem}-{number:0{PART_DIGITS}d}{suffix}")


def existing_parts(archive: Path) -> list[tuple[int, Path]]:
    """(number, path) of the parts of `archive` that exist, in write order."""
    split = split_warc_name(archive.name)
    if split is None or not archive.parent.is_dir():
        return []
    parts = []
    for path in archive.parent.iterdir():
        match = _PART.fullmatch(path.name)
        if match and (match["stem"], match["suffix"]) == split and path.is_file():
            parts.append((int(match["number"]), path))
    return sorted(parts)


def read_order(path: Path) -> tuple[str, int]:
    """Sort key putting a directory's WARC files in write order: by archive name, a file
    recorded before parts existed first, then its parts by number."""
    match = _PART.fullmatch(path.name)
    if match is None:
        return path.name, -1
    return match["stem"] + match["suffix"], int(match["number"])


def archive_files(paths: Iterable[str | Path]) -> list[Path]:
    """The WARC files `paths` name, each in write order: a directory's WARC files (those
    directly inside it), else the file of that name if it exists followed by its parts.
    A path that names neither is kept as given, for the caller to report as missing."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            inside = (p for p in path.iterdir() if p.is_file() and p.name.endswith(WARC_SUFFIXES))
            files.extend(sorted(inside, key=read_order))
            continue
        parts = [part for _, part in existing_parts(path)]
        files.extend([path, *parts] if path.exists() or not parts else parts)
    return files


def existing_archive_files(sources: Iterable[str | Path]) -> list[Path]:
    """`archive_files` of `sources`, which must name at least one WARC file; a ValueError
    (one line) naming what does not exist, or saying no WARC file was found."""
    names = [str(source) for source in sources]
    files = archive_files(names)
    if missing := [str(path) for path in files if not path.exists()]:
        raise ValueError(f"no such archive: {', '.join(missing)}")
    if not files:
        raise ValueError(f"no WARC files (*.warc, *.warc.gz) in {', '.join(names)}")
    return files
