"""A ``NEWSCRAWL_REPLAY`` naming no archive, or a file that is no WARC file, stops
``scrapy crawl`` before anything is created: one line, exit status 2, no store, no feed, no
data directory (a real crawl in a subprocess, in a working directory without one, with the
default ``data/…`` store and feed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_foreign_archives import WHOLE_FILE_GZIP, whole_file_gzip
from test_sites_config import MINIMAL, run_scrapy, write_site


@pytest.mark.parametrize(
    ("replay", "message"),
    [
        ("data/sina.warc.gz", "no such archive: data/sina.warc.gz"),
        ("empty", "no WARC files (*.warc, *.warc.gz) in empty"),
        ("data/a.warc,empty", "no such archive: data/a.warc"),
        ("page.warc", "page.warc: not a WARC file"),
        ("whole.warc.gz", f"whole.warc.gz: {WHOLE_FILE_GZIP}"),
    ],
)
def test_a_missing_or_unreadable_replay_archive_is_one_line_exit_2_and_creates_nothing(
    tmp_path: Path, replay: str, message: str
) -> None:
    workdir = tmp_path / "work"
    (workdir / "empty").mkdir(parents=True)
    (workdir / "page.warc").write_text("<html>a page</html>\n", encoding="utf-8")
    whole_file_gzip(workdir / "whole.warc.gz")
    before = sorted(path.name for path in workdir.iterdir())
    sites = tmp_path / "sites"
    write_site(sites, "mini", MINIMAL)
    result = run_scrapy(
        "crawl",
        "mini",
        "-s",
        f"NEWSCRAWL_REPLAY={replay}",
        "-s",
        "TELNETCONSOLE_ENABLED=False",
        sites_dir=str(sites),
        cwd=workdir,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    [error] = [line for line in result.stderr.splitlines() if "error:" in line or "ERROR" in line]
    assert error.endswith(f": error: NEWSCRAWL_REPLAY={replay!r}: {message}"), result.stderr
    assert sorted(path.name for path in workdir.iterdir()) == before
