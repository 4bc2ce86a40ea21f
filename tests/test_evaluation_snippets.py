"""The two open-web datasets in `newscrawl eval`: trafilatura_dev's snippet metric equals the
reference ``shared/eval/snippets.py``, readability's body gold loads, and the confidence
calibration and wrong-region figures give the numbers worked out by hand here."""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import importlib.util
import io
import json
import sys
from functools import partial
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from newscrawl.cli import main
from newscrawl.commands import eval as eval_command
from newscrawl.evaluation import runner
from newscrawl.evaluation.calibration import auroc, calibrate
from newscrawl.evaluation.datasets import Page, load_dataset
from newscrawl.evaluation.peers import PEERS, load_peers
from newscrawl.evaluation.regions import wrong_region_pages, wrong_regions
from newscrawl.evaluation.report import format_tables
from newscrawl.evaluation.runner import (
    Extraction,
    Extractor,
    PageResult,
    decode_pages,
    method_extractor,
    run_extractor,
    summarize,
    summarize_calibration,
)
from newscrawl.evaluation.scoring import score_page
from newscrawl.evaluation.snippets import Snippets, evaluate_snippets, score_snippets

GOLD = {
    "all-found": {"with": ["Der erste Satz", "der  zweite\nSatz"], "without": ["Newsletter"]},
    "with-boilerplate": {"with": ["main text here", "second part"], "without": ["Menu", "Login"]},
    "empty-output": {"with": ["something"], "without": ["Menu"]},
    "whitespace-output": {"with": ["x y"], "without": []},
    "no-prediction": {"with": ["never seen"], "without": ["nor this"]},
    "no-snippets": {"with": [], "without": []},
}
PRED = {
    "all-found": "Der erste Satz und\n der zweite   Satz. Ende.",
    "with-boilerplate": "Menu | Home\nmain text   here\nLogin",
    "empty-output": "",
    "whitespace-output": " \n\t ",
    "no-snippets": "some text",
}


