"""Extraction time on hostile pages against a normal page of the same size, per input class.

Every class builds pages that stress one kind of scan: long attribute values, many
attributes, long runs of one character, huge single tokens, deep nesting, long scripts,
long JSON-LD, long URLs, date-like and byline-like runs, and broken markup (unclosed tags).
Each class has several variants (a unit such as ``"id="``, ``"。"`` or ``"发布时间："``
repeated into a context such as a ``title`` attribute, a paragraph, many short lines, a
meta's content or a script), and every variant is built at each size by repeating its
unit until the page reaches that many bytes. `extract` runs on the bytes (decoding and
metadata included) with every method.

The measure is each class's worst page against the median page at equal size: a normal
article repeated to the same number of bytes (`article_repeated`), timed with the same
method. A ratio that stays flat across sizes is linear time; one that grows with the size
is a super-linear scan, and the target is a worst ratio under `TARGET_RATIO` at every
size.

    python bench/bench_pathological.py [--sizes 10000 100000 1000000] [--classes ...]
        [--methods paper default] [--repeat 3] [--budget 20] [--variants]

A variant over --budget seconds, or already over the target at a smaller size, is not run
at the larger sizes (a quadratic scan would need hours there); the table says how many.
--variants prints every variant's time, not only each class's worst. The generators are
also the adversarial mutations of ``bench/fuzz_extract.py`` and ``tests/test_fuzz_extract.py``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import string
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import cast

from recorded import recorded

from newscrawl.extract import METHODS, Method, Options, extract

TARGET_RATIO = 20.0
"""The worst page of a class may take at most this multiple of the median page's time."""
DEFAULT_SIZES = (10_000, 100_000, 1_000_000)
SENTENCE = "新华社北京电，国务院常务会议今天召开，会议部署了稳就业、促消费等多项重点工作。"
HEAD_SLOT = "<!--head-slot-->"
BODY_SLOT = "<!--body-slot-->"
ARTICLE_PAGE = (
    "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>\n"
    "<title>国务院部署稳就业工作_新闻中心</title>\n"
    "<meta name='description' content='国务院常务会议部署稳就业工作'>\n"
    "<script>var config = {channel: 'news', id: 12345}; if (a < b) { track(); }</script>\n"
    f"<style>.nav a {{ color: #333 }} .content p {{ line-height: 1.8 }}</style>{HEAD_SLOT}"
    "</head>\n<body>\n"
    "<div class='nav'>" + " | ".join(f"<a href='/c{n}'>频道{n}</a>" for n in range(20)) + "</div>\n"
    "<!-- 正文开始 -->\n<div class='content'>\n<h1>国务院部署稳就业工作</h1>\n"
    f"<div class='info'>2024-05-10 10:30 来源：新华社</div>\n{BODY_SLOT}\n"
    + "".join(f"<p>{SENTENCE * (2 + n % 3)}</p>\n" for n in range(12))
    + "</div>\n<div class='related'><ul>\n"
    + "".join(f"<li><a href='/a/{n}.html'>相关新闻标题{n}</a></li>\n" for n in range(15))
    + "</ul></div>\n<div class='footer'>版权所有 © 新闻中心 京ICP备000000号</div>\n</body></html>\n"
)
"""A normal news article; hostile content goes into its head or body slot (right under
the byline, in the header window where the metadata rules look hardest)."""

LONG_LINE_CHARS = 1_500
"""Characters of one line in the "long lines" context: under the metadata's per-line cap
(2,000), so every line pattern reads all of it."""


@dataclass(frozen=True, slots=True)
class Context:
    """Where a unit's repetitions go: `wrap` turns the run into markup for `slot`."""

    name: str
    slot: str
    wrap: Callable[[str, int], str]
    """(unit, count) -> markup."""
    head: Callable[[str], str] = lambda unit: ""
    """Markup put first in the head with the run (unit -> markup): a long title or
    description that every line of the run is compared with."""


def _run(before: str, after: str = "", slot: str = BODY_SLOT) -> Callable[[str], Context]:
    """A context holding the whole run between `before` and `after`."""

    def context(name: str) -> Context:
        return Context(name, slot, lambda unit, count: before + unit * count + after)

    return context


