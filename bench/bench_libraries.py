"""Hand-written parsers against the libraries that do the same: sitemaps (Scrapy's
`Sitemap`), RSS/Atom feeds (feedparser) and JSON-LD (extruct).

    .venv/bin/python bench/bench_libraries.py [--shared ../shared] [--runs 5] [--urls 50000]
        [--items 200]

Runs offline. feedparser and extruct are no dependencies of newscrawl; the bench extra
installs them (``pip install -e '.[bench]'``). Their rows are skipped when they cannot be
imported, and the JSON-LD rows when --shared holds no datasets. Timings are the
best of --runs rounds in which the compared calls take turns (the machine is shared).

- Sitemap: `parse_sitemap` (Scrapy's streaming reader) against
  `baseline_parse_sitemap`, the tree walk it replaced, on a generated urlset of --urls
  entries, plain and gzipped; the peak memory of each in a fresh process; whether their
  entries are equal.
- Feed: `parse_feed` against feedparser, read as newscrawl would use it (links resolved,
  its raw date strings read by `parse_datetime`), on generated RSS 2.0 and Atom feeds of
  --items entries.
- Hostile cases: each side's links (or "malformed") on broken and odd inputs.
- JSON-LD: `jsonld.objects` of `PageHead.scripts` (what the metadata package reads) against
  extruct's `JsonLdExtractor`, both on newscrawl's decoding of every dataset page, with
  ``@graph`` flattened alike: time (and that of extruct's lxml DOM alone), pages whose
  objects differ, pages where extruct raised.
- Dependencies: each library's distributions beyond newscrawl's own requirements and their
  installed size, from the installed package metadata.
"""

from __future__ import annotations

import argparse
import gzip
import io
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from datetime import timedelta, timezone, tzinfo
from functools import partial
from importlib import import_module, metadata
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urljoin

import lxml.html
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from recorded import recorded
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap as SitemapReader

from newscrawl.discovery import Entry, MalformedListError, parse_datetime, parse_feed
from newscrawl.discovery.sitemaps import SITEMAP_ROOTS, Sitemap, parse_sitemap
from newscrawl.discovery.xml import child_text, escape_bare_ampersands, local_name, parse_xml

ZONE = timezone(timedelta(hours=8))
SITEMAP_URL = "https://news.example.cn/sitemap/2026-11.xml"
FEED_URL = "http://www.example.cn/rss/politics.xml"
LIBRARIES = ("feedparser", "extruct")


# --- BASELINE: the sitemap tree walk that Scrapy's reader replaced, kept only to compare.
def baseline_parse_sitemap(body: bytes, base_url: str, zone: tzinfo) -> Sitemap:
    """BASELINE, not used by newscrawl: the whole tree built, then its children walked."""
    if body.startswith(b"\x1f\x8b"):
        body = gunzip(body)
    root = parse_xml(body)
    kind = local_name(root)
    if kind not in SITEMAP_ROOTS:
        raise MalformedListError(f"not a sitemap: root element <{kind}>")
    entries = []
    for element in root:
        loc = child_text(element, "loc")
        if local_name(element) in {"url", "sitemap"} and loc:
            lastmod = parse_datetime(child_text(element, "lastmod"), zone)
            entries.append(Entry(urljoin(base_url, loc), lastmod))
    return Sitemap(is_index=kind == "sitemapindex", entries=entries)


def current_xml_only(body: bytes) -> list[tuple[str, str | None]]:
    """The reading `parse_sitemap` does, without resolving links or reading dates."""
    reader = SitemapReader(escape_bare_ampersands(body))
    return [(item["loc"], item.get("lastmod")) for item in reader]


def baseline_xml_only(body: bytes) -> list[tuple[str | None, str | None]]:
    """The reading `baseline_parse_sitemap` did, without resolving links or reading dates."""
    return [
        (child_text(element, "loc"), child_text(element, "lastmod")) for element in parse_xml(body)
    ]


# --- Inputs.
def make_sitemap(urls: int) -> bytes:
    """A news sitemap as portals publish them: absolute links, lastmod with offset."""
    rows = (
        f"<url><loc>https://news.example.cn/c/2026-11-{1 + n % 28:02d}/doc-inaz{n:08d}.shtml"
        f"</loc><lastmod>2026-11-{1 + n % 28:02d}T{n % 24:02d}:30:00+08:00</lastmod>"
        "<changefreq>daily</changefreq><priority>0.8</priority></url>\n"
        for n in range(urls)
    )
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    head += '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
    return (head + "".join(rows) + "</urlset>\n").encode()