@pytest.fixture(scope="module")
def reference(shared_dir: Path) -> ModuleType:
    """The reference snippet scorer, ``shared/eval/snippets.py``, imported from its file."""
    path = shared_dir / "eval/snippets.py"
    spec = importlib.util.spec_from_file_location("reference_snippets", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def as_snippets(entry: dict[str, list[str]]) -> Snippets:
    return Snippets(tuple(entry["with"]), tuple(entry["without"]))


def assert_same_as_reference(
    reference: ModuleType, gold: dict[str, dict[str, list[str]]], pred: dict[str, str]
) -> None:
    expected, expected_pages = reference.evaluate(gold, pred)
    # in the reverse of id order: the draws must follow the ids, not the order given
    pages = [score_snippets(key, as_snippets(gold[key]), pred.get(key, "")) for key in gold][::-1]
    metrics = evaluate_snippets(pages)
    for key in ("precision", "recall", "f1", "f1_std", "empty"):
        assert metrics[key] == expected[key], key  # equal, not approximately
    assert metrics["n_pages"] == expected["pages"]
    ours = sorted((page.to_dict() for page in pages), key=lambda page: str(page["id"]))
    for page, reference_page in zip(ours, expected_pages, strict=True):
        assert page.items() >= reference_page.items()


def test_snippet_scores_equal_the_reference_on_hand_made_outputs(reference: ModuleType) -> None:
    assert_same_as_reference(reference, GOLD, PRED)


def test_snippet_scores_equal_the_reference_on_real_pages(
    reference: ModuleType, shared_dir: Path
) -> None:
    dataset = load_dataset("trafilatura_dev", shared_dir, limit=40)
    gold = json.loads((shared_dir / "datasets/trafilatura_dev/gold.json").read_text("utf-8"))
    gold = {page.id: gold[page.id] for page in dataset.pages}
    whole_page = Extractor("whole-page", lambda _page, text: Extraction(text))
    for extractor in (method_extractor("default"), method_extractor("paper"), whole_page):
        results = run_extractor(extractor, dataset, decode_pages(dataset))
        assert_same_as_reference(
            reference, gold, {result.page.id: result.prediction for result in results}
        )


def test_hand_made_snippet_counts_and_page_f1() -> None:
    counts = {key: score_snippets(key, as_snippets(GOLD[key]), PRED.get(key, "")) for key in GOLD}
    # whitespace collapsed on both sides: "der  zweite\nSatz" is found in "der zweite   Satz"
    assert (counts["all-found"].tp, counts["all-found"].fp, counts["all-found"].f1) == (2, 0, 1.0)
    # tp 1 (main text here), fn 1 (second part), fp 2 (Menu, Login): 2 / (2 + 2 + 1)
    boilerplate = counts["with-boilerplate"]
    assert (boilerplate.tp, boilerplate.fp, boilerplate.fn, boilerplate.tn) == (1, 2, 1, 0)
    assert boilerplate.f1 == pytest.approx(2 / 5)
    # an empty output finds nothing, not even the unwanted snippets
    empty = counts["empty-output"]
    assert (empty.tp, empty.fp, empty.fn, empty.tn, empty.empty) == (0, 0, 1, 1, True)
    assert counts["whitespace-output"].empty and counts["whitespace-output"].f1 == 0.0
    assert counts["no-snippets"].f1 == 1.0 and not counts["no-snippets"].missed
    assert counts["empty-output"].missed and not counts["with-boilerplate"].missed
    assert counts["all-found"].found and not counts["with-boilerplate"].found
    # summed: tp 3, fp 2 (Menu, Login), fn 4 (one per page but the first and last)
    # -> P 3/5, R 3/7, F 6/12; 3 of 6 outputs empty (empty, whitespace, none given)
    metrics = evaluate_snippets(list(counts.values()), resamples=10)
    assert (metrics["precision"], metrics["recall"]) == (3 / 5, 3 / 7)
    assert metrics["f1"] == 0.5 and metrics["empty"] == 0.5


def test_the_two_new_datasets_load_by_layout(shared_dir: Path, tmp_path: Path) -> None:
    snippets = load_dataset("trafilatura_dev", shared_dir, limit=3)
    assert snippets.snippet_gold and all(isinstance(page.gold, Snippets) for page in snippets.pages)
    assert all(page.url and page.html.lstrip().startswith(b"<") for page in snippets.pages)
    bodies = load_dataset("readability", shared_dir, limit=3)
    assert not bodies.snippet_gold and all(isinstance(page.gold, str) for page in bodies.pages)
    assert [page.id for page in bodies.pages] == ["001", "002", "003-metadata-preferred"]
    # a folder of one's own in the same layout, snippet and body entries
    (tmp_path / "html").mkdir()
    for page_id in ("a", "b"):
        (tmp_path / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(b"<p>x</p>"))
    gold = {"a": {"with": ["x"], "without": ["y"], "url": "https://a.example/"}, "b": {"body": "x"}}
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    mine = load_dataset(str(tmp_path))
    assert [page.gold for page in mine.pages] == [Snippets(("x",), ("y",)), "x"]
    assert mine.pages[0].url == "https://a.example/" and mine.pages[0].html == b"<p>x</p>"


def test_auroc_on_hand_made_scores() -> None:
    assert auroc([0.9, 0.8, 0.3, 0.1], [True, True, False, False]) == 1.0
    assert auroc([0.1, 0.3, 0.8, 0.9], [True, True, False, False]) == 0.0
    assert auroc([0.5, 0.5, 0.5], [True, False, False]) == 0.5
    # pairs (positive, negative): (.9,.5) 1, (.9,.1) 1, (.5,.5) tie 1/2, (.5,.1) 1 -> 3.5 / 4
    assert auroc([0.9, 0.5, 0.5, 0.1], [True, True, False, False]) == 0.875
    # one positive above two of three negatives, tied with none -> 2 / 3
    assert auroc([0.2, 0.6, 0.4, 0.9], [False, True, False, False]) == pytest.approx(2 / 3)
    assert auroc([0.2, 0.6], [True, True]) is None
    assert auroc([], []) is None


def test_calibration_on_hand_made_pages() -> None:
    # (confidence, page F1); confident: the first two; bad (F1 < 0.5): the 2nd and 3rd
    pages = [(0.9, 1.0), (0.85, 0.4), (0.3, 0.2), (0.5, 0.9)]
    figures = calibrate(pages)
    assert figures is not None
    assert figures["pages"] == 4 and figures["confident_share"] == 0.5
    assert figures["confident_f1"] == pytest.approx(0.7)
    # 1 - confidence: bad 0.15, 0.7; good 0.1, 0.5 -> bad above good in 3 of 4 pairs
    assert figures["auroc"] == 0.75
    # 0.8 itself counts as confident; equal confidences tie
    tied = calibrate([(0.8, 0.1), (0.8, 0.9)])
    assert tied == {"pages": 2, "confident_share": 1.0, "confident_f1": 0.5, "auroc": 0.5}
    unsure = calibrate([(0.1, 0.9), (0.2, 0.95)])
    assert unsure is not None
    assert unsure["confident_share"] == 0.0 and unsure["confident_f1"] is None
    assert unsure["auroc"] is None  # no bad page: nothing to predict
    assert calibrate([]) is None


def result(page_id: str, gold: str | Snippets, prediction: str) -> PageResult:
    page = Page(id=page_id, html=b"", gold=gold)
    return PageResult(page, runner.score_prediction(page, prediction), prediction, 0.001)


def test_wrong_region_pages_on_hand_made_results() -> None:
    text = "one two three four five six seven eight"
    snippets = Snippets(("one two", "five six"), ("menu",))
    ours = [
        result("missed", text, "menu login footer links here"),  # F1 0 < 0.2
        result("peer-misses-too", text, "menu login footer links here"),
        # 1 of the gold's 5 shingles, nothing else: P 1, R 1/5, F1 1/3 >= 0.2
        result("partly", text, "one two three four"),
        result("snippets-missed", snippets, "menu only"),
        result("snippets-half", snippets, "one two"),
    ]
    peer = [
        result("missed", text, text),
        result("peer-misses-too", text, "nothing of it"),
        result("partly", text, text),
        result("snippets-missed", snippets, "one two three five six"),
        result("snippets-half", snippets, "one two five six"),
    ]
    assert score_page("x", text, "one two three four").f1 == pytest.approx(1 / 3)
    pages = wrong_region_pages(ours, peer)
    assert pages == {"count": 2, "share": 0.4, "ids": ["missed", "snippets-missed"]}
    report = wrong_regions(
        {"default": ours, "good-peer": peer, "bad-peer": ours},
        {"default": 0.5, "good-peer": 0.9, "bad-peer": 0.5},
        methods=["default"],
        peers=["bad-peer", "good-peer"],
    )
    assert report == {"peer": "good-peer", "methods": {"default": pages}}
    assert wrong_regions({"default": ours}, {"default": 0.5}, ["default"], []) is None


def test_confidence_travels_from_the_article_to_the_calibration(
    shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_extract = runner.extract

    def confident_extract(*args: object, **kwargs: object) -> object:
        article = real_extract(*args, **kwargs)  # type: ignore[arg-type]
        return dataclasses.replace(article, confidence=0.9 if article.body else 0.1)

    monkeypatch.setattr(runner, "extract", confident_extract)
    dataset = load_dataset("readability", shared_dir, limit=5)
    results = run_extractor(method_extractor("default"), dataset, decode_pages(dataset))
    assert [result.confidence for result in results] == [
        0.9 if result.prediction else 0.1 for result in results
    ]
    assert results[0].to_dict()["confidence"] == results[0].confidence
    figures = summarize_calibration(results)
    expected = calibrate([(result.confidence or 0.0, result.score.f1) for result in results])
    assert figures == expected and figures is not None and figures["pages"] == 5
    peer = Extractor("peer", lambda _page, text: Extraction(text))
    assert summarize_calibration(run_extractor(peer, dataset, decode_pages(dataset))) is None


def test_the_table_shows_confidence_figures_or_a_dash() -> None:
    page = result("a", "one two three four five", "one two three four five")
    metrics = summarize([page])
    summaries = {
        "default": {
            "all": metrics,
            "sites": {},
            "calibration": calibrate([(0.9, 1.0), (0.3, 0.1)]),
        },
        "peer": {"all": metrics, "sites": {}, "calibration": None},
        "gate": {"all": metrics, "sites": {}},  # as the quality gate builds it
    }
    lines = format_tables("mine", summaries, snippets=True).splitlines()  # type: ignore[arg-type]
    assert lines[0] == "mine (1 pages, snippet metric)"
    header = lines[1].split()
    assert header[3:7] == ["F1", "conf>=0.8", "F1|conf", "AUROC"]
    rows = {line.split()[0]: line.split() for line in lines[3:]}
    assert rows["default"][4:7] == ["0.500", "1.000", "1.000"]
    assert rows["peer"][4:7] == rows["gate"][4:7] == ["–", "–", "–"]


def test_the_trafilatura_peers_pass_their_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, object]] = []

    def extract(html: str, **settings: object) -> None:
        calls.append(settings)  # and extracts nothing: None becomes ""

    monkeypatch.setitem(sys.modules, "trafilatura", SimpleNamespace(extract=extract))
    names = ("trafilatura", "trafilatura-precision", "trafilatura-defaults")
    names += ("trafilatura-defaults-precision",)
    assert all(PEERS[name]()("<p>x</p>", "https://a.example/") == "" for name in names)
    # (include_comments, include_tables, favor_precision); trafilatura's defaults: True, True, False
    expected = [(False, True, False), (False, True, True), (True, True, False), (True, True, True)]
    assert [
        (call["include_comments"], call["include_tables"], call["favor_precision"])
        for call in calls
    ] == expected
    assert all(call["url"] == "https://a.example/" for call in calls)


