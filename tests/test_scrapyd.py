"""The project deployed to a real scrapyd on 127.0.0.1, and a job submitted to it.

scrapyd-deploy builds the egg from a copy of the project (building writes build/ and
egg-info/ next to the sources); scrapyd runs with a temp config and directories on an
ephemeral port, from a directory outside the project so its crawls import newscrawl from the
egg alone (bundled site configs included). The local test site reaches scrapyd's crawls
through NEWSCRAWL_SITES_DIR in its environment.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.error import URLError
from urllib.request import urlopen

import pytest
from conftest import PROJECT_ROOT, skip_or_fail
from local_server import wait_for
from schedule_support import article_urls, run_schedule, stored_urls, write_job
from store_support import Site

from newscrawl.schedule import StateDir, read_runs

BUNDLED_SITES = sorted(
    path.stem for path in (PROJECT_ROOT / "newscrawl/configs/sites").glob("*.toml")
)
PROJECT_FILES = ("newscrawl", "pyproject.toml", "setup.py", "scrapy.cfg", "README.md")


def get_json(url: str) -> dict[str, Any]:
    with urlopen(url, timeout=10) as response:
        return json.load(response)


def tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        skip_or_fail(f"{name} is not installed (pip install -e '.[test]')")
    return str(path)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def egg(tmp_path: Path) -> Path:
    """The project egg as ``scrapyd-deploy --build-egg`` builds it."""
    source = tmp_path / "project"
    source.mkdir()
    for name in PROJECT_FILES:
        origin = PROJECT_ROOT / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(origin, source / name)
    built = tmp_path / "newscrawl.egg"
    done = subprocess.run(
        [tool("scrapyd-deploy"), "--build-egg", str(built)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return built


@pytest.fixture
def scrapyd(tmp_path: Path) -> Iterator[str]:
    """A scrapyd on 127.0.0.1 with its own config and directories; its URL."""
    home = tmp_path / "scrapyd"
    home.mkdir()
    port = free_port()
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        f"bind_address = 127.0.0.1\nhttp_port = {port}\n"
        f"eggs_dir = {home}/eggs\nlogs_dir = {home}/logs\ndbs_dir = {home}/dbs\n"
        "items_dir =\npoll_interval = 0.2\nmax_proc = 2\n",
        encoding="utf-8",
    )
    env = {**os.environ, "NEWSCRAWL_SITES_DIR": str(tmp_path / "sites")}
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    server = subprocess.Popen(
        [tool("scrapyd")],
        cwd=home,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(home / "scrapyd.err").open("wb"),
    )
    url = f"http://127.0.0.1:{port}/"

    def up() -> bool:
        assert server.poll() is None, (home / "scrapyd.err").read_text()[-3000:]
        try:
            return get_json(f"{url}daemonstatus.json")["status"] == "ok"
        except (URLError, OSError):
            return False

    try:
        wait_for(up, "scrapyd to listen", timeout=30)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_deployed_egg_lists_the_sites_and_runs_a_submitted_job(
    tmp_path: Path, egg: Path, scrapyd: str
) -> None:
    with zipfile.ZipFile(egg) as archive:
        packed = {Path(name).stem for name in archive.namelist() if name.endswith(".toml")}
    assert packed == set(BUNDLED_SITES)

    with Site(articles=4) as site:
        write_job(tmp_path, site)  # also writes tmp_path/sites/local.toml for scrapyd
        deploy = subprocess.run(
            [tool("scrapyd-client"), "targets"], cwd=PROJECT_ROOT, capture_output=True, text=True
        )
        assert "http://localhost:6800/" in deploy.stdout  # scrapy.cfg's [deploy] target
        upload = subprocess.run(
            [tool("scrapyd-deploy"), "local", "--egg", str(egg), "-v", "1"],
            cwd=_deploy_target(tmp_path, scrapyd),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert upload.returncode == 0, upload.stdout + upload.stderr
        spiders = get_json(f"{scrapyd}listspiders.json?project=newscrawl")["spiders"]
        assert set(BUNDLED_SITES) <= set(spiders) and "local" in spiders

        done = run_schedule(tmp_path, "--scrapyd", scrapyd, "--once", "local-news")
        assert done.returncode == 0, done.stderr[-3000:]
        [run] = read_runs(StateDir(tmp_path / "state").history)
        assert run.outcome == "submitted"

        def finished() -> bool:
            jobs = get_json(f"{scrapyd}listjobs.json?project=newscrawl")
            return any(job["id"] == run.log for job in jobs["finished"])

        wait_for(finished, "the scrapyd job to finish", timeout=60)
    assert sorted(stored_urls(tmp_path)) == sorted(article_urls(site))


def _deploy_target(tmp_path: Path, url: str) -> Path:
    """A directory whose scrapy.cfg is the project's plus a [deploy:local] target at `url`."""
    target = tmp_path / "deploy"
    target.mkdir()
    config = (PROJECT_ROOT / "scrapy.cfg").read_text(encoding="utf-8")
    (target / "scrapy.cfg").write_text(f"{config}\n[deploy:local]\nurl = {url}\n", encoding="utf-8")
    return target