_SUMMARY = (
    "&lt;p&gt;" + "新华社北京11月2日电 记者从国务院新闻办公室获悉，" * 8 + "&lt;/p&gt;"
    "&lt;img src=&quot;/img/1.jpg&quot;&gt;"
)


def make_rss(items: int) -> bytes:
    """An RSS 2.0 channel with HTML summaries, as the portals' feeds carry them."""
    rows = "".join(
        f"<item><title>国务院常务会议 {n}</title>"
        f"<link>http://politics.people.com.cn/n1/2026/1102/c1001-4{n:07d}.html</link>"
        f"<description>{_SUMMARY}</description>"
        f"<pubDate>Mon, 02 Nov 2026 {n % 24:02d}:30:00 +0800</pubDate>"
        f'<guid isPermaLink="false">id-{n}</guid><category>时政</category></item>\n'
        for n in range(items)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>时政</title>'
        f"<link>http://politics.people.com.cn/</link><description>人民网</description>\n"
        f"{rows}</channel></rss>"
    ).encode()


def make_atom(items: int) -> bytes:
    """An Atom feed as cnblogs serves them: alternate and edit links, HTML summaries."""
    rows = "".join(
        f"<entry><id>https://www.cnblogs.com/x/p/{n}</id><title>随笔 {n}</title>"
        f"<published>2026-11-02T{n % 24:02d}:30:00+08:00</published>"
        "<updated>2026-11-02T01:30:00Z</updated>"
        f'<link rel="alternate" href="https://www.cnblogs.com/x/p/{n}" />'
        f'<link rel="edit" href="https://i.cnblogs.com/EditPosts.aspx?postid={n}" />'
        f'<summary type="html">{_SUMMARY}</summary><author><name>x</name></author></entry>\n'
        for n in range(items)
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<title>博客园</title><id>x</id><updated>2026-11-02T01:30:00Z</updated>\n{rows}</feed>"
    ).encode()


_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
_ENTITIES = '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/hostname"><!ENTITY a "aaaaaaaaaa">'
_ENTITIES += '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'


def _urlset(rows: str, encoding: str = "UTF-8") -> str:
    return f'<?xml version="1.0" encoding="{encoding}"?><urlset {_NS}>{rows}</urlset>'


SITEMAP_CASES: dict[str, bytes] = {
    "empty body": b"",
    "not XML": b"hello",
    "an HTML page": b"<html><body><p>x</p></body></html>",
    "truncated": _urlset("<url><loc>http://a.cn/1</loc></url><url><loc>http://a.cn/2").encode()[
        :-12
    ],
    "BOM": b"\xef\xbb\xbf" + _urlset("<url><loc>http://a.cn/1</loc></url>").encode(),
    "UTF-16": _urlset("<url><loc>http://a.cn/中</loc></url>", "UTF-16").encode("utf-16"),
    "GBK": _urlset("<url><loc>http://a.cn/中</loc></url>", "GBK").encode("gbk"),
    "prefixed namespace": b'<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<s:url><s:loc>http://a.cn/1</s:loc></s:url></s:urlset>",
    "no namespace": b"<urlset><url><loc>http://a.cn/1</loc></url></urlset>",
    "CDATA, comment, PI": _urlset(
        "<!-- c --><?pi x?><url><loc><![CDATA[http://a.cn/1?x=1&y=2]]></loc></url>"
    ).encode(),
    "bare &": _urlset("<url><loc>http://a.cn/1?x=1&y=2</loc></url>").encode(),
    "empty loc, relative loc": _urlset("<url><loc></loc></url><url><loc>/n/1</loc></url>").encode(),
    "entities": f"<?xml version='1.0'?>{_ENTITIES}<urlset><url><loc>http://a.cn/&e;&b;</loc>"
    "</url></urlset>".encode(),
    "url below root": _urlset("<x><url><loc>http://a.cn/1</loc></url></x>").encode(),
}


def _rss(rows: str, encoding: str = "UTF-8") -> str:
    channel = f'<rss version="2.0"><channel>{rows}</channel></rss>'
    return f'<?xml version="1.0" encoding="{encoding}"?>{channel}'