def test_the_command_on_the_new_datasets_writes_what_the_scorers_read(
    shared_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    reference: ModuleType,
) -> None:
    """A stand-in peer returning the whole page finds every snippet of many pages: the pages
    our methods miss there are the wrong-region pages, as the per-page files say. (It takes
    a real peer's name: the command accepts only those.)"""
    registry = {"boilerpy3": lambda: lambda html, url: html}
    monkeypatch.setattr(eval_command, "load_peers", partial(load_peers, registry=registry))
    argv = ["eval", "--dataset", "trafilatura_dev", "readability", "--limit", "12"]
    argv += ["--peers", "boilerpy3", "--shared", str(shared_dir), "--out", str(tmp_path)]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        assert main(argv) == 0, stderr.getvalue()
    assert "trafilatura_dev (12 pages, snippet metric)" in stdout.getvalue()
    assert "wrong region (none of the page's" in stdout.getvalue()
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))
    part = summary["datasets"]["trafilatura_dev"]
    assert (
        part["metric"] == "snippets" and summary["datasets"]["readability"]["metric"] == "token F1"
    )
    assert part["extractors"]["boilerpy3"]["calibration"] is None
    gold = json.loads((tmp_path / "trafilatura_dev/gold.json").read_text("utf-8"))
    predictions = json.loads((tmp_path / "trafilatura_dev/default.predictions.json").read_text())
    expected, _ = reference.evaluate(
        gold, {key: value["body"] for key, value in predictions.items()}
    )
    assert part["extractors"]["default"]["all"]["f1"] == expected["f1"]

    def pages(name: str) -> list[dict[str, object]]:
        return json.loads((tmp_path / f"trafilatura_dev/{name}.pages.json").read_text("utf-8"))

    peer_found = {page["id"] for page in pages("boilerpy3") if page["fn"] == 0 and page["tp"]}
    assert peer_found  # the comparison is not empty
    regions = part["wrong_region"]
    assert regions["peer"] == "boilerpy3" and list(regions["methods"]) == ["paper", "default"]
    assert regions["methods"]["paper"]["count"] > 0  # the published method misses some
    for method, found in regions["methods"].items():
        missed = [page["id"] for page in pages(method) if page["tp"] == 0 and page["fn"]]
        assert found["ids"] == [page_id for page_id in missed if page_id in peer_found]
        assert found["share"] == found["count"] / 12


