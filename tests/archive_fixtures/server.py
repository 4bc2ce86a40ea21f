"""Serve a fixed table of pages on 127.0.0.1 (ephemeral port) from a background thread."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread


@dataclass(frozen=True)
class Page:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


def _handler(pages: Mapping[str, Page]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            page = pages.get(self.path, Page(404, (("Content-Type", "text/plain"),), b"nope"))
            self.send_response(page.status)
            for name, value in page.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(page.body)))
            self.end_headers()
            self.wfile.write(page.body)

        def log_message(self, format: str, *args: object) -> None:
            """Keep the test output quiet."""

    return Handler


@contextmanager
def serve(pages: Mapping[str, Page]) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:PORT``) while `pages` are served; path -> page."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(pages))
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
