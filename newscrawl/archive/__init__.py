"""Raw pages kept as WARC: record a crawl, replay it offline, re-extract it later.

The archive is the corpus of record: extraction can be re-run over it without recrawling,
and a crawl can be replayed from it with no network (tests, benchmarks, debugging a site).
"""

from newscrawl.archive.index import ArchiveIndex
from newscrawl.archive.model import ArchivedRequest, ArchivedResponse
from newscrawl.archive.parts import archive_files
from newscrawl.archive.reader import iter_responses, url_key
from newscrawl.archive.writer import ArchiveWriter, RotatingArchiveWriter

__all__ = [
    "ArchiveIndex",
    "ArchiveWriter",
    "ArchivedRequest",
    "ArchivedResponse",
    "RotatingArchiveWriter",
    "archive_files",
    "iter_responses",
    "url_key",
]
