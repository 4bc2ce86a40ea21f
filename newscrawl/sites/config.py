"""One site's crawl described as data: parsed and validated from ``<sites dir>/<name>.toml``.

Everything a site needs that is not code lives here (entry points, URL patterns, politeness,
charset, headers, tracking parameters), so adding a site means adding a TOML file. The
format is documented in ``newscrawl/configs/sites/README.md``.
"""

from __future__ import annotations

import codecs
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Literal, TypeVar, get_args
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from newscrawl.config_table import ConfigError, Table
from newscrawl.discovery.apis import API_PARSERS
from newscrawl.sites.patterns import PatternSyntaxError, UrlPattern
from newscrawl.urls import Canonicalizer

EntryKind = Literal["html", "rss", "sitemap", "api"]
ENTRY_KINDS: tuple[EntryKind, ...] = get_args(EntryKind)
PAGE_PLACEHOLDER = "{page}"
N = TypeVar("N", int, float)
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class SiteConfigError(ConfigError):
    """A site config that cannot be used; the message reads ``<file>: <key>: <problem>``."""


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """Where discovery starts: a listing page, feed, sitemap or JSON(P) list API."""

    kind: EntryKind
    url: str
    parser: str | None = None
    """The named list-API parser (``kind = "api"`` only), see `newscrawl.discovery.apis`."""


@dataclass(frozen=True, slots=True)
class Politeness:
    """Per-site overrides of Scrapy's settings; None keeps the project default."""

    download_delay: float | None = None
    concurrency: int | None = None
    depth_limit: int | None = None


@dataclass(frozen=True, slots=True)
class SiteConfig:
    """A validated site config. Patterns (RE2, `UrlPattern`) are searched in cleaned absolute
    URLs."""

    name: str
    path: Path
    description: str
    allowed_domains: tuple[str, ...]
    entries: tuple[EntryPoint, ...]
    article: tuple[UrlPattern, ...]
    not_article: tuple[UrlPattern, ...]
    """Pages never taken as articles though an article pattern matches, but followed when a
    follow pattern does (what a negative lookahead said, which RE2 lacks)."""
    follow: tuple[UrlPattern, ...]
    deny: tuple[UrlPattern, ...]
    drop_params: tuple[str, ...]
    """The site's tracking parameters, on top of `urls.DEFAULT_TRACKING_PARAMS`; a trailing
    ``*`` matches a prefix (``utm_*``)."""
    host_twins: Mapping[str, str]
    """Twin host -> the host its articles are stored under (``m.sohu.com = "www.sohu.com"``)."""
    charset: str | None
    headers: Mapping[str, str]
    user_agent: str | None
    """The User-Agent this site is sent instead of newscrawl's own (`newscrawl.identity`),
    for a site that refuses unknown agents; robots.txt is still read as ``newscrawl``."""
    politeness: Politeness
    timezone: ZoneInfo
    """The zone of dates given without an offset in feeds, sitemaps and APIs, and in the
    article pages (their publish times, and Unix times in their scripts)."""
    canonicalizer: Canonicalizer = field(init=False)
    """The canonical URLs of the site's articles (its `drop_params` and `host_twins` on top
    of the defaults), and the cleaning of its links (`clean_url`)."""

    def __post_init__(self) -> None:
        canonicalizer = Canonicalizer.with_extra(self.drop_params, self.host_twins)
        object.__setattr__(self, "canonicalizer", canonicalizer)

    def clean_url(self, url: str) -> str:
        """`url` without its fragment and tracking parameters (the defaults and `drop_params`):
        the form links are compared in and requested."""
        return self.canonicalizer.without_tracking(url)

    def is_allowed(self, url: str) -> bool:
        """Whether `url`'s host is one of `allowed_domains` or under one (ports ignored)."""
        host = (urlsplit(url).hostname or "").rstrip(".")
        return any(host == domain or host.endswith(f".{domain}") for domain in self.allowed_domains)

    def is_article(self, url: str) -> bool:
        """Whether `url` (cleaned) is an article page that goes to the extract pipeline."""
        return (
            _matches(self.article, url)
            and not _matches(self.not_article, url)
            and not _matches(self.deny, url)
        )

    def is_followed(self, url: str) -> bool:
        """Whether `url` (cleaned) is a listing page to follow (pagination, channel pages)."""
        return _matches(self.follow, url) and not _matches(self.deny, url)


def load_site(path: Path | Traversable) -> SiteConfig:
    """Read and validate one TOML file; raises `SiteConfigError` naming file, key and problem.

    `path` may lie inside a zipped egg (bundled configs under scrapyd); messages name it as
    ``<egg>/newscrawl/configs/sites/<name>.toml``.
    """
    where = Path(str(path))
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise SiteConfigError(where, "(syntax)", str(error)) from None
    except UnicodeDecodeError as error:
        problem = f"not UTF-8 (byte {error.start}): TOML files are UTF-8"
        raise SiteConfigError(where, "(file)", problem) from None
    except OSError as error:
        raise SiteConfigError(where, "(file)", error.strerror or str(error)) from None
    return parse_site(data, where)


