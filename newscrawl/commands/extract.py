"""``newscrawl extract``: run the extractor on files, stdin, a directory or a URL.

For trying pages out and tuning L and D (``--explain`` shows the line table the decision
was made on). Crawling is Scrapy's job; the URL input is a single polite fetch, nothing more.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import shutil
import sys
import unicodedata
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from tqdm import tqdm
from w3lib.encoding import resolve_encoding

from newscrawl.commands import UsageError, is_terminal, write_utf8
from newscrawl.extract import METHODS, Article, LineDecision, Options, extract

DESKTOP_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)
"""Sites serve stripped or blocked pages to ``Python-urllib``; a browser UA gets the real one."""

PAGE_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")
"""Files a directory walk picks up (case-insensitive)."""

DEFAULT_TIMEOUT = 20.0
TUNABLES = ("min_line_length", "fallback_line_length", "max_gap")
"""`Options` fields the command line can override; the flags carry the same names."""

MIN_TEXT_COLUMN = 20
"""The explain table never squeezes the line text below this many columns."""

SourceKind = Literal["stdin", "url", "dir", "file"]


@dataclass(frozen=True, slots=True)
class Source:
    """One page to process, as the user named it; `error` is set when it cannot even be listed."""

    label: str
    kind: SourceKind
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Fetched:
    """Page bytes plus what the transport knew about them."""

    data: bytes
    url: str | None = None
    http_charset: str | None = None


class ReadError(Exception):
    """A page that could not be read or fetched: an error record, never a crash."""


# ---------------------------------------------------------------------------- parser


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``extract`` parser and its handler."""
    defaults = Options()
    parser = subparsers.add_parser(
        "extract",
        help="extract title and body from pages (files, stdin, a directory or a URL)",
        description=(
            "Extract the title and body of HTML pages with the text-line extractor. "
            "One input prints one result; a directory (searched recursively for "
            f"{', '.join('*' + suffix for suffix in PAGE_SUFFIXES)}) or several inputs print "
            'one JSON line per page (with its "path"), a progress bar when stderr is a '
            "terminal, and a summary on stderr. An http(s) URL is fetched once with urllib "
            "for trying a page out: crawling is Scrapy's job (scrapy crawl <site>)."
        ),
        epilog=(
            "exit status: 0 when every page was processed (empty results included), "
            "1 when any page could not be read, 2 for usage errors."
        ),
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="PATH|-|URL",
        help="an HTML file (.gz is gunzipped), a directory, - for stdin, or an http(s) URL",
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default=defaults.method,
        help="paper: the published algorithm exactly; default: currently runs the paper's "
        "method until the default extractor lands (default: %(default)s)",
    )
    parser.add_argument(
        "--format",
        choices=("json", "text"),
        default="json",
        help="json: one object (article fields); text: title, blank line, body. "
        "Several pages are always JSON lines (default: %(default)s)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="show the line table the decision was made on: features, group, kept or "
        'dropped and by which rule, plus the parameters used (JSON: a "lines" list)',
    )
    _add_tunables(parser, defaults)
    parser.add_argument(
        "--charset",
        type=_charset,
        help="decode the bytes with this charset instead of the HTTP header's or the "
        "page's <meta> (a byte-order mark still wins; bytes that contradict it badly "
        "are sniffed)",
    )
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="seconds to wait for a URL's server at each step (default: %(default)s)",
    )
    parser.set_defaults(func=run)


def _add_tunables(parser: argparse.ArgumentParser, defaults: Options) -> None:
    """The extractor's parameters, one flag per `Options` field (see `TUNABLES`)."""
    helps = {
        "min_line_length": "L: a group starts at a line at least this many characters long",
        "fallback_line_length": "L used instead when no line of the page reaches --min-line-length",
        "max_gap": "D: a gap of more than this many lines between groups cuts the body there",
    }
    for name in TUNABLES:
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            type=_non_negative_int,
            metavar="N",
            help=f"{helps[name]} (default: {getattr(defaults, name)})",
        )


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def _charset(text: str) -> str:
    """Reject unknown labels up front: the decoder would silently fall back to sniffing."""
    if resolve_encoding(text) is None:
        raise argparse.ArgumentTypeError(f"unknown charset: {text!r}")
    return text


