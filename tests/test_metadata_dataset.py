"""Quality floors on the two gold sets, a little below what bench/bench_metadata.py measured
(zh_cwce: 48/56 dates correct, 5 wrong, 42/50 authors; sites: 30/30 dates, 28/30 authors).
A drop below a floor is a regression to explain, not noise: the extractor is deterministic."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType


def test_zh_cwce_floors(shared_dir: Path, bench: ModuleType) -> None:
    score = bench.score(bench.load_zh_cwce(shared_dir), bench.ours, 1, peer=False)
    assert score.correct >= 46
    assert score.wrong <= 6
    assert score.author_match >= 40


def test_sites_floors(shared_dir: Path, bench: ModuleType) -> None:
    score = bench.score(bench.load_sites(shared_dir), bench.ours, 1, peer=False)
    assert score.correct >= 29
    assert score.wrong == 0
    assert score.author_match >= 27