FEED_CASES: dict[str, bytes] = {
    "empty body": b"",
    "an HTML page": b"<html><body><a href='/a'>x</a></body></html>",
    "truncated": _rss("<item><link>http://a.cn/1</link></item><item><link>http://a.cn/2").encode()[
        :-12
    ],
    "bare &": _rss("<item><link>http://a.cn/1?x=1&y=2</link></item>").encode(),
    "HTML entity": _rss("<item><title>a&nbsp;b</title><link>http://a.cn/1</link></item>").encode(),
    "GBK declared UTF-8": _rss("<item><link>http://a.cn/中</link></item>").encode("gbk"),
    "CDATA link": _rss("<item><link><![CDATA[ http://a.cn/1 ]]></link></item>").encode(),
    "permalink guid only": _rss(
        "<item><guid>http://a.cn/g</guid></item><item><guid isPermaLink='false'>x</guid></item>"
    ).encode(),
    "relative link": _rss("<item><link>/n/1.html</link></item>").encode(),
    "RSS 1.0": b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    b'xmlns="http://purl.org/rss/1.0/"><item rdf:about="http://a.cn/1">'
    b"<link>http://a.cn/1</link></item></rdf:RDF>",
    "Atom xml:base": b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://b.cn/blog/">'
    b'<entry><link href="p/1"/></entry></feed>',
    "entities": f"<?xml version='1.0'?>{_ENTITIES}<rss><channel><item>"
    "<link>http://a.cn/&e;&b;</link></item></channel></rss>".encode(),
}

JSONLD_CASES: dict[str, str] = {
    "CDATA section": '<![CDATA[\n{"@type": "NewsArticle", "headline": "h"}\n]]>',
    "trailing comma": '{"@type": "NewsArticle", "headline": "h",}',
    "raw newline in a string": '{"@type": "NewsArticle", "headline": "a\nb"}',
    "@graph": '{"@graph": [{"@type": "WebSite"}, {"@type": "NewsArticle"}]}',
    "list": '[{"@type": "Organization"}, {"@type": "NewsArticle"}]',
    "JS comment": '{"@type": "NewsArticle", // the type\n "headline": "h"}',
    "broken JSON": '{"@type": "NewsArticle", "headline": ',
    "HTML-escaped": "{&quot;@type&quot;: &quot;NewsArticle&quot;}",
    "empty": "  ",
}


# --- Measuring.
def best_of(runs: int, *calls: Callable[[], object]) -> list[float]:
    """The fastest of `runs` timings of each of `calls`, in seconds. The calls take turns in
    each round, so a neighbour's load on the shared machine falls on all of them alike."""
    best = [float("inf")] * len(calls)
    for _ in range(runs):
        for index, call in enumerate(calls):
            start = time.perf_counter()
            call()
            best[index] = min(best[index], time.perf_counter() - start)
    return best


def each(function: Callable[[str], object], texts: list[str]) -> list[object]:
    """`function` of every one of `texts` (one timed call for `best_of`)."""
    return [function(text) for text in texts]


def optional(name: str) -> ModuleType | None:
    """The module `name`, or None where it is not installed (its rows are skipped)."""
    try:
        return import_module(name)
    except ImportError:
        return None


def peak_memory(path: Path, side: str) -> float:
    """MiB the `side` parser adds to the peak memory of a fresh process reading `path`."""
    command = [sys.executable, __file__, "--peak", side, "--body", str(path)]
    return float(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def _peak_child(side: str, path: Path) -> None:
    body = path.read_bytes()
    parse = parse_sitemap if side == "current" else baseline_parse_sitemap
    before = _peak_kib()
    parse(body, SITEMAP_URL, ZONE)
    print((_peak_kib() - before) / 1024)


def _peak_kib() -> int:
    """This process's peak resident memory (``VmHWM``: ``ru_maxrss`` would carry the parent's
    peak across fork and exec)."""
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0])


def feedparser_entries(feedparser: ModuleType, body: bytes) -> list[Entry]:
    """feedparser as newscrawl would call it: a stream, never bytes (bytes naming a local
    file are opened as that file), and our reading of its raw dates (its own parsed dates
    take a date without offset as UTC)."""
    parsed = feedparser.parse(io.BytesIO(body))
    if not parsed.get("version"):
        raise MalformedListError("not a feed")
    return [
        Entry(
            urljoin(FEED_URL, e.link), parse_datetime(e.get("published") or e.get("updated"), ZONE)
        )
        for e in parsed.entries
        if e.get("link")
    ]


