"""A failed crawl says why in its last line, and each failure is one line: real
``scrapy crawl`` processes, with the terminal output a user sees (Scrapy's default
DEBUG level, so nothing is hidden by a quieter log level)."""

from __future__ import annotations

from pathlib import Path

from test_sites_config import run_scrapy, write_site

OFFLINE_SITE = """\
allowed_domains = ["news.invalid", "feed.invalid"]

[urls]
article = ['^http://news\\.invalid/a/\\d+\\.html$']

[[entry]]
kind = "html"
url = "http://news.invalid/china/"

[[entry]]
kind = "rss"
url = "http://feed.invalid/rss?page=1"

[[entry]]
kind = "rss"
url = "http://feed.invalid/rss?page=2"
"""
"""Three entry points on two hosts whose names never resolve (``.invalid``, RFC 2606): a
crawl of them is the README's first command on a machine without a network."""
ENTRY_URLS = [
    "http://news.invalid/china/",
    "http://feed.invalid/rss?page=1",
    "http://feed.invalid/rss?page=2",
]


def levelled(stderr: str, *levels: str) -> list[str]:
    """The log lines of `stderr` at one of `levels` (each from `] LEVEL: `)."""
    return [line for line in stderr.splitlines() if any(f"] {level}: " in line for level in levels)]


def test_an_offline_crawl_is_one_line_per_url_and_ends_with_its_reason(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    write_site(sites, "offline", OFFLINE_SITE)
    result = run_scrapy(
        "crawl",
        "offline",
        "-O",
        "out.jsonl",
        "-s",
        f"NEWSCRAWL_DB_URL=sqlite:///{tmp_path}/store.db",
        "-s",
        "RETRY_TIMES=2",
        "-s",
        "DOWNLOAD_DELAY=0",
        "-s",
        "AUTOTHROTTLE_ENABLED=False",
        "-s",
        "TELNETCONSOLE_ENABLED=False",
        sites_dir=str(sites),
        cwd=tmp_path,
    )
    stderr = result.stderr
    assert result.returncode == 1, stderr
    reason = "no response at all (3 CannotResolveHostError)"
    assert stderr.splitlines()[-1].endswith(f"ERROR: crawl failed: {reason}")
    assert stderr.index("Dumping Scrapy stats") < stderr.index("run summary: 0 pages fetched")

    *per_url, last = levelled(stderr, "ERROR", "CRITICAL")
    assert last.endswith(f"crawl failed: {reason}")
    assert sorted(line.split("ERROR: ", 1)[1].split(": ", 1)[0] for line in per_url) == sorted(
        ENTRY_URLS
    )  # each URL once: its robots.txt, retries and give-up are not lines of their own
    assert all(": DNS lookup failed" in line for line in per_url)
    # Each host's robots.txt used up the retries: its pages were then tried once each.
    assert all(line.endswith("(not retried: its host was unreachable)") for line in per_url)
    [warning] = levelled(stderr, "WARNING")  # Spidermon's report: one line per monitor
    assert warning.endswith(f"WARNING: monitor newscrawl crawl/did its job: FAIL: {reason}")
    for noise in ("Traceback", "AssertionError", "[Spidermon]", "deprecated", "====="):
        assert noise not in stderr, noise
