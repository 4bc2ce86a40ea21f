"""Reads and decompressions that stop at a size limit, for input read outside Scrapy.

Scrapy's downloader refuses a response over ``DOWNLOAD_MAXSIZE``, before and after
decompression; the commands that read pages themselves (files, stdin, one URL) apply the
same limit here, so a huge file or a gzip bomb is refused instead of filling the memory.
"""

from __future__ import annotations

import zlib
from typing import BinaryIO

from newscrawl.settings import DOWNLOAD_MAXSIZE

PAGE_SIZE_LIMIT = DOWNLOAD_MAXSIZE
"""The most bytes of one page read or inflated outside Scrapy: the crawl's own limit."""


class TooLarge(ValueError):
    """Input over the limit; the message says which limit, for a one-line error."""

    def __init__(self, limit: int, what: str = "page") -> None:
        super().__init__(f"{what} larger than {_megabytes(limit)} (DOWNLOAD_MAXSIZE): not read")


def read_at_most(stream: BinaryIO, limit: int = PAGE_SIZE_LIMIT) -> bytes:
    """All of `stream`, or `TooLarge` once it passes `limit` bytes (at most limit + 1 read)."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(limit)
    return data


def gunzip_at_most(data: bytes, limit: int = PAGE_SIZE_LIMIT) -> bytes:
    """Inflate every gzip member of `data` (as `gzip.decompress`), refusing more than `limit`
    bytes of output; raises `zlib.error` for a broken stream, `EOFError` for a cut one."""
    parts: list[bytes] = []
    size = 0
    while data:
        inflater = zlib.decompressobj(wbits=31)
        part = inflater.decompress(data, limit + 1 - size)
        size += len(part)
        if size > limit or inflater.unconsumed_tail:
            raise TooLarge(limit, "decompressed page")
        if not inflater.eof:
            raise EOFError("compressed data ended before the end-of-stream marker")
        parts.append(part)
        data = inflater.unused_data.lstrip(b"\0")  # gzip allows zero padding after a member
    return b"".join(parts)


def inflate_at_most(data: bytes, limit: int = PAGE_SIZE_LIMIT) -> bytes:
    """Inflate a zlib stream (HTTP ``deflate``), refusing more than `limit` bytes of output."""
    inflater = zlib.decompressobj()
    inflated = inflater.decompress(data, limit + 1)
    if len(inflated) > limit or inflater.unconsumed_tail:
        raise TooLarge(limit, "decompressed page")
    if not inflater.eof:
        raise EOFError("compressed data ended before the end-of-stream marker")
    return inflated


def _megabytes(limit: int) -> str:
    return f"{limit / 2**20:g} MB" if limit >= 2**20 else f"{limit:,} bytes"