def links(parse: Callable[[bytes], list[Entry]], body: bytes) -> str:
    """The links `parse` finds in `body`, each cut to 40 characters, or "malformed"."""
    try:
        return " ".join(entry.url[:40] for entry in parse(body)) or "(none)"
    except MalformedListError:
        return "malformed"


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> None:
    """Print a Markdown table, for BENCHMARKS.md."""
    header = list(header)
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")
    print()


# --- The sections.
def bench_sitemaps(urls: int, runs: int) -> None:
    body = make_sitemap(urls)
    packed = gzip.compress(body)
    current = parse_sitemap(body, SITEMAP_URL, ZONE)
    same = current == baseline_parse_sitemap(body, SITEMAP_URL, ZONE)
    print(f"## Sitemap: {urls:,} URLs, {len(body) / 1e6:.1f} MB ({len(packed) / 1e6:.2f} MB gzip)")
    print(f"same entries: {same}\n")
    memory = {"current": "n/a", "baseline": "n/a"}
    if Path("/proc/self/status").is_file():
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sitemap.xml"
            path.write_bytes(body)
            memory = {side: f"{peak_memory(path, side):.0f}" for side in memory}
    sides = {
        "current": ("Scrapy Sitemap (current)", parse_sitemap, current_xml_only),
        "baseline": ("tree walk (baseline)", baseline_parse_sitemap, baseline_xml_only),
    }
    timings = best_of(
        runs,
        *(
            call
            for _, parse, xml_only in sides.values()
            for call in (
                partial(parse, body, SITEMAP_URL, ZONE),
                partial(parse, packed, SITEMAP_URL, ZONE),
                partial(xml_only, body),
            )
        ),
    )
    rows = []
    for number, (side, (label, _, _)) in enumerate(sides.items()):
        ms = (f"{seconds * 1e3:.0f}" for seconds in timings[3 * number : 3 * number + 3])
        rows.append((label, *ms, memory[side]))
    table(("parser", "plain ms", "gzip ms", "XML only ms", "peak MiB added"), rows)
    hostile = []
    for case, sample in SITEMAP_CASES.items():
        ours = links(lambda b: parse_sitemap(b, "http://a.cn/s.xml", ZONE).entries, sample)
        old = links(lambda b: baseline_parse_sitemap(b, "http://a.cn/s.xml", ZONE).entries, sample)
        hostile.append((case, ours, old))
    table(("hostile sitemap", "current", "baseline"), hostile)


def bench_feeds(items: int, runs: int) -> None:
    feedparser = optional("feedparser")
    print(f"## Feeds: {items} items")
    if feedparser is None:
        print("feedparser not importable: its rows are skipped\n")
    rows = []
    for kind, body in (("RSS 2.0", make_rss(items)), ("Atom", make_atom(items))):
        ours = parse_feed(body, FEED_URL, ZONE)
        row: list[object] = [kind, f"{len(body) / 1e3:.0f} kB"]
        calls: list[Callable[[], object]] = [partial(parse_feed, body, FEED_URL, ZONE)]
        if feedparser is not None:
            calls.append(partial(feedparser_entries, feedparser, body))
        row.extend(f"{seconds * 1e3:.1f}" for seconds in best_of(runs, *calls))
        if feedparser is not None:
            row.append(ours == feedparser_entries(feedparser, body))
        rows.append(row)
    table(("feed", "size", "ours ms", "feedparser ms", "same entries")[: len(rows[0])], rows)
    if feedparser is None:
        return
    hostile = []
    for case, sample in FEED_CASES.items():
        ours_links = links(lambda b: parse_feed(b, FEED_URL, ZONE), sample)
        hostile.append(
            (case, ours_links, links(lambda b: feedparser_entries(feedparser, b), sample))
        )
    table(("hostile feed", "ours", "feedparser"), hostile)


