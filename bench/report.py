"""Write BENCHMARKS.md from the figures the benchmarks recorded (``bench/figures/*.json``).

    python bench/report.py                 # render BENCHMARKS.md from the recorded figures
    python bench/report.py --run [NAME ...]  # run the benchmarks first (all, or the named)
    python bench/report.py --check         # exit 1 when BENCHMARKS.md is not the rendering

Each benchmark records what it printed, with its command, machine, date and commit
(``bench/recorded.py``); this renders one section per benchmark in `SECTIONS` order, the
benchmark's own description (its docstring's first paragraph) above its output. Nothing
in BENCHMARKS.md is written by hand, so a re-run replaces every figure of its section, and
a test holds that the file is this rendering. History (what a figure was before) belongs
in CHANGELOG.md.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "bench" / "figures"
BENCHMARKS = ROOT / "BENCHMARKS.md"


@dataclass(frozen=True)
class Section:
    """One benchmark run: the name its figures are kept under, its canonical command, and
    whether it prints plain text (shown as it is) rather than markdown."""

    name: str
    script: str
    args: tuple[str, ...] = ()
    text: bool = False

    @property
    def command(self) -> str:
        return shlex.join(["python", f"bench/{self.script}", *self.args])


SECTIONS = (
    Section("quality", "bench_quality.py", text=True),
    Section("speed", "bench_speed.py"),
    Section("instructions", "bench_instructions.py"),
    Section("commits", "bench_commits.py"),
    Section("confidence", "calibrate_confidence.py"),
    Section("lodo", "lodo.py"),
    Section("learned-lines", "learn_lines.py"),
    Section("metadata", "bench_metadata.py"),
    Section("metadata-lodo", "metadata_lodo.py"),
    Section("hostile-pages", "bench_pathological.py"),
    Section("fuzz", "fuzz_extract.py", ("--pages", "100000", "--jobs", "2")),
    Section("memory", "bench_memory.py", text=True),
    Section("replay-crawl", "bench_replay_crawl.py"),
    Section("reextract", "bench_reextract.py"),
    Section("distributed", "bench_distributed.py"),
    Section("fingerprint", "bench_fingerprint.py"),
    Section("fingerprint-duplicates", "bench_fingerprint.py", ("--duplicates",)),
    Section("store", "bench_store.py"),
    Section("store-keys", "bench_store.py", ("--keys-only", "10m", "--backends", "sqlite")),
    Section(
        "pg-key-layouts",
        "bench_pg_key_layouts.py",
        ("--sizes", "10k,1m", "--layouts", "btree,levels", "--batches", "10"),
    ),
    Section("libraries", "bench_libraries.py"),
)

# Each tuned number or choice of the code and the section whose figures measure it now. What
# no benchmark measures any more (alternatives long gone) is in CHANGELOG.md, "Defaults as
# first measured".
DEFAULTS = (
    ("`Options` fields of the default method (`default.PARAMETERS`): each one's sweep", "lodo"),
    (
        "the default method's rules (`credit_lines`, `photo_credit`, `lead_paragraphs`, "
        "`ingredient_lines`, `boilerplate_elements`, ...: `lodo.RULES`), each switched off",
        "lodo",
    ),
    ("`newscrawl.extract.confidence` weights", "confidence"),
    ("the metadata rules and thresholds (`newscrawl.extract.metadata`)", "metadata-lodo"),
    (
        "`fingerprint.simhash` (against the blake2b one it replaced), `fingerprint.content_hash`",
        "fingerprint",
    ),
    ("`fingerprint.NEAR_DUPLICATE_BITS` (6, against 3)", "fingerprint-duplicates"),
    ("the key index in levels, against one B-tree (PostgreSQL)", "pg-key-layouts"),
    (
        "`key_index.ARTICLES_PER_LEVEL`, `key_index.BUFFER_LEVEL`, `key_filter.BITS_PER_KEY`, "
        "`sql._on_connect`: the store's rates as it grows",
        "store",
    ),
    ("the key index and its filters at ten million articles", "store-keys"),
    ("`NEWSCRAWL_EXTRACT_PROCESSES`", "replay-crawl"),
    ("linear-time scans (`bench_pathological.TARGET_RATIO`)", "hostile-pages"),
    ("the hand-written sitemap, feed and JSON-LD readers", "libraries"),
)

HEADING = re.compile(r"^(#{1,4}) ")
FENCE = re.compile(r"^\s*(```|~~~)")


def load_figures(name: str) -> dict[str, Any] | None:
    path = FIGURES / f"{name}.json"
    if not path.is_file():
        return None
    figures: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return figures


def description(script: str) -> str:
    """A benchmark's docstring without its usage lines (the section shows the command run)."""
    tree = ast.parse((ROOT / "bench" / script).read_text("utf-8"))
    paragraphs = (ast.get_docstring(tree) or "").split("\n\n")
    return "\n\n".join(text for text in paragraphs if not text.startswith(" "))


