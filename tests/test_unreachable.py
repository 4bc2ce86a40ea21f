"""UnreachableHostMiddleware: once a request used up its retries on a host that cannot be
reached, the host's other requests are tried once; an answer from the host ends that."""

from __future__ import annotations

from scrapy import Request
from scrapy.exceptions import CannotResolveHostError, DownloadTimeoutError
from scrapy.http import Response

from newscrawl.middlewares.unreachable import NOT_RETRIED, UnreachableHostMiddleware


def attempt(middleware: UnreachableHostMiddleware, url: str) -> Request:
    request = Request(url)
    middleware.process_request(request)
    return request


def test_a_host_that_did_not_resolve_is_tried_once_until_it_answers() -> None:
    middleware = UnreachableHostMiddleware()
    first = attempt(middleware, "https://gone.example/a")
    assert not first.meta.get("dont_retry")
    middleware.process_exception(first, CannotResolveHostError("DNS lookup failed"))

    second = attempt(middleware, "https://gone.example/b")
    assert second.meta["dont_retry"] and second.meta[NOT_RETRIED]
    assert not attempt(middleware, "https://other.example/a").meta.get("dont_retry")

    middleware.process_response(second, Response(second.url))
    assert not attempt(middleware, "https://gone.example/c").meta.get("dont_retry")


def test_a_timeout_says_nothing_of_the_host() -> None:
    middleware = UnreachableHostMiddleware()
    slow = attempt(middleware, "https://slow.example/a")
    middleware.process_exception(slow, DownloadTimeoutError("took longer than 30 s"))
    assert not attempt(middleware, "https://slow.example/b").meta.get("dont_retry")
