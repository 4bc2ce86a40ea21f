"""``newscrawl reextract``: run the extractor again over archived pages, without crawling.

The archive (``-s NEWSCRAWL_ARCHIVE=…`` of a crawl) keeps the raw responses, so a better
extractor or other thresholds can be applied to a whole corpus later: the articles of the
store are updated by canonical URL (``--db``), and/or written as the crawl's JSON lines
(``-o``). Only article pages are extracted, as their site's crawl did
(`newscrawl.archive.page_kind`); each item carries what a crawled one does (the same
`extract_fields`, the same extractor options as the crawl's pipeline), so a stored article
cannot tell how it was extracted but by its `extractor_version`.

Records stream one at a time and the store is written in batches, so memory stays flat
whatever the archive's size. A page archived twice (two crawls recorded to one archive) is
written twice in archive order, an archive's parts in the order they were written: the
later copy wins and each is counted. Whatever is not stored is counted by its reason on
stderr: skipped (not an article page, not a 200, not HTML) or dropped (an article page the
extractor found no text in).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scrapy.settings import Settings
from tqdm import tqdm
from warcio.exceptions import ArchiveLoadFailed

from newscrawl.archive import ArchivedResponse, iter_responses
from newscrawl.archive.page_kind import ArticleSites
from newscrawl.archive.reader import SkippedRecords, readable_archive_files
from newscrawl.article import ITEM_FIELDS, extract_fields, for_crawl
from newscrawl.commands import UsageError, fail, is_terminal, write_utf8
from newscrawl.commands.export import store_failed
from newscrawl.commands.extract import add_tunables, build_options, warn_ignored_tunables
from newscrawl.commands.near_duplicate_limit import add_near_duplicate_argument, near_duplicate_bits
from newscrawl.extract import METHODS, Options
from newscrawl.extract.formats import not_html_kind
from newscrawl.sites import SiteConfig, scan_sites
from newscrawl.spiders.loader import site_dirs
from newscrawl.store import ArticleRecord, Store, StoreError, WriteOutcome, open_store
from newscrawl.store.records import record_from_item

COMMAND = "reextract"
BATCH = 500
"""Articles per store transaction."""
OUTCOME_WORDS = {
    WriteOutcome.NEW: "new",
    WriteOutcome.UPDATED: "changed",
    WriteOutcome.UNCHANGED: "unchanged",
    WriteOutcome.DUPLICATE: "duplicate",
    WriteOutcome.REFUSED: "refused (URL too long)",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``reextract`` parser and its handler."""
    defaults = Options()
    parser = subparsers.add_parser(
        "reextract",
        help="re-run extraction over WARC archives into the store and/or JSONL (no crawling)",
        description="Extract every article page recorded in WARC archives (files, "
        "directories of *.warc / *.warc.gz, or the NEWSCRAWL_ARCHIVE name a crawl recorded "
        "to, which stands for that file if it exists and then its parts name-00000.warc.gz, "
        "name-00001.warc.gz, … in order) again, as the crawl that recorded it did, and "
        "update the store's articles by canonical URL (--db) and/or write one JSON line per "
        "article (-o), the crawl's item fields; a store that does not exist yet is created. "
        "Article pages are those the archive recorded "
        "as such, or, in archives recorded before page kinds were, those a site config's "
        "URL patterns call articles. A summary on stderr counts new, changed, unchanged and "
        "duplicate articles and every record skipped or dropped, by reason; a progress bar "
        "shows on a terminal.",
        epilog="exit status: 0 when done, 1 when the store or an archive failed midway or no "
        "article at all was extracted from a non-empty archive, 2 for usage errors "
        "(including a store that cannot be opened).",
    )
    parser.add_argument(
        "archives",
        nargs="+",
        type=Path,
        metavar="ARCHIVE",
        help="WARC file, directory of them, or a crawl's NEWSCRAWL_ARCHIVE name (all its parts)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="update the articles of the store at this database URL (sqlite:///… or "
        "postgresql://…), creating it (file, tables) as a crawl does when it does not exist",
    )
    add_near_duplicate_argument(parser)
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write JSON lines to FILE ('-': stdout)"
    )
    parser.add_argument(
        "--sites",
        metavar="DIR",
        default=os.environ.get("NEWSCRAWL_SITES_DIR") or None,
        help="a directory of site configs, added to the bundled ones and overriding them, as "
        "the crawl's NEWSCRAWL_SITES_DIR (default: $NEWSCRAWL_SITES_DIR)",
    )
    parser.add_argument(
        "--method", choices=METHODS, default=defaults.method, help="extraction method"
    )
    add_tunables(parser, defaults)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Re-extract every archived article page; print the counts."""
    if args.db is None and args.output is None:
        raise UsageError("give --db URL (the store to update), -o FILE (JSON lines), or both")
    files = _readable_archives(args.archives)
    sites = ArticleSites(_site_configs(args.sites))
    options = for_crawl(build_options(args))  # as the crawl's extract pipeline does
    warn_ignored_tunables(COMMAND, args, options)
    if args.output not in (None, "-"):
        _check_writable(Path(args.output))  # before the store is created
    try:
        with ExitStack() as stack:
            # Created as a crawl creates it: filling a new store from an archive is a first use.
            store = (
                stack.enter_context(
                    open_store(args.db, near_duplicate_bits=near_duplicate_bits(args))
                )
                if args.db
                else None
            )
            try:
                write_line = stack.enter_context(_line_writer(args.output)) if args.output else None
            except OSError as error:
                return fail(COMMAND, f"cannot write {args.output}: {error.strerror or error}")
            job = Reextraction(sites, options, store, write_line)
            problem = _process(job, files, args.output)
    except StoreError as error:  # could not open (status 2), or failed midway (1)
        return store_failed(COMMAND, error)
    if problem is not None:
        return fail(COMMAND, problem, 1)
    if job.responses and not job.extracted:
        return fail(COMMAND, f"no article extracted from {job.responses} response record(s)", 1)
    return 0


def _process(job: Reextraction, files: Sequence[Path], output: str | None) -> str | None:
    """Run `job` over `files` and print its summary; what stopped it early, if anything
    (not a store failure: `StoreError` is raised). What was extracted is written either way."""
    try:
        job.process(files)
    except StoreError:
        raise
    except ArchiveLoadFailed as error:
        return f"reading the archive failed {_after(job)}: {error}"
    except Exception as error:  # a bug: one line, not a traceback through a long run
        return f"failed {_after(job)}: {type(error).__name__}: {error}"
    finally:
        print(job.summary(files, output), file=sys.stderr)
    return None


def _after(job: Reextraction) -> str:
    return f"after {job.responses} response record(s)"


class Reextraction:
    """One run: classify, extract and write each archived response; count what happened."""

    def __init__(
        self,
        sites: ArticleSites,
        options: Options,
        store: Store | None,
        write_line: Callable[[str], object] | None,
    ) -> None:
        self._sites = sites
        self._options = options
        self._store = store
        self._write_line = write_line
        self._changed_at = datetime.now(UTC)
        """A changed body's `last_changed`: this run's time, so exports ``--since`` see it."""
        self._pending: dict[str, ArticleRecord] = {}
        self._started = time.perf_counter()
        self.responses = 0
        self.extracted = 0
        self.outcomes: Counter[WriteOutcome] = Counter()
        self.skipped: Counter[str] = Counter()
        self.skipped_records = SkippedRecords()
        """Records that are no HTTP response this run can read, by kind."""
        self.dropped: Counter[str] = Counter()

    def process(self, files: Sequence[Path]) -> None:
        """Read every response of `files`. Raises `StoreError` or warcio's `ArchiveLoadFailed`
        midway; what was extracted before is written all the same."""
        total = sum(path.stat().st_size for path in files)
        with tqdm(
            total=total,
            unit="B",
            unit_scale=True,
            unit_divisor=1024,
            desc=COMMAND,
            file=sys.stderr,
            disable=not is_terminal(sys.stderr),
        ) as bar:
            try:
                for response in iter_responses(
                    files, skipped=self.skipped_records, on_read=bar.update
                ):
                    self.add(response)
            finally:
                self.flush()

    def add(self, response: ArchivedResponse) -> None:
        """Extract one response if it is an article page; count it either way."""
        self.responses += 1
        site = self._sites.site_of(response)
        if isinstance(site, str):
            self.skipped[site] += 1
            return
        if response.status != 200:
            self.skipped[f"status {response.status}"] += 1
            return
        if not response.is_html():
            self.skipped[f"not HTML ({response.media_type or 'no Content-Type'})"] += 1
            return
        item = self._item(response, site)
        if item is None:
            return
        self.extracted += 1
        if self._write_line is not None:
            line = {f.name: item.get(f.name) for f in ITEM_FIELDS}
            self._write_line(json.dumps(line, ensure_ascii=False))
        if self._store is not None:
            self._queue(record_from_item(item, site.canonicalizer, default_site=site.name))

    def _item(self, response: ArchivedResponse, site: SiteConfig) -> dict[str, Any] | None:
        """The crawl's article item for `response`, or None (counted) when it has no text."""
        fetched = response.fetched.isoformat(timespec="seconds")
        charset = site.charset or response.header("Content-Type")
        try:
            extracted = extract_fields(
                response.body, response.url, charset, fetched, self._options, site.timezone.key
            )
        except Exception as error:  # an extractor bug on one page must not lose a long run
            reason = f"extractor failed: {type(error).__name__}"
            tqdm.write(f"newscrawl {COMMAND}: {response.url}: {reason}: {error}", file=sys.stderr)
            self.dropped[reason] += 1
            return None
        if (kind := not_html_kind(extracted.reason)) is not None:
            self.skipped[f"not HTML ({kind})"] += 1
            return None
        if extracted.reason is not None:
            self.dropped[extracted.reason] += 1
            return None
        return {
            "url": response.url,
            "final_url": response.url,
            "site": site.name,
            "status": response.status,
            "referer": response.found_on,
            "fetched": fetched,
            **extracted.fields,
        }

    def _queue(self, record: ArticleRecord | None) -> None:
        """Batch `record`; a URL already in the batch first sends the batch, so each copy
        of a page gets its own outcome and the later one wins."""
        if record is None:
            self.dropped["not an article record"] += 1
            return
        if record.canonical_url in self._pending:
            self.flush()
        self._pending[record.canonical_url] = record
        if len(self._pending) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the pending batch (one transaction) and count its outcomes; a batch the
        store failed to write is not tried again."""
        if self._store is None or not self._pending:
            return
        batch = list(self._pending.values())
        self._pending.clear()
        outcomes = self._store.write(batch, changed_at=self._changed_at)
        self.outcomes.update(outcomes.values())

    def summary(self, files: Sequence[Path], output: str | None) -> str:
        """What the run did, a few lines for stderr."""
        elapsed = time.perf_counter() - self._started
        rate = self.responses / elapsed if elapsed > 0 else 0.0
        lines = [
            f"reextract: {self.responses} response record(s) from {len(files)} archive "
            f"file(s) in {elapsed:.1f} s ({rate:.1f} pages/s); {self.extracted} article(s) "
            "extracted"
        ]
        if self._store is not None:
            stored = ", ".join(f"{self.outcomes[o]} {word}" for o, word in OUTCOME_WORDS.items())
            lines.append(f"reextract: store: {stored}")
        if output is not None:
            where = "stdout" if output == "-" else output
            lines.append(f"reextract: {self.extracted} JSON line(s) written to {where}")
        lines.append(_counted("dropped", self.dropped))
        lines.append(_counted("skipped", self.skipped))
        if self.skipped_records:
            lines.append(f"reextract: skipped records: {self.skipped_records.summary()}")
        return "\n".join(lines)


def _counted(what: str, counts: Counter[str]) -> str:
    detail = ", ".join(f"{reason}: {n}" for reason, n in sorted(counts.items()))
    return f"reextract: {counts.total()} {what}" + (f" ({detail})" if detail else "")


def _readable_archives(paths: Sequence[Path]) -> list[Path]:
    """The WARC files named, in write order (`readable_archive_files`); a usage error for a
    path that names no file, directory or archive parts, a directory without WARC files, or
    a file that cannot be read or does not begin as a WARC file."""
    try:
        return readable_archive_files(paths)
    except ValueError as error:
        raise UsageError(str(error)) from None


def _check_writable(output: Path) -> None:
    """A usage error unless a file can be written at `output` (nothing is created)."""
    folder = output.parent
    if output.is_dir():
        raise UsageError(f"cannot write {output}: is a directory")
    if not folder.is_dir():
        raise UsageError(f"cannot write {output}: no such directory {folder}")
    if not os.access(output if output.exists() else folder, os.W_OK):
        raise UsageError(f"cannot write {output}: permission denied")


def _site_configs(directory: str | None) -> list[SiteConfig]:
    """The site configs a crawl would use: the bundled ones, then `directory`'s overriding
    them. An invalid config is left out with a warning, as the crawl does; its pages are
    then counted as having no site config."""
    if directory and not Path(directory).expanduser().is_dir():
        raise UsageError(f"--sites {directory}: no such directory")
    settings = Settings({"NEWSCRAWL_BUILTIN_SITES": True, "NEWSCRAWL_SITES_DIR": directory or ""})
    found = scan_sites(site_dirs(settings))
    for name, error in found.errors.items():
        warning = f"site {name!r} left out, its config is invalid: {error}"
        print(f"newscrawl {COMMAND}: warning: {warning}", file=sys.stderr)
    return list(found.sites.values())


@contextmanager
def _line_writer(output: str) -> Iterator[Callable[[str], object]]:
    """A function writing one UTF-8 line to `output` (a file path, or '-' for stdout)."""
    if output == "-":
        yield lambda line: write_utf8(line + "\n")
        return
    with open(output, "w", encoding="utf-8", newline="\n") as stream:
        yield lambda line: stream.write(line + "\n")
