"""Metadata benchmark: publication time and author/source against the gold of zh_cwce and
the `sites` set, ours side by side with htmldate, trafilatura and GNE (when installed).

    .venv/bin/python bench/bench_metadata.py [--shared ../shared] [--repeat 3]

Date scoring (per page with a gold date): *correct* when ours equals the gold to the minute
(gold with a time) or to the day/month/year (gold with only those); ours counts only as far
as its precision goes (a "month" value is compared to the month, a "day" one to the day), so
*coarse* is ours agreeing with a more precise gold as far as it goes (a day for a gold with a
time, a month for a gold with a day); *wrong* otherwise; *missing* when we
give none. Pages whose gold says there is no date: *absent ok* when we give none,
*spurious* when we give one. Gold values that are not dates (e.g. a name) are skipped.
Author scoring (pages with a gold author): *match* when at least one gold name, with
spaces and punctuation removed, is contained in our author or source (same
normalisation); *all* when every gold name is. Titles (the sites set, whose gold has them):
the default method's title equal to the gold after whitespace normalisation.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml.html import document_fromstring

from newscrawl.extract import Options, extract
from newscrawl.extract.decode import decode_html
from newscrawl.extract.metadata import SHANGHAI, extract_metadata

ROOT = Path(__file__).resolve().parents[1]
GOLD_DATE_RE = re.compile(
    r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[ T](\d{1,2})[-:](\d{2})(?:[-:](\d{2}))?)?)?)?$"
)
_NAME_NOISE_RE = re.compile(r"[\s\u3000、,，;；%·•&()（）\[\]【】:：/]+")
ABSENT = {"UNKNOWN", "UNKNWON", "NONE", "NULL"}
PRECISION_FIELDS = {"month": 2, "day": 3}
"""How many of (y, m, d, H, M) a value of that precision fixes (all five otherwise)."""
GOLD_ISSUES = {
    (
        "05e98007",
        "date",
    ): "page says 发布日期 7/5/2005 9:23:57 PM (US order, the text reports 2005-07-03); "
    "gold swapped month and day",
    ("0ef8393b", "date"): "same instant: gold is the page's Paris wall clock (13:48 CET = 12:48Z), "
    "we report it in Shanghai time (20:48)",
    ("c3f7d079", "date"): "gold is the 2003年5月 report date in the body; the portal byline says "
    "2005-03-06 16:17:00",
    ("d5bced5e", "date"): "Wikipedia: gold is a maintenance-notice date "
    "(此条目需要补充更多来源 2020年4月17日); "
    "JSON-LD datePublished is 2011-06-17",
    (
        "e8847578",
        "date",
    ): "government notice: gold is 成文日期 (written 01-27), the page's 发布日期 and meta "
    "PubDate are 01-28",
    ("274a65d9", "date"): "gold says no date; the e-paper page shows its issue date 2022年02月12日",
    (
        "6dc2d508",
        "date",
    ): "gold says no date; the forum's first post shows 时间：2005-08-28 20:56:20",
    (
        "2bac7fb2",
        "author",
    ): "gold author is the editor (编辑：山石); editors fill `editor`, not `author`",
    ("33a95b71", "author"): "gold author is the editor (责任编辑：魏喆)",
    ("500b350d", "author"): "gold author is the editor (编辑：苏亮)",
    ("8baa71e3", "author"): "gold author is the editor (责任编辑：刘林源)",
}
"""Misses we judge to be gold defects or conventions (checked by hand against the page), shown
next to the failure so that they are not mistaken for extractor bugs."""


@dataclass(frozen=True)
class Page:
    name: str
    text: str
    url: str | None
    gold_date: str | None
    """Raw gold value; None when the gold says the page has no date."""
    gold_author: str | None
    gold_title: str | None = None


@dataclass(frozen=True)
class Guess:
    fields: tuple[int, ...] | None
    """(y, m[, d[, H, M]]) of the guessed time, as far as its precision goes, or None."""
    author: str = ""


@dataclass
class Score:
    correct: int = 0
    coarse: int = 0
    wrong: int = 0
    missing: int = 0
    absent_ok: int = 0
    spurious: int = 0
    skipped: int = 0
    author_total: int = 0
    author_match: int = 0
    author_all: int = 0
    seconds: float = 0.0
    pages: int = 0
    failures: list[str] = field(default_factory=list)


def load_zh_cwce(shared: Path) -> list[Page]:
    base = shared / "datasets" / "zh_cwce"
    pages = []
    for path in sorted((base / "original").glob("*.html")):
        date = (base / "date" / f"{path.stem}.txt").read_text("utf-8").strip()
        author = (base / "author" / f"{path.stem}.txt").read_text("utf-8").strip()
        pages.append(
            Page(
                path.stem[:8],
                decode_html(path.read_bytes()).text,
                None,
                None if date.upper() in ABSENT else date,
                None if author.upper() in ABSENT or not author else author,
            )
        )
    return pages


def load_sites(shared: Path) -> list[Page]:
    base = shared / "datasets" / "sites"
    pages = []
    for gold_path in sorted((base / "gold").glob("*-article-*.json")):
        gold = json.loads(gold_path.read_text("utf-8"))
        site, _, number = gold_path.stem.rpartition("-article-")
        path = next((base / "pages" / site).glob(f"article-{number}.html*"))
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        pages.append(
            Page(
                gold_path.stem,
                decode_html(data).text,
                gold.get("url"),
                gold.get("published"),
                gold.get("author"),
                gold.get("title"),
            )
        )
    return pages


def gold_fields(value: str) -> tuple[int, ...] | None:
    match = GOLD_DATE_RE.match(value.strip())
    if not match:
        return None
    parts = [int(p) for p in match.groups()[:5] if p is not None]
    return tuple(parts)


def names(value: str) -> list[str]:
    return [
        n for n in (_NAME_NOISE_RE.sub("", part) for part in re.split(r"[\s、,，]+", value)) if n
    ]


def score(
    pages: list[Page], guess: Callable[[Page], Guess], repeat: int, *, peer: bool = True
) -> Score:
    """Runs `guess` on every page; a peer that raises gives nothing, ours must not raise."""
    result = Score()
    guesses = {}
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            try:
                guesses[page.name] = guess(page)
            except Exception as error:  # a peer crashing counts as giving nothing
                if not peer:
                    raise
                guesses[page.name] = Guess(None)
                result.failures.append(f"{page.name}: {type(error).__name__}")
    result.seconds = time.perf_counter() - start
    result.pages = len(pages) * repeat
    for page in pages:
        ours = guesses[page.name]
        _score_date(result, page, ours)
        if page.gold_author:
            result.author_total += 1
            have = _NAME_NOISE_RE.sub("", ours.author)
            gold = names(page.gold_author)
            hits = [name in have for name in gold] if have else [False]
            result.author_match += any(hits)
            result.author_all += all(hits)
            if not any(hits) and not peer:
                result.failures.append(
                    f"{page.name}: author: gold {page.gold_author!r} got {ours.author!r}"
                    f"{_gold_note(page, 'author')}"
                )
    return result


def _score_date(result: Score, page: Page, ours: Guess) -> None:
    if page.gold_date is None:
        if ours.fields is None:
            result.absent_ok += 1
        else:
            result.spurious += 1
            result.failures.append(
                f"{page.name}: date: gold none got {ours.fields}{_gold_note(page)}"
            )
        return
    gold = gold_fields(page.gold_date)
    if gold is None:
        result.skipped += 1
        return
    if ours.fields is None:
        result.missing += 1
        result.failures.append(f"{page.name}: date: gold {page.gold_date} got none")
    elif ours.fields[: len(gold)] == gold:
        result.correct += 1
    elif len(ours.fields) < len(gold) and ours.fields == gold[: len(ours.fields)]:
        result.coarse += 1
    else:
        result.wrong += 1
        result.failures.append(
            f"{page.name}: date: gold {page.gold_date} got {ours.fields}{_gold_note(page)}"
        )


def _gold_note(page: Page, field: str = "date") -> str:
    note = GOLD_ISSUES.get((page.name, field))
    return f"  [gold issue: {note}]" if note else ""


def ours(page: Page) -> Guess:
    meta = extract_metadata(page.text, page.url)
    author = " ".join(filter(None, (meta.author, meta.source)))
    if meta.published is None:
        return Guess(None, author)
    local = meta.published.astimezone(SHANGHAI)
    full = (local.year, local.month, local.day, local.hour, local.minute)
    return Guess(full[: PRECISION_FIELDS.get(meta.published_precision or "", 5)], author)


def _fields_from_string(value: str | None) -> tuple[int, ...] | None:
    if not value:
        return None
    match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?", str(value))
    if not match:
        return None
    parts = tuple(int(p) for p in match.groups() if p is not None)
    return parts[:3] if parts[3:] == (0, 0) else parts


def peers() -> dict[str, Callable[[Page], Guess]]:
    """The peers that are installed (the `bench` extra installs them)."""
    found: dict[str, Callable[[Page], Guess]] = {}
    try:
        from htmldate import find_date
    except ImportError:
        pass
    else:

        def htmldate_fast(page: Page) -> Guess:
            value = find_date(
                page.text,
                url=page.url,
                extensive_search=False,
                original_date=True,
                outputformat="%Y-%m-%d %H:%M",
            )
            return Guess(_fields_from_string(value))

        def htmldate_extensive(page: Page) -> Guess:
            value = find_date(
                page.text,
                url=page.url,
                extensive_search=True,
                original_date=True,
                outputformat="%Y-%m-%d %H:%M",
            )
            return Guess(_fields_from_string(value))

        found["htmldate (fast)"] = htmldate_fast
        found["htmldate (extensive)"] = htmldate_extensive
    try:
        import trafilatura
    except ImportError:
        pass
    else:

        def trafilatura_meta(page: Page) -> Guess:
            meta = trafilatura.extract_metadata(page.text, default_url=page.url)
            if meta is None:
                return Guess(None)
            author = " ".join(filter(None, (meta.author, meta.sitename)))
            return Guess(_fields_from_string(meta.date), author)

        found["trafilatura"] = trafilatura_meta
    try:
        from gne import GeneralNewsExtractor
    except ImportError:
        pass
    else:

        def gne(page: Page) -> Guess:
            result = GeneralNewsExtractor().extract(page.text)
            return Guess(
                _fields_from_string(result.get("publish_time")), result.get("author") or ""
            )

        found["GNE"] = gne
    return found


def title_misses(pages: list[Page]) -> tuple[int, list[str]]:
    """How many pages with a gold title get it exactly (whitespace normalised), and the
    misses."""
    total, misses = 0, []
    for page in pages:
        if page.gold_title is None:
            continue
        total += 1
        title = extract(page.text, page.url, options=Options(with_metadata=False)).title
        if title.split() != page.gold_title.split():
            misses.append(f"{page.name}: title: gold {page.gold_title!r} got {title!r}")
    return total, misses


def print_table(title: str, rows: dict[str, Score]) -> None:
    print(f"\n## {title}\n")
    print(
        "| extractor | dates | correct | coarse | wrong | missing | absent ok | spurious "
        "| skipped | author match | author all | pages/s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, s in rows.items():
        dated = s.correct + s.coarse + s.wrong + s.missing
        rate = f"{s.correct}/{dated} ({100 * s.correct / max(1, dated):.1f}%)"
        share = 100 * s.author_match / max(1, s.author_total)
        author = f"{s.author_match}/{s.author_total} ({share:.1f}%)"
        print(
            f"| {name} | {dated} | {rate} | {s.coarse} | {s.wrong} | {s.missing} | {s.absent_ok} "
            f"| {s.spurious} | {s.skipped} | {author} | {s.author_all} "
            f"| {s.pages / max(s.seconds, 1e-9):.0f} |"
        )


def speed(pages: list[Page], repeat: int) -> dict[str, float]:
    """Pages/s of the parse alone, of ours on text (parse included) and on a parsed tree
    (what `extract()` pays when it shares its parse with the metadata step)."""
    trees = [document_fromstring(page.text) for page in pages]
    timings: dict[str, float] = {}
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            document_fromstring(page.text)
    timings["lxml parse only"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for page in pages:
            extract_metadata(page.text, page.url)
    timings["newscrawl, from text"] = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(repeat):
        for page, tree in zip(pages, trees, strict=True):
            extract_metadata(tree, page.url)
    timings["newscrawl, from a parsed tree"] = time.perf_counter() - start
    return {name: len(pages) * repeat / seconds for name, seconds in timings.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page for pages/s (ours)")
    parser.add_argument(
        "--failures",
        action="store_true",
        help="list our wrong, missing and spurious dates and missed authors (gold issues noted)",
    )
    args = parser.parse_args(argv)
    print("$ " + " ".join([".venv/bin/python", "bench/bench_metadata.py", *sys.argv[1:]]))
    for title, loader in (("zh_cwce", load_zh_cwce), ("sites", load_sites)):
        pages = loader(args.shared)
        rows = {"newscrawl": score(pages, ours, args.repeat, peer=False)}
        for name, peer in peers().items():
            rows[name] = score(pages, peer, 1)
        print_table(f"{title} ({len(pages)} pages)", rows)
        print("\n| speed | pages/s |\n|---|---|")
        for name, rate in speed(pages, args.repeat).items():
            print(f"| {name} | {rate:.0f} |")
        titled, title_failures = title_misses(pages)
        if titled:
            exact = titled - len(title_failures)
            print(f"\ntitles exact: {exact}/{titled} ({100 * exact / titled:.1f}%)")
        if args.failures:
            for line in rows["newscrawl"].failures + title_failures:
                print("  -", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
