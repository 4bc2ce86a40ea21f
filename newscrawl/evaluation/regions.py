"""Wrong-region pages: where our method took another part of the page than the article.

A page where we score (next to) nothing while the best peer of the run gets (nearly) all of
it is not a hard page but a wrong choice of region, the kind of failure worth a look one by
one; so these pages are listed by id rather than folded into an average.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from newscrawl.evaluation.runner import PageResult


class WrongRegion(TypedDict):
    count: int
    share: float
    """Of the dataset's pages."""
    ids: list[str]


class WrongRegionReport(TypedDict):
    peer: str
    """The peer compared with: the run's best by dataset F1."""
    methods: dict[str, WrongRegion]


def wrong_region_pages(ours: Sequence[PageResult], peer: Sequence[PageResult]) -> WrongRegion:
    """Pages our extraction `missed` where the peer's `found` the article."""
    ids = [
        mine.page.id
        for mine, theirs in zip(ours, peer, strict=True)
        if mine.score.missed and theirs.score.found
    ]
    return {"count": len(ids), "share": len(ids) / len(ours) if ours else 0.0, "ids": ids}


def wrong_regions(
    results: Mapping[str, Sequence[PageResult]],
    f1: Mapping[str, float],
    methods: Sequence[str],
    peers: Sequence[str],
) -> WrongRegionReport | None:
    """Each of our `methods` against the peer with the best `f1`; None when no peer ran."""
    if not peers:
        return None
    best = max(peers, key=lambda name: f1[name])
    return {
        "peer": best,
        "methods": {
            method: wrong_region_pages(results[method], results[best]) for method in methods
        },
    }
