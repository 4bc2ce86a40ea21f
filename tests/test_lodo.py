"""The leave-one-dataset-out bench (bench/lodo.py): its selection worked out by hand on a
small table of scores, and one short real run that must score as ``newscrawl eval`` does."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_bench

from newscrawl.evaluation.datasets import load_dataset
from newscrawl.evaluation.runner import (
    decode_pages,
    method_extractor,
    run_extractor,
    summarize,
)

# A parameter at three values on three datasets: 1 is the default, 0 the neutral value.
TABLE = {
    0: {"a": 0.50, "b": 0.60, "c": 0.70},
    1: {"a": 0.80, "b": 0.60, "c": 0.90},
    2: {"a": 0.70, "b": 0.90, "c": 0.80},
}
"""Means over the others: without a, 1 -> 0.75 and 2 -> 0.85; without b, 1 -> 0.85 and
2 -> 0.75; without c, 1 -> 0.70 and 2 -> 0.80."""


@pytest.fixture(scope="module")
def lodo() -> ModuleType:
    return load_bench("lodo")


def test_choose_on_others_takes_the_best_mean_of_the_other_datasets(lodo: ModuleType) -> None:
    assert lodo.choose_on_others(TABLE, "a", 1) == 2
    assert lodo.choose_on_others(TABLE, "b", 1) == 1
    assert lodo.choose_on_others(TABLE, "c", 1) == 2


def test_a_tie_goes_to_the_default(lodo: ModuleType) -> None:
    table = {0: {"a": 0.5, "b": 0.9}, 1: {"a": 0.1, "b": 0.9}, 2: {"a": 0.7, "b": 0.9}}
    assert lodo.choose_on_others(table, "a", 1) == 1
    assert lodo.choose_on_others(table, "b", 1) == 2


def test_a_margin_keeps_the_default_against_small_gains(lodo: ModuleType) -> None:
    # Without a, 2 beats the default 1 by 0.10 on the others' mean (0.85 vs 0.75).
    assert lodo.choose_on_others(TABLE, "a", 1, margin=0.05) == 2
    assert lodo.choose_on_others(TABLE, "a", 1, margin=0.15) == 1
    # In-sample (no dataset left out): 1 -> 0.7667, 2 -> 0.80.
    assert lodo.choose_on_others(TABLE, None, 1) == 2


def test_held_out_gain_is_against_the_neutral_value(lodo: ModuleType) -> None:
    assert lodo.held_out_gain(TABLE, "a", 2, 0) == pytest.approx(0.20)
    assert lodo.held_out_gain(TABLE, "b", 1, 0) == pytest.approx(0.0)
    assert lodo.held_out_gain(TABLE, "c", 2, 0) == pytest.approx(0.10)
    # The held-out scores at the chosen values (0.7, 0.6, 0.8) average 0.70, against an
    # in-sample mean of the default's 0.7667: chosen on the others, the value does worse.
    held_out = {name: TABLE[lodo.choose_on_others(TABLE, name, 1)][name] for name in "abc"}
    assert lodo.lodo_mean(held_out) == pytest.approx(0.70)


def test_a_rule_is_kept_unless_it_hurts_the_others(lodo: ModuleType) -> None:
    on = {"a": 0.9, "b": 0.6, "c": 0.8}
    off = {"a": 0.8, "b": 0.8, "c": 0.8}
    # Without a: on 0.70 vs off 0.80, lowered: dropped, gain 0. Without b: on 0.85 vs off
    # 0.80, kept, b loses 0.2. Without c: on 0.75 vs off 0.80, dropped, gain 0.
    assert [lodo.keep_on_others(on, off, name) for name in "abc"] == [False, True, False]
    gains = {name: lodo.rule_gain(on, off, name) for name in "abc"}
    assert gains == pytest.approx({"a": 0.0, "b": -0.2, "c": 0.0})
    assert lodo.candidate_to_remove(gains)


def test_a_rule_that_moves_only_its_own_dataset_is_credited_there(lodo: ModuleType) -> None:
    """A tie on the others keeps the rule, as a tie keeps a parameter's default."""
    on = {"a": 0.9, "b": 0.8, "c": 0.8}
    off = {"a": 0.8, "b": 0.8, "c": 0.8}
    assert all(lodo.keep_on_others(on, off, name) for name in "abc")
    gains = {name: lodo.rule_gain(on, off, name) for name in "abc"}
    assert gains == pytest.approx({"a": 0.1, "b": 0.0, "c": 0.0})
    assert not lodo.candidate_to_remove(gains)
    assert lodo.candidate_to_remove({"a": 0.0, "b": 0.0009})