def _lines(tag: str, per_line: int | None) -> Callable[[str, int], str]:
    """The run cut into lines: one unit per line, or `per_line` characters' worth."""

    def wrap(unit: str, count: int) -> str:
        each = 1 if per_line is None else max(1, per_line // len(unit))
        line = f"<{tag}>{unit * each}</{tag}>\n"
        return line * -(-count // each)

    return wrap


TEXT_CONTEXTS = (
    _run("<p>", "</p>")("paragraph"),
    Context("long lines", BODY_SLOT, _lines("p", LONG_LINE_CHARS)),
    Context("short lines", BODY_SLOT, _lines("div", None)),
    _run("<h1>", "</h1>")("h1"),
    _run("<title>", "</title>", HEAD_SLOT)("title"),
    _run("<pre>", "</pre>")("pre"),
    _run("<!--", "-->")("comment"),
)
ATTRIBUTE_CONTEXTS = (
    _run('<div title="', '">署名</div>')("title value"),
    _run('<div title="author ', '">署名</div>')("title value after a byline word"),
    _run('<div class="', '">署名</div>')("class value"),
    _run('<span class="byline ', '">署名</span>')("class value after a byline word"),
    _run("<div id=", ">署名</div>")("bare id value"),
    _run('<p style="', '">署名</p>')("style value"),
    _run('<span data-time="', '">2024-05-10</span>')("data- value"),
    _run('<meta name="description" content="', '">', HEAD_SLOT)("meta content"),
    _run('<meta name="author" content="', '">', HEAD_SLOT)("meta author content"),
)
TAG_CONTEXTS = (
    _run("<div", ">署名</div>")("div"),
    _run("<a href='/a'", ">链接</a>")("a"),
    _run("<time", ">2024-05-10</time>")("time"),
    _run("<meta", ">", HEAD_SLOT)("meta"),
    _run("<script", "></script>", HEAD_SLOT)("script"),
    _run("<link rel=canonical", ">", HEAD_SLOT)("link"),
    _run("<html", ">", HEAD_SLOT)("html"),
)
SCRIPT_CONTEXTS = (
    _run("<script>", "</script>", HEAD_SLOT)("script"),
    _run('<script>var nickName = "', '";</script>', HEAD_SLOT)("script string"),
    _run('<script>window.__STATE__ = {"author": {"id": 1, ', "}}</script>", HEAD_SLOT)(
        "script state"
    ),
    _run('<script type="text/template">', "</script>", HEAD_SLOT)("template"),
)
JSON_LD_CONTEXTS = (
    _run(
        '<script type="application/ld+json">{"@type": "NewsArticle", "author": "',
        '", "datePublished": "2024-05-10"}</script>',
        HEAD_SLOT,
    )("author string"),
    _run(
        '<script type="application/ld+json">{"@type": "NewsArticle", "articleBody": "',
        '"}</script>',
        HEAD_SLOT,
    )("articleBody string"),
    _run('<script type="application/ld+json">', "</script>", HEAD_SLOT)("whole block"),
    _run('<script type="application/ld+json"><![CDATA[', "]]></script>", HEAD_SLOT)("CDATA"),
)
URL_CONTEXTS = (
    _run("<a href='http://example.com/", "'>链接</a>")("href"),
    _run('<link rel="canonical" href="https://example.com/', '">', HEAD_SLOT)("canonical"),
    _run('<meta property="og:image" content="https://example.com/', '">', HEAD_SLOT)("og:image"),
    _run("<img src='https://example.com/", "'>")("img src"),
    _run("<p>", "</p>")("text"),
)
NESTING_DEPTH = 200
"""Depth of the repeated nests: within the scan's element stack (256), so every element
is tracked and has that many ancestors."""
NESTING_CONTEXTS = (
    _run("", "")("unclosed"),
    Context("closed", BODY_SLOT, lambda unit, count: unit * count + "署名" + _closers(unit, count)),
    Context(
        f"nests {NESTING_DEPTH} deep, repeated",
        BODY_SLOT,
        lambda unit, count: (
            (unit * NESTING_DEPTH + "署名" + _closers(unit, NESTING_DEPTH))
            * -(-count // NESTING_DEPTH)
        ),
    ),
)
HEAD_CHARS = 16_000
"""Characters of the long title and description the "lines against the head" contexts
give every line to be compared with (the head's tags are read up to 16 KB)."""
LINES_AGAINST_THE_HEAD = (
    Context(
        "lines under a long description",
        BODY_SLOT,
        _lines("p", 60),
        lambda unit: f'<meta name="description" content="{unit * (HEAD_CHARS // len(unit))}">',
    ),
    Context(
        "lines under a long og:title",
        BODY_SLOT,
        _lines("h2", 60),
        lambda unit: f'<meta property="og:title" content="{unit * (HEAD_CHARS // len(unit))}">',
    ),
    Context(
        "lines under a long title",
        BODY_SLOT,
        _lines("p", 60),
        lambda unit: f"<title>{unit * (HEAD_CHARS // len(unit))}</title>",
    ),
)


def _closers(unit: str, count: int) -> str:
    """The end tags of the start tags in `unit`, innermost first, `count` times."""
    names = [part.split(">")[0].split()[0] for part in unit.split("<")[1:]]
    return "".join(f"</{name}>" for name in reversed(names)) * count


CHARACTERS = (" ", "-", "=", "<", "&", "。", "7", "中", "\u3000", "\xa0", "&nbsp;", "\n", "\t",
              ".", ",", ":", "：", "|", "/", "\\", "_", "#", "&#", "!", "?", "@", "（", "【",
              "\u200b", "a", '"', "'", ">", "*", "—", "《")  # fmt: skip
"""Runs of one character (or one entity): spaces of every kind, punctuation, digits, CJK."""
ATTRIBUTE_UNITS = (" ", "-", "=", "<", "&", "。", "7", "中", "id=", "class=", "author ",
                   "byline-", "a", "'", "&amp;", "&#", "\\", "2024-05-10 ")  # fmt: skip
TAG_UNITS = (' a="b"', " class=author", " id=x", " itemprop=author", " data-x=1", " hidden",
             ' style="display:none"', " =", ' "', " '", " a", " rel=canonical", " /",
             ' content="x"', " name=author", "=", ' content="', ' name="', " content=",
             ' itemprop="author', " data-time=2024-05-10")  # fmt: skip
SCRIPT_UNITS = (" ", "a", '"', "'", "{", "[", "<", "</", "\\", "=", "var a=1;", '"author":',
                '"author": {', "nickName=", "publishTime:", "1", "\\u4e2d", "//", "<!--",
                "ct = ")  # fmt: skip
JSON_UNITS = ("[", "{", '{"a":', "]", ",", " ", '"', "\\", "\\u4e2d", "中", "\n", "\x01", "//",
              '{"@type": "NewsArticle"},', '"datePublished": "2024-05-10", ', "]]>")  # fmt: skip
URL_UNITS = ("a/", "../", "%2F", "?a=1&", "2024/05/10/", "%", ":", "//", "#", "中", "&amp;",
             "www.", "http://")  # fmt: skip
NESTING_UNITS = ("<div>", "<span>", "<p>", "<li>", "<b>", "<a href='/a'>", "<div class='author'>",
                 "<div itemprop='author'>", "<time>", "<table><tr><td>", "<blockquote>",
                 "<font>", "<div class='comment'>", "<h1>", "<ul>", "<div hidden>", "<article>",
                 "<main>", "<section>", "<div role=main>", "<time datetime='x'>")  # fmt: skip
DATE_UNITS = ("发布时间：", "发布时间：2024-05-10 ", "2024-05-10 ", "2024-05-10 10:30 ",
              "2024年5月10日", "2024", "1-", "1/", "12:", "05/09 22:27 ", "今天 ", "3分钟前",
              "发布于", "published ", "on ", "》2024年", "《", "修改", "20240510", "2024-", "19",
              "2024-05-10T10:30:00+08:00 ", "2024 ", "2024年", "2024年5月",
              "1998年3月号")  # fmt: skip
BYLINE_UNITS = ("作者", "作者：", "记者", "记者 ", "By ", "by ", "来源：", "责任编辑：", "（记者",
                "【", "于 2024", "posted @ ", "文/", "本报记者", "张三 ", "张三、", "(", "（",
                "写于 2024", "由", "Photo by ", "编辑", "张三：", "作者简介", "的博客", "）",
                "[ 张三 ] ", "张三\n")  # fmt: skip
_RANDOM = random.Random(0)
TOKEN_UNITS = tuple(
    "".join(_RANDOM.choice(alphabet) for _ in range(997))
    for alphabet in (
        string.ascii_letters + string.digits,
        string.ascii_letters + string.digits + "+/=",
        string.hexdigits,
        "".join(map(chr, range(0x4E00, 0x4E00 + 2000))),
        string.ascii_letters + "中文字词",
    )
)
"""Tokens without a space or a repeat inside: 997 random letters, digits, base64, hex, Han."""
HEAD_UNITS = ("a", "中", "a b ", "国务院", "。", "作者：", "a - b", "_", "ab" * 30 + "c")
"""Units of a long head statement and of the lines under it: the same text, so that each
line is nearly, but not quite, a part of it."""
BROKEN_UNITS = ("<script ", "<!--", "<", "<meta name=title ", "<title ", '"articleBody"<script ',
                "</", "<!", "<?", "<a", "</div", "<p", "&", "&#x", "<br>")  # fmt: skip


PROBE = 20_000
"""Units in the runs that measure a variant's bytes per unit (many lines' worth)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One hostile page shape: `unit` repeated into `context`."""

    unit: str
    context: Context

    @property
    def name(self) -> str:
        unit = self.unit if len(self.unit) < 20 else self.unit[:8] + "…"
        return f"{unit!r} in {self.context.name}"

    def run(self, size: int) -> str:
        """The unit repeated into its context: markup of about `size` UTF-8 bytes."""
        wrap = self.context.wrap
        probe = [len(wrap(self.unit, count).encode("utf-8")) for count in (PROBE, 2 * PROBE)]
        per_unit = (probe[1] - probe[0]) / PROBE
        fixed = len(wrap(self.unit, 0).encode("utf-8"))
        return wrap(self.unit, max(1, round((size - fixed) / max(per_unit, 1e-9))))

    def page(self, size: int) -> str:
        """The article with this variant's run in its slot, about `size` UTF-8 bytes."""
        head = self.context.head(self.unit)
        fixed = len((ARTICLE_PAGE + head).encode("utf-8"))
        page = ARTICLE_PAGE.replace(self.context.slot, self.run(size - fixed), 1)
        return page.replace("<head>", "<head>" + head, 1)


def _variants(units: tuple[str, ...], contexts: tuple[Context, ...]) -> tuple[Variant, ...]:
    return tuple(Variant(unit, context) for unit in units for context in contexts)


CLASSES: dict[str, tuple[Variant, ...]] = {
    "long attribute values": _variants(ATTRIBUTE_UNITS, ATTRIBUTE_CONTEXTS),
    "many attributes": _variants(TAG_UNITS, TAG_CONTEXTS),
    "runs of one character": _variants(CHARACTERS, TEXT_CONTEXTS),
    "huge single tokens": _variants(TOKEN_UNITS, (*TEXT_CONTEXTS, *ATTRIBUTE_CONTEXTS[:3])),
    "deep nesting": _variants(NESTING_UNITS, NESTING_CONTEXTS),
    "long scripts": _variants(SCRIPT_UNITS, SCRIPT_CONTEXTS),
    "long JSON-LD": _variants(JSON_UNITS, JSON_LD_CONTEXTS),
    "long URLs": _variants(URL_UNITS, URL_CONTEXTS),
    "date-like runs": _variants(DATE_UNITS, TEXT_CONTEXTS[:4]),
    "byline-like runs": _variants(BYLINE_UNITS, TEXT_CONTEXTS[:4]),
    "broken markup": _variants(BROKEN_UNITS, (_run("", "")("unclosed"),)),
    "lines against the head": _variants(HEAD_UNITS, LINES_AGAINST_THE_HEAD),
}
"""The input classes, each a list of variants; a class's figure is its worst variant."""
VARIANTS = tuple(variant for variants in CLASSES.values() for variant in variants)


def article_repeated(size: int) -> str:
    """The median page at `size` bytes: the normal article repeated."""
    unit = ARTICLE_PAGE.replace(HEAD_SLOT, "").replace(BODY_SLOT, "")
    return unit * max(1, -(-size // len(unit.encode("utf-8"))))


def seconds(data: bytes, method: Method) -> float:
    """CPU seconds of one extraction (CPU time: the machine is shared)."""
    started = time.process_time()
    extract(data, options=Options(method=method))
    return time.process_time() - started


def best_of(data: bytes, method: Method, repeat: int, budget: float) -> float:
    """The fastest of `repeat` runs (the least disturbed by other load); one if over budget."""
    best = seconds(data, method)
    for _ in range(repeat - 1):
        if best > budget:
            break
        best = min(best, seconds(data, method))
    return best


@dataclass(slots=True)
class Worst:
    """A class's slowest variant at one size and method."""

    seconds: float = 0.0
    variant: str = ""
    skipped: int = 0
    """Variants not run at this size: over the budget or the target at a smaller one."""


def measure(
    classes: list[str],
    sizes: list[int],
    methods: list[Method],
    repeat: int,
    budget: float,
    each_variant: Callable[[str, str, int, Method, float], None] | None = None,
) -> Iterator[tuple[str, int, Method, float, Worst]]:
    """(class, size, method, median page seconds, worst variant) for every cell."""
    median = {
        (size, method): best_of(article_repeated(size).encode("utf-8"), method, repeat, budget)
        for size in sizes
        for method in methods
    }
    for name in classes:
        over_budget: set[tuple[str, Method]] = set()
        for size in sorted(sizes):
            worst = {method: Worst() for method in methods}
            for variant in CLASSES[name]:
                data = variant.page(size).encode("utf-8", "surrogatepass")
                for method in methods:
                    if (variant.name, method) in over_budget:
                        worst[method].skipped += 1
                        continue
                    took = best_of(data, method, repeat, budget)
                    if each_variant:
                        each_variant(name, variant.name, size, method, took)
                    if took > budget or took > TARGET_RATIO * median[size, method]:
                        over_budget.add((variant.name, method))
                    if took > worst[method].seconds:
                        worst[method] = Worst(took, variant.name, worst[method].skipped)
            for method in methods:
                yield name, size, method, median[size, method], worst[method]


def _size(size: int) -> str:
    return f"{size / 1e6:g} MB" if size >= 1_000_000 else f"{size / 1e3:g} KB"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--classes", nargs="+", default=list(CLASSES), choices=list(CLASSES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the best counts")
    parser.add_argument(
        "--budget", type=float, default=20.0, help="seconds after which a variant stops growing"
    )
    parser.add_argument("--variants", action="store_true", help="print every variant's time")
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        f"best of {args.repeat} runs (CPU s), extract() on bytes, metadata included\n",
        flush=True,
    )

    def each_variant(name: str, variant: str, size: int, method: Method, took: float) -> None:
        print(f"  {name} | {variant} | {_size(size)} | {method} | {took:.3f} s", flush=True)

    print("| class | size | method | median page s | worst page s | worst / median | worst |")
    print("| --- | ---: | --- | ---: | ---: | ---: | --- |")
    ratios = []
    for name, size, method, median, worst in measure(
        args.classes,
        args.sizes,
        cast(list[Method], args.methods),
        args.repeat,
        args.budget,
        each_variant if args.variants else None,
    ):
        ratio = worst.seconds / median if median else 0.0
        ratios.append(ratio)
        skipped = f" ({worst.skipped} not run: over at a smaller size)" if worst.skipped else ""
        print(
            f"| {name} | {_size(size)} | {method} | {median:.4f} | {worst.seconds:.4f} | "
            f"{ratio:.1f}x | {worst.variant}{skipped} |",
            flush=True,
        )
    print(
        f"\nworst ratio {max(ratios, default=0):.1f}x (target < {TARGET_RATIO:g}x); "
        f"median of the class ratios {statistics.median(ratios) if ratios else 0:.1f}x"
    )
    return 1 if max(ratios, default=0) >= TARGET_RATIO else 0


if __name__ == "__main__":
    with recorded(
        "hostile-pages", "Hostile pages: the worst page per input class against the median page"
    ):
        sys.exit(main())