def nested(output: str) -> str:
    """A benchmark's output with its headings moved under its section (its highest level
    becomes ``###``) and trailing spaces removed; fenced code is left as it is."""
    lines, fenced, headings = [], False, []
    for line in output.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        heading = None if fenced else HEADING.match(line)
        lines.append((line.rstrip(), heading))
        if heading:
            headings.append(len(heading.group(1)))
    shift = "#" * (3 - min(headings)) if headings else ""
    return "\n".join(shift + line if heading else line for line, heading in lines)


def anchor(title: str) -> str:
    """The anchor mkdocs and GitHub give a heading."""
    slug = re.sub(r"[^\w\- ]", "", title.lower()).strip()
    return re.sub(r"[ ]+", "-", slug)


def machine_line(figures: dict[str, Any]) -> str:
    machine = figures["machine"]
    load = ", ".join(f"{value:g}" for value in machine["load_average"])
    return (
        f"Run {figures['started'][:10]} at commit `{figures['commit']}`, "
        f"{figures['seconds']:,} s; {machine['cpu']}, {machine['cores']} cores, "
        f"{machine['memory_gib']} GiB, Python {machine['python']}, {machine['system']}; "
        f"load average at the start {load}."
    )


def render_section(section: Section, figures: dict[str, Any] | None) -> tuple[str, str]:
    """(title, markdown) of one benchmark's section."""
    about = description(section.script)
    if figures is None:
        title = f"`{section.script}` {' '.join(section.args)}".strip()
        body = f"{about}\n\nNo recorded run yet: `{section.command}`."
        return title, f"## {title}\n\n{body}"
    parts = [f"## {figures['title']}", about, f"```sh\n{figures['command']}\n```"]
    if figures["command"] != section.command:
        parts.append(f"The canonical run is `{section.command}`; this one differs.")
    parts.append(machine_line(figures))
    if figures["exit_status"]:
        parts.append(f"**The run ended with exit status {figures['exit_status']}.**")
    output = figures["output"].strip("\n")
    parts.append(f"```text\n{output}\n```" if section.text else nested(output))
    return figures["title"], "\n\n".join(parts)


def render() -> str:
    """The whole of BENCHMARKS.md."""
    sections = [
        (section, *render_section(section, load_figures(section.name))) for section in SECTIONS
    ]
    titles = {section.name: title for section, title, _ in sections}
    contents = "\n".join(f"- [{title}](#{anchor(title)})" for _, title, _ in sections)
    defaults = "\n".join(
        f"| {what} | [{titles[name]}](#{anchor(titles[name])}) |" for what, name in DEFAULTS
    )
    head = f"""# Benchmarks

Written by `python bench/report.py` from the figures each benchmark recorded in
`bench/figures/` when it last ran: do not edit this file, re-run the benchmark
(`python bench/report.py --run NAME`, or `--run` for all of them). Each section gives the
command, the machine, the date and the commit of its run. The machines are shared and
noisy: compare ratios measured in one run, not absolute times across runs. What the
figures were before is in [CHANGELOG.md](CHANGELOG.md).

{contents}
- [Where the defaults come from](#where-the-defaults-come-from)"""
    tail = f"""## Where the defaults come from

The section whose current figures measure each tuned number of the code.

| what | measured in |
| --- | --- |
{defaults}"""
    return "\n\n".join([head, *(body for _, _, body in sections), tail]) + "\n"


def run(names: Sequence[str]) -> list[str]:
    """Run the named benchmarks' canonical commands in turn; the names of those that failed."""
    failed = []
    for section in SECTIONS:
        if names and section.name not in names:
            continue
        print(f"== {section.name}: {section.command}", file=sys.stderr, flush=True)
        argv = [sys.executable, str(ROOT / "bench" / section.script), *section.args]
        if subprocess.run(argv, cwd=ROOT, check=False).returncode != 0:
            failed.append(section.name)
    return failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--run", nargs="*", metavar="NAME", help="run these benchmarks first (none named: all)"
    )
    parser.add_argument(
        "--check", action="store_true", help="only compare BENCHMARKS.md with the rendering"
    )
    args = parser.parse_args(argv)
    known = {section.name for section in SECTIONS}
    unknown = sorted(set(args.run or ()) - known)
    if unknown:
        parser.error(
            f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(sorted(known))}"
        )
    text = render()
    if args.check:
        if BENCHMARKS.read_text("utf-8") != text:
            print(
                "BENCHMARKS.md is not the rendering of bench/figures: run python bench/report.py",
                file=sys.stderr,
            )
            return 1
        return 0
    failed = run(args.run) if args.run is not None else []
    BENCHMARKS.write_text(render(), "utf-8")
    if failed:
        print(f"failed: {', '.join(failed)} (their sections keep the last run)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