def bench_jsonld(shared: Path, runs: int) -> None:
    from newscrawl.evaluation.datasets import NAMED_DATASETS, load_dataset
    from newscrawl.extract import decode_html
    from newscrawl.extract.head import PageHead
    from newscrawl.extract.metadata import jsonld

    extruct = optional("extruct.jsonld")
    print("## JSON-LD")
    if extruct is None:
        print("extruct not importable: skipped\n")
        return
    extractor = extruct.JsonLdExtractor()

    def ours(text: str) -> list[dict[str, Any]]:
        return jsonld.objects(PageHead(text).scripts)

    def theirs(text: str) -> list[dict[str, Any]] | None:
        """None where extruct raises: one bad block loses the page's every object."""
        try:
            found = extractor.extract(text.encode("utf-8"), encoding="utf-8")
        except ValueError:
            return None
        return [obj for item in found for obj in jsonld._flatten(item)]  # @graph as ours

    def dom(text: str) -> None:
        """Only the lxml tree extruct builds first (as its `parse_html` does), then dropped
        as extruct drops it (903 trees kept alive would slow the run down)."""
        lxml.html.fromstring(text.encode("utf-8"), parser=lxml.html.HTMLParser(encoding="utf-8"))

    cases = []
    for case, block in JSONLD_CASES.items():
        page = f'<html><head><script type="application/ld+json">{block}</script></head></html>'
        ld_ours, ld_theirs = ours(page), theirs(page)
        cases.append((case, _types(ld_ours), "raises" if ld_theirs is None else _types(ld_theirs)))
    table(("JSON-LD block", "ours: types read", "extruct: types read"), cases)
    if not (shared / "datasets").is_dir():
        print(f"no datasets under {shared}: dataset rows skipped\n")
        return
    texts = [
        decode_html(page.html).text
        for name in NAMED_DATASETS
        for page in load_dataset(name, shared).pages
    ]
    with_ld = [text for text in texts if "application/ld+json" in text.lower()]
    results = [(ours(text), theirs(text)) for text in texts]
    raised = sum(1 for _, found in results if found is None)
    differ = sum(1 for mine, found in results if found is not None and mine != found)
    lost = sum(1 for mine, found in results if found is None and mine)
    print(
        f"{len(texts)} dataset pages, {len(with_ld)} with a JSON-LD script; pages with objects: "
        f"ours {sum(1 for mine, _ in results if mine)}, extruct "
        f"{sum(1 for _, found in results if found)}; extruct raised on {raised} "
        f"({lost} where ours reads objects); other pages whose objects differ: {differ}\n"
    )
    rows = []
    for label, pages in (("all pages", texts), ("pages with JSON-LD", with_ld)):
        timings = best_of(runs, *(partial(each, side, pages) for side in (ours, theirs, dom)))
        rows.append((label, len(pages), *(f"{seconds * 1e3:.0f}" for seconds in timings)))
    table(("pages", "count", "ours ms", "extruct ms", "of which its lxml DOM ms"), rows)


def _types(objects: list[dict[str, Any]]) -> str:
    return ", ".join(str(obj.get("@type", "?")) for obj in objects) or "(none)"


def dependency_cost() -> None:
    """Distributions each library adds to newscrawl's own requirement closure, with size."""
    own = _closure("newscrawl")
    rows: list[tuple[object, ...]] = []
    for library in LIBRARIES:
        found = _closure(library)
        if not found:
            rows.append((library, "not installed", "", ""))
            continue
        added = {name: dist for name, dist in found.items() if name not in own}
        size = sum(_installed_bytes(dist) for dist in added.values())
        names = ", ".join(f"{dist.metadata['Name']} {dist.version}" for dist in added.values())
        rows.append((library, len(added), f"{size / 2**20:.1f}", names))
    print("## Dependency cost (beyond newscrawl's own requirements)")
    table(("library", "distributions", "MiB installed", "which"), rows)


def _closure(name: str) -> dict[str, metadata.Distribution]:
    """`name` and everything it requires without extras, as installed."""
    found: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        key = canonicalize_name(todo.pop())
        if key in found:
            continue
        try:
            dist = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue
        found[key] = dist
        for line in dist.requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


def _installed_bytes(dist: metadata.Distribution) -> int:
    total = 0
    for file in dist.files or ():
        path = Path(str(dist.locate_file(file)))
        total += path.stat().st_size if path.is_file() else 0
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=Path(__file__).parents[2] / "shared")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--urls", type=int, default=50_000)
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--peak", choices=("current", "baseline"), help=argparse.SUPPRESS)
    parser.add_argument("--body", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak:
        _peak_child(args.peak, args.body)
        return
    with recorded("libraries", "Hand-written or a library: sitemaps, feeds, JSON-LD"):
        versions = ", ".join(f"{name} {_version(name)}" for name in ("scrapy", "lxml", *LIBRARIES))
        print(f"{versions}; best of {args.runs} runs\n")
        bench_sitemaps(args.urls, args.runs)
        bench_feeds(args.items, args.runs)
        bench_jsonld(args.shared, args.runs)
        dependency_cost()


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


if __name__ == "__main__":
    main()
