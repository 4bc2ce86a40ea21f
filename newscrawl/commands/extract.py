"""``newscrawl extract``: run the extractor on files, stdin, a directory or a URL.

For trying pages out and tuning the extractor (``--explain`` shows the line table the
decision was made on, rendered by `explain_table`). Crawling is Scrapy's job; the URL input
is a single polite fetch, nothing more.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import urllib.error
import urllib.request
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from tqdm import tqdm
from w3lib.encoding import resolve_encoding

from newscrawl.bounded import TooLarge, gunzip_at_most, inflate_at_most, read_at_most
from newscrawl.commands import UsageError, is_terminal, write_utf8
from newscrawl.commands.explain_table import render_explain, terminal_width
from newscrawl.extract import METHODS, Article, Options, extract
from newscrawl.extract.formats import UNKNOWN_BINARY, not_html_kind

DESKTOP_USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
    "(KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
)
"""Sites serve stripped or blocked pages to ``Python-urllib``; a browser UA gets the real one."""

PAGE_SUFFIXES = (".html", ".htm", ".html.gz", ".htm.gz")
"""Files a directory walk picks up (case-insensitive)."""

DEFAULT_TIMEOUT = 20.0
TUNABLES = ("min_line_length", "fallback_line_length", "max_gap")
"""`Options` fields the command line can override; the flags carry the same names. They are
the paper method's L and D: the default method reads none of them."""

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
            "Extract the title, body and metadata (publish time, author, ...) of HTML pages "
            "with a text-line extractor. "
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
        help="paper: the published algorithm exactly (long lines grouped by L and D); "
        "default: the project's extractor (lines scored by text, link text, punctuation and "
        "markup; the best-scoring region is the body) (default: %(default)s)",
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
    add_tunables(parser, defaults)
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


def add_tunables(parser: argparse.ArgumentParser, defaults: Options) -> None:
    """The paper method's parameters, one flag per `Options` field (see `TUNABLES`)."""
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
            help=f"{helps[name]} (--method paper only; default: {getattr(defaults, name)})",
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


def warn_ignored_tunables(command: str, args: argparse.Namespace, options: Options) -> None:
    """Say so when L/D flags meet a method that never reads them, rather than silently
    giving the same result as without them."""
    given = [name for name in TUNABLES if getattr(args, name) is not None]
    if given and options.method != "paper":
        flags = ", ".join("--" + name.replace("_", "-") for name in given)
        print(
            f"newscrawl {command}: {flags}: only --method paper reads these; "
            f"ignored by --method {options.method}",
            file=sys.stderr,
        )


# ---------------------------------------------------------------------------- handler


def run(args: argparse.Namespace) -> int:
    """Handler: one input prints one result; several inputs or a directory print JSON lines."""
    options = build_options(args)
    warn_ignored_tunables("extract", args, options)
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
            write_utf8("\n" + render_explain(article, options, terminal_width()))
    if (kind := not_html_kind(article.reason)) is not None:
        print(f"newscrawl extract: {source.label}: {_not_html_message(kind)}", file=sys.stderr)
    elif not article.body:
        print(f"newscrawl extract: empty body: {article.reason}", file=sys.stderr)
    return 0


def _not_html_message(kind: str) -> str:
    """Say what the file is, so "empty body" is not read as the extractor failing on a page."""
    what = "" if kind == UNKNOWN_BINARY else f" ({kind})"
    return f"not an HTML page but a binary file{what}: nothing to extract"


def run_batch(sources: Sequence[Source], args: argparse.Namespace, options: Options) -> int:
    """One JSON line per page, a progress bar on a terminal, a summary on stderr (binary files
    are named there as they come, and counted as empty)."""
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
                reason = record["reason"]
                if (kind := not_html_kind(reason if isinstance(reason, str) else None)) is not None:
                    message = f"newscrawl extract: {source.label}: {_not_html_message(kind)}"
                    tqdm.write(message, file=sys.stderr)
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
    """The bytes behind `source`, at most the crawl's page size limit (`newscrawl.bounded`);
    raises `ReadError` with a short reason."""
    if source.kind == "stdin":
        try:
            return Fetched(read_at_most(sys.stdin.buffer))
        except TooLarge as error:
            raise ReadError(str(error)) from None
    if source.kind == "url":
        return fetch_url(source.label, timeout)
    return Fetched(read_file(Path(source.label)))


def read_file(path: Path) -> bytes:
    """A page file's bytes, gunzipped when the name ends in ``.gz``."""
    try:
        with path.open("rb") as stream:
            data = read_at_most(stream)
    except OSError as error:
        raise ReadError(f"cannot read: {_os_reason(error)}") from None
    except TooLarge as error:
        raise ReadError(str(error)) from None
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
            data = read_at_most(response)
            charset = response.headers.get_content_charset()
            coding = response.headers.get("Content-Encoding", "")
            final_url = response.geturl()
    except urllib.error.HTTPError as error:
        raise ReadError(f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise ReadError(f"cannot fetch: {error.reason}") from None
    except TooLarge as error:
        raise ReadError(str(error)) from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise ReadError(f"cannot fetch: {error or type(error).__name__}") from None
    return Fetched(_decompress(data, coding), final_url, charset)


def _decompress(data: bytes, coding: str) -> bytes:
    """Undo a gzip/deflate content coding (servers send one even when not asked), inflating
    no more than the page size limit (a gzip bomb is refused, not expanded)."""
    coding = coding.strip().lower()
    try:
        if coding in ("gzip", "x-gzip"):
            return gunzip_at_most(data)
        if coding == "deflate":
            return inflate_at_most(data)
    except TooLarge as error:
        raise ReadError(str(error)) from None
    except (EOFError, zlib.error) as error:
        raise ReadError(f"cannot decompress ({coding}): {error}") from None
    return data


def _os_reason(error: OSError) -> str:
    return error.strerror or str(error)


# ---------------------------------------------------------------------------- text output


def render_text(article: Article) -> str:
    """Title, blank line, body."""
    return f"{article.title}\n\n{article.body}\n"
