"""Fingerprint benchmark: the cost of `simhash` and `content_hash` per body, and
how well the simhash finds edited copies of an article.

    .venv/bin/python bench/bench_fingerprint.py [--shared ../shared] [--runs 7] [--duplicates]

Timing: bodies of 1,000 / 5,000 / 20,000 characters cut from the zh_cwce articles run
together (generated Chinese-looking text where ../shared is absent). Each run calls the
function enough times to take about 0.1 s and keeps the mean per call; the table gives the
min and median of ``--runs`` runs in milliseconds, for the current `simhash`, the baseline
(`baseline_simhash`, the implementation before the XXH64 shingles) and `content_hash`.

``--duplicates`` runs `duplicate_finding` instead on zh_cwce (skipped where it is absent): the share
of edited copies the store's lookup finds (a key in common and at most N bits apart) and
how close two different articles come, the figures of the `newscrawl.fingerprint`
docstring. It compares the store's keys (`lookup_keys`, since migration 0005) with the 4
bands of 16 bits before them, for the current simhash and the baseline.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import combinations
from pathlib import Path

from recorded import recorded

from newscrawl.fingerprint import (
    MIN_FINGERPRINT_CHARS,
    SHINGLE_CHARS,
    content_hash,
    hamming,
    lookup_keys,
    normalise,
    simhash,
)

ROOT = Path(__file__).resolve().parents[1]
SIZES = (1_000, 5_000, 20_000)
LIMITS = (6, 3)
RUN_SECONDS = 0.1


# --- BASELINE: `simhash` before the XXH64 shingles (a blake2b call per shingle), to compare.
_LANE = 32
_SPREAD: tuple[int, ...] = tuple(
    sum(1 << (bit * _LANE) for bit in range(8) if value >> bit & 1) for value in range(256)
)


def baseline_simhash(body: str) -> int | None:
    """BASELINE, not used by newscrawl: the simhash over blake2b-8 of each UTF-8 shingle."""
    text = normalise(body)
    if len(text) < MIN_FINGERPRINT_CHARS:
        return None
    shingles = {text[i : i + SHINGLE_CHARS] for i in range(len(text) - SHINGLE_CHARS + 1)}
    blake = hashlib.blake2b
    digests = b"".join([blake(s.encode(), digest_size=8).digest() for s in shingles])
    half = len(shingles) / 2
    lane_mask = (1 << _LANE) - 1
    fingerprint = 0
    for byte in range(8):
        lanes = sum(_SPREAD[value] * n for value, n in Counter(digests[byte::8]).items())
        for bit in range(8):
            if (lanes >> (bit * _LANE)) & lane_mask > half:
                fingerprint |= 1 << (byte * 8 + bit)
    return fingerprint


# --- END OF BASELINE


def load_articles(shared: Path) -> list[str]:
    """The zh_cwce article bodies (gold text), or none where the data set is absent."""
    cleaned = shared / "datasets" / "zh_cwce" / "cleaned"
    if not cleaned.is_dir():
        return []
    return [path.read_text(encoding="utf-8") for path in sorted(cleaned.glob("*.txt"))]


def generated_text(chars: int) -> str:
    """Deterministic Chinese-looking text with a full stop every 37 characters."""
    alphabet = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同"
    state = 17
    out = []
    for i in range(chars):
        state = (state * 1103515245 + 12345) % (1 << 31)
        out.append("。" if i % 37 == 36 else alphabet[state % len(alphabet)])
    return "".join(out)


def timed(function: Callable[[str], object], body: str, runs: int) -> tuple[float, float]:
    """Min and median over `runs` of the mean milliseconds per call, each call on a body
    it has not seen: `content_hash` and `normalise` keep their last few results (the store
    hashes the body extraction hashed), and timing one body again would time that cache."""
    start = time.perf_counter()
    function(body + "首")
    calls = max(1, int(RUN_SECONDS / max(time.perf_counter() - start, 1e-6)))
    means = []
    for run in range(runs):
        bodies = [f"{body}{run}-{call}" for call in range(calls)]
        start = time.perf_counter()
        for each in bodies:
            function(each)
        means.append((time.perf_counter() - start) / calls * 1000)
    return min(means), statistics.median(means)


def timing_table(text: str, runs: int) -> None:
    """Print min / median ms per call for each function and body size."""
    functions: dict[str, Callable[[str], object]] = {
        "simhash": simhash,
        "baseline simhash": baseline_simhash,
        "content_hash": content_hash,
    }
    print(f"| function | {' | '.join(f'{size:,} chars' for size in SIZES)} |")
    print(f"| --- |{' --- |' * len(SIZES)}")
    for name, function in functions.items():
        cells = []
        for size in SIZES:
            fastest, median = timed(function, text[:size], runs)
            cells.append(f"{fastest:.3f} / {median:.3f}")
        print(f"| {name} | {' | '.join(cells)} |")
    print("(ms per call, min / median of the runs)")


SOURCES = ("来源：新华社", "来源：人民日报", "（来源：中国新闻网）")
BYLINES = (
    ("本报记者 张三 李四", "（责任编辑：王五）"),
    ("记者 刘洋", "编辑：陈静"),
    ("文/赵敏", "责编 孙磊"),
)
REWRITTEN_AT = (0.1, 0.3, 0.5, 0.7, 0.9)
"""Where in the article (share of its sentences) a sentence is rewritten, one copy each."""
SENTENCE = re.compile(r"[^。！？\n]+[。！？]")


def edits(text: str) -> list[tuple[str, str]]:
    """Edited copies of an article as syndication makes them, as (kind of edit, copy).

    A sentence is rewritten by reversing it (its end mark stays), which replaces all of its
    shingles, as a rewording does.
    """
    copies = [("source line added", f"{source}\n{text}") for source in SOURCES]
    copies += [("byline and editor line", f"{by}\n{text}\n{ed}") for by, ed in BYLINES]
    sentences = SENTENCE.findall(text)
    for at in REWRITTEN_AT if sentences else ():
        sentence = sentences[int(at * len(sentences))]
        rewritten = sentence[-2::-1] + sentence[-1]
        copies.append(("one sentence rewritten", text.replace(sentence, rewritten, 1)))
    copies.append(("last 5% cut", text[: len(text) * 19 // 20]))
    return copies


def duplicate_finding(
    fingerprint: Callable[[str], int | None],
    articles: list[str],
    keys: Callable[[int], Iterable[int]],
) -> tuple[dict[str, dict[int, float]], dict[str, int], int, int]:
    """Per kind of edit and bit limit, the share of copies the lookup by `keys` finds; the
    number of copies of each kind; the smallest distance between two different articles;
    how many pairs of different articles share a key (the store's candidates for a false
    twin).

    Found means what the store requires: a key in common and at most `limit` bits apart.
    """

    def share(a: int, b: int) -> bool:
        return not set(keys(a)).isdisjoint(keys(b))

    originals = [fp for text in articles if (fp := fingerprint(text)) is not None]
    hits: dict[str, dict[int, int]] = {}
    copies: Counter[str] = Counter()
    for text in articles:
        original = fingerprint(text)
        if original is None:
            continue
        for kind, copy in edits(text):
            edited = fingerprint(copy)
            assert edited is not None
            copies[kind] += 1
            for limit in LIMITS:
                found = share(original, edited) and hamming(original, edited) <= limit
                hits.setdefault(kind, dict.fromkeys(LIMITS, 0))[limit] += found
    pairs = list(combinations(originals, 2))
    closest = min(hamming(a, b) for a, b in pairs)
    candidates = sum(share(a, b) for a, b in pairs)
    shares = {
        kind: {limit: n / copies[kind] for limit, n in by_limit.items()}
        for kind, by_limit in hits.items()
    }
    return shares, dict(copies), closest, candidates


def bands(fingerprint: int) -> list[int]:
    """The lookup keys before migration 0005: the fingerprint cut in 4 bands of 16 bits,
    tagged by position."""
    return [i << 16 | (fingerprint >> (16 * i)) & 0xFFFF for i in range(4)]


LOOKUPS: dict[str, Callable[[int], Iterable[int]]] = {
    "14 keys of 32 bits (the store's)": lookup_keys,
    "4 bands of 16 bits (before 0005)": bands,
}


def duplicate_report(articles: list[str]) -> None:
    """Print `duplicate_finding` for the current simhash and the baseline."""
    lengths = sorted(len(normalise(text)) for text in articles)
    print(f"\n{len(articles)} zh_cwce articles, median {lengths[len(lengths) // 2]:,} chars")
    limits = " | ".join(f"found at <= {limit} bits" for limit in LIMITS)
    for name, function in (("simhash", simhash), ("baseline simhash", baseline_simhash)):
        for lookup, keys in LOOKUPS.items():
            shares, copies, closest, candidates = duplicate_finding(function, articles, keys)
            print(f"\n{name}, {lookup}\n\n| edit | copies | {limits} |")
            print(f"| --- | --- |{' --- |' * len(LIMITS)}")
            for kind, by_limit in shares.items():
                found = " | ".join(f"{by_limit[limit]:.0%}" for limit in LIMITS)
                print(f"| {kind} | {copies[kind]} | {found} |")
            print(f"\ntwo different articles: never closer than {closest} bits")
            print(f"pairs of different articles sharing a key: {candidates}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per cell")
    parser.add_argument(
        "--duplicates", action="store_true", help="measure the edited copies instead"
    )
    args = parser.parse_args(argv)
    articles = load_articles(args.shared)
    if args.duplicates:
        with recorded("fingerprint-duplicates", "Near-duplicate keys against edited copies"):
            if not articles:
                print(f"zh_cwce not found under {args.shared}: duplicate finding skipped")
                return 1
            duplicate_report(articles)
        return 0
    with recorded("fingerprint", "Fingerprints in bulk: simhash and content hash per body"):
        text = "".join(normalise(article) for article in articles)
        if len(text) < max(SIZES):
            print("zh_cwce absent: timing generated text")
            text = generated_text(max(SIZES))
        else:
            print("timing text cut from the zh_cwce articles run together")
        timing_table(text, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
