"""URL -> (file, offset) of recorded responses, for serving a replay without loading bodies.

The index holds one small tuple per URL; bodies are read from disk when a request asks
for them, so a multi-gigabyte archive replays in little memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from warcio.exceptions import ArchiveLoadFailed

from newscrawl.archive.model import ArchivedResponse
from newscrawl.archive.reader import SkippedRecords, read_response_at, scan_responses, url_key
from newscrawl.bounded import PAGE_SIZE_LIMIT
from newscrawl.closing import Closing


class ArchiveIndex(Closing):
    """Open WARC files and the offset of each URL's response; the last record of a URL wins.

    Only HTTP responses of at most `limit` bytes are served; the other records are counted
    in `skipped` (`newscrawl.archive.reader`); `ArchiveLoadFailed` names a file that is no
    WARC file. Reads seek a shared file handle, so one index serves one thread (Scrapy's
    reactor).
    """

    def __init__(self, paths: Sequence[Path], *, limit: int = PAGE_SIZE_LIMIT) -> None:
        self.skipped = SkippedRecords()
        self._streams = [path.open("rb") for path in paths]
        self._offsets: dict[str, tuple[int, int]] = {}
        try:
            for number, (path, stream) in enumerate(zip(paths, self._streams, strict=True)):
                try:
                    for offset, url in scan_responses(stream, self.skipped, limit=limit):
                        self._offsets[url_key(url)] = (number, offset)
                except ArchiveLoadFailed as error:
                    raise ArchiveLoadFailed(f"{path}: {error}") from None
        except BaseException:
            self.close()
            raise

    def __len__(self) -> int:
        return len(self._offsets)

    def get(self, url: str) -> ArchivedResponse | None:
        """The recorded response for `url` (body as the server sent it), or None."""
        location = self._offsets.get(url_key(url))
        if location is None:
            return None
        number, offset = location
        return read_response_at(self._streams[number], offset)

    def close(self) -> None:
        for stream in self._streams:
            stream.close()
