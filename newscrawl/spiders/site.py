"""The one spider class: a site's TOML config says where to start and which links to take.

`SiteSpiderLoader` builds a subclass per config (``name`` and ``site`` set), so
``scrapy crawl sina`` runs this class on the bundled ``sina.toml``. Discovery callbacks
(`parse` for HTML listings, `parse_feed`, `parse_sitemap`, `parse_api`) only yield
requests; `parse_article` yields one `RawPage` per article page for the pipelines.

Spider arguments: ``-a since=YYYY-MM-DD`` skips feed, sitemap and API entries dated before
it; ``-a max_pages=N`` stops after N article pages; ``-a start_urls=u1,u2`` replaces the
config's entry points (each one's kind is sniffed from the response; one that leads to no
article and no link is named in a WARNING, and a crawl where none did fails);
``-a article_urls=u1,u2`` has those pages extracted as articles whatever the site's article
patterns say (with them alone, the config's entry points are not crawled);
``-a recrawl=true`` fetches stored articles again. `parse_spider_arguments` checks them all
(the spider on construction, ``scrapy crawl`` before it starts, through
`check_spider_arguments`), so a typo is one line of error, not a traceback or an argument
silently ignored.

A ``start_urls`` or ``article_urls`` URL outside the site's ``allowed_domains`` is fetched
all the same, since the user asked for it by name: its request alone carries
``allow_offsite`` (honoured by Scrapy's OffsiteMiddleware, and kept across its redirects),
with one INFO line saying so.
Links found on it are followed only inside ``allowed_domains``, as everywhere else.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.exceptions import CloseSpider, IgnoreRequest
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.link import Link
from scrapy.linkextractors import LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.sitemap import sitemap_urls_from_robots

from newscrawl.crawl_contract import ARTICLE_META, FOUND_ON, SeenArticle
from newscrawl.discovery import (
    API_PARSERS,
    Entry,
    MalformedListError,
    parse_feed,
    parse_since,
    parse_sitemap,
    sniff_kind,
)
from newscrawl.discovery.xml import refused_entities
from newscrawl.extract import decode_html
from newscrawl.extract.formats import UNKNOWN_BINARY
from newscrawl.extract.formats import not_html as binary_kind
from newscrawl.items import RawPage
from newscrawl.monitoring.network_errors import failed_request_line
from newscrawl.monitoring.summary import EMPTY_START_URLS
from newscrawl.sites import EntryPoint, SiteConfig
from newscrawl.spiders.errors import SpiderArgumentError

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
"""Besides ``text/*``, the declared types an article or listing page may come with."""
GIVEN_ARTICLE = "newscrawl_given_article"
"""Request meta key: an ``-a article_urls`` page, extracted whatever the article patterns say."""
SPIDER_ARGUMENTS = ("article_urls", "max_pages", "recrawl", "since", "start_urls")
"""The ``-a`` names a site spider takes. Any other is refused (``max_page=5`` would otherwise
be ignored without a word), except names starting with ``_``, which scrapyd adds (``_job``)."""
_BASE_TAG_RE = re.compile(rb"<base\b", re.IGNORECASE)
"""A ``<base`` start tag, renamed where its URL cannot be read (`SiteSpider._links`)."""
_BOOLEAN_WORDS = frozenset({"", "0", "1", "false", "true", "no", "yes", "off", "on"})


@dataclass(frozen=True, slots=True)
class SpiderArguments:
    """The spider arguments, parsed."""

    since: datetime | None = None
    max_pages: int | None = None
    start_urls: tuple[str, ...] = ()
    article_urls: tuple[str, ...] = ()


def parse_spider_arguments(site: SiteConfig, arguments: Mapping[str, Any]) -> SpiderArguments:
    """Parse a site spider's ``-a`` arguments; raises `SpiderArgumentError` (one line)."""
    unknown = sorted(
        name for name in arguments if name not in SPIDER_ARGUMENTS and not name.startswith("_")
    )
    if unknown:
        known = ", ".join(SPIDER_ARGUMENTS)
        raise SpiderArgumentError(f"unknown spider argument {unknown[0]!r} (known: {known})")
    since = arguments.get("since")
    try:
        parsed_since = parse_since(str(since), site.timezone) if since else None
    except ValueError as error:
        raise SpiderArgumentError(str(error)) from None
    recrawl = arguments.get("recrawl")
    if recrawl is not None and str(recrawl).strip().lower() not in _BOOLEAN_WORDS:
        raise SpiderArgumentError(f"recrawl={recrawl!r} must be true or false")
    return SpiderArguments(
        since=parsed_since,
        max_pages=_positive_int("max_pages", arguments.get("max_pages")),
        start_urls=_urls("start_urls", arguments.get("start_urls")),
        article_urls=_urls("article_urls", arguments.get("article_urls")),
    )


def check_spider_arguments(spider_cls: type[Spider], arguments: Mapping[str, Any]) -> None:
    """Raise `SpiderArgumentError` (one line) if `spider_cls` would refuse `arguments`; for
    ``scrapy crawl`` to call before it starts. Spiders other than site spiders pass."""
    site = getattr(spider_cls, "site", None)
    if isinstance(site, SiteConfig):
        parse_spider_arguments(site, arguments)


ROBOTS_FORBIDDEN_MESSAGE = "Forbidden by robots.txt"
"""What Scrapy's RobotsTxtMiddleware refuses a request with (it counts the refusal itself,
as ``robotstxt/forbidden``)."""


class SiteSpider(Spider):
    """Crawl one site as its `SiteConfig` describes.

    Hrefs are stripped of all Unicode whitespace, not only ASCII as HTML does: portal
    editors paste links with a trailing NBSP (Sina's 2018 home page), which would otherwise
    become ``%C2%A0`` and a dead URL.

    Arguments (``-a``) are those of `SPIDER_ARGUMENTS`; a bad one raises
    `SpiderArgumentError`. A ``start_urls`` or ``article_urls`` URL outside
    ``allowed_domains`` is fetched anyway (the user named it), but links found on it only
    inside them.
    """

    site: ClassVar[SiteConfig]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        arguments = parse_spider_arguments(self.site, kwargs)
        parsed = ("since", "max_pages", "start_urls", "article_urls")
        super().__init__(*args, **{k: v for k, v in kwargs.items() if k not in parsed})
        self.since = arguments.since
        self.max_pages = arguments.max_pages
        self.article_pages = 0
        self.article_urls = arguments.article_urls
        given = bool(arguments.start_urls or arguments.article_urls)
        self.entries: tuple[EntryPoint, ...] = (
            tuple(EntryPoint("html", url) for url in arguments.start_urls)
            if given
            else self.site.entries
        )
        self.sniff_entries = given
        self.link_extractor = LinkExtractor(
            tags=("a", "area"),
            canonicalize=False,
            process_value=str.strip,
        )

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        """Apply the site's politeness, headers, User-Agent and URL canonicalisation (its
        tracking parameters and twin hosts, for the store's canonical URLs), and the default
        JSONL feed if none is set.

        Set at ``spider`` priority, so ``-s`` on the command line still wins.
        """
        super().update_settings(settings)
        politeness = cls.site.politeness
        overrides: dict[str, Any] = {
            "DOWNLOAD_DELAY": politeness.download_delay,
            "CONCURRENT_REQUESTS_PER_DOMAIN": politeness.concurrency,
            "DEPTH_LIMIT": politeness.depth_limit,
            "NEWSCRAWL_TRACKING_PARAMS": list(cls.site.drop_params) or None,
            "NEWSCRAWL_HOST_TWINS": dict(cls.site.host_twins) or None,
            "USER_AGENT": cls.site.user_agent,
        }
        if cls.site.headers:
            headers = {**settings.getdict("DEFAULT_REQUEST_HEADERS"), **cls.site.headers}
            overrides["DEFAULT_REQUEST_HEADERS"] = headers
        default_feed = settings.get("NEWSCRAWL_DEFAULT_FEED")
        if default_feed and not settings.getdict("FEEDS"):
            overrides["FEEDS"] = {default_feed: {"format": "jsonlines"}}
        for name, value in overrides.items():
            if value is not None:
                settings.set(name, value, priority="spider")

    async def start(self) -> AsyncIterator[Request]:
        for entry in self.entries:
            yield self._entry_request(entry)
        for url in self.article_urls:
            yield self._given_article_request(url)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Request]:
        """An HTML listing page: request its article links and follow its listing links."""
        not_html = _not_html(response)
        if not_html:
            self._count(f"skipped/not_html/{not_html}")
            return
        assert isinstance(response, TextResponse)
        # Read as HTML whatever its type said: text/plain holding JSON parses to a dict.
        response = response.replace(cls=HtmlResponse, encoding=self._encoding(response))
        for link in self._links(response):
            url = self.site.clean_url(link.url)
            if not self.site.is_allowed(url):
                continue
            if self.site.is_article(url):
                yield self._article_request(url, response.url)
            elif self.site.is_followed(url):
                yield Request(url, callback=self.parse, errback=self.on_error)

    def _links(self, response: HtmlResponse) -> list[Link]:
        """The listing's links. A ``<base href>`` no URL parser reads (an unclosed IPv6
        bracket) made the link extractor raise: it is counted and left out, and the links
        resolve against the page's URL, as a browser resolves them."""
        try:
            return self.link_extractor.extract_links(response)
        except ValueError:
            self._count("discovery/unreadable_base")
            body = _BASE_TAG_RE.sub(b"<ignored-base", response.body)
            return self.link_extractor.extract_links(response.replace(body=body))

    def parse_feed(self, response: Response) -> Iterator[Request]:
        """An RSS or Atom feed: request its entries."""
        try:
            entries = parse_feed(response.body, response.url, self.site.timezone)
        except MalformedListError as error:
            self._malformed("rss", response, str(error))
            return
        refused = refused_entities(response.body)
        if refused:
            self._malformed("rss", response, f"{refused}; {len(entries)} entries read")
        yield from self._entry_requests(entries, response.url)

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        """A sitemap: request its pages, or its child sitemaps when it is an index.

        A ``robots.txt`` entry point stands for the sitemaps its ``Sitemap:`` lines name.
        """
        if urlsplit(response.url).path == "/robots.txt":
            for url in sitemap_urls_from_robots(response.body, base_url=response.url):
                if self._requestable(url):
                    yield Request(url, callback=self.parse_sitemap, errback=self.on_error)
            return
        max_size = self.settings.getint("DOWNLOAD_MAXSIZE")
        try:
            sitemap = parse_sitemap(
                response.body, response.url, self.site.timezone, max_size=max_size
            )
        except MalformedListError as error:
            self._malformed("sitemap", response, str(error))
            return
        if sitemap.refused:
            self._malformed(
                "sitemap", response, f"{sitemap.refused}; {len(sitemap.entries)} entries read"
            )
        if not sitemap.is_index:
            yield from self._entry_requests(sitemap.entries, response.url)
            return
        for entry in self._recent(sitemap.entries):
            if self._requestable(entry.url):
                yield Request(entry.url, callback=self.parse_sitemap, errback=self.on_error)

    def parse_api(self, response: Response, parser: str) -> Iterator[Request]:
        """A JSON(P) list API response, read by the named parser of the entry point."""
        if not isinstance(response, TextResponse):
            response = TextResponse(response.url, body=response.body, encoding="utf-8")
        try:
            entries = API_PARSERS[parser](response.text, response.url, self.site.timezone)
        except MalformedListError as error:
            self._malformed(f"api/{parser}", response, str(error))
            return
        yield from self._entry_requests(entries, response.url)

    def parse_sniffed(self, response: Response) -> list[Request]:
        """A ``-a start_urls`` entry: a feed, a sitemap or an HTML listing, judged by its body.

        One that yields no request at all is named in a WARNING and in the stats
        (`EMPTY_START_URLS`, for the crawl's verdict): the user asked for it by name.
        """
        kind = sniff_kind(response.body)
        parse = {"rss": self.parse_feed, "sitemap": self.parse_sitemap}.get(kind, self.parse)
        requests = list(parse(response))
        if not requests:
            assert self.crawler.stats is not None
            empty = self.crawler.stats.get_value(EMPTY_START_URLS) or []
            self.crawler.stats.set_value(EMPTY_START_URLS, [*empty, response.url])
            self.logger.warning(
                "start URL %s (read as %s) led to no article and no link to one; to have it "
                "extracted as an article: -a article_urls=%s",
                response.url,
                kind,
                response.url,
            )
        return requests

    def parse_article(self, response: Response) -> Iterator[RawPage]:
        """An article page: yield it whole for the extract pipeline."""
        not_html = _not_html(response)
        if not_html:
            self._count(f"skipped/not_html/{not_html}")
            return
        given = response.meta.get(GIVEN_ARTICLE)
        if not given and not self.site.is_article(self.site.clean_url(response.url)):
            self._count("skipped/redirected_off_pattern")
            return
        if self.max_pages is not None and self.article_pages >= self.max_pages:
            self._count("skipped/max_pages")
            return
        self.article_pages += 1
        yield RawPage.from_response(
            response,
            site=self.name,
            referer=response.meta.get(FOUND_ON),
            charset=self.site.charset,
            timezone=self.site.timezone.key,
        )
        if self.article_pages == self.max_pages:
            raise CloseSpider("max_pages")

    def on_error(self, failure: Failure) -> None:
        """Count a failed request by its reason (HTTP status or exception class).

        A stored article skipped by the incremental middleware is not a failure, nor is a
        request robots.txt forbids: the incremental middleware and Scrapy's robots.txt
        middleware count those, and the run summary shows them apart from failures.
        """
        error = failure.value
        if isinstance(error, SeenArticle):
            return
        if isinstance(error, IgnoreRequest) and str(error) == ROBOTS_FORBIDDEN_MESSAGE:
            return
        reason = (
            f"http_{error.response.status}"
            if isinstance(error, HttpError)
            else type(error).__name__
        )
        self._count(f"failed/{reason}")
        request = getattr(failure, "request", None)  # set by Scrapy on errback failures
        self.logger.log(*failed_request_line(error, request))

    def _entry_request(self, entry: EntryPoint) -> Request:
        """The request for a configured (or ``-a start_urls``) entry point."""
        if self.sniff_entries:
            return self._start_url_request(entry.url)
        url = self.site.clean_url(entry.url)
        if self.site.is_article(url):
            return self._article_request(url, None)
        callbacks: dict[str, Callable[..., Iterable[Request]]] = {
            "html": self.parse,
            "rss": self.parse_feed,
            "sitemap": self.parse_sitemap,
            "api": self.parse_api,
        }
        cb_kwargs = {"parser": entry.parser} if entry.kind == "api" else {}
        return Request(
            entry.url, callback=callbacks[entry.kind], cb_kwargs=cb_kwargs, errback=self.on_error
        )

    def _start_url_request(self, url: str) -> Request:
        """The request for a ``-a start_urls`` URL."""
        cleaned = self.site.clean_url(url)
        if self.site.is_article(cleaned):
            request = self._article_request(cleaned, None)
        else:
            request = Request(url, callback=self.parse_sniffed, errback=self.on_error)
        return self._as_asked(request, "start URL")

    def _given_article_request(self, url: str) -> Request:
        """The request for an ``-a article_urls`` URL: an article whatever the patterns say."""
        request = self._article_request(self.site.clean_url(url), None)
        request.meta[GIVEN_ARTICLE] = True
        return self._as_asked(request, "article URL")

    def _as_asked(self, request: Request, what: str) -> Request:
        """`request`, for a URL the user named, exempt from the offsite filter (itself
        only) when outside ``allowed_domains``."""
        if not self.site.is_allowed(request.url):
            request.meta["allow_offsite"] = True
            self.logger.info(
                "%s %s is outside allowed_domains (%s): fetched as asked; links found "
                "on it are followed only inside those domains",
                what,
                request.url,
                ", ".join(self.site.allowed_domains),
            )
        return request

    def _entry_requests(self, entries: list[Entry], found_on: str) -> Iterator[Request]:
        """Article requests for the recent article entries of a feed, sitemap or API."""
        for entry in self._recent(entries):
            if not self._requestable(entry.url):
                continue
            url = self.site.clean_url(entry.url)
            if self.site.is_article(url):
                yield self._article_request(url, found_on)
            else:
                self._count("discovery/not_article")

    def _recent(self, entries: list[Entry]) -> Iterator[Entry]:
        """`entries` not older than ``-a since`` (undated ones are kept)."""
        for entry in entries:
            if self.since and entry.published and entry.published < self.since:
                self._count("discovery/too_old")
            else:
                yield entry

    def _article_request(self, url: str, found_on: str | None) -> Request:
        """Article requests are marked so the incremental skip checks them against the store;
        counted, so the crawl's monitor knows articles were asked for."""
        self._count("requests/article")
        return Request(
            url,
            callback=self.parse_article,
            errback=self.on_error,
            meta={FOUND_ON: found_on, ARTICLE_META: True},
        )

    def _encoding(self, response: TextResponse) -> str:
        """The encoding to read a listing with: the site's override, else the extractor's rules."""
        if self.site.charset:
            return self.site.charset
        content_type = response.headers.get("Content-Type")
        http_charset = content_type.decode("latin-1") if content_type else None
        return decode_html(response.body, http_charset).encoding

    def _requestable(self, url: str) -> bool:
        """Whether a link a feed, sitemap, list API or robots.txt gives can be requested: one a
        URL parser cannot read (an unclosed IPv6 bracket, a port out of range, on which
        ``Request`` raises) is counted and skipped, where it would have cost the list every
        link after it. (Scrapy's link extractor drops such links from HTML listings itself.)"""
        try:
            _ = urlsplit(url).port  # reading the port is the check
        except ValueError:
            self._count("discovery/unreadable_url")
            return False
        return True

    def _malformed(self, kind: str, response: Response, why: str) -> None:
        self._count(f"discovery/malformed/{kind}")
        self.logger.warning("malformed %s at %s: %s", kind, response.url, why)

    def _count(self, key: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"newscrawl/{key}")


def _not_html(response: Response) -> str | None:
    """Why `response` cannot be an HTML page, else None: the kind its bytes are (``pdf``,
    ``png`` … or ``binary``, as the extract pipeline counts them), else its declared
    non-text type.

    Scrapy sniffs a text-looking body into a `TextResponse` whatever its Content-Type, so
    a declared non-text type (``application/pdf``) is checked as well. The other way round,
    a declared ``text/html`` makes an `HtmlResponse` of any body, and an image decoded as
    GB18030 would be stored as an article of garbage: the body is checked first.
    """
    kind = binary_kind(response.body)
    if kind:
        return kind
    content_type = (response.headers.get("Content-Type") or b"").decode("latin-1")
    mime = content_type.split(";", 1)[0].strip().lower()
    if mime and mime not in HTML_TYPES and not mime.startswith("text/"):
        return mime
    if not isinstance(response, TextResponse):
        return UNKNOWN_BINARY
    return None


def _positive_int(name: str, value: object) -> int | None:
    """A spider argument that must be a positive integer when given."""
    if value is None or value == "":
        return None
    try:
        number = int(str(value).strip())
    except ValueError:
        number = 0
    if number < 1:
        raise SpiderArgumentError(f"{name}={value!r} must be a positive integer")
    return number


def _urls(name: str, value: object) -> tuple[str, ...]:
    """``-a start_urls=u1,u2`` or ``-a article_urls=u1,u2``: each an absolute http(s) URL."""
    if value is None:
        return ()
    urls = tuple(url.strip() for url in str(value).split(",") if url.strip())
    for url in urls:
        if not url.startswith(("http://", "https://")) or not urlsplit(url).hostname:
            raise SpiderArgumentError(f"{name}: {url!r} is not an absolute http(s) URL")
    if not urls:
        raise SpiderArgumentError(f"{name} is empty: give one URL or more, comma-separated")
    return urls
