"""Extraction quality and speed of our methods and the peers on the six dev sets: one run of
``newscrawl eval`` with every method and every installed peer.

    python bench/bench_quality.py [any `newscrawl eval` option, e.g. --dataset zh_cwce]

Token F1 (snippet F1 on trafilatura_dev) with its bootstrap spread, success and empty
rates, the paper's page-level precision and recall, confidence figures and pages/s, per
dataset and per site, then the pages where our methods took the wrong region while the
best peer found the article (docs/scoring.md says how each is computed). The peers' versions
come first. Per-page scores and predictions go to bench/results/ as the eval writes them.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, version

from recorded import recorded

from newscrawl.cli import main as newscrawl
from newscrawl.evaluation.peers import PEERS


def distribution(peer: str) -> str:
    """The package a peer of `newscrawl.evaluation.peers` comes from: trafilatura's four
    settings are one package."""
    return "trafilatura" if peer.startswith("trafilatura") else peer


def peer_versions() -> str:
    """A line naming each peer package with its installed version (or that it is missing)."""
    shown = []
    for package in dict.fromkeys(distribution(peer) for peer in PEERS):
        try:
            shown.append(f"{package} {version(package)}")
        except PackageNotFoundError:
            shown.append(f"{package} (not installed)")
    return "Peers: " + ", ".join(shown) + "."


def main(argv: list[str]) -> int:
    with recorded("quality", "Extraction quality against the peers"):
        print(peer_versions() + "\n")
        return newscrawl(["eval", "--peers", "all", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
