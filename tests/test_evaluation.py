"""`newscrawl eval` and `newscrawl.evaluation`: the scores equal the reference scorer's,
datasets load with their sites, missing peers are skipped, and the outputs are written."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType

import pytest

from newscrawl.cli import main
from newscrawl.commands import eval as eval_command
from newscrawl.evaluation.datasets import find_shared_dir, load_dataset
from newscrawl.evaluation.peers import fragment_text, is_chinese_page, load_peers
from newscrawl.evaluation.runner import (
    Extraction,
    Extractor,
    decode_pages,
    method_extractor,
    run_extractor,
    summarize_sites,
)
from newscrawl.evaluation.scoring import evaluate, score_page

GOLD = {
    "exact": "北京时间昨日，国务院常务会议研究部署了新一轮的改革措施。\n会议指出要稳增长。",
    "partial": "这是第一段正文，讲的是城市有轨电车。\n这是第二段正文，讲的是拆除的经过。",
    "noisy": "The quick brown fox jumps over the lazy dog near the river bank.",
    "empty-pred": "只有金本位的正文，预测为空。这一页预测什么也没有。",
    "short": "短文",
    "mixed": "Python 3.11 的 asyncio 模块提供了 TaskGroup，用于结构化并发。",
}
PRED = {
    "exact": GOLD["exact"],
    "partial": "这是第一段正文，讲的是城市有轨电车。\n相关阅读：更多新闻请点击这里查看",
    "noisy": "Home | News | The quick brown fox jumps over the lazy dog. Share this story",
    "empty-pred": "",
    "short": "短文章",
    "mixed": "Python 3.11 的 asyncio 模块提供了 TaskGroup。",
}


@pytest.fixture(scope="module")
def reference(shared_dir: Path) -> ModuleType:
    """The reference scorer, ``shared/eval/score.py``, imported from its file."""
    spec = importlib.util.spec_from_file_location("reference_score", shared_dir / "eval/score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_same_metrics(reference: ModuleType, gold: dict[str, str], pred: dict[str, str]) -> None:
    expected, expected_pages = reference.evaluate(gold, pred)
    pages = [score_page(page_id, gold[page_id], pred[page_id]) for page_id in gold]
    assert evaluate(pages) == expected  # same keys, same values, bootstrap std included
    for page, reference_page in zip(pages, expected_pages, strict=True):
        assert (
            page.to_dict().items()
            >= {
                key: reference_page[key] for key in ("tp", "fp", "fn", "precision", "recall", "f1")
            }.items()
        )


def test_scores_equal_the_reference_on_hand_made_predictions(reference: ModuleType) -> None:
    assert_same_metrics(reference, GOLD, PRED)


def test_scores_equal_the_reference_on_real_pages(reference: ModuleType, shared_dir: Path) -> None:
    """The paper's output (empty on English pages) and a cut-down gold with page noise."""
    half_gold = Extractor(
        "half-gold", lambda page, text: Extraction(page.gold[: len(page.gold) // 2] + text[:300])
    )
    for name in ("zh_cwce", "sites", "scrapinghub", "readability"):
        dataset = load_dataset(name, shared_dir, limit=3)
        gold = {page.id: page.gold for page in dataset.pages}
        for extractor in (method_extractor("paper"), half_gold):
            results = run_extractor(extractor, dataset, decode_pages(dataset))
            pred = {result.page.id: result.prediction for result in results}
            assert_same_metrics(reference, gold, pred)


def test_a_perfect_page_and_an_empty_one() -> None:
    perfect = score_page("a", GOLD["exact"], GOLD["exact"])
    empty = score_page("b", GOLD["exact"], "")
    assert (perfect.precision, perfect.recall, perfect.f1) == (1.0, 1.0, 1.0)
    assert empty.empty and empty.recall == 0.0 and empty.f1 == 0.0
    metrics = evaluate([perfect, empty], resamples=10)
    # the empty page does not lower precision; it halves recall and success
    assert metrics["precision"] == 1.0
    assert metrics["recall"] == metrics["success"] == metrics["paper_recall"] == 0.5
    assert metrics["paper_precision"] == 1.0
    assert metrics["empty"] == 0.5


def test_sites_pages_carry_their_folder_as_site_and_listings_are_left_out(
    shared_dir: Path,
) -> None:
    dataset = load_dataset("sites", shared_dir)
    folders = sorted(path.name for path in (shared_dir / "datasets/sites/pages").iterdir())
    assert list(dataset.sites) == [name for name in folders if name != "MANIFEST.tsv"]
    assert all(page.id.startswith(f"{page.site}/article-") for page in dataset.pages)
    assert all(page.gold and page.html for page in dataset.pages)


def test_scores_are_split_per_site(shared_dir: Path) -> None:
    dataset = load_dataset("sites", shared_dir)
    only_sina = Extractor(
        "oracle", lambda page, _text: Extraction(page.gold if page.site == "sina" else "")
    )
    per_site = summarize_sites(run_extractor(only_sina, dataset, decode_pages(dataset)))
    assert list(per_site) == list(dataset.sites)
    assert per_site["sina"]["f1"] == 1.0
    assert per_site["sina"]["n_pages"] == sum(page.site == "sina" for page in dataset.pages)
    assert all(metrics["empty"] == 1.0 for site, metrics in per_site.items() if site != "sina")


def test_datasets_without_sites_have_no_split(shared_dir: Path) -> None:
    for name in ("zh_cwce", "scrapinghub"):
        dataset = load_dataset(name, shared_dir, limit=2)
        assert dataset.sites == () and len(dataset.pages) == 2


def test_a_folder_laid_out_like_zh_cwce_is_a_dataset(tmp_path: Path) -> None:
    folder = write_cwce_like(tmp_path / "mine")
    dataset = load_dataset(str(folder))
    assert dataset.name == "mine"
    assert [page.id for page in dataset.pages] == ["a", "b"]
    assert dataset.pages[0].gold == GOLD["exact"]


def test_a_folder_of_no_known_layout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a dataset"):
        load_dataset(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="no shared folder"):
        find_shared_dir(tmp_path)


def test_a_missing_peer_is_reported_and_skipped() -> None:
    def missing() -> None:
        raise ImportError("No module named 'not_installed'")

    registry = {"present": lambda: lambda html, url: html, "absent": missing}
    loaded, skipped = load_peers(["present", "absent"], registry)
    assert list(loaded) == ["present"]
    assert loaded["present"]("<p>x</p>", None) == "<p>x</p>"
    assert skipped == {"absent": "No module named 'not_installed'"}


def test_a_peer_that_crashes_on_a_page_counts_as_empty(shared_dir: Path) -> None:
    dataset = load_dataset("zh_cwce", shared_dir, limit=2)

    def crash(page: object, text: str) -> Extraction:
        raise RuntimeError("boom")

    results = run_extractor(Extractor("crash", crash), dataset, decode_pages(dataset))
    assert all(result.score.empty for result in results)
    assert all(result.error == "RuntimeError: boom" for result in results)


def test_chinese_pages_are_told_apart_and_fragments_keep_their_lines() -> None:
    assert is_chinese_page(f"<html><script>var a = 'english words';</script><p>{GOLD['exact']}")
    assert not is_chinese_page(f"<p>{GOLD['noisy']}</p><p>中文</p>")
    assert fragment_text("<div><p>one end</p><p>next <b>start</b></p></div>") == (
        "one end\nnext start"
    )


def write_cwce_like(folder: Path) -> Path:
    """A two-page dataset in the zh_cwce layout (original/ + cleaned/)."""
    (folder / "original").mkdir(parents=True)
    (folder / "cleaned").mkdir()
    for page_id, key in (("a", "exact"), ("b", "partial")):
        html = f"<html><head><title>{page_id}</title></head><body><p>{GOLD[key]}</p></body></html>"
        (folder / "original" / f"{page_id}.html").write_text(html, encoding="utf-8")
        (folder / "cleaned" / f"{page_id}.txt").write_text(GOLD[key], encoding="utf-8")
    return folder


@dataclass(frozen=True)
class CommandRun:
    status: int
    out: Path
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def command_run(shared_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> CommandRun:
    """``newscrawl eval`` run once in-process on 3 pages of each dataset and a folder."""
    root = tmp_path_factory.mktemp("eval")
    out = root / "results"
    argv = ["eval", "--dataset", "zh_cwce", "sites", "scrapinghub"]
    argv += [str(write_cwce_like(root / "mine")), "--peers", "none", "--limit", "3"]
    argv += ["--shared", str(shared_dir), "--out", str(out)]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(argv)
    return CommandRun(status, out, stdout.getvalue(), stderr.getvalue())


def test_the_command_scores_every_dataset(command_run: CommandRun) -> None:
    assert command_run.status == 0, command_run.stderr
    out = command_run.out
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert list(summary["datasets"]) == ["zh_cwce", "sites", "scrapinghub", "mine"]
    assert summary["peers"] == [] and summary["methods"] == ["paper", "default"]
    for name, part in summary["datasets"].items():
        assert part["pages"] == (2 if name == "mine" else 3)
        assert list(part["extractors"]) == ["paper", "default"]
        metrics = part["extractors"]["paper"]["all"]
        assert 0 <= metrics["f1"] <= 1 and metrics["pages_per_s"] > 0
    sites = summary["datasets"]["sites"]["extractors"]["paper"]["sites"]
    assert sites and sum(metrics["n_pages"] for metrics in sites.values()) == 3
    assert summary["datasets"]["zh_cwce"]["extractors"]["paper"]["sites"] == {}


def test_the_command_prints_a_table_per_dataset_and_per_site(command_run: CommandRun) -> None:
    titles = [line for line in command_run.stdout.splitlines() if line.endswith(" pages)")]
    site_titles = [title for title in titles if title.startswith("sites / ")]
    assert titles[0] == "zh_cwce (3 pages)"
    assert "sites (3 pages)" in titles and "mine (2 pages)" in titles
    assert site_titles and all(title.split()[2] in {"cnblogs", "csdn"} for title in site_titles)
    header = command_run.stdout.splitlines()[1].split()
    assert header[:4] == ["extractor", "precision", "recall", "F1"]
    assert {"success", "empty", "paperP", "paperR", "pages/s", "MB/s"} <= set(header)


def test_the_command_writes_json_and_png_files(command_run: CommandRun) -> None:
    out = command_run.out
    for name in ("zh_cwce", "sites", "scrapinghub", "mine"):
        pages = json.loads((out / name / "paper.pages.json").read_text("utf-8"))
        assert len(pages) == (2 if name == "mine" else 3)
        assert {"id", "site", "tp", "fp", "fn", "f1", "seconds", "error"} <= set(pages[0])
        predictions = json.loads((out / name / "default.predictions.json").read_text("utf-8"))
        gold = json.loads((out / name / "gold.json").read_text("utf-8"))
        assert set(predictions) == set(gold) == {page["id"] for page in pages}
        assert (out / f"{name}.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_written_predictions_rescore_to_the_summary(
    command_run: CommandRun, reference: ModuleType
) -> None:
    out = command_run.out
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    gold = reference._load_texts(out / "sites" / "gold.json")
    pred = reference._load_texts(out / "sites" / "paper.predictions.json")
    expected, _pages = reference.evaluate(gold, pred)
    written = summary["datasets"]["sites"]["extractors"]["paper"]["all"]
    assert {key: written[key] for key in expected} == expected


def test_the_command_names_a_missing_peer_and_goes_on(
    shared_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def absent() -> None:
        raise ImportError("No module named 'gne'")

    registry = {"gne": absent}
    monkeypatch.setattr(eval_command, "load_peers", partial(load_peers, registry=registry))
    argv = ["eval", "--dataset", "zh_cwce", "--limit", "1", "--method", "paper", "--peers"]
    argv += ["gne", "--shared", str(shared_dir), "--out", str(tmp_path)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "peer gne skipped" in captured.err and "No module named 'gne'" in captured.err
    assert "zh_cwce (1 pages)" in captured.out and "paper" in captured.out
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))
    assert summary["missing_peers"] == {"gne": "No module named 'gne'"}
    assert summary["peers"] == []


def test_unknown_names_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--peers", "nosuchpeer", "--out", str(tmp_path)]) == 2
    assert main(["eval", "--method", "nosuchmethod", "--out", str(tmp_path)]) == 2
    assert main(["eval", "--dataset", str(tmp_path), "--out", str(tmp_path)]) == 2
    assert "is not a dataset" in capsys.readouterr().err
