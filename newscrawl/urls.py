"""Canonical URLs: one key per article however a link to it was written.

The same article is linked with tracking parameters (``spm``, ``utm_*``, ``from`` …), over
http and https, from a mobile twin host, with a fragment. Storage and the incremental skip
both key on the canonical form, so these variants must collapse to one string. The canonical
URL is an identity key, not necessarily an address that answers: the fetched URL is stored
beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

DEFAULT_TRACKING_PARAMS: tuple[str, ...] = (
    "spm",
    "scm",
    "from",
    "utm_*",
    "_f",
    "_trans_",
    "fbclid",
    "gclid",
    "share_token",
    "isappinstalled",
    "wfr",
    "tt_from",
)
"""Query parameters that only say where a click came from; ``name*`` matches a prefix."""


@dataclass(frozen=True, slots=True)
class Canonicalizer:
    """Turns any spelling of an article URL into its canonical key.

    `tracking_params` extends the defaults with a site config's ``drop_params`` (its
    `SiteConfig.canonicalizer` cleans the site's links; the spider passes the list to the
    store and the incremental skip as the `NEWSCRAWL_TRACKING_PARAMS` setting);
    `host_twins` maps a twin host to the host it is stored under, e.g.
    ``{"m.sohu.com": "www.sohu.com"}`` (`NEWSCRAWL_HOST_TWINS`).
    """

    tracking_params: frozenset[str] = frozenset(DEFAULT_TRACKING_PARAMS)
    host_twins: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Left out of the hash (a dict has none), not out of equality."""

    @classmethod
    def from_settings(cls, settings: Any) -> Canonicalizer:
        """Build from Scrapy settings (a site's extra parameters and twin hosts)."""
        extra = settings.getlist("NEWSCRAWL_TRACKING_PARAMS")
        twins = settings.getdict("NEWSCRAWL_HOST_TWINS")
        return cls.with_extra(extra, twins)

    @classmethod
    def with_extra(
        cls, tracking_params: Iterable[str] = (), host_twins: Mapping[str, str] | None = None
    ) -> Canonicalizer:
        """The defaults plus a site's own tracking parameters and twin hosts."""
        params = frozenset(DEFAULT_TRACKING_PARAMS) | {p.lower() for p in tracking_params}
        twins = {k.lower(): v.lower() for k, v in (host_twins or {}).items()}
        return cls(params, twins)

    def is_tracking(self, name: str) -> bool:
        """True for a query parameter that does not change which page is served."""
        name = name.lower()
        if name in self.tracking_params:
            return True
        return any(p.endswith("*") and name.startswith(p[:-1]) for p in self.tracking_params)

    @lru_cache(maxsize=1024)  # noqa: B019 (the instances are few and live as long as the crawl)
    def __call__(self, url: str) -> str:
        """The canonical key: https, twin host folded, tracking parameters and fragment gone,
        query sorted and percent-encoding normalised (w3lib).

        The last URLs are kept, for any equal canonicalizer: a crawl canonicalises each
        article URL when the incremental skip asks the store about it and again, a few dozen
        requests later, when the store pipeline records it (w3lib's part costs 15-20 us)."""
        parts = urlsplit(canonicalize_url(url))
        host = parts.hostname or ""
        host = self.host_twins.get(host, host)
        netloc = host if parts.port in (None, 80, 443) else f"{host}:{parts.port}"
        scheme = "https" if parts.scheme in ("http", "https") else parts.scheme
        return urlunsplit((scheme, netloc, parts.path or "/", self._kept_query(parts.query), ""))

    def without_tracking(self, url: str) -> str:
        """`url` without its fragment and tracking parameters, otherwise as written: the
        form a crawl matches a site's URL patterns in and requests links in."""
        parts = urlsplit(url)
        return urlunsplit(parts._replace(query=self._kept_query(parts.query), fragment=""))

    def _kept_query(self, query: str) -> str:
        """`query` without its tracking parameters and empty pieces, in its own order."""
        return "&".join(
            pair
            for pair in query.split("&")
            if pair and not self.is_tracking(unquote(pair.partition("=")[0]))
        )
