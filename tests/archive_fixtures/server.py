"""Serve a fixed table of pages on 127.0.0.1 (ephemeral port) from a background thread."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler

from local_server import LocalServer, QuietHandler, send_page


@dataclass(frozen=True)
class Page:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


def _handler(pages: Mapping[str, Page]) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            page = pages.get(self.path, Page(404, (("Content-Type", "text/plain"),), b"nope"))
            send_page(self, page.status, page.headers, page.body)

    return Handler


class _PageServer(LocalServer):
    quiet_errors = False  # a failing request prints its traceback


@contextmanager
def serve(pages: Mapping[str, Page]) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:PORT``) while `pages` are served; path -> page."""
    with _PageServer(_handler(pages)) as server:
        yield server.url
