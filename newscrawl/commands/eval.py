"""``newscrawl eval``: score our methods and the installed peers on the same pages.

Every extractor runs in the same process on the same machine in one run, so the speed
ratios compare even where absolute times are noisy. Scores follow `docs/scoring.md` and
equal the reference ``shared/eval/score.py`` on the same predictions (``snippets.py`` on the
snippet gold of trafilatura_dev).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from newscrawl.commands import UsageError, write_utf8
from newscrawl.evaluation.calibration import BAD_PAGE_F1, CONFIDENT
from newscrawl.evaluation.chart import draw_chart
from newscrawl.evaluation.datasets import NAMED_DATASETS, Dataset, load_dataset
from newscrawl.evaluation.peers import PEERS, load_peers
from newscrawl.evaluation.regions import wrong_regions
from newscrawl.evaluation.report import (
    ExtractorSummary,
    format_tables,
    format_wrong_regions,
    gold_input,
    page_records,
    scorer_input,
    write_json,
)
from newscrawl.evaluation.runner import (
    Extractor,
    PageResult,
    decode_pages,
    default_titles,
    method_extractor,
    peer_extractor,
    run_extractor,
    summarize,
    summarize_calibration,
    summarize_sites,
)
from newscrawl.extract import METHODS

DEFAULT_OUT = Path("bench/results")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``eval`` parser and its handler."""
    parser = subparsers.add_parser(
        "eval",
        help="score our extraction methods and the installed peer extractors on datasets",
        description=(
            "Extract every page of each dataset with our methods and the peers, and print "
            "token-shingle precision, recall and F1 (snippet counts on trafilatura_dev; with "
            "bootstrap std), how well our methods' confidence predicts page F1 (share of pages "
            f"at confidence >= {CONFIDENT}, their mean page F1, AUROC for pages under F1 "
            f"{BAD_PAGE_F1}), success and empty rates, the paper's page-level precision and "
            "recall, and pages/s and MB/s of the extraction call alone; per site where the "
            "dataset has sites. Then the pages where our methods took the wrong region while "
            "the best peer found the article. Writes per-page scores, predictions, a summary "
            "JSON and a PNG chart per dataset into --out."
        ),
        epilog=f"peers: {', '.join(PEERS)}. A peer that is not installed is named on "
        "stderr and skipped (pip install 'newscrawl[bench]' installs them).",
    )
    parser.add_argument(
        "--dataset",
        nargs="+",
        default=list(NAMED_DATASETS),
        metavar="NAME|DIR",
        help=f"{', '.join(NAMED_DATASETS)} (from --shared), or a folder laid out like one "
        "of them, e.g. zh_cwce (original/*.html + cleaned/*.txt) (default: all six)",
    )
    parser.add_argument(
        "--method",
        type=_methods,
        default=METHODS,
        metavar="M[,M]",
        help=f"comma-separated methods of ours among {','.join(METHODS)} (default: all)",
    )
    parser.add_argument(
        "--peers",
        type=_peers,
        default=tuple(PEERS),
        metavar="PEER[,PEER]|all|none",
        help="comma-separated peers, 'all' or 'none' (default: all)",
    )
    parser.add_argument(
        "--shared",
        type=Path,
        metavar="PATH",
        help="the shared folder holding datasets/ (default: ../shared from the working "
        "directory, else from the project root)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        default=DEFAULT_OUT,
        help="folder for the JSON files and charts (default: %(default)s)",
    )
    parser.add_argument(
        "--limit", type=_positive_int, metavar="N", help="score only the first N pages of each"
    )
    parser.set_defaults(func=run)


def _comma_list(value: str, known: tuple[str, ...], what: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip() for name in value.split(",") if name.strip()))
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown {what} {', '.join(unknown) or repr(value)}; choose from {', '.join(known)}"
        )
    return names


def _methods(value: str) -> tuple[str, ...]:
    return _comma_list(value, METHODS, "method")


