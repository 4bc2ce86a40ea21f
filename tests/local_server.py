"""A threaded HTTP server on 127.0.0.1 (ephemeral port) for tests, as a context manager.

Subclass `LocalServer` (or use it as is) with a request handler class; `url` is
``http://127.0.0.1:PORT``. Entering starts `serve_forever` on a background thread; leaving
calls `release_held` (let requests a test holds go), then shuts the server down.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class QuietHandler(BaseHTTPRequestHandler):
    """A request handler that logs nothing (keeps the test output quiet)."""

    def log_message(self, format: str, *args: object) -> None:
        """Keep the test output quiet."""


def send_page(
    handler: BaseHTTPRequestHandler, status: int, headers: Iterable[tuple[str, str]], body: bytes
) -> None:
    """Answer a request with `status`, `headers` (plus Content-Length) and `body`."""
    handler.send_response(status)
    for name, value in headers:
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 90) -> None:
    """Poll `condition` until it holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class _Server(ThreadingHTTPServer):
    request_queue_size = 64
    """The default listen backlog (5) drops the SYNs of a crawl opening 8 connections at
    once; the kernel resends them only a second later (a timeout at DOWNLOAD_TIMEOUT=1)."""

    quiet_errors = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A crawler killed mid-response, or giving up on a slow page, resets the
        connection: expected here (unless `quiet_errors` is off)."""
        if not self.quiet_errors:
            super().handle_error(request, client_address)


class LocalServer:
    """Serves `handler` on 127.0.0.1 while entered.

    Class attributes: `daemon_threads` (False: `server_close` waits for the request threads
    still running) and `quiet_errors` (False: a failing request prints its traceback).
    """

    daemon_threads = True
    quiet_errors = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._server = _Server(("127.0.0.1", 0), handler)
        self._server.daemon_threads = self.daemon_threads
        self._server.quiet_errors = self.quiet_errors
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def release_held(self) -> None:
        """Hook: let go of requests held by the test, before the server shuts down."""

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release_held()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
