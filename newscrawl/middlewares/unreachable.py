"""Do not retry a host that could not be reached through all the retries of a request.

A host whose name does not resolve, or that refuses connections, fails every request the
same way, and each request retried ``RETRY_TIMES`` times with the host's download delay
in between: with no network, a crawl of a few entry points spent over half a minute on
DNS lookups that had already failed for the same host. Once a request to a host has
failed this way for good, the host's other requests are tried once, without retries;
the first answer from the host makes it reachable again, so a host that was down for a
moment costs only the requests made meanwhile (each still counted and logged as failed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import CannotResolveHostError, DownloadConnectionRefusedError
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import ConnectionRefusedError as TwistedConnectionRefused
from twisted.internet.error import DNSLookupError

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response

UNREACHABLE = (
    CannotResolveHostError,
    DNSLookupError,
    DownloadConnectionRefusedError,
    TwistedConnectionRefused,
    ConnectionRefusedError,
)
"""Failures that say a host cannot be reached at all, whatever is asked of it."""
NOT_RETRIED = "newscrawl_unreachable_host"
"""Request meta: set on a request that was not retried because its host was unreachable."""


class UnreachableHostMiddleware:
    """Placed just inside RetryMiddleware, so it sees only the failures retries gave up on."""

    def __init__(self) -> None:
        self.unreachable: set[str] = set()

    def process_request(self, request: Request) -> None:
        if urlparse_cached(request).netloc in self.unreachable:
            request.meta["dont_retry"] = True
            request.meta[NOT_RETRIED] = True

    def process_response(self, request: Request, response: Response) -> Response:
        self.unreachable.discard(urlparse_cached(request).netloc)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if isinstance(exception, UNREACHABLE):
            self.unreachable.add(urlparse_cached(request).netloc)
