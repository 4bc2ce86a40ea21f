"""BENCHMARKS.md is the rendering of the figures the benchmarks recorded, and recording keeps
what a benchmark printed with the facts of its run (bench/recorded.py, bench/report.py)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_bench

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report() -> ModuleType:
    return load_bench("report")


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    module = load_bench("recorded")
    monkeypatch.setattr(module, "FIGURES", tmp_path)
    return module


def test_benchmarks_md_is_the_rendering_of_the_recorded_figures(report: ModuleType) -> None:
    assert (ROOT / "BENCHMARKS.md").read_text("utf-8") == report.render(), (
        "BENCHMARKS.md was edited by hand or a figure file changed: run python bench/report.py"
    )


def test_every_section_is_recorded_by_its_script(report: ModuleType) -> None:
    for section in report.SECTIONS:
        script = (ROOT / "bench" / section.script).read_text("utf-8")
        assert f'"{section.name}"' in script, f"{section.script} records no {section.name!r}"


def test_every_citation_of_a_benchmarks_section_names_one(report: ModuleType) -> None:
    headings = set(re.findall(r"^#+ (.+)$", report.render(), re.MULTILINE))
    cited = re.compile(r'BENCHMARKS\.md,?\s+(?:section\s+)?"([^"]+)"')
    missing = []
    for folder in ("newscrawl", "docs", "tests", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".md"} or not path.is_file():
                continue
            text = " ".join(path.read_text("utf-8").split())
            for title in cited.findall(text):
                if not any(heading.startswith(title.split(" › ")[0]) for heading in headings):
                    missing.append(f"{path.relative_to(ROOT)}: {title}")
    assert not missing, "citations of BENCHMARKS.md sections that do not exist:\n" + "\n".join(
        missing
    )


def test_a_recorded_run_keeps_its_output_command_machine_and_commit(
    recorded: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with recorded.recorded("example", "An example"):
        print("| a | b |\n| --- | --- |\n| 1 | 2 |")
    assert "| 1 | 2 |" in capsys.readouterr().out  # the terminal still sees it
    kept = json.loads((tmp_path / "example.json").read_text("utf-8"))
    assert kept["title"] == "An example"
    assert kept["output"] == "| a | b |\n| --- | --- |\n| 1 | 2 |\n"
    assert kept["command"].startswith("python ")
    assert kept["machine"]["cores"] >= 1 and kept["machine"]["python"]
    assert re.fullmatch(r"[0-9a-f]{4,40}(\+changes)?|unknown", kept["commit"])
    assert kept["exit_status"] == 0


def test_a_run_that_exits_keeps_its_status_and_one_that_fails_keeps_nothing(
    recorded: ModuleType, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit), recorded.recorded("stopped", "Stopped"):
        print("half")
        sys.exit(3)
    assert json.loads((tmp_path / "stopped.json").read_text("utf-8"))["exit_status"] == 3
    with pytest.raises(ValueError), recorded.recorded("broken", "Broken"):
        raise ValueError("the bench broke")
    assert not (tmp_path / "broken.json").exists()
    assert sys.stdout is sys.__stdout__ or not isinstance(sys.stdout, recorded._Tee)


def test_a_run_that_stops_at_its_arguments_keeps_nothing(
    recorded: ModuleType, tmp_path: Path
) -> None:
    """``--help`` and a mistyped option measure nothing: the last run's figures stay."""
    parser = argparse.ArgumentParser(prog="bench_example.py")
    parser.add_argument("--rounds", type=int)
    for arguments in (["--help"], ["--rounds", "many"]):
        with pytest.raises(SystemExit), recorded.recorded("asked", "Asked"):
            parser.parse_args(arguments)
        assert not (tmp_path / "asked.json").exists()


def test_a_section_shows_its_run_and_nests_its_headings(report: ModuleType) -> None:
    section = report.Section("speed", "bench_speed.py")
    figures = {
        "title": "Speed",
        "command": "python bench/bench_speed.py --rounds 1",
        "started": "2026-01-02T03:04:05+00:00",
        "seconds": 12,
        "machine": {
            "cpu": "a CPU",
            "cores": 2,
            "memory_gib": 24,
            "python": "3.11.7",
            "system": "Linux",
            "load_average": [0.5, 0.25, 0.0],
        },
        "commit": "abc1234",
        "exit_status": 0,
        "output": "## Part\n\n```sh\n# a comment\n```\n| x |\n",
    }
    title, text = report.render_section(section, figures)
    assert title == "Speed"
    assert text.startswith("## Speed\n")
    assert "\n### Part\n" in text and "\n# a comment\n" in text
    assert "this one differs" in text  # not the canonical command
    assert "2026-01-02 at commit `abc1234`" in text
    missing_title, missing = report.render_section(section, None)
    assert "No recorded run yet" in missing and missing_title in missing


def test_check_fails_on_a_hand_edit(
    report: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = tmp_path / "BENCHMARKS.md"
    edited.write_text(report.render() + "\nA figure typed by hand: 1,000 pages/s.\n", "utf-8")
    monkeypatch.setattr(report, "BENCHMARKS", edited)
    assert report.main(["--check"]) == 1
    edited.write_text(report.render(), "utf-8")
    assert report.main(["--check"]) == 0
