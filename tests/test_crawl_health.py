"""A crawl that fails says so, and so does a site that degrades (issue 15): real
``newscrawl schedule --once`` runs (each a ``scrapy crawl`` subprocess) against local
servers on 127.0.0.1, then ``newscrawl health`` on their history."""

from __future__ import annotations

import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from schedule_support import db_url, run_schedule, write_job
from store_support import Site

from newscrawl.cli import main
from newscrawl.schedule import StateDir, read_runs
from newscrawl.schedule.verdict import EXIT_STATUS

ERROR_PAGE = "<html><body><h1>出错了</h1><p>服务暂时不可用。</p></body></html>"


class FlakySite(Site):
    """A `Site` whose `broken` articles answer an error page with status 200, as a portal
    behind a failing backend does."""

    def __init__(self, articles: int) -> None:
        super().__init__(articles)
        self.broken: set[int] = set()

    def page(self, path: str) -> tuple[int, dict[str, str], bytes]:
        if path.startswith("/a/") and int(path[3:-5]) in self.broken:
            return 200, {}, ERROR_PAGE.encode()
        return super().page(path)


@dataclass(frozen=True)
class DeadSite:
    """A site whose port nothing listens on."""

    url: str
    articles: int = 0


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_crawl_of_a_dead_site_fails_and_says_why(tmp_path: Path) -> None:
    site = DeadSite(f"http://127.0.0.1:{closed_port()}")
    write_job(tmp_path, site)  # type: ignore[arg-type]
    done = run_schedule(tmp_path, "--once", "local-news")
    assert done.returncode == EXIT_STATUS["failed"], done.stderr[-3000:]
    [run] = read_runs(StateDir(tmp_path / "state").history)
    assert (run.outcome, run.exit_code) == ("failed", 1)
    [reason] = run.reasons
    assert reason.startswith("no response at all (")
    assert run.summary is not None and run.summary["pages_fetched"] == 0
    log = Path(run.log).read_text(encoding="utf-8")
    assert "run summary: 0 pages fetched; 0 articles" in log
    assert f"crawl failed: {reason}" in log
    assert "Traceback" not in log


def test_a_site_turning_to_error_pages_is_degraded_then_health_says_so(tmp_path: Path) -> None:
    with FlakySite(articles=6) as site:
        write_job(tmp_path, site)
        first = run_schedule(tmp_path, "--once", "local-news")
        assert first.returncode == 0, first.stderr[-3000:]
        site.articles, site.broken = 12, {7, 8, 9, 10}  # new articles, most of them broken
        second = run_schedule(tmp_path, "--once", "local-news")
    assert second.returncode == EXIT_STATUS["degraded"], second.stderr[-3000:]
    runs = read_runs(StateDir(tmp_path / "state").history)
    assert [run.outcome for run in runs] == ["ok", "degraded"]
    [reason] = runs[1].reasons
    assert reason.startswith("4 of 6 article pages dropped, 4 for ")
    assert runs[1].summary is not None and runs[1].summary["stored"] == {"new": 2}

    health = subprocess.run(
        [
            sys.executable,
            "-m",
            "newscrawl.cli",
            "health",
            "--state-dir",
            "state",
            "--db",
            db_url(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert health.returncode == EXIT_STATUS["degraded"], health.stderr
    [header, row, because] = health.stdout.splitlines()
    assert header.split()[:3] == ["site", "last", "run"]
    assert row.split()[0] == "local" and " degraded " in row and "█" in row
    assert because == f"local: degraded: {reason}"


def test_a_re_crawl_with_nothing_new_is_ok_and_health_says_nothing_new(tmp_path: Path) -> None:
    with Site(articles=6) as site:
        write_job(tmp_path, site)
        first = run_schedule(tmp_path, "--once", "local-news")
        assert first.returncode == 0, first.stderr[-3000:]
        again = run_schedule(tmp_path, "--once", "local-news")
    assert again.returncode == 0, again.stderr[-3000:]
    runs = read_runs(StateDir(tmp_path / "state").history)
    assert [(run.outcome, run.reasons) for run in runs] == [("ok", []), ("ok", [])]
    assert runs[1].summary is not None and runs[1].summary["nothing_new"] is True
    assert runs[1].summary["skipped_seen"] == 6

    [_, row] = health_lines(tmp_path)
    assert row.split()[0] == "local" and " ok " in row
    assert "█▁ 0 (nothing new)" in row  # 6 articles, then none: none was new


def health_lines(tmp_path: Path) -> list[str]:
    """``newscrawl health``'s table for the state directory under `tmp_path`."""
    done = subprocess.run(
        [sys.executable, "-m", "newscrawl.cli", "health", "--state-dir", "state"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def write_history(tmp_path: Path, outcomes: list[str]) -> Path:
    """A state directory whose history holds runs of site ``a`` with `outcomes`."""
    import json

    state = tmp_path / "state"
    state.mkdir()
    lines = []
    for number, outcome in enumerate(outcomes):
        summary = {"articles": 10 * (number + 1), "dropped": {"stub": number}}
        lines.append(
            json.dumps(
                {
                    "job": "j",
                    "run_id": str(number),
                    "site": "a",
                    "started": f"2026-01-0{number + 1}T00:00:00+00:00",
                    "ended": f"2026-01-0{number + 1}T00:10:00+00:00",
                    "outcome": outcome,
                    "exit_code": 0,
                    "log": "",
                    "summary": summary,
                    "reasons": [] if outcome == "ok" else ["why"],
                }
            )
        )
    (state / "history.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return state


@pytest.mark.parametrize(("last", "status"), [("ok", 0), ("failed", 1), ("degraded", 3)])
def test_health_exits_with_the_last_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], last: str, status: int
) -> None:
    state = write_history(tmp_path, ["finished", "ok", last])  # "finished": an older release's
    db = f"sqlite:///{tmp_path}/none.db"
    assert main(["health", "--state-dir", str(state)]) == status
    out = capsys.readouterr().out
    last_ok = "2026-01-03 00:10" if last == "ok" else "2026-01-02 00:10"
    assert f"{last}  " in out.splitlines()[1] and f"  {last_ok}  " in out.splitlines()[1]
    assert "▃▆█ 30" in out  # 10, 20 and 30 articles
    assert ("a: " + last + ": why" in out) == (last != "ok")
    assert main(["health", "--state-dir", str(state), "--db", db]) == 2  # no such store
    assert "no store at" in capsys.readouterr().err


def test_health_without_a_history_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["health", "--state-dir", str(tmp_path)]) == 2
    [line, _see] = capsys.readouterr().err.splitlines()
    assert line.endswith("(newscrawl schedule writes it)")


def test_health_plot_draws_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    state = write_history(tmp_path, ["ok", "ok"])
    assert main(["health", "--state-dir", str(state), "--plot", str(tmp_path / "h.png")]) == 0
    assert (tmp_path / "h.png").read_bytes().startswith(b"\x89PNG")


def test_health_plot_without_matplotlib_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    state = write_history(tmp_path, ["ok"])
    assert main(["health", "--state-dir", str(state), "--plot", str(tmp_path / "h.png")]) == 2
    assert "pip install matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "h.png").exists()
