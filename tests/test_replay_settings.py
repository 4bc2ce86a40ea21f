"""A ``NEWSCRAWL_REPLAY`` naming no archive stops ``scrapy crawl`` before anything is
created: one line, exit status 2, no store, no feed, no data directory (a real crawl in a
subprocess, in an empty working directory, with the default ``data/…`` store and feed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_sites_config import MINIMAL, run_scrapy, write_site


@pytest.mark.parametrize(
    ("replay", "message"),
    [
        ("data/sina.warc.gz", "no such archive: data/sina.warc.gz"),
        ("empty", "no WARC files (*.warc, *.warc.gz) in empty"),
        ("data/a.warc,empty", "no such archive: data/a.warc"),
    ],
)
def test_a_missing_replay_archive_is_one_line_exit_2_and_creates_nothing(
    tmp_path: Path, replay: str, message: str
) -> None:
    workdir = tmp_path / "work"
    (workdir / "empty").mkdir(parents=True)
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
    assert [path.name for path in workdir.iterdir()] == ["empty"]