def test_a_margin_keeps_a_rule_that_costs_the_others_a_few_pages(lodo: ModuleType) -> None:
    on = {"a": 0.9, "b": 0.795, "c": 0.8}
    off = {"a": 0.8, "b": 0.8, "c": 0.8}
    # Without a, dropping the rule raises the others' mean by 0.0025: under a margin of
    # 0.005 the rule stays and a is credited its 0.1; with no margin it goes.
    assert lodo.keep_on_others(on, off, "a", margin=0.005)
    assert not lodo.keep_on_others(on, off, "a")
    assert lodo.rule_gain(on, off, "a", margin=0.005) == pytest.approx(0.1)
    assert lodo.rule_gain(on, off, "a") == pytest.approx(0.0)
    assert not lodo.keep_on_others(on, off, "a", margin=0.001)


def test_every_grid_holds_its_default_and_names_a_parameter(lodo: ModuleType) -> None:
    from newscrawl.extract import Options, default

    assert set(lodo.GRIDS) == set(default.PARAMETERS)
    for name in lodo.GRIDS:
        values = lodo.grid_values(name)
        assert getattr(Options(), name) in values
        assert lodo.GRIDS[name].neutral in values
        for value in values:
            Options(**{name: value})  # each value is valid


def test_a_short_run_scores_as_the_eval_does(
    lodo: ModuleType, shared_dir: Path, tmp_path: Path
) -> None:
    names = ["trafilatura_dev", "dragnet_dev"]
    out = tmp_path / "lodo.json"
    args = ["--limit", "3", "--datasets", *names, "--params", "line_cost"]
    args += ["--rules", "headline_drop", "--out", str(out), "--cache", str(tmp_path / "c.json")]
    args += ["--shared", str(shared_dir)]
    lodo.main(args)
    result = json.loads(out.read_text("utf-8"))
    assert result["datasets"] == names
    assert set(result["parameters"]) == {"line_cost"}
    assert set(result["rules"]) == {"headline_drop"}
    parameter = result["parameters"]["line_cost"]
    assert parameter["default"] in parameter["values"]
    assert set(parameter["folds"]) == set(names)
    assert set(result["rules"]["headline_drop"]["folds"]) == set(names)
    whole = result["whole_method"]
    assert set(whole["lodo"]) == set(names)
    for name in names:
        dataset = load_dataset(name, shared_dir, 3)
        results = run_extractor(method_extractor("default"), dataset, decode_pages(dataset))
        assert whole["in_sample"][name] == summarize(results)["f1"]
        assert parameter["folds"][name]["at_default"] == summarize(results)["f1"]


def test_switching_the_headline_drop_off_keeps_the_headline_in_the_body(
    lodo: ModuleType,
) -> None:
    from newscrawl.extract import Options, extract

    paragraph = "The council voted on Tuesday to widen the river path, after a long debate. " * 4
    html = (
        "<html><head><title>River path widened</title></head><body><article>"
        f"<p>{paragraph}</p><h2>River path widened</h2><p>{paragraph}</p>"
        "</article></body></html>"
    ).encode()
    options = Options(with_metadata=False)
    assert "River path widened" not in extract(html, options=options).body
    with lodo.rule_config(lodo.RULES_BY_NAME["headline_drop"]).patched():
        body = extract(html, options=options).body
    assert body.splitlines()[1] == "River path widened"