def build_options(args: argparse.Namespace) -> Options:
    """`Options` from the method plus whichever tunables were given on the command line."""
    overrides = {name: getattr(args, name) for name in TUNABLES if getattr(args, name) is not None}
    try:
        return replace(Options(method=args.method), **overrides)
    except ValueError as error:
        raise UsageError(str(error)) from None


# ---------------------------------------------------------------------------- handler


def run(args: argparse.Namespace) -> int:
    """Handler: one input prints one result; several inputs or a directory print JSON lines."""
    options = build_options(args)
    kinds = [_classify(name) for name in args.inputs]
    if kinds.count("stdin") > 1:
        raise UsageError("stdin (-) can be read only once")
    if len(kinds) == 1 and kinds[0] != "dir":
        return run_single(Source(args.inputs[0], kinds[0]), args, options)
    if args.format == "text":
        print(
            "newscrawl extract: several pages: writing JSON lines (--format text "
            "applies to a single page)",
            file=sys.stderr,
        )
    return run_batch(expand_sources(args.inputs, kinds), args, options)


def run_single(source: Source, args: argparse.Namespace, options: Options) -> int:
    """Print one article as JSON or text; a page that cannot be read gives status 1."""
    try:
        article = extract_source(source, args, options)
    except ReadError as error:
        print(f"newscrawl extract: {source.label}: {error}", file=sys.stderr)
        return 1
    if args.format == "json":
        write_utf8(_json_line(article.to_dict(with_lines=args.explain)))
    else:
        write_utf8(render_text(article))
        if args.explain:
            write_utf8("\n" + render_explain(article, options, _terminal_width()))
    if not article.body:
        print(f"newscrawl extract: empty body: {article.reason}", file=sys.stderr)
    return 0


def run_batch(sources: Sequence[Source], args: argparse.Namespace, options: Options) -> int:
    """One JSON line per page, a progress bar on a terminal, a summary on stderr."""
    empty = errors = 0
    with tqdm(
        sources, file=sys.stderr, disable=not is_terminal(sys.stderr), unit="page", desc="extract"
    ) as progress:
        for source in progress:
            record = batch_record(source, args, options)
            write_utf8(_json_line(record))
            if "error" in record:
                errors += 1
                tqdm.write(f"newscrawl extract: {source.label}: {record['error']}", file=sys.stderr)
            elif not record["body"]:
                empty += 1
    if not sources:
        print("newscrawl extract: no pages found", file=sys.stderr)
    print(
        f"newscrawl extract: {len(sources)} pages, {empty} empty, {errors} errors", file=sys.stderr
    )
    return 1 if errors else 0


def batch_record(source: Source, args: argparse.Namespace, options: Options) -> dict[str, object]:
    """The JSON line for one page: the article with its path, or the error."""
    if source.error is not None:
        return {"path": source.label, "error": source.error}
    try:
        article = extract_source(source, args, options)
    except ReadError as error:
        return {"path": source.label, "error": str(error)}
    except Exception as error:  # an extractor bug on one page must not lose a long run
        return {"path": source.label, "error": f"extractor failed: {type(error).__name__}: {error}"}
    return {"path": source.label, **article.to_dict(with_lines=args.explain)}


def extract_source(source: Source, args: argparse.Namespace, options: Options) -> Article:
    """Read one page and extract it; ``--charset`` beats the transport's charset."""
    fetched = read_source(source, args.timeout)
    return extract(
        fetched.data,
        fetched.url,
        options=options,
        http_charset=args.charset or fetched.http_charset,
    )