def test_a_headline_first_gold_scores_the_title_with_the_body(tmp_path: Path) -> None:
    """dragnet_dev's gold is copied from the rendered page headline first: our methods are
    scored on their own title + body, a peer on the default method's title + its body."""
    paragraph = "The council voted on Tuesday to keep the library open on weekends. " * 4
    html = (
        "<html><head><title>Library stays open - Town News</title></head><body>"
        f"<h1>Library stays open</h1><p>{paragraph}</p></body></html>"
    )
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "a.html.gz").write_bytes(gzip.compress(html.encode()))
    gold = {"a": {"body": f"Library stays open\n{paragraph}", "scored_text": "title+body"}}
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    dataset = load_dataset(str(tmp_path))
    assert dataset.pages[0].title_first
    texts = decode_pages(dataset)
    titles = runner.default_titles(dataset)
    assert titles == ["Library stays open"]
    ours = run_extractor(method_extractor("default"), dataset, texts, titles)[0]
    assert ours.prediction.startswith("Library stays open\n") and ours.score.f1 == 1.0
    body_only = Extractor("peer", lambda page, text: Extraction(paragraph))
    peer = run_extractor(body_only, dataset, texts, titles)[0]
    assert peer.prediction == f"Library stays open\n{paragraph}" and peer.score.f1 == 1.0
    # the same page with a body-only gold is scored on the body alone
    (tmp_path / "gold.json").write_text(json.dumps({"a": {"body": paragraph}}), encoding="utf-8")
    plain = load_dataset(str(tmp_path))
    assert runner.default_titles(plain) is None
    assert run_extractor(body_only, plain, texts)[0].prediction == paragraph


def test_dragnet_dev_is_a_named_headline_first_dataset(shared_dir: Path) -> None:
    dragnet = load_dataset("dragnet_dev", shared_dir, limit=5)
    assert len(dragnet.pages) == 5 and all(page.title_first for page in dragnet.pages)
    assert all(isinstance(page.gold, str) and page.gold for page in dragnet.pages)