def _peers(value: str) -> tuple[str, ...]:
    if value == "all":
        return tuple(PEERS)
    if value == "none":
        return ()
    return _comma_list(value, tuple(PEERS), "peer")


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def run(args: argparse.Namespace) -> int:
    """Load datasets and peers, run everything, print the tables, write the files."""
    try:
        datasets = [load_dataset(name, args.shared, args.limit) for name in args.dataset]
    except FileNotFoundError as error:
        raise UsageError(str(error)) from error
    for dataset in datasets:
        if not dataset.pages:
            raise UsageError(f"{dataset.path} holds no page with gold to score")
    if len({dataset.name for dataset in datasets}) < len(datasets):
        raise UsageError("two datasets have the same folder name; their results would collide")
    peers, missing = load_peers(args.peers)
    for name, reason in missing.items():
        print(f"newscrawl eval: peer {name} skipped: cannot import it ({reason})", file=sys.stderr)
    extractors = [method_extractor(method) for method in args.method]
    extractors += [peer_extractor(name, peer) for name, peer in peers.items()]

    summary: dict[str, object] = {
        "datasets": {
            dataset.name: _evaluate_dataset(dataset, extractors, args.method, args.out)
            for dataset in datasets
        },
        "methods": list(args.method),
        "peers": list(peers),
        "missing_peers": missing,
        "limit": args.limit,
    }
    write_json(args.out / "summary.json", summary)
    print(f"newscrawl eval: results in {args.out}", file=sys.stderr)
    return 0


def _evaluate_dataset(
    dataset: Dataset, extractors: list[Extractor], methods: tuple[str, ...], out: Path
) -> dict[str, object]:
    """Run, score and report one dataset; returns its part of the summary JSON.

    `methods` names the extractors that are ours: the wrong-region pages are theirs.
    """
    texts = decode_pages(dataset)
    peers_run = any(extractor.name not in methods for extractor in extractors)
    titles = default_titles(dataset) if peers_run else None
    folder = out / dataset.name
    snippets = dataset.snippet_gold
    summaries: dict[str, ExtractorSummary] = {}
    results_by_name: dict[str, list[PageResult]] = {}
    for extractor in extractors:
        start = time.perf_counter()
        results = run_extractor(extractor, dataset, texts, titles)
        results_by_name[extractor.name] = results
        summaries[extractor.name] = {
            "all": summarize(results),
            "sites": summarize_sites(results),
            "calibration": summarize_calibration(results),
        }
        write_json(folder / f"{extractor.name}.pages.json", page_records(results))
        predictions = {result.page.id: result.prediction for result in results}
        write_json(
            folder / f"{extractor.name}.predictions.json",
            scorer_input(predictions, snippets=snippets),
        )
        print(
            f"newscrawl eval: {dataset.name}: {extractor.name} done "
            f"({time.perf_counter() - start:.1f} s)",
            file=sys.stderr,
        )
    write_json(folder / "gold.json", gold_input(dataset.pages))
    write_utf8(format_tables(dataset.name, summaries, snippets=snippets) + "\n\n")
    regions = wrong_regions(
        results_by_name,
        {name: summary["all"]["f1"] for name, summary in summaries.items()},
        methods=[name for name in results_by_name if name in methods],
        peers=[name for name in results_by_name if name not in methods],
    )
    if regions is not None:
        write_utf8(format_wrong_regions(regions, snippets=snippets) + "\n\n")
    try:
        draw_chart(dataset.name, summaries, out / f"{dataset.name}.png")
    except ImportError as error:  # matplotlib comes with the bench extra only
        print(
            f"newscrawl eval: chart skipped ({error}); pip install 'newscrawl[bench]'",
            file=sys.stderr,
        )
    return {
        "path": str(dataset.path),
        "pages": len(dataset.pages),
        "metric": "snippets" if snippets else "token F1",
        "extractors": summaries,
        "wrong_region": regions,
    }