def _json_line(data: dict[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------- inputs


def _classify(name: str) -> SourceKind:
    if name == "-":
        return "stdin"
    if name.lower().startswith(("http://", "https://")):
        return "url"
    return "dir" if os.path.isdir(name) else "file"


def expand_sources(names: Sequence[str], kinds: Sequence[SourceKind]) -> list[Source]:
    """Directories become their pages (sorted); everything else stays in the given order."""
    sources: list[Source] = []
    for name, kind in zip(names, kinds, strict=True):
        if kind == "dir":
            sources.extend(walk_pages(name))
        else:
            sources.append(Source(name, kind))
    return sources


def walk_pages(directory: str) -> list[Source]:
    """Every page file under `directory`, sorted by path; unlistable folders become errors."""
    problems: list[Source] = []

    def note(error: OSError) -> None:
        problems.append(Source(str(error.filename or directory), "dir", _os_reason(error)))

    pages = [
        os.path.join(root, name)
        for root, _dirs, files in os.walk(directory, onerror=note)
        for name in files
        if name.lower().endswith(PAGE_SUFFIXES)
    ]
    pages.sort(key=lambda page: Path(page).parts)
    return problems + [Source(page, "file") for page in pages]


def read_source(source: Source, timeout: float) -> Fetched:
    """The bytes behind `source`; raises `ReadError` with a short reason."""
    if source.kind == "stdin":
        return Fetched(sys.stdin.buffer.read())
    if source.kind == "url":
        return fetch_url(source.label, timeout)
    return Fetched(read_file(Path(source.label)))


def read_file(path: Path) -> bytes:
    """A page file's bytes, gunzipped when the name ends in ``.gz``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReadError(f"cannot read: {_os_reason(error)}") from None
    if not path.name.lower().endswith(".gz"):
        return data
    return _decompress(data, "gzip")


def fetch_url(url: str, timeout: float) -> Fetched:
    """One GET with a browser User-Agent; the Content-Type charset travels with the bytes."""
    request = urllib.request.Request(
        url,
        headers={
            "User-Agent": DESKTOP_USER_AGENT,
            "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8",
            "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
            charset = response.headers.get_content_charset()
            coding = response.headers.get("Content-Encoding", "")
            final_url = response.geturl()
    except urllib.error.HTTPError as error:
        raise ReadError(f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise ReadError(f"cannot fetch: {error.reason}") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise ReadError(f"cannot fetch: {error or type(error).__name__}") from None
    return Fetched(_decompress(data, coding), final_url, charset)


def _decompress(data: bytes, coding: str) -> bytes:
    """Undo a gzip/deflate content coding (servers send one even when not asked)."""
    coding = coding.strip().lower()
    try:
        if coding in ("gzip", "x-gzip"):
            return gzip.decompress(data)
        if coding == "deflate":
            return zlib.decompress(data)
    except (OSError, EOFError, zlib.error) as error:
        raise ReadError(f"cannot decompress ({coding}): {error}") from None
    return data


def _os_reason(error: OSError) -> str:
    return error.strerror or str(error)


# ---------------------------------------------------------------------------- text output


def render_text(article: Article) -> str:
    """Title, blank line, body."""
    return f"{article.title}\n\n{article.body}\n"


def render_explain(article: Article, options: Options, width: int) -> str:
    """The parameters used and the line table, fitted to `width` terminal columns."""
    rows = [*_explain_header(article, options), "", *_line_table(article.lines, width)]
    return "\n".join(rows) + "\n"


def _explain_header(article: Article, options: Options) -> list[str]:
    """What was used (L after the fallback, D) next to what was configured, and the outcome."""
    used = ", ".join(f"{name}={value}" for name, value in article.parameters.items())
    header = [
        f"method: {article.method}  encoding: {article.encoding or '-'}",
        f"parameters used: {used}",
        f"configured: L={options.min_line_length} (fallback L={options.fallback_line_length} "
        f"when no line reaches it), D={options.max_gap}",
    ]
    groups = {line.group for line in article.lines if line.group is not None}
    kept_groups = {line.group for line in article.lines if line.kept and line.group is not None}
    kept = sum(line.kept for line in article.lines)
    header.append(
        f"kept {kept} of {len(article.lines)} lines, {len(kept_groups)} of {len(groups)} groups"
    )
    if article.reason:
        header.append(f"empty because: {article.reason}")
    return header


def _line_table(lines: Sequence[LineDecision], width: int) -> list[str]:
    """One row per line (runs of empty lines folded into one), text clipped to fit."""
    feature_names = _feature_names(lines)
    headers = ["line", *feature_names, "group", "decision", "rule"]
    chunks = _fold_empty_runs(lines)
    rows = [_row(chunk, feature_names) for chunk in chunks]
    widths = [max(_width(cell) for cell in column) for column in zip(headers, *rows, strict=False)]
    numeric = {0, *range(1, 1 + len(feature_names)), len(feature_names) + 1}
    fixed = sum(widths) + 2 * len(widths)
    text_width = max(MIN_TEXT_COLUMN, width - fixed)

    def format_row(cells: Sequence[str], text: str) -> str:
        padded = [
            _pad(cell, column_width, right=index in numeric)
            for index, (cell, column_width) in enumerate(zip(cells, widths, strict=True))
        ]
        return ("  ".join(padded) + "  " + _clip(text, text_width)).rstrip()

    table = [format_row(headers, "text")]
    for chunk, cells in zip(chunks, rows, strict=True):
        table.append(format_row(cells, _chunk_text(chunk)))
    return table


def _feature_names(lines: Iterable[LineDecision]) -> list[str]:
    """Feature keys in first-seen order, so any method's features get a column."""
    names: dict[str, None] = {}
    for line in lines:
        names.update(dict.fromkeys(line.features))
    return list(names)


def _fold_empty_runs(lines: Sequence[LineDecision]) -> list[list[LineDecision]]:
    """Consecutive dropped empty lines decided by the same rule become one chunk."""
    chunks: list[list[LineDecision]] = []
    for line in lines:
        previous = chunks[-1][-1] if chunks else None
        if (
            previous is not None
            and _is_foldable(line)
            and _is_foldable(previous)
            and previous.rule == line.rule
        ):
            chunks[-1].append(line)
        else:
            chunks.append([line])
    return chunks


def _is_foldable(line: LineDecision) -> bool:
    return not line.text and not line.kept


def _row(chunk: Sequence[LineDecision], feature_names: Sequence[str]) -> list[str]:
    first, last = chunk[0], chunk[-1]
    number = str(first.number) if len(chunk) == 1 else f"{first.number}-{last.number}"
    features = [_feature_cell(first.features.get(name)) for name in feature_names]
    group = "-" if first.group is None else str(first.group)
    return [number, *features, group, "kept" if first.kept else "dropped", first.rule]


def _chunk_text(chunk: Sequence[LineDecision]) -> str:
    return f"({len(chunk)} empty lines)" if len(chunk) > 1 else _printable(chunk[0].text)


def _feature_cell(value: int | float | bool | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _terminal_width() -> int:
    return shutil.get_terminal_size(fallback=(120, 24)).columns


def _printable(text: str) -> str:
    """Page text with control characters replaced, so a page cannot drive the terminal."""
    return "".join(char if char.isprintable() else "\ufffd" for char in text)


def _char_width(char: str) -> int:
    """Terminal columns of one character: CJK wide/fullwidth take two."""
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _width(text: str) -> int:
    return sum(_char_width(char) for char in text)


def _pad(text: str, width: int, *, right: bool) -> str:
    padding = " " * max(0, width - _width(text))
    return padding + text if right else text + padding


def _clip(text: str, width: int, marker: str = "...") -> str:
    """`text` cut to `width` terminal columns, with `marker` when something was cut."""
    if _width(text) <= width:
        return text
    room = width - len(marker)
    kept: list[str] = []
    used = 0
    for char in text:
        used += _char_width(char)
        if used > room:
            break
        kept.append(char)
    return "".join(kept) + marker
