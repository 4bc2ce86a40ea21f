"""``newscrawl reextract``: run the extractor again over archived pages, without crawling.

The archive (``-s NEWSCRAWL_ARCHIVE=…`` of a crawl) keeps the raw responses, so a better
extractor or other thresholds can be applied to a whole corpus later. Records stream one
at a time: memory stays flat whatever the archive's size.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from newscrawl.archive import ArchivedResponse, archive_files, iter_responses
from newscrawl.commands import UsageError, write_utf8
from newscrawl.extract import METHODS, Options, extract


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``reextract`` parser and its handler."""
    parser = subparsers.add_parser(
        "reextract",
        help="re-run extraction over WARC archives (JSONL out, no crawling)",
        description="Extract title and body from every HTML 200 response recorded in WARC "
        "archives (files, or directories of *.warc / *.warc.gz) and write one JSON line per "
        "page: url, title, body, method, fetched, encoding. Other records are skipped and "
        "counted in a summary on stderr.",
    )
    parser.add_argument(
        "archives", nargs="+", type=Path, metavar="ARCHIVE", help="WARC file or dir"
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="JSONL output file ('-': stdout)"
    )
    parser.add_argument("--method", choices=METHODS, default="default", help="extraction method")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Extract every archived HTML page to `args.output`; print what was skipped."""
    missing = [str(path) for path in args.archives if not path.exists()]
    if missing:
        raise UsageError(f"no such archive: {', '.join(missing)}")
    files = archive_files(args.archives)
    if not files:
        raise UsageError("no WARC files (*.warc, *.warc.gz) in the given directories")
    options = Options(method=args.method)
    counts: Counter[str] = Counter()
    with _line_writer(args.output) as write_line:
        for response in iter_responses(files, decode_content=True):
            skip = _skip_reason(response)
            counts[skip or "extracted"] += 1
            if skip is None:
                write_line(json.dumps(_article_record(response, options), ensure_ascii=False))
    print(_summary(counts, len(files), args.output), file=sys.stderr)
    return 0


def _skip_reason(response: ArchivedResponse) -> str | None:
    """Why a response record is not an article page (None when it should be extracted)."""
    if response.status != 200:
        return f"status {response.status}"
    if not response.is_html():
        return "not HTML"
    return None


def _article_record(response: ArchivedResponse, options: Options) -> dict[str, object]:
    article = extract(response.body, response.url, options=options, http_charset=response.charset)
    return {
        "url": response.url,
        "title": article.title,
        "body": article.body,
        "method": article.method,
        "fetched": response.fetched.isoformat(),
        "encoding": article.encoding,
    }


def _summary(counts: Counter[str], files: int, output: str) -> str:
    skipped = sorted((reason, n) for reason, n in counts.items() if reason != "extracted")
    total_skipped = sum(n for _, n in skipped)
    detail = ", ".join(f"{reason}: {n}" for reason, n in skipped)
    where = "stdout" if output == "-" else output
    return (
        f"reextract: {counts['extracted']} page(s) from {files} archive file(s) written to "
        f"{where}; {total_skipped} record(s) skipped" + (f" ({detail})" if detail else "")
    )


@contextmanager
def _line_writer(output: str) -> Iterator[Callable[[str], object]]:
    """A function writing one UTF-8 line to `output` (a file path, or '-' for stdout)."""
    if output == "-":
        yield lambda line: write_utf8(line + "\n")
        return
    with open(output, "w", encoding="utf-8", newline="\n") as stream:
        yield lambda line: stream.write(line + "\n")