def parse_site(data: dict[str, object], path: Path) -> SiteConfig:
    """Validate the parsed TOML `data` of the file at `path` (the file name is the site name)."""
    name = path.stem
    if not _NAME_RE.match(name):
        problem = "a site name is lower-case letters, digits, _ or -"
        raise SiteConfigError(path, "(file name)", problem)
    top = Table(dict(data), path, SiteConfigError)
    urls = top.table("urls")
    politeness = top.table("politeness")
    config = SiteConfig(
        name=name,
        path=path,
        description=top.get("description", str, ""),
        allowed_domains=_domains(top),
        entries=tuple(entry for table in _entry_tables(top) for entry in _entry_points(table)),
        article=_patterns(urls, "article", required=True),
        not_article=_patterns(urls, "not_article"),
        follow=_patterns(urls, "follow"),
        deny=_patterns(urls, "deny"),
        drop_params=tuple(urls.str_list("drop_params")),
        host_twins=MappingProxyType(urls.str_table("host_twins")),
        charset=_charset(top),
        headers=MappingProxyType(_headers(top)),
        user_agent=top.get("user_agent", str, "").strip() or None,
        politeness=Politeness(
            download_delay=_at_least(politeness, "download_delay", float, 0.0),
            concurrency=_at_least(politeness, "concurrency", int, 1),
            depth_limit=_at_least(politeness, "depth_limit", int, 0),
        ),
        timezone=_timezone(top),
    )
    for table in (urls, politeness, top):
        table.finish()
    return config


def _domains(top: Table) -> tuple[str, ...]:
    domains = top.str_list("allowed_domains")
    if not domains:
        raise top.error("allowed_domains", "list at least one domain (the crawl stays inside them)")
    for domain in domains:
        if "/" in domain or ":" in domain:
            problem = f"{domain!r} is a URL; give a bare domain like sina.com.cn"
            raise top.error("allowed_domains", problem)
    return tuple(domains)


def _entry_tables(top: Table) -> list[Table]:
    tables = top.tables("entry")
    if not tables:
        raise top.error("entry", "add at least one [[entry]] with kind and url")
    return tables


def _entry_points(table: Table) -> list[EntryPoint]:
    """One ``[[entry]]`` table; ``pages = N`` expands a ``{page}`` URL into pages 1..N."""
    kind = table.require("kind", str)
    if kind not in ENTRY_KINDS:
        raise table.error("kind", f"{kind!r} is not one of {', '.join(ENTRY_KINDS)}")
    url = table.require("url", str)
    if not url.startswith(("http://", "https://")):
        raise table.error("url", f"{url!r} is not an absolute http(s) URL")
    parser = table.get("parser", str, "") or None
    if kind == "api" and parser not in API_PARSERS:
        known = ", ".join(sorted(API_PARSERS))
        raise table.error("parser", f"{parser!r} is not a known list-API parser ({known})")
    if kind != "api" and parser is not None:
        raise table.error("parser", f'only kind = "api" entries take a parser, not {kind!r}')
    pages = _at_least(table, "pages", int, 1) or 1
    if pages > 1 and PAGE_PLACEHOLDER not in url:
        raise table.error("pages", f"pages = {pages} needs a {PAGE_PLACEHOLDER} placeholder in url")
    table.finish()
    return [
        EntryPoint(kind, url.replace(PAGE_PLACEHOLDER, str(page)), parser)
        for page in range(1, pages + 1)
    ]


def _patterns(table: Table, key: str, *, required: bool = False) -> tuple[UrlPattern, ...]:
    sources = table.str_list(key)
    if required and not sources:
        raise table.error(key, "list at least one regular expression")
    compiled = []
    for index, source in enumerate(sources):
        try:
            compiled.append(UrlPattern.compile(source))
        except PatternSyntaxError as error:
            problem = f"bad regular expression {source!r}: {error}"
            raise table.error(f"{key}[{index}]", problem) from None
    return tuple(compiled)


def _headers(top: Table) -> dict[str, str]:
    headers = top.str_table("headers")
    if any(name.lower() == "user-agent" for name in headers):
        raise top.error("headers", 'set the agent with the top-level key user_agent = "..."')
    return headers


def _charset(top: Table) -> str | None:
    charset = top.get("charset", str, "") or None
    if charset is not None:
        try:
            codecs.lookup(charset)
        except LookupError:
            raise top.error("charset", f"unknown encoding {charset!r}") from None
    return charset


def _timezone(top: Table) -> ZoneInfo:
    name = top.get("timezone", str, "Asia/Shanghai")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise top.error("timezone", f"unknown time zone {name!r} (use an IANA name)") from None


def _at_least(table: Table, key: str, kind: type[N], minimum: N) -> N | None:
    value = table.optional(key, kind)
    if value is not None and value < minimum:
        raise table.error(key, f"must be >= {minimum}, got {value}")
    return value


def _matches(patterns: tuple[UrlPattern, ...], url: str) -> bool:
    return any(pattern.search(url) for pattern in patterns)
